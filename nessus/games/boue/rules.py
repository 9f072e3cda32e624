"""La Boue's rules: the faces that stick, the rounds, and the parameters (dice, players)."""

from __future__ import annotations

from dataclasses import dataclass

from nessus.rules import GameRules, Param, field

NAME = "boue"
STUCK = (2, 5)
"""The faces that stick in the mud."""
ROUNDS = 3
"""Rounds in a game: every player plays one turn a round."""

DICE = Param("dice", 5, 1, 10, "dice at the start of a turn")
PLAYERS = Param("players", 2, 2, 10, "players in a game (for the tie figure)")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (DICE, PLAYERS)
    dice: int = field(DICE)
    players: int = field(PLAYERS)
