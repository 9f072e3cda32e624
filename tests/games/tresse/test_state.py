"""La Tresse as a game (`state`): every die moved by the rules, players without dice skipped,
throws as chance nodes, and the bound on a game's length."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from nessus.game import CHANCE, TERMINAL
from nessus.games import tresse

F = Fraction


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 10), st.integers(1, 6), st.data())
def test_table_moves_every_die_by_the_rules(players, dice, data):
    table = tresse.initial_state(tresse.Rules(players=players, dice=dice))
    assert table.holdings == (dice,) + (0,) * (players - 1) and table.current == 1
    for _ in range(200):
        if table.is_terminal():
            break
        hand = table.hand
        faces = tuple(data.draw(st.lists(st.integers(1, 6), min_size=hand, max_size=hand)))
        me = table.current - 1
        before = table
        table = table.roll(dice=faces)
        assert sum(table.holdings) + table.centre == dice
        assert table.centre - before.centre == faces.count(1) and table.throws == before.throws + 1
        left, right = (me + 1) % players, (me - 1) % players
        assert table.holdings[me] == hand - sum(1 for f in faces if f in (1, 2, 5))
        if players > 2:
            assert table.holdings[left] == before.holdings[left] + faces.count(2)
            assert table.holdings[right] == before.holdings[right] + faces.count(5)
        else:
            assert table.holdings[left] == before.holdings[left] + faces.count(2) + faces.count(5)
        if table.is_terminal():
            assert table.winner == me + 1 and sum(table.holdings) == 0 and faces.count(1) > 0
        elif table.holdings[me]:
            assert table.current == me + 1
        else:
            nxt = table.current - 1
            assert table.holdings[nxt] > 0
            skipped = [(me + k) % players for k in range(1, (nxt - me) % players)]
            assert all(table.holdings[s] == 0 for s in skipped)


def test_table_game_with_a_generator_ends_with_a_winner():
    rng = np.random.default_rng(3)
    table = tresse.initial_state(tresse.Rules(players=5))
    while not table.is_terminal():
        table = table.roll(rng)
    assert table.winner in range(1, 6) and table.centre == 5 and table.current is None
    assert table.history[-1][0] == table.winner
    with pytest.raises(ValueError, match="over"):
        table.roll(dice=())
    with pytest.raises(ValueError, match="rng or dice"):
        tresse.initial_state().roll()


def test_table_skips_players_without_dice():
    """Seat 1 of 4 throws 2, 2, 6, 6, 5: two dice go left to seat 2, one right to seat 4; seat 1
    throws 1, 1 and is empty; seat 2 plays; it passes both dice left and seat 3 plays."""
    table = tresse.initial_state(tresse.Rules(players=4))
    table = table.roll(dice=(2, 2, 6, 6, 5))
    assert table.holdings == (2, 2, 0, 1) and table.current == 1
    table = table.roll(dice=(1, 1))
    assert table.holdings == (0, 2, 0, 1) and table.current == 2 and table.centre == 2
    table = table.roll(dice=(2, 2))
    assert table.holdings == (0, 0, 2, 1) and table.current == 3
    table = table.roll(dice=(2, 1))
    assert table.holdings == (0, 0, 0, 2) and table.current == 4
    table = table.roll(dice=(1, 1))
    assert table.is_terminal() and table.winner == 4 and table.throws == 5


@pytest.mark.parametrize("dice", [(1, 2), (1, 2, 3, 4, 5, 6), (0, 1, 1, 1, 1), (7, 1, 1, 1, 1), (1.0, 1, 1, 1, 1)])
def test_table_rejects_bad_dice(dice):
    with pytest.raises(ValueError, match="dice"):
        tresse.initial_state().roll(dice=dice)


def test_protocol_throws_are_chance_nodes():
    """Each throw is a chance node: the dice in hand as sorted multisets with exact weights; no
    decisions, no policies; the winner's return is 1."""
    state = tresse.initial_state(tresse.Rules(players=3, dice=2))
    assert state == tresse.initial_state(tresse.Rules(players=3, dice=2)) and tresse.policies() == {}
    outcomes = dict(state.chance_outcomes())
    assert state.current_player() == CHANCE and state.legal_actions() == []
    assert len(outcomes) == 21 and sum(outcomes.values()) == 1 and outcomes[(1, 2)] == F(2, 36)
    state = state.apply((1, 2))
    assert state.holdings == (0, 1, 0) and state.current == 2 and len(state.chance_outcomes()) == 6
    assert "player 2 throws 1 next" in state.observation(0)
    end = state.apply((1,))
    assert end.is_terminal() and end.current_player() == TERMINAL and end.winner == 2
    assert end.returns() == [0, 1, 0] and end.chance_outcomes() == []
    assert "player 2 won after 2 throws" in end.observation(2)


def test_roll_with_a_generator_draws_as_before():
    """roll(rng) throws the hand with rng.integers(1, 7, size=hand), as the old table did (the
    lesson's seeded game is unchanged); the faces are kept sorted."""
    state = tresse.initial_state().roll(np.random.default_rng(6))
    assert state.history[0] == (1, tuple(sorted(int(x) for x in np.random.default_rng(6).integers(1, 7, size=5))))


def test_max_length_bound():
    """shape().max_length is the least t with P(Binomial(t, 1/6) < dice) < 1e-15 (a proven bound
    on P(more throws), see `_max_throws`); a few hundred throws."""
    for dice in (1, 5, 6):
        t = tresse.initial_state(tresse.Rules(dice=dice)).shape().max_length
        assert stats.binom.cdf(dice - 1, t, 1 / 6) < 1e-15 <= stats.binom.cdf(dice - 1, t - 1, 1 / 6)
        assert t < 300
