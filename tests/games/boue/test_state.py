"""La Boue as a game (the protocol): stuck dice, clean rolls, every player every round, and the length bound."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.game import CHANCE, win_shares
from nessus.games import boue

F = Fraction


# -- the game (the protocol) ------------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(st.integers(1, 10), st.data())
def test_turn_sticks_the_twos_and_fives_and_scores_clean_rolls(dice, data):
    turn = boue.initial_state(boue.Rules(dice=dice))
    assert turn.free == dice and turn.stuck == () and turn.score == 0 and turn.last == ()
    for _ in range(30):
        if turn.turn_over:
            break
        roll = data.draw(st.tuples(*[st.integers(1, 6)] * turn.free))
        before = turn
        turn = turn.roll(dice=roll)
        newly = [d for d in roll if d in (2, 5)]
        assert turn.last == tuple(sorted(roll)) and turn.rolls == before.rolls + (turn.last,)
        assert sorted(turn.stuck) == sorted(before.stuck + tuple(newly))
        assert turn.free == before.free - len(newly)
        assert turn.free + len(turn.stuck) == dice
        assert turn.score == before.score + (0 if newly else sum(roll))
        assert turn.scores == (turn.score, 0) and turn.player == 0 and turn.round == 1
    if turn.turn_over:
        assert turn.free == 0 and len(turn.stuck) == dice and turn.current_player() == CHANCE
        nxt = turn.roll(dice=(6,) * dice)  # the next player's first roll: a clean one
        assert (nxt.player, nxt.round, nxt.free, nxt.stuck, nxt.rolls) == (1, 1, dice, (), ((6,) * dice,))
        assert nxt.scores == (turn.score, 6 * dice) and nxt.score == 6 * dice


def test_whole_game_every_player_every_round():
    """Two players, three rounds: six turns in seat order, each ending with every die stuck; the
    totals are the turns' scores and the returns the win shares of the highest."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        state = boue.initial_state()
        turns: list[tuple[int, int, int]] = []
        while not state.is_terminal():
            state = state.roll(rng)
            if state.turn_over:
                assert len(state.stuck) == 5 and set(state.stuck) <= {2, 5}
                assert state.score == sum(sum(r) for r in state.rolls if not set(r) & {2, 5})
                turns.append((state.round, state.player, state.score))
        assert [(r, p) for r, p, _ in turns] == [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)]
        assert state.scores == tuple(sum(s for _, p, s in turns if p == q) for q in (0, 1))
        assert state.returns() == win_shares(state.scores)
        assert "game over" in state.observation(1)
    with pytest.raises(ValueError, match="over"):
        state.roll(rng)
    with pytest.raises(ValueError, match="rng or dice"):
        boue.initial_state().roll()


def test_protocol_chance_outcomes_are_the_free_dice():
    """A chance node rolls the free dice (all of them once a turn is over): sorted multisets with
    exact weights; no decisions, no policies."""
    state = boue.initial_state(boue.Rules(dice=3))
    assert boue.policies() == {} and state.legal_actions() == []
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 56 and sum(outcomes.values()) == 1 and outcomes[(1, 3, 6)] == Fraction(6, 216)
    state = state.apply((2, 5, 6))
    assert len(state.chance_outcomes()) == 6 and state.free == 1
    state = state.apply((5,))
    assert state.turn_over and len(state.chance_outcomes()) == 56


def test_max_length_passes_the_roll_count_bound():
    """shape().max_length: per turn, the bound with tail < 1e-15 / turns of the number of rolls (a
    chain on the free dice adding 1 a roll, checked here against its mean by first-step
    analysis: E[rolls] (1 - (2/3)^n) = 1 + sum_k b_k E[rolls from n - k])."""
    state = boue.initial_state()
    turns = 2 * boue.ROUNDS
    per_turn = state.shape().max_length // turns
    e = {0: F(0)}
    for n in range(1, 6):
        b = {k: comb(n, k) * F(1, 3) ** k * F(2, 3) ** (n - k) for k in range(1, n + 1)}
        e[n] = (1 + sum(b[k] * e[n - k] for k in b)) / (1 - F(2, 3) ** n)
    assert per_turn * turns == state.shape().max_length and per_turn > 10 * e[5]


@pytest.mark.parametrize(
    "dice",
    [
        (1, 2),
        (1, 2, 3, 4, 6, 6),
        (0, 1, 1, 1, 1),
        (7, 1, 1, 1, 1),
        (-2, 1, 1, 1, 1),
        (1.5, 1, 1, 1, 1),
        ("3", 1, 1, 1, 1),
    ],
)
def test_turn_rejects_bad_dice(dice):
    with pytest.raises(ValueError, match="dice"):
        boue.initial_state().roll(dice=dice)


@pytest.mark.parametrize("dice", [(3.0, 1, 1, 1, 1), (True, 1, 1, 1, 1)])
def test_turn_rejects_non_integer_faces(dice):
    with pytest.raises(ValueError, match="dice"):
        boue.initial_state().roll(dice=dice)
