"""Dice rolls as multisets, checked against enumerating every ordered tuple with itertools.product."""

from collections import Counter
from fractions import Fraction
from itertools import permutations, product
from math import comb

import pytest

from nessus.dice import multiplicity, multisets, rolls, total
from nessus.dist import Dist


def test_five_dice_have_252_multisets_weighing_6_to_the_5():
    """C(5 + 5, 5) = 252 sorted rolls of 5d6; their orderings add up to 6**5 = 7776."""
    d = rolls(5)
    assert len(d) == comb(10, 5) == 252
    assert d.total == 6**5
    assert sum(w for _, w in d.weights()) == 6**5
    assert sum(w for _, w in multisets(5)) == 6**5
    assert all(list(roll) == sorted(roll) for roll in d.outcomes)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("sides", [6, 4])
def test_each_multiset_has_the_probability_of_its_ordered_tuples(n, sides):
    """P(sorted roll) = #{ordered tuples that sort to it} / sides**n, counted by brute force."""
    counts = Counter(tuple(sorted(t)) for t in product(range(1, sides + 1), repeat=n))
    d = rolls(n, sides)
    assert set(d.outcomes) == set(counts)
    for roll, c in counts.items():
        assert d[roll] == Fraction(c, sides**n)
    assert dict(multisets(n, sides)) == counts


@pytest.mark.parametrize(
    "roll", [(1, 1, 1), (1, 2, 3), (2, 2, 5), (1, 1, 2, 2, 6), (3, 3, 3, 3, 3), (1, 2, 3, 4, 5, 6)]
)
def test_multiplicity_counts_distinct_orderings(roll):
    assert multiplicity(roll) == len(set(permutations(roll)))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_total_matches_summing_ordered_tuples(n):
    """The distribution of the sum of n dice by brute force over product(range(1, 7), repeat=n)."""
    counts = Counter(sum(t) for t in product(range(1, 7), repeat=n))
    assert dict(total(n).items()) == {s: Fraction(c, 6**n) for s, c in counts.items()}


def test_two_dice_total_is_the_triangle():
    """P(2d6 = s) = (6 - |s - 7|) / 36: the familiar triangle."""
    assert total(2) == Dist({s: 6 - abs(s - 7) for s in range(2, 13)})


@pytest.mark.parametrize("n, sides", [(-1, 6), (1.5, 6), ("3", 6), (2, 0), (2, 2.5)])
def test_bad_arguments_raise_value_error(n, sides):
    with pytest.raises(ValueError):
        rolls(n, sides)
    with pytest.raises(ValueError):
        total(n, sides)
    with pytest.raises(ValueError):
        list(multisets(n, sides))
