"""La Tresse's rules: seat 1 holds the dice; each 1 thrown goes to the centre, each 2 to the left
neighbour, each 5 to the right one, the rest are thrown again; whoever puts the last die into the
centre wins (RULES.md section 4). The parameters: players and dice."""

from __future__ import annotations

from dataclasses import dataclass

from nessus.rules import GameRules, Param, field

NAME = "tresse"
CENTRE, LEFT, RIGHT = 1, 2, 5
"""The faces that leave the hand: to the centre, to the left neighbour, to the right one."""

Position = tuple[int, ...]
"""Dice held per seat, counted to the left from the player about to throw (offset 0)."""

PLAYERS = Param("players", 4, 2, 10, "players around the table")
DICE = Param("dice", 5, 1, 6, "dice in play, all in seat 1's hand at the start")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (PLAYERS, DICE)
    players: int = field(PLAYERS)
    dice: int = field(DICE)


def start(rules: Rules) -> Position:
    """Seat 1 about to throw with every die."""
    return (rules.dice,) + (0,) * (rules.players - 1)
