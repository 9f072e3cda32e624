"""Le Sept fatal: roll two dice as often as you like, adding their total to the turn total; a
roll totalling 7 wipes the turn total and ends the turn, holding banks it. Two players, three
rounds of one turn each, the higher total wins (RULES.md section 6). For points alone, hold at
35; to win, optimal play (value iteration) holds earlier when ahead and later when behind.

>>> from nessus.games import sept
>>> sept.best_hold()[0], sept.hold_mean(2)
(35, Fraction(35, 6))
>>> state = sept.initial_state(sept.Rules(rounds=1)).roll(dice=(6, 6)).hold()
>>> state.scores, state.mover, state.legal_actions()
((12, 0), 1, ['roll'])
>>> state.roll(dice=(3, 4)).returns()
[Fraction(1, 1), Fraction(0, 1)]
>>> round(sept.solution().p_first, 4)
0.3817
"""

from __future__ import annotations

from nessus.game import Game
from nessus.games.sept.fast import duel_kernel, duel_turns, hold_games, hold_turns, sampler, simulate
from nessus.games.sept.odds import (
    ROLL,
    STORED_ROUNDS,
    TOLERANCE,
    Duel,
    Solution,
    best_hold,
    from_tables,
    hold_mean,
    margin,
    points_hint,
    report,
    solution,
    table_name,
    tables,
    turn_distribution,
)
from nessus.games.sept.policies import first_holds, optimal_policy, policies
from nessus.games.sept.rules import HOLD, NAME, PLAYERS, ROUNDS, TIES, Rules
from nessus.games.sept.state import EXTRA_ROUNDS, State, initial_state
from nessus.pushluck import Points, Win

__all__ = [
    "EXTRA_ROUNDS",
    "GAME",
    "HOLD",
    "NAME",
    "PLAYERS",
    "ROLL",
    "ROUNDS",
    "STORED_ROUNDS",
    "TIES",
    "TOLERANCE",
    "Duel",
    "Points",
    "Rules",
    "Solution",
    "State",
    "Win",
    "best_hold",
    "duel_kernel",
    "duel_turns",
    "first_holds",
    "from_tables",
    "hold_games",
    "hold_mean",
    "hold_turns",
    "initial_state",
    "margin",
    "optimal_policy",
    "points_hint",
    "policies",
    "report",
    "sampler",
    "simulate",
    "solution",
    "table_name",
    "tables",
    "turn_distribution",
]

GAME = Game(
    name=NAME,
    title="Le Sept fatal",
    summary="Roll 2d6 until you hold; a 7 wipes the turn: best hold and optimal 3-round play.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="08-le-sept-fatal",
    dashboard="le-sept-fatal.ipynb",
    pitch=(
        "Push your luck with two dice (a 7 wipes the turn) or Pig's one die: one turn for points with exact "
        "odds, or a game against the machine with your chance of winning."
    ),
    page_title="Le Sept fatal (and Pig)",
    tables=tables,
)
"""This game, as the registry, the command line and the gallery see it."""
