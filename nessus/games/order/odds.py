"""The roll-off's exact odds: a chain on the number of players tied for the highest 2d6 total."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from functools import cache
from math import comb

from nessus.chains import RewardChain, Step
from nessus.dice import total
from nessus.dist import Dist, TruncatedDist
from nessus.games.order.rules import NAME, Rules
from nessus.report import Figure, Report


@cache
def top_ties(players: int) -> Dist:
    """The number of players tied for the highest 2d6 total when `players` players roll."""
    two = total(2)
    out: dict[Hashable, Fraction] = {}
    below = Fraction(0)
    for _, p in two.items():
        for j in range(1, players + 1):
            out[j] = out.get(j, Fraction(0)) + comb(players, j) * p**j * below ** (players - j)
        below += p
    return Dist.from_probabilities(out)


@cache
def rolloff(players: int) -> RewardChain:
    """The roll-off as a chain on 'number of players tied for highest'; each round adds 1."""
    return RewardChain(
        {
            m: [Step(top_ties(m)[j], 1, j if j > 1 else None) for j in range(1, m + 1) if top_ties(m)[j]]
            for m in range(2, players + 1)
        }
    )


def p_unique_first_roll(rules: Rules) -> Fraction:
    """P(one player alone has the highest total on the first roll)."""
    return top_ties(rules.players)[1]


def expected_rounds(rules: Rules) -> Fraction:
    """E[rounds of rolling until one player is highest], the first roll included."""
    return rolloff(rules.players).mean(rules.players)


def rounds(rules: Rules, tail_below: float = 1e-15) -> TruncatedDist:
    """The exact distribution of the number of rounds, with its exact tail."""
    return rolloff(rules.players).distribution(rules.players, tail_below=tail_below)


def report(rules: Rules | None = None) -> Report:
    """The exact headline figures."""
    rules = rules or Rules()
    return Report(
        NAME,
        rules.as_dict(),
        {
            "p_unique_first_roll": Figure.of(p_unique_first_roll(rules), "one player alone is highest at once"),
            "expected_rounds": Figure.of(expected_rounds(rules), "rounds of 2d6 until one player is highest"),
        },
    )
