"""Les Trois: roll 5d6; after each roll set aside at least one die (set-aside dice are final)
and roll the rest, until every die is set aside. Score = the sum of the dice set aside, every 3
counting 0; lowest wins; five 6s "shoot the moon" and win at once (RULES.md section 5). Every
choice is valued exactly for what the turn is played for (its objective: `LeastScore`,
`AtMost`, `Moon`, `Win`).

>>> from nessus.games import trois
>>> state = trois.initial_state().roll(dice=(1, 4, 3, 6, 3))
>>> print(state.hint().best)
set aside 3 3
>>> trois.Moon(5).turn().value() == trois.AtMost(5, 0).turn().value()  # five 6s, five 3s: one chase
True
"""

from __future__ import annotations

from nessus.game import Game
from nessus.games.trois.fast import action_table, draw_turns, games, kernel, score_table, simulate, turns
from nessus.games.trois.odds import (
    START,
    Turn,
    heuristic,
    heuristic_aside,
    heuristic_distribution,
    mean_turn,
    moon_chances,
    moon_turn,
    optimal_mean,
    report,
    score_distribution,
    target_turn,
    win_turn,
)
from nessus.games.trois.policies import (
    MACHINES,
    TARGETED,
    AtMost,
    LeastScore,
    Moon,
    TurnObjective,
    Win,
    distribution,
    machine_policies,
    objectives,
    policies,
)
from nessus.games.trois.rules import DICE, NAME, PLAYERS, ROUNDS, TARGET, Aside, Rules, as_aside, score, set_asides
from nessus.games.trois.state import TIE_BREAKS, Finished, State, initial_state

__all__ = [
    "DICE",
    "GAME",
    "MACHINES",
    "NAME",
    "PLAYERS",
    "ROUNDS",
    "START",
    "TARGET",
    "TARGETED",
    "TIE_BREAKS",
    "Aside",
    "AtMost",
    "Finished",
    "LeastScore",
    "Moon",
    "Rules",
    "State",
    "Turn",
    "TurnObjective",
    "Win",
    "action_table",
    "as_aside",
    "distribution",
    "draw_turns",
    "games",
    "heuristic",
    "heuristic_aside",
    "heuristic_distribution",
    "initial_state",
    "kernel",
    "machine_policies",
    "mean_turn",
    "moon_chances",
    "moon_turn",
    "objectives",
    "optimal_mean",
    "policies",
    "report",
    "score",
    "score_distribution",
    "score_table",
    "set_asides",
    "simulate",
    "target_turn",
    "turns",
    "win_turn",
]

GAME = Game(
    name=NAME,
    title="Les Trois",
    summary="Set aside at least one die per roll; 3s count 0; lowest total wins.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="07-les-trois",
    dashboard="les-trois.ipynb",
    pitch=(
        "Set aside at least one die per roll, lowest total wins: every choice's exact value, alone or against"
        " the machine, and your chance of the moon."
    ),
)
"""This game, as the registry, the command line and the gallery see it."""
