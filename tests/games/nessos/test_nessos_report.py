"""Nessos' report (the CLI contract): the deck figures for every player count, the offer
figures from the receiver's view, and bad cards as one-line errors with exit code 2.

(Named test_nessos_report.py, not test_report.py: the test files are imported by their base
name and tests/test_report.py exists.)"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import pytest

import nessus.games
from nessus import cli
from nessus.games.nessos import GAME, NAME, report
from nessus.games.nessos import Setup as Rules
from nessus.games.nessos.deck import CHARON, deck
from nessus.games.nessos.odds import Sender, Valuation, chain_posterior, expected_values, unseen_counts

registered = pytest.mark.skipif("nessos" not in nessus.games.NAMES, reason="nessos is not registered yet")
BASE = {"deck_size", "charon_count", "p_hand_no_charon", "p_hand_3plus_charon"}
OFFER = {"p_next_card_charon", "p_charon_given_announce", "ev_accept", "ev_refuse", "ev_pass"}


def test_module_surface():
    assert NAME == GAME.name == "nessos" and GAME.title == "Nessos" and GAME.summary
    from nessus.games import nessos

    for name in ("Rules", "report", "State", "initial_state", "policies"):
        assert hasattr(nessos, name), name


@pytest.mark.parametrize(("players", "size", "charon"), [(3, 39, 11), (4, 50, 14), (5, 55, 15), (6, 55, 15)])
def test_deck_figures(players, size, charon):
    figures = report(Rules(players=players)).figures
    assert set(figures) == BASE
    assert figures["deck_size"].exact == size and figures["charon_count"].exact == charon
    assert figures["p_hand_no_charon"].exact == Fraction(comb(size - charon, 5), comb(size, 5))
    three_plus = sum(comb(charon, k) * comb(size - charon, 5 - k) for k in range(3, 6))
    assert figures["p_hand_3plus_charon"].exact == Fraction(three_plus, comb(size, 5))
    assert all(f.method == "exact" for f in figures.values())


def test_offer_figures_naive():
    """4 players, holding C 7 7 2 10, offered a "7": 13 unseen Charon, two unseen 7s, 9 values."""
    figures = report(Rules(players=4, hand="C,7,7,2,10", announced=7)).figures
    assert set(figures) == BASE | OFFER
    p = Fraction(13, 13 + 9 * 2)
    assert figures["p_charon_given_announce"].exact == p
    assert figures["p_next_card_charon"].exact == Fraction(13, 45)
    assert figures["ev_accept"].exact == (1 - p) * 7 - p * Fraction(40, 3)
    assert figures["ev_refuse"].exact == 0
    assert figures["ev_pass"].exact == figures["ev_accept"].exact / 2  # nothing non-linear at stake


@pytest.mark.parametrize("players", [3, 5])
def test_offer_figures_follow_the_view(players):
    rules = Rules(players=players, hand="C,7,2", seen="C,C,7,9", announced=9, sender="bluffer", bluff=Fraction(2, 3))
    figures = report(rules).figures
    pool = unseen_counts(players, (CHARON, 7, 2), (CHARON, CHARON, 7, 9))
    chain = chain_posterior(pool, (9,), deck(players).values, Sender("bluffer", Fraction(2, 3), 5))
    values = expected_values(chain, (9,), (CHARON, 7, 2), Valuation(goal=rules.rules.goal))
    assert figures["p_charon_given_announce"].exact == chain.each[0]
    assert figures["ev_accept"].exact == values.accept and figures["ev_pass"].exact == values.pass_
    naive = report(Rules(players=players, hand="C,7,2", seen="C,C,7,9", announced=9)).figures
    assert naive["p_charon_given_announce"].exact != figures["p_charon_given_announce"].exact


def test_view_without_an_offer():
    figures = report(Rules(players=3, hand="C,C", seen="C")).figures
    assert set(figures) == BASE | {"p_next_card_charon"}
    assert figures["p_next_card_charon"].exact == Fraction(8, 36)


def test_an_offer_to_an_empty_hand_cannot_be_passed():
    figures = report(Rules(players=4, announced=7)).figures
    assert "ev_pass" not in figures and figures["p_charon_given_announce"].exact == Fraction(14, 14 + 9 * 4)


@pytest.mark.parametrize(
    ("sets", "message"),
    [
        (["hand=C,4", "players=3"], "4 is not a card of the 3-player deck"),
        (["hand=7,7,7,7,7", "players=4"], "holds 4 cards 7"),
        (["hand=1,2,3,5,7,9"], "at most 5 cards"),
        (["hand=1,x"], "hand must be cards"),
        (["hand=C", "announced=6", "players=4"], "announced must be a creature value"),
        (["seen=C,C,C,C,C,C,C,C,C,C,C,C", "players=3"], "holds 11 cards C"),
    ],
)
def test_bad_cards_are_value_errors(sets, message):
    kwargs: dict[str, object] = {}
    for s in sets:
        key, value = s.split("=")
        kwargs[key] = int(value) if key in ("players", "announced") else value
    with pytest.raises(ValueError, match=message):
        report(Rules(**kwargs))


@registered
@pytest.mark.parametrize(
    "sets",
    [["hand=C,4", "players=3"], ["hand=7,7,7,7,7"], ["hand=1,2,3,5,7,9"], ["hand=C", "announced=6", "players=4"]],
)
def test_cli_bad_cards_print_one_line_and_exit_2(capsys, sets):
    args = ["report", "nessos"] + [a for s in sets for a in ("--set", s)]
    assert cli.main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("nessus: error:"), err


@registered
def test_cli_report_json(capsys):
    args = ["report", "nessos", "--json", "--set", "players=4", "--set", "hand=C,7,7,2,10", "--set", "announced=7"]
    assert cli.main(args) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["game"] == "nessos" and doc["rules"]["hand"] == "C,7,7,2,10"
    assert doc["figures"]["p_charon_given_announce"]["exact"] == "13/31"
    assert set(doc["figures"]) == BASE | OFFER
