"""Le Naute's page, what has no widget in it: the cargo rules offered, the hint's labels, and the
page's HTML and charts as pure functions (ship, captain and crew, the status line, the log's
lines, the score sheet, the cargo chart and its figures). The goals and the machine's policies
are in `nessus.games.naute.policies`."""

from __future__ import annotations

import html
from collections.abc import Hashable

import altair as alt
import polars as pl

from nessus.dist import exact_str
from nessus.games import naute
from nessus.games.naute import HEURISTIC_FACE, CargoMean, Goal, State
from nessus.kit.common import face_svg
from nessus.kit.dicegame import Table, mini_dice
from nessus.kit.goals import figures_html, seat_row, sheet_html, status_html, swatch
from nessus.kit.hint import HEURISTIC, OPTIMAL, kind_of, policy_bars, policy_frame, probability_bars
from nessus.numbers import decimal_text, number_html

CREW_NAMES = ("ship", "captain", "crew")
SCORES = [0, *range(2, naute.TOP + 1)]
HUNTING = " <small>(ship, captain and crew are set aside for you: the only move is to roll)</small>"
CARGO_RULES = [
    ("sticky: a kept die stays kept", "sticky"),
    ("free: reroll any cargo die", "free"),
    ("both: reroll both or none", "both"),
]


def action_label(e: State, action: Hashable) -> str:
    """An action in the game's words, with little dice."""
    if action == "roll":
        return f"roll {naute.DICE - e.aboard} dice, looking for the {CREW_NAMES[e.aboard]} ({naute.CREWS[e.aboard]})"
    if action == "stop":
        return f"stop: take cargo {e.cargo}"
    assert isinstance(action, tuple)
    if not action:
        return "reroll both cargo dice"
    return f"keep {mini_dice(action, held=True)}" + ("" if len(action) == naute.CARGO_DICE else " reroll the other")


def crew_html(aboard: int) -> str:
    """Ship, captain and crew: a die for each one aboard, an empty dashed place otherwise."""
    slots = []
    for i, (name, face) in enumerate(zip(CREW_NAMES, naute.CREWS)):
        if i < aboard:
            pic = face_svg(face, 46, fill="#d9ecff", stroke="#1f5f99")
        else:
            pic = (
                "<svg width='46' height='46' viewBox='0 0 46 46'><rect x='2' y='2' width='42' height='42' rx='8' "
                "fill='none' stroke='#aaa' stroke-width='2' stroke-dasharray='5 4'/><text x='23' y='30' "
                f"text-anchor='middle' font-size='20' fill='#aaa'>{face}</text></svg>"
            )
        state = "aboard" if i < aboard else "missing"
        slots.append(
            f"<div class='naute-slot {state}' data-role='{name}' style='text-align:center;margin-right:10px'>{pic}"
            f"<div style='font-size:12px;color:{'#1f5f99' if i < aboard else '#999'}'><b>{name.capitalize()}</b> "
            f"({face})</div></div>"
        )
    return f"<div class='naute-crew' style='display:flex;align-items:flex-end'>{''.join(slots)}</div>"


def roll_line(before: State, after: State, new: list[int], k: int) -> str:
    """Roll `k` in the log: the dice, who came aboard (hunting), the cargo once the crew is."""
    if before.crew:
        return f"Roll {k}: {mini_dice(new)} into the cargo → cargo <b>{after.cargo}</b>."
    came = CREW_NAMES[before.aboard : after.aboard]
    aboard = f"{', '.join(came)} aboard" if came else f"no {CREW_NAMES[before.aboard]} ({naute.CREWS[before.aboard]})"
    cargo = f"; cargo <b>{after.cargo}</b>" if after.crew else ""
    return f"Roll {k}: {mini_dice(new)} → {aboard}{cargo}."


def tray_caption(e: State, over: bool) -> str:
    """The words above the dice: the cargo to keep, or the dice left from a hunting roll."""
    cargo = "Cargo" if over else "Cargo: click a die to keep it"
    return (
        f"<small style='color:#555'>{cargo if e.crew else 'Dice left from the last roll' if e.history else ''}</small>"
    )


