"""Le Sept fatal as the game protocol: two players, whole games, every round, the dice as
chance with exact weights (`core.TurnState`), hints by value iteration (`odds.solution`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import ClassVar

from nessus import game
from nessus import pushluck as core
from nessus.games.sept.odds import ROLL, TOLERANCE, solution
from nessus.games.sept.rules import Rules
from nessus.numbers import decimal_text
from nessus.solver import Hint

EXTRA_ROUNDS = 40
"""The practical bound on the extra rounds of `replay` (`State.shape`): a round is tied with
probability 0.01 to 0.03 under the named policies and uniform random play (measured; about
0.1 when both hold after one roll), so 40 more ties in a row are out of reach. Only play that
never holds ties for ever (0 to 0)."""


@dataclass(frozen=True)
class State(core.TurnState):
    """Two players at Le Sept fatal (the game protocol, `core.TurnState`): the turn number is
    0 for the first player's first turn, and from 2 * rounds on counts the extra rounds after a
    tie; `winner` is -1 for a tie under `half`.

    >>> state = initial_state(Rules(rounds=1)).roll(dice=(6, 6)).hold()
    >>> state.scores, state.mover, state.legal_actions()
    ((12, 0), 1, ['roll'])
    >>> state.roll(dice=(3, 4)).returns()
    [Fraction(1, 1), Fraction(0, 1)]
    """

    DICE: ClassVar[int] = 2
    LAW: ClassVar[core.RollLaw] = ROLL
    BUST_WORDS: ClassVar[str] = "a 7"
    rules: Rules = Rules()

    def busts(self, dice: core.Faces) -> bool:
        return sum(dice) == 7

    @property
    def duel_turn(self) -> int:
        """The solver's turn (`Duel`): the turn number, the extra rounds sharing the last two."""
        rounds = self.rules.rounds
        return self.turn if self.turn < 2 * rounds else 2 * rounds + self.mover

    @property
    def round(self) -> int:
        """The round being played (1, 2, ...; beyond `rounds`: an extra round)."""
        return self.turn // 2 + 1

    def _next_turn(self, scores: tuple[int, int], history: tuple[core.Played, ...]) -> State:
        nxt = self._after_turn(scores, history)
        if not (self.mover == 1 and self.turn >= 2 * self.rules.rounds - 1):
            return nxt
        if scores[0] != scores[1]:
            return replace(nxt, winner=int(scores[1] > scores[0]))
        return replace(nxt, winner=-1) if self.rules.ties == "half" else nxt

    def _win_hint(self) -> Hint:
        """The mover's winning chance after each legal action, both optimal afterwards (a tie
        counting half under `half`), by value iteration (floats). Off the solved grid (a lead
        beyond the margin, probability below 1e-13) the hint is the rule `Solution.rolls`
        plays there (the player ahead holds, the one behind rolls), 1 for its action and 0 for
        the other: method "heuristic"."""
        sol = solution(self.rules)
        d, t, lead, k = sol.duel, self.duel_turn, self.lead, self.turn_total
        c = d.context(t, lead) if -d.margin <= lead and lead + k <= d.margin else -1
        if c < 0:
            best = "roll" if k == 0 or sol.rolls(t, lead, k) else "hold"
            return self._hint({a: float(a == best) for a in self.legal_actions()}, "heuristic")
        values: dict[game.Action, float] = {"roll": float(sol.solved.q_roll[c, k])}
        if k:
            values["hold"] = float(sol.solved.q_hold[c, k])
        return self._hint(values)

    def first_hold(self) -> int:
        """The smallest turn total at which optimal play holds in this turn (`Solution.hold_boundary`)."""
        return solution(self.rules).hold_boundary(self.duel_turn, self.lead)

    def p_first(self) -> float:
        """P(the first player wins), both playing optimally (value iteration, floats)."""
        return solution(self.rules).p_first

    def accuracy(self) -> str:
        """How the chances of winning are found, and how accurate they are at this turn's start, in words."""
        sol = solution(self.rules)
        return (
            "≈: floats, not exact: value iteration until the largest change of a sweep is below "
            f"{decimal_text(TOLERANCE)}; leads beyond ±{sol.duel.margin} points are cut off: solving with "
            "every cut-off state lost, then won, brackets your chance at the start of this turn in an interval "
            f"of width {decimal_text(sol.bracket(self.duel_turn, self.lead))}."
        )

    def _stage(self) -> str:
        rounds = self.rules.rounds
        stage = f"round {self.round} of {rounds}" if self.round <= rounds else f"extra round {self.round - rounds}"
        ties = "a tie replays a round" if self.rules.ties == "replay" else "a tie counts half"
        return f"{stage}, the higher total wins ({ties})"

    def shape(self) -> game.Shape:
        """Two players, "roll"/"hold", the 21 rolls of 2d6. The game could go on for ever (a turn
        without a 7, ties after ties): `max_length` counts `core.MAX_ROLLS` rolls a turn and,
        under `replay`, `EXTRA_ROUNDS` extra rounds."""
        rounds = self.rules.rounds + (EXTRA_ROUNDS if self.rules.ties == "replay" else 0)
        return game.Shape(
            players=2,
            max_actions=2,
            max_chance_outcomes=21,
            max_length=2 * rounds * (2 * core.MAX_ROLLS + 1),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )


def initial_state(rules: Rules | None = None) -> State:
    """The start of a two-player game: no points, the first player to roll (`players` sets the
    simulated hold-at-N games only: `core.two_players`)."""
    return State(core.two_players(rules or Rules()))
