"""Le Légit as the game protocol: one round, the players in seat order (`State`), each turn a
`TurnRecord`; the moves ROLL (a turn's first move), then KEEP or REROLL."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from typing import Protocol, cast

import numpy as np

from nessus import game
from nessus.dice import roll_faces, roll_outcomes
from nessus.games.legit.odds import TurnSolver, beat_turn, first_turn, remove_pairs
from nessus.games.legit.rules import Rules
from nessus.solver import Hint

ROLL, KEEP, REROLL = "roll", "keep", "reroll"
"""The moves: the first roll of a turn (its only move), then keep the total or reroll the dice left."""


class TurnGoal(Protocol):
    """What a turn may be played for, other than the round's own goal (`State.hint`): the
    objectives of `nessus.games.legit.policies` (`Mean`, `Chase`, `First`)."""

    def turn(self, dice: int, rerolls: int) -> TurnSolver:
        """The turn of `dice` dice and up to `rerolls` rerolls, solved for this objective."""
        ...


@dataclass(frozen=True)
class TurnRecord:
    """One player's turn in the round (a part of `State`, not a state to play): every roll so
    far (the dice as rolled, 7-pairs included), the most rerolls they may use (`cap`), whether
    they kept their total, and whether dice are on their way (rolled or rerolled: chance next)."""

    cap: int
    rolls: tuple[tuple[int, ...], ...] = ()
    kept: bool = False
    rolling: bool = False

    @property
    def left(self) -> tuple[int, ...] | None:
        """The dice left after removing the 7-pairs of the last roll (None before the first roll)."""
        return remove_pairs(self.rolls[-1]) if self.rolls else None

    @property
    def total(self) -> int:
        """The total of the dice left (the score once the turn is over)."""
        return sum(self.left or ())

    @property
    def used(self) -> int:
        """The rerolls used."""
        return max(len(self.rolls) - 1, 0)

    @property
    def rerolls_left(self) -> int:
        return self.cap - self.used

    @property
    def can_reroll(self) -> bool:
        """The player has a choice: dice to reroll and a reroll to do it."""
        return bool(self.rolls) and not (self.kept or self.rolling) and self.rerolls_left > 0 and bool(self.left)

    @property
    def over(self) -> bool:
        """Kept, or no choice left after a roll (no reroll left, or every die paired off)."""
        return bool(self.rolls) and not self.rolling and not self.can_reroll


@dataclass(frozen=True)
class State(game.State):
    """A round of Le Légit (the game protocol; one round is a whole game): the players take
    their turns in seat order, each a decision to roll (its only move), chance rolling the dice
    (sorted, exact weights), then "keep" or "reroll" while the player has a choice; a turn ends
    by itself when no reroll is left or every die is paired off. Seat 1's rerolls cap everyone
    else's. Returns: the win shares of the scores (a tie for the best shares the win).
    Perfect information: everybody sees every roll.

    `hint()` values each move for the player to move by the module's model: seat 1 their share of
    the win (`first_turn`), a later seat P(above) + P(equal)/2 against the best score so far
    (`beat_turn`); `hint(Mean())` and `hint(Chase(b))` (`policies`) value a turn played for other objectives.
    """

    rules: Rules = Rules()
    turns: tuple[TurnRecord, ...] = ()

    # -- the protocol --------------------------------------------------------------------------
    @property
    def _playing(self) -> TurnRecord | None:
        """The turn in play (started and not over), if any."""
        return self.turns[-1] if self.turns and not self.turns[-1].over else None

    def current_player(self) -> int:
        turn = self._playing
        if turn is not None:
            return game.CHANCE if turn.rolling else len(self.turns) - 1
        return game.TERMINAL if len(self.turns) == self.rules.players else len(self.turns)

    def legal_actions(self) -> list[game.Action]:
        turn = self._playing
        if turn is not None:
            return [] if turn.rolling else [KEEP, REROLL]
        return [] if len(self.turns) == self.rules.players else [ROLL]

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        turn = self._playing
        if turn is None or not turn.rolling:
            return []
        return roll_outcomes(len(turn.left) if turn.left is not None else self.rules.dice)

    def _apply(self, action: game.Action) -> State:
        if action == ROLL:
            return replace(self, turns=self.turns + (TurnRecord(self.cap(len(self.turns)), rolling=True),))
        turn = self.turns[-1]
        if action == KEEP:
            turn = replace(turn, kept=True)
        elif action == REROLL:
            turn = replace(turn, rolling=True)
        else:
            turn = replace(turn, rolls=turn.rolls + (cast(tuple[int, ...], action),), rolling=False)
        return replace(self, turns=self.turns[:-1] + (turn,))

    def returns(self) -> list[Fraction]:
        if not self.is_terminal():
            return [Fraction(0)] * self.rules.players
        return game.win_shares(self.scores)

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        r = self.rules
        lines = [
            f"Le Légit, {r.players} players, {r.dice} dice, up to {r.rerolls} rerolls (seat 1's rerolls cap the "
            "others'); "
            f"you are player {player + 1}."
        ]
        for seat in range(r.players):
            turn = self.turn_of(seat)
            if turn is None:
                lines.append(f"Player {seat + 1}: to play.")
                continue
            rolled = (
                "; ".join(
                    f"{' '.join(map(str, roll))} -> {' '.join(map(str, remove_pairs(roll))) or 'nothing'}"
                    for roll in turn.rolls
                )
                or "about to roll"
            )
            end = f"score {turn.total}" if turn.over else "rolling" if turn.rolling else f"total {turn.total}, deciding"
            lines.append(f"Player {seat + 1}: {rolled} ({turn.used} of {turn.cap} rerolls used); {end}.")
        mover = self.current_player()
        if mover >= 0:
            lines.append(f"Player {mover + 1} to move: {' or '.join(map(str, self.legal_actions()))}.")
        elif mover == game.TERMINAL:
            lines.append("The round is over.")
        return "\n".join(lines)

    def shape(self) -> game.Shape:
        r = self.rules
        return game.Shape(
            players=r.players,
            max_actions=2,
            max_chance_outcomes=comb(r.dice + 5, 5),
            max_length=r.players * (3 + 2 * r.rerolls),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    # -- the round ------------------------------------------------------------------------------
    def cap(self, seat: int) -> int:
        """The most rerolls `seat` may use: the rules' for seat 1, then as many as seat 1 used."""
        if seat == 0:
            return self.rules.rerolls
        if not self.turns or not self.turns[0].over:
            raise ValueError("the later players' cap is known once the first player's turn is over")
        return self.turns[0].used

    def turn_of(self, seat: int) -> TurnRecord | None:
        """`seat`'s turn (None before it starts)."""
        return self.turns[seat] if seat < len(self.turns) else None

    def seat_turn(self, seat: int) -> TurnRecord:
        """`seat`'s turn as played so far, or before its first roll (no roll, its cap)."""
        return self.turn_of(seat) or TurnRecord(self.cap(seat))

    def move_text(self, action: game.Action) -> str:
        """A move of the player to move, in words: "keep 12", "reroll the 4 dice left".

        >>> initial_state().roll(dice=(1, 2, 3, 3, 5, 6)).move_text(REROLL)
        'reroll the 2 dice left'
        """
        turn = self.turns[-1] if self.turns else TurnRecord(self.rules.rerolls)
        n = len(turn.left or ())
        return f"keep {turn.total}" if action == KEEP else f"reroll the {n} {'die' if n == 1 else 'dice'} left"

    @property
    def scores(self) -> list[int]:
        """The scores of the players whose turn is over, in seat order."""
        return [t.total for t in self.turns if t.over]

    @property
    def winners(self) -> list[int]:
        """The seats with the best score, once the round is over (else none)."""
        return [i for i, s in enumerate(self.scores) if s == max(self.scores)] if self.is_terminal() else []

    def result_text(self, you: int | None = None) -> str:
        """Who wins the round (or shares the win) with the best score; "" before its end.

        >>> state = initial_state(Rules(players=2)).roll(dice=(1, 2, 3, 3, 3, 5)).keep()
        >>> state.roll(dice=(2, 2, 2, 2, 2, 2)).result_text(you=0)
        'Player 2 wins with 12.'
        """
        if not self.is_terminal():
            return ""
        names = ["You" if seat == you else f"Player {seat + 1}" for seat in self.winners]
        if len(names) > 1:
            return f"{' and '.join(names)} share the win with {self.best_so_far} (a tie for the best score)."
        return f"{names[0]} win{'' if names == ['You'] else 's'} with {self.best_so_far}."

    @property
    def best_so_far(self) -> int:
        """The best score of the turns over (0 before any)."""
        return max(self.scores, default=0)

    def position(self) -> tuple:
        """The player to move's position in their solved turn (`TurnSolver`): ("start", cap, dice)
        before the first roll, else ("rolled", rerolls left, dice left, total)."""
        seat = self.current_player()
        if seat < 0:
            raise ValueError(self._no_decision("decision"))
        turn = self._playing
        if turn is None:
            return ("start", self.cap(seat), self.rules.dice)
        return ("rolled", turn.rerolls_left, len(turn.left or ()), turn.total)

    def solver(self) -> TurnSolver:
        """The solved turn of the round's goal for the player to move: seat 1 their share of the
        win, a later seat beating the best so far."""
        r, seat = self.rules, self.current_player()
        if seat == 0:
            return first_turn(r.dice, r.rerolls, r.players)
        return beat_turn(r.dice, self.cap(seat), self.best_so_far, Fraction(1, 2))

    def hint(self, objective: TurnGoal | None = None) -> Hint:
        """The exact value of each move for the player to move (see the class docstring): the
        turn's worth before its first roll ("roll" is the only move), then keep against reroll;
        for the round's goal, or the `objective` given (`Mean()`, `Chase(best)` of
        `nessus.games.legit.policies`)."""
        seat = self.current_player()
        if seat < 0:
            return super().hint()
        solved = self.solver() if objective is None else objective.turn(self.rules.dice, self.cap(seat))
        return solved.game.hint(self.position())

    # -- moves by name ------------------------------------------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, ...] | None = None) -> State:
        """The player to move rolls (the first roll, or a reroll of the dice left) and the dice
        fall: the given faces in any order, or drawn with `rng`."""
        state = self
        if not self.is_chance_node():
            moves = self.legal_actions()
            if ROLL not in moves and REROLL not in moves:
                raise ValueError("the round is over" if self.is_terminal() else "no choice to reroll")
            state = cast(State, self.apply(ROLL if ROLL in moves else REROLL))
        turn = state.turns[-1]
        n = len(turn.left) if turn.left is not None else self.rules.dice
        return state.apply(roll_faces(n, rng, dice))

    def keep(self) -> State:
        """The player to move keeps the total of the dice left."""
        if KEEP not in self.legal_actions():
            raise ValueError("roll first" if self.legal_actions() == [ROLL] else "no total to keep here")
        return cast(State, self.apply(KEEP))


def initial_state(rules: Rules | None = None) -> State:
    """The start of a round: player 1 to roll."""
    return State(rules or Rules())
