"""Checks that a lesson shows and that fail its notebook when they do not hold.

A lesson counts something by hand, then checks the count against the engine. `check` states
that claim: it prints a line with a ✓ when the claim holds, and raises AssertionError (so the
notebook test fails) when it does not. With a value, the line shows the value too, written as
every page writes numbers (`nessus.numbers`).

>>> from fractions import Fraction
>>> p_triple = Fraction(6, 6**3)  # 6 triples among the 216 rolls of three dice
>>> check(p_triple == Fraction(1, 6) ** 2, "P(a triple) is 1/6 × 1/6", p_triple)
✓ P(a triple) is 1/6 × 1/6: 1/36 ≈ 0.028
>>> check(sum(range(1, 7)) == 20, "the faces of a die add up to 20")
Traceback (most recent call last):
AssertionError: ✗ the faces of a die add up to 20

A simulation's 95% intervals miss their exact values 1 time in 20, on purpose: `check_intervals`
counts the intervals that hold them and allows as many misses as chance allows 999 times in 1000.

>>> check_intervals([True] * 19 + [False], "fair dice")
✓ fair dice: 19 of 20 intervals hold the exact value (95% intervals: at least 15 of 20 should, 999 times in 1000)
>>> check_intervals([True] * 14 + [False] * 6, "loaded dice")  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
AssertionError: ✗ loaded dice: 14 of 20 intervals hold the exact value
    (95% intervals: at least 15 of 20 should, 999 times in 1000)
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import comb

import numpy as np

from nessus.numbers import number_text

CHANCE = Fraction(1, 1000)  # how often `check_intervals` may fail a correct simulation, at most


def check(claim: bool | np.bool_, label: str, value: Fraction | float | None = None) -> None:
    """Print "✓ label" (and the value, if given) when `claim` is True; returns nothing.

    Raises AssertionError naming the label (and the value) when `claim` is False, and TypeError
    when it is not a truth value at all (a number or a table passed by mistake would never fail).
    """
    if not isinstance(claim, (bool, np.bool_)):
        raise TypeError(f"check({label!r}) needs a claim that is True or False, not {type(claim).__name__}")
    line = label if value is None else f"{label}: {number_text(value)}"
    if not claim:
        raise AssertionError(f"✗ {line}")
    print(f"✓ {line}")


def fewest_inside(n: int, level: float | Fraction = 0.95) -> int:
    """The fewest of n `level` intervals that hold their exact values, 999 times in 1000 at least.

    The largest k with P(X < k) ≤ 1/1000 for X ~ Binomial(n, level), computed exactly: the 0.1%
    quantile that tests/checks.py takes from scipy.stats.binom.ppf(0.001, n, level) (at a tie,
    P(X < k) = 1/1000 exactly, scipy's floats may give k - 1).

    >>> fewest_inside(20), fewest_inside(100, level=0.999)
    (15, 98)
    """
    if not 0 < level < 1 or n < 0:
        raise ValueError(f"fewest_inside needs n ≥ 0 intervals and a level between 0 and 1, not {n} and {level}")
    p = Fraction(str(level))
    below = Fraction(0)  # P(X < k)
    for k in range(n + 1):
        below += comb(n, k) * p**k * (1 - p) ** (n - k)
        if below > CHANCE:
            return k
    return n


def check_intervals(inside: Iterable[bool | np.bool_], label: str, level: float | Fraction = 0.95) -> None:
    """Check that enough of a simulation's `level` intervals hold their exact values; returns nothing.

    `inside` has one truth value per interval. Prints "✓ label: how many hold, and how many should"
    when at least `fewest_inside` of them hold; raises AssertionError with the same line when not.
    The count treats the intervals as independent: figures of one simulation share its trials, so
    their misses may come together. Raises ValueError when there are too few intervals for a miss
    to mean anything (fewer than 3 at 95%), and TypeError for an interval that is not True or False.
    """
    held = list(inside)
    for x in held:
        if not isinstance(x, (bool, np.bool_)):
            raise TypeError(f"check_intervals({label!r}) needs True or False for each interval, not {type(x).__name__}")
    n, k = len(held), int(sum(held))
    least = fewest_inside(n, level)
    if least == 0:
        raise ValueError(f"check_intervals({label!r}): {n} intervals may all miss by chance; check them one by one")
    times = CHANCE.denominator
    line = (
        f"{label}: {k} of {n} intervals hold the exact value "
        f"({float(level) * 100:g}% intervals: at least {least} of {n} should, {times - 1} times in {times})"
    )
    if k < least:
        raise AssertionError(f"✗ {line}")
    print(f"✓ {line}")
