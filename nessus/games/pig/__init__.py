"""Pig: roll one die as often as you like, adding the faces to the turn total; a 1 wipes the
turn total and ends the turn, holding banks it. The first to reach `goal` points (100) wins the
moment their score plus turn total reaches it (RULES.md section 6, "ordinary Pig"). Optimal
play to win is found by value iteration (Neller & Presser: the first player wins 0.5306).

>>> from nessus.games import pig
>>> state = pig.initial_state(pig.Rules(goal=10)).roll(die=6).roll(die=4)
>>> state.is_terminal(), state.scores, state.returns()
(True, (10, 0), [Fraction(1, 1), Fraction(0, 1)])
>>> pig.hold_boundary(0, 0)  # at 0 to 0, optimal play holds from a turn total of 21
21
>>> round(float(pig.solution().starts[0]), 4)
0.5306
"""

from __future__ import annotations

from nessus.game import Game
from nessus.games.pig.fast import (
    HoldAtRolls,
    OptimalRolls,
    game_kernel,
    optimal_rolls,
    play_games,
    play_turns,
    samplers,
    simulate,
    turn_scores,
)
from nessus.games.pig.odds import (
    ACCURACY,
    HEURISTIC,
    ROLL,
    TOLERANCE,
    Race,
    from_tables,
    hold_at_20_turn_mean,
    hold_boundary,
    points_hint,
    report,
    solution,
    tables,
)
from nessus.games.pig.policies import first_holds, optimal_policy, policies
from nessus.games.pig.rules import GOAL, NAME, PLAYERS, Rules
from nessus.games.pig.state import MAX_TURNS_PER_POINT, State, initial_state
from nessus.pushluck import Points, Win

__all__ = [
    "ACCURACY",
    "GAME",
    "GOAL",
    "HEURISTIC",
    "MAX_TURNS_PER_POINT",
    "NAME",
    "PLAYERS",
    "ROLL",
    "TOLERANCE",
    "HoldAtRolls",
    "OptimalRolls",
    "Points",
    "Race",
    "Rules",
    "State",
    "Win",
    "first_holds",
    "from_tables",
    "game_kernel",
    "hold_at_20_turn_mean",
    "hold_boundary",
    "initial_state",
    "optimal_policy",
    "optimal_rolls",
    "play_games",
    "play_turns",
    "points_hint",
    "policies",
    "report",
    "samplers",
    "simulate",
    "solution",
    "tables",
    "turn_scores",
]

GAME = Game(
    name=NAME,
    title="Pig",
    summary="One die, a 1 wipes the turn, first to 100: optimal play by value iteration.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="08-le-sept-fatal",
    dashboard="le-sept-fatal.ipynb",
    tables=tables,
)
"""This game, as the registry, the command line and the gallery see it."""
