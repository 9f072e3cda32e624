"""La Tresse's rules: bad values are rejected, and rules read from strings."""

import pytest
from checks import assert_rejected, bad_cases
from hypothesis import given, settings

from nessus.games import tresse

# -- rules validation ------------------------------------------------------------------------------
RANGES = {"players": (2, 10), "dice": (1, 6)}


@settings(max_examples=40, deadline=None)
@given(bad_cases(RANGES))
def test_rules_reject_bad_values(case):
    assert_rejected(tresse.Rules, RANGES, case)


def test_rules_from_strings():
    assert tresse.Rules.from_strings({"players": "7"}).players == 7
    with pytest.raises(ValueError, match="players must be an integer from 2 to 10"):
        tresse.Rules.from_strings({"players": "11"})
