"""Pig's parameters: the goal, and the players of the simulated hold-at-20 games."""

from __future__ import annotations

from dataclasses import dataclass

from nessus.rules import GameRules, Param, field

NAME = "pig"

GOAL = Param("goal", 100, 1, 100, "points needed to win")
PLAYERS = Param("players", 2, 2, 8, "players in the simulated hold-at-20 games")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (GOAL, PLAYERS)
    goal: int = field(GOAL)
    players: int = field(PLAYERS)
