"""L'Hypogéon by Monte Carlo: the simulated figures against the exact report (one run and a
coverage count over seeds), the vectorised round scoring against the rulebook, the turn table
die by die, and the whole-game kernel against the generic play loop."""

from collections import Counter

import numpy as np
import pytest
from checks import coverage
from scipy import stats

from nessus.games import hypogeon
from nessus.play import play

SEED = 20
WIDEN = stats.norm.ppf(0.9995) / stats.norm.ppf(0.975)


def covers(ci: tuple[float, float], x: float) -> bool:
    """x within the 95% interval widened to 99.9% (up to 14 figures are checked together)."""
    mid, half = (ci[0] + ci[1]) / 2, (ci[1] - ci[0]) / 2 * WIDEN
    return mid - half <= x <= mid + half


@pytest.mark.parametrize(
    "kw", [{}, dict(players=5, stand_at=15, target=3), dict(players=10, stand_at=19, seat1="same")]
)
def test_simulation_agrees_with_exact(kw):
    rules = hypogeon.Rules(**kw)
    exact = hypogeon.report(rules).figures
    sim = hypogeon.simulate(rules, trials=100_000, seed=SEED).figures
    common = set(exact) & set(sim)
    assert {"p_bust", "p_21", "mean_if_not_bust", "expected_rounds"} | {
        f"p_win_seat_{i}" for i in range(1, rules.players + 1)
    } <= common
    for name in common:
        assert covers(sim[name].ci, exact[name].value), (name, exact[name].value, sim[name].ci)


def test_simulation_coverage():
    rules = hypogeon.Rules(players=3, target=2)
    exact = {k: f.value for k, f in hypogeon.report(rules).figures.items()}
    covered, need = coverage(lambda seed: hypogeon.simulate(rules, trials=2000, seed=seed).figures, exact)
    assert {"p_bust", "p_21", "mean_if_not_bust", "p_win_seat_1", "expected_rounds"} <= set(covered)
    assert all(c >= need for c in covered.values()), covered


def rulebook(totals: tuple[int, ...]) -> list[int]:
    """The rulebook's scoring of one round (0 = bust): a sole best total scores, 2 points for 21, 1 otherwise."""
    alive = [t for t in totals if t]
    best = max(alive, default=0)
    if not best or Counter(alive)[best] > 1:
        return [0] * len(totals)
    return [(2 if best == 21 else 1) * (t == best) for t in totals]


def test_round_points_kernel_against_the_scoring():
    rng = np.random.default_rng(2)
    for players in (2, 3, 5):
        totals = rng.choice([0, 15, 18, 20, 21], size=(players, 5000)).astype(np.int8)
        seat, points = hypogeon.round_points(totals)
        for j in range(totals.shape[1]):
            got = [0] * players
            got[seat[j]] += int(points[j])
            assert got == rulebook(tuple(int(t) for t in totals[:, j]))


def test_turn_table_walks_by_the_rule():
    """Each draw of the simulation's table rolls its dice one at a time: from before the first
    roll the two first dice always, then one more while below the rule; nothing for r >= 6**5."""
    for k in (2, 12, 17, 21):
        table = hypogeon.turn_table(k).reshape(hypogeon.BUSTED + 1, -1)
        for code in (0, 5, 16, 21, hypogeon.BUSTED):
            for r in (0, 1, 7, 1295, 7775, 7776, 8191):
                t, dice = code, [(r // 6**i) % 6 + 1 for i in range(5)] if r < 6**5 else []
                for i, face in enumerate(dice):
                    if t <= 21 and (t < k or (code == 0 and i < 2)):
                        t += face
                assert table[code, r] == (hypogeon.BUSTED if t > 21 else t)


def test_fast_simulator_agrees_with_the_generic_loop():
    """`game_kernel` (whole games, vectorised) against `nessus.play.play` with the same rules (the
    "seat_rules" policy: seat 1 at the best reply, the other at stand_at): seat 1's win share and
    the mean number of rounds agree within z = 3.29 (99.9%) standard errors of their difference."""
    z = 3.29
    rules = hypogeon.Rules(players=2, target=3)
    games = 1200
    rng = np.random.default_rng(11)
    policy = hypogeon.policies(rules)["seat_rules"]
    ends = [play(hypogeon.initial_state(rules), [policy] * 2, rng) for _ in range(games)]
    wins = np.array([end.returns()[0] == 1 for end in ends], dtype=float)
    rounds = np.array([end.round for end in ends], dtype=float)
    fast = hypogeon.game_kernel(rules, np.random.default_rng(13), 40_000)
    a, b = float(wins.mean()), float(fast["p_win_seat_1"].mean())
    assert abs(a - b) <= z * (a * (1 - a) / games + b * (1 - b) / fast["p_win_seat_1"].size) ** 0.5, (a, b)
    r = fast["expected_rounds"]
    se = (rounds.var(ddof=1) / games + r.var(ddof=1) / r.size) ** 0.5
    assert abs(rounds.mean() - r.mean()) <= z * se, (rounds.mean(), r.mean())
