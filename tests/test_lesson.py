"""nessus.lesson: a lesson's check shows a ✓ when its claim holds and fails the cell when not; check_intervals
allows a simulation's intervals as many misses as chance allows."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from scipy import stats

from nessus.lesson import check, check_intervals, fewest_inside
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


def test_enough_intervals_holding_their_exact_values_pass_with_what_chance_allows(capsys):
    check_intervals([True] * 12 + [False], "one miss in 13")
    check_intervals(np.array([True] * 100), "a numpy column", level=0.999)
    assert capsys.readouterr().out.splitlines() == [
        "✓ one miss in 13: 12 of 13 intervals hold the exact value "
        "(95% intervals: at least 9 of 13 should, 999 times in 1000)",
        "✓ a numpy column: 100 of 100 intervals hold the exact value "
        "(99.9% intervals: at least 98 of 100 should, 999 times in 1000)",
    ]


@pytest.mark.parametrize(("n", "level"), [(3, 0.95), (13, 0.95), (20, 0.95), (40, 0.95), (100, 0.999)])
def test_exactly_the_fewest_passes_and_one_fewer_fails(n, level, capsys):
    least = fewest_inside(n, level)
    check_intervals([True] * least + [False] * (n - least), "at the quantile", level)
    assert capsys.readouterr().out.startswith(f"✓ at the quantile: {least} of {n} intervals hold")
    with pytest.raises(
        AssertionError, match=rf"^✗ one below: {least - 1} of {n} intervals .* at least {least} of {n} "
    ):
        check_intervals([True] * (least - 1) + [False] * (n - least + 1), "one below", level)


def test_the_fewest_is_the_binomial_quantile_the_games_tests_use():
    def below(k, n, level):  # P(X < k), X ~ Binomial(n, level), exactly
        p = Fraction(str(level))
        return sum(comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k))

    for level in (0.9, 0.95, 0.99, 0.999):
        for n in range(1, 81):
            least = fewest_inside(n, level)
            assert below(least, n, level) <= Fraction(1, 1000) < below(least + 1, n, level), (n, level)
            if below(least, n, level) < Fraction(1, 1000):  # no tie: tests/checks.py's scipy quantile
                assert least == int(stats.binom.ppf(0.001, n, level)), (n, level)
    assert fewest_inside(1, 0.999) == 1  # a tie: one interval misses 1 time in 1000 exactly; scipy's floats say 0


def test_too_few_intervals_and_non_truth_values_are_refused():
    with pytest.raises(ValueError, match="check them one by one"):
        check_intervals([True, True], "two intervals")
    with pytest.raises(ValueError, match="check them one by one"):
        check_intervals([], "no interval")
    with pytest.raises(TypeError, match="True or False for each interval, not NoneType"):
        check_intervals([True, None, True, True], "a figure with no exact value")  # type: ignore[list-item]
    with pytest.raises(ValueError, match="level between 0 and 1"):
        fewest_inside(20, level=95)
