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
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from nessus.numbers import number_text


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
