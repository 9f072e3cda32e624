"""Le Naute's rules (`nessus.games.naute.rules`): setting aside ship, captain and crew in order,
and the parameters refused or read from strings."""

import pytest
from checks import assert_rejected, bad_cases
from hypothesis import given, settings

from nessus.games import naute


def test_set_aside_in_order():
    assert naute.set_aside(0, (6, 5, 4, 2, 3)) == (3, (2, 3))
    assert naute.set_aside(0, (5, 4, 4, 1, 2)) == (0, ())  # no ship: neither captain nor crew
    assert naute.set_aside(0, (6, 4, 4, 1, 2)) == (1, ())  # a ship but no captain: the 4 waits
    assert naute.set_aside(1, (5, 5, 4, 6)) == (3, (5, 6))
    assert naute.set_aside(2, (4, 4, 4)) == (3, (4, 4))


RANGES = {"expeditions": (1, 6), "players": (2, 10)}


@settings(max_examples=40, deadline=None)
@given(bad_cases(RANGES))
def test_rules_reject_bad_values(case):
    assert_rejected(naute.Rules, RANGES, case)


@pytest.mark.parametrize("value", ["loose", "", None, 1])
def test_rules_reject_a_bad_cargo_rule(value):
    with pytest.raises(ValueError, match="cargo_holds must be one of sticky, free, both"):
        naute.Rules(cargo_holds=value)


def test_rules_from_strings():
    rules = naute.Rules.from_strings({"expeditions": "6", "players": "2", "cargo_holds": "both"})
    assert (rules.expeditions, rules.players, rules.cargo_holds) == (6, 2, "both")
