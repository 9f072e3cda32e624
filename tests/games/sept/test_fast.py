"""Le Sept fatal by Monte Carlo: `simulate` against the exact figures, and the fast simulators
(whole turns, hold-at-N games) against games played move by move through `nessus.play.play`."""

import numpy as np
import pytest

from nessus.games import sept
from nessus.play import play


def test_simulation_agrees_with_exact_and_value_iteration():
    rules = sept.Rules()
    exact = sept.report(rules).figures
    sim = sept.simulate(rules, trials=40_000, seed=11).figures
    for name in ("hold_mean", "p_zero_hold", "p_first_player_wins_optimal"):
        lo, hi = sim[name].ci
        assert lo <= exact[name].value <= hi, (name, sim[name].ci, exact[name].value)


def test_hold_games_totals_are_sums_of_turns():
    rng = np.random.default_rng(1)
    totals = sept.hold_games(20, 3, 4, rng, 5000)
    assert totals.shape == (5000, 4) and totals.min() == 0
    turn = sept.turn_distribution(20)
    assert set(np.unique(sept.hold_turns(20, rng, 5000))) <= set(turn.outcomes)
    assert totals.mean() == pytest.approx(3 * float(sept.hold_mean(20)), rel=0.05)


Z = 3.29  # two-sided 99.9%


def agree(fast: np.ndarray, slow: list[float]) -> None:
    """Two estimates of one mean agree within Z standard errors of their difference."""
    a, b = float(np.mean(fast)), float(np.mean(slow))
    se = np.sqrt(np.var(fast, ddof=1) / fast.size + np.var(slow, ddof=1) / len(slow))
    assert abs(a - b) <= Z * se, (a, b, se)


def generic(rules: sept.Rules, policy: str, games: int, seed: int) -> list[float]:
    """The first player's win share in `games` games through `nessus.play.play`."""
    rng, p = np.random.default_rng(seed), sept.policies(rules)[policy]
    return [float(play(sept.initial_state(rules), [p, p], rng).returns()[0]) for _ in range(games)]


@pytest.mark.parametrize("ties", ["replay", "half"])
def test_fast_duel_agrees_with_the_generic_loop(ties):
    """P(the first player wins), both optimal, 3 rounds: whole turns drawn by `duel_turns` (what
    `simulate` runs) and games played move by move through `nessus.play.play`."""
    sol = sept.solution(sept.Rules(ties=ties))
    fast = sept.duel_turns(3, ties, sol.duel.margin, sept.sampler(sol), np.random.default_rng(1), 100_000).astype(float)
    agree(fast, generic(sept.Rules(ties=ties), "optimal", 1500, 2))


def test_fast_hold_games_agree_with_the_generic_loop():
    """Both holding at 20, 3 rounds: P(the first player alone highest) from `hold_games` and
    from the generic loop (ties counted half: a win share of 1 is alone highest)."""
    totals = sept.hold_games(20, 3, 2, np.random.default_rng(3), 100_000)
    fast = (totals[:, 0] > totals[:, 1]).astype(float)
    slow = [float(r == 1) for r in generic(sept.Rules(ties="half"), "hold_at_20", 1500, 4)]
    agree(fast, slow)
