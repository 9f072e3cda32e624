"""Pig's rules: bad values are refused with the allowed range."""

import pytest
from checks import assert_rejected, bad_cases
from hypothesis import given, settings

from nessus import pushluck as core
from nessus.games import pig

RANGES = {"goal": (1, 100), "players": (2, 8)}


@settings(max_examples=50, deadline=None)
@given(bad_cases(RANGES))
def test_rules_reject_bad_values(case):
    assert_rejected(pig.Rules, RANGES, case)


def test_hold_must_be_positive():
    for n in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="hold"):
            core.hold_at_mean(pig.ROLL, n)