def status(e: State, over: bool) -> str:
    """Where your expedition `e` stands, in a sentence (`over`: it has ended), and the score it
    must beat on a game's last one."""
    if over and e.crew:
        verdict = f"Cargo <b class='naute-cargo'>{e.cargo}</b>. <b>Expedition over.</b>"
    elif over:
        verdict = "No ship, captain and crew within 3 rolls: <b class='naute-cargo'>0</b>. <b>Expedition over.</b>"
    elif e.crew:
        verdict = f"Ship, captain and crew aboard: cargo <b class='naute-cargo'>{e.cargo}</b> so far."
    else:
        verdict = f"Look for the {CREW_NAMES[e.aboard]} ({naute.CREWS[e.aboard]})."
    goal = "" if e.target is None else f" You play to beat <b>{e.target}</b> (last expedition)."
    return status_html("naute", verdict + goal)


def sheet(state: State, seats: Table, playing: int | None) -> str:
    """The score sheet of a game: every player's cargo, expedition by expedition ("…" in yours
    while you play it: `playing`), their totals and the result."""
    n = state.rules.expeditions
    head = "".join(f"<th>exp. {k + 1}</th>" for k in range(n))
    rows = [f"<tr><th align='left'>player</th>{head}<th>total</th></tr>"]
    for seat, (scores, total) in enumerate(zip(state.scores(), state.totals())):
        now = playing if seat == seats.you else None
        cells = "".join(
            f"<td align='center'>{scores[k] if k < len(scores) else ('…' if k == now else '')}</td>" for k in range(n)
        )
        total_cell = f"<td align='center'><b>{total}</b></td>"
        rows.append(seat_row("naute", seats, seat, f"<td>{seats.who_html(seat)}</td>{cells}{total_cell}"))
    title = "Score sheet: total cargo wins"
    return sheet_html("naute", title, "naute-sheet", rows, state.result_text(seats.you))


def cargo_view(goal: Goal, cargo_holds: str) -> tuple[alt.Chart, str]:
    """The cargo distribution under the optimal play for the goal vs keeping 4 or more, and its figures' table
    (the goal's figure, and the expected cargo too when the goal is another)."""
    best, rule = naute.cargo_distributions(goal, cargo_holds)
    heuristic = f"keep {HEURISTIC_FACE} or more"
    frame = policy_frame({"optimal": best, heuristic: rule}, SCORES, str)
    goals = {g.figure: g for g in (goal, CargoMean())}  # the goal's figure first, the expected cargo once
    rows = [(figure, g.expected(best), g.expected(rule)) for figure, g in goals.items()]
    figure, mine, theirs = rows[0]
    mine_text, theirs_text = (decimal_text(v, kind_of(figure)) for v in (mine, theirs))
    title = alt.Title(
        f"Cargo of one expedition, playing for {goal.text}",
        subtitle=f"{figure}: optimal {mine_text}, {heuristic} {theirs_text}",
    )
    x_title = "cargo (0: no ship, captain and crew)"
    chart = policy_bars(frame, title, x_title, [str(s) for s in SCORES], width=500, height=200)
    note = (
        "<small style='color:#555'>Exact. The bar at 0 is the same for every way of playing: the cargo rule only "
        "changes what happens once ship, captain and crew are aboard.</small>"
    )
    cells = ((html.escape(a), number_html(b, kind_of(a)), number_html(c, kind_of(a))) for a, b, c in rows)
    return chart, figures_html(("", swatch(OPTIMAL, "optimal"), swatch(HEURISTIC, heuristic)), cells, note)


def qualify_chart() -> alt.LayerChart:
    """P(ship, captain and crew aboard by roll k), k = 1, 2, 3, as labelled bars."""
    ps = naute.p_qualify_by_roll()
    labels = [f"by roll {k}" for k in range(1, len(ps) + 1)]
    frame = pl.DataFrame({"value": labels, "probability": [float(p) for p in ps], "exact": [exact_str(p) for p in ps]})
    title = "Ship, captain and crew aboard (exact, any play)"
    return probability_bars(frame, title, "", labels, width=500, height=110)
