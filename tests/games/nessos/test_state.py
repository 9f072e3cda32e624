"""Nessos' engine (`nessus.games.nessos.state`): property tests over random whole games (cards
conserved, nothing hidden leaks, points follow the cards, the ends as RULES.md part 3 orders
them) and a hand-made scenario for each rule."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.game import CHANCE, TERMINAL
from nessus.games.nessos.deck import CHARON, KINDS, TARGETS, counts_of, deck, points
from nessus.games.nessos.policies import bayes, policies
from nessus.games.nessos.rules import Rules
from nessus.games.nessos.state import (
    ACCEPT,
    ELIMINATION,
    NINE_CHARON,
    NO_CARDS,
    REFUSE,
    TARGET,
    Draw,
    Offer,
    Pass,
    State,
    initial_state,
)
from nessus.play import random_legal, sample


# -- helpers ---------------------------------------------------------------------------------------
def table(
    players: int,
    hands: list[list[int]],
    fronts: list[list[int]] | None = None,
    token: int = 0,
    out: tuple[int, ...] = (),
    pile: list[int] | None = None,
    park: int | None = None,
    target: int = 0,
) -> State:
    """A round about to start: the given hands and fronts (players in `out` eliminated), the rest
    of the deck in the pile; or, given `pile`, the rest in the hand of the eliminated seat `park`
    (out of play), so that every card stays somewhere."""
    r = Rules(players=players, target=target)
    fronts = fronts or [[] for _ in range(players)]
    used = Counter(c for h in hands for c in h) + Counter(c for f in fronts for c in f)
    rest = r.deck.counts() - used
    assert not used - r.deck.counts(), "more cards than the deck holds"
    hands = [list(h) for h in hands]
    if pile is not None:
        assert park is not None and park in out and not Counter(pile) - rest
        hands[park] += list((rest - Counter(pile)).elements())
        rest = Counter(pile)
    return State(
        r,
        hands=tuple(counts_of(h) for h in hands),
        fronts=tuple(counts_of(f) for f in fronts),
        pile=tuple(rest[c] for c in range(KINDS)),
        token=token,
        out=tuple(p in out for p in range(players)),
        rounds=1,
        drawing=False,
    )


def all_cards(state: State) -> Counter:
    """Every card of the game wherever it is: hands (eliminated ones too), fronts, the offered
    cards and the pile."""
    total: Counter = Counter()
    for counts in (*state.hands, *state.fronts, state.pile):
        total.update({c: n for c, n in enumerate(counts) if n})
    total.update(o.card for o in state.chain)
    return total


def naive_points(cards: tuple[int, ...]) -> int:
    """Points counted again from a list of cards: creature values, +10 per {1, 2, 3}."""
    c = Counter(cards)
    return sum(v for v in cards if v != CHARON) + 10 * min(c[1], c[2], c[3])


def redealt(state: State, player: int, rng: np.random.Generator) -> State:
    """The cards `player` cannot see in the other hands and the pile, shuffled among those places
    (each keeping its size)."""
    places = [q for q in range(state.players) if q != player]
    hidden = [c for q in places for c in state.hand(q)] + [c for c, n in enumerate(state.pile) for _ in range(n)]
    rng.shuffle(hidden)
    hands = list(state.hands)
    at = 0
    for q in places:
        size = sum(state.hands[q])
        hands[q] = counts_of(hidden[at : at + size])
        at += size
    return State(
        state.rules,
        tuple(hands),
        state.fronts,
        counts_of(hidden[at:]),
        state.chain,
        state.token,
        state.out,
        state.rounds,
        state.drawing,
        state.ended,
        state.winners,
    )


def check_invariants(state: State, start_counts: Counter) -> None:
    r = state.rules
    assert all_cards(state) == start_counts, "cards not conserved"
    for p in range(state.players):
        assert sum(state.hands[p]) <= r.hand_size
        assert state.scores[p] == naive_points(state.front(p))
        assert state.out[p] == (state.charon_in_front(p) >= 3)
    assert len(state.chain) <= 3
    if state.chain:
        assert state.chain[0].sender == state.token
        receivers = [o.receiver for o in state.chain]
        assert len(set(receivers)) == len(receivers) and state.token not in receivers
        assert all(not state.out[q] for q in receivers)
        assert all(a.receiver == b.sender for a, b in zip(state.chain, state.chain[1:]))
        assert all(o.card in (CHARON, o.announced) and o.announced in r.deck.values for o in state.chain)
    if not state.ended:
        assert len(state.still_in) >= 2
        assert all(state.scores[p] < r.goal for p in state.still_in)
        assert state.charon_face_up < 9
        if not state.drawing and not state.chain:  # a round starts
            assert not state.out[state.token] and any(state.hands[state.token])
            if state.pile_size:
                assert all(sum(state.hands[p]) == r.hand_size for p in state.still_in)
    else:
        check_end(state)


def check_end(state: State) -> None:
    r = state.rules
    returns = state.returns()
    assert sum(returns) == 1
    assert set(state.winners) == {p for p, x in enumerate(returns) if x} and len(set(returns) - {0}) == 1
    if state.ended == ELIMINATION:
        assert state.still_in == list(state.winners)
    elif state.ended == TARGET:
        (w,) = state.winners
        assert not state.out[w] and state.scores[w] >= r.goal and len(state.still_in) >= 2
    else:
        assert state.ended in (NINE_CHARON, NO_CARDS)
        if state.ended == NINE_CHARON:
            assert state.charon_face_up >= 9
        else:
            assert state.charon_face_up < 9 and not state.pile_size
            assert not any(any(state.hands[p]) for p in state.still_in)
        key = {p: (state.scores[p], len(state.front(p))) for p in state.still_in}
        assert set(state.winners) == {p for p in state.still_in if key[p] == max(key.values())}


# -- properties over random whole games ------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 6), bot=st.sampled_from(["random", "naive", "bluffer"]))
def test_random_games_keep_every_rule(seed, players, bot):
    """Cards are conserved; nothing p cannot see shows in observation(p), whether the hidden cards
    are re-dealt at random or changed by hidden_variants; points follow the cards; the game ends
    as RULES.md says, within shape().max_length. Even seats play `bot`, odd seats at random."""
    rng = np.random.default_rng(seed)
    state = initial_state(Rules(players=players))
    start = all_cards(state)
    shape = state.shape()
    policy = random_legal(rng=rng) if bot == "random" else policies()[bot]
    steps = 0
    while True:
        check_invariants(state, start)
        for p in range(players):
            view = state.observation(p)
            assert redealt(state, p, rng).observation(p) == view
            for other in state.hidden_variants(p):
                assert other != state and other.observation(p) == view
                assert all_cards(other) == start
        if state.is_terminal():
            break
        if state.is_chance_node():
            assert len(state.chance_outcomes()) <= shape.max_chance_outcomes
            action = sample(state.chance_outcomes(), rng)
        else:
            assert len(state.legal_actions()) <= shape.max_actions
            action = (policy if state.current_player() % 2 == 0 else random_legal(rng=rng))(state)
        state = state.apply(action)
        steps += 1
    assert steps <= shape.max_length


def test_the_games_end_every_way():
    """Over seeded random games at each table size, every end happens somewhere."""
    ends = Counter()
    for players in (3, 4, 5):
        for seed in range(40):
            rng = np.random.default_rng(seed)
            state = initial_state(Rules(players=players))
            while not state.is_terminal():
                if state.is_chance_node():
                    state = state.apply(sample(state.chance_outcomes(), rng))
                else:
                    state = state.apply(random_legal(rng=rng)(state))
            check_end(state)
            ends[state.ended] += 1
    assert {ELIMINATION, TARGET, NINE_CHARON} <= set(ends)


def test_hidden_variants_change_offered_cards_too():
    """An offered card p did not offer can be the announced creature or a Charon: a variant flips it."""
    state = table(4, [[0, 7, 7, 2, 10], [5, 5, 3, 1, 0], [9, 9, 1, 2, 3], [0, 0, 7, 9, 10]])
    state = state.apply(Offer(7, 2, 7))
    variants = state.hidden_variants(2)
    assert any(v.chain[0].card == CHARON for v in variants)
    assert all(v.observation(2) == state.observation(2) for v in variants)
    assert all(v.chain[0].card == 7 for v in state.hidden_variants(0))  # the sender knows it


def test_observation_shows_own_hand_and_announcements_not_the_others_cards():
    state = table(4, [[0, 7, 7, 2, 10], [5, 5, 3, 1, 0], [9, 9, 1, 2, 3], [0, 0, 7, 9, 10]])
    state = state.apply(Offer(CHARON, 2, 9))
    mine = state.observation(0)
    theirs = state.observation(2)
    assert "hand 2 7 7 10" in mine and "(your C)" in mine
    assert "hand 1 2 3 9 9" in theirs and "offered a card announced 9" in theirs
    assert "your" not in theirs and "2 7 7 10" not in theirs and "4 cards in hand" in theirs
    assert len(re.findall(r"; hand ", theirs)) == 1


# -- chance ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_deal_draws_from_the_counted_deck_exactly(players):
    state = initial_state(Rules(players=players))
    d = deck(players)
    assert state.current_player() == CHANCE
    assert dict(state.chance_outcomes()) == {Draw(c): Fraction(n, d.size) for c, n in d.counts().items()}
    after = state.apply(Draw(CHARON))
    assert dict(after.chance_outcomes())[Draw(CHARON)] == Fraction(d.charon - 1, d.size - 1)


def test_the_deal_fills_each_hand_in_seat_order_then_player_1_offers():
    state = initial_state(Rules(players=3))
    drawers = []
    while state.is_chance_node():
        drawers.append(state.drawer)
        state = state.apply(state.chance_outcomes()[0][0])
    assert drawers == [0] * 5 + [1] * 5 + [2] * 5
    assert state.current_player() == 0 and state.token == 0 and state.pile_size == 39 - 15


def test_refills_go_clockwise_from_the_first_player_while_the_pile_lasts():
    """Player 2 holds the token; after the round, players 2, 3 then 1 need a card each and the pile
    holds 2: players 2 and 3 draw, player 1 does not; the token passes to player 3."""
    hands = [[1, 1, 1, 1], [2, 2, 2, 2, 7], [3, 3, 3, 3, 5], [5, 5, 5, 9, 9], []]
    state = table(5, hands, [[], [], [], [], [0, 0, 0]], token=1, out=(4,), pile=[10, 10], park=4)
    state = state.apply(Offer(7, 2, 7)).apply(Pass(3, 3, 3)).apply(REFUSE)  # the cards go to player 3
    assert state.front(2) == (3, 7) and state.is_chance_node()
    drawers = []
    while state.is_chance_node():
        drawers.append(state.drawer)
        state = state.apply(Draw(10))
    assert drawers == [1, 2]
    assert [len(state.hand(p)) for p in range(4)] == [4, 5, 5, 5]
    assert state.token == 2 and state.current_player() == 2


# -- the offer chain -------------------------------------------------------------------------------
def test_offers_never_go_to_the_first_player_the_offered_or_the_eliminated():
    state = table(
        5,
        [[0, 7, 7, 2], [5, 3, 1, 0], [9, 1, 2, 3], [0, 7, 9, 10], [10, 10, 1, 2]],
        fronts=[[], [], [], [], [0, 0, 0]],
        out=(4,),
        token=1,
    )
    assert {a.to for a in state.legal_actions()} == {0, 2, 3}
    state = state.apply(Offer(5, 2, 5))
    assert {a.to for a in state.legal_actions() if isinstance(a, Pass)} == {0, 3}
    state = state.apply(Pass(9, 0, 9))
    assert {a.to for a in state.legal_actions() if isinstance(a, Pass)} == {3}


def test_a_receiver_of_three_cards_may_only_accept_or_refuse():
    state = table(5, [[0, 7], [5, 3], [9, 1], [0, 7, 9, 10], [10, 1]])
    state = state.apply(Offer(7, 1, 7)).apply(Pass(5, 2, 5)).apply(Pass(9, 3, 9))
    assert state.current_player() == 3 and state.legal_actions() == [ACCEPT, REFUSE]


def test_an_empty_hand_or_nobody_to_pass_to_leaves_accept_or_refuse():
    empty = table(4, [[0, 7], [], [9, 1], [0, 7, 9, 10]])
    assert empty.apply(Offer(7, 1, 7)).legal_actions() == [ACCEPT, REFUSE]
    three = table(3, [[0, 7], [5, 3], [9, 1]]).apply(Offer(7, 1, 7))
    assert any(isinstance(a, Pass) for a in three.legal_actions())
    assert three.apply(Pass(5, 2, 5)).legal_actions() == [ACCEPT, REFUSE]  # players 1 and 2 were offered
    out = table(4, [[0, 7], [5, 3], [9, 1], [2]], fronts=[[], [], [], [0, 0, 0]], out=(3,))
    assert out.apply(Offer(7, 1, 7)).apply(Pass(5, 2, 5)).legal_actions() == [ACCEPT, REFUSE]


def test_announcements_are_true_for_creatures_and_free_for_charon_one_action_per_kind():
    state = table(3, [[0, 0, 7, 7, 2], [5, 3, 1, 0, 9], [9, 1, 2, 3, 10]])
    actions = state.legal_actions()
    assert len(actions) == len(set(actions)) == 2 * (7 + 1 + 1)  # two receivers; C as 7 values, one 7, one 2
    assert all(a.announced == a.card for a in actions if a.card != CHARON)
    assert {a.announced for a in actions if a.card == CHARON} == set(deck(3).values)
    assert [str(a) for a in actions if a.card == 7] == ["offer 7 to player 2 as 7", "offer 7 to player 3 as 7"]
    chain = state.apply(Offer(CHARON, 1, 10))
    assert "add C and pass to player 3 as 9" in map(str, chain.legal_actions())
    assert str(ACCEPT) == "accept" and str(REFUSE) == "refuse" and str(Draw(CHARON)) == "draw C"


def test_accept_puts_the_cards_in_front_of_the_receiver_refuse_in_front_of_the_last_sender():
    start = table(4, [[0, 7, 5, 5, 5], [5, 3, 1, 2, 2], [9, 1, 2, 3, 3], [0, 7, 9, 10, 10]])
    chain = start.apply(Offer(7, 1, 7)).apply(Pass(3, 2, 3))
    accepted = chain.apply(ACCEPT)
    assert accepted.front(2) == (3, 7) and accepted.hand(0) == (0, 5, 5, 5) and accepted.hand(1) == (1, 2, 2, 5)
    refused = chain.apply(REFUSE)
    assert refused.front(1) == (3, 7) and refused.front(0) == () and refused.front(2) == ()
    assert refused.rounds == start.rounds + 1 and refused.scores[1] == 10


def test_an_illegal_move_is_a_value_error():
    state = table(3, [[0, 7], [5, 3], [9, 1]])
    with pytest.raises(ValueError, match="legal actions"):
        state.apply(Offer(7, 0, 7))  # never to the first player
    with pytest.raises(ValueError, match="legal actions"):
        state.apply(Offer(CHARON, 1, 4))  # 4 is not in the 3-player deck
    with pytest.raises(ValueError, match="legal actions"):
        state.apply(Offer(5, 1, 5))  # not in the hand
    with pytest.raises(ValueError, match="player must be"):
        state.observation(3)
    with pytest.raises(ValueError, match="hands must be"):
        initial_state(Rules(players=3)).deal_cards([1, 2, 3, 5, 7])


# -- scoring, elimination and the end -------------------------------------------------------------
def test_points_are_creature_values_plus_ten_per_set_of_one_two_three():
    assert points(counts_of([1, 2, 3])) == 16
    assert points(counts_of([1, 1, 2, 2, 3, 10, CHARON])) == 19 + 10
    assert points(counts_of([1, 1, 2, 2, 3, 3])) == 12 + 20
    assert points(counts_of([])) == 0


def test_a_third_charon_eliminates_even_on_reaching_the_target():
    """Player 2 has 2 Charon and 38 points; accepting 10 and a Charon would make 48, but it is
    their third Charon: eliminated, not a winner; the game goes on without them."""
    fronts = [[], [0, 0, 10, 10, 9, 9], [], []]
    state = table(4, [[0, 7, 5, 5, 5], [10, 3, 1, 2, 2], [0, 1, 2, 3, 3], [7, 7, 9, 10, 1]], fronts)
    state = state.apply(Offer(CHARON, 1, 10)).apply(Pass(10, 2, 10)).apply(REFUSE)  # back to player 2
    assert state.scores[1] == 48 >= TARGETS[4]
    assert state.out[1] and not state.ended and state.still_in == [0, 2, 3]
    assert state.is_chance_node() and state.drawer == 0  # the eliminated hand is not refilled
    while state.is_chance_node():
        assert state.drawer != 1
        state = state.apply(state.chance_outcomes()[0][0])
    assert state.token == 2  # the token skips player 2
    assert all(o != 1 for a in state.legal_actions() for o in [a.to])
    assert "player 2: 48 points, in front C C C 9 9 10 10 10; eliminated" in state.observation(0)


def test_the_last_player_left_wins_at_once():
    fronts = [[], [0, 0], [0, 0, 0]]
    state = table(3, [[0, 7, 5], [10, 3], [1, 2]], fronts, out=(2,))
    end = state.apply(Offer(CHARON, 1, 7)).apply(ACCEPT)
    assert end.ended == ELIMINATION and end.winners == (0,) and end.returns() == [1, 0, 0]
    assert end.current_player() == TERMINAL and end.legal_actions() == [] and end.chance_outcomes() == []


def test_reaching_the_target_wins_at_once():
    state = table(3, [[9, 7, 5], [10, 3], [1, 2]], [[10, 10, 10, 9], [], []])
    end = state.apply(Offer(5, 1, 5)).apply(REFUSE)
    assert end.ended == TARGET and end.scores[0] == 44 and end.returns() == [1, 0, 0]


def test_the_target_is_checked_before_nine_charon():
    """The ninth Charon face up and the target reached together: the target wins."""
    fronts = [[0, 0], [0, 10, 10, 10, 5], [0, 0, 0], [0, 0]]
    state = table(4, [[0, 7, 5], [10, 3], [1, 2], [5, 7]], fronts, out=(2,))
    end = state.apply(Offer(CHARON, 1, 7)).apply(Pass(10, 3, 10)).apply(REFUSE)
    assert end.charon_face_up == 9 and end.scores[1] == 45
    assert end.ended == TARGET and end.winners == (1,)


def test_nine_charon_ends_by_points_then_cards_then_a_shared_win():
    # players 1 and 3 tie on 20 points; player 3 has more cards in front; player 2 is out
    fronts = [[10, 10, 0, 0], [0, 0, 0], [9, 9, 1, 1, 0], [0, 0]]
    state = table(4, [[0, 7, 5], [10, 3], [2], [5, 7]], fronts, out=(1,))
    end = state.apply(Offer(CHARON, 2, 7)).apply(ACCEPT)
    assert end.charon_face_up == 9 and end.scores[0] == end.scores[2] == 20
    assert end.ended == NINE_CHARON and end.winners == (2,) and end.returns() == [0, 0, 1, 0]
    # the same points and cards in front: a shared win; the eliminated player's 14 points do not count
    fronts = [[10, 10, 0, 0], [0, 0, 0, 7, 7], [10, 9, 1, 0], [9, 1, 10, 0, 0]]
    state = table(4, [[0, 7, 5], [2, 3], [2], [5, 7]], fronts, out=(1,))
    end = state.apply(Offer(CHARON, 2, 7)).apply(ACCEPT)
    assert end.ended == NINE_CHARON and end.charon_face_up == 9
    assert end.winners == (2, 3) and end.returns() == [0, 0, Fraction(1, 2), Fraction(1, 2)]


def test_a_first_player_with_an_empty_hand_passes_the_token_and_no_cards_ends_the_game():
    # the pile is empty: player 2 (next) holds nothing, so the token goes on to player 3
    fronts = [[], [], [], [], [0, 0, 0]]
    state = table(5, [[5], [], [7, 9], [], []], fronts, out=(4,), pile=[], park=4, target=200)
    after = state.apply(Offer(5, 1, 5))
    assert after.legal_actions() == [ACCEPT, REFUSE]
    after = after.apply(REFUSE)
    assert not after.ended and not after.is_chance_node() and after.token == 2 and after.current_player() == 2
    # nobody still in holds a card: the game ends as at 9 Charon (most points)
    fronts = [[10], [9, 9], [1], [0, 0, 0]]
    state = table(4, [[7], [], [], []], fronts, out=(3,), pile=[], park=3, target=200)
    end = state.apply(Offer(7, 2, 7)).apply(ACCEPT)
    assert end.ended == NO_CARDS and end.winners == (1,) and end.returns() == [0, 1, 0, 0]


def test_the_token_skips_eliminated_players():
    fronts = [[], [0, 0, 0], [], []]
    state = table(4, [[5, 7], [1], [9, 2], [3]], fronts, out=(1,), token=0)
    state = state.apply(Offer(5, 2, 5)).apply(ACCEPT)
    while state.is_chance_node():
        state = state.apply(state.chance_outcomes()[0][0])
    assert state.token == 2
    state = state.apply(next(a for a in state.legal_actions() if a.to == 3)).apply(ACCEPT)
    while state.is_chance_node():
        state = state.apply(state.chance_outcomes()[0][0])
    assert state.token == 3
    state = state.apply(next(a for a in state.legal_actions() if a.to == 0)).apply(ACCEPT)
    while state.is_chance_node():
        state = state.apply(state.chance_outcomes()[0][0])
    assert state.token == 0


# -- shape and hint --------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_shape_bounds_are_reached(players):
    """max_actions is the count of a hand with a Charon and hand_size - 1 creature kinds offered
    to every other player; max_chance_outcomes the deck's kinds."""
    d = deck(players)
    hand = [CHARON] + list(d.values[:4])
    others = [[v] for v in d.values[-players + 1 :]]
    state = table(players, [hand, *others])
    shape = state.shape()
    assert len(state.legal_actions()) == shape.max_actions
    assert shape.max_chance_outcomes == len(initial_state(Rules(players=players)).chance_outcomes())
    assert shape.hidden and shape.max_length == 3 * d.size


