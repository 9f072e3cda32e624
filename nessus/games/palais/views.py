"""Le Palais' page, what has no widget in it: the goals offered, and the page's HTML and charts
as pure functions of the turn or the game (the goals themselves and the machine's policies are
in `nessus.games.palais.policies`)."""

from __future__ import annotations

import html
from collections.abc import Hashable
from functools import cache

import altair as alt
import polars as pl

from nessus.dist import exact_str
from nessus.games import palais
from nessus.games.palais import NAMES, Goal, State, hand_text
from nessus.games.palais.hands import reading_order
from nessus.kit.dicegame import Table, mini_dice
from nessus.kit.goals import figures_html, seats_html, status_html, swatch
from nessus.kit.hint import HEURISTIC, OPTIMAL, policy_bars, policy_frame, probability_bars
from nessus.numbers import decimal_text, number_html

BEAT = "beat"
GOALS = [(f"at least {NAMES[h]}", h) for h in palais.HANDS[1:-1]] + [("Palais", "palais"), ("beat a given hand", BEAT)]
TIE_BREAKS = [("A: higher dice win", "A"), ("B: same hand, roll off", "B")]
ORDER = [NAMES[h] for h in palais.HANDS]
SLANT = alt.Axis(labelAngle=-35, labelOverlap=False)
"""The hands' names on a chart's axis are slanted: nine of them stay apart on a phone."""


def action_label(state: State, action: Hashable) -> str:
    """An action in the game's words, with little dice."""
    if action == "roll":
        return "roll all five dice"
    if action == "stop":
        return f"stop: keep {NAMES[state.category]}" if state.rolled else "stop"
    assert isinstance(action, tuple)
    if not action:
        return "reroll all five"
    return f"hold {mini_dice(action, held=True)} reroll {palais.DICE - len(action)}"


def status(state: State, you: int) -> str:
    """Your hand so far, in words (before the first roll: press Roll)."""
    over, hand, _ = state.seat_turn(you)
    if not hand:
        return "<div class='palais-status'>Your turn: press <b>Roll 5 dice</b>.</div>"
    end = " <b>Turn over.</b>" if over else ""
    text = f"Your hand: <b class='palais-hand'>{NAMES[palais.category(hand)]}</b> ({hand_text(hand)}).{end}"
    return status_html("palais", text)


def players_html(state: State, seats: Table, winner: int) -> str:
    """The players' final hands in a game, in seat order, and the `winner`'s (-1 before the end; "" alone)."""
    if not seats.game:
        return ""
    result = state.result_text(winner, seats.you) if winner >= 0 else ""

    def turn(seat: int) -> tuple[str, str]:
        n, final = state.rolls_made[seat], state.hands[seat]
        cat = f"<b>{NAMES[palais.category(final)]}</b> <small>in {n} roll{'s' if n > 1 else ''}</small>"
        return mini_dice(reading_order(final)), cat

    turns = [turn(seat) if state.turn_over(seat) else None for seat in range(state.rules.players)]
    return seats_html("palais", "The game, in seat order", seats, turns, {winner} if result else (), result)


@cache
def chart_view(goal: Goal, sticky: bool) -> tuple[alt.Chart, str]:
    """The final hand's exact law under the optimal holds for the goal and under "keep the most
    common face", and the figures beside it (the goal's exact probability under each); the same
    objects for the same goal (a chart pane then draws it without converting it again)."""
    best, rule, v_best, v_rule = palais.final_hands(goal, sticky)
    cats = {"optimal holds": best.map(palais.category), "most common face": rule.map(palais.category)}
    title = alt.Title(
        f"Your final hand, playing for {goal.text}",
        subtitle=f"{goal.text}: optimal holds {decimal_text(v_best)}, most common face {decimal_text(v_rule)}",
    )
    frame = policy_frame(cats, palais.HANDS, lambda h: NAMES[str(h)])
    chart = policy_bars(frame, title, "final hand", ORDER, width=500, height=200)
    chart.encoding.x.axis = SLANT
    rows = [(swatch(OPTIMAL, "optimal holds"), number_html(v_best))]
    rows.append((swatch(HEURISTIC, "keep the most common face"), number_html(v_rule)))
    note = (
        "<small style='color:#555'>The bars: the exact chance of ending the turn with each hand. The optimal "
        "holds maximise the goal's probability; the person's rule holds every die of the most common face.</small>"
    )
    return chart, figures_html((html.escape(goal.text), "exact"), rows, note, nowrap=False)


@cache
def single_chart() -> alt.LayerChart:
    """The chance of each hand on a single roll of five dice (the same object every time)."""
    p = palais.p_single()
    exact = [f"{exact_str(p[h])} = {p[h] * 7776}/7776" for h in palais.HANDS]
    frame = pl.DataFrame({"value": ORDER, "probability": [float(p[h]) for h in palais.HANDS], "exact": exact})
    chart = probability_bars(frame, "Each hand on a single roll of five dice (exact)", "hand", ORDER, 500, 130)
    for layer in chart.layer:
        layer.encoding.x.axis = SLANT
    return chart
