"""Le Naute dashboard, what has no widget in it: the goals offered, the hint's labels, and the
page's HTML and charts (ship, captain and crew, the status line, the log, the score sheet, the
cargo chart and its figures) as pure functions (the goals themselves and the machine's policies
are in `nessus.games.naute.policies`)."""

from __future__ import annotations

import html
from collections.abc import Hashable
from functools import cache, partial

import altair as alt
import polars as pl

from nessus.dist import Dist, exact_str
from nessus.games import naute
from nessus.games.naute import HEURISTIC_FACE, CargoMean, Goal, State
from nessus.kit.dicegame import (
    HEURISTIC,
    OPTIMAL,
    Table,
    face_svg,
    hint_table,
    kind_of,
    mini_dice,
    policy_bars,
    policy_frame,
    probability_bars,
)
from nessus.numbers import decimal_text, number_html

CREW_NAMES = ("ship", "captain", "crew")
MACHINES = tuple(naute.MACHINES)
SCORES = [0, *range(2, naute.TOP + 1)]
CARGO_RULES = [
    ("sticky: a kept die stays kept", "sticky"),
    ("free: reroll any cargo die", "free"),
    ("both: reroll both or none", "both"),
]


@cache
def cargo_distributions(goal: Goal, cargo_holds: str) -> tuple[Dist, Dist]:
    """The exact cargo distribution under the play for the goal, and under the heuristic."""
    rules = naute.Rules(cargo_holds=cargo_holds)
    return naute.score_distribution(rules, goal.play(rules)), naute.score_distribution(rules, naute.heuristic(rules))


def result_text(totals: list[int], you: int) -> str:
    """Who won the game, in a sentence (a tie shares first place)."""
    top = [i for i, t in enumerate(totals) if t == max(totals)]
    names = " and ".join("you" if i == you else f"player {i + 1}" for i in top)
    if len(top) > 1:
        return f"Shared first place: {names}, with {max(totals)} cargo."
    return f"{names.capitalize()} win{'' if top == [you] else 's'} with {max(totals)} cargo."


# -- the expedition ---------------------------------------------------------------------------
def action_label(e: State, action: Hashable) -> str:
    """An action in the game's words, with little dice."""
    if action == "roll":
        return f"roll {naute.DICE - e.aboard} dice, looking for the {CREW_NAMES[e.aboard]} ({naute.CREWS[e.aboard]})"
    if action == "stop":
        return f"stop: take cargo {e.cargo}"
    assert isinstance(action, tuple)
    if not action:
        return "reroll both cargo dice"
    if len(action) == naute.CARGO_DICE:
        return f"keep {mini_dice(action, held=True)}"
    return f"keep {mini_dice(action, held=True)} reroll the other"


def roll_label(e: State, kept: tuple[int, ...]) -> str:
    """The Roll button's label: the dice it rolls, the cargo dice `kept` staying."""
    n = naute.CARGO_DICE - len(kept) if e.crew else naute.DICE - e.aboard
    return f"Roll {n} di{'e' if n == 1 else 'ce'}" if n else "Roll (keep fewer)"


def chosen_move(e: State, kept: tuple[int, ...]) -> Hashable:
    """What the cargo dice marked `kept` say you will do: roll (hunting), stop (both kept), or keep them."""
    if not e.crew:
        return "roll"
    return "stop" if len(kept) == naute.CARGO_DICE else kept


def keep_problem(e: State, kept: tuple[int, ...]) -> str | None:
    """Why the cargo dice `kept` may not be kept for a reroll (None when they may)."""
    if len(kept) == naute.CARGO_DICE:
        return "both cargo dice are kept: release one to reroll it, or press Stop"
    if kept not in naute.keep_options(e.kept, e.free, e.rules.cargo_holds):
        return "under the “both” cargo rule you reroll both cargo dice or none: release the kept die, or press Stop"
    return None


