"""Nessie's rules (`nessie.engine`) and the game that plays them (`nessie.State`): no card is
ever lost or duplicated, hands obey the keeping rule, and the rules' small cases worked by hand."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.games.nessie import CARD_KINDS, Rules, State, initial_state
from nessus.games.nessie.cards import CHAIN, Hand, can_keep, make_deck, neighbours, sunk, take

ADJ = neighbours(CHAIN)


def adjacent_chain_ok(letters):
    """Kept letters form no duplicates, and each was adjacent to an earlier one when kept."""
    if len(set(letters)) != len(letters):
        return False
    return all(any(x in ADJ[y] for y in letters[:i]) for i, x in enumerate(letters) if i)


def all_cards(state: State) -> Counter:
    """Every card wherever it is: draw pile and discards (counted), row, in front of each player."""
    out = Counter({c: n for c, n in zip(CARD_KINDS, state.draw)}) + Counter(dict(zip(CARD_KINDS, state.discards)))
    out += Counter(state.row)
    for h in state.hands:
        out += Counter(h.cards())
    return +out


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), moves=st.lists(st.floats(0, 1), min_size=1, max_size=400)
)
def test_random_games_conserve_cards_and_keep_hands_legal(seed, players, moves):
    rng = np.random.default_rng(seed)
    state = initial_state(Rules(players=players))
    deck = Counter(make_deck())
    for u in moves:
        if state.is_terminal():
            break
        if state.revealed == 0 or u < 0.6:
            state = state.reveal(rng=rng)
        else:
            state = state.stop(int(u * 100) % (len(state.row) + 1))
        assert all_cards(state) == deck
        assert not sunk(list(state.row), state.hand()) or not state.row
        assert all(adjacent_chain_ok(list(h.letters)) for h in state.hands)


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
    """Player 1 owns an A and player 2 leaves A, A in the row: player 1 sinks before revealing,
    and the turn passes back to player 2."""
    state = initial_state(Rules(players=2)).reveal("A").stop(1)  # player 1 keeps an A
    state = state.reveal("B").stop(0)  # player 2 leaves B
    state = state.reveal("B").stop(2)  # player 1 takes B, B: the second B is not kept
    state = state.reveal("A").reveal("A").stop(0)  # player 2 holds nothing: leaves A, A
    assert state.current == 1 and state.row == () and state.hand(0).letters == ["A", "B"]
    assert [e.kind for e in state.last] == ["stop", "sink_at_start"]  # 3 A's with player 1's own
    assert state.discards[CARD_KINDS.index("A")] == 2 and all_cards(state) == Counter(make_deck())


def test_illegal_moves_are_clear_errors():
    state = initial_state(Rules(players=3))
    with pytest.raises(ValueError, match="reveal at least one card"):
        state.stop(0)
    state = state.reveal(rng=np.random.default_rng(2))
    with pytest.raises(ValueError, match="n must be an integer from 0 to"):
        state.stop(5)
    with pytest.raises(ValueError, match="players must be"):
        Rules(players=7)
