"""La Boue's exact odds: the turn as an absorbing chain on the free dice (its score has unbounded
support: every P(score = s) exactly, and the exact mass beyond a bound), a whole game's total, and
the chance of a tie for first."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from functools import cache
from itertools import accumulate

from nessus.chains import RewardChain, Step
from nessus.dice import multisets
from nessus.dist import TruncatedDist
from nessus.games.boue.rules import NAME, ROUNDS, STUCK, Rules
from nessus.report import Figure, Report

TAIL = 1e-15
"""The exact tail mass below which a distribution of scores stops."""


def stuck_count(roll: tuple[int, ...]) -> int:
    """How many dice of a roll get stuck (show 2 or 5)."""
    return sum(1 for d in roll if d in STUCK)


@cache
def turn_chain(dice: int) -> RewardChain:
    """The turn as a chain: state = free dice; a clean roll adds its total, else dice stick."""
    steps: dict[Hashable, list[Step]] = {}
    for n in range(1, dice + 1):
        grouped: dict[tuple[int, int | None], Fraction] = {}
        for roll, count in multisets(n):
            k = stuck_count(roll)
            key = (sum(roll), n) if k == 0 else (0, n - k or None)
            grouped[key] = grouped.get(key, Fraction(0)) + Fraction(count, 6**n)
        steps[n] = [Step(p, reward, to) for (reward, to), p in grouped.items()]
    return RewardChain(steps)


def turn_distribution(rules: Rules | None = None, bound: int | None = None, tail_below: float = TAIL) -> TruncatedDist:
    """The exact turn score distribution: to `bound`, or as far as needed for tail < tail_below."""
    rules = rules or Rules()
    chain = turn_chain(rules.dice)
    if bound is not None:
        return chain.distribution(rules.dice, bound=bound)
    return chain.distribution(rules.dice, tail_below=tail_below)


def quantile(scores: TruncatedDist, mass: Fraction | float) -> int:
    """The least score s with P(score <= s) >= mass (the distribution's bound if none is).

    >>> quantile(turn_distribution(Rules(dice=1)), Fraction(1, 2))
    4
    """
    return next((s for s, cdf in enumerate(accumulate(scores.pmf())) if cdf >= mass), scores.bound)


@cache
def game_chain(dice: int, rounds: int = ROUNDS) -> RewardChain:
    """A whole game for one player: state = (round, free dice); when every die is stuck the
    next round starts with all dice free, and the last round's end ends the chain."""
    turn = turn_chain(dice)

    def after(r: int, to: Hashable | None) -> tuple[int, Hashable] | None:
        if to is not None:
            return (r, to)
        return (r + 1, dice) if r < rounds else None

    return RewardChain(
        {
            (r, n): [Step(t.probability, t.reward, after(r, t.to)) for t in steps]
            for r in range(1, rounds + 1)
            for n, steps in turn.steps.items()
        }
    )


def game_total_distribution(
    rules: Rules | None = None, rounds: int = ROUNDS, tail_below: float = TAIL
) -> TruncatedDist:
    """The exact distribution of a player's total over `rounds` turns, with exact tail < tail_below."""
    dice = (rules or Rules()).dice
    return game_chain(dice, rounds).distribution((1, dice), tail_below=tail_below)


def tie_for_first(total: TruncatedDist, players: int) -> tuple[Fraction, Fraction]:
    """Exact bounds [lower, upper] on P(two or more players share the highest total).

    Sums P(max = s and shared) over s <= bound exactly; the rest is at most P(max > bound).
    """
    pmf = total.pmf()
    below = Fraction(0)
    shared = Fraction(0)
    for p in pmf:
        upto = below + p
        shared += upto**players - below**players - players * p * below ** (players - 1)
        below = upto
    return shared, shared + (1 - below**players)


def report(rules: Rules | None = None) -> Report:
    """The exact headline figures (the tie figure is a series: bracketed exactly)."""
    rules = rules or Rules()
    chain = turn_chain(rules.dice)
    turn = turn_distribution(rules, bound=60)
    game = game_total_distribution(rules)
    mean = chain.mean(rules.dice)
    lo, hi = tie_for_first(game, rules.players)
    return Report(
        NAME,
        rules.as_dict(),
        {
            "turn_mean": Figure.of(mean, "expected score of one turn"),
            "turn_variance": Figure.of(chain.variance(rules.dice), "variance of one turn's score"),
            "p_turn_zero": Figure.of(turn.probability(0), "P(a turn scores 0)"),
            "p_turn_at_most_20": Figure.of(turn.cdf(20), "P(a turn scores 20 or less)"),
            "three_round_mean": Figure.of(ROUNDS * mean, "expected total over 3 rounds"),
            "p_three_rounds_at_least_60": Figure.of(game.sf(59), "P(3-round total >= 60)"),
            "p_tie_for_first": Figure.bracket(lo, hi, f"P(tie for the highest 3-round total, {rules.players} players)"),
        },
    )
