"""Dist and TruncatedDist against brute force over explicit lists of equally likely outcomes.

The reference for every finite distribution is a plain Python list `xs` of equally likely
outcomes: P(x) = xs.count(x) / len(xs), and sums, maps and conditionals are computed by
walking the list (or itertools.product of it) directly.
"""

import sys
from collections import Counter
from fractions import Fraction
from itertools import product
from math import ceil

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.dist import Dist, TruncatedDist, exact_str

SETTINGS = settings(max_examples=60, deadline=None)

small_lists = st.lists(st.integers(-3, 6), min_size=1, max_size=8)


def brute(xs) -> dict:
    """{outcome: exact probability} of a list of equally likely outcomes."""
    return {x: Fraction(c, len(xs)) for x, c in Counter(xs).items()}


def as_dict(d: Dist) -> dict:
    return dict(d.items())


# -- construction ---------------------------------------------------------------------------
@SETTINGS
@given(small_lists)
def test_from_counts_of_a_list_matches_counting(xs):
    """from_counts(list) gives count / length for each outcome, outcomes sorted and distinct."""
    d = Dist.from_counts(xs)
    assert as_dict(d) == brute(xs)
    assert d.outcomes == sorted(set(xs))
    assert sum(p for _, p in d.items()) == 1


@SETTINGS
@given(st.dictionaries(st.integers(0, 9), st.integers(0, 20), min_size=1).filter(lambda m: any(m.values())))
def test_from_counts_of_a_mapping_matches_the_expanded_list(counts):
    """A {outcome: count} mapping is the same distribution as the list repeating each outcome."""
    xs = [x for x, c in counts.items() for _ in range(c)]
    d = Dist.from_counts(counts)
    assert as_dict(d) == brute(xs)
    for x in counts:
        assert d[x] == Fraction(counts[x], len(xs))


def test_bad_weights_are_rejected():
    with pytest.raises(ValueError):
        Dist({1: -1, 2: 3})
    with pytest.raises(ValueError):
        Dist({1: 0})
    with pytest.raises(ValueError):
        Dist({})
    with pytest.raises(ValueError):
        Dist({1: 0.5})
    with pytest.raises(ValueError):
        Dist.from_probabilities({1: Fraction(1, 2), 2: Fraction(1, 3)})
    with pytest.raises(ValueError):
        Dist.from_probabilities({1: Fraction(3, 2), 2: Fraction(-1, 2)})


def test_weights_are_reduced_and_equality_is_by_probability():
    """Dist({1: 2, 2: 4}) is the same distribution as Dist({1: 1, 2: 2}) (1/3, 2/3)."""
    a, b = Dist({1: 2, 2: 4}), Dist({1: 1, 2: 2})
    assert a == b and hash(a) == hash(b)
    assert a.total == 3 and a.weight(2) == 2 and a.weight(99) == 0
    assert a[1] == Fraction(1, 3) and a[99] == 0
    assert a != Dist({1: 1, 2: 1})


def test_uniform_point_and_from_probabilities():
    assert as_dict(Dist.uniform([1, 2, 2, 3])) == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
    assert as_dict(Dist.point("x")) == {"x": 1}
    probs = {0: Fraction(1, 6), 1: Fraction(1, 2), 2: Fraction(1, 3)}
    assert as_dict(Dist.from_probabilities(probs)) == probs


@SETTINGS
@given(st.lists(st.tuples(st.integers(1, 5), small_lists), min_size=1, max_size=4))
def test_mixture_matches_the_law_of_total_probability(parts):
    """P(x) = sum_i w_i P_i(x), computed from each component's list."""
    wsum = sum(w for w, _ in parts)
    components = [(Fraction(w, wsum), Dist.from_counts(xs)) for w, xs in parts]
    expected: dict = {}
    for w, xs in parts:
        for x, p in brute(xs).items():
            expected[x] = expected.get(x, 0) + Fraction(w, wsum) * p
    assert as_dict(Dist.mixture(components)) == expected


def test_mixture_rejects_weights_not_summing_to_one():
    d = Dist.uniform([1, 2])
    with pytest.raises(ValueError):
        Dist.mixture([(Fraction(1, 2), d), (Fraction(1, 3), d)])


