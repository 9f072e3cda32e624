"""Entheos' simulation: the paired intervention games are paired."""

from __future__ import annotations

import numpy as np
import pytest

from nessus.games import entheos
from nessus.games.entheos import fast


def test_a_policy_against_itself_has_no_effect_the_pairs_share_their_chance():
    out = fast.intervention_kernel(entheos.Rules(players=3), "passive", "greedy", np.random.default_rng(2), 4)
    assert (out["effect"] == 0).all() and (out["victory_points"] == out["victory_points_passive"]).all()


def test_interventions_measure_every_policy_against_both_opponents():
    frame = entheos.interventions(entheos.Rules(players=4), pairs=3, seed=1)
    assert frame.height == len(fast.INTERVENTIONS) * len(fast.OPPONENTS)
    for row in frame.to_dicts():
        assert row["effect"] == pytest.approx(row["victory_points"] - row["victory_points_passive"])
        assert row["effect_low"] <= row["effect"] <= row["effect_high"] and row["pairs"] == 3
