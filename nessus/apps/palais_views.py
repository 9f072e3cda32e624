"""Le Palais dashboard, what has no widget in it: the goals and the policies the machine players
and the chart play, hands in words, and the page's HTML and charts as pure functions of the turn
or the game."""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from functools import cache, partial
from typing import cast

import altair as alt
import polars as pl

from nessus import game as protocol
from nessus.dist import Dist, exact_str
from nessus.games import palais
from nessus.games.palais import AtLeast, Beat, Outlast, State
from nessus.kit.dicegame import hint_table, mini_dice, policy_bars, policy_frame, probability_bars
from nessus.numbers import number_html
from nessus.solver import TurnPolicy

BEAT = "beat"
NAMES = {h: h.replace("_", " ").capitalize() for h in palais.HANDS}
GOALS = [(f"at least {NAMES[h]}", h) for h in palais.HANDS[1:-1]] + [("Palais", "palais"), ("beat a given hand", BEAT)]
MACHINES = ("optimal", "most common face")
POLICIES = {"optimal": "optimal", "most common face": "keep_most_common"}  # the game's policy each machine plays
TIE_BREAKS = [("A: higher dice win", "A"), ("B: same hand, roll off", "B")]
DEFAULT_TARGET = "3 3 3 2 2"

Objective = AtLeast | Beat | Outlast


# -- goals and policies (what the machine players and the chart play) -------------------------------
def goal_text(objective: Objective) -> str:
    """The goal in words, as a probability."""
    if isinstance(objective, AtLeast):
        return "P(Palais)" if objective.hand == "palais" else f"P({NAMES[objective.hand]} or better)"
    if isinstance(objective, Beat):
        tie = ", a tie counting half" if objective.tie else ""
        if objective.tie_break == "B":
            return f"P(a better hand than {NAMES[palais.category(objective.target)]}{tie})"
        return f"P(beating {hand_text(objective.target)}{tie})"
    return f"P(none of {objective.others} later player{'s' if objective.others > 1 else ''} beats you)"


def heuristic(objective: Objective) -> TurnPolicy:
    """Keep the most common face: stop at the goal's hand (at least X), once ahead (beat a
    hand), or at Manoir (the opener); otherwise hold every die of the most common face."""
    if isinstance(objective, AtLeast):
        return palais.keep_most_common(objective.hand)
    if isinstance(objective, Beat):
        return partial(_chase_most_common, objective)
    return palais.keep_most_common("manoir")


def _chase_most_common(goal: Beat, node: palais.Node) -> palais.Action:
    """Stop once ahead of the hand to beat, else hold every die of the most common face."""
    return palais.chase_most_common(goal.target, goal.tie_break, node)


@cache
def optimal(objective: Objective, sticky: bool) -> TurnPolicy:
    """The optimal holds for the goal (cached: the chart's distributions reuse them)."""
    return palais.optimal(objective, palais.Rules(sticky_holds=sticky))


@cache
def final_hands(objective: Objective, sticky: bool) -> tuple[Dist, Dist, Fraction, Fraction]:
    """The final hand's exact distribution under the optimal holds and under the heuristic,
    and the goal's probability under each."""
    rules = palais.Rules(sticky_holds=sticky)
    best = palais.hand_distribution(optimal(objective, sticky), rules)
    rule = palais.hand_distribution(heuristic(objective), rules)
    value = [
        sum((p * Fraction(objective(cast(tuple[int, ...], h))) for h, p in d.items()), Fraction(0))
        for d in (best, rule)
    ]
    return best, rule, value[0], value[1]


def machine_policies(machine: str, rules: palais.Rules, you: int) -> dict[int, protocol.Policy]:
    """The machine players' policies (every seat but yours), as `nessus.play.play` takes them."""
    policy = palais.policies(rules)[POLICIES[machine]]
    return {seat: policy for seat in range(rules.players) if seat != you}


def your_turn(state: State, you: int) -> tuple[bool, tuple[int, ...], int]:
    """Your turn as the page shows it: over or not, your hand so far (() before the first
    roll) and the rolls made."""
    if state.turn_over(you):
        return True, state.hands[you], state.rolls_made[you]
    return False, (state.hand if state.rolled else ()), len(state.history)


def reading_order(hand: Sequence[int]) -> list[int]:
    """Five dice as a player reads them: the most common faces first, highest first (5 5 5 5 2)."""
    counts = Counter(hand)
    return sorted(hand, key=lambda f: (counts[f], f), reverse=True)


def hand_text(hand: Sequence[int]) -> str:
    """The dice in reading order, as text ("5 5 5 5 2")."""
    return " ".join(map(str, reading_order(hand)))


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


def hint_html(state: State, goal: Objective, chosen: Hashable) -> str:
    """The goal and every legal action with its exact value (`state.hint`), your `chosen` one marked."""
    return f"<div style='color:#555'>Goal: <b>{html.escape(goal_text(goal))}</b></div>" + hint_table(
        state.hint(goal), chosen, partial(action_label, state), unit="probability"
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


def final_chart(goal: Objective, sticky: bool) -> alt.Chart:
    """The final hand under the optimal holds for the goal vs keeping the most common face."""
    best, rule, v_best, v_rule = final_hands(goal, sticky)
    cats = {"optimal holds": best.map(palais.category), "most common face": rule.map(palais.category)}
    text = goal_text(goal)
    title = alt.Title(
        f"Your final hand, playing for {text}",
        subtitle=f"{text}: optimal holds {float(v_best):.4f}, most common face {float(v_rule):.4f}",
    )
    return policy_bars(
        policy_frame(cats, palais.HANDS, lambda h: NAMES[str(h)]),
        title,
        "final hand",
        [NAMES[h] for h in palais.HANDS],
        width=500,
        height=200,
    )


def figures_html(goal: Objective, sticky: bool) -> str:
    """The goal's exact probability under each policy."""
    _, _, v_best, v_rule = final_hands(goal, sticky)
    return (
        "<table class='figures' cellpadding='3' style='font-size:13px'>"
        f"<tr><th align='left'>{html.escape(goal_text(goal))}</th><th align='left'>exact</th></tr>"
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
    return probability_bars(
        frame,
        "Each hand on a single roll of five dice (exact)",
        "hand",
        [NAMES[h] for h in palais.HANDS],
        width=500,
        height=130,
    )
