"""Le Palais' exact figures: each hand on a single roll, the best chance of a hand or of
beating one within three rolls, the heads-up opener's chance, the final hand's distribution
under any turn policy, and `report()` (RULES.md section 1).

>>> p_single()["palais"], p_palais_within_3()
(Fraction(1, 1296), Fraction(347897, 7558272))
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import cast

from nessus.dice import Roll, rolls
from nessus.dist import Dist
from nessus.games.palais.hands import BEST_FIRST, HANDS, category
from nessus.games.palais.keep import DICE, ROLLS, Solution, final_weights, layout, policy_table, solve
from nessus.games.palais.policies import AtLeast, Beat, Goal, keep_most_common, opener_solution, optimal
from nessus.games.palais.rules import NAME, Rules
from nessus.report import Figure, Report
from nessus.solver import TurnPolicy


def p_single() -> dict[str, Fraction]:
    """P(each hand) on a single roll of 5d6, best first."""
    d = rolls(DICE).map(category)
    return {h: d[h] for h in BEST_FIRST}


def hand_distribution(policy: TurnPolicy, rules: Rules | None = None) -> Dist:
    """The exact distribution of the final hand (sorted dice) when playing `policy`."""
    rules = rules or Rules()
    w = final_weights(policy_table(policy, rules.sticky_holds), rules.sticky_holds)
    hands = layout(DICE, rules.sticky_holds).hands
    return Dist({hands[i]: int(x) for i, x in enumerate(w) if x})


@cache
def final_hands(objective: Goal, sticky: bool) -> tuple[Dist, Dist, Fraction, Fraction]:
    """The final hand's exact distribution under the optimal holds for `objective` and under its
    heuristic (keep the most common face), and the objective's value under each."""
    rules = Rules(sticky_holds=sticky)
    best = hand_distribution(optimal(objective, rules), rules)
    rule = hand_distribution(objective.heuristic(), rules)
    value = [
        sum((p * Fraction(objective.payoff(cast(Roll, h))) for h, p in d.items()), Fraction(0)) for d in (best, rule)
    ]
    return best, rule, value[0], value[1]


@cache
def at_least_solution(sticky: bool = False) -> Solution:
    """The nine "at least <hand>" objectives, columns in HANDS order (weakest first)."""
    return solve([AtLeast(h) for h in HANDS], sticky)


def p_at_least_within(hand: str, rules: Rules | None = None) -> Fraction:
    """The largest P(hand `hand` or better within 3 rolls), over all ways of holding."""
    AtLeast(hand)
    return at_least_solution((rules or Rules()).sticky_holds).start_value(HANDS.index(hand))


def p_palais_within_3(rules: Rules | None = None) -> Fraction:
    """The largest P(five of a kind within 3 rolls)."""
    return p_at_least_within("palais", rules)


def p_beat(target: Sequence[int], rules: Rules | None = None, tie: Fraction | int = 0) -> Fraction:
    """The largest P(a hand stronger than `target`) within 3 rolls under the rules' tie-break
    (an equal hand counting `tie`, e.g. 1/2 for a roll-off)."""
    rules = rules or Rules()
    return solve([Beat(tuple(target), rules.tie_break, Fraction(tie))], rules.sticky_holds).start_value()


def heads_up(rules: Rules | None = None) -> Fraction:
    """P(the opener wins a two-player game against a chaser), exact: E[1 - q(h)] over the
    opener's final hand under its optimal holds (the rules' `players` is not used)."""
    rules = rules or Rules()
    return opener_solution(2, rules.tie_break, rules.sticky_holds).start_value()


def report(rules: Rules | None = None) -> Report:
    """The exact headline figures."""
    rules = rules or Rules()
    figures = {f"p_single_{h}": Figure.of(p, f"P({h}) on one roll of 5d6") for h, p in p_single().items()}
    sol = at_least_solution(rules.sticky_holds)
    figures["p_palais_within_3"] = Figure.of(
        sol.start_value(HANDS.index("palais")), "P(palais within 3 rolls), holding to maximise it"
    )
    for h in BEST_FIRST:
        figures[f"p_at_least_{h}_within_3"] = Figure.of(
            sol.start_value(HANDS.index(h)), f"P({h} or better within 3 rolls), holding to maximise it"
        )
    for stop_at in ("palais", "manoir"):
        w = final_weights(policy_table(keep_most_common(stop_at), rules.sticky_holds), rules.sticky_holds)
        reach = sum(int(x) for x, h in zip(w, layout(DICE, rules.sticky_holds).hands) if AtLeast(stop_at)(h))
        name = "p_palais_within_3" if stop_at == "palais" else f"p_at_least_{stop_at}_within_3"
        figures[f"{name}_keep_most_common"] = Figure.of(
            Fraction(reach, 6 ** (DICE * ROLLS)),
            f"the same, stopping at {stop_at} or better, else holding the most common face",
        )
    return Report(NAME, rules.as_dict(), figures)
