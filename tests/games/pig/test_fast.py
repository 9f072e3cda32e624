"""Pig by Monte Carlo: `simulate` against value iteration, the whole-turn table against the
exact turn law, and the fast games against games played move by move through `nessus.play.play`."""

import numpy as np
import pytest

from nessus import pushluck as core
from nessus.games import pig
from nessus.play import play


def test_simulation_agrees_with_value_iteration():
    rules = pig.Rules()
    exact = pig.report(rules).figures
    sim = pig.simulate(rules, trials=20_000, seed=5).figures
    for name in ("p_first_player_wins_optimal", "hold_at_20_turn_mean"):
        lo, hi = sim[name].ci
        assert lo <= exact[name].value <= hi, (name, sim[name].ci)
    # the optimal player beats hold-at-20 more often than hold-at-20 beats itself (both first)
    assert sim["p_optimal_first_beats_hold_at_20"].ci[0] > sim["p_first_player_wins_hold_at_20"].ci[0]


def test_turn_table_is_the_exact_turn_law():
    """Holding at 20 from any context: the table's law is the exact hold-at-20 distribution
    (away from the goal), and 0 / the goal reached otherwise."""
    race = pig.Race(100)
    _, hold = pig.samplers()
    law = np.diff(hold.cdf[0, :-1], prepend=0.0)
    d = core.hold_at_distribution(pig.ROLL, 20)
    assert np.allclose(law[:26], [float(d[o]) for o in range(26)], atol=1e-15, rtol=0)
    near = race.context(98, 0)  # 2 points from the goal: any roll but a 1 wins
    cdf = core.turn_table(race, np.ones((race.sizes.size, 100), dtype=bool))[near]
    assert cdf[0] == pytest.approx(1 / 6) and cdf[1] == pytest.approx(1 / 6) and cdf[-1] == pytest.approx(1)


Z = 3.29  # two-sided 99.9%


@pytest.mark.parametrize("seats", [("optimal", "optimal"), ("optimal", "hold_at_20"), ("hold_at_20", "hold_at_20")])
def test_fast_games_agree_with_the_generic_loop(seats):
    """P(the first player wins) to 25 points: whole turns drawn by `play_turns` (what `simulate`
    runs) and games played move by move through `nessus.play.play`, same policies; the two
    estimates agree within Z standard errors of their difference."""
    rules = pig.Rules(goal=25)
    best, hold = pig.samplers(rules)
    samplers = tuple(best if s == "optimal" else hold for s in seats)
    fast = (pig.play_turns(25, samplers, np.random.default_rng(1), 100_000) == 0).astype(float)
    rng, named = np.random.default_rng(2), pig.policies(rules)
    slow = np.array(
        [float(play(pig.initial_state(rules), [named[s] for s in seats], rng).returns()[0]) for _ in range(2000)]
    )
    se = np.sqrt(fast.var(ddof=1) / fast.size + slow.var(ddof=1) / slow.size)
    assert abs(fast.mean() - slow.mean()) <= Z * se, (fast.mean(), slow.mean(), se)
