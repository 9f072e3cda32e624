"""Les Trois's rules: bad values are rejected, targets out of reach accepted."""

from fractions import Fraction

from checks import assert_rejected, bad_cases
from hypothesis import given, settings

from nessus.games import trois

F = Fraction

# -- rules validation -----------------------------------------------------------------------------------
RANGES = {"dice": (1, 6), "target": (0, 36), "rounds": (1, 10), "players": (2, 8)}


@settings(max_examples=50, deadline=None)
@given(bad_cases(RANGES))
def test_rules_reject_bad_values(case):
    assert_rejected(trois.Rules, RANGES, case)


def test_targets_out_of_reach():
    """A target at or above the highest score is always met; the rules accept it."""
    f = trois.report(trois.Rules(dice=2, target=12)).figures
    assert f["p_at_most_target_best"].exact == 1
