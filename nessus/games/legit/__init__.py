"""Le Légit: roll 6d6 and remove every pair of dice totalling 7 (1-6, 2-5, 3-4: min(#a, #b)
pairs of each); then keep the total of the dice left, or reroll all of them (removing 7-pairs
again), at most `rerolls` times. No dice left scores 0. Later players in the round may not
reroll more times than the first player did; the highest score wins (RULES.md section 9).

The parts: `rules` (the parameters), `odds` (exact play by expectimax and the first player's
dilemma, `report`, `tables`), `state` (one round as the game protocol), `policies` (the
objectives a turn is played for and the named policies), `fast` (Monte Carlo, `simulate`),
`page` and `views` (the dashboard; `views` draws the roll, the hint, the charts).

>>> from nessus.games import legit
>>> state = legit.initial_state(legit.Rules(players=2))
>>> state.legal_actions(), state.apply(legit.ROLL).is_chance_node()
(['roll'], True)
>>> state = state.apply(legit.ROLL).apply((1, 2, 3, 4, 6, 6))  # 1-6 and 3-4 are 7-pairs
>>> state.turns[0].left, state.legal_actions(), legit.Mean().hint(state).best
((2, 6), ['keep', 'reroll'], 'keep')
>>> state.keep().apply(legit.ROLL).apply((1, 2, 3, 4, 5, 6)).returns()  # player 2: capped at 0 rerolls, scores 0
[Fraction(1, 1), Fraction(0, 1)]
"""

from nessus.game import Game
from nessus.games.legit.fast import rounds, rounds_by_dice, simulate
from nessus.games.legit.odds import (
    PAIRS,
    TurnSolver,
    beat_turn,
    dilemma,
    first_share,
    first_stops,
    first_turn,
    later_odds,
    mean_turn,
    optimal_mean,
    outcome,
    remove_pairs,
    report,
    reroll_below,
    score_distribution,
    share,
    tables,
)
from nessus.games.legit.policies import Chase, First, Goal, Mean, optimal, policies
from nessus.games.legit.rules import DICE, NAME, PLAYERS, REROLL_BELOW, REROLLS, TARGET, Rules
from nessus.games.legit.state import KEEP, REROLL, ROLL, State, TurnRecord, initial_state

__all__ = [
    "DICE",
    "GAME",
    "KEEP",
    "NAME",
    "PAIRS",
    "PLAYERS",
    "REROLL",
    "REROLLS",
    "REROLL_BELOW",
    "ROLL",
    "TARGET",
    "Chase",
    "First",
    "Goal",
    "Mean",
    "Rules",
    "State",
    "TurnRecord",
    "TurnSolver",
    "beat_turn",
    "dilemma",
    "first_share",
    "first_stops",
    "first_turn",
    "initial_state",
    "later_odds",
    "mean_turn",
    "optimal",
    "optimal_mean",
    "outcome",
    "policies",
    "remove_pairs",
    "report",
    "reroll_below",
    "rounds",
    "rounds_by_dice",
    "score_distribution",
    "share",
    "simulate",
    "tables",
]

GAME = Game(
    name=NAME,
    title="Le Légit",
    summary="Remove the 7-pairs, keep the rest or reroll it; the first player caps the rerolls.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="10-le-legit",
    dashboard="le-legit.ipynb",
    pitch=(
        "Remove the 7-pairs, keep or reroll, alone or against the machine, with each choice's exact value and"
        " the first player's dilemma."
    ),
    tables=tables,
)
"""This game, as the registry, the command line and the gallery see it."""
