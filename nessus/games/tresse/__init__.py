"""La Tresse: seat 1 holds the dice. On a turn the player throws every die in hand: each 1 goes
to the centre (out of play), each 2 to the left neighbour, each 5 to the right neighbour, and
the rest (3, 4, 6) are thrown again until the hand is empty; then the next player to the left
who holds dice plays with all of them. The player who puts the last die into the centre wins
(RULES.md section 4). There is no decision: every seat's chance is exact (`odds`).

>>> from nessus.games import tresse
>>> rules = tresse.Rules(players=2, dice=1)
>>> tresse.win_chances(rules)[0].exact
Fraction(3, 5)
>>> tresse.initial_state(rules).apply((1,)).returns()
[Fraction(1, 1), Fraction(0, 1)]
"""

from __future__ import annotations

from nessus.game import Game
from nessus.games.tresse.fast import games_kernel, simulate, throw_table
from nessus.games.tresse.odds import (
    EXACT_UNKNOWNS,
    chances_from,
    expected_throws,
    expected_turns,
    next_turns,
    positions,
    report,
    throws_left,
    turn_split,
    turn_throws,
    win_chances,
)
from nessus.games.tresse.policies import policies
from nessus.games.tresse.rules import CENTRE, DICE, LEFT, NAME, PLAYERS, RIGHT, Position, Rules, start
from nessus.games.tresse.state import State, initial_state

__all__ = [
    "CENTRE",
    "DICE",
    "EXACT_UNKNOWNS",
    "GAME",
    "LEFT",
    "NAME",
    "PLAYERS",
    "RIGHT",
    "Position",
    "Rules",
    "State",
    "chances_from",
    "expected_throws",
    "expected_turns",
    "games_kernel",
    "initial_state",
    "next_turns",
    "policies",
    "positions",
    "report",
    "simulate",
    "start",
    "throw_table",
    "throws_left",
    "turn_split",
    "turn_throws",
    "win_chances",
]

GAME = Game(
    name=NAME,
    title="La Tresse",
    summary="5d6 passed around: 1s to the centre, 2s left, 5s right; the last die into the centre wins.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="06-la-tresse",
    dashboard="la-tresse.ipynb",
    pitch=(
        "Pass five dice round the table throw by throw, with every seat's exact chance of winning from the "
        "dice as they lie."
    ),
)
"""This game, as the registry, the command line and the gallery see it."""
