"""Le Sept fatal's parameters: the hold-at-N of one turn, the rounds of a game, how a tie after
the last round is settled, and the players of the simulated hold-at-N games.

Ties (`ties`):

- `replay` (default, as Les Trois settles ties): one more round, first player first, as often
  as needed until the totals differ;
- `half`: the tie counts half a win for each.
"""

from __future__ import annotations

from dataclasses import dataclass

from nessus.rules import GameRules, Param, field

NAME = "sept"

HOLD = Param("hold", 20, 1, 200, "hold-at-N: roll while the turn total is below N")
ROUNDS = Param("rounds", 3, 1, 5, "rounds in a game (one turn per player each)")
TIES = Param(
    "ties",
    "replay",
    4,
    6,
    "a tie after the last round: replay one more round, or half a win each",
    kind=str,
    choices=("replay", "half"),
)
PLAYERS = Param("players", 2, 2, 6, "players in the simulated hold-at-N games")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (HOLD, ROUNDS, TIES, PLAYERS)
    hold: int = field(HOLD)
    rounds: int = field(ROUNDS)
    ties: str = field(TIES)
    players: int = field(PLAYERS)