def crew_html(aboard: int) -> str:
    """Ship, captain and crew: a die for each one aboard, an empty dashed place otherwise."""
    slots = []
    for i, (name, face) in enumerate(zip(CREW_NAMES, naute.CREWS)):
        if i < aboard:
            pic = face_svg(face, 46, fill="#d9ecff", stroke="#1f5f99")
        else:
            pic = (
                "<svg width='46' height='46' viewBox='0 0 46 46'><rect x='2' y='2' width='42' height='42' rx='8' "
                "fill='none' "
                f"stroke='#aaa' stroke-width='2' stroke-dasharray='5 4'/><text x='23' y='30' text-anchor='middle' "
                f"font-size='20' fill='#aaa'>{face}</text></svg>"
            )
        state = "aboard" if i < aboard else "missing"
        slots.append(
            f"<div class='naute-slot {state}' data-role='{name}' style='text-align:center;margin-right:10px'>{pic}"
            f"<div style='font-size:12px;color:{'#1f5f99' if i < aboard else '#999'}'><b>{name.capitalize()}</b> "
            f"({face})</div></div>"
        )
    return f"<div class='naute-crew' style='display:flex;align-items:flex-end'>{''.join(slots)}</div>"


def hunt_text(before: State, after: State, new: list[int], k: int) -> str:
    """A hunting roll in a line of the log: the dice, who came aboard, the cargo once the crew is."""
    came = CREW_NAMES[before.aboard : after.aboard]
    aboard = f"{', '.join(came)} aboard" if came else f"no {CREW_NAMES[before.aboard]} ({naute.CREWS[before.aboard]})"
    cargo = f"; cargo <b>{after.cargo}</b>" if after.crew else ""
    return f"Roll {k}: {mini_dice(new)} → {aboard}{cargo}."


def dice_left(before: State, after: State, new: list[int]) -> list[int]:
    """A hunting roll's dice once those who came aboard are set aside (in the order rolled)."""
    rest = list(new)
    for face in naute.CREWS[before.aboard : after.aboard]:
        rest.remove(face)
    return rest


def tray_caption(e: State, over: bool) -> str:
    """The words above the dice: the cargo to keep, or the dice left from a hunting roll."""
    if e.crew:
        caption = "Cargo: click a die to keep it" if not over else "Cargo"
    else:
        caption = "Dice left from the last roll" if e.history else ""
    return f"<small style='color:#555'>{caption}</small>"


def status_html(e: State, over: bool, target: int | None) -> str:
    """Where your expedition `e` stands, in a sentence (`over`: it has ended; `target`: the
    score to beat on a game's last one)."""
    if over:
        verdict = (
            f"Cargo <b class='naute-cargo'>{e.cargo}</b>. <b>Expedition over.</b>"
            if e.crew
            else "No ship, captain and crew within 3 rolls: <b class='naute-cargo'>0</b>. <b>Expedition over.</b>"
        )
    elif e.crew:
        verdict = f"Ship, captain and crew aboard: cargo <b class='naute-cargo'>{e.cargo}</b> so far."
    else:
        verdict = f"Look for the {CREW_NAMES[e.aboard]} ({naute.CREWS[e.aboard]})."
    goal = "" if target is None else f" You play to beat <b>{target}</b> (last expedition)."
    return f"<div class='naute-status' style='font-size:15px'>{verdict}{goal}</div>"


def sheet_cells(scores: list[int], expeditions: int, playing: int | None) -> str:
    """A score sheet row's cells: the cargo of each expedition ("…" in the one `playing`)."""
    return "".join(
        f"<td align='center'>{scores[k] if k < len(scores) else ('…' if k == playing else '')}</td>"
        for k in range(expeditions)
    )


