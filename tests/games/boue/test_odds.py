"""La Boue (RULES.md section 8) against independent computations written here:

- brute force: a memoised recursion over (free dice, remaining score) enumerating every ordered
  roll of the free dice with itertools.product (1 to 3 dice);
- a second method for 5 dice: the number of stuck dice is Binomial(n, 1/3) and a clean roll's
  total has generating polynomial (x + x^3 + x^4 + x^6)^n;
- first-step equations for the mean and the second moment, solved by hand.
"""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.dist import TruncatedDist
from nessus.games import boue

F = Fraction


# -- independent references ----------------------------------------------------------------------
@cache
def roll_outcomes(n: int) -> Counter:
    """Every ordered roll of n dice: ('clean', total) or ('stuck', dice still free) -> count."""
    out: Counter = Counter()
    for roll in product(range(1, 7), repeat=n):
        k = sum(1 for d in roll if d in (2, 5))
        out[("clean", sum(roll)) if k == 0 else ("stuck", n - k)] += 1
    return out


@cache
def brute(n: int, s: int) -> Fraction:
    """P(a turn with n free dice scores exactly s more points), by enumerating rolls."""
    if n == 0:
        return F(int(s == 0))
    total = F(0)
    for (kind, value), count in roll_outcomes(n).items():
        if kind == "clean":
            if value <= s:
                total += count * brute(n, s - value)
        else:
            total += count * brute(value, s)
    return total / 6**n


@cache
def clean_counts(n: int) -> list[int]:
    """Coefficients of (x + x^3 + x^4 + x^6)^n: n-tuples of non-sticking faces by total."""
    poly = [1]
    for _ in range(n):
        nxt = [0] * (len(poly) + 6)
        for t, c in enumerate(poly):
            for face in (1, 3, 4, 6):
                nxt[t + face] += c
        poly = nxt
    return poly


@cache
def by_binomial(dice: int, top: int) -> dict[int, list[Fraction]]:
    """g[n][s] = P(score s from n free dice) for s <= top, bottom-up in s, from
    g(n, s) = sum_t c_n(t)/6^n g(n, s - t) + sum_{k>=1} C(n,k) 2^k 4^(n-k) / 6^n g(n - k, s)."""
    g = {0: [F(int(s == 0)) for s in range(top + 1)]}
    for n in range(1, dice + 1):
        row: list[Fraction] = []
        cc = clean_counts(n)
        for s in range(top + 1):
            v = sum((F(comb(n, k) * 2**k * 4 ** (n - k), 6**n) * g[n - k][s] for k in range(1, n + 1)), F(0))
            v += sum((F(cc[t], 6**n) * row[s - t] for t in range(1, min(s, len(cc) - 1) + 1) if cc[t]), F(0))
            row.append(v)
        g[n] = row
    return g


def first_step_moments(dice: int) -> tuple[Fraction, Fraction]:
    """Mean and variance of a turn by first-step analysis on the number of free dice.

    With c = (2/3)^n (a clean roll), b_k = C(n,k) (1/3)^k (2/3)^(n-k) (k dice stick), and a clean
    roll's total S a sum of n faces uniform on {1,3,4,6} (mean 7/2, variance 13/4):
      m(n) = c (7n/2 + m(n)) + sum_k b_k m(n-k)
      M(n) = c (E[S^2] + 2 (7n/2) m(n) + M(n)) + sum_k b_k M(n-k),  E[S^2] = 13n/4 + (7n/2)^2.
    """
    m, big = {0: F(0)}, {0: F(0)}
    for n in range(1, dice + 1):
        c = F(2, 3) ** n
        b = {k: comb(n, k) * F(1, 3) ** k * F(2, 3) ** (n - k) for k in range(1, n + 1)}
        es, es2 = F(7, 2) * n, F(13, 4) * n + (F(7, 2) * n) ** 2
        m[n] = (c * es + sum(b[k] * m[n - k] for k in b)) / (1 - c)
        big[n] = (c * (es2 + 2 * es * m[n]) + sum(b[k] * big[n - k] for k in b)) / (1 - c)
    return m[dice], big[dice] - m[dice] ** 2


