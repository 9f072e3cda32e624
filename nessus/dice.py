"""Dice: every roll of n dice as a multiset with its exact weight."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial, prod
from typing import ClassVar, Self

import numpy as np

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


def roll_faces(n: int, rng: np.random.Generator | None = None, dice: object = None, sides: int = 6) -> Roll:
    """A roll of n dice as the sorted multiset chance deals in: the given `dice` (n faces from 1
    to `sides`, in any order; else a ValueError) or, without them, n dice drawn with `rng`.

    >>> roll_faces(3, dice=[6, 1, 6])
    (1, 6, 6)
    """
    if dice is None:
        if rng is None:
            raise ValueError("give rng or dice")
        return tuple(sorted(int(x) for x in rng.integers(1, sides + 1, size=n)))
    faces = tuple(dice) if isinstance(dice, Sequence) and not isinstance(dice, str) else dice
    return tuple(sorted(check_faces(faces, n, sides)))


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


def roll_outcomes(n: int, sides: int = 6) -> list[tuple[Hashable, Fraction]]:
    """A roll of n dice as a chance node's outcomes (`State.chance_outcomes`): every sorted roll
    with its exact probability, in `rolls` order (a new list each call, from a cached tuple).

    >>> roll_outcomes(2)[:2], len(roll_outcomes(2))
    ([((1, 1), Fraction(1, 36)), ((1, 2), Fraction(1, 18))], 21)
    """
    return list(_roll_outcomes(n, sides))


@cache
def _roll_outcomes(n: int, sides: int) -> tuple[tuple[Hashable, Fraction], ...]:
    return tuple(rolls(n, sides).items())


@cache
def total(n: int, sides: int = 6) -> Dist:
    """The distribution of the sum of n dice."""
    _check(n, sides)
    if n == 0:
        return Dist.point(0)
    return Dist.uniform(range(1, sides + 1)).sum_of(n)


class Chosen(tuple[int, ...]):
    """Dice chosen from a roll, as a move: a sorted tuple (equal to the plain tuple a solver
    uses) that reads with the game's own verb. Each game names its subclass and verb.

    >>> class Hold(Chosen):
    ...     verb = "hold"
    >>> move = Hold((6, 3, 6))
    >>> print(move)
    hold 3 6 6
    >>> move == (3, 6, 6), Hold(())
    (True, Hold(()))
    """

    verb: ClassVar[str] = "keep"

    def __new__(cls, dice: Iterable[int] = ()) -> Self:
        return super().__new__(cls, sorted(dice))

    def __str__(self) -> str:
        return f"{self.verb} {' '.join(map(str, self)) if self else 'none'}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({tuple(self)!r})"

    @classmethod
    def move(cls, action: Hashable) -> Hashable:
        """A solver's action as a move: dice (a tuple) as this class, a word ("roll", "stop")
        as it is; anything else is a TypeError."""
        if isinstance(action, str):
            return action
        if not isinstance(action, tuple):
            raise TypeError(f"a move must be dice (a tuple) or a word, got {action!r}")
        return cls(action)


# -- dice for vectorised simulation ---------------------------------------------------------------
# A roll of k dice is a uniform code in [0, 6**k): its base-6 digits are the faces, one per die.
# Simulators draw codes from raw random bits: a code drawn as `bits` bits with 6**k <= 2**bits,
# read only when below 6**k, keeps the dice exactly uniform.


def code_faces(codes: np.ndarray, k: int, sides: int = 6) -> list[np.ndarray]:
    """The faces (1..sides) of k dice for each roll code, die by die (code's base-`sides` digits).

    >>> [int(f[0]) for f in code_faces(np.array([0 + 6 * 2 + 36 * 5]), 3)]
    [1, 3, 6]
    """
    return [codes // sides**i % sides + 1 for i in range(k)]


def ordered_rolls(k: int, sides: int = 6) -> np.ndarray:
    """Every ordered roll of k dice, row `code` holding the faces of that roll code.

    >>> ordered_rolls(2)[[0, 1, 6, 35]].tolist()
    [[1, 1], [2, 1], [1, 2], [6, 6]]
    """
    return np.stack(code_faces(np.arange(sides**k), k, sides), axis=1).reshape(sides**k, k)


def raw_bits(rng: np.random.Generator, n: int, bits: int) -> np.ndarray:
    """n draws of `bits` (1..16) random bits each, from the generator's raw 64-bit words (8
    draws a word up to 8 bits, 4 up to 16): the fastest uniform integers numpy gives."""
    if not 1 <= bits <= 16:
        raise ValueError(f"bits must be an integer from 1 to 16, got {bits!r}")
    per_word, view = (8, np.uint8) if bits <= 8 else (4, np.dtype("<u2"))
    raw = rng.bit_generator.random_raw(-(-n // per_word)).view(view)[:n]
    return raw if bits in (8, 16) else np.bitwise_and(raw, (1 << bits) - 1)


def uniform_below(rng: np.random.Generator, bounds: np.ndarray) -> np.ndarray:
    """One uniform integer 0 <= x < bounds[i] for each bound (1..256), exactly: 16 raw bits r
    each, x = r * bound // 65536, drawn again for the few r (fewer than bound in 65536) that
    would favour some x (Lemire's method).

    >>> x = uniform_below(np.random.default_rng(0), np.array([1, 2, 6, 55]))
    >>> x.tolist() == [0, *x[1:].tolist()] and bool((x < [1, 2, 6, 55]).all())
    True
    """
    m = np.asarray(bounds, dtype=np.int64)
    if m.size and not (1 <= m.min() and m.max() <= 256):
        raise ValueError(f"bounds must be integers from 1 to 256, got {m.min()}..{m.max()}")
    product = raw_bits(rng, m.size, 16).astype(np.int64) * m
    low = product & 0xFFFF
    again = np.flatnonzero(low < _LEMIRE[m])
    while again.size:
        redo = raw_bits(rng, again.size, 16).astype(np.int64) * m[again]
        product[again] = redo
        again = again[(redo & 0xFFFF) < _LEMIRE[m[again]]]
    return product >> 16


_LEMIRE = np.array([0] + [(1 << 16) % b for b in range(1, 257)], dtype=np.int64)
"""For each bound b, the low 16 bits of r * b below which a draw is rejected: 65536 mod b."""
