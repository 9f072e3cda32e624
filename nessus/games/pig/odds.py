"""Pig, exactly: the hold-at-20 turn, and optimal play to win by value iteration.

Optimal play maximises the chance of winning (Neller & Presser, "Optimal Play of the Dice
Game Pig", 2004): states (my score i, opponent's score j, turn total k), i + k < goal, about
505,000 for goal 100. Value iteration (`nessus.solver.value_iteration`, floats) runs layer by
layer on i + j from the highest down: holding moves to a higher layer, a 1 or a roll stays in
it. `p_first_player_wins_optimal` is P(the first player wins) when both play optimally, in
floats: sweeps stop when the largest change is below 1e-12, which puts the value well within
1e-9 of the limit (a sweep change of 1e-9 would leave errors up to 2e-8). Not exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from nessus import pushluck as core
from nessus.games.pig.rules import NAME, Rules
from nessus.report import Figure, Report

if TYPE_CHECKING:
    import polars as pl

ROLL = core.RollLaw(((2, 1), (3, 1), (4, 1), (5, 1), (6, 1)), 1)
TOLERANCE = 1e-12
ACCURACY = 1e-9  # measured: the 1e-12 solve is within 3e-11 of a 1e-14 one (tests/games/pig/test_odds.py)
HEURISTIC = 20
TABLES = ("start_values",)


# -- the game for the solver ---------------------------------------------------------------------
@dataclass(frozen=True)
class Race:
    """Pig to `goal` as a `TurnGame`: context c = i * goal + j (mover's score i, opponent's j)."""

    goal: int
    roll: core.RollLaw = ROLL

    @property
    def sizes(self) -> np.ndarray:
        i = np.arange(self.goal * self.goal) // self.goal
        return self.goal - i

    def context(self, i: np.ndarray | int, j: np.ndarray | int) -> np.ndarray | int:
        return i * self.goal + j

    def hold(self, c: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        i, j = np.divmod(c, self.goal)
        return j * self.goal + i + k, np.zeros(c.shape)

    def bust(self, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        i, j = np.divmod(c, self.goal)
        return j * self.goal + i, np.zeros(c.shape)

    def overflow(self, c: np.ndarray, total: np.ndarray) -> np.ndarray:
        return np.ones(np.broadcast(c, total).shape)  # score + turn total reach the goal: a win

    def blocks(self) -> list[np.ndarray]:
        """State indices by score sum i + j, highest first (Gauss-Seidel by layers)."""
        ctx, _ = core.states(self)
        layer = ctx // self.goal + ctx % self.goal
        order = np.argsort(-layer, kind="stable")
        cuts = np.flatnonzero(np.diff(layer[order])) + 1
        return np.split(order, cuts)


@cache
def _solve(goal: int) -> core.Solved:
    race = Race(goal)
    return core.solve(race, race.blocks(), TOLERANCE)


def solution(rules: Rules | None = None) -> core.Solved:
    """Optimal play for these rules: from the stored table for the default rules when there is
    one (`data/pig-start_values.parquet`, written by `nessus data rebuild`), else solved now (memoised)."""
    rules = rules or Rules()
    stored = _stored()
    if stored is not None and rules.goal == Rules().goal and stored.starts.size == rules.goal**2:
        return stored
    return _solve(rules.goal)


@cache
def _stored() -> core.Solved | None:
    frames = core.stored_frames(NAME, TABLES)
    return from_tables(frames) if frames is not None else None


def tables(rules: Rules | None = None) -> dict[str, pl.DataFrame]:
    """{"start_values": i, j, p_win}: P(the player to move wins) at the start of their turn
    with score i against j, optimal play by both, freshly solved. Every other value (and the
    policy) follows from these by one backward pass over the turn total (`from_tables`)."""
    import polars as pl

    goal = (rules or Rules()).goal
    s = _solve(goal)
    c = np.arange(goal * goal)
    return {
        "start_values": pl.DataFrame(
            {
                "goal": np.full(c.size, goal, dtype=np.int16),
                "i": (c // goal).astype(np.int16),
                "j": (c % goal).astype(np.int16),
                "p_win": s.starts,
            }
        )
    }


def from_tables(frames: dict[str, pl.DataFrame]) -> core.Solved:
    """The solved game rebuilt from `tables()` output (stored or fresh)."""
    f = frames["start_values"].sort(["i", "j"])
    goal = int(f["goal"][0])
    if f.height != goal * goal:
        raise ValueError(f"start_values must have goal^2 = {goal * goal} rows, got {f.height}")
    return core.from_starts(Race(goal), f["p_win"].to_numpy(), tolerance=TOLERANCE)


def hold_at_20_turn_mean() -> Fraction:
    """E[one turn's score] (points) holding at 20, ignoring the goal: exact."""
    return core.hold_at_mean(ROLL, HEURISTIC)


def points_hint(k: int) -> dict[str, Fraction]:
    """One turn played for points (the goal ignored): the exact expected turn score (points)
    after rolling and after holding at turn total k, playing for points afterwards
    (`core.points_values`)."""
    return core.points_values(ROLL, k)


def hold_boundary(i: int, j: int, rules: Rules | None = None) -> int:
    """The smallest turn total k >= 1 at which optimal play holds with score i against j
    (value iteration); goal - i when it rolls on until the goal."""
    goal = (rules or Rules()).goal
    for name, v in (("i", i), ("j", j)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < goal:
            raise ValueError(f"{name} must be a score from 0 to {goal - 1}, got {v!r}")
    return core.hold_boundary(solution(rules), i * goal + j)


def report(rules: Rules | None = None) -> Report:
    """Optimal winning chance of the first player (value iteration) and the hold-at-20 turn."""
    rules = rules or Rules()
    s = solution(rules)
    return Report(
        NAME,
        rules.as_dict(),
        {
            "p_first_player_wins_optimal": Figure.approx(
                s.starts[0],
                "P(the first player wins), both optimal; floats: value "
                f"iteration until the largest change of a sweep < {TOLERANCE:g}, within "
                f"{ACCURACY:g} of the limit (tests); not exact",
            ),
            "hold_at_20_turn_mean": Figure.of(
                hold_at_20_turn_mean(), "expected score of one turn holding at 20 (no goal)"
            ),
        },
    )
