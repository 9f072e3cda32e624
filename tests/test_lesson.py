"""nessus.lesson.check: a lesson's check shows a ✓ when its claim holds and fails the cell when not."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from nessus.lesson import check
from nessus.numbers import number_text


def test_a_claim_that_holds_is_shown_with_a_tick(capsys):
    half = Fraction(18, 36)
    check(half == Fraction(1, 2), "half of the rolls")
    check(np.cumsum([1, 2, 3])[-1] == 6, "numpy's truth values count too", half)
    assert capsys.readouterr().out.splitlines() == [
        "✓ half of the rolls",
        f"✓ numpy's truth values count too: {number_text(half)}",
    ]


def test_a_false_claim_raises_naming_the_label_and_the_value(capsys):
    with pytest.raises(AssertionError, match=r"^✗ the faces add up to 20: 21$"):
        check(sum(range(1, 7)) == 20, "the faces add up to 20", sum(range(1, 7)))
    assert capsys.readouterr().out == ""


def test_a_claim_must_be_true_or_false():
    with pytest.raises(TypeError, match="True or False"):
        check(Fraction(1, 36), "a probability is not a claim")  # type: ignore[arg-type]
