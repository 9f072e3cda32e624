"""Nessos' non-Bayes bots (`nessus.games.nessos.bots`): legal, reproducible, deciding only from
what the mover sees, and playing as their descriptions say."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from nessus.games.nessos.deck import CHARON, KINDS, counts_of, deck
from nessus.games.nessos.policies import TOP_VALUES, bluffer, naive, policies, random_legal
from nessus.games.nessos.rules import Rules
from nessus.games.nessos.state import ACCEPT, REFUSE, Offer, Pass, State, initial_state
from nessus.play import play, tournament

Z_999 = 3.290527  # two-sided 99.9% normal quantile


def table(players: int, hands: list[list[int]], fronts: list[list[int]] | None = None, token: int = 0) -> State:
    """A round about to start with these hands and fronts, the rest of the deck in the pile."""
    r = Rules(players=players)
    fronts = fronts or [[] for _ in range(players)]
    rest = r.deck.counts() - Counter(c for h in hands for c in h) - Counter(c for f in fronts for c in f)
    return State(
        r,
        hands=tuple(counts_of(h) for h in hands),
        fronts=tuple(counts_of(f) for f in fronts),
        pile=tuple(rest[c] for c in range(KINDS)),
        token=token,
        out=(False,) * players,
        rounds=1,
        drawing=False,
    )


HANDS = [[0, 7, 7, 2, 10], [5, 5, 3, 1, 0], [9, 9, 1, 2, 3], [0, 7, 9, 10, 10]]


def decisions(players: int, policy, seed: int):
    """Every (state, action) of `policy` in all seats over one seeded game."""
    moves = []
    play(
        initial_state(Rules(players=players)),
        [policy] * players,
        np.random.default_rng(seed),
        on_move=lambda s, a: moves.append((s, a)) if not s.is_chance_node() else None,
    )
    return moves


def test_policies_are_named_and_play_whole_games_at_every_table_size():
    """Every bot plays legal moves in every seat of a whole game at each table size; the rollout
    bot (a tenth of a second a move) at the smallest and largest tables."""
    named = policies()
    assert {"naive", "bluffer", "random_legal", "rollout"} <= set(named)
    for players in (3, 4, 5, 6):
        for name, policy in named.items():
            if name == "rollout" and players in (4, 5):
                continue
            for state, action in decisions(players, policy, seed=players):
                assert action in state.legal_actions(), name


@pytest.mark.parametrize("name", ["naive", "bluffer", "random_legal"])
def test_seeded_games_are_reproducible_and_the_seed_matters(name):
    factory = {"naive": naive, "bluffer": bluffer, "random_legal": random_legal}[name]
    ends = [play(initial_state(), [factory(1)] * 4, np.random.default_rng(2)) for _ in range(2)]
    assert ends[0] == ends[1]
    state = table(4, HANDS)
    offers = {factory(seed)(state) for seed in range(30)}
    assert len(offers) > 1


@pytest.mark.parametrize("name", ["naive", "bluffer", "random_legal"])
def test_a_bot_sees_only_what_the_mover_sees(name):
    """States that differ only in cards the mover cannot see get the same move."""
    policy = policies()[name]
    for state, _ in decisions(4, random_legal(3), seed=4)[:40]:
        for other in state.hidden_variants(state.current_player()):
            assert policy(other) == policy(state)


def test_naive_accepts_unless_it_has_two_charon_and_never_passes():
    for state, action in decisions(4, naive(), seed=6):
        me = state.current_player()
        if state.chain:
            assert action == (REFUSE if state.charon_in_front(me) >= 2 else ACCEPT)
        else:
            assert isinstance(action, Offer)
            assert action.announced == action.card or action.card == CHARON


def test_naive_offers_each_card_alike_and_announces_any_value_for_charon():
    """Over many seeds, the naive bot offers the Charon of a 5-card hand 1 time in 5 (a 99.9%
    normal interval), to each of the 3 others alike, and announces every value of the deck."""
    state = table(4, HANDS)
    n = 3000
    offers = [naive(seed)(state) for seed in range(n)]
    charon = sum(o.card == CHARON for o in offers)
    assert abs(charon - n / 5) <= Z_999 * math.sqrt(n * (1 / 5) * (4 / 5))
    sevens = sum(o.card == 7 for o in offers)
    assert abs(sevens - 2 * n / 5) <= Z_999 * math.sqrt(n * (2 / 5) * (3 / 5))
    to = Counter(o.to for o in offers)
    assert set(to) == {1, 2, 3} and all(abs(k - n / 3) <= Z_999 * math.sqrt(n * 2 / 9) for k in to.values())
    assert {o.announced for o in offers if o.card == CHARON} == set(deck(4).values)


def test_bluffer_offers_its_charon_announced_high():
    state = table(4, HANDS)
    top = set(deck(4).values[-TOP_VALUES:])
    for seed in range(20):
        offer = bluffer(seed)(state)
        assert offer.card == CHARON and offer.announced in top
    without = table(4, [[7, 7, 2, 10, 5], [5, 5, 3, 1, 0], [9, 9, 1, 2, 3], [0, 7, 9, 10, 10]])
    assert all(bluffer(seed)(without).card != CHARON for seed in range(20))


def test_bluffer_at_two_charon_passes_a_charon_on_or_refuses():
    fronts = [[], [0, 0], [], []]
    state = table(4, HANDS, fronts).apply(Offer(7, 1, 7))
    action = bluffer()(state)
    assert isinstance(action, Pass) and action.card == CHARON and action.to in (2, 3)
    no_charon = table(4, [[0, 7, 7, 2, 10], [5, 5, 3, 1, 1], [9, 9, 1, 2, 3], [0, 7, 9, 10, 10]], fronts)
    assert bluffer()(no_charon.apply(Offer(7, 1, 7))) == REFUSE
    assert bluffer()(table(4, HANDS).apply(Offer(7, 1, 7))) == ACCEPT


def test_a_bot_at_a_chance_node_is_a_value_error():
    with pytest.raises(ValueError, match="chance"):
        naive()(initial_state())


def test_a_tournament_through_the_protocol():
    """Four seats, the bots by name: win shares sum to 1 per game."""
    result = tournament(
        initial_state(), ["naive", "bluffer", "naive", "random_legal"], games=30, seed=1, named=policies()
    )
    assert result["games"].to_list() == [30] * 4
    assert math.isclose(sum(result["win_share"].to_list()), 1)
