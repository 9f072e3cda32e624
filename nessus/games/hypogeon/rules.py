"""L'Hypogéon's parameters: the rule the players stand at, the players of a round, the points
that win a whole game, and seat 1's rule in whole games; the limit 21 and BUST, the total a
bust is recorded as."""

from __future__ import annotations

from dataclasses import dataclass

from nessus.rules import GameRules, Param, field

NAME = "hypogeon"
LIMIT = 21
BUST = 0

STAND_AT = Param("stand_at", 17, 2, LIMIT, "every player stands once the total is at least this")
PLAYERS = Param("players", 2, 2, 10, "players in a round")
TARGET = Param("target", 5, 1, 10, "points that win a whole game")
SEAT1 = Param(
    "seat1",
    "best",
    4,
    4,
    "seat 1's rule in whole games: 'best' = stand at best_stand_at, 'same' = stand at stand_at",
    kind=str,
    choices=("best", "same"),
)


@dataclass(frozen=True)
class Rules(GameRules):
    params = (STAND_AT, PLAYERS, TARGET, SEAT1)
    stand_at: int = field(STAND_AT)
    players: int = field(PLAYERS)
    target: int = field(TARGET)
    seat1: str = field(SEAT1)
