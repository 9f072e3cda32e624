"""How Le Naute is played (`nessus.games.naute.policies`): the objectives as objects, the optimal,
chasing and person's plays, and the named whole-game policies."""

from fractions import Fraction

import pytest

from nessus.games import naute
from nessus.games.naute.expedition import game, start

F = Fraction


def test_score_distribution_and_policies():
    d = naute.score_distribution()
    assert d.mean() == naute.optimal_cargo_mean()
    assert d[0] == 1 - naute.p_qualify_by_roll()[-1] and d[1] == 0 and max(d.outcomes) == 12
    h = naute.score_distribution(policy=naute.keep_at_least(4))
    assert h.mean() == naute.report().figures["heuristic_cargo_mean"].exact
    chase = naute.chase_policy(9)
    beat9 = naute.score_distribution(policy=chase)
    assert beat9.prob(lambda c: c > 9) == naute.p_beat(9)
    assert beat9.mean() <= d.mean()
    assert chase(("cargo", 2, (), (5, 5))) == "stop"  # 10 already beats 9
    assert chase(("cargo", 2, (), (4, 5))) == (5,)  # 9 does not: keep the 5, two tries for a 5 or 6
    assert naute.beat_policy(9)(("cargo", 1, (), (6, 4))) == "stop"


def test_legal_replaces_a_partial_keep_under_both():
    policy = naute.legal(naute.keep_at_least(4), "both")
    assert policy(("cargo", 1, (), (6, 1))) == ()
    assert policy(("cargo", 1, (), (6, 5))) == "stop"
    assert policy(("hunt", 2, 1)) == "roll"


def test_the_optimal_policy_chases_on_the_last_expedition():
    optimal = naute.policies()["optimal"]
    e = naute.last_expedition(10).roll(dice=(4, 5, 5, 5, 6))  # cargo 5 5, two rolls left: 10 does not beat 10
    assert optimal(e) == naute.chase_policy(10)(e.node)
    first = naute.initial_state().roll(dice=(4, 5, 5, 5, 6))
    assert first.target is None and optimal(first) == naute.optimal(naute.CargoMean())(first.node)
    assert naute.policies()["keep_at_least"](first) == "stop"


@pytest.mark.parametrize("rule", ["sticky", "both"])
def test_the_objectives_are_objects(rule):
    """Each objective says what it is, scores a cargo, and solves, plays and weighs itself:
    its value is the solver's, its play reaches that value, and its value under a cargo
    distribution is the distribution's mean or tail."""
    rules = naute.Rules(cargo_holds=rule)
    mean, above = naute.CargoMean(), naute.Above(8)
    assert (mean.text, mean.unit, mean.figure) == ("the expected cargo", "expected cargo", "expected cargo")
    assert (above.text, above.unit, above.figure) == ("P(cargo > 8)", "probability", "P(cargo > 8)")
    assert [mean.payoff(c) for c in (0, 8, 9)] == [0, 8, 9] and [above(c) for c in (0, 8, 9)] == [0, 0, 1]
    assert mean.value(rules) == game(mean, rule).value(start()) == naute.optimal_cargo_mean(rules)
    assert above.value(rules) == game(above, rule).value(start()) == naute.p_beat(8, rules)
    played = {g: naute.score_distribution(rules, g.play(rules)) for g in (mean, above)}
    assert mean.expected(played[mean]) == played[mean].mean() == mean.value(rules)
    assert above.expected(played[above]) == played[above].prob(lambda c: c > 8) == above.value(rules)
    state = ("cargo", 2, (), (4, 5))
    assert above.play(rules)(state) == naute.chase_policy(8, rules)(state)
    assert mean.play(rules)(state) == mean.optimal(rules)(state) == naute.optimal(mean, rules)(state)
    assert above.optimal(rules)(state) == naute.beat_policy(8, rules)(state)
    assert naute.Above(8) == above and hash(naute.Above(8)) == hash(above) and naute.CargoMean() == mean


def test_machine_policies_are_the_named_policies():
    rules = naute.Rules(players=3)
    named = naute.policies(rules)
    for machine, name in naute.MACHINES.items():
        seats = naute.machine_policies(machine, rules, range(1, 3))
        assert set(seats) == {1, 2} and all(p is named[name] or p == named[name] for p in seats.values())
