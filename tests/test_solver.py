"""The generic solvers against brute force over every policy and a published figure."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

from nessus import dice
from nessus.solver import Expectimax, PolicyIteration, value_iteration


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


# -- PolicyIteration --------------------------------------------------------------------------------
def _cycling_die(cost: int):
    """Score a die's face, or pay `cost` to roll again as often as you like."""
    return PolicyIteration(
        starts=[("start",)],
        choices=lambda s: (
            []
            if s[0] == "end"
            else [("roll", ("roll",))]
            if s[0] == "start"
            else [("stop", ("end", s[1])), ("roll", ("roll",))]
        ),
        chance=lambda a: [(a, 1)] if a[0] == "end" else [(("face", f), 1) for f in range(1, 7)],
        payoff=lambda s: s[1],
        step=lambda a: 0 if a[0] == "end" else -cost,
    )


@pytest.mark.parametrize("cost", [0, 1, 2, 3])
def test_policy_iteration_solves_the_stopping_rule_by_hand(cost):
    """With rolls costing c, the value v of rolling is the fixed point v = -c + E[max(face, v)]:
    found here by trying each threshold t (stop at t or more) and keeping the consistent one."""
    consistent = []
    for t in range(1, 7):
        stop = [f for f in range(t, 7)]
        # v = -c + (sum(stop) + (t - 1) v) / 6  ->  v (7 - t) / 6 = -c + sum(stop) / 6
        v = (Fraction(sum(stop), 6) - cost) / Fraction(7 - t, 6)
        if all(f >= v for f in stop) and all(f <= v for f in range(1, t)):
            consistent.append(v)
    game = _cycling_die(cost)
    assert game.after_value(("roll",)) == max(consistent)


def test_policy_iteration_agrees_with_expectimax_on_a_game_that_ends():
    """Three rolls of two dice keeping any, maximising the total: no cycle, so both solvers apply."""

    def choices(s):
        kept, rolled, left = s
        if left == 0:
            return []
        return [(keep, (keep, left)) for keep in dice.sub_multisets(tuple(sorted(kept + rolled)))]

    def chance(after):
        keep, left = after
        if len(keep) == 2:
            return [((keep, (), 0), 1)]
        return [((keep, roll, left - 1), w) for roll, w in dice.rolls(2 - len(keep)).weights()]

    payoff = lambda s: sum(s[0]) + sum(s[1])  # noqa: E731
    starts = [((), roll, 2) for roll, _ in dice.rolls(2).weights()]
    exact = Expectimax(choices, chance, payoff)
    cyclic = PolicyIteration(starts, choices, chance, payoff, step=lambda a: 0)
    for s in starts:
        assert cyclic.value(s) == exact.value(s)
        assert cyclic.hint(s).best == exact.best(s)


def test_policy_iteration_refuses_a_game_that_never_ends():
    with pytest.raises(ValueError, match="never ends play"):
        PolicyIteration([0], lambda s: [("stay", "a")], lambda a: [(0, 1)], payoff=lambda s: 0, step=lambda a: 1)
    game = _cycling_die(1)
    with pytest.raises(ValueError, match="state must be reachable"):
        game.value(("face", 9))
    with pytest.raises(ValueError, match="no action is left"):
        game.hint(("end", 3))
