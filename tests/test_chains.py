"""RewardChain and solve_linear against closed forms, hand-solved first-step equations and a
plain Fraction recursion written here (the engine runs on scaled integers instead)."""

import subprocess
import sys
from fractions import Fraction
from functools import cache
from itertools import permutations
from math import prod

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st

from nessus.chains import RewardChain, Step, expected_steps_bound, float_bracket, solve_linear, solve_sparse

F = Fraction


def geometric() -> RewardChain:
    """One state: with 1/3 the process ends, with 2/3 it adds 1 and stays."""
    return RewardChain({"x": [Step(F(1, 3), 0, None), Step(F(2, 3), 1, "x")]})


def two_state() -> RewardChain:
    """A: 1/2 -> B (+0), 1/3 -> A (+2), 1/6 -> end (+1);  B: 1/5 -> end (+0), 4/5 -> A (+3)."""
    return RewardChain(
        {
            "A": [Step(F(1, 2), 0, "B"), Step(F(1, 3), 2, "A"), Step(F(1, 6), 1, None)],
            "B": [Step(F(1, 5), 0, None), Step(F(4, 5), 3, "A")],
        }
    )


def reference_pmf(steps: dict, start, bound: int) -> list[Fraction]:
    """f_x(s) = sum_t q_t f_to(s - r_t) with f_end(s) = [s == 0], memoised over Fractions."""

    @cache
    def f(x, s):
        if x is None:
            return F(int(s == 0))
        return sum((t.probability * f(t.to, s - t.reward) for t in steps[x] if t.reward <= s), F(0))

    return [f(start, s) for s in range(bound + 1)]


# -- closed forms --------------------------------------------------------------------------------
def test_geometric_chain_pmf_tail_mean_variance():
    """P(total = s) = (2/3)^s (1/3), P(total > b) = (2/3)^(b+1), mean p/(1-p) = 2, var p/(1-p)^2 = 6."""
    chain = geometric()
    d = chain.distribution("x", bound=40)
    assert d.pmf() == [F(2, 3) ** s * F(1, 3) for s in range(41)]
    assert d.tail == 1 - sum(d.pmf()) == F(2, 3) ** 41
    assert chain.mean("x") == 2
    assert chain.variance("x") == 6


def test_two_state_chain_mean_and_variance_from_first_step_equations():
    """Solve the first-step equations by substitution, by hand.

    m_B = 4/5 (3 + m_A);  m_A = 1/2 m_B + 1/3 (2 + m_A) + 1/6 * 1.
    Second moments: M_B = 4/5 (9 + 6 m_A + M_A);  M_A = 1/2 M_B + 1/3 (4 + 4 m_A + M_A) + 1/6.
    """
    # m_A (1 - 1/3 - 1/2*4/5) = 1/2*4/5*3 + 1/3*2 + 1/6
    m_a = (F(1, 2) * F(4, 5) * 3 + F(2, 3) + F(1, 6)) / (1 - F(1, 3) - F(1, 2) * F(4, 5))
    m_b = F(4, 5) * (3 + m_a)
    big_m_a = (F(1, 2) * F(4, 5) * (9 + 6 * m_a) + F(1, 3) * (4 + 4 * m_a) + F(1, 6)) / (
        1 - F(1, 3) - F(1, 2) * F(4, 5)
    )
    big_m_b = F(4, 5) * (9 + 6 * m_a + big_m_a)
    chain = two_state()
    assert chain.mean("A") == m_a
    assert chain.mean("B") == m_b
    assert chain.variance("A") == big_m_a - m_a**2
    assert chain.variance("B") == big_m_b - m_b**2


def test_two_state_chain_pmf_matches_a_fraction_recursion_and_its_moments():
    """The pmf vs the reference recursion; the mean vs sum s P(s) up to a bound (tail tiny)."""
    chain = two_state()
    d = chain.distribution("A", bound=300)
    assert d.pmf() == reference_pmf(chain.steps, "A", 300)
    assert d.tail == 1 - sum(d.pmf())
    assert d.tail < F(1, 10**12)
    partial_mean = sum(s * p for s, p in enumerate(d.pmf()))
    partial_square = sum(s * s * p for s, p in enumerate(d.pmf()))
    assert 0 <= chain.mean("A") - partial_mean < 1e-9
    assert 0 <= chain.variance("A") + chain.mean("A") ** 2 - partial_square < 1e-7


