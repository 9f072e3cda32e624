"""Les Royaumes' rules: the ranges of its parameters, and a fine given as text."""

from fractions import Fraction

import pytest
from checks import assert_rejected, bad_cases
from hypothesis import given, settings

from nessus.games import royaumes

F = Fraction


# -- rules validation ------------------------------------------------------------------------------
RANGES = {"fine": (0, 1), "players": (1, 10), "rounds": (1, 1000)}


@settings(max_examples=40, deadline=None)
@given(bad_cases(RANGES))
def test_rules_reject_bad_values(case):
    assert_rejected(royaumes.Rules, RANGES, case)


def test_fine_from_strings():
    assert royaumes.Rules.from_strings({"fine": "0.05"}).fine == F(1, 20)
    assert royaumes.Rules.from_strings({"fine": "1/4"}).fine == F(1, 4)
    for text in ("2", "-1/10", "a tenth"):
        with pytest.raises(ValueError, match="fine must be a number"):
            royaumes.Rules.from_strings({"fine": text})
