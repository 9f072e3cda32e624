"""Le Palais' parameters: sticky holds, the tie-break variant, and the players of a whole game."""

from __future__ import annotations

from dataclasses import dataclass

from nessus.rules import GameRules, Param, field

NAME = "palais"

STICKY = Param("sticky_holds", False, False, True, "set-aside dice stay aside (may not be rerolled later)", kind=bool)
TIE_BREAK = Param(
    "tie_break",
    "A",
    1,
    1,
    "equal hands: A = higher dice win, B = tied players roll 5d6 once",
    kind=str,
    choices=("A", "B"),
)
PLAYERS = Param("players", 4, 2, 10, "players in a whole game (simulated)")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (STICKY, TIE_BREAK, PLAYERS)
    sticky_holds: bool = field(STICKY)
    tie_break: str = field(TIE_BREAK)
    players: int = field(PLAYERS)
