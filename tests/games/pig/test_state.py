"""Pig (and Le Sept fatal) as the game protocol: chance nodes with exact weights, bad faces refused,
a game drawn with a generator ends, the playable game is for two players."""

from fractions import Fraction

import numpy as np
import pytest

from nessus.game import CHANCE
from nessus.games import pig, sept


def test_game_is_the_protocol_state():
    g = pig.initial_state()
    rolling = g.apply("roll")
    assert rolling.current_player() == CHANCE and rolling.chance_outcomes() == [
        ((f,), Fraction(1, 6)) for f in range(1, 7)
    ]
    assert set(pig.policies()) == {"optimal", "hold_at_20"}
    assert g.first_hold() == pig.hold_boundary(0, 0)
    assert "first to 100" in g.observation(0)


def test_the_first_players_chance_and_its_accuracy():
    g = pig.initial_state()
    assert round(g.p_first(), 4) == 0.5306 and g.p_first() == float(pig.solution().starts[0])
    assert g.accuracy().startswith("≈: floats, not exact") and "of the exact values" in g.accuracy()


@pytest.mark.parametrize("die", [0, 7, 2.0, True, "3"])
def test_game_rejects_bad_faces(die):
    with pytest.raises(ValueError, match="die"):
        pig.initial_state().roll(die=die)


def test_game_with_a_generator_ends():
    rng = np.random.default_rng(2)
    g = pig.initial_state(pig.Rules(goal=20))
    policy = pig.HoldAtRolls(8)
    while not g.is_terminal():
        mine, theirs = g.scores[g.mover], g.scores[1 - g.mover]
        g = g.roll(rng) if g.turn_total == 0 or policy(mine, theirs, g.turn_total) else g.hold()
    assert g.scores[g.winner] >= 20


def test_the_playable_game_is_for_two_players():
    """`players` sets the simulated games; the playable state refuses it rather than ignore it."""
    with pytest.raises(ValueError, match="players must be 2 for the playable game .*got 3"):
        pig.initial_state(pig.Rules(players=3))
    with pytest.raises(ValueError, match="players must be 2"):
        sept.initial_state(sept.Rules(players=4))
    assert pig.initial_state(pig.Rules(players=2)).current_player() == 0