# -- random chains vs the reference --------------------------------------------------------------
@st.composite
def chains(draw):
    """Small absorbing chains: every state may end at once; zero-reward steps go only down."""
    k = draw(st.integers(1, 3))
    spec = {}
    for i in range(k):
        raw = [(draw(st.integers(1, 7)), draw(st.integers(0, 2)), None)]
        for _ in range(draw(st.integers(0, 3))):
            to = draw(st.sampled_from([None, *range(k)]))
            reward = draw(st.integers(0, 3))
            if reward == 0 and to is not None and to >= i:
                reward = 1
            raw.append((draw(st.integers(1, 7)), reward, to))
        den = sum(w for w, _, _ in raw)
        spec[i] = [Step(F(w, den), r, to) for w, r, to in raw]
    return spec


@settings(max_examples=50, deadline=None)
@given(chains())
def test_random_chain_pmf_and_moments(spec):
    """The exact pmf vs the Fraction recursion; mean and variance vs numpy's float linear solve."""
    chain = RewardChain(spec)
    start = max(spec)
    d = chain.distribution(start, bound=12)
    assert d.pmf() == reference_pmf(spec, start, 12)
    assert d.tail == 1 - sum(d.pmf())

    states = list(spec)
    q = np.zeros((len(states), len(states)))
    r1 = np.zeros(len(states))
    for i, x in enumerate(states):
        for t in spec[x]:
            if t.to is not None:
                q[i, states.index(t.to)] += float(t.probability)
            r1[i] += float(t.probability * t.reward)
    a = np.eye(len(states)) - q
    m = np.linalg.solve(a, r1)
    r2 = np.array(
        [
            sum(
                float(t.probability) * (t.reward**2 + 2 * t.reward * (m[states.index(t.to)] if t.to is not None else 0))
                for t in spec[x]
            )
            for x in states
        ]
    )
    second = np.linalg.solve(a, r2)
    for i, x in enumerate(states):
        assert float(chain.mean(x)) == pytest.approx(m[i], rel=1e-9)
        assert float(chain.variance(x)) == pytest.approx(second[i] - m[i] ** 2, rel=1e-7, abs=1e-9)


def test_bound_and_tail_below_agree():
    """tail_below picks the smallest bound with tail < the limit; bound= gives the same numbers."""
    chain = two_state()
    by_tail = chain.distribution("A", tail_below=1e-9)
    by_bound = chain.distribution("A", bound=by_tail.bound)
    assert by_tail.pmf() == by_bound.pmf()
    assert by_tail.tail == by_bound.tail < F(1e-9)
    assert by_tail.truncate(by_tail.bound - 1).tail >= F(1e-9)
    geo = geometric().distribution("x", tail_below=0.01)
    # (2/3)^(b+1) < 0.01 first at b + 1 = 12
    assert geo.bound == 11


def test_distribution_argument_checks():
    chain = geometric()
    with pytest.raises(ValueError):
        chain.distribution("x")
    with pytest.raises(ValueError):
        chain.distribution("x", bound=3, tail_below=0.1)
    with pytest.raises(ValueError):
        chain.distribution("x", bound=-1)
    with pytest.raises(ValueError):
        chain.distribution("x", tail_below=1.5)


# -- invalid chains ------------------------------------------------------------------------------
def test_zero_reward_cycle_is_rejected():
    with pytest.raises(ValueError, match="cycle"):
        RewardChain(
            {
                "a": [Step(F(1, 2), 0, "b"), Step(F(1, 2), 1, None)],
                "b": [Step(F(1, 2), 0, "a"), Step(F(1, 2), 1, None)],
            }
        )
    with pytest.raises(ValueError, match="cycle"):
        RewardChain({"a": [Step(F(1, 2), 0, "a"), Step(F(1, 2), 1, None)]})


def test_malformed_steps_are_rejected():
    with pytest.raises(ValueError):
        RewardChain({"a": [Step(F(1, 2), 1, None), Step(F(1, 3), 1, None)]})
    with pytest.raises(ValueError):
        RewardChain({"a": [Step(F(1), -1, None)]})
    with pytest.raises(ValueError):
        RewardChain({"a": [Step(F(1, 2), 1, "nowhere"), Step(F(1, 2), 1, None)]})


def test_non_absorbing_chain_has_no_mean():
    chain = RewardChain({"a": [Step(F(1), 1, "a")]})
    with pytest.raises(ValueError, match="absorbing"):
        chain.mean("a")