def test_hint_is_a_labelled_heuristic_that_the_bayes_bot_follows():
    """To the first player, the offer heuristic; to a receiver, the Bayes bot's expected points
    (`State.answer_values`): the bot's move always costs 0."""
    fronts = [[], [], [0, 0], []]
    state = table(4, [[0, 7, 7, 2, 10], [5, 5, 3, 1, 0], [9, 9, 1, 2, 3], [0, 7, 9, 10]], fronts)
    hint = state.hint()
    assert hint.method == "heuristic" and set(hint.values) == set(state.legal_actions())
    assert isinstance(hint.best, Offer) and hint.best.card == CHARON and hint.best.to == 2
    at_two = state.apply(Offer(7, 2, 7)).hint()  # player 3 fears a third Charon
    assert at_two.values[ACCEPT] < 0 and at_two.best != ACCEPT
    for offered in (state.apply(Offer(7, 1, 7)), state.apply(Offer(7, 2, 7)), state.apply(Offer(CHARON, 3, 9))):
        hint, worth = offered.hint(), offered.answer_values()
        assert set(hint.values) == set(offered.legal_actions())
        assert (hint.values[ACCEPT], hint.values[REFUSE]) == (worth.accept, worth.refuse == 0)[:1] + (0,)
        assert max(v for a, v in hint.values.items() if isinstance(a, Pass)) == worth.pass_
        assert hint.cost(bayes()(offered)) == 0
    with pytest.raises(ValueError, match="chance"):
        initial_state().hint()


