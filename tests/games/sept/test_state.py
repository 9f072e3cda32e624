"""Le Sept fatal as the game protocol: chance nodes with exact weights, the hint off the
solved grid, ties replayed or halved, bad dice refused."""

from fractions import Fraction

import pytest

from nessus.game import CHANCE
from nessus.games import sept
from nessus.games.sept import odds


def test_game_is_the_protocol_state():
    """ "roll" makes a chance node over the 21 rolls of 2d6 with exact weights; the game's
    policies play from any state."""
    g = sept.initial_state(sept.Rules(rounds=1))
    rolling = g.apply("roll")
    assert rolling.current_player() == CHANCE and rolling.rolling and rolling.legal_actions() == []
    outcomes = dict(rolling.chance_outcomes())
    assert len(outcomes) == 21 and outcomes[(3, 4)] == Fraction(1, 18) and sum(outcomes.values()) == 1
    assert rolling.apply((2, 5)).history[0].end == "bust"
    assert set(sept.policies()) == {"optimal", "hold_at_20", "hold_at_35"}
    assert sept.policies()["hold_at_20"](g.roll(dice=(6, 6)).roll(dice=(4, 4))) == "hold"
    assert "round 1 of 1" in g.observation(1) and "player 1 to move" in g.observation(1)


def test_a_game_as_the_page_tells_it():
    """Each player's turns and rolls, the result for one seat, the first player's chance and how
    accurate the winning chances are (the bracket at this turn's start)."""
    g = sept.initial_state(sept.Rules(rounds=1)).roll(dice=(6, 6)).hold().roll(dice=(5, 6)).roll(dice=(3, 4))
    assert g.first_turn() == (((6, 6),), 12, "hold") and g.turns_of(1)[0].lost == 11
    assert g.rolls_of(0) == [(6, 6)] and g.rolls_of(1) == [(5, 6), (3, 4)]
    assert (g.result_text(0), g.result_text(1)) == ("You win, 12 to 0.", "The machine wins, 12 to 0.")
    assert sept.initial_state().result_text(0) == ""
    assert g.p_first() == sept.solution(g.rules).p_first
    start = sept.initial_state()
    assert start.accuracy().startswith("≈: floats, not exact") and "cut off" in start.accuracy()


def test_hint_off_the_grid_is_the_rule_played_there():
    """A lead beyond the margin (as `Solution.rolls`): the player ahead holds, the one behind rolls."""
    m = sept.solution().duel.margin
    ahead = sept.State(scores=(m + 10, 0), turn_total=5, rolls=((2, 3),))
    h = ahead.hint()
    assert h.method == "heuristic" and h.best == "hold" and h.values == {"roll": 0.0, "hold": 1.0}
    behind = sept.State(scores=(0, m + 10), turn=2, turn_total=5, rolls=((2, 3),))
    assert (
        behind.hint().best == "roll" and sept.optimal_policy(behind) == "roll" and sept.optimal_policy(ahead) == "hold"
    )


def test_game_ties_replay_and_half():
    g = sept.initial_state(sept.Rules(rounds=1)).roll(dice=(1, 1)).hold().roll(dice=(1, 1))
    assert g.hint().values["hold"] == pytest.approx(
        1 - sept.solution(sept.Rules(rounds=1)).solved.starts[odds._solve(1, "replay").duel.context(2, 0)], abs=1e-12
    )
    g = g.hold()
    assert not g.is_terminal() and g.turn == 2 and g.mover == 0 and g.scores == (2, 2) and g.duel_turn == 2
    g = g.roll(dice=(3, 4)).roll(dice=(2, 2)).hold()
    assert g.is_terminal() and g.winner == 1 and g.returns() == [0, 1]
    half = sept.initial_state(sept.Rules(rounds=1, ties="half")).roll(dice=(1, 1)).hold().roll(dice=(1, 1)).hold()
    assert half.is_terminal() and half.winner == -1 and half.returns() == [Fraction(1, 2), Fraction(1, 2)]


@pytest.mark.parametrize("dice", [(3, 5, 1), (0, 1), (7, 1), (1.0, 2)])
def test_game_rejects_bad_dice(dice):
    with pytest.raises(ValueError, match="dice"):
        sept.initial_state().roll(dice=dice)
