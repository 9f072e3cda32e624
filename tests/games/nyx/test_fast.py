"""Nyx's simulation: the Monte Carlo chase agrees with the exact chance, and whole games give
each seat a share."""

from __future__ import annotations

import numpy as np

from nessus.games import nyx
from nessus.games.nyx import fast
from nessus.games.nyx.odds import p_shape_within
from nessus.montecarlo import wilson

Z999 = 0.999


def test_the_simulated_chase_agrees_with_the_exact_chance():
    """p_shape_within for a five-dice dream (the L4's is too near 1 to test much), and with one
    more die of each colour: each exact value inside the 99.9% Wilson interval of 6,000 chases."""
    rules = nyx.Rules(size=5, rolls=2)
    out = fast.chase_kernel(rules, np.random.default_rng(3), 6_000)
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
    out = fast.games_kernel(nyx.Rules(players=2, bots="odds,greedy"), np.random.default_rng(5), 12)
    shares = out["win_share_seat_1_odds"] + out["win_share_seat_2_greedy"]
    assert np.allclose(shares, 1) and (out["mean_rounds"] > 1).all()
