"""Le Légit's parameters: the rerolls (the first player's count caps the later players'), the
dice, the players of a round, and the targets of the P(beat target) policy and the human rule."""

from __future__ import annotations

from dataclasses import dataclass

from nessus.rules import GameRules, Param, field

NAME = "legit"

REROLLS = Param("rerolls", 3, 0, 3, "most rerolls (the first player's count caps the later players)")
DICE = Param("dice", 6, 1, 8, "dice rolled at the start")
PLAYERS = Param("players", 2, 2, 6, "players in a round (for the dilemma and the simulated rounds)")
TARGET = Param("target", 15, 0, 48, "score to beat strictly, for the P(beat target) policy")
REROLL_BELOW = Param(
    "reroll_below",
    8,
    0,
    48,
    "the human rule rerolls while the total is below this (8, the default, is the best single threshold)",
)


@dataclass(frozen=True)
class Rules(GameRules):
    params = (REROLLS, DICE, PLAYERS, TARGET, REROLL_BELOW)
    rerolls: int = field(REROLLS)
    dice: int = field(DICE)
    players: int = field(PLAYERS)
    target: int = field(TARGET)
    reroll_below: int = field(REROLL_BELOW)
