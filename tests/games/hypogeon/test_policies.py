"""L'Hypogéon's named policies: stand at k, the optimal rule, the best stand-at reply and each
seat's rule, played through the generic loop."""

import numpy as np

from nessus.games import hypogeon
from nessus.play import play


def test_policies():
    """ "stand_at" stands from 17 on; "optimal", "best_stand_at" and "seat_rules" follow the solvers."""
    rng = np.random.default_rng(7)
    pol = hypogeon.policies()
    for _ in range(20):
        end = play(hypogeon.initial_state(), [pol["stand_at"]] * 2, rng)
        for finals in end.history + (tuple(end.finals),):
            assert all(f == hypogeon.BUST or 17 <= f <= 21 for f in finals)
    state = hypogeon.initial_state(hypogeon.Rules(players=3)).roll(dice=(6, 6)).roll(dice=(6,))  # 18
    assert pol["optimal"](state) == ("stand" if 18 in hypogeon.stand_totals(17, 3) else "roll") == state.hint().best
    assert pol["best_stand_at"](state) == ("stand" if 18 >= hypogeon.best_response(17, 3)[0] else "roll")
    seat1 = hypogeon.seat_rules(hypogeon.Rules(players=3))[0]
    assert pol["seat_rules"](state) == ("stand" if 18 >= seat1 else "roll")
    assert pol["seat_rules"](state.stand().roll(dice=(6, 6)).roll(dice=(6,))) == "stand"  # player 2 stands at 17
    assert all(p(hypogeon.initial_state()) == "roll" for p in pol.values())


def test_rules_in_words():
    assert hypogeon.rule_text(2) == "stand on the first roll" and hypogeon.rule_text(17) == "stand at 17"
    assert hypogeon.optimal_text(17, 2) == "stand from 19 on, roll below"
    assert hypogeon.opponents_text(2, 17) == "1 opponent standing at 17"
    assert hypogeon.opponents_text(3, 18) == "2 opponents standing at 18"
    assert "Standing at 20 is a symmetric equilibrium for 3 players" in hypogeon.equilibria_text(3)
    assert "no symmetric equilibrium" in hypogeon.equilibria_text(2)


def test_the_page_machines():
    """The page's machines stand at k or at the best reply to k, at every seat but yours (seat 1)."""
    assert hypogeon.machines_stand_at(hypogeon.STAND_AT_K, 17, 3) == 17
    assert hypogeon.machines_stand_at(hypogeon.BEST_REPLY, 17, 3) == hypogeon.best_response(17, 3)[0]
    machines = hypogeon.machine_policies(hypogeon.Rules(stand_at=12, players=3))
    state = hypogeon.initial_state().roll(dice=(6, 6))
    assert (
        sorted(machines) == [1, 2] and machines[1](state) == "stand" and machines[2](state.roll(dice=(1,))) == "stand"
    )
