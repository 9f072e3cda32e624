"""L'Hypogéon as a game (the protocol): a turn's rolls, stand and bust, rounds scored into whole
games to the target, and the others' dice hidden until the round ends."""

import pytest

from nessus.games import hypogeon


def test_turn_roll_stand_and_bust():
    state = hypogeon.initial_state()
    assert state.legal_actions() == ["roll"]
    with pytest.raises(ValueError, match="after the first roll"):
        state.stand()
    state = state.roll(dice=(6, 5))
    turn = state.turn_of(0)
    assert turn.total == 11 and not turn.over and turn.final is None
    state = state.roll(dice=(6,)).roll(dice=(3,))
    assert state.turn_of(0).total == 20 and state.current_player() == 0
    stood = state.stand()
    assert stood.turn_of(0).over and stood.turn_of(0).final == 20 and stood.current_player() == 1
    bust = state.roll(dice=(2,))
    assert bust.turn_of(0).bust and bust.turn_of(0).final == hypogeon.BUST and bust.current_player() == 1
    with pytest.raises(ValueError, match="dice"):
        state.roll(dice=(1, 1))


def test_rounds_are_scored_and_the_game_ends_at_the_target():
    state = hypogeon.initial_state(hypogeon.Rules(players=3, target=3))
    for dice in [(5, 6), (4, 6), (5, 6)]:  # a tie for the best on 11: nobody scores
        state = state.roll(dice=dice).stand()
    assert (
        state.round_over and state.finals == [11, 10, 11] and state.scores == [0, 0, 0] and state.current_player() == 0
    )
    state = state.roll(dice=(5, 6)).roll(dice=(6,)).roll(dice=(4,)).roll(dice=(3,))  # 11 + 6 + 4 = 21, then 24: bust
    assert state.turn_of(1) is None and state.round == 2 and state.history == ((11, 10, 11),)
    state = state.roll(dice=(6, 6)).stand().roll(dice=(1, 1)).stand()  # a sole 12: player 2 scores 1
    assert state.scores == [0, 1, 0] and not state.is_terminal()
    state = state.roll(dice=(6, 5)).roll(dice=(6,)).roll(dice=(4,)).stand()  # 21
    state = state.roll(dice=(1, 1)).stand().roll(dice=(1, 2)).stand()  # a sole 21: 2 points
    assert state.scores == [2, 1, 0] and not state.is_terminal()
    state = (
        state.roll(dice=(3, 3))
        .stand()
        .roll(dice=(6, 6))
        .roll(dice=(6,))
        .roll(dice=(3,))
        .stand()
        .roll(dice=(1, 2))
        .stand()
    )
    assert state.scores == [2, 3, 0] and state.is_terminal() and state.returns() == [0, 1, 0]
    with pytest.raises(ValueError, match="over"):
        state.roll(dice=(1, 1))


def test_the_others_dice_are_hidden_until_the_round_ends():
    state = hypogeon.initial_state(hypogeon.Rules(players=3)).roll(dice=(6, 5)).stand().roll(dice=(2, 3))
    assert "player 1: played" in state.observation(2) and "5 6" not in state.observation(1)
    assert "5 6; final 11" in state.observation(0) and "2 3; total 5" in state.observation(1)
    variants = state.hidden_variants(2)
    assert len(variants) == 2 and all(v.observation(2) == state.observation(2) and v != state for v in variants)
    assert len(state.hidden_variants(0)) == 1
    end = state.stand().roll(dice=(1, 1)).stand()
    assert end.round_over and "5 6; final 11" in end.observation(2) and end.hidden_variants(2) == []


def test_rounds_in_words():
    names = ["You", "Player 2", "Player 3"]
    assert hypogeon.round_text([21, 20], names) == "You score 2 points with a sole 21."
    best = "Player 2 scores 1 point with the single best total, 18."
    assert hypogeon.round_text([0, 18, 12], names) == best
    assert hypogeon.round_line(2, [0, 18, 12], names) == f"Round 2: you bust · P2 18 · P3 12 → {best}"
    assert hypogeon.round_text([19, 19], names) == "Nobody scores: a tie for best on 19."
    assert hypogeon.round_text([0, 0], names) == "Nobody scores: everyone is bust."
    assert [hypogeon.final_text(f) for f in (None, hypogeon.BUST, 20)] == ["?", "bust", "20"]
    assert hypogeon.score_round([0, 18, 12]) == (1, 1) and hypogeon.score_round([19, 19]) == (None, 0)


def test_a_game_played_and_won_in_words():
    """The rounds over (the one in play once it is over), the winner and the result line."""
    state = hypogeon.initial_state(hypogeon.Rules(players=2, target=2)).roll(dice=(6, 5)).stand()
    assert state.played == [] and state.winner is None and hypogeon.result_text(state, ["You", "Player 2"]) == ""
    state = state.roll(dice=(1, 1)).stand()
    assert state.played == [(11, 2)] and state.winner is None and state.round_points == [1, 0]
    state = state.roll(dice=(6, 6)).roll(dice=(6,)).stand().roll(dice=(2, 2)).stand()
    assert state.played == [(11, 2), (18, 4)] and state.winner == 0 and state.history == ((11, 2),)
    assert state.round_points == [1, 0] and state.scores == [2, 0]
    assert hypogeon.result_text(state, ["You", "Player 2"]) == "You win the game with 2 points after 2 rounds."
