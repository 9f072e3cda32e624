"""Order of play: everyone rolls 2d6, the highest total starts; players tied for the highest
roll again among themselves until one is highest (RULES.md section 0).

The roll-off is a game without decisions (`State`, the game protocol): each player still tied
rolls 2d6 in turn, a chance node whose outcomes are the sorted pairs with exact weights.

>>> state = initial_state(Rules(players=2))
>>> len(state.chance_outcomes()), sum(p for _, p in state.chance_outcomes())
(21, Fraction(1, 1))
>>> end = state.apply((6, 6)).apply((1, 3))
>>> end.winner, end.history, end.returns()
(1, ({1: 12, 2: 4},), [Fraction(1, 1), Fraction(0, 1)])
>>> expected_rounds(Rules(players=2))
Fraction(648, 575)
"""

from nessus.game import Game
from nessus.games.order.fast import kernel, simulate
from nessus.games.order.odds import expected_rounds, p_unique_first_roll, report, rolloff, rounds, top_ties
from nessus.games.order.rules import NAME, PLAYERS, Rules
from nessus.games.order.state import State, initial_state, policies

__all__ = [
    "GAME",
    "NAME",
    "PLAYERS",
    "Rules",
    "State",
    "expected_rounds",
    "initial_state",
    "kernel",
    "p_unique_first_roll",
    "policies",
    "report",
    "rolloff",
    "rounds",
    "simulate",
    "top_ties",
]

GAME = Game(
    name=NAME,
    title="Order of play (2d6 roll-off)",
    summary="Who starts: everyone rolls 2d6, ties for the highest roll again.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="00-who-starts",
)
"""This game, as the registry, the command line and the gallery see it."""
