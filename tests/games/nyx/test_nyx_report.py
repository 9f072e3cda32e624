"""Nyx's report and simulation: the figures are the odds and the matrix counted again, the dice
gains respect the nine-black-dice cap, and the Monte Carlo chase agrees with the exact chance."""

from __future__ import annotations

import numpy as np
import pytest

from nessus.games import nyx
from nessus.games.nyx.matrix import placements
from nessus.games.nyx.odds import p_shape_within
from nessus.montecarlo import wilson

Z999 = 0.999


def test_the_headline_is_the_rulebooks_l_of_moons_on_six_black_dice():
    r = nyx.report()
    assert r.rules["shape"] == "L4" and r.rules["symbol"] == "moon" and r.rules["dice"] == 6
    assert r.figures["placements"].exact == len(placements("L4")) == 16
    assert r.figures["p_shape_within"].exact == p_shape_within(4, 3, 6, 0)
    gains = {c: r.figures[f"{c}_die_gain"].exact for c in ("black", "white")}
    assert gains["black"] == p_shape_within(4, 3, 7, 0) - p_shape_within(4, 3, 6, 0)
    assert gains["white"] == p_shape_within(4, 3, 6, 1) - p_shape_within(4, 3, 6, 0)
    assert "placements_free" not in r.figures
    assert r.figures["black_die_value"].exact == 4 * gains["black"]  # kept for the 4 nights left
    assert r.figures["white_die_value"].exact == gains["white"]  # one night


def test_blocked_cells_count_the_placements_left():
    r = nyx.report(nyx.Rules(shape="L3", blocked="5"))
    by_hand = [p for p in placements("L3") if 5 not in p]
    assert r.figures["placements_free"].exact == len(by_hand) == 4  # each 2x2 box holds one L3 missing the centre


def test_no_tenth_black_die_is_offered():
    r = nyx.report(nyx.Rules(dice=9))
    assert "black_die_gain" not in r.figures and "white_die_gain" in r.figures
    white = nyx.report(nyx.Rules(dice=9, colour="white"))
    assert "black_die_gain" in white.figures


def test_the_simulated_chase_agrees_with_the_exact_chance():
    """p_shape_within for a five-dice dream (the L4's is too near 1 to test much), and with one
    more die of each colour: each exact value inside the 99.9% Wilson interval of 6,000 chases."""
    rules = nyx.Rules(size=5, rolls=2)
    out = nyx.chase_kernel(rules, np.random.default_rng(3), 6_000)
    exact = {
        "p_shape_within": p_shape_within(5, 2, 6, 0),
        "p_shape_within_one_more_black": p_shape_within(5, 2, 7, 0),
        "p_shape_within_one_more_white": p_shape_within(5, 2, 6, 1),
    }
    assert out.keys() == exact.keys()
    for name, p in exact.items():
        low, high = wilson(int(out[name].sum()), len(out[name]), Z999)
        assert low <= float(p) <= high, (name, float(p), low, high)


def test_whole_games_give_each_seat_a_share_and_a_length():
    out = nyx.games_kernel(nyx.Rules(players=2, bots="odds,greedy"), np.random.default_rng(5), 12)
    shares = out["win_share_seat_1_odds"] + out["win_share_seat_2_greedy"]
    assert np.allclose(shares, 1) and (out["mean_rounds"] > 1).all()


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"blocked": "1,10"}, "blocked must be cells 1 to 9"),
        ({"k": 7}, "k must be at most dice = 6"),
        ({"size": 7}, "size must be at most dice = 6"),
        ({"shape": "Q4"}, "shape must be one of"),
        ({"bots": "odds,clever"}, "bots must name bots among greedy, odds, random_legal"),
    ],
)
def test_bad_rules_name_the_parameter(params, message):
    with pytest.raises(ValueError, match=message):
        nyx.Rules(**params)
