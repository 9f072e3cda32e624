"""The Entheos page's charts and figures, and your moves as buttons: each duel's exact
distribution after the next turn (`odds.next_turn`) or to the end alone (`duel.duel`), as the
lead or as each hero's points (`odds.duel_frame`), with a table of its exact figures; each god's
expected victory points simulated from the position (`odds.simulate`, or exact once no turn is
left; `odds.gods_frame`), with the war's odds; your choices (`move_rows`) and their CSS. The
battlefield and the players are drawn in `table`, the log and the words in `chronicle`.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence

import altair as alt
import ipywidgets as widgets
import polars as pl

from nessus import game
from nessus.dist import Dist
from nessus.games.entheos.chronicle import action_text, effect_words
from nessus.games.entheos.duel import duel
from nessus.games.entheos.heroes import GODS
from nessus.games.entheos.odds import SIDE_NAME, Position, WarFigure, next_turn
from nessus.games.entheos.state import Hold, Reveal, State, card_text
from nessus.games.entheos.table import SIDE_INK
from nessus.montecarlo import Estimate
from nessus.numbers import Kind, d3_format, number_html, number_text
from nessus.solver import Hint


# -- each duel -------------------------------------------------------------------------------------
def duel_chart(frame: pl.DataFrame, view: str, title: str, subtitle: list[str]) -> alt.FacetChart:
    """Bars of each duel's exact distribution, one row per duel, the position's value (`now`) a
    dashed rule (in the points view, one per hero, in its side's colour)."""
    order = list(dict.fromkeys(frame["duel"].to_list()))
    y = alt.Y("probability:Q", title="P", axis=alt.Axis(tickCount=3, format=d3_format("probability")))
    if view == "lead":
        colour = alt.Color(
            "ahead:N",
            scale=alt.Scale(
                domain=["Achaean ahead", "level", "Trojan ahead"], range=[SIDE_INK[0], "#9e9e9e", SIDE_INK[1]]
            ),
            legend=alt.Legend(orient="top", title=None),
        )
        x = alt.X("x:Q", title="lead of the Achaean hero (his points − the Trojan's)", axis=alt.Axis(tickMinStep=1))
        bars = (
            alt.Chart()
            .mark_bar(size=7)
            .encode(x=x, y=y, color=colour, tooltip=["duel", alt.Tooltip("x:Q", title="lead"), "exact"])
        )
        rule = (
            alt.Chart()
            .transform_aggregate(now="min(now)")
            .mark_rule(strokeDash=[4, 3], color="#222", strokeWidth=1.5)
            .encode(x="now:Q", tooltip=[alt.Tooltip("now:Q", title="lead at the position")])
        )
    else:
        colour = alt.Color(
            "ahead:N",
            scale=alt.Scale(domain=list(SIDE_NAME), range=list(SIDE_INK)),
            legend=alt.Legend(orient="top", title=None),
        )
        bars = (
            alt.Chart()
            .mark_line(point=alt.OverlayMarkDef(size=18), strokeWidth=1.5)
            .encode(
                x=alt.X("x:Q", title="a hero's points", axis=alt.Axis(tickMinStep=1)),
                y=y,
                color=colour,
                detail="hero:N",
                tooltip=["duel", "hero", alt.Tooltip("x:Q", title="points"), "exact"],
            )
        )
        rule = (
            alt.Chart()
            .transform_aggregate(now="min(now)", groupby=["hero", "ahead"])
            .mark_rule(strokeDash=[4, 3], strokeWidth=1.5)
            .encode(x="now:Q", color=colour, tooltip=["hero", alt.Tooltip("now:Q", title="points at the position")])
        )
    return (
        alt.layer(bars, rule, data=frame)
        .properties(width=300, height=62)
        .facet(
            row=alt.Row(
                "duel:N",
                sort=order,
                header=alt.Header(labelAngle=0, labelAlign="left", labelAnchor="start", labelOrient="top", title=None),
            ),
            title=alt.Title(title, subtitle=subtitle),
        )
        .resolve_scale(x="shared")
        .configure_facet(spacing=6)
    )


def duel_table(names: Sequence[str], dists: Sequence[Dist]) -> str:
    """Each duel's exact figures: expected points of both heroes, P(Achaean ahead), P(level), P(Trojan ahead)."""
    rows = []
    for name, d in zip(names, dists, strict=True):
        cells = (
            number_html(d.map(lambda ab: ab[0]).mean(), "value"),
            number_html(d.map(lambda ab: ab[1]).mean(), "value"),
            number_html(d.prob(lambda ab: ab[0] > ab[1])),
            number_html(d.prob(lambda ab: ab[0] == ab[1])),
            number_html(d.prob(lambda ab: ab[0] < ab[1])),
        )
        rows.append(f"<tr><td>{html.escape(name)}</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return (
        "<div class='nessus-wide'><table class='ent-duels' cellpadding='2' style='border-collapse:collapse;"
        "font-size:12px'><tr><th align='left'>duel</th><th title='the Achaean hero&#39;s expected points'>E[A]</th>"
        "<th title='the Trojan hero&#39;s expected points'>E[T]</th><th>P(A ahead)</th><th>P(level)</th>"
        f"<th>P(T ahead)</th></tr>{''.join(rows)}</table></div>"
        "<small style='color:#555'>A: the duel's Achaean hero, T: its Trojan; E: expected points.</small>"
    )


def duel_dists(at: Position, scope: str) -> tuple[list[Dist], str, list[str]]:
    """Each duel's exact distribution from the position (`scope` "next": the next turn of the war;
    "alone": the duel alone to the end), with the chart's title and subtitle."""
    left = at.left
    if scope == "next" and left:
        subtitle = [
            "the war's 6^6 rolls, no cards: rallies and guards",
            "act across a side (each duel's marginal);",
            f"dashed: the position ({at.tag})",
        ]
        return list(next_turn(at.points, at.places)), "Each duel after the next turn (exact)", subtitle
    if scope == "alone" and left:
        subtitle = [
            "the duel isolated (Ulysses' faces): a rally lifts only",
            "its own hero, a guard weakens only the opponent's steal;",
            f"dashed: the position ({at.tag})",
        ]
        title = f"Each duel alone to the end, {left} turn{'s' if left != 1 else ''} (exact)"
        return [duel(left, start=pair).dist for pair in at.duels], title, subtitle
    return [Dist({pair: 1}) for pair in at.duels], "No turn left: the duels as they end", [at.tag]


# -- each god --------------------------------------------------------------------------------------
def estimate_html(e: WarFigure, k: Kind = "value") -> str:
    """A simulated figure with its 95% interval, or an exact one."""
    if not isinstance(e, Estimate):
        return number_html(e, k)
    return (
        f"{number_html(e.value, k)} <small style='color:#555'>({number_html(e.ci[0], k, mark=False)} to "
        f"{number_html(e.ci[1], k, mark=False)})</small>"
    )


def gods_chart(frame: pl.DataFrame, title: str, subtitle: list[str]) -> alt.LayerChart:
    """Each god's expected victory points (bars, yours outlined) with its 95% interval (a rule)."""
    order = frame["god"].to_list()
    y = alt.Y("god:N", sort=order, title=None)
    bars = (
        alt.Chart()
        .mark_bar(height=14)
        .encode(
            y=y,
            x=alt.X("ev:Q", title="expected victory points"),
            color=alt.Color(
                "side:N",
                scale=alt.Scale(domain=list(SIDE_NAME), range=list(SIDE_INK)),
                legend=alt.Legend(orient="top", title=None),
            ),
            opacity=alt.condition("datum.yours", alt.value(1.0), alt.value(0.45)),
            stroke=alt.condition("datum.yours", alt.value("#222"), alt.value(None)),
            strokeWidth=alt.condition("datum.yours", alt.value(2), alt.value(0)),
            tooltip=["god", "side", alt.Tooltip("ev:Q", title="expected", format=d3_format("value")), "low", "high"],
        )
    )
    interval = alt.Chart().mark_rule(color="#222").encode(y=y, x="low:Q", x2="high:Q")
    return alt.layer(bars, interval, data=frame, title=alt.Title(title, subtitle=subtitle)).properties(
        width=300, height=150
    )


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
        if kind == "place":
            head = widgets.HTML("<small><b>place face down</b></small>")
            places = [move_button(a, hint, play, action_text(a).removesuffix(" face down")) for a in actions]
            rows.append(group(head, places))
        elif len(actions) == 1:
            rows.append(group(None, [move_button(actions[0], hint, play)]))
        else:
            rows.append(targets(kind, card, actions, hint, play))
    return rows


def targets(
    kind: str, card: int, actions: Sequence[game.Action], hint: Hint, play: Callable[[game.Action], None]
) -> widgets.HBox:
    """A reveal (or a hold) with a choice of targets: its button, and the targets in a menu with
    the hint's value of each, the best chosen."""
    effects = [a.effect if isinstance(a, (Reveal, Hold)) else None for a in actions]
    options = [
        (f"{effect_words(str(e))} · hint {number_text(hint.values[a], kind='value')}", i)
        for i, (a, e) in enumerate(zip(actions, effects, strict=True))
    ]
    pick = widgets.Dropdown(options=options, value=actions.index(max(actions, key=lambda a: hint.values[a])))
    pick.add_class(f"entheos-target-{kind}-{card}")
    older = actions[0].older if isinstance(actions[0], Hold) else None
    label = f"Reveal {card_text(card)}" if older is None else f"Hold {card_text(card)}, reveal older {card_text(older)}"
    button = widgets.Button(description=label, tooltip=f"{label}, with the effect chosen beside")
    button.add_class("entheos-move")
    button.add_class(f"move-{kind}")
    if hint.best in actions:
        button.button_style = "info"
    button.on_click(lambda _: play(actions[pick.value]))
    return group(None, [button, pick])


def move_button(
    action: game.Action, hint: Hint, play: Callable[[game.Action], None], label: str | None = None
) -> widgets.Button:
    """A move's button (the hint's move blue)."""
    b = widgets.Button(description=label or action_text(action), tooltip=action_text(action))
    b.add_class("entheos-move")
    b.add_class(f"move-{type(action).__name__.lower()}")
    if action == hint.best:
        b.button_style = "info"
    b.on_click(lambda _: play(action))
    return b


def group(head: widgets.Widget | None, items: Sequence[widgets.Widget]) -> widgets.HBox:
    box = widgets.HBox([*([head] if head is not None else []), *items])
    box.add_class("ent-group")
    return box


def moves_css() -> str:
    """The CSS of your prompt, your moves, the log and the page's buttons."""
    return (
        "<style>"
        ".ent-log{max-height:200px;overflow-y:auto;font-size:12px;border:1px solid rgba(128,128,128,.3);"
        "padding:3px 6px;margin-top:4px}"
        ".ent-log div:first-child{font-weight:bold}"
        ".ent-prompt{margin:6px 0 2px;font-size:14px}"
        ".ent-over{padding:4px 6px;border:2px solid #5cb85c;border-radius:6px}"
        ".ent-moves .ent-group{display:flex;flex-wrap:wrap;align-items:center;gap:2px 4px;max-width:100%}"
        ".ent-moves .widget-button{width:auto;max-width:100%;height:auto;min-height:28px;white-space:normal;"
        "text-align:left;padding:2px 8px;margin:2px}"
        ".ent-moves .widget-dropdown{width:auto;max-width:100%;flex:1 1 200px}"
        ".ent-moves .widget-dropdown select{max-width:100%}"
        ".nessus-dash .widget-button.entheos-new-game,.nessus-dash .widget-button.entheos-hint-move"
        "{width:auto;padding:0 12px}"
        "</style>"
    )
