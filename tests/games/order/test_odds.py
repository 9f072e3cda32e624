"""Order of play (RULES.md section 0) against brute force over the players' 2d6 totals, the
2-player closed forms and a first-step recursion written here."""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from nessus.games import order

# 2d6 totals counted over the 36 ordered pairs: {total: number of pairs}.
TWO_D6 = Counter(a + b for a, b in product(range(1, 7), repeat=2))


@cache
def brute_top_ties(m: int) -> dict[int, Fraction]:
    """P(j players tied for the highest total), over all 11**m tuples of totals, each weighted
    by the product of its 2d6 counts (out of 36**m)."""
    counts: Counter = Counter()
    for totals in product(TWO_D6, repeat=m):
        weight = 1
        for t in totals:
            weight *= TWO_D6[t]
        counts[totals.count(max(totals))] += weight
    return {j: Fraction(c, 36**m) for j, c in counts.items()}


SUM_P2 = sum(Fraction(c, 36) ** 2 for c in TWO_D6.values())  # P(two players tie) = 146/1296


@pytest.mark.parametrize("m", [1, 2, 3, 4])
def test_top_ties_matches_brute_force(m):
    assert dict(order.top_ties(m).items()) == brute_top_ties(m)


def test_two_player_closed_forms():
    """P(unique highest) = 1 - sum p_k^2; rounds are geometric, E = 1 / (1 - sum p_k^2)."""
    rules = order.Rules(players=2)
    assert SUM_P2 == Fraction(146, 1296)
    assert order.p_unique_first_roll(rules) == 1 - SUM_P2
    assert order.expected_rounds(rules) == 1 / (1 - SUM_P2)
    d = order.rounds(rules)
    assert d.probability(0) == 0
    assert d.pmf()[1:] == [SUM_P2 ** (k - 1) * (1 - SUM_P2) for k in range(1, d.bound + 1)]
    assert d.tail == SUM_P2**d.bound


def first_step_expected_rounds(players: int) -> dict[int, Fraction]:
    """E[m] = (1 + sum_{2<=j<m} q(m, j) E[j]) / (1 - q(m, m)), q from brute force."""
    e: dict[int, Fraction] = {}
    for m in range(2, players + 1):
        q = brute_top_ties(m)
        e[m] = (1 + sum(q.get(j, 0) * e[j] for j in range(2, m))) / (1 - q[m])
    return e


@cache
def expected_up_to_5() -> dict[int, Fraction]:
    return first_step_expected_rounds(5)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_expected_rounds_matches_first_step_analysis(players):
    rules = order.Rules(players=players)
    assert order.expected_rounds(rules) == expected_up_to_5()[players]
    if players == 5:
        assert order.p_unique_first_roll(rules) == brute_top_ties(5)[1]


@pytest.mark.parametrize("players", [2, 4, 7, 10])
def test_rounds_distribution_mean_is_expected_rounds_within_the_tail(players):
    """E[R] = sum_{s>=0} P(R > s). Up to the bound this is exact; the remainder
    sum_{s>bound} P(R > s) is at most P(R > bound) * max_j E[rounds from j tied]."""
    rules = order.Rules(players=players)
    d = order.rounds(rules)
    assert d.tail < 1e-15
    assert d.tail == 1 - sum(d.pmf())
    partial = sum(d.sf(s) for s in range(d.bound + 1))
    worst = max(order.expected_rounds(order.Rules(players=j)) for j in range(2, players + 1))
    mean = order.expected_rounds(rules)
    assert partial <= mean <= partial + d.tail * worst
    assert d.probability(1) == order.p_unique_first_roll(rules)


def test_report_figures():
    rep = order.report(order.Rules(players=3))
    assert set(rep.figures) == {"p_unique_first_roll", "expected_rounds"}
    assert rep.figures["p_unique_first_roll"].exact == brute_top_ties(3)[1]
    assert rep.figures["expected_rounds"].exact == expected_up_to_5()[3]
    assert rep.rules == {"players": 3}
    assert order.report().rules == {"players": 4}
