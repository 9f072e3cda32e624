"""One isolated duel as a Markov chain: two heroes with the rulebook's face table (Ulysses'),
6 points each, yellow and mauve acting only within the duel (a rally gives its own hero 1 point,
a guard makes the opponent's steal 1 smaller). The state is the two heroes' points (a, b); a turn
rolls both dice (36 equally likely face pairs) and `battle.resolve` moves the points.

Steals only move points, so a + b grows by the rallies alone: 1/6 per hero per turn. By
symmetry A and B have the same expectation, so E[A's points after T turns] = 6 + T/6, whatever
the steals do. The steals shape everything else: the spread, the lead, the chance of 0 points.

>>> one = duel(1)
>>> one.mean_a(), one.p_ahead(), one.p_tied(), one.p_zero()
(Fraction(37, 6), Fraction(11, 36), Fraction(7, 18), Fraction(0, 1))
>>> print(turn((6, 6))[(9, 3)])   # A steals 3 (green), B neither rallies nor guards: 2 of 36
1/18
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import cast

import polars as pl

from nessus.dist import Dist
from nessus.games.entheos.battle import resolve
from nessus.games.entheos.heroes import DUEL_HERO, FACES, START_POINTS, Hero

Points = tuple[int, int]
SIDES = (0, 1)
OPPONENTS = (1, 0)


def face_pairs(hero_a: Hero = DUEL_HERO, hero_b: Hero = DUEL_HERO) -> dict[tuple[str, str], int]:
    """The two heroes' actions in one turn, each pair with its number of the 36 face pairs."""
    pairs: dict[tuple[str, str], int] = defaultdict(int)
    for face_a in FACES:
        for face_b in FACES:
            pairs[hero_a.action(face_a), hero_b.action(face_b)] += 1
    return dict(pairs)


@cache
def _turn_weights(points: Points) -> tuple[tuple[Points, int], ...]:
    out: dict[Points, int] = defaultdict(int)
    for actions, count in face_pairs().items():
        a, b = resolve(points, actions, SIDES, OPPONENTS)
        out[a, b] += count
    return tuple(out.items())


def turn(points: Points) -> Dist:
    """The chain's step: the distribution of (A's, B's) points after one turn from `points`."""
    return Dist(dict(_turn_weights(points)))


@dataclass(frozen=True)
class Duel:
    """The joint distribution of the two heroes' points after `turns` turns (`dist`: outcomes
    (a, b) with exact probabilities)."""

    turns: int
    dist: Dist

    def mean_a(self) -> Fraction:
        """Hero A's expected points."""
        return self.dist.map(lambda ab: ab[0]).mean()

    def mean_b(self) -> Fraction:
        """Hero B's expected points."""
        return self.dist.map(lambda ab: ab[1]).mean()

    def p_ahead(self) -> Fraction:
        """P(A has strictly more points than B)."""
        return self.dist.prob(lambda ab: ab[0] > ab[1])

    def p_behind(self) -> Fraction:
        """P(A has strictly fewer points than B)."""
        return self.dist.prob(lambda ab: ab[0] < ab[1])

    def p_tied(self) -> Fraction:
        """P(A and B have as many points)."""
        return self.dist.prob(lambda ab: ab[0] == ab[1])

    def p_zero(self) -> Fraction:
        """P(A has no point left)."""
        return self.dist.prob(lambda ab: ab[0] == 0)

    def points_a(self) -> Dist:
        """The distribution of A's points."""
        return self.dist.map(lambda ab: ab[0])

    def to_frame(self) -> pl.DataFrame:
        """One row per (a, b) with its exact probability (`p`, a Fraction as object) and as a float."""
        rows = []
        for ab, p in self.dist.items():
            a, b = cast(Points, ab)
            rows.append((a, b, p, float(p)))
        return pl.DataFrame(rows, schema=["a", "b", "p", "probability"], orient="row")


@cache
def duel(turns: int, start: Points = (START_POINTS, START_POINTS)) -> Duel:
    """The isolated duel after `turns` turns from `start` points, by the chain: exact integer
    weights over 36**turns, one turn at a time."""
    if not isinstance(turns, int) or turns < 0:
        raise ValueError(f"turns must be a non-negative integer, got {turns!r}")
    weights: Mapping[Hashable, int] = {start: 1}
    for _ in range(turns):
        step: dict[Hashable, int] = defaultdict(int)
        for points, w in weights.items():
            for after, count in _turn_weights(cast(Points, points)):
                step[after] += w * count
        weights = step
    return Duel(turns, Dist(weights))


def states(turns: int) -> int:
    """How many (a, b) positions the duel can be in after `turns` turns."""
    return len(duel(turns).dist)