def sheet_html(state: State, you: int, mine: int, result: str, seats: Table) -> str:
    """The score sheet of a game (none alone): every player's cargo, expedition by expedition
    (`mine`: your expedition's place in the game, "…" while you play it), the totals and the
    `result`; `seats` names the players and styles their rows."""
    if not seats.game:
        return ""
    players, n = state.rules.players, state.rules.expeditions
    head = "".join(f"<th>exp. {k + 1}</th>" for k in range(n))
    totals = state.totals()
    rows = [
        f"<tr class='naute-player' style='{seats.row_style(seat)}'><td>{seats.who_html(seat)}</td>"
        f"{sheet_cells(s, n, mine // players if seat == you else None)}"
        f"<td align='center'><b>{totals[seat]}</b></td></tr>"
        for seat, s in enumerate(state.scores())
    ]
    end = (
        f"<div class='naute-result' style='font-weight:bold;margin-top:4px'>{html.escape(result)}</div>"
        if result
        else ""
    )
    return (
        "<h4 style='margin:8px 0 2px'>Score sheet: total cargo wins</h4>"
        "<table class='naute-sheet' cellpadding='3' "
        f"style='border-collapse:collapse;width:100%'><tr><th align='left'>player</th>{head}<th>total</th></tr>"
        f"{''.join(rows)}</table>{end}"
    )


def hint_html(e: State, goal: Goal, chosen: Hashable) -> str:
    """The goal and every legal action of your expedition `e` with its exact value, your `chosen` one marked."""
    note = "" if e.crew else " <small>(ship, captain and crew are set aside for you: the only move is to roll)</small>"
    return f"<div style='color:#555'>Goal: <b>{html.escape(goal.text)}</b>{note}</div>" + hint_table(
        e.hint(goal), chosen, partial(action_label, e), unit=goal.unit
    )


def log_html(lines: list[str]) -> str:
    """Your expedition's rolls so far, a line each (HTML)."""
    body = "".join(f"<div>{line}</div>" for line in lines)
    return f"<div class='naute-log' style='font-size:13px;line-height:1.7;min-height:20px'>{body}</div>"


# -- the charts and figures ---------------------------------------------------------------------
def cargo_view(goal: Goal, cargo_holds: str) -> tuple[alt.Chart, str]:
    """The cargo distribution under the optimal play for the goal vs keeping 4 or more, and its figures' table
    (the goal's figure, and the expected cargo too when the goal is another)."""
    best, rule = cargo_distributions(goal, cargo_holds)
    frame = policy_frame({"optimal": best, f"keep {HEURISTIC_FACE} or more": rule}, SCORES, str)
    goals = {g.figure: g for g in (goal, CargoMean())}  # the goal's figure first, the expected cargo once
    rows = [(figure, g.expected(best), g.expected(rule)) for figure, g in goals.items()]
    figure, mine, theirs = rows[0]
    mine_text, theirs_text = (decimal_text(v, kind_of(figure)) for v in (mine, theirs))
    title = alt.Title(
        f"Cargo of one expedition, playing for {goal.text}",
        subtitle=f"{figure}: optimal {mine_text}, keep {HEURISTIC_FACE} or more {theirs_text}",
    )
    chart = policy_bars(
        frame, title, "cargo (0: no ship, captain and crew)", [str(s) for s in SCORES], width=500, height=200
    )
    body = "".join(
        f"<tr><td>{html.escape(a)}</td><td>{number_html(b, kind_of(a))}</td><td>{number_html(c, kind_of(a))}</td></tr>"
        for a, b, c in rows
    )
    table = (
        "<table class='figures' cellpadding='3' style='font-size:13px;white-space:nowrap'><tr><th></th>"
        "<th align='left'>"
        f"<span style='color:{OPTIMAL}'>■</span> optimal</th><th align='left'><span style='color:{HEURISTIC}'>■</span> "
        f"keep {HEURISTIC_FACE} or more</th></tr>{body}</table><small style='color:#555'>Exact. The bar at 0 is the "
        "same for "
        "every way of playing: the cargo rule only changes what happens once ship, captain and crew are aboard.</small>"
    )
    return chart, table


def qualify_chart() -> alt.LayerChart:
    """P(ship, captain and crew aboard by roll k), k = 1, 2, 3, as labelled bars."""
    ps = naute.p_qualify_by_roll()
    frame = pl.DataFrame(
        {
            "value": [f"by roll {k}" for k in range(1, len(ps) + 1)],
            "probability": [float(p) for p in ps],
            "exact": [exact_str(p) for p in ps],
        }
    )
    return probability_bars(
        frame, "Ship, captain and crew aboard (exact, any play)", "", frame["value"].to_list(), width=500, height=110
    )
