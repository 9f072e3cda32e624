"""Le Palais' rules (`nessus.games.palais.rules`): bad values are refused with a message."""

import pytest
from checks import assert_rejected, bad_cases
from hypothesis import given, settings

from nessus.games import palais

# -- rules -----------------------------------------------------------------------------------------
RANGES = {"players": (2, 10)}


@settings(max_examples=30, deadline=None)
@given(bad_cases(RANGES))
def test_rules_reject_bad_players(case):
    assert_rejected(palais.Rules, RANGES, case)


@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_rules_reject_a_bad_switch(value):
    with pytest.raises(ValueError, match="sticky_holds must be true or false"):
        palais.Rules(sticky_holds=value)


@pytest.mark.parametrize("value", ["C", "a", "", 1, None])
def test_rules_reject_a_bad_tie_break(value):
    with pytest.raises(ValueError, match="tie_break must be one of A, B"):
        palais.Rules(tie_break=value)


def test_rules_from_strings():
    rules = palais.Rules.from_strings({"sticky_holds": "yes", "tie_break": "B", "players": "6"})
    assert (rules.sticky_holds, rules.tie_break, rules.players) == (True, "B", 6)
    with pytest.raises(ValueError, match="hand must be one of"):
        palais.AtLeast("full")
    with pytest.raises(ValueError, match="dice must be 5 integers"):
        palais.Beat((1, 2, 3))
