"""What the La Tresse page shows, without a widget: the table seen from above, a throw and where
its dice went, the log, the hint's table of chances, the figures and the charts
(P(win) by seat at the start, and during this game), each a pure function of the game's state."""

from __future__ import annotations

import html
import math

import altair as alt
import polars as pl

from nessus.chains import Solved
from nessus.games import tresse
from nessus.games.tresse import CENTRE, LEFT, RIGHT
from nessus.games.tresse.odds import is_exact, method_note, middle
from nessus.games.tresse.state import dice_word, next_up, throw_words, verb
from nessus.kit.dicegame import HELD, OPTIMAL, face_svg
from nessus.kit.match import log_html as kit_log_html
from nessus.numbers import Kind, decimal_text, number_html, number_text, rarity

WHERE = {
    CENTRE: ("centre", "#d8f0d0", "#2e7d32"),
    LEFT: ("left", "#d9ecff", "#1f5f99"),
    RIGHT: ("right", "#ffe3c2", HELD),
}
AGAIN = ("again", "#ffffff", "#777777")
OTHERS = ("#4c78a8", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2", "#ff9da6", "#9d755d", "#bab0ac")
MAX_LOG = 200


# -- words and numbers -------------------------------------------------------------------------


def solved_html(s: Solved, kind: Kind = "probability") -> str:
    """An exact figure in the page's number format; a bracket as its middle, and how close it is proven to be."""
    if s.exact is not None:
        return number_html(s.exact, kind)
    half = rarity(float((s.high - s.low) / 2))
    return f"{number_html(middle(s), kind, approx=True)} <small style='color:#555'>(proven to within {half})</small>"


def exact_text(s: Solved) -> str:
    """A figure for a tooltip: the fraction with its decimal when short, else its decimal (a bracket's
    middle, and how close it is proven to be)."""
    if s.exact is not None:
        return number_text(s.exact)
    return f"{number_text(middle(s), 'decimal')}, proven to within {rarity(float((s.high - s.low) / 2))}"


# -- the table seen from above -------------------------------------------------------------------
def seat_xy(
    seat: int, n: int, cx: float = 190, cy: float = 150, rx: float = 150, ry: float = 112
) -> tuple[float, float]:
    """Where a seat (from 0) sits: seat 1 at the top, play going clockwise (each seat's left)."""
    a = -math.pi / 2 + 2 * math.pi * seat / n
    return cx + rx * math.cos(a), cy + ry * math.sin(a)


def table_svg(table: tresse.State, you: int, names: list[str]) -> str:
    """Who holds how many dice around the table, the dice in the centre, the thrower ringed in
    blue, your seat tinted, the winner starred."""
    n, dice, centre = table.rules.players, table.rules.dice, table.centre
    parts = [
        "<ellipse cx='190' cy='150' rx='108' ry='74' fill='#eef6ef' stroke='#8fb59a' stroke-width='2'/>",
        "<text x='190' y='98' text-anchor='middle' font-size='11' fill='#4b7a57'>play passes clockwise ↻</text>",
    ]
    pile = "".join(
        f"<rect x='{190 - 7 * dice + 14 * i + 1}' y='128' width='12' height='12' rx='2' "
        f"fill='{'#ffffff' if i < centre else 'none'}' stroke='{'#333' if i < centre else '#aac7b1'}' "
        f"stroke-dasharray='{'0' if i < centre else '2 2'}'/>"
        for i in range(dice)
    )
    parts.append(
        f"<g class='tresse-centre' data-dice='{centre}'>{pile}<text x='190' y='160' text-anchor='middle' "
        f"font-size='12' fill='#2e5e3a'>centre: {centre} of {dice}</text></g>"
    )
    for seat in range(n):
        x, y = seat_xy(seat, n)
        held = table.holdings[seat]
        throwing, won = table.current == seat + 1, table.winner == seat + 1
        fill = "#fff4e5" if seat == you else "#ffffff"
        stroke, width = ("#4c78a8", 3.5) if throwing else ("#2e7d32", 3) if won else ("#999", 1.2)
        dice_held = "".join(
            f"<rect x='{x - 6 * held + 12 * i + 1:.1f}' y='{y + 3:.1f}' width='10' height='10' rx='2' "
            "fill='#fff' stroke='#333'/>"
            for i in range(held)
        )
        if not held:
            dice_held = (
                f"<text x='{x:.1f}' y='{y + 12:.1f}' text-anchor='middle' font-size='11' fill='#aaa'>no dice</text>"
            )
        parts.append(
            f"<g class='tresse-place{' throwing' if throwing else ''}{' won' if won else ''}' data-seat='{seat + 1}' "
            f"data-dice='{held}'><rect x='{x - 36:.1f}' y='{y - 20:.1f}' width='72' height='40' rx='8' fill='{fill}' "
            f"stroke='{stroke}' stroke-width='{width}'/><text x='{x:.1f}' y='{y - 5:.1f}' text-anchor='middle' "
            f"font-size='12' font-weight='bold' fill='{'#2e7d32' if won else '#222'}'>{'★ ' if won else ''}"
            f"{html.escape(names[seat])}</text>{dice_held}</g>"
        )
    return (
        f"<svg class='tresse-table' width='380' height='300' viewBox='0 0 380 300' role='img' "
        f"aria-label='the table: dice held by each seat'>{''.join(parts)}</svg>"
    )


# -- a throw ---------------------------------------------------------------------------------------
def throw_html(faces: tuple[int, ...], seat: int, n: int, names: list[str]) -> str:
    """The dice of a throw, each tinted by where it goes, with its destination written below."""
    cells = []
    for f in faces:
        word, fill, ink = WHERE.get(f, AGAIN)
        to = {LEFT: names[(seat + 1) % n], RIGHT: names[(seat - 1) % n]}.get(f)
        caption = f"→ {to}" if to else word
        cells.append(
            f"<div class='tresse-die' data-face='{f}' data-to='{word}' style='text-align:center;width:64px'>"
            f"{face_svg(f, 44, fill=fill, stroke=ink)}<div style='font-size:11px;color:{ink};font-weight:bold'>"
            f"{html.escape(caption)}</div></div>"
        )
    return f"<div style='display:flex;gap:2px;flex-wrap:wrap'>{''.join(cells)}</div>"


def log_line(before: tresse.State, after: tresse.State, names: list[str]) -> str:
    """The log's line for the throw from `before` to `after`: the dice, where they went, and who plays next."""
    seat, faces = after.history[-1][0] - 1, after.history[-1][1]
    dice = "".join(face_svg(f, 18, fill=WHERE.get(f, AGAIN)[1], stroke=WHERE.get(f, AGAIN)[2]) for f in faces)
    line = (
        f"<b>{after.throws}.</b> {html.escape(names[seat])}: {dice} "
        f"{html.escape(throw_words(faces, seat, after.rules.players, names))}."
    )
    if after.is_terminal():
        line += f" <b>{html.escape(names[seat])} {verb(names[seat], 'put')} the last die into the centre.</b>"
    elif after.current is not None and after.current != before.current:
        nxt = names[after.current - 1]
        line += f" Turn over: {html.escape(nxt)} {verb(nxt, 'play')}."
    return line


def log_html(lines: list[str]) -> str:
    """The log, newest line first (at most MAX_LOG lines; one line a throw, `data-lines` counts them)."""
    return (
        "<div style='font-size:13px;line-height:1.6;max-height:190px;overflow-y:auto;border-top:1px solid #ddd;"
        f"margin-top:6px'>{kit_log_html(lines, 'tresse-log', MAX_LOG, escape=False)}</div>"
    )


def last_html(table: tresse.State, last: tuple[int, tuple[int, ...]] | None, names: list[str]) -> str:
    """The last throw and where its dice went; before the first, who holds the dice and what each face does."""
    if last is None:
        return (
            "<div class='tresse-last' style='color:#666;font-size:13px;max-width:220px'>"
            f"{html.escape(names[0])} {verb(names[0], 'hold')} the {dice_word(table.rules.dice)}.<br>"
            "<span style='color:#2e7d32'>1: centre</span> · <span style='color:#1f5f99'>2: left</span> · "
            f"<span style='color:{HELD}'>5: right</span> · 3, 4, 6: thrown again</div>"
        )
    seat, faces = last
    return (
        f"<div class='tresse-last' style='max-width:225px'><div style='font-size:13px;margin-bottom:4px'>"
        f"Throw {table.throws}: <b>{html.escape(names[seat])}</b> threw {dice_word(len(faces))}</div>"
        f"{throw_html(faces, seat, table.rules.players, names)}</div>"
    )


# -- the hint -------------------------------------------------------------------------------------


def hint_html(table: tresse.State, chances: tuple[Solved, ...], names: list[str], you: int) -> str:
    """Every seat's P(win) from the table as it stands, and the expected throws left."""
    top = max(middle(c) for c in chances) or 1
    rows = []
    for i, c in enumerate(chances):
        colour = HELD if i == you else OPTIMAL
        bar = (
            f"<span style='display:inline-block;height:8px;width:{max(1, round(60 * middle(c) / top))}px;"
            f"background:{colour}'></span>"
        )
        style = "background:#fff4e5;" if i == you else ""
        throwing = " <small style='color:#4c78a8'>throws</small>" if table.current == i + 1 else ""
        rows.append(
            f"<tr class='hint-row' data-seat='{i + 1}' style='{style}border-top:1px solid #eee;line-height:1.25'>"
            f"<td>{html.escape(names[i])}{throwing}</td><td align='center'>{table.holdings[i]}</td>"
            f"<td style='white-space:nowrap'>{solved_html(c)}</td><td>{bar}</td></tr>"
        )
    where = (
        "the game is over."
        if table.is_terminal()
        else f"{html.escape(next_up(table, names))}, {table.centre} in the centre."
    )
    return (
        f"<div style='color:#555'>From here: {where}</div>"
        f"<div class='hint-best' style='margin:2px 0'>Expected throws left: "
        f"<b>{solved_html(tresse.throws_left(table), 'value')}</b></div>"
        "<table class='hint-table' cellpadding='2' style='border-collapse:collapse;width:100%;font-size:12px;"
        "border:1px solid #ddd;margin-top:4px'><tr style='background:#f4f4f4'><th align='left'>seat</th><th>dice</th>"
        "<th align='left'>P(win) from here</th><th></th></tr>"
        f"{''.join(rows)}</table><small style='color:#555'>{html.escape(method_note(table.rules))}</small>"
    )


# -- the start: figures and chart ------------------------------------------------------------------
def figures_html(rules: tresse.Rules, you: int) -> str:
    """Your chance and the first thrower's from the start, and the game's expected length."""
    wins = tresse.win_chances(rules)
    rows = [
        (f"P(you win), from the start (seat {you + 1})", wins[you]),
        ("P(seat 1 wins): the first thrower", wins[0]),
        ("expected throws in a game", tresse.expected_throws(rules)),
        ("expected turns in a game", tresse.expected_turns(rules)),
    ]
    body = "".join(
        f"<tr><td>{html.escape(a)}</td><td>{solved_html(b, 'probability' if a.startswith('P(') else 'value')}</td></tr>"
        for a, b in rows
    )
    return (
        f"<table class='figures' cellpadding='3' style='font-size:13px'>{body}</table>"
        f"<small style='color:#555'>{html.escape(method_note(rules))}</small>"
    )


def start_chart(rules: tresse.Rules, you: int, names: list[str]) -> alt.LayerChart:
    """Bars of P(win) by seat at the start, yours in orange, labelled with their values."""
    wins = tresse.win_chances(rules)
    frame = pl.DataFrame(
        {
            "seat": [f"{i + 1}" + (" (you)" if i == you else "") for i in range(rules.players)],
            "who": names,
            "probability": [middle(w) for w in wins],
            "chance": [exact_text(w) for w in wins],
            "label": [decimal_text(middle(w)) for w in wins],
            "yours": [i == you for i in range(rules.players)],
        }
    )
    how = "exact" if is_exact(rules) else "proven brackets, narrower than 1 in a trillion"
    title = alt.Title(
        f"P(win) by seat: {rules.players} players, {dice_word(rules.dice)} ({how})",
        subtitle=f"seat 1 starts with the {dice_word(rules.dice)}; your seat ({you + 1}) in orange",
    )
    base = alt.Chart(frame).encode(
        x=alt.X(
            "seat:N",
            sort=frame["seat"].to_list(),
            axis=alt.Axis(labelAngle=0),
            title="seat (seat 1 throws first; seat 2 is on its left)",
        )
    )
    bars = base.mark_bar().encode(
        y=alt.Y("probability:Q", title="P(win)"),
        color=alt.condition(alt.datum.yours, alt.value(HELD), alt.value(OPTIMAL)),
        tooltip=["who", alt.Tooltip("chance:N", title="P(win)")],
    )
    text = base.mark_text(dy=-6, fontSize=11, color="#333").encode(y="probability:Q", text="label:N")
    return alt.layer(bars, text, title=title).properties(width=470, height=190)


# -- this game's chart -----------------------------------------------------------------------------


def path_chart(path: list[tuple[Solved, ...]], table: tresse.State, names: list[str], you: int) -> alt.Chart:
    """One line per seat: its P(win) after each throw of this game; yours thicker."""
    rows = [
        {"throw": k, "who": names[i], "probability": middle(c), "chance": exact_text(c)}
        for k, chances in enumerate(path)
        for i, c in enumerate(chances)
    ]
    frame, you_name = pl.DataFrame(rows), names[you]
    state = "game over" if table.is_terminal() else f"{table.throws} throw{'s' if table.throws != 1 else ''} so far"
    exact = all(c.exact is not None for c in path[0])
    title = alt.Title(
        "P(win) by seat during this game",
        subtitle=f"from the dice as they lay after each throw; "
        f"{state}; " + ("exact" if exact else "middles of proven brackets"),
    )
    throws = max(len(path) - 1, 5)  # the last throw in `frame`
    step = max(1, math.ceil(throws / 10))
    others = [name for name in names if name != you_name]
    colours = [HELD if name == you_name else OTHERS[others.index(name) % len(OTHERS)] for name in names]
    return (
        alt.Chart(frame, title=title)
        .mark_line(point=alt.OverlayMarkDef(size=18), interpolate="step-after")
        .encode(
            x=alt.X(
                "throw:Q",
                title="throws so far",
                scale=alt.Scale(domain=[0, throws]),
                axis=alt.Axis(values=list(range(0, throws + 1, step))),
            ),
            y=alt.Y("probability:Q", title="P(win) from here", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color(
                "who:N",
                sort=names,
                title=None,
                scale=alt.Scale(domain=names, range=colours),
                legend=alt.Legend(orient="right", symbolType="stroke"),
            ),
            strokeWidth=alt.condition(alt.datum.who == you_name, alt.value(3.5), alt.value(1.5)),
            tooltip=["who", alt.Tooltip("throw:Q", title="throws so far"), alt.Tooltip("chance:N", title="P(win)")],
        )
        .properties(width=440, height=200)
    )
