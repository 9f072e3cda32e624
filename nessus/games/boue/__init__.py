"""La Boue (Stuck in the Mud): roll the dice; a roll with no 2 and no 5 scores its total and
the same dice roll again; otherwise it scores nothing and the dice showing 2 or 5 are stuck.
The turn ends when every die is stuck. A game is 3 rounds; highest total wins (RULES.md s. 8).

The turn is an absorbing chain on the number of free dice whose score has unbounded support;
`turn_distribution` gives every P(score = s) exactly and the exact mass beyond the bound.

A whole game (`State`, the game protocol) has no decisions: every roll is a chance node, the
free dice a sorted multiset with its exact weight. One die, two players:

>>> state = initial_state(Rules(dice=1))
>>> len(state.chance_outcomes()), state.apply((6,)).scores
(6, (6, 0))
>>> state.apply((6,)).apply((2,)).turn_over   # a 2 sticks: the turn is over
True
>>> turn_chain(1).mean(1)
Fraction(7, 1)
"""

from nessus.game import Game
from nessus.games.boue.fast import game_kernel, simulate, turn_kernel, turn_scores
from nessus.games.boue.odds import (
    TAIL,
    game_chain,
    game_total_distribution,
    quantile,
    report,
    stuck_count,
    tie_for_first,
    turn_chain,
    turn_distribution,
)
from nessus.games.boue.rules import DICE, NAME, PLAYERS, ROUNDS, STUCK, Rules
from nessus.games.boue.state import State, initial_state, policies

__all__ = [
    "DICE",
    "GAME",
    "NAME",
    "PLAYERS",
    "ROUNDS",
    "STUCK",
    "TAIL",
    "Rules",
    "State",
    "game_chain",
    "game_kernel",
    "game_total_distribution",
    "initial_state",
    "policies",
    "quantile",
    "report",
    "simulate",
    "stuck_count",
    "tie_for_first",
    "turn_chain",
    "turn_distribution",
    "turn_kernel",
    "turn_scores",
]

GAME = Game(
    name=NAME,
    title="La Boue",
    summary="Stuck in the Mud: every 2 or 5 sticks; score the rolls with none.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="02-la-boue",
    dashboard="la-boue.ipynb",
    pitch="Play a turn of Stuck in the Mud die by die while simulated turns fill in the exact distribution.",
)
"""This game, as the registry, the command line and the gallery see it."""
