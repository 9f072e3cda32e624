"""Nessie bust odds against brute force: every ordered sequence of draws from a small pool."""

from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.games import nessie
from nessus.games.nessie.cards import LETTERS, Situation
from nessus.games.nessie.odds import p_sink_next, p_sink_within


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


def test_first_reveals_by_hand():
    """One card never sinks; two cards sink only as 3 + 3: (12 * 11) / (84 * 83)."""
    figures = nessie.report().figures
    assert figures["p_sink_by_reveal_1"].exact == 0
    assert figures["p_sink_by_reveal_2"].exact == Fraction(12 * 11, 84 * 83)


def test_sink_curve_is_increasing_to_near_certainty():
    values = [nessie.report().figures[f"p_sink_by_reveal_{k}"].exact for k in range(1, 13)]
    assert values == sorted(values) and values[-1] > Fraction(98, 100)


def test_expected_reveals_is_the_sum_of_survival_probabilities():
    """E[T] = sum over r >= 0 of P(T > r); checked against the curve (P(T > r) = 1 - p_sink_by_r)
    plus the survival beyond 12 reveals, computed the same way for a 2-letter toy deck by hand."""
    toy = Situation({"A": 3, "3": 2}, (), frozenset())
    # Orders of A,A,A,3,3: sink at reveal 2 iff 3,3 first (2/20 of ordered pairs) ...
    # enumerate all 5!/(3!2!) = 10 equally likely arrangements instead:
    from itertools import permutations

    arrangements = set(permutations("AAA33"))

    def sink_at(order):
        t = a = 0
        for i, c in enumerate(order, 1):
            t += 3 if c == "3" else 0
            a += c == "A"
            if t >= 6 or a >= 3:
                return i

    expected = Fraction(sum(sink_at(o) for o in arrangements), len(arrangements))
    assert nessie.expected_reveals_until_sink(toy) == expected
