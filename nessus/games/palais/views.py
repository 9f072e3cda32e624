"""Le Palais dashboard, what has no widget in it: the goals offered, hands typed and in words,
and the page's HTML and charts as pure functions of the turn or the game (the goals themselves
and the machine's policies are in `nessus.games.palais.policies`)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Hashable
from functools import partial

import altair as alt
import polars as pl

from nessus.dist import exact_str
from nessus.games import palais
from nessus.games.palais import NAMES, Goal, State, hand_text
from nessus.games.palais.hands import reading_order
from nessus.kit.dicegame import hint_table, mini_dice, policy_bars, policy_frame, probability_bars
from nessus.numbers import decimal_text, number_html

BEAT = "beat"
GOALS = [(f"at least {NAMES[h]}", h) for h in palais.HANDS[1:-1]] + [("Palais", "palais"), ("beat a given hand", BEAT)]
MACHINES = tuple(palais.MACHINES)
TIE_BREAKS = [("A: higher dice win", "A"), ("B: same hand, roll off", "B")]
DEFAULT_TARGET = "3 3 3 2 2"
LABEL_ANGLE = -35
"""The hands' names on a chart's axis are slanted: nine of them stay apart on a phone."""


def your_turn(state: State, you: int) -> tuple[bool, tuple[int, ...], int]:
    """Your turn as the page shows it: over or not, your hand so far (() before the first
    roll) and the rolls made."""
    if state.turn_over(you):
        return True, state.hands[you], state.rolls_made[you]
    return False, (state.hand if state.rolled else ()), len(state.history)


def parse_hand(text: str) -> tuple[int, ...]:
    """Five dice typed as "3 3 3 2 2" (spaces or commas), or a ValueError saying how to type them."""
    words = [w for w in re.split(r"[\s,;]+", text.strip()) if w]
    if len(words) != palais.DICE or not all(w.isdigit() and 1 <= int(w) <= 6 for w in words):
        raise ValueError(f"hand to beat: type five dice from 1 to 6, e.g. {DEFAULT_TARGET} (got {text!r})")
    return tuple(sorted(int(w) for w in words))


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


def status_html(state: State, you: int) -> str:
    """Your hand so far, in words (before the first roll: press Roll)."""
    over, hand, _ = your_turn(state, you)
    if not hand:
        return "<div class='palais-status'>Your turn: press <b>Roll 5 dice</b>.</div>"
    end = " <b>Turn over.</b>" if over else ""
    return (
        "<div class='palais-status' style='font-size:15px'>Your hand: "
        f"<b class='palais-hand'>{NAMES[palais.category(hand)]}</b> "
        f"({hand_text(hand)}).{end}</div>"
    )


def roll_label(state: State, you: int, held: int) -> str:
    """The Roll button's label with `held` dice marked held."""
    over, hand, _ = your_turn(state, you)
    if over:
        return "Roll"
    if not hand:
        return "Roll 5 dice"
    n = palais.DICE - held
    return f"Roll {n} di{'e' if n == 1 else 'ce'}" if n else "Roll (hold fewer)"


def hint_html(state: State, goal: Goal, chosen: Hashable) -> str:
    """The goal and every legal action with its exact value (`state.hint`), your `chosen` one marked."""
    return f"<div style='color:#555'>Goal: <b>{html.escape(goal.text)}</b></div>" + hint_table(
        state.hint(goal), chosen, partial(action_label, state), unit=goal.unit
    )


def players_html(
    state: State, you: int, winner: int, result: str, who: Callable[[int], str], row_style: Callable[[int], str]
) -> str:
    """The players' final hands in a game, in seat order, and the result."""
    rows = []
    for seat in range(state.rules.players):
        if not state.turn_over(seat):
            hand, cat = ("<i>playing…</i>" if seat == you else "<i>to play</i>"), ""
        else:
            n, final = state.rolls_made[seat], state.hands[seat]
            hand, cat = (
                mini_dice(reading_order(final)),
                f"<b>{NAMES[palais.category(final)]}</b> <small>in {n} roll{'s' if n > 1 else ''}</small>",
            )
        won = " <b style='color:#2e7d32'>★ wins</b>" if result and seat == winner else ""
        rows.append(
            f"<tr class='palais-player' style='{row_style(seat)}'><td><b>{seat + 1}</b></td>"
            f"<td>{who(seat)}{won}</td><td>{hand}</td><td>{cat}</td></tr>"
        )
    end = (
        f"<div class='palais-result' style='font-weight:bold;margin-top:4px'>{html.escape(result)}</div>"
        if result
        else ""
    )
    return (
        f"<h4 style='margin:8px 0 2px'>The game, in seat order</h4><table class='palais-players' cellpadding='3' "
        f"style='border-collapse:collapse;width:100%'>{''.join(rows)}</table>{end}"
    )


def slanted(chart: alt.TopLevelMixin) -> alt.Chart:
    """`chart` (one layer) with its x axis' labels slanted by `LABEL_ANGLE`."""
    assert isinstance(chart, alt.Chart)
    chart.encoding.x.axis = alt.Axis(labelAngle=LABEL_ANGLE, labelOverlap=False)
    return chart


def final_chart(goal: Goal, sticky: bool) -> alt.Chart:
    """The final hand under the optimal holds for the goal vs keeping the most common face."""
    best, rule, v_best, v_rule = palais.final_hands(goal, sticky)
    cats = {"optimal holds": best.map(palais.category), "most common face": rule.map(palais.category)}
    title = alt.Title(
        f"Your final hand, playing for {goal.text}",
        subtitle=f"{goal.text}: optimal holds {decimal_text(v_best)}, most common face {decimal_text(v_rule)}",
    )
    frame = policy_frame(cats, palais.HANDS, lambda h: NAMES[str(h)])
    order = [NAMES[h] for h in palais.HANDS]
    return slanted(policy_bars(frame, title, "final hand", order, width=500, height=200))


def figures_html(goal: Goal, sticky: bool) -> str:
    """The goal's exact probability under each policy."""
    _, _, v_best, v_rule = palais.final_hands(goal, sticky)
    return (
        "<table class='figures' cellpadding='3' style='font-size:13px'>"
        f"<tr><th align='left'>{html.escape(goal.text)}</th><th align='left'>exact</th></tr>"
        f"<tr><td><span style='color:#4c78a8'>■</span> optimal holds</td><td>{number_html(v_best)}</td></tr>"
        f"<tr><td><span style='color:#f58518'>■</span> keep the most common face</td><td>{number_html(v_rule)}</td>"
        "</tr>"
        "</table><small style='color:#555'>The bars: the exact chance of ending the turn with each hand. The optimal "
        "holds maximise the goal's probability; the person's rule holds every die of the most common face.</small>"
    )


def single_chart() -> alt.LayerChart:
    """The chance of each hand on a single roll of five dice."""
    p = palais.p_single()
    frame = pl.DataFrame(
        {
            "value": [NAMES[h] for h in palais.HANDS],
            "probability": [float(p[h]) for h in palais.HANDS],
            "exact": [f"{exact_str(p[h])} = {p[h] * 7776}/7776" for h in palais.HANDS],
        }
    )
    order = [NAMES[h] for h in palais.HANDS]
    chart = probability_bars(
        frame, "Each hand on a single roll of five dice (exact)", "hand", order, width=500, height=130
    )
    for layer in chart.layer:
        slanted(layer)
    return chart
