"""Nessie bust odds against brute force: every ordered sequence of draws from a small pool."""

from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.games.nessie.odds import LETTERS, Situation, p_sink_next, p_sink_within


def brute_sink_within(s: Situation, k: int) -> Fraction:
    """Reveal k cards in every possible order (cards are distinct objects); count the orders
    that sink at some reveal. A row that has sunk already (as at a turn's start) sinks surely."""
    if s.sunk():
        return Fraction(1)
    cards = [c for c, n in s.pool.items() for _ in range(n)]
    k = min(k, len(cards))
    total = sunk = 0
    for order in permutations(range(len(cards)), k):
        total += 1
        row = list(s.row)
        for i in order:
            row.append(cards[i])
            if Situation(s.pool, tuple(row), s.own_letters).sunk():
                sunk += 1
                break
    return Fraction(sunk, total)


CARDS = ["1", "2", "3", *LETTERS[:3]]


@settings(max_examples=60, deadline=None)
@given(
    pool=st.dictionaries(st.sampled_from(CARDS), st.integers(0, 2), min_size=1).filter(
        lambda d: 1 <= sum(d.values()) <= 6
    ),
    row=st.lists(st.sampled_from(CARDS), max_size=3),
    own=st.sets(st.sampled_from(LETTERS[:3])),
    k=st.integers(0, 4),
)
def test_sink_within_matches_every_order_of_draws(pool, row, own, k):
    s = Situation(pool, tuple(row), frozenset(own))
    assert p_sink_within(s, k) == brute_sink_within(s, k)


def test_next_reveal_by_hand():
    """Row: treasures 2 + 3 = 5 and one A; the player owns an A. Pool: a 1, a 2, an A, a B.
    The 1 makes 6 and the 2 makes 7 (both sink), the A makes three A's (sinks), the B is safe."""
    s = Situation({"1": 1, "2": 1, "A": 1, "B": 1}, ("2", "3", "A"), frozenset("A"))
    assert p_sink_next(s) == Fraction(3, 4)


def test_bad_k():
    with pytest.raises(ValueError, match="k must be"):
        p_sink_within(Situation({"1": 1}, (), frozenset()), -1)
