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

import altair as alt
import numpy as np
import polars as pl

from nessus.apps.dicegame import hint_table, mini_dice, policy_bars, policy_frame, probability_bars
from nessus.dist import Dist, exact_str
from nessus.games import palais
from nessus.games.palais import AtLeast, Beat, Outlast, Turn
from nessus.numbers import number_html

BEAT = "beat"
NAMES = {h: h.replace("_", " ").capitalize() for h in palais.HANDS}
GOALS = [(f"at least {NAMES[h]}", h) for h in palais.HANDS[1:-1]] + [("Palais", "palais"), ("beat a given hand", BEAT)]
MACHINES = ("optimal", "most common face")
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


def heuristic(objective: Objective) -> palais.Policy:
    """Keep the most common face: stop at the goal's hand (at least X), once ahead (beat a
    hand), or at Manoir (the opener); otherwise hold every die of the most common face."""
    if isinstance(objective, AtLeast):
        return palais.keep_most_common(objective.hand)
    if isinstance(objective, Beat):
        return partial(_chase_most_common, objective)
    return palais.keep_most_common("manoir")


def _chase_most_common(goal: Beat, state: palais.State) -> palais.Action:
    """Stop once ahead of the hand to beat, else hold every die of the most common face."""
    _, kept, rolled = state
    if rolled and palais.strength(tuple(sorted(kept + rolled)), goal.tie_break) > palais.strength(goal.target, goal.tie_break):
        return "stop"
    return palais.keep_most_common("palais")(state)


@cache
def optimal(objective: Objective, sticky: bool) -> palais.Policy:
    """The optimal holds for the goal (cached: the machine players reuse them)."""
    return palais.optimal(objective, palais.Rules(sticky_holds=sticky))


@cache
def final_hands(objective: Objective, sticky: bool) -> tuple[Dist, Dist, Fraction, Fraction]:
    """The final hand's exact distribution under the optimal holds and under the heuristic,
    and the goal's probability under each."""
    rules = palais.Rules(sticky_holds=sticky)
    best = palais.hand_distribution(optimal(objective, sticky), rules)
    rule = palais.hand_distribution(heuristic(objective), rules)
    value = [sum((p * Fraction(objective(h)) for h, p in d.items()), Fraction(0)) for d in (best, rule)]
    return best, rule, value[0], value[1]


def play_machine(turn: Turn, policy: palais.Policy, rng: np.random.Generator) -> Turn:
    """A whole turn played by `policy`."""
    while not turn.over:
        action = policy(turn.state)
        if action == "roll":
            turn = turn.roll(rng)
        elif action == "stop":
            turn = turn.stop()
        else:
            turn = turn.hold(action).roll(rng)
    return turn


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


def action_label(turn: Turn, action: Hashable) -> str:
    """An action in the game's words, with little dice."""
    if action == "roll":
        return "roll all five dice"
    if action == "stop":
        return f"stop: keep {NAMES[turn.category]}" if turn.rolled else "stop"
    if not action:
        return "reroll all five"
    return f"hold {mini_dice(action, held=True)} reroll {palais.DICE - len(action)}"


def status_html(t: Turn) -> str:
    """Your hand so far, in words (before the first roll: press Roll)."""
    if not t.rolled:
        return "<div class='palais-status'>Your turn: press <b>Roll 5 dice</b>.</div>"
    end = " <b>Turn over.</b>" if t.over else ""
    return (f"<div class='palais-status' style='font-size:15px'>Your hand: <b class='palais-hand'>{NAMES[t.category]}</b> "
            f"({hand_text(t.hand)}).{end}</div>")


def roll_label(t: Turn, held: int) -> str:
    """The Roll button's label with `held` dice marked held."""
    if t.over:
        return "Roll"
    if not t.rolled:
        return "Roll 5 dice"
    n = palais.DICE - held
    return f"Roll {n} di{'e' if n == 1 else 'ce'}" if n else "Roll (hold fewer)"


