"""Les Trois as a game (`state`): a turn may start with dice set aside, bad dice are refused,
and rounds, ties and the last player's objective."""

from fractions import Fraction

import pytest

from nessus.games import trois

F = Fraction


def test_a_turn_may_start_with_dice_set_aside():
    """The notebook's position: three 3s aside, 1 and 4 rolled."""
    hint = trois.State(kept=(3, 3, 3)).roll(dice=(4, 1)).hint()
    assert hint.values == {(1, 4): 5, (1,): 4, (4,): 7} and hint.best == (1,)
    with pytest.raises(ValueError, match="kept"):
        trois.State(kept=(3, 3, 3, 3, 3))


@pytest.mark.parametrize("dice", [(1, 2), (0, 1, 1, 1, 1), (7, 1, 1, 1, 1), (1.5, 1, 1, 1, 1)])
def test_roll_rejects_bad_dice(dice):
    with pytest.raises(ValueError, match="dice"):
        trois.initial_state().roll(dice=dice)


def play_turns(state, *turns):
    """Each turn: its rolls, every die of each roll set aside at once."""
    for roll in turns:
        state = state.roll(dice=roll).set_aside(roll)
    return state


def test_rounds_ties_and_the_last_player_goal():
    """Two rounds for three: the totals after the last round tie seats 0 and 2, who play a
    tie-break round; the last to play in a deciding round plays for the win."""
    rules = trois.Rules(dice=2, rounds=2, players=3)
    state = play_turns(trois.initial_state(rules), (1, 2), (4, 4), (1, 1))
    assert state.round == 1 and state.deciding() and state.objective() == trois.LeastScore(2)
    state = play_turns(state, (3, 3), (1, 1))
    assert state.seat == 2 and state.objective() == trois.Win(2, 3 - 2 - 1)
    state = play_turns(state, (1, 3))
    assert not state.is_terminal() and state.live == (0, 2) and state.round == 2 and state.scores() == [3, 10, 3]
    assert state.sheet() == [{0: 3, 1: 0}, {0: 8, 1: 2}, {0: 2, 1: 1}]
    assert state.seat == 0 and "tie-break round 1" in state.observation(1)
    state = play_turns(state, (5, 5))
    assert state.seat == 2 and state.objective() == trois.Win(2, 13 - 3 - 1)
    assert play_turns(trois.initial_state(rules), (1, 2), (4, 4), (6, 5), (3, 3), (1, 1)).objective() == trois.Win(
        2, -1
    )
    end = play_turns(state, (1, 2))
    assert end.is_terminal() and end.winner == 2 and end.returns() == [0, 0, 1]
