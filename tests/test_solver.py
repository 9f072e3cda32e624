"""The generic solvers against brute force over every policy and a published figure."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

from nessus import dice
from nessus.solver import Expectimax, value_iteration


def best_of_two_rolls(sides: int = 6) -> Expectimax:
    """Roll one die; keep it or roll once more and keep the second. State: (rolls made, face)."""

    def choices(state):
        made, face = state
        if made == 0:
            return [("roll", "first")]
        if made == 1:
            return [("keep", ("kept", face)), ("roll", "second")]
        return []

    def chance(after):
        if isinstance(after, tuple):
            return [((2, after[1]), 1)]
        made = 1 if after == "first" else 2
        return [((made, f), 1) for f in range(1, sides + 1)]

    return Expectimax(choices, chance, lambda s: s[1])


def test_keep_or_reroll_against_every_policy():
    """Brute force over all 2^6 keep-sets: the best is "keep 4 or more", worth 17/4."""
    game = best_of_two_rolls()
    best = max(
        sum(Fraction(f, 6) if f in keep else Fraction(7, 12) for f in range(1, 7))
        for r in range(7)
        for keep in itertools.combinations(range(1, 7), r)
    )
    assert game.value((0, 0)) == best == Fraction(17, 4)
    assert [game.best((1, f)) for f in range(1, 7)] == ["roll"] * 3 + ["keep"] * 3
    hint = game.hint((1, 3))
    assert hint.values == {"keep": 3, "roll": Fraction(7, 2)} and hint.best == "roll"
    assert hint.cost("keep") == Fraction(1, 2) and hint.cost("roll") == 0
    with pytest.raises(ValueError, match="action must be one of"):
        hint.cost("fold")
    with pytest.raises(ValueError, match="play is over"):
        game.hint((2, 5))


def test_distribution_under_optimal_and_given_policies():
    game = best_of_two_rolls()
    d = game.distribution((0, 0))
    # Keep 4, 5, 6 (1/6 each) or reroll (1/2) and take any face: 1/6 + 1/12 for 4..6, 1/12 below.
    assert all(d[f] == (Fraction(1, 4) if f >= 4 else Fraction(1, 12)) for f in range(1, 7))
    assert d.mean() == game.value((0, 0))
    always = game.distribution((0, 0), policy=lambda s: "roll")
    assert always.mean() == Fraction(7, 2)
    with pytest.raises(ValueError, match="not a legal action"):
        game.distribution((0, 0), policy=lambda s: "fold")


def yahtzee_in_three() -> Expectimax:
    """5d6, up to 3 rolls, any dice may be kept; payoff 1 for five of a kind."""

    def choices(state):
        rolls_left, hand = state
        if rolls_left == 0 or len(set(hand)) == 1:
            return []
        holds = {tuple(sorted(k)) for r in range(6) for k in itertools.combinations(hand, r)}
        return [(k, (rolls_left, k)) for k in sorted(holds)] + [("stop", ("stop", hand))]

    def chance(after):
        if after[0] == "stop":
            return [((0, after[1]), 1)]
        rolls_left, kept = after
        return [((rolls_left - 1, tuple(sorted(kept + roll))), w) for roll, w in dice.rolls(5 - len(kept)).weights()]

    return Expectimax(choices, chance, lambda s: int(len(set(s[1])) == 1))


def test_yahtzee_in_three_rolls_is_the_published_figure():
    """P(five of a kind within 3 rolls, optimal holding) = 2783176/60466176 (the classic figure)."""
    game = yahtzee_in_three()
    first = sum(w * game.value((2, roll)) for roll, w in dice.rolls(5).weights()) / 6**5
    assert first == Fraction(2783176, 60466176)


def test_chance_weights_are_checked():
    game = Expectimax(lambda s: [("go", "x")] if s == 0 else [], lambda a: [(1, 0)], lambda s: 1)
    with pytest.raises(ValueError, match="positive integers"):
        game.value(0)


def brute_force_ssp(P, R):
    """Best value over every deterministic policy, each solved exactly by a linear system."""
    n, actions = P[0].shape[0], len(P)
    best = None
    for policy in itertools.product(range(actions), repeat=n):
        A = np.eye(n) - np.array([P[policy[s]][s] for s in range(n)])
        b = np.array([R[policy[s]][s] for s in range(n)])
        if np.linalg.matrix_rank(A) < n:
            continue  # an improper policy that never ends
        v = np.linalg.solve(A, b)
        best = v if best is None else np.maximum(best, v)
    return best


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_value_iteration_against_every_policy(seed):
    """Random 4-state, 2-action games that end with probability >= 1/5 per step."""
    rng = np.random.default_rng(seed)
    n = 4
    P, R = [], []
    for _ in range(2):
        m = rng.random((n, n))
        m = m / m.sum(axis=1, keepdims=True) * rng.uniform(0.2, 0.8, size=(n, 1))
        P.append(m)
        R.append(rng.normal(size=n))
    exact = brute_force_ssp(P, R)
    result = value_iteration([sparse.csr_matrix(m) for m in P], R, tolerance=1e-13)
    assert np.max(np.abs(result.values - exact)) < 1e-9
    q = np.stack([R[a] + P[a] @ exact for a in range(2)])
    assert np.all(q[result.policy, np.arange(n)] >= q.max(axis=0) - 1e-9)


def test_value_iteration_by_blocks_gives_the_same_values():
    """A chain 0 -> 1 -> 2 (end): blocks solved from the end agree with a single block."""
    P = [sparse.csr_matrix(np.array([[0.5, 0.5, 0], [0, 0.5, 0.5], [0, 0, 0]])), sparse.csr_matrix(np.zeros((3, 3)))]
    R = [np.array([1.0, 1.0, 0.0]), np.array([0.5, 3.0, 0.0])]
    whole = value_iteration(P, R, tolerance=1e-13)
    layered = value_iteration(P, R, tolerance=1e-13, blocks=[np.array([2]), np.array([1]), np.array([0])])
    assert np.allclose(whole.values, layered.values, atol=1e-12, rtol=0)
    assert list(layered.policy) == list(whole.policy) == [0, 1, 0]


def test_value_iteration_rejects_bad_input():
    P = [sparse.csr_matrix(np.eye(2))]
    with pytest.raises(ValueError, match="tolerance must be"):
        value_iteration(P, [np.zeros(2)], tolerance=0)
    with pytest.raises(ValueError, match="same length"):
        value_iteration(P, [], tolerance=1e-9)
    with pytest.raises(ValueError, match="did not reach tolerance"):
        value_iteration(P, [np.ones(2)], tolerance=1e-9, max_sweeps=50)
