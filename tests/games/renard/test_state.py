"""Le Renard's table (the game protocol): money conserved, play stopping at ruin or the last round, dice checked."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.games import renard

# -- the table ----------------------------------------------------------------------------------
dice_rolls = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 30), st.integers(1, 5), st.integers(1, 12), st.integers(1, 25), st.data())
def test_table_conserves_money_and_stops(payout, stake, units, rounds, data):
    rules = renard.Rules(payout=payout, stake=stake, bankroll=stake * units, rounds=rounds)
    table = renard.initial_state(rules)
    assert table.bankroll == rules.bankroll and not table.is_terminal()
    while not table.is_terminal():
        dice = data.draw(st.one_of(st.sampled_from([(1, 1, 1), (6, 6, 6)]), dice_rolls))
        before = table.bankroll
        table = table.roll(dice=dice)
        triple = dice[0] == dice[1] == dice[2]
        assert table.bankroll - before == stake * (payout if triple else -1)
        assert table.history[-1] == (tuple(sorted(dice)), table.bankroll - before)
    assert table.ruined or len(table.history) == rounds
    assert table.ruined == (table.bankroll < stake)
    with pytest.raises(ValueError):
        table.roll(dice=(1, 2, 3))


def test_table_is_over_after_ruin():
    table = renard.initial_state(renard.Rules(stake=2, bankroll=3, rounds=10))
    table = table.roll(dice=(1, 2, 3))
    assert table.bankroll == 1 and table.ruined and table.is_terminal()
    with pytest.raises(ValueError, match="over"):
        table.roll(dice=(4, 4, 4))


def test_table_rolls_with_a_generator():
    rng = np.random.default_rng(5)
    table = renard.initial_state(renard.Rules(rounds=20))
    while not table.is_terminal():
        table = table.roll(rng)
        dice, _ = table.history[-1]
        assert len(dice) == 3 and all(1 <= d <= 6 for d in dice)
    with pytest.raises(ValueError):
        renard.initial_state(renard.Rules()).roll()


@pytest.mark.parametrize("dice", [(1, 2), (1, 2, 3, 4), (0, 1, 1), (7, 1, 1), (-1, 2, 3), (2.5, 1, 1), ("1", 1, 1)])
def test_table_rejects_bad_dice(dice):
    with pytest.raises(ValueError, match="dice"):
        renard.initial_state(renard.Rules()).roll(dice=dice)


@pytest.mark.parametrize("dice", [(3.0, 3.0, 3.0), (True, True, True)])
def test_table_rejects_non_integer_faces(dice):
    with pytest.raises(ValueError, match="dice"):
        renard.initial_state(renard.Rules()).roll(dice=dice)


def test_play_rounds_through_the_play_loop_and_the_table_in_words():
    rng = np.random.default_rng(3)
    table = renard.initial_state(renard.Rules(bankroll=5, rounds=8)).play_rounds(rng, 3)
    assert len(table.history) == 3 and table.standing == "playing"
    assert table.bankrolls == (5, *(5 + sum(g for _, g in table.history[: i + 1]) for i in range(3)))
    assert table.triples == sum(1 for _, g in table.history if g > 0)
    table = table.play_rounds(rng, 100)
    assert table.is_terminal() and table.standing in ("ruined", "all rounds played")
    assert table.verdict.startswith("Triple! +" if table.history[-1][1] > 0 else "No triple: -")
    assert renard.initial_state().verdict == ""
