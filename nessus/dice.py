"""Dice: every roll of n dice as a multiset with its exact weight."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial, prod

from nessus.dist import Dist

Roll = tuple[int, ...]


def _check(n: int, sides: int) -> None:
    if not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be an integer >= 0, got {n!r}")
    if not isinstance(sides, int) or sides < 1:
        raise ValueError(f"sides must be an integer >= 1, got {sides!r}")


def check_faces(faces: object, n: int, sides: int = 6) -> Roll:
    """The faces as a tuple if they are n integers from 1 to `sides`, else a ValueError."""
    if not (
        isinstance(faces, (tuple, list))
        and len(faces) == n
        and all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= sides for f in faces)
    ):
        raise ValueError(f"dice must be {n} integers from 1 to {sides}, got {faces!r}")
    return tuple(faces)


def multiplicity(roll: Roll) -> int:
    """How many ordered rolls give this multiset: n! / (c_1! ... c_k!)."""
    counts: dict[int, int] = {}
    for face in roll:
        counts[face] = counts.get(face, 0) + 1
    return factorial(len(roll)) // prod(factorial(c) for c in counts.values())


def multisets(n: int, sides: int = 6) -> Iterator[tuple[Roll, int]]:
    """Each sorted roll of n dice with its number of orderings (the weights sum to sides**n)."""
    _check(n, sides)
    for roll in combinations_with_replacement(range(1, sides + 1), n):
        yield roll, multiplicity(roll)


def sub_multisets(dice: Roll) -> list[Roll]:
    """Every distinct sorted sub-multiset of the sorted `dice`, from () to all of them, in
    tuple order (the dice a player may keep or set aside from a roll).

    >>> sub_multisets((2, 2, 5))
    [(), (2,), (2, 2), (2, 2, 5), (2, 5), (5,)]
    """
    return sorted({c for k in range(len(dice) + 1) for c in combinations(dice, k)})


@cache
def rolls(n: int, sides: int = 6) -> Dist:
    """The distribution of a roll of n dice as sorted tuples (252 outcomes for 5d6, not 7776)."""
    return Dist(dict(multisets(n, sides)))


@cache
def total(n: int, sides: int = 6) -> Dist:
    """The distribution of the sum of n dice."""
    _check(n, sides)
    if n == 0:
        return Dist.point(0)
    return Dist.uniform(range(1, sides + 1)).sum_of(n)
