"""The roll-off as a game (the protocol): each player still tied rolls 2d6 at a chance node."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from nessus import game
from nessus.dice import check_faces, roll_outcomes
from nessus.games.order.odds import rounds
from nessus.games.order.rules import Rules


@cache
def _max_rounds(players: int) -> int:
    """Rounds that a roll-off of `players` passes with probability below 1e-15 (the bound of
    `rounds` with that tail)."""
    return rounds(Rules(players=players)).bound


Rolls = tuple[tuple[int, tuple[int, ...]], ...]
"""One round's rolls: (player from 1, the 2d6 as a sorted pair), in the order rolled."""


@dataclass(frozen=True)
class State(game.State):
    """A roll-off (the game protocol): each player still tied rolls 2d6 in turn (a chance node,
    the dice a sorted pair with its exact weight); when all have rolled, those with the highest
    total stay tied. No decisions. `tied` are the players (from 1) still in, `done` every
    finished round's rolls and `rolling` this round's so far. The returns are 1 to the player
    who starts, 0 to the others (player i is player i + 1 here). A roll-off could go on for
    ever; `shape().max_length` is a length passed with probability below 1e-15.
    """

    rules: Rules
    tied: tuple[int, ...]
    done: tuple[Rolls, ...] = ()
    rolling: Rolls = ()

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def winner(self) -> int | None:
        """The player who starts, once one is alone at the top."""
        return self.tied[0] if len(self.tied) == 1 else None

    @property
    def history(self) -> tuple[dict[int, int], ...]:
        """Each finished round's totals: {player: 2d6 total}."""
        return tuple({p: sum(d) for p, d in rolled} for rolled in self.done)

    @property
    def roller(self) -> int | None:
        """The player who rolls next (None once a player is alone at the top)."""
        return None if self.winner is not None else self.tied[len(self.rolling)]

    # -- the protocol -------------------------------------------------------------------------------
    def current_player(self) -> int:
        return game.TERMINAL if self.winner is not None else game.CHANCE

    def legal_actions(self) -> list[game.Action]:
        return []

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        return [] if self.winner is not None else roll_outcomes(2)

    def _apply(self, action: game.Action) -> State:
        assert isinstance(action, tuple) and self.roller is not None
        rolling = self.rolling + ((self.roller, action),)
        if len(rolling) < len(self.tied):
            return State(self.rules, self.tied, self.done, rolling)
        best = max(sum(d) for _, d in rolling)
        return State(self.rules, tuple(p for p, d in rolling if sum(d) == best), self.done + (rolling,))

    def returns(self) -> list[Fraction]:
        if self.winner is None:
            return [Fraction(0)] * self.players
        return game.winner_returns(self.players, self.winner - 1)

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        past = "; ".join(
            f"round {k}: " + ", ".join(f"player {p} {t}" for p, t in totals.items())
            for k, totals in enumerate(self.history, start=1)
        )
        if self.winner is not None:
            now = f"player {self.winner} starts"
        else:
            now = (
                f"round {len(self.done) + 1}, players {', '.join(map(str, self.tied))} roll"
                + "".join(f"; player {p} rolled {sum(d)}" for p, d in self.rolling)
                + f"; player {self.roller} rolls next"
            )
        return f"you are player {player + 1}; " + (f"{past}; " if past else "") + now

    def shape(self) -> game.Shape:
        n = self.players
        return game.Shape(
            players=n,
            max_actions=0,
            max_chance_outcomes=len(roll_outcomes(2)),
            max_length=n * _max_rounds(n),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    # -- playing --------------------------------------------------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: Sequence[tuple[int, int]] | None = None) -> State:
        """Everyone still to roll this round rolls 2d6 (the given pairs, one per player in order,
        or drawn with `rng`); those with the highest total stay tied."""
        if self.winner is not None:
            raise ValueError("the roll-off is over: a player is alone at the top")
        left = len(self.tied) - len(self.rolling)
        if dice is None:
            if rng is None:
                raise ValueError("give rng or dice")
            pairs = (rng.integers(1, 7, size=2) for _ in range(left))
            dice = [(int(a), int(b)) for a, b in pairs]
        if len(dice) != left:
            raise ValueError(f"dice must give one pair for each of the {left} players still to roll, got {dice!r}")
        state = self
        for pair in dice:
            after = state.apply(tuple(sorted(check_faces(pair, 2))))
            assert isinstance(after, State)
            state = after
        return state


def initial_state(rules: Rules | None = None) -> State:
    """The start of a roll-off: every player tied, nobody has rolled."""
    rules = rules or Rules()
    return State(rules, tuple(range(1, rules.players + 1)))


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """No decisions in the roll-off: no policies."""
    return {}
