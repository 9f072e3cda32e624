"""Le Palais as the game protocol (`nessus.game`): a whole game, every seat's turn in order,
each roll a chance node over the sorted dice with exact weights; equal best hands share the
win (1/k each: the roll-off's odds).

A turn's solver *node* is `(left, kept, rolled)`: the rolls still allowed, the dice set aside,
the dice just rolled (`(3, (), ())` before the first roll; `left = 0` once play is over). An
*action* is `"roll"` (the first roll), `"stop"`, or the dice to set aside (a `Hold`) while the
others are rolled again. With `sticky_holds` the set-aside dice stay aside, so a hold must
contain `kept`; without it (the default) any dice of the hand may be held.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

import numpy as np

from nessus import game as protocol
from nessus.dice import Roll, roll_faces, roll_outcomes, rolls
from nessus.games.palais.hands import NAMES, category, hand_text, strongest
from nessus.games.palais.keep import DICE, ROLLS, Hold, Node, Objective, game, hold_options
from nessus.games.palais.policies import Goal, seat_objective
from nessus.games.palais.rules import Rules
from nessus.solver import Expectimax, Hint


@cache
def _game(objective: Objective, sticky: bool) -> Expectimax:
    return game(objective, sticky)


@dataclass(frozen=True)
class State(protocol.State):
    """A whole game of Le Palais (the game protocol): the seats play in order, each one turn of
    up to three rolls; the best hand wins, equal best hands sharing the win (the roll-off's
    odds). `hands` and `rolls_made` are the finished seats' hands and rolls; the turn of the
    seat to play has `left` rolls allowed, the dice `kept` aside, the dice `rolled`, every roll
    of the turn in `history`, and `rolling` is True while chance rolls the dice not kept.

    Decisions: "roll" (the first roll of a turn), then "stop" or a `Hold`; a turn ends after
    its third roll or a stop.
    """

    rules: Rules
    hands: tuple[Roll, ...] = ()
    rolls_made: tuple[int, ...] = ()
    left: int = ROLLS
    kept: Roll = ()
    rolled: Roll = ()
    history: tuple[Roll, ...] = ()
    rolling: bool = False

    # -- where the game stands -------------------------------------------------------------------
    @property
    def seat(self) -> int:
        """The seat whose turn it is (`players` once the game is over)."""
        return len(self.hands)

    @property
    def _over(self) -> bool:
        """Every seat has played."""
        return self.seat >= self.rules.players

    def turn_over(self, seat: int) -> bool:
        """Whether `seat` has played its turn."""
        return self.seat > seat

    @property
    def hand(self) -> Roll:
        """The five dice (sorted) of the turn being played, once rolled."""
        if not self.rolled:
            raise ValueError("no hand yet: roll first")
        return tuple(sorted(self.kept + self.rolled))

    @property
    def category(self) -> str:
        """The category of the turn's hand."""
        return category(self.hand)

    @property
    def target(self) -> Roll | None:
        """The strongest hand of the seats that have played (None for the opener)."""
        if not self.hands:
            return None
        return self.hands[strongest(self.hands, self.rules.tie_break)[0]]

    @property
    def node(self) -> Node:
        """The solver's state of the turn being played (at a decision)."""
        if self.rules.sticky_holds or not self.rolled:
            return (self.left, self.kept, self.rolled)
        return (self.left, (), self.hand)

    def objective(self) -> Goal:
        """What the seat to play maximises (`policies.seat_objective`): P(beating the best hand
        so far), a tie counting half, or for the opener P(no later player beats the hand)."""
        return seat_objective(self)

    def winners(self) -> list[int]:
        """The seats with the strongest hand once every seat has played (more than one: a roll-off)."""
        return strongest(self.hands, self.rules.tie_break) if self._over else []

    def roll_off(self, rng: np.random.Generator) -> int:
        """The winner of a finished game: the strongest hand, or one drawn at random among equal ones."""
        top = self.winners()
        return top[0] if len(top) == 1 else int(rng.choice(top))

    def seat_turn(self, seat: int) -> tuple[bool, Roll, int]:
        """`seat`'s turn as it stands: over or not, its hand (() before its first roll), the rolls made."""
        if self.turn_over(seat):
            return True, self.hands[seat], self.rolls_made[seat]
        return False, (self.hand if self.rolled else ()), len(self.history)

    def chosen(self, held: Roll) -> protocol.Action:
        """The move that holding the dice `held` means: the first roll, stop (all five held), or the hold."""
        if not self.rolled:
            return "roll"
        return "stop" if len(held) == DICE else Hold(held)

    def result_text(self, winner: int, you: int | None = None) -> str:
        """The game's end in words: `winner` (the strongest hand, or the one a roll-off picked among
        equal ones) wins with its hand.

        >>> end = initial_state(Rules(players=2)).roll(dice=(6, 6, 6, 6, 2)).stop().roll(dice=(1, 1, 2, 3, 5))
        >>> end.stop().result_text(0, you=1)
        'Player 1 wins with Tour (6 6 6 6 2).'
        """
        name = ["You" if seat == you else f"Player {seat + 1}" for seat in range(self.rules.players)]
        top = self.winners()
        rolloff = f"{' and '.join(name[i] for i in top)} tie; a roll-off picks one at random: " if len(top) > 1 else ""
        hand = self.hands[winner]
        verb = "win" if winner == you else "wins"
        return f"{rolloff}{name[winner]} {verb} with {NAMES[category(hand)]} ({hand_text(hand)})."

    # -- the protocol ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._over:
            return protocol.TERMINAL
        return protocol.CHANCE if self.rolling else self.seat

    def legal_actions(self) -> list[protocol.Action]:
        if self._over or self.rolling:
            return []
        if not self.rolled:
            return ["roll"]
        return ["stop", *(Hold(h) for h in hold_options(self.kept, self.rolled, self.rules.sticky_holds))]

    def chance_outcomes(self) -> list[tuple[protocol.Action, Fraction]]:
        if self._over or not self.rolling:
            return []
        return roll_outcomes(DICE - len(self.kept))

    def _apply(self, action: protocol.Action) -> State:
        if self.rolling:
            assert isinstance(action, tuple)
            rolled, left = tuple(sorted(action)), self.left - 1
            if left == 0:
                return self._finish(tuple(sorted(self.kept + rolled)), len(self.history) + 1)
            return replace(self, left=left, rolled=rolled, history=self.history + (rolled,), rolling=False)
        if action == "roll":
            return replace(self, rolling=True)
        if action == "stop":
            return self._finish(self.hand, len(self.history))
        assert isinstance(action, tuple)
        return replace(self, kept=tuple(sorted(action)), rolled=(), rolling=True)

    def _finish(self, hand: Roll, rolls_made: int) -> State:
        """The turn is over with `hand`: the next seat's turn starts."""
        return State(self.rules, self.hands + (hand,), self.rolls_made + (rolls_made,))

    def returns(self) -> list[Fraction]:
        if not self._over:
            return [Fraction(0)] * self.rules.players
        top = self.winners()
        return [Fraction(1, len(top)) if seat in top else Fraction(0) for seat in range(self.rules.players)]

    def observation(self, player: int) -> str:
        protocol.check_players([player], self.shape())
        done = "; ".join(f"player {s + 1}: {' '.join(map(str, h))} ({category(h)})" for s, h in enumerate(self.hands))
        if self._over:
            now = "the game is over"
        else:
            dice = (
                f", kept {' '.join(map(str, self.kept)) or 'none'}, rolled {' '.join(map(str, self.rolled)) or 'none'}"
            )
            now = f"player {self.seat + 1} to play, roll {len(self.history)} of {ROLLS}{dice if self.history else ''}"
        return f"you are player {player + 1}; {now}" + (f"; hands: {done}" if done else "")

    def shape(self) -> protocol.Shape:
        return protocol.Shape(
            players=self.rules.players,
            max_actions=2**DICE,
            max_chance_outcomes=len(rolls(DICE).outcomes),
            max_length=2 * ROLLS * self.rules.players,
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    def hint(self, objective: Objective | None = None) -> Hint:
        """Every legal action's exact value for the seat to play (default objective:
        `objective()`; any other, e.g. `AtLeast("manoir")`, for a turn played for it), from the
        core solver; `.best` is the optimal action."""
        if self.current_player() < 0:
            return super().hint()
        h = _game(objective or self.objective(), self.rules.sticky_holds).hint(self.node)
        values = {Hold.move(a): v for a, v in h.values.items()}
        return Hint(h.state, values, Hold.move(h.best), h.maximise, "exact")

    # -- convenience: the moves as a person makes them -------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: Sequence[int] | None = None) -> State:
        """Roll the dice not set aside (the given faces in any order, or drawn with `rng`): the
        first roll of a turn, or the roll after `hold`."""
        state = self.apply("roll") if not self.rolling and not self.history and not self._over else self
        if not state.rolling:
            raise ValueError(
                "the game is over" if self._over else "hold some dice (or none) before rolling again, or stop"
            )
        n = DICE - len(state.kept)
        return state.apply(roll_faces(n, rng, dice))

    def hold(self, faces: Sequence[int]) -> State:
        """Set `faces` aside (with sticky holds, including those already aside); chance rolls the others next."""
        if not self.rolled or self.rolling:
            raise ValueError("roll before holding dice")
        want = Hold(faces)
        if want not in self.legal_actions():
            allowed = hold_options(self.kept, self.rolled, self.rules.sticky_holds)
            raise ValueError(f"faces must be one of the allowed holds {allowed}, got {tuple(faces)!r}")
        return self.apply(want)

    def stop(self) -> State:
        """Keep the hand as it is: the next seat's turn."""
        if not self.rolled or self.rolling:
            raise ValueError("roll before stopping")
        return self.apply("stop")


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: the opener (seat 0) to roll."""
    return State(rules or Rules())
