"""What the La Tresse page shows, without a widget: the table seen from above, the last throw, the
log, the status, the hint, the figures and the charts, from the game's state and the seats' `names`."""

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
from nessus.kit import goals
from nessus.kit.dicegame import HELD, OPTIMAL, face_svg
from nessus.kit.tablegame import log_box, tinted
from nessus.numbers import Kind, decimal_text, number_html, number_text, rarity

WHERE = {
    CENTRE: ("centre", "#d8f0d0", "#2e7d32"),
    LEFT: ("left", "#d9ecff", "#1f5f99"),
    RIGHT: ("right", "#ffe3c2", HELD),
}
AGAIN = ("again", "#ffffff", "#777777")
OTHERS = ("#4c78a8", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2", "#ff9da6", "#9d755d", "#bab0ac")
MAX_LOG = 200


def solved_html(s: Solved, kind: Kind = "probability") -> str:
    """An exact figure in the page's number format; a bracket as its middle, and how close it is proven to be."""
    if s.exact is not None:
        return number_html(s.exact, kind)
    half = rarity(float((s.high - s.low) / 2))
    return f"{number_html(middle(s), kind, approx=True)} <small style='color:#555'>(proven to within {half})</small>"


def exact_text(s: Solved) -> str:
    """A figure for a tooltip: as `number_text` writes it (a bracket: its middle, and how close it is proven)."""
    if s.exact is not None:
        return number_text(s.exact)
    return f"{number_text(middle(s), 'decimal')}, proven to within {rarity(float((s.high - s.low) / 2))}"


def prompt(table: tresse.State, names: list[str], you: int, game: bool, mine: bool) -> tuple[str, str, str]:
    """The status line and the Throw and Play on buttons' words (`game`: against the machine; `mine`: your throw)."""
    hand, up = dice_word(table.hand), html.escape(next_up(table, names))
    if table.is_terminal():
        todo, throw, play_on = f"<b>Game over</b> after {table.throws} throws.", "Throw", "Play on"
    elif not game:
        todo = f"{up}. You throw for every seat: <b>Throw</b> once, or <b>Play on</b> to the end of this turn."
        throw, play_on = f"Throw {hand}", "Play on: end of the turn"
    elif mine:
        todo, throw, play_on = f"<b>Your turn</b>: throw your {hand}.", f"Throw your {hand}", "Play on"
    else:
        held = table.holdings[you]
        yours = f"you hold {dice_word(held)}" if held else "you hold no dice"
        todo, throw, play_on = f"{up} ({yours}): press <b>Play on</b>.", "Throw", "Play on"
    return f"<div class='tresse-status' style='font-size:15px'>{todo}</div>", throw, play_on


def result_html(table: tresse.State, names: list[str]) -> str:
    """Who won, once the game is over (else nothing)."""
    if table.winner is None:
        return ""
    winner = names[table.winner - 1]
    return (
        f"<div class='tresse-result' style='font-weight:bold;font-size:15px;color:#2e7d32'>"
        f"★ {html.escape(winner)} {verb(winner, 'win')}: the last die is in the centre.</div>"
    )


# -- the table seen from above -------------------------------------------------------------------
def seat_xy(seat: int, n: int) -> tuple[float, float]:
    """Where a seat (from 0) sits around the table's centre: seat 1 at the top, play going clockwise."""
    a = -math.pi / 2 + 2 * math.pi * seat / n
    return 190 + 150 * math.cos(a), 150 + 112 * math.sin(a)


def table_svg(table: tresse.State, you: int, names: list[str]) -> str:
    """The table from above: the dice each seat holds and the centre's; the thrower ringed, the winner starred."""
    n, dice, centre = table.rules.players, table.rules.dice, table.centre
    pile = "".join(
        f"<rect x='{190 - 7 * dice + 14 * i + 1}' y='128' width='12' height='12' rx='2' "
        f"fill='{'#ffffff' if i < centre else 'none'}' stroke='{'#333' if i < centre else '#aac7b1'}' "
        f"stroke-dasharray='{'0' if i < centre else '2 2'}'/>"
        for i in range(dice)
    )
    parts = [
        "<ellipse cx='190' cy='150' rx='108' ry='74' fill='#eef6ef' stroke='#8fb59a' stroke-width='2'/>",
        "<text x='190' y='98' text-anchor='middle' font-size='11' fill='#4b7a57'>play passes clockwise ↻</text>",
        f"<g class='tresse-centre' data-dice='{centre}'>{pile}<text x='190' y='160' text-anchor='middle' "
        f"font-size='12' fill='#2e5e3a'>centre: {centre} of {dice}</text></g>",
    ]
    for seat, held in enumerate(table.holdings):
        x, y = seat_xy(seat, n)
        throwing, won = table.current == seat + 1, table.winner == seat + 1
        stroke, width = ("#4c78a8", 3.5) if throwing else ("#2e7d32", 3) if won else ("#999", 1.2)
        dice_held = "".join(
            f"<rect x='{x - 6 * held + 12 * i + 1:.1f}' y='{y + 3:.1f}' width='10' height='10' rx='2' "
            "fill='#fff' stroke='#333'/>"
            for i in range(held)
        )
        none = f"<text x='{x:.1f}' y='{y + 12:.1f}' text-anchor='middle' font-size='11' fill='#aaa'>no dice</text>"
        parts.append(
            f"<g class='tresse-place{' throwing' if throwing else ''}{' won' if won else ''}' data-seat='{seat + 1}' "
            f"data-dice='{held}'><rect x='{x - 36:.1f}' y='{y - 20:.1f}' width='72' height='40' rx='8' "
            f"fill='{'#fff4e5' if seat == you else '#ffffff'}' stroke='{stroke}' stroke-width='{width}'/>"
            f"<text x='{x:.1f}' y='{y - 5:.1f}' text-anchor='middle' font-size='12' font-weight='bold' "
            f"fill='{'#2e7d32' if won else '#222'}'>{'★ ' if won else ''}{html.escape(names[seat])}</text>"
            f"{dice_held or none}</g>"
        )
    return (
        f"<svg class='tresse-table' width='380' height='300' viewBox='0 0 380 300' role='img' "
        f"aria-label='the table: dice held by each seat'>{''.join(parts)}</svg>"
    )


# -- a throw ---------------------------------------------------------------------------------------
def die_html(face: int, size: int) -> str:
    """A die tinted by where its face sends it."""
    _, fill, ink = WHERE.get(face, AGAIN)
    return face_svg(face, size, fill=fill, stroke=ink)


def throw_html(faces: tuple[int, ...], seat: int, names: list[str]) -> str:
    """The dice of a throw by `seat` (from 0), each tinted by where it goes, its destination written below."""
    cells = []
    for f in faces:
        word, _, ink = WHERE.get(f, AGAIN)
        to = {LEFT: names[(seat + 1) % len(names)], RIGHT: names[(seat - 1) % len(names)]}.get(f)
        cells.append(
            f"<div class='tresse-die' data-face='{f}' data-to='{word}' style='text-align:center;width:64px'>"
            f"{die_html(f, 44)}<div style='font-size:11px;color:{ink};font-weight:bold'>"
            f"{html.escape(f'→ {to}' if to else word)}</div></div>"
        )
    return f"<div style='display:flex;gap:2px;flex-wrap:wrap'>{''.join(cells)}</div>"


def log_line(after: tresse.State, names: list[str]) -> str:
    """The log's line for the last throw (`after` it): the dice, where they went, and who plays next."""
    seat, faces = after.history[-1][0] - 1, after.history[-1][1]
    name, dice = html.escape(names[seat]), "".join(die_html(f, 18) for f in faces)
    line = f"<b>{after.throws}.</b> {name}: {dice} {html.escape(throw_words(faces, seat, len(names), names))}."
    if after.is_terminal():
        line += f" <b>{name} {verb(names[seat], 'put')} the last die into the centre.</b>"
    elif after.current is not None and after.current != seat + 1:
        nxt = names[after.current - 1]
        line += f" Turn over: {html.escape(nxt)} {verb(nxt, 'play')}."
    return line


def log_html(table: tresse.State, names: list[str]) -> str:
    """The log, newest line first (at most MAX_LOG lines; one line a throw, `data-lines` counts them)."""
    return log_box([log_line(after, names) for after in table.states()[1:]], "tresse", MAX_LOG, "190px", "1.6")


def last_html(table: tresse.State, names: list[str]) -> str:
    """The last throw and where its dice went (before the first: who holds the dice, what each face does)."""
    if not table.history:
        return (
            "<div class='tresse-last' style='color:#666;font-size:13px;max-width:220px'>"
            f"{html.escape(names[0])} {verb(names[0], 'hold')} the {dice_word(table.rules.dice)}.<br>"
            "<span style='color:#2e7d32'>1: centre</span> · <span style='color:#1f5f99'>2: left</span> · "
            f"<span style='color:{HELD}'>5: right</span> · 3, 4, 6: thrown again</div>"
        )
    seat, faces = table.history[-1][0] - 1, table.history[-1][1]
    return (
        f"<div class='tresse-last' style='max-width:225px'><div style='font-size:13px;margin-bottom:4px'>"
        f"Throw {table.throws}: <b>{html.escape(names[seat])}</b> threw {dice_word(len(faces))}</div>"
        f"{throw_html(faces, seat, names)}</div>"
    )


# -- the hint and the figures ------------------------------------------------------------------------
def hint_html(table: tresse.State, names: list[str], you: int) -> str:
    """Every seat's P(win) from the table as it stands, and the expected throws left."""
    chances = tresse.chances_from(table)
    top = max(middle(c) for c in chances) or 1
    rows = []
    for i, c in enumerate(chances):
        bar = (
            f"<span style='display:inline-block;height:8px;width:{max(1, round(60 * middle(c) / top))}px;"
            f"background:{HELD if i == you else OPTIMAL}'></span>"
        )
        throwing = " <small style='color:#4c78a8'>throws</small>" if table.current == i + 1 else ""
        rows.append(
            f"<tr class='hint-row' data-seat='{i + 1}' style='{tinted(i == you, '1px solid #eee')};line-height:1.25'>"
            f"<td>{html.escape(names[i])}{throwing}</td>"
            f"<td align='center'>{table.holdings[i]}</td><td style='white-space:nowrap'>{solved_html(c)}</td>"
            f"<td>{bar}</td></tr>"
        )
    over = table.is_terminal()
    where = "the game is over." if over else f"{html.escape(next_up(table, names))}, {table.centre} in the centre."
    return (
        f"<div style='color:#555'>From here: {where}</div>"
        f"<div class='hint-best' style='margin:2px 0'>Expected throws left: "
        f"<b>{solved_html(tresse.throws_left(table), 'value')}</b></div>"
        "<table class='hint-table' cellpadding='2' style='border-collapse:collapse;width:100%;font-size:12px;"
        "border:1px solid #ddd;margin-top:4px'><tr style='background:#f4f4f4'><th align='left'>seat</th><th>dice</th>"
        "<th align='left'>P(win) from here</th><th></th></tr>"
        f"{''.join(rows)}</table><small style='color:#555'>{html.escape(method_note(table.rules))}</small>"
    )


def figures_html(rules: tresse.Rules, you: int) -> str:
    """Your chance and the first thrower's from the start, and the game's expected length."""
    wins = tresse.win_chances(rules)
    rows = [
        (f"P(you win), from the start (seat {you + 1})", solved_html(wins[you])),
        ("P(seat 1 wins): the first thrower", solved_html(wins[0])),
        ("expected throws in a game", solved_html(tresse.expected_throws(rules), "value")),
        ("expected turns in a game", solved_html(tresse.expected_turns(rules), "value")),
    ]
    return goals.figures_html((), rows, f"<small style='color:#555'>{html.escape(method_note(rules))}</small>", False)


# -- the charts ----------------------------------------------------------------------------------
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
    seat = alt.X(
        "seat:N",
        sort=frame["seat"].to_list(),
        axis=alt.Axis(labelAngle=0),
        title="seat (seat 1 throws first; seat 2 is on its left)",
    )
    base = alt.Chart(frame).encode(x=seat)
    bars = base.mark_bar().encode(
        y=alt.Y("probability:Q", title="P(win)"),
        color=alt.condition(alt.datum.yours, alt.value(HELD), alt.value(OPTIMAL)),
        tooltip=["who", alt.Tooltip("chance:N", title="P(win)")],
    )
    text = base.mark_text(dy=-6, fontSize=11, color="#333").encode(y="probability:Q", text="label:N")
    return alt.layer(bars, text, title=title).properties(width=470, height=190)


def path_chart(table: tresse.State, names: list[str], you: int) -> alt.Chart:
    """One line per seat: its P(win) after each throw of this game; yours thicker."""
    path = [tresse.chances_from(state) for state in table.states()]
    rows = [
        {"throw": k, "who": names[i], "probability": middle(c), "chance": exact_text(c)}
        for k, chances in enumerate(path)
        for i, c in enumerate(chances)
    ]
    state = "game over" if table.is_terminal() else f"{table.throws} throw{'s' if table.throws != 1 else ''} so far"
    how = "exact" if all(c.exact is not None for c in path[0]) else "middles of proven brackets"
    title = alt.Title(
        "P(win) by seat during this game",
        subtitle=f"from the dice as they lay after each throw; {state}; {how}",
    )
    throws = max(len(path) - 1, 5)  # the last throw in the frame
    others = [name for i, name in enumerate(names) if i != you]
    colours = alt.Scale(
        domain=names,
        range=[HELD if i == you else OTHERS[others.index(name) % len(OTHERS)] for i, name in enumerate(names)],
    )
    legend = alt.Legend(orient="right", symbolType="stroke")
    x = alt.X(
        "throw:Q",
        title="throws so far",
        scale=alt.Scale(domain=[0, throws]),
        axis=alt.Axis(values=list(range(0, throws + 1, max(1, math.ceil(throws / 10))))),
    )
    return (
        alt.Chart(pl.DataFrame(rows), title=title)
        .mark_line(point=alt.OverlayMarkDef(size=18), interpolate="step-after")
        .encode(
            x=x,
            y=alt.Y("probability:Q", title="P(win) from here", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("who:N", sort=names, title=None, scale=colours, legend=legend),
            strokeWidth=alt.condition(alt.datum.who == names[you], alt.value(3.5), alt.value(1.5)),
            tooltip=["who", alt.Tooltip("throw:Q", title="throws so far"), alt.Tooltip("chance:N", title="P(win)")],
        )
        .properties(width=440, height=200)
    )