def convolve(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    top = min(len(a), len(b))
    return [sum((a[i] * b[s - i] for i in range(s + 1)), F(0)) for s in range(top)]


# -- the turn distribution -----------------------------------------------------------------------
@pytest.mark.parametrize("dice", [1, 2, 3])
def test_turn_distribution_matches_brute_force(dice):
    d = boue.turn_distribution(boue.Rules(dice=dice), bound=25)
    assert d.pmf() == [brute(dice, s) for s in range(26)]
    assert d.tail == 1 - sum(brute(dice, s) for s in range(26))


def test_five_dice_turn_matches_the_binomial_recursion():
    d = boue.turn_distribution(boue.Rules(dice=5), bound=60)
    assert d.pmf() == by_binomial(5, 60)[5]


def test_second_method_agrees_with_brute_force_on_three_dice():
    """The two references agree with each other too (so neither is trusted blindly)."""
    assert by_binomial(3, 25)[3] == [brute(3, s) for s in range(26)]


def test_hand_derived_small_cases():
    """One die: it scores 0 iff the first roll sticks (1/3); m = 2/3 (7/2 + m) gives m = 7.
    Two dice: P(0) = P(both stick) + P(one sticks) P0(1) = 1/9 + 4/9 * 1/3 = 7/27."""
    one = boue.Rules(dice=1)
    assert boue.turn_distribution(one, bound=0).probability(0) == F(1, 3)
    assert boue.turn_chain(1).mean(1) == 7
    assert boue.turn_distribution(boue.Rules(dice=2), bound=0).probability(0) == F(7, 27)


@pytest.mark.parametrize("dice", [1, 2, 3, 5, 10])
def test_turn_mean_and_variance_from_first_step_equations(dice):
    mean, var = first_step_moments(dice)
    chain = boue.turn_chain(dice)
    assert chain.mean(dice) == mean
    assert chain.variance(dice) == var


def test_turn_mean_and_variance_vs_the_pmf():
    """sum s P(s) and sum s^2 P(s) up to a bound with tail < 1e-15 fall just short of the moments."""
    d = boue.turn_distribution(boue.Rules(dice=5))
    assert d.tail < 1e-15
    mean, var = first_step_moments(5)
    m1 = sum(s * p for s, p in enumerate(d.pmf()))
    m2 = sum(s * s * p for s, p in enumerate(d.pmf()))
    assert 0 <= mean - m1 < 1e-9
    assert 0 <= var + mean**2 - m2 < 1e-6


def test_game_total_is_the_threefold_convolution():
    rules = boue.Rules()
    game = boue.game_total_distribution(rules, tail_below=1e-6)
    turn = boue.turn_distribution(rules, bound=game.bound).pmf()
    assert game.pmf() == convolve(convolve(turn, turn), turn)
    assert game.tail == 1 - sum(game.pmf())


@pytest.mark.parametrize("tail_below", [1e-6, boue.TAIL])
def test_game_total_tail_is_below_the_requested_tail(tail_below):
    assert boue.game_total_distribution(boue.Rules(), tail_below=tail_below).tail < tail_below


# -- ties ------------------------------------------------------------------------------------------
def brute_tie(pmf: dict[int, Fraction], players: int) -> Fraction:
    """P(the highest value is shared), enumerating every tuple of the players' values."""
    total = F(0)
    for values in product(pmf, repeat=players):
        if values.count(max(values)) > 1:
            weight = F(1)
            for v in values:
                weight *= pmf[v]
            total += weight
    return total


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=2, max_size=7).filter(lambda w: sum(w) > 0), st.integers(2, 4), st.data())
def test_tie_bracket_contains_the_brute_force_value(weights, players, data):
    """A finite distribution held to a bound (the rest lumped in the tail): its bracket holds the
    true P(shared highest); with nothing cut off the bracket is the exact value."""
    den = sum(weights)
    full = {s: F(w, den) for s, w in enumerate(weights) if w}
    truth = brute_tie(full, players)
    lo, hi = boue.tie_for_first(TruncatedDist(weights, den), players)
    assert lo == hi == truth
    bound = data.draw(st.integers(0, len(weights) - 1))
    lo, hi = boue.tie_for_first(TruncatedDist(weights[: bound + 1], den), players)
    assert lo <= truth <= hi


def test_tie_for_first_two_players_is_sum_of_squares():
    """For two players P(tie) = sum_s p(s)^2: the lower end is that sum up to the bound."""
    game = boue.game_total_distribution(boue.Rules())
    lo, hi = boue.tie_for_first(game, 2)
    squares = sum(p * p for p in game.pmf())
    assert lo == squares
    assert lo <= squares + game.tail**2 <= hi
    assert hi - lo == 1 - (1 - game.tail) ** 2  # P(max > bound), exactly
    assert 0 < hi - lo < 1e-9


def test_report_figures():
    rules = boue.Rules()
    figures = boue.report(rules).figures
    assert set(figures) >= {
        "turn_mean",
        "turn_variance",
        "p_turn_zero",
        "p_turn_at_most_20",
        "three_round_mean",
        "p_three_rounds_at_least_60",
        "p_tie_for_first",
    }
    mean, var = first_step_moments(5)
    g = by_binomial(5, 60)[5]
    three = convolve(convolve(g, g), g)
    assert figures["turn_mean"].exact == mean
    assert figures["turn_variance"].exact == var
    assert figures["p_turn_zero"].exact == g[0]
    assert figures["p_turn_at_most_20"].exact == sum(g[:21])
    assert figures["three_round_mean"].exact == 3 * mean
    assert figures["p_three_rounds_at_least_60"].exact == 1 - sum(three[:60])
    tie = figures["p_tie_for_first"]
    assert tie.exact is None and tie.method == "exact"
    lo, hi = tie.ci
    assert lo <= tie.value <= hi and hi - lo < 1e-9
    assert lo >= float(sum(p * p for p in three[:60]))