def hint_html(t: Turn, goal: Objective, chosen: Hashable) -> str:
    """The goal and every legal action with its exact value, your `chosen` one marked."""
    return (f"<div style='color:#555'>Goal: <b>{html.escape(goal_text(goal))}</b></div>"
            + hint_table(t.hint(goal), chosen, partial(action_label, t), unit="probability"))


def strongest(hands: Sequence[tuple[int, ...]], tie_break: str) -> list[int]:
    """The places of the strongest hands (more than one: a tie)."""
    key = [palais.strength(h, tie_break) for h in hands]
    return [i for i, k in enumerate(key) if k == max(key)]


def players_html(hands: Sequence[Turn | None], you: int, winner: int, result: str,
                 who: Callable[[int], str], row_style: Callable[[int], str]) -> str:
    """The players' final hands in a game, in seat order, and the result."""
    rows = []
    for seat, t in enumerate(hands):
        if t is None:
            hand, cat = ("<i>playing…</i>" if seat == you else "<i>to play</i>"), ""
        else:
            n = len(t.history)
            hand, cat = mini_dice(reading_order(t.hand)), f"<b>{NAMES[t.category]}</b> <small>in {n} roll{'s' if n > 1 else ''}</small>"
        won = " <b style='color:#2e7d32'>★ wins</b>" if result and seat == winner else ""
        rows.append(f"<tr class='palais-player' style='{row_style(seat)}'><td><b>{seat + 1}</b></td>"
                    f"<td>{who(seat)}{won}</td><td>{hand}</td><td>{cat}</td></tr>")
    end = f"<div class='palais-result' style='font-weight:bold;margin-top:4px'>{html.escape(result)}</div>" if result else ""
    return (f"<h4 style='margin:8px 0 2px'>The game, in seat order</h4><table class='palais-players' cellpadding='3' "
            f"style='border-collapse:collapse;width:100%'>{''.join(rows)}</table>{end}")


def final_chart(goal: Objective, sticky: bool) -> alt.Chart:
    """The final hand under the optimal holds for the goal vs keeping the most common face."""
    best, rule, v_best, v_rule = final_hands(goal, sticky)
    cats = {"optimal holds": best.map(palais.category), "most common face": rule.map(palais.category)}
    text = goal_text(goal)
    title = alt.Title(f"Your final hand, playing for {text}",
                      subtitle=f"{text}: optimal holds {float(v_best):.4f}, most common face {float(v_rule):.4f}")
    return policy_bars(policy_frame(cats, palais.HANDS, NAMES.__getitem__), title, "final hand",
                       [NAMES[h] for h in palais.HANDS], width=500, height=200)


def figures_html(goal: Objective, sticky: bool) -> str:
    """The goal's exact probability under each policy."""
    _, _, v_best, v_rule = final_hands(goal, sticky)
    return ("<table class='figures' cellpadding='3' style='font-size:13px'>"
            f"<tr><th align='left'>{html.escape(goal_text(goal))}</th><th align='left'>exact</th></tr>"
            f"<tr><td><span style='color:#4c78a8'>■</span> optimal holds</td><td>{number_html(v_best)}</td></tr>"
            f"<tr><td><span style='color:#f58518'>■</span> keep the most common face</td><td>{number_html(v_rule)}</td></tr>"
            "</table><small style='color:#555'>The bars: the exact chance of ending the turn with each hand. The optimal "
            "holds maximise the goal's probability; the person's rule holds every die of the most common face.</small>")


def single_chart() -> alt.LayerChart:
    """The chance of each hand on a single roll of five dice."""
    p = palais.p_single()
    frame = pl.DataFrame({
        "value": [NAMES[h] for h in palais.HANDS],
        "probability": [float(p[h]) for h in palais.HANDS],
        "exact": [f"{exact_str(p[h])} = {p[h] * 7776}/7776" for h in palais.HANDS],
    })
    return probability_bars(frame, "Each hand on a single roll of five dice (exact)", "hand",
                            [NAMES[h] for h in palais.HANDS], width=500, height=130)
