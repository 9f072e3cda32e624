"""Le Sept fatal's rules: bad values are refused with the allowed range or choices."""

import pytest
from checks import assert_rejected, bad_cases
from hypothesis import given, settings

from nessus.games import sept

RANGES = {"hold": (1, 200), "rounds": (1, 5), "players": (2, 6)}


@settings(max_examples=50, deadline=None)
@given(bad_cases(RANGES))
def test_rules_reject_bad_values(case):
    assert_rejected(sept.Rules, RANGES, case)


@pytest.mark.parametrize("value", ["draw", "", 1, None])
def test_ties_must_be_a_known_choice(value):
    with pytest.raises(ValueError) as err:
        sept.Rules(ties=value)
    assert "ties" in str(err.value) and "replay, half" in str(err.value)
