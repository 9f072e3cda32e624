"""Pig as the game protocol: two players, whole games to the goal, the die as chance with
exact weights (`core.TurnState`), hints by value iteration (`odds.solution`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import ClassVar

import numpy as np

from nessus import game
from nessus import pushluck as core
from nessus.games.pig.odds import ACCURACY, ROLL, TOLERANCE, solution
from nessus.games.pig.rules import Rules
from nessus.numbers import decimal_text
from nessus.solver import Hint

MAX_TURNS_PER_POINT = 4
"""The practical bound on a game's turns (`State.shape`): 4 per point of the goal (402 to
100). Under uniform random play a game to 100 lasts 35 turns on average (61 at most in 300
games, measured), under the named policies fewer; only play that (almost) never holds comes
near the bound."""


@dataclass(frozen=True)
class State(core.TurnState):
    """Two players at Pig (the game protocol, `core.TurnState`): a player wins the moment their
    score plus turn total reaches the goal (the turn ends "goal").

    >>> state = initial_state(Rules(goal=10)).roll(die=6).roll(die=4)
    >>> state.is_terminal(), state.scores, state.returns()
    (True, (10, 0), [Fraction(1, 1), Fraction(0, 1)])
    """

    DICE: ClassVar[int] = 1
    LAW: ClassVar[core.RollLaw] = ROLL
    BUST_WORDS: ClassVar[str] = "a 1"
    rules: Rules = Rules()

    @property
    def goal(self) -> int:
        return self.rules.goal

    def busts(self, dice: core.Faces) -> bool:
        return dice[0] == 1

    def roll(
        self, rng: np.random.Generator | None = None, dice: Sequence[int] | None = None, die: int | None = None
    ) -> State:
        """Roll the die (or take the given face, `die`, or `dice` = (face,)): the state after it."""
        if die is not None:
            if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
                raise ValueError(f"die must be an integer from 1 to 6, got {die!r}")
            dice = (die,)
        return super().roll(rng, dice)

    def _gain(self, rolls: tuple[core.Faces, ...], k: int) -> State:
        if self.scores[self.mover] + k >= self.goal:
            return replace(self._end_turn("goal", k, rolls), winner=self.mover)
        return super()._gain(rolls, k)

    def _next_turn(self, scores: tuple[int, int], history: tuple[core.Played, ...]) -> State:
        return self._after_turn(scores, history)

    @property
    def context(self) -> int:
        """The solver's context (`Race`): mover's score * goal + the other's."""
        return self.scores[self.mover] * self.goal + self.scores[1 - self.mover]

    def _win_hint(self) -> Hint:
        """P(the player to move wins) after each legal action, both playing optimally after it
        (value iteration, floats)."""
        s, k = solution(self.rules), self.turn_total
        values: dict[game.Action, float] = {"roll": float(s.q_roll[self.context, k])}
        if k:
            values["hold"] = float(s.q_hold[self.context, k])
        return self._hint(values)

    def first_hold(self) -> int:
        """The smallest turn total at which optimal play holds in this turn (`hold_boundary`)."""
        return core.hold_boundary(solution(self.rules), self.context)

    def p_first(self) -> float:
        """P(the first player wins), both playing optimally (value iteration, floats)."""
        return float(solution(self.rules).starts[0])

    def accuracy(self) -> str:
        """How the chances of winning are found, and how accurate they are, in words."""
        return (
            "≈: floats, not exact: value iteration until the largest change of a sweep is below "
            f"{decimal_text(TOLERANCE)}, within {decimal_text(ACCURACY)} of the exact values."
        )

    def _stage(self) -> str:
        return f"turn {self.turn + 1}, first to {self.goal} wins"

    def shape(self) -> game.Shape:
        """Two players, "roll"/"hold", the 6 faces. The game could go on for ever (turn after
        turn wiped by a 1): `max_length` counts `MAX_TURNS_PER_POINT` turns per point of the
        goal and `core.MAX_ROLLS` rolls a turn."""
        turns = MAX_TURNS_PER_POINT * self.goal + 2
        return game.Shape(
            players=2,
            max_actions=2,
            max_chance_outcomes=6,
            max_length=turns * (2 * core.MAX_ROLLS + 1),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )


def initial_state(rules: Rules | None = None) -> State:
    """The start of a two-player game: no points, the first player to roll (`players` sets the
    simulated hold-at-20 games only: `core.two_players`)."""
    return State(core.two_players(rules or Rules()))
