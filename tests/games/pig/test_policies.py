"""What a player of Pig or Le Sept fatal plays for: the objectives `Points` (the turn alone, for
points, exactly) and `Win` (the game, by value iteration), as `state.hint(objective)` weighs them."""

from fractions import Fraction

import pytest

from nessus import pushluck as core
from nessus.games import pig, sept


@pytest.mark.parametrize("module", [pig, sept])
def test_the_points_hint_is_the_exact_turn_played_for_points(module):
    """`hint(core.Points())` (the page's turn alone) gives `points_values` exactly, at the turn's
    start and after a roll, and the best move by those values."""
    state = module.initial_state()
    start = state.hint(core.Points())
    assert start.method == "exact" and set(start.values) == {"roll"}
    assert start.values["roll"] == core.points_values(module.ROLL, 0)["roll"]
    dice = (6,) if module is pig else (6, 5)
    after = state.roll(dice=dice)
    hint = after.hint(core.Points())
    assert hint.values == core.points_values(module.ROLL, sum(dice)) and set(hint.values) == set(after.legal_actions())
    assert hint.best == ("hold" if hint.values["hold"] >= hint.values["roll"] else "roll")
    assert after.hint().method != "exact"  # the default hint is the chance of winning the game


def test_objectives_say_what_they_count_and_pay_the_final_position():
    """`Points` pays the points the turn banked, `Win` a player's win share; both name their unit."""
    banked = pig.initial_state(pig.Rules(goal=20)).roll(die=6).roll(die=5).hold()
    assert core.Points().payoff(banked) == 11 and core.Points().unit == "expected turn score"
    won = sept.initial_state(sept.Rules(rounds=1, ties="half")).roll(dice=(6, 6)).hold().roll(dice=(3, 4))
    assert core.Win(0).payoff(won) == 1 and core.Win(1).payoff(won) == 0 and core.Win().unit == "P(you win)"
    tie = sept.initial_state(sept.Rules(rounds=1, ties="half")).roll(dice=(1, 1)).hold().roll(dice=(1, 1)).hold()
    assert core.Win(1).payoff(tie) == Fraction(1, 2)
    state = pig.initial_state().roll(die=4)
    assert state.hint(core.Win()).values == state.hint().values
    assert pig.policies()["optimal"](state) == state.hint().best
    assert sept.policies()["optimal"](sept.initial_state()) == "roll"
