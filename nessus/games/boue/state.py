"""La Boue as a game (the protocol): every roll a chance node, no decisions."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np

from nessus import game
from nessus.chains import RewardChain, Step
from nessus.dice import roll_faces, roll_outcomes
from nessus.games.boue.rules import ROUNDS, STUCK, Rules


@cache
def _max_rolls(dice: int, turns: int) -> int:
    """Rolls that `turns` turns pass with probability below 1e-15: the bound of the turn's
    number of rolls (a chain on the free dice adding 1 a roll) with tail below 1e-15 / turns,
    times `turns`."""
    steps: dict[Hashable, list[Step]] = {
        n: [Step(Fraction(comb(n, k) * 2 ** (n - k), 3**n), 1, n - k or None) for k in range(n + 1)]
        for n in range(1, dice + 1)
    }
    return turns * RewardChain(steps).distribution(dice, tail_below=1e-15 / turns).bound


@dataclass(frozen=True)
class State(game.State):
    """A whole game (the game protocol): `rounds` rounds, in each every player plays a turn in
    seat order; every roll is a chance node (the free dice, a sorted multiset with its exact
    weight). No decisions.

    `scores` are the players' totals (the turn in play included), `turn` the number of turns
    before the one in play (player `turn % players`, round `turn // players + 1`), and `free`,
    `stuck`, `score` and `rolls` that turn's free dice, stuck dice, score and rolls. A finished
    turn stays in view (free = 0) until the next player's first roll. The returns are the win
    shares of the highest total. A turn could go on for ever; `shape().max_length` is a length
    passed with probability below 1e-15.
    """

    rules: Rules
    scores: tuple[int, ...]
    free: int
    turn: int = 0
    stuck: tuple[int, ...] = ()
    score: int = 0
    rolls: tuple[tuple[int, ...], ...] = ()
    rounds: int = ROUNDS

    @property
    def player(self) -> int:
        """The player (from 0) of the turn in play, or just over."""
        return self.turn % self.rules.players

    @property
    def round(self) -> int:
        """The round (from 1) of the turn in play, or just over."""
        return self.turn // self.rules.players + 1

    @property
    def turn_over(self) -> bool:
        """Every die of the turn in view is stuck."""
        return self.free == 0

    @property
    def last(self) -> tuple[int, ...]:
        """The turn's last roll ((), before its first)."""
        return self.rolls[-1] if self.rolls else ()

    @property
    def verdict(self) -> str:
        """The last roll in words: "Clean roll: +9." or "Mud! This roll scores nothing." ("" before
        the turn's first roll).

        >>> initial_state(Rules(dice=2)).roll(dice=(3, 6)).verdict
        'Clean roll: +9.'
        """
        if not self.rolls:
            return ""
        return (
            "Mud! This roll scores nothing."
            if any(d in STUCK for d in self.last)
            else f"Clean roll: +{sum(self.last)}."
        )

    # -- the protocol -------------------------------------------------------------------------------
    def current_player(self) -> int:
        last_turn = self.turn == self.rounds * self.rules.players - 1
        return game.TERMINAL if self.turn_over and last_turn else game.CHANCE

    def legal_actions(self) -> list[game.Action]:
        return []

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        if self.is_terminal():
            return []
        return roll_outcomes(self.free or self.rules.dice)

    def _apply(self, action: game.Action) -> State:
        assert isinstance(action, tuple)
        dice: tuple[int, ...] = action
        state = self
        if self.turn_over:
            state = State(self.rules, self.scores, self.rules.dice, self.turn + 1, rounds=self.rounds)
        rolled = state.rolls + (dice,)
        newly = tuple(d for d in dice if d in STUCK)
        if newly:
            return State(
                state.rules,
                state.scores,
                state.free - len(newly),
                state.turn,
                state.stuck + newly,
                state.score,
                rolled,
                state.rounds,
            )
        scores = tuple(s + sum(dice) * (p == state.player) for p, s in enumerate(state.scores))
        return State(
            state.rules, scores, state.free, state.turn, state.stuck, state.score + sum(dice), rolled, state.rounds
        )

    def returns(self) -> list[Fraction]:
        return game.win_shares(self.scores)

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        scores = ", ".join(f"player {p}: {s}" for p, s in enumerate(self.scores, start=1))
        stuck = " ".join(map(str, self.stuck)) or "none"
        last = f", last roll {' '.join(map(str, self.last))}" if self.rolls else ""
        now = (
            f"round {self.round} of {self.rounds}, player {self.player + 1}'s turn: score {self.score}, "
            f"{self.free} dice free, stuck {stuck}{last}"
        )
        end = "; game over" if self.is_terminal() else ("; turn over" if self.turn_over else "")
        return f"you are player {player + 1}; scores {scores}; {now}{end}"

    def shape(self) -> game.Shape:
        r = self.rules
        return game.Shape(
            players=r.players,
            max_actions=0,
            max_chance_outcomes=len(roll_outcomes(r.dice)),
            max_length=_max_rolls(r.dice, r.players * self.rounds),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    # -- playing --------------------------------------------------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, ...] | None = None) -> State:
        """Roll the free dice (the given faces in any order, or drawn with `rng`); once a turn is
        over, the next player's first roll."""
        if self.is_terminal():
            raise ValueError("the game is over: every turn has been played")
        n = self.free or self.rules.dice
        return self.apply(roll_faces(n, rng, dice))


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: player 1 about to roll every die in round 1."""
    rules = rules or Rules()
    return State(rules, (0,) * rules.players, rules.dice, rounds=ROUNDS)


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """No decisions in La Boue: no policies."""
    return {}
