"""Le Naute's rules: the dice, the order of ship, captain and crew, the parameters (expeditions,
players, the cargo rule), and setting aside a roll's ship, captain and crew."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from nessus.dice import Roll
from nessus.rules import GameRules, Param, field

NAME = "naute"
DICE, ROLLS, SIDES = 5, 3, 6
SHIP, CAPTAIN, CREW = 6, 5, 4
CREWS = (SHIP, CAPTAIN, CREW)
CARGO_DICE = 2
TOP = 2 * SIDES  # the highest cargo

EXPEDITIONS = Param("expeditions", 3, 1, 6, "expeditions (rounds) in a game")
PLAYERS = Param("players", 4, 2, 10, "players in a whole game (simulated)")
CARGO = Param(
    "cargo_holds",
    "sticky",
    1,
    1,
    "cargo rerolls: sticky = keep dice one at a time for good, free = any cargo die each roll, both = both or none",
    kind=str,
    choices=("sticky", "free", "both"),
)


@dataclass(frozen=True)
class Rules(GameRules):
    params = (EXPEDITIONS, PLAYERS, CARGO)
    expeditions: int = field(EXPEDITIONS)
    players: int = field(PLAYERS)
    cargo_holds: str = field(CARGO)


def boarding(aboard: int, roll: Sequence[int]) -> tuple[int, list[int]]:
    """After a hunting roll: how many of ship, captain, crew are aboard, and the other dice in
    the order rolled.

    >>> boarding(1, [4, 5, 2, 4])
    (3, [2, 4])
    """
    rest = list(roll)
    while aboard < 3 and CREWS[aboard] in rest:
        rest.remove(CREWS[aboard])
        aboard += 1
    return aboard, rest


def set_aside(aboard: int, roll: Sequence[int]) -> tuple[int, Roll]:
    """After a hunting roll: how many of ship, captain, crew are aboard, and the cargo dice
    (sorted) if all three are."""
    aboard, rest = boarding(aboard, roll)
    return aboard, tuple(sorted(rest)) if aboard == 3 else ()