# -- transformations --------------------------------------------------------------------------
@SETTINGS
@given(small_lists, st.integers(-3, 6))
def test_given_is_conditioning_by_filtering_the_list(xs, cut):
    """P(x | X >= cut) = count of x among the kept outcomes / number kept."""
    kept = [x for x in xs if x >= cut]
    d = Dist.from_counts(xs)
    if not kept:
        with pytest.raises(ValueError):
            d.given(lambda x: x >= cut)
        return
    assert as_dict(d.given(lambda x: x >= cut)) == brute(kept)
    assert as_dict(d.given(set(kept))) == brute(kept)


@SETTINGS
@given(small_lists)
def test_map_matches_mapping_the_list(xs):
    def f(x):
        return x * x % 5

    assert as_dict(Dist.from_counts(xs).map(f)) == brute([f(x) for x in xs])


@SETTINGS
@given(st.lists(st.integers(-2, 4), min_size=1, max_size=5), st.integers(1, 4))
def test_sum_of_matches_enumerating_all_ordered_tuples(xs, n):
    """sum_of(n) (repeated squaring) vs summing every tuple of itertools.product(xs, repeat=n)."""
    expected = brute([sum(t) for t in product(xs, repeat=n)])
    assert as_dict(Dist.from_counts(xs).sum_of(n)) == expected


@SETTINGS
@given(small_lists, small_lists)
def test_addition_and_combine_match_enumerating_pairs(xs, ys):
    a, b = Dist.from_counts(xs), Dist.from_counts(ys)
    assert as_dict(a + b) == brute([x + y for x, y in product(xs, ys)])
    assert as_dict(a.combine(b, max)) == brute([max(x, y) for x, y in product(xs, ys)])
    assert as_dict(a + 3) == brute([x + 3 for x in xs])
    assert as_dict(3 + a) == brute([x + 3 for x in xs])


@pytest.mark.parametrize("n", [0, -1, 1.5])
def test_sum_of_rejects_bad_n(n):
    with pytest.raises(ValueError, match="n must be"):
        Dist.uniform([1, 2]).sum_of(n)


# -- summaries ---------------------------------------------------------------------------------
@SETTINGS
@given(small_lists)
def test_mean_and_variance_match_the_list(xs):
    """E[X] = sum(xs)/N and Var[X] = sum((x - mean)^2)/N over the list (population variance)."""
    d = Dist.from_counts(xs)
    mean = Fraction(sum(xs), len(xs))
    assert d.mean() == mean
    assert d.variance() == sum((x - mean) ** 2 for x in xs) / len(xs)


@SETTINGS
@given(small_lists, st.integers(-5, 8))
def test_cdf_and_prob_match_counting(xs, x):
    d = Dist.from_counts(xs)
    assert d.cdf(x) == Fraction(sum(1 for v in xs if v <= x), len(xs))
    assert d.prob(lambda v: v > x) == Fraction(sum(1 for v in xs if v > x), len(xs))
    assert d.prob({x, x + 1}) == Fraction(sum(1 for v in xs if v in (x, x + 1)), len(xs))


@SETTINGS
@given(small_lists, st.fractions(min_value=0, max_value=1).filter(lambda q: q > 0))
def test_quantile_is_the_order_statistic(xs, q):
    """The smallest x with P(X <= x) >= q is the ceil(q N)-th smallest element of the list."""
    assert Dist.from_counts(xs).quantile(q) == sorted(xs)[ceil(q * len(xs)) - 1]


@pytest.mark.parametrize("q", [0, -0.5, 1.5, Fraction(3, 2)])
def test_quantile_rejects_q_outside_0_1(q):
    with pytest.raises(ValueError):
        Dist.uniform([1, 2]).quantile(q)


# -- output ------------------------------------------------------------------------------------
def test_exact_str_is_reduced():
    assert exact_str(Fraction(35)) == "35"
    assert exact_str(Fraction(2, 4)) == "1/2"
    assert exact_str(Fraction(-25, 36)) == "-25/36"


@pytest.mark.parametrize("size", [4299, 4301, 8000, 12001])
def test_exact_str_writes_fractions_beyond_pythons_digit_limit(size):
    """str(int) refuses more than 4300 digits by default; exact_str must still write the
    fraction, and write what Python itself writes once the limit is lifted."""
    p = Fraction(-(7**size) - 1, 3 * 10**size + 1)
    text = exact_str(p)
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        assert text == f"{p.numerator}/{p.denominator}"
    finally:
        sys.set_int_max_str_digits(old)