def test_non_absorbing_chain_distribution_by_tail_raises_instead_of_hanging():
    code = (
        "from fractions import Fraction\n"
        "from nessus.chains import RewardChain, Step\n"
        "c = RewardChain({'a': [Step(Fraction(1), 1, 'a')]})\n"
        "try:\n    c.distribution('a', tail_below=0.5)\nexcept ValueError:\n    raise SystemExit(0)\n"
        "raise SystemExit(1)\n"
    )
    try:
        done = subprocess.run([sys.executable, "-c", code], timeout=3, capture_output=True)
    except subprocess.TimeoutExpired:
        pytest.fail("distribution(tail_below=0.5) did not return within 3 s")
    assert done.returncode == 0


# -- solve_linear --------------------------------------------------------------------------------
def test_solve_linear_hand_systems():
    """2x + y = 5, x - y = 1 gives (2, 1); y + z = 5, x + z = 4, x + y = 3 (zero first pivot) gives (1, 2, 3)."""
    assert solve_linear([[2, 1], [1, -1]], [5, 1]) == [2, 1]
    assert solve_linear([[0, 1, 1], [1, 0, 1], [1, 1, 0]], [5, 4, 3]) == [1, 2, 3]
    assert solve_linear([[F(1, 3)]], [F(1, 2)]) == [F(3, 2)]
    with pytest.raises(ValueError, match="singular"):
        solve_linear([[1, 2], [2, 4]], [1, 2])


def det(a) -> Fraction:
    """The Leibniz formula: sum over permutations of sign * product."""
    n = len(a)
    total = F(0)
    for perm in permutations(range(n)):
        inversions = sum(1 for i in range(n) for j in range(i + 1, n) if perm[i] > perm[j])
        total += (-1) ** inversions * prod(F(a[i][perm[i]]) for i in range(n))
    return total


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(st.integers(-3, 3), min_size=n, max_size=n), min_size=n, max_size=n),
            st.lists(st.builds(Fraction, st.integers(-9, 9), st.integers(1, 7)), min_size=n, max_size=n),
        )
    )
)
def test_solve_linear_recovers_a_known_solution(case):
    """Build b = A x for a chosen x; solve_linear gives x back exactly iff det(A) != 0."""
    a, x = case
    b = [sum(F(aij) * xj for aij, xj in zip(row, x)) for row in a]
    if det(a) == 0:
        with pytest.raises(ValueError):
            solve_linear(a, b)
    else:
        assert solve_linear(a, b) == x


# -- large chains: sparse exact solves and float brackets ---------------------------------------
@st.composite
def absorbing(draw):
    """A random absorbing chain on n states with integer weights over `scale`: state i steps to
    states j with weight w[i][j]; every row keeps some weight for the end, so P is substochastic
    with every row sum below 1 (absorbing). Rewards are small fractions."""
    n = draw(st.integers(1, 6))
    scale = draw(st.sampled_from([6, 36, 729]))
    weights = []
    for _ in range(n):
        row = draw(st.lists(st.integers(0, scale), min_size=n, max_size=n))
        total = sum(row)
        cap = scale - draw(st.integers(1, scale // 2))
        weights.append([w * cap // total if total else 0 for w in row])
    rhs = draw(st.lists(st.fractions(0, 5, max_denominator=12), min_size=n, max_size=n))
    return n, scale, weights, rhs


@settings(max_examples=60, deadline=None)
@given(absorbing())
@example((1, 729, [[728]], [F(1)]))  # nearly never absorbed: 729 expected steps
def test_sparse_solve_and_float_bracket_agree_with_dense_elimination(case):
    """x = b + P x three ways: solve_sparse (Markowitz pivots) and solve_linear (dense
    Gauss-Jordan) give the same fractions; float_bracket's interval holds them, and
    expected_steps_bound is at least the exact expected steps; the bracket is as narrow as float
    precision allows (its width is the residual times the expected steps)."""
    n, scale, weights, rhs = case
    p = [[F(w, scale) for w in row] for row in weights]
    a = [[F(int(i == j)) - p[i][j] for j in range(n)] for i in range(n)]
    dense = solve_linear(a, rhs)
    system = {i: ({j: a[i][j] for j in range(n) if a[i][j]}, rhs[i]) for i in range(n)}
    assert [solve_sparse(system)[i] for i in range(n)] == dense
    steps = solve_linear(a, [F(1)] * n)
    step = sp.csr_matrix(np.array(weights, dtype=np.int64))
    bound = expected_steps_bound(step, scale)
    assert max(steps) <= bound
    x, err = float_bracket(step, scale, list(rhs), bound)
    assert all(F(float(x[i])) - err <= dense[i] <= F(float(x[i])) + err for i in range(n))
    # the residual is at float precision relative to x, and E[steps] amplifies it: 1e-12 of both
    assert err <= F(1, 10**12) * bound * max(1, *dense)