def test_the_answers_and_the_prompt_in_words():
    """`answer_points`: accept, refuse and the best card to pass with the hint's values; `prompt`:
    what the player to move must do (nothing for the others)."""
    state = table(4, [[0, 7, 7, 2, 10], [5, 5, 3, 1, 0], [9, 9, 1, 2, 3], [0, 7, 9, 10]])
    assert state.prompt(0)[0] == "Your turn to offer:" and state.prompt(1) == ("", "")
    one = state.apply(Offer(7, 1, 7))
    values = one.hint().values
    answers = dict(one.answer_points())
    passed = max(v for a, v in values.items() if isinstance(a, Pass))
    assert list(answers)[:2] == ["accept", "refuse"] and answers["accept"] == values[ACCEPT]
    assert [v for name, v in answers.items() if name.startswith("add your ")] == [passed]
    assert one.prompt(1) == (
        "Player 1 offers you a card announced 7.",
        "Accept it (face up in front of you), refuse it (in front of the sender) or add a card and pass them on.",
    )
    three = one.apply(Pass(5, 2, 5)).apply(Pass(9, 3, 9))
    assert three.prompt(3)[0] == "Player 3 passes you 3 cards, announced 7, 5, 9."
    assert three.prompt(3)[1].endswith("(in front of player 3, the last to offer).")
    assert [name for name, _ in three.answer_points()] == ["accept", "refuse"]
