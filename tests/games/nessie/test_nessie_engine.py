"""The Nessie engine: no card is ever lost or duplicated, hands obey the keeping rule, and the
rules' small cases worked by hand."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.games.nessie.engine import CHAIN, Game, Hand, can_keep, make_deck, neighbours, sunk, take

ADJ = neighbours(CHAIN)


def adjacent_chain_ok(letters):
    """Kept letters form no duplicates, and each was adjacent to an earlier one when kept."""
    if len(set(letters)) != len(letters):
        return False
    return all(any(x in ADJ[y] for y in letters[:i]) for i, x in enumerate(letters) if i)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), moves=st.lists(st.floats(0, 1), min_size=1, max_size=400)
)
def test_random_games_conserve_cards_and_keep_hands_legal(seed, players, moves):
    game = Game.new(players, np.random.default_rng(seed))
    for u in moves:
        if game.over:
            break
        if game.revealed == 0 or u < 0.6:
            game.reveal()
        else:
            game.stop(int(u * 100) % (len(game.row) + 1))
        game.check_conservation()
        assert not sunk(game.row, game.hand) or not game.row
        assert all(adjacent_chain_ok(h.letters) for h in game.hands)
    assert sum(game.all_cards().values()) == 84


def test_deck_composition():
    deck = Counter(make_deck())
    assert len(make_deck()) == 84 and deck["A"] == 8 and deck["F"] == 8 and deck["1"] == deck["2"] == deck["3"] == 12


def test_keeping_rule_by_hand():
    assert can_keep([], "D", ADJ)  # the first Nessie card is always kept
    assert can_keep(["C"], "D", ADJ) and can_keep(["C"], "B", ADJ)
    assert not can_keep(["C"], "E", ADJ)  # not adjacent
    assert not can_keep(["C", "D"], "C", ADJ)  # a duplicate


def test_taking_from_the_last_revealed_backwards():
    """Holding C and a 1 and a 3: taking [E, D] (E last revealed) discards E with the lowest
    treasure (the 1), then keeps D."""
    hand, discards = take(Hand([1, 3], ["C"]), ["E", "D"], ADJ)
    assert hand.letters == ["C", "D"] and hand.treasures == [3] and sorted(discards) == ["1", "E"]
    hand, discards = take(Hand([], ["C"]), ["E"], ADJ)  # no treasure to lose
    assert hand == Hand([], ["C"]) and discards == ["E"]


def test_sinking_rules():
    assert sunk(["3", "A", "3"], Hand())  # treasures total 6
    assert not sunk(["3", "2"], Hand())
    assert sunk(["A", "A"], Hand([], ["A"]))  # 3 A's with the player's own
    assert not sunk(["A", "A"], Hand([], ["B"]))


def test_sinking_at_the_start_of_a_turn_discards_the_row():
    """Player 2 owns an A and player 1 leaves A, A in the row: player 2 sinks before revealing."""
    game = Game.new(2, np.random.default_rng(1))
    for card in ("A", "A", "A"):
        game.draw.remove(card)  # two go to the row, one in front of player 2
    game.row = ["A", "A"]
    game.hands[1] = Hand([], ["A"])
    game.revealed = 1  # as if player 1 had revealed the row's last card
    game.stop(0)
    assert game.row == [] and game.current == 0 and game.discard.count("A") == 2
    game.check_conservation()


def test_illegal_moves_are_clear_errors():
    game = Game.new(3, np.random.default_rng(2))
    with pytest.raises(ValueError, match="reveal at least one card"):
        game.stop(0)
    game.reveal()
    with pytest.raises(ValueError, match="n must be an integer from 0 to"):
        game.stop(5)
    with pytest.raises(ValueError, match="players must be an integer from 2 to 6"):
        Game.new(7)
