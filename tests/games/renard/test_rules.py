"""Le Renard's rules: the ranges of its parameters, and a bankroll no smaller than the stake."""

import pytest
from checks import assert_rejected, bad_cases
from hypothesis import given, settings

from nessus.games import renard

# -- rules validation ---------------------------------------------------------------------------
RANGES = {"payout": (1, 100), "stake": (1, 1000), "bankroll": (1, 100_000), "rounds": (1, 1000)}


@settings(max_examples=40, deadline=None)
@given(bad_cases(RANGES))
def test_rules_reject_bad_values(case):
    assert_rejected(renard.Rules, RANGES, case)


def test_rules_reject_bankroll_below_stake():
    with pytest.raises(ValueError, match="bankroll must be at least the stake"):
        renard.Rules(stake=10, bankroll=9)
    with pytest.raises(ValueError, match="bankroll"):
        renard.Rules.from_strings({"stake": "10", "bankroll": "9"})
    assert renard.Rules(stake=10, bankroll=10).bankroll == 10
