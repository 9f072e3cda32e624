"""Le Naute's exact figures (the questions of RULES.md section 3): the chance of ship, captain
and crew by each roll, the best expected cargo and the best chance of beating a target, the
cargo's distribution under any play, and `report`.

>>> p_qualify_by_roll()[0]  # a 6, a 5 and a 4 among five dice
Fraction(205, 1296)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from nessus.dice import multisets
from nessus.dist import Dist
from nessus.games.naute.expedition import score, solved, start
from nessus.games.naute.policies import Above, CargoMean, Goal, heuristic, keep_at_least, legal
from nessus.games.naute.rules import DICE, NAME, ROLLS, Rules, set_aside
from nessus.report import Figure, Report
from nessus.solver import TurnPolicy


def p_qualify_by_roll(roll_count: int = ROLLS) -> list[Fraction]:
    """[P(ship, captain and crew aboard by roll 1), ..., by roll `roll_count`] (no choice
    affects it)."""
    weights = {0: 1}  # aboard -> weight, over a common total of 6**(5 * rolls made)
    total, done, out = 1, 0, []
    for _ in range(roll_count):
        nxt: dict[int, int] = {}
        for aboard, w in weights.items():
            for r, x in multisets(DICE - aboard):
                now, _ = set_aside(aboard, r)
                nxt[now] = nxt.get(now, 0) + w * x * 6**aboard  # fewer dice rolled: scale to 6**5
        total *= 6**DICE
        done = done * 6**DICE + nxt.pop(3, 0)
        weights = nxt
        out.append(Fraction(done, total))
    return out


def optimal_cargo_mean(rules: Rules | None = None) -> Fraction:
    """The largest expected cargo of an expedition (0 counted when not qualified)."""
    return CargoMean().value(rules)


def p_beat(target: int, rules: Rules | None = None) -> Fraction:
    """The largest P(cargo > target), over all ways of playing the cargo."""
    return Above(target).value(rules)


def score_distribution(rules: Rules | None = None, policy: TurnPolicy | None = None) -> Dist:
    """The exact distribution of an expedition's cargo under `policy` (default: the policy
    maximising the expected cargo)."""
    rules = rules or Rules()
    g = solved(CargoMean(), rules.cargo_holds)
    return g.distribution(start(), score, policy and legal(policy, rules.cargo_holds))


@cache
def cargo_distributions(goal: Goal, cargo_holds: str) -> tuple[Dist, Dist]:
    """The exact cargo distribution under the play for `goal`, and under the person's rule
    (keep cargo dice of 4 or more), with the cargo rule `cargo_holds`."""
    rules = Rules(cargo_holds=cargo_holds)
    return score_distribution(rules, goal.play(rules)), score_distribution(rules, heuristic(rules))


def report(rules: Rules | None = None) -> Report:
    """The exact headline figures."""
    rules = rules or Rules()
    by_roll = p_qualify_by_roll()
    mean = optimal_cargo_mean(rules)
    person = score_distribution(rules, keep_at_least(4)).mean()
    figures = {
        "p_qualify": Figure.of(by_roll[-1], "P(ship, captain and crew within 3 rolls)"),
        "optimal_cargo_mean": Figure.of(mean, "expected cargo, playing the cargo to maximise it (0 if not qualified)"),
    }
    for k, p in enumerate(by_roll, 1):
        figures[f"p_qualify_by_roll_{k}"] = Figure.of(p, f"P(ship, captain and crew aboard after {k} roll(s))")
    figures["optimal_cargo_mean_when_qualified"] = Figure.of(
        mean / by_roll[-1], "expected cargo given ship, captain and crew"
    )
    figures["heuristic_cargo_mean"] = Figure.of(person, "expected cargo keeping cargo dice of 4 or more")
    return Report(NAME, rules.as_dict(), figures)
