"""La Tresse by Monte Carlo (`fast`): the simulation against the exact figures, its coverage,
its table of throws, and the packed-bits games against the generic play loop."""

import numpy as np
import pytest
from checks import coverage
from scipy import stats

from nessus.games import tresse
from nessus.play import play

# -- Monte Carlo -----------------------------------------------------------------------------------
# Up to 12 figures are checked at once, so each 95% interval is widened to 99.9% about its
# centre (Bonferroni: all cover with probability >= 98.8% at any seed); test_simulation_coverage
# checks that the 95% intervals themselves cover as often as they should.
SEED = 20
WIDEN = stats.norm.ppf(0.9995) / stats.norm.ppf(0.975)


def covers(ci: tuple[float, float], x: float) -> bool:
    mid, half = (ci[0] + ci[1]) / 2, (ci[1] - ci[0]) / 2 * WIDEN
    return mid - half <= x <= mid + half


@pytest.mark.parametrize("players", [2, 4, 7])
def test_simulation_agrees_with_exact(players):
    rules = tresse.Rules(players=players)
    exact = tresse.report(rules).figures
    sim = tresse.simulate(rules, trials=200_000, seed=SEED).figures
    assert set(sim) == set(exact)
    for name, f in sim.items():
        assert covers(f.ci, exact[name].value), (name, exact[name].value, f.ci)


def test_simulation_coverage():
    """40 replications of 1000 games with 3 players and 3 dice: each interval covers the exact
    value at least binom.ppf(0.001, 40, 0.95) = 33 times."""
    rules = tresse.Rules(players=3, dice=3)
    exact = {k: f.value for k, f in tresse.report(rules).figures.items()}
    covered, need = coverage(lambda seed: tresse.simulate(rules, trials=1000, seed=seed).figures, exact)
    assert set(covered) == set(exact)
    assert all(c >= need for c in covered.values()), covered


def test_throw_table_moves_the_faces_of_each_draw():
    """The simulation reads a draw r < 6**dice as base-6 digits (the faces, first die first); a
    larger r throws nothing."""
    for players, dice in ((2, 5), (4, 5), (10, 3)):
        m, bits, table = tresse.throw_table(players, dice)
        assert m == 6**dice and 1 << bits >= m
        for hand in range(1, dice + 1):
            for r in (0, 1, 5, 6, 77, m - 1, m, (1 << bits) - 1):
                faces = [(r // 6**i) % 6 + 1 for i in range(hand)] if r < m else []
                gone = sum(1 for f in faces if f in (1, 2, 5))
                want = -gone + (faces.count(2) << 4) + (faces.count(5) << 4 * (players - 1))
                assert table[hand << bits | r] == want


def test_fast_simulator_agrees_with_the_generic_loop():
    """games_kernel (the packed-bits simulator) against `nessus.play.play` on the protocol state,
    4 players: every seat's win share, and the mean throws, agree within z(99.9%) times the
    standard error of their difference."""
    rules, n_fast, n_loop, z = tresse.Rules(), 20_000, 4000, stats.norm.ppf(0.9995)
    fast = tresse.games_kernel(rules.players, rules.dice, np.random.default_rng(SEED), n_fast)
    rng = np.random.default_rng(SEED + 1)
    ends = [play(tresse.initial_state(rules), {}, rng) for _ in range(n_loop)]
    loop = {f"p_win_seat_{i + 1}": np.array([e.winner == i + 1 for e in ends]) for i in range(rules.players)}
    loop["expected_throws"] = np.array([e.throws for e in ends])
    for name, b in loop.items():
        a = fast[name].astype(float)
        se = (a.var(ddof=1) / n_fast + b.astype(float).var(ddof=1) / n_loop) ** 0.5
        assert abs(a.mean() - b.mean()) <= z * se, (name, a.mean(), b.mean())
