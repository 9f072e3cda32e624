"""Entheos' report: the duel's figures are the chain's, the war's come from the stored exact
table (first rows rebuilt afresh in the tables check; every row checked here against its
identities and against a simulation)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from nessus import tables
from nessus.games import entheos
from nessus.games.entheos import odds, war
from nessus.games.entheos.duel import duel
from nessus.games.entheos.heroes import GODS
from nessus.games.entheos.rules import GAME_TURNS, Rules
from nessus.games.entheos.state import initial_state
from nessus.montecarlo import run, wilson


def stored() -> list[dict]:
    table = tables.load("entheos", "war")
    assert table is not None, "run `nessus data rebuild entheos`"
    return table.to_dicts()


def test_the_duel_figures_are_the_chains():
    r = entheos.report(entheos.Rules(turns=5))
    one = duel(5)
    assert r.figures["duel_mean"].exact == one.mean_a() == 6 + Fraction(5, 6)
    assert r.figures["duel_p_ahead"].exact == one.p_ahead()
    assert r.figures["duel_p_tied"].exact == one.p_tied()
    assert r.figures["duel_p_zero"].exact == one.p_zero()


@pytest.mark.parametrize("players", sorted(GAME_TURNS))
def test_the_war_at_the_games_length_is_exact_from_the_stored_chain(players):
    r = entheos.report(entheos.Rules(players=players))
    row = stored()[GAME_TURNS[players]]
    assert row["turns"] == GAME_TURNS[players]
    for name in ("p_achaeans_win", "p_trojans_win", "p_war_tied", "hero_mean_points"):
        assert r.figures[name].exact == Fraction(row[name])
    for god in GODS:
        assert r.figures[f"god_{god.name.lower()}_ev"].exact == Fraction(row[f"god_{god.name.lower()}_ev"])


def test_every_stored_row_keeps_the_wars_identities():
    for row in stored():
        t = row["turns"]
        a, b, tied = (Fraction(row[k]) for k in ("p_achaeans_win", "p_trojans_win", "p_war_tied"))
        assert a == b and a + b + tied == 1
        assert Fraction(row["hero_mean_points"]) == 6 + Fraction(t, 2)
        assert Fraction(row[f"god_{GODS[0].name.lower()}_ev"]) == Fraction(row[f"god_{GODS[4].name.lower()}_ev"])


@pytest.mark.parametrize("turns", [3, 6, 10])
def test_the_stored_rows_agree_with_a_simulation(turns):
    row = stored()[turns]
    result = run(lambda rng, n: war.kernel(turns, rng, n), 200_000, turns)
    for name in ("p_achaeans_win", "p_war_tied"):
        e = result[name]
        low, high = wilson(round(e.value * e.trials), e.trials, 0.999)
        assert low <= Fraction(row[name]) <= high, name
    for god in GODS:
        e = result[f"god_{god.name.lower()}_ev"]
        half = (e.ci[1] - e.ci[0]) / 2 * 3.291 / 1.960  # the 95% interval widened to 99.9%
        assert abs(e.value - Fraction(row[f"god_{god.name.lower()}_ev"])) <= half, god.name


def test_a_war_longer_than_the_table_is_simulated_and_says_so():
    r = entheos.report(entheos.Rules(war_turns=12))
    assert r.figures["hero_mean_points"].exact == 12
    assert r.figures["p_war_tied"].exact is None and r.figures["p_war_tied"].method == "monte-carlo"
    assert "simulated" in r.figures["p_war_tied"].help
    assert r.figures["hero_ulysses_points"].contains(12)


def test_a_position_gives_each_duels_odds_and_the_wars_figures():
    s = initial_state(Rules(players=4)).set_up(trojans=(4, 3, 5), gods=((0,), (3,), (1,), (4,)), first=0, aside=(2, 5))
    at = odds.start(s, rolled=False)
    assert at.names == ["1. Ulysses vs Paris", "2. Achilles vs Hector", "3. Ajax vs Aeneas"] and at.left == 8
    assert [d.dist for d in at.duel_odds(alone=False)] == list(war.next_turn(s.points, s.places))
    assert at.duel_odds(alone=True)[0].dist == duel(8).dist
    assert at.figures((0,))["p_achaeans_win"].trials == odds.WARS
    assert set(odds.duel_frame(at, at.duel_odds(alone=False), "lead")["ahead"]) <= set(odds.AHEAD)
    over = odds.Position(at.points, at.places, 0, "the war is over", "the war is over")
    assert [d.dist.outcomes for d in over.duel_odds(alone=True)] == [[(6, 6)]] * 3
    assert over.figures((0,))["p_war_tied"] == 1
    assert odds.turns(1) == "1 turn" and odds.turns(7) == "7 turns"
