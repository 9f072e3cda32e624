"""La Tresse as a game (the protocol, `nessus.game`): every throw is a chance node, the dice
thrown a sorted multiset with its exact weight; there is no decision. One die, two players:

>>> from nessus.games.tresse import Rules, initial_state
>>> state = initial_state(Rules(players=2, dice=1))
>>> len(state.chance_outcomes()), state.apply((3,)).current   # a 3 is thrown again
(6, 1)
>>> end = state.apply((1,))
>>> end.is_terminal(), end.returns()
(True, [Fraction(1, 1), Fraction(0, 1)])
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import cast

import numpy as np

from nessus import game
from nessus.dice import roll_faces, roll_outcomes
from nessus.games.tresse.rules import CENTRE, LEFT, RIGHT, Rules, start


@cache
def _max_throws(dice: int) -> int:
    """The least t with P(a game lasts more than t throws) < 1e-15, by a proven bound: in each
    throw the first die in hand shows 1 with probability 1/6 whatever came before, and the game
    is over once `dice` dice have reached the centre, so P(more than t throws) <=
    P(Binomial(t, 1/6) < dice)."""
    t = dice
    while sum(comb(t, k) * Fraction(1, 6) ** k * Fraction(5, 6) ** (t - k) for k in range(dice)) >= Fraction(1, 10**15):
        t += 1
    return t


@dataclass(frozen=True)
class State(game.State):
    """A whole game (the game protocol): every throw is a chance node, the seat to throw rolling
    the dice in hand (a sorted multiset, with its exact weight); there is no decision.

    `holdings[i]` is the number of dice seat i + 1 holds (seats count from 1, seat 2 sits to the
    left of seat 1); `current` is the seat throwing next (None once the game is over); `winner`
    the seat that put the last die into the centre; `throws` the throws so far and `history`
    each one's (seat, dice). The returns are 1 to the winner, 0 to the others (player i is seat
    i + 1). A game could go on for ever; `shape().max_length` is a length passed with
    probability below 1e-15 (`_max_throws`).
    """

    rules: Rules
    holdings: tuple[int, ...]
    current: int | None = 1
    centre: int = 0
    throws: int = 0
    winner: int | None = None
    history: tuple[tuple[int, tuple[int, ...]], ...] = ()

    @property
    def _over(self) -> bool:
        return self.winner is not None

    @property
    def hand(self) -> int:
        """How many dice the current seat throws next (0 once the game is over)."""
        return 0 if self.current is None else self.holdings[self.current - 1]

    def states(self) -> list[State]:
        """The game's states from its start to this one (its history replayed).

        >>> state = initial_state(Rules(players=2, dice=2)).roll(dice=(1, 3)).roll(dice=(1,))
        >>> [s.centre for s in state.states()], state.states()[-1] == state
        ([0, 1, 2], True)
        """
        states = [initial_state(self.rules)]
        for _, dice in self.history:
            states.append(cast(State, states[-1].apply(dice)))
        return states

    # -- the protocol -------------------------------------------------------------------------------
    def current_player(self) -> int:
        return game.TERMINAL if self._over else game.CHANCE

    def legal_actions(self) -> list[game.Action]:
        return []

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        return [] if self._over else roll_outcomes(self.hand)

    def _apply(self, action: game.Action) -> State:
        assert isinstance(action, tuple) and self.current is not None
        dice: tuple[int, ...] = action
        n, me = self.rules.players, self.current - 1
        hold = list(self.holdings)
        hold[me] -= sum(1 for d in dice if d in (CENTRE, LEFT, RIGHT))
        hold[(me + 1) % n] += dice.count(LEFT)
        hold[(me - 1) % n] += dice.count(RIGHT)
        history = self.history + ((self.current, dice),)
        centre = self.centre + dice.count(CENTRE)
        if not any(hold):
            return State(self.rules, tuple(hold), None, centre, self.throws + 1, self.current, history)
        nxt = self.current
        if hold[me] == 0:
            nxt = next((me + k) % n for k in range(1, n + 1) if hold[(me + k) % n]) + 1
        return State(self.rules, tuple(hold), nxt, centre, self.throws + 1, None, history)

    def returns(self) -> list[Fraction]:
        if self.winner is None:
            return [Fraction(0)] * self.rules.players
        return game.winner_returns(self.rules.players, self.winner - 1)

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        held = ", ".join(f"player {i}: {h}" for i, h in enumerate(self.holdings, start=1))
        if self.winner is not None:
            now = f"player {self.winner} won after {self.throws} throws"
        else:
            now = f"player {self.current} throws {self.hand} next"
        last = (
            f"; last throw: player {self.history[-1][0]} rolled {' '.join(map(str, self.history[-1][1]))}"
            if self.history
            else ""
        )
        return f"you are player {player + 1}; dice held: {held}; centre {self.centre}; {now}{last}"

    def shape(self) -> game.Shape:
        r = self.rules
        return game.Shape(
            players=r.players,
            max_actions=0,
            max_chance_outcomes=len(roll_outcomes(r.dice)),
            max_length=_max_throws(r.dice),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    # -- playing at the table -----------------------------------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, ...] | None = None) -> State:
        """The current seat throws every die in hand (the given faces in any order, or drawn with
        `rng`): the table after it."""
        if self._over or self.current is None:
            raise ValueError("the game is over: every die is in the centre")
        return self.apply(roll_faces(self.hand, rng, dice))


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: seat 1 holds every die."""
    rules = rules or Rules()
    return State(rules, start(rules))


# -- the table in words ---------------------------------------------------------------------------
def dice_word(k: int) -> str:
    """ "1 die", "3 dice"."""
    return f"{k} di{'e' if k == 1 else 'ce'}"


def verb(name: str, word: str) -> str:
    """The verb for a seat's name: "You throw", "Player 2 throws"."""
    return word if name == "You" else f"{word}s"


def next_up(table: State, names: list[str]) -> str:
    """Who throws next and how many dice, in words ("Player 3 throws 2 dice next")."""
    if table.current is None:
        return "Nobody throws next: the game is over"
    who = names[table.current - 1]
    return f"{who} {verb(who, 'throw')} {dice_word(table.hand)} next"


def throw_words(faces: tuple[int, ...], seat: int, n: int, names: list[str]) -> str:
    """Where the dice of a throw went, in words."""
    parts = []
    if faces.count(CENTRE):
        parts.append(f"{faces.count(CENTRE)} to the centre")
    if n == 2 and faces.count(LEFT) + faces.count(RIGHT):
        parts.append(f"{faces.count(LEFT) + faces.count(RIGHT)} to {names[1 - seat]}")
    else:
        if faces.count(LEFT):
            parts.append(f"{faces.count(LEFT)} left to {names[(seat + 1) % n]}")
        if faces.count(RIGHT):
            parts.append(f"{faces.count(RIGHT)} right to {names[(seat - 1) % n]}")
    again = sum(1 for f in faces if f not in (CENTRE, LEFT, RIGHT))
    if again:
        parts.append(f"{again} to throw again")
    return ", ".join(parts)
