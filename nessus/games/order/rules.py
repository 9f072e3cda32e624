"""The roll-off's parameters: how many players roll 2d6 for first place."""

from __future__ import annotations

from dataclasses import dataclass

from nessus.rules import GameRules, Param, field

NAME = "order"
PLAYERS = Param("players", 4, 2, 10, "number of players rolling for first place")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (PLAYERS,)
    players: int = field(PLAYERS)
