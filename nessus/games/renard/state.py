"""Le Renard as a game (the protocol): a player at the bank's table, chance rolling 3d6 each round."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from nessus import game
from nessus.dice import roll_faces, roll_outcomes
from nessus.games.renard.odds import is_triple
from nessus.games.renard.rules import Rules


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
