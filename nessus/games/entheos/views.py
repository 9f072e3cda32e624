"""The Entheos page's charts and figures with their words (`odds.Position`), and your moves as
buttons (`move_rows`, the heuristic hint's move blue).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from functools import partial

import altair as alt
import ipywidgets as widgets
import polars as pl

from nessus import game
from nessus.games.entheos.duel import Duel
from nessus.games.entheos.heroes import GODS
from nessus.games.entheos.odds import AHEAD, SIDE_NAME, WARS, Position, WarFigure, turns
from nessus.games.entheos.state import Hold, Reveal, State, action_text, card_text
from nessus.games.entheos.table import SIDE_INK
from nessus.montecarlo import Estimate
from nessus.numbers import Kind, d3_format, number_html, number_text
from nessus.solver import Hint


def side_colour(field: str, domain: Sequence[str] = SIDE_NAME, inks: Sequence[str] = SIDE_INK) -> alt.Color:
    """A colour scale, by default by side (Achaeans red, Trojans blue), its legend on top."""
    scale = alt.Scale(domain=list(domain), range=list(inks))
    return alt.Color(field, scale=scale, legend=alt.Legend(orient="top", title=None))


# -- each duel -------------------------------------------------------------------------------------
def duel_chart(frame: pl.DataFrame, view: str, title: str, subtitle: list[str]) -> alt.FacetChart:
    """Bars of each duel's exact distribution, one row per duel, the position's value (`now`) a
    dashed rule (in the points view, one per hero, in its side's colour)."""
    y = alt.Y("probability:Q", title="P", axis=alt.Axis(tickCount=3, format=d3_format("probability")))
    dashed = {"strokeDash": [4, 3], "strokeWidth": 1.5}
    if view == "lead":
        colour = side_colour("ahead:N", AHEAD, (SIDE_INK[0], "#9e9e9e", SIDE_INK[1]))
        x = alt.X("x:Q", title="lead of the Achaean hero (his points − the Trojan's)", axis=alt.Axis(tickMinStep=1))
        tooltip = ["duel", alt.Tooltip("x:Q", title="lead"), "exact"]
        bars = alt.Chart().mark_bar(size=7).encode(x=x, y=y, color=colour, tooltip=tooltip)
        rule = (
            alt.Chart()
            .transform_aggregate(now="min(now)")
            .mark_rule(color="#222", **dashed)
            .encode(x="now:Q", tooltip=[alt.Tooltip("now:Q", title="lead at the position")])
        )
    else:
        colour = side_colour("ahead:N")
        x = alt.X("x:Q", title="a hero's points", axis=alt.Axis(tickMinStep=1))
        tooltip = ["duel", "hero", alt.Tooltip("x:Q", title="points"), "exact"]
        line = alt.Chart().mark_line(point=alt.OverlayMarkDef(size=18), strokeWidth=1.5)
        bars = line.encode(x=x, y=y, color=colour, detail="hero:N", tooltip=tooltip)
        rule = (
            alt.Chart()
            .transform_aggregate(now="min(now)", groupby=["hero", "ahead"])
            .mark_rule(**dashed)
            .encode(x="now:Q", color=colour, tooltip=["hero", alt.Tooltip("now:Q", title="points at the position")])
        )
    order = list(dict.fromkeys(frame["duel"].to_list()))
    header = alt.Header(labelAngle=0, labelAlign="left", labelAnchor="start", labelOrient="top", title=None)
    return (
        alt.layer(bars, rule, data=frame)
        .properties(width=300, height=62)
        .facet(
            row=alt.Row("duel:N", sort=order, header=header),
            title=alt.Title(title, subtitle=subtitle),
        )
        .resolve_scale(x="shared")
        .configure_facet(spacing=6)
    )


def duel_table(names: Sequence[str], duels: Sequence[Duel]) -> str:
    """Each duel's exact figures: expected points of both heroes, P(Achaean ahead), P(level), P(Trojan ahead)."""
    rows = []
    for name, d in zip(names, duels, strict=True):
        cells = [number_html(d.mean_a(), "value"), number_html(d.mean_b(), "value")]
        cells += [number_html(p) for p in (d.p_ahead(), d.p_tied(), d.p_behind())]
        rows.append(f"<tr><td>{html.escape(name)}</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return (
        "<div class='nessus-wide'><table class='ent-duels' cellpadding='2' style='border-collapse:collapse;"
        "font-size:12px'><tr><th align='left'>duel</th><th title='the Achaean hero&#39;s expected points'>E[A]</th>"
        "<th title='the Trojan hero&#39;s expected points'>E[T]</th><th>P(A ahead)</th><th>P(level)</th>"
        f"<th>P(T ahead)</th></tr>{''.join(rows)}</table></div>"
        "<small style='color:#555'>A: the duel's Achaean hero, T: its Trojan; E: expected points.</small>"
    )


# -- each god --------------------------------------------------------------------------------------
def estimate_html(e: WarFigure, k: Kind = "value") -> str:
    """A simulated figure with its 95% interval, or an exact one."""
    if not isinstance(e, Estimate):
        return number_html(e, k)
    low, high = (number_html(x, k, mark=False) for x in e.ci)
    return f"{number_html(e.value, k)} <small style='color:#555'>({low} to {high})</small>"


def gods_chart(frame: pl.DataFrame, subtitle: list[str]) -> alt.LayerChart:
    """Each god's expected victory points (bars, yours outlined) with its 95% interval (a rule)."""
    y = alt.Y("god:N", sort=frame["god"].to_list(), title=None)
    bars = (
        alt.Chart()
        .mark_bar(height=14)
        .encode(
            y=y,
            x=alt.X("ev:Q", title="expected victory points"),
            color=side_colour("side:N"),
            opacity=alt.condition("datum.yours", alt.value(1.0), alt.value(0.45)),
            stroke=alt.condition("datum.yours", alt.value("#222"), alt.value(None)),
            strokeWidth=alt.condition("datum.yours", alt.value(2), alt.value(0)),
            tooltip=["god", "side", alt.Tooltip("ev:Q", title="expected", format=d3_format("value")), "low", "high"],
        )
    )
    interval = alt.Chart().mark_rule(color="#222").encode(y=y, x="low:Q", x2="high:Q")
    title = alt.Title("Each god's expected victory points", subtitle=subtitle)
    return alt.layer(bars, interval, data=frame, title=title).properties(width=300, height=150)


def war_html(estimates: Mapping[str, WarFigure], mine: Sequence[int], wars: int, note: str) -> str:
    """The war's figures (simulated, or exact when `wars` is 0): P(Achaeans win), P(Trojans win),
    P(tie), your expected victory points."""
    rows = [
        ("P(the Achaeans win the war)", estimate_html(estimates["p_achaeans_win"], "probability")),
        ("P(the Trojans win the war)", estimate_html(estimates["p_trojans_win"], "probability")),
        ("P(a tie: every god counts)", estimate_html(estimates["p_war_tied"], "probability")),
    ]
    if mine:
        gods = " + ".join(GODS[g].name for g in mine)
        rows.append((f"your expected victory points ({gods})", estimate_html(estimates["you_vp"])))
    body = "".join(f"<tr><td>{html.escape(k)}</td><td>{v}</td></tr>" for k, v in rows)
    return (
        f"<div class='ent-war' data-wars='{wars}'><table cellpadding='2' style='border-collapse:collapse;"
        f"font-size:12px'>{body}</table><small style='color:#555'>{html.escape(note)}</small></div>"
    )


# -- the odds in words ------------------------------------------------------------------------------
def duel_words(at: Position, alone: bool) -> tuple[str, list[str]]:
    """The title and subtitle of the duels' chart (`Position.duel_odds`)."""
    if not at.left:
        return "No turn left: the duels as they end", [at.tag]
    dashed = f"dashed: the position ({at.tag})"
    if alone:
        subtitle = [
            "the duel isolated (Ulysses' faces): a rally lifts only",
            "its own hero, a guard weakens only the opponent's steal;",
        ]
        return f"Each duel alone to the end, {turns(at.left)} (exact)", [*subtitle, dashed]
    subtitle = ["the war's 6^6 rolls, no cards: rallies and guards", "act across a side (each duel's marginal);"]
    return "Each duel after the next turn (exact)", [*subtitle, dashed]


def gods_words(at: Position) -> tuple[str, list[str]]:
    """The note under the gods' figures and the subtitle of their chart (`Position.figures`):
    simulated (`odds.WARS` wars) while turns are left, exact when none is."""
    if at.left:
        note = f"simulated: {WARS:,} wars, no interventions, from {at.words}; 95% intervals"
        subtitle = [
            f"simulated, {WARS:,} wars, no interventions,",
            f"from {at.tag}: {turns(at.left)} to go;",
            "95% intervals; yours outlined",
        ]
        return note, subtitle
    over = at.tag == "the war is over"
    note = ("the war is over" if over else "no turn left after this one, as the dice lie") + (
        ": each god's victory points, exactly"
    )
    first = "the war is over: the final victory points" if over else "no turn left: the points as the dice lie"
    return note, [first, "(exact; 0 for a god of the losing side)"]


# -- your moves ------------------------------------------------------------------------------------
def move_rows(s: State, hint: Hint, play: Callable[[game.Action], None]) -> list[widgets.HBox]:
    """Your choices as buttons, a row each: the card(s) to place, or your slot's reveals and holds
    grouped by card; the hint's move blue. `play(action)` plays a move."""
    groups: dict[tuple[str, int], list[game.Action]] = {}
    for a in s.legal_actions():
        key = ("hold", a.card) if isinstance(a, Hold) else ("reveal", a.card) if isinstance(a, Reveal) else None
        groups.setdefault(key or ("place", 0), []).append(a)
    rows = []
    for (kind, card), actions in groups.items():
        if kind != "place" and len(actions) > 1:
            rows.append(targets(kind, card, actions, hint, play))
            continue
        texts = [action_text(a) for a in actions]
        labels = [t.removesuffix(" face down") for t in texts] if kind == "place" else texts
        buttons = [
            move_button(label, text, kind, a == hint.best, partial(play, a))
            for a, label, text in zip(actions, labels, texts, strict=True)
        ]
        head = widgets.HTML("<small><b>place face down</b></small>") if kind == "place" else None
        rows.append(group(head, buttons))
    return rows


def targets(
    kind: str, card: int, actions: Sequence[game.Action], hint: Hint, play: Callable[[game.Action], None]
) -> widgets.HBox:
    """A reveal (or a hold) with a choice of targets: its button, and the targets in a menu with
    the hint's value of each, the best chosen."""
    effects = [a.effect if isinstance(a, (Reveal, Hold)) else None for a in actions]
    options = [
        (f"{action_text(e)} · hint {number_text(hint.values[a], kind='value')}", i)
        for i, (a, e) in enumerate(zip(actions, effects, strict=True))
    ]
    pick = widgets.Dropdown(options=options, value=actions.index(max(actions, key=lambda a: hint.values[a])))
    pick.add_class(f"entheos-target-{kind}-{card}")
    older = actions[0].older if isinstance(actions[0], Hold) else None
    label = f"Reveal {card_text(card)}" if older is None else f"Hold {card_text(card)}, reveal older {card_text(older)}"
    tooltip = f"{label}, with the effect chosen beside"
    go = move_button(label, tooltip, kind, hint.best in actions, lambda: play(actions[pick.value]))
    return group(None, [go, pick])


def move_button(label: str, tooltip: str, kind: str, best: bool, click: Callable[[], None]) -> widgets.Button:
    """A move's button (CSS classes entheos-move and move-`kind`; the hint's move blue)."""
    b = widgets.Button(description=label, tooltip=tooltip)
    b.add_class("entheos-move")
    b.add_class(f"move-{kind}")
    if best:
        b.button_style = "info"
    b.on_click(lambda _: click())
    return b


def group(head: widgets.Widget | None, items: Sequence[widgets.Widget]) -> widgets.HBox:
    """A row of your moves (`head` first, if any)."""
    box = widgets.HBox([*([head] if head is not None else []), *items])
    box.add_class("ent-group")
    return box
