"""Le Naute dashboard, what has no widget in it: the goals and the plays compared, the machine's
expedition, the hint's labels, and the page's HTML and charts (ship, captain and crew, the
status line, the score sheet, the cargo chart and its figures) as pure functions."""

from __future__ import annotations

import html
from collections.abc import Hashable
from fractions import Fraction
from functools import cache

import altair as alt
import polars as pl

from nessus import game as protocol
from nessus.dist import Dist, exact_str
from nessus.games import naute
from nessus.games.naute import Above, CargoMean, State
from nessus.kit.dicegame import (
    HEURISTIC,
    OPTIMAL,
    face_svg,
    kind_of,
    mini_dice,
    policy_bars,
    policy_frame,
    probability_bars,
)
from nessus.numbers import number_html
from nessus.solver import TurnPolicy

CREW_NAMES = ("ship", "captain", "crew")
MACHINES = ("optimal", "keep 4 or more")
POLICIES = {"optimal": "optimal", "keep 4 or more": "keep_at_least"}  # the game's policy each machine plays
SCORES = [0, *range(2, naute.TOP + 1)]
HEURISTIC_FACE = 4

Objective = CargoMean | Above


# -- goals and policies ------------------------------------------------------------------------
def goal_text(objective: Objective) -> str:
    """The goal in words."""
    return "the expected cargo" if isinstance(objective, CargoMean) else f"P(cargo > {objective.target})"


def unit(objective: Objective) -> str:
    """What the goal's values are, as the hint names them."""
    return "expected cargo" if isinstance(objective, CargoMean) else "probability"


def optimal(objective: Objective, rules: naute.Rules) -> TurnPolicy:
    """The optimal play of the cargo for the goal (from the core solver); to beat a target,
    the most expected cargo among the plays that beat it most often."""
    if isinstance(objective, Above):
        return naute.chase_policy(objective.target, rules)
    return naute.optimal(objective, rules)


def heuristic(rules: naute.Rules) -> TurnPolicy:
    """Keep every cargo die of 4 or more (as the cargo rule allows), reroll the others."""
    return naute.legal(naute.keep_at_least(HEURISTIC_FACE), rules.cargo_holds)


def machine_policies(machine: str, rules: naute.Rules, seats: range) -> dict[int, protocol.Policy]:
    """The policies of the machine players in `seats`, as `nessus.play.play` takes them: optimally
    (for the mean, or to beat the best other total on the last expedition), or the heuristic."""
    policy = naute.policies(rules)[POLICIES[machine]]
    return {seat: policy for seat in seats}


@cache
def cargo_distributions(objective: Objective, cargo_holds: str) -> tuple[Dist, Dist]:
    """The exact cargo distribution under the optimal play for the goal, and under the heuristic."""
    rules = naute.Rules(cargo_holds=cargo_holds)
    return naute.score_distribution(rules, optimal(objective, rules)), naute.score_distribution(rules, heuristic(rules))


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


# -- the charts and figures ---------------------------------------------------------------------
def cargo_view(goal: Objective, cargo_holds: str) -> tuple[alt.Chart, str]:
    """The cargo distribution under the optimal play for the goal vs keeping 4 or more, and its figures' table."""
    best, rule = cargo_distributions(goal, cargo_holds)
    frame = policy_frame({"optimal": best, f"keep {HEURISTIC_FACE} or more": rule}, SCORES, str)
    if isinstance(goal, Above):
        figure = f"P(cargo > {goal.target})"
        values = [d.prob(lambda c: c > goal.target) for d in (best, rule)]
    else:
        figure, values = "expected cargo", [best.mean(), rule.mean()]
    title = alt.Title(
        f"Cargo of one expedition, playing for {goal_text(goal)}",
        subtitle=f"{figure}: optimal {float(values[0]):.4f}, keep {HEURISTIC_FACE} or more {float(values[1]):.4f}",
    )
    chart = policy_bars(
        frame, title, "cargo (0: no ship, captain and crew)", [str(s) for s in SCORES], width=500, height=200
    )
    rows = [(figure, Fraction(values[0]), Fraction(values[1]))]
    if isinstance(goal, Above):
        rows.append(("expected cargo", best.mean(), rule.mean()))
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
