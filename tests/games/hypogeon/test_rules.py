"""L'Hypogéon's parameters: out-of-range values rejected, and seat 1's rule in whole games."""

import pytest
from checks import assert_rejected, bad_cases
from hypothesis import given, settings

from nessus.games import hypogeon

RANGES = {"stand_at": (2, 21), "players": (2, 10), "target": (1, 10)}


@settings(max_examples=40, deadline=None)
@given(bad_cases(RANGES))
def test_rules_reject_bad_values(case):
    assert_rejected(hypogeon.Rules, RANGES, case)


def test_seat1_choices():
    assert hypogeon.seat_rules(hypogeon.Rules(seat1="same", players=3)) == (17, 17, 17)
    assert hypogeon.seat_rules(hypogeon.Rules(players=3)) == (20, 17, 17)
    with pytest.raises(ValueError, match="seat1 must be one of best, same"):
        hypogeon.Rules(seat1="optimal")
