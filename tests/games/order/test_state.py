"""The playable roll-off (the game protocol): the highest total stays tied, and the length bound."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.game import CHANCE, TERMINAL
from nessus.games import order


# -- the playable roll-off ---------------------------------------------------------------------
@settings(max_examples=50, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32 - 1))
def test_rolloff_keeps_exactly_the_highest(players, seed):
    rng = np.random.default_rng(seed)
    state = order.initial_state(order.Rules(players=players))
    assert state.tied == tuple(range(1, players + 1)) and state.winner is None
    while state.winner is None:
        before = state.tied
        state = state.roll(rng)
        totals = state.history[-1]
        assert set(totals) == set(before)
        assert all(2 <= t <= 12 for t in totals.values())
        best = max(totals.values())
        assert state.tied == tuple(p for p in before if totals[p] == best)
    with pytest.raises(ValueError):
        state.roll(rng)


def test_rolloff_state_is_the_protocol():
    """Each roll is a chance node for the next tied player (21 sorted pairs, weights summing
    to 1); a round closes when everyone tied has rolled; the winner's return is 1."""
    state = order.initial_state(order.Rules(players=3))
    assert state == order.initial_state(order.Rules(players=3)) and order.policies() == {}
    assert state.current_player() == CHANCE and state.roller == 1
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21 and sum(p for _, p in outcomes) == 1
    assert dict(outcomes)[(3, 4)] == Fraction(2, 36) and dict(outcomes)[(6, 6)] == Fraction(1, 36)
    state = state.apply((6, 6)).apply((1, 5))
    assert state.roller == 3 and state.history == () and "player 1 rolled 12" in state.observation(1)
    state = state.apply((6, 6))
    assert state.tied == (1, 3) and state.history == ({1: 12, 2: 6, 3: 12},) and state.roller == 1
    end = state.roll(dice=[(2, 1), (4, 3)])
    assert end.is_terminal() and end.winner == 3 and end.returns() == [0, 0, 1]
    assert end.current_player() == TERMINAL and "player 3 starts" in end.observation(0)
    with pytest.raises(ValueError, match="one pair for each of the 2 players"):
        state.roll(dice=[(1, 1)])
    with pytest.raises(ValueError, match="over"):
        end.roll(dice=[])


def test_roll_with_a_generator_draws_as_before():
    """roll(rng) draws each player's 2d6 from the generator in seat order, as the old roll-off did."""
    state = order.initial_state(order.Rules(players=4)).roll(np.random.default_rng(8))
    rng = np.random.default_rng(8)
    assert state.history[0] == {p: int(rng.integers(1, 7, size=2).sum()) for p in range(1, 5)}


def test_max_length_passes_the_rounds_bound():
    """shape().max_length is every tied player's roll for as many rounds as `rounds` bounds
    (P(more rounds) < 1e-15)."""
    for players in (2, 4, 10):
        rules = order.Rules(players=players)
        assert order.initial_state(rules).shape().max_length == players * order.rounds(rules).bound
