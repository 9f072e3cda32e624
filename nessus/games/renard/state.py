"""Le Renard as a game (the protocol): a player at the bank's table, chance rolling 3d6 each round."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import cast

import numpy as np

from nessus import game
from nessus.dice import roll_faces, roll_outcomes
from nessus.games.renard.odds import is_triple
from nessus.games.renard.rules import Rules
from nessus.play import play


@dataclass(frozen=True)
class State(game.State):
    """A player at the bank's table (the game protocol): chance rolls 3d6 each round; the
    bankroll, and every roll so far with its net gain in money. One seat, no decision; the
    return is the player's net winnings in money (a banking game).

    >>> state = initial_state(Rules(rounds=1))
    >>> state.apply((6, 6, 6)).returns()
    [Fraction(10, 1)]
    """

    rules: Rules
    bankroll: int
    history: tuple[tuple[tuple[int, int, int], int], ...] = ()

    @property
    def ruined(self) -> bool:
        """The bankroll no longer covers a stake."""
        return self.bankroll < self.rules.stake

    @property
    def _over(self) -> bool:
        """Ruined, or all rounds played."""
        return self.ruined or len(self.history) >= self.rules.rounds

    @property
    def bankrolls(self) -> tuple[int, ...]:
        """The bankroll at the start and after each round played.

        >>> initial_state(Rules(bankroll=50)).roll(dice=(1, 2, 3)).roll(dice=(4, 4, 4)).bankrolls
        (50, 49, 59)
        """
        return tuple(accumulate((gain for _, gain in self.history), initial=self.rules.bankroll))

    @property
    def triples(self) -> int:
        """How many rounds were won (a triple rolled)."""
        return sum(1 for _, gain in self.history if gain > 0)

    @property
    def standing(self) -> str:
        """Where the game stands: "ruined", "all rounds played" or "playing"."""
        return "ruined" if self.ruined else "all rounds played" if self._over else "playing"

    @property
    def verdict(self) -> str:
        """The last round in words: "Triple! +10" or "No triple: -1" ("" before the first).

        >>> initial_state(Rules(rounds=2)).roll(dice=(6, 6, 6)).roll(dice=(1, 2, 3)).verdict
        'No triple: -1'
        """
        if not self.history:
            return ""
        gain = self.history[-1][1]
        return f"Triple! +{gain}" if gain > 0 else f"No triple: {gain}"

    def current_player(self) -> int:
        return game.TERMINAL if self._over else game.CHANCE

    def legal_actions(self) -> list[game.Action]:
        return []

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        return [] if self._over else roll_outcomes(3)

    def _apply(self, dice: game.Action) -> State:
        assert isinstance(dice, tuple)
        gain = self.rules.stake * (self.rules.payout if is_triple(dice) else -1)
        return State(self.rules, self.bankroll + gain, self.history + ((dice, gain),))

    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, int, int] | None = None) -> State:
        """Stake and roll 3d6 (the given dice in any order, or drawn with `rng`): the table after
        the bank settles."""
        if self._over:
            raise ValueError("the game is over: ruined or all rounds played")
        return self.apply(roll_faces(3, rng, dice))

    def play_rounds(self, rng: np.random.Generator, rounds: int) -> State:
        """The table after `rounds` more rounds (fewer if the game ends first), chance rolling
        through the one play loop (`nessus.play.play`)."""
        target = len(self.history) + rounds
        return cast(State, play(self, {}, rng, until=lambda s: len(cast(State, s).history) >= target))

    def returns(self) -> list[Fraction]:
        return [Fraction(self.bankroll - self.rules.bankroll)]

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        last = f"; last roll {' '.join(map(str, self.history[-1][0]))}" if self.history else ""
        return f"round {len(self.history)} of {self.rules.rounds}, bankroll {self.bankroll}{last}"

    def shape(self) -> game.Shape:
        r = self.rules
        return game.Shape(
            players=1,
            max_actions=0,
            max_chance_outcomes=56,
            max_length=r.rounds,
            min_return=Fraction(-r.bankroll),
            max_return=Fraction(r.rounds * r.payout * r.stake),
            return_sum=None,
        )


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: the full bankroll, no roll yet."""
    rules = rules or Rules()
    return State(rules, rules.bankroll)


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """No decisions in Le Renard: no policies."""
    return {}
