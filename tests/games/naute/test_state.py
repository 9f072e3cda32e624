"""Le Naute as the game protocol (`nessus.games.naute.state`): an expedition step by step, the
rules of keeping cargo dice under each cargo rule, and impossible expeditions refused."""

from fractions import Fraction

import numpy as np
import pytest

from nessus.games import naute
from nessus.games.naute.expedition import game

F = Fraction


def test_an_expedition_step_by_step():
    e = naute.initial_state()
    assert e.hint().values.keys() == {"roll"}
    e = e.roll(dice=(6, 4, 4, 1, 2))
    assert e.aboard == 1 and e.cargo == 0 and e.left == 2
    assert e.hint().best == "roll"
    with pytest.raises(ValueError, match="ship, captain and crew first"):
        e.keep(())
    e = e.roll(dice=(5, 4, 3, 6))
    assert e.crew and e.free == (3, 6) and e.cargo == 9 and e.left == 1
    hint = e.hint()
    assert hint.best == (6,) and hint.values[(6,)] == 6 + F(7, 2) and str(hint.best) == "keep 6"
    assert set(hint.values) == set(e.legal_actions()) and hint.method == "exact"
    e = e.keep((6,))
    assert e.is_chance_node()
    e = e.roll(dice=(2,))
    assert e.cargos == (8,) and e.seat == 1 and e.left == 3
    assert e.scores()[0] == [8] and e.totals() == [8, 0, 0, 0]


def test_an_expedition_that_stays_in_port_scores_zero():
    e = naute.last_expedition(5)
    assert e.target == 5 and e.objective() == naute.Above(5)
    for roll in [(1, 1, 1, 1, 1), (5, 4, 3, 2, 1), (2, 2, 2, 2, 2)]:
        e = e.roll(dice=roll)
    assert e.is_terminal() and e.cargos == (5, 0) and e.returns() == [1, 0]
    with pytest.raises(ValueError, match="over"):
        e.hint()


def test_expedition_rules_of_keeping():
    e = naute.last_expedition(9).roll(dice=(6, 5, 4, 1, 3))
    assert e.objective() == naute.Above(9)
    assert e.hint().values == game(naute.Above(9)).hint(("cargo", 2, (), (1, 3))).values
    e = e.keep((3,)).roll(dice=(6,))
    with pytest.raises(ValueError, match="allowed keeps"):
        e.keep((6,))  # sticky: the 3 stays kept
    assert e.stop().cargos == (9, 9) and e.stop().returns() == [F(1, 2), F(1, 2)]
    free = naute.initial_state(naute.Rules(cargo_holds="free")).roll(dice=(6, 5, 4, 1, 3)).keep((3,)).roll(dice=(6,))
    assert free.keep((6,)).kept == (6,)
    both = naute.initial_state(naute.Rules(cargo_holds="both")).roll(dice=(6, 5, 4, 1, 3))
    with pytest.raises(ValueError, match="allowed keeps"):
        both.keep((3,))
    with pytest.raises(ValueError, match="give rng or dice"):
        naute.initial_state().roll()
    rng = np.random.default_rng(0)
    e = naute.initial_state()
    while not e.cargos:
        e = e.stop() if e.crew and e.free and not e.rolling else e.roll(rng)
    assert 0 <= e.cargos[0] <= 12


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"left": 4}, "left must be an integer from 0 to 3"),
        ({"left": 2, "aboard": 4}, "aboard must be an integer from 0 to 3"),
        ({"aboard": 2}, "aboard must be 0 before the first roll"),
        ({"left": 1, "aboard": 2, "kept": (6,)}, "kept and free must be empty"),
        ({"left": 1, "aboard": 3, "kept": (6, 6), "free": (1,)}, "at most 2 dice"),
        ({"left": 1, "aboard": 3, "free": (7,)}, "at most 2 dice from 1 to 6"),
        ({"cargos": (13,)}, "cargos must be integers from 0 to 12"),
    ],
)
def test_impossible_expeditions_are_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        naute.State(naute.Rules(), **fields)


def test_the_expedition_as_a_page_reads_it():
    """The dice the next roll throws, the move the cargo dice kept mean, the result in words."""
    rules = naute.Rules(players=2, expeditions=1)
    start = naute.initial_state(rules)
    assert start.dice_to_roll() == 5 and start.chosen(()) == "roll"
    hunting = start.roll(dice=(6, 5, 1, 1, 2))  # ship and captain aboard: three dice left for the crew
    assert hunting.dice_to_roll() == 3 and hunting.chosen((1,)) == "roll"
    cargo = hunting.roll(dice=(4, 3, 6))
    assert cargo.crew and cargo.dice_to_roll() == 2 and cargo.dice_to_roll((6,)) == 1
    assert cargo.chosen((3, 6)) == "stop" and cargo.chosen((6,)) == naute.Keep((6,))
    assert naute.boarding(0, [2, 6, 4, 5, 6]) == (3, [2, 6])
    end = cargo.stop().roll(dice=(6, 5, 4, 6, 3)).stop()
    assert end.result_text(you=1) == "Shared first place: player 1 and you, with 9 cargo."


def test_the_cargo_distributions_for_a_goal():
    """The play for the goal against the person's rule, each an exact distribution of the cargo."""
    best, rule = naute.cargo_distributions(naute.CargoMean(), "sticky")
    assert best.mean() == naute.optimal_cargo_mean() > rule.mean()
    assert rule == naute.score_distribution(naute.Rules(), naute.heuristic())