def _check_frame(frame, expected: dict):
    assert isinstance(frame, pl.DataFrame)
    assert frame.columns == ["value", "probability", "exact"]
    assert frame.schema["probability"] == pl.Float64
    assert frame.schema["exact"] == pl.String
    for value, prob, exact in frame.iter_rows():
        p = expected[value]
        assert exact == (f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator))
        assert Fraction(exact) == p
        assert prob == pytest.approx(float(p), rel=1e-15)
    assert frame.height == len(expected)


def test_to_frame_has_value_probability_exact():
    xs = [1, 2, 2, 3, 3, 3]
    _check_frame(Dist.from_counts(xs).to_frame(), brute(xs))


def test_to_frame_with_non_numeric_outcomes_shows_them_as_text():
    d = Dist.from_counts([(1, 2), (1, 2), (3, 4)])
    _check_frame(d.to_frame(), {"(1, 2)": Fraction(2, 3), "(3, 4)": Fraction(1, 3)})


def test_repr_html_has_a_table_and_an_svg():
    html = Dist.from_counts(range(20)).map(lambda x: x % 15)._repr_html_()
    assert "<table>" in html and "</table>" in html
    assert "<svg" in html and "</svg>" in html
    assert html.count("<rect") == 15  # one bar per outcome, even beyond the 12 table rows


# -- TruncatedDist -----------------------------------------------------------------------------
def test_truncated_dist_accessors():
    """Numerators [1, 2, 3] over 10: P(0..2) = 1/10, 2/10, 3/10 and the tail 4/10."""
    t = TruncatedDist([1, 2, 3], 10)
    assert t.bound == 2
    assert t.pmf() == [Fraction(1, 10), Fraction(2, 10), Fraction(3, 10)]
    assert t.tail == Fraction(4, 10)
    assert [t.cdf(s) for s in (-1, 0, 1, 2)] == [0, Fraction(1, 10), Fraction(3, 10), Fraction(6, 10)]
    assert t.sf(1) == Fraction(7, 10)
    assert t[1] == t.probability(1) == Fraction(1, 5)
    assert t.truncate(1).pmf() == t.pmf()[:2] and t.truncate(1).tail == Fraction(7, 10)
    with pytest.raises(ValueError):
        t.probability(3)
    with pytest.raises(ValueError):
        t.cdf(3)
    with pytest.raises(ValueError):
        TruncatedDist([5, 6], 10)
    with pytest.raises(ValueError):
        TruncatedDist([], 10)
    with pytest.raises(ValueError):
        TruncatedDist([-1, 2], 10)


@SETTINGS
@given(
    st.lists(st.integers(0, 5), min_size=1, max_size=6).filter(any),
    st.lists(st.integers(0, 5), min_size=1, max_size=6).filter(any),
    st.integers(0, 5),
    st.integers(0, 5),
)
def test_truncated_sum_matches_the_full_convolution(a, b, extra_a, extra_b):
    """X + Y held to the smaller bound equals the finite Dist sum; the tail is the rest.

    X takes value s with weight a[s] (s <= bound) and mass extra_a somewhere beyond the bound
    (here: at bound + 1 + extra_a). Whatever is beyond cannot reach a sum <= the smaller bound.
    """
    den_a, den_b = sum(a) + 1, sum(b) + 1
    tx, ty = TruncatedDist(a, den_a), TruncatedDist(b, den_b)
    full_x = Dist({**{s: w for s, w in enumerate(a)}, len(a) + extra_a: 1})
    full_y = Dist({**{s: w for s, w in enumerate(b)}, len(b) + extra_b: 1})
    full = full_x + full_y
    total = tx + ty
    assert total.bound == min(tx.bound, ty.bound)
    assert total.pmf() == [full[s] for s in range(total.bound + 1)]
    assert total.tail == full.prob(lambda s: s > total.bound)
    three = tx.sum_of(3)
    full3 = full_x.sum_of(3)
    assert three.pmf() == [full3[s] for s in range(tx.bound + 1)]


def test_truncated_to_frame_and_html():
    t = TruncatedDist([1, 0, 3], 8)
    _check_frame(t.to_frame(), {0: Fraction(1, 8), 1: Fraction(0), 2: Fraction(3, 8)})
    html = t._repr_html_()
    assert "<table>" in html and "<svg" in html
    assert "P(X &gt; 2)" in html
    with pytest.raises(ValueError):
        t.sum_of(0)
