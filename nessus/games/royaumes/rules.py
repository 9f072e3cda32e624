"""Les Royaumes' parameters: the fine for a roll outside the bank's kingdom, the players and the rounds."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from nessus.rules import GameRules, Param, field

NAME = "royaumes"
FINE = Param("fine", Fraction(1, 10), 0, 1, "fine for a roll outside the bank's kingdom, in stakes", kind=Fraction)
PLAYERS = Param("players", 4, 1, 10, "players against the bank (whole-game simulation)")
ROUNDS = Param("rounds", 20, 1, 1000, "rounds in a whole game (simulation)")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (FINE, PLAYERS, ROUNDS)
    fine: Fraction = field(FINE)
    players: int = field(PLAYERS)
    rounds: int = field(ROUNDS)
