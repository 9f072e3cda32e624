"""Les Royaumes as a game (the protocol): whole games of rounds against the bank, every roll a
chance node; and each seat's expected net for the round from a state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from nessus import game
from nessus.dice import check_faces, roll_outcomes
from nessus.games.royaumes.odds import (
    Result,
    bank_outcome,
    kingdom_of,
    place_text,
    player_ev,
    player_ev_given,
    rank_of,
    result_of,
    result_text,
)
from nessus.games.royaumes.rules import Rules
from nessus.numbers import exact_str

MAX_DUEL_ROLLS = 200
"""A practical bound on the rolls of one duel (each lands in the bank's kingdom with probability
at least 11/36, so a duel outlasts it with probability (25/36)**200 < 1e-31): `shape()` uses it."""


@dataclass(frozen=True)
class State(game.State):
    """A whole game of Les Royaumes (the game protocol): `rounds` rounds of the bank against
    `players` players. Every move is chance: the bank's roll, then each player's rolls in turn
    until one lands in the bank's kingdom (2d6 as sorted pairs, 21 outcomes with exact weights);
    no one decides anything and nothing is hidden. Returns are the players' net stakes (fines
    included; the bank's is minus their sum), so their sum is not constant. A duel could in
    principle go on for ever: `shape()` bounds it by `MAX_DUEL_ROLLS` rolls.

    The round in play (or the last one, until the bank rolls again): `bank` its roll, `rolls[i]`
    player i's rolls (players count from 0), `nets[i]` their net gain in stakes, `fines[i]` the
    fines they paid, `settled` the players done; `round` counts the rounds begun and `totals`
    the players' nets from the rounds before it.

    >>> state = initial_state(Rules(players=2, rounds=1))
    >>> state.to_roll, len(state.chance_outcomes())
    ('bank', 21)
    >>> state = state.roll(dice=(4, 2))
    >>> state.outcome, state.to_roll
    ('duel', 'player 1')
    >>> state = state.roll(dice=(1, 1)).roll(dice=(3, 3)).roll(dice=(3, 2))
    >>> state.is_terminal(), state.returns()
    (True, [Fraction(9, 10), Fraction(-1, 1)])
    """

    rules: Rules
    bank: tuple[int, int] | None = None
    rolls: tuple[tuple[tuple[int, int], ...], ...] = ()
    nets: tuple[Fraction, ...] = ()
    fines: tuple[int, ...] = ()
    settled: int = 0
    round: int = 0
    totals: tuple[Fraction, ...] = ()

    @property
    def bank_result(self) -> Result | None:
        """The bank's unordered result (None before it rolls)."""
        return result_of(self.bank) if self.bank else None

    @property
    def outcome(self) -> str | None:
        """ "bank wins all", "bank pays all" or "duel" once the bank has rolled."""
        return bank_outcome(result_of(self.bank)) if self.bank else None

    @property
    def round_over(self) -> bool:
        """The bank settled everyone at once, or every player has finished their duel."""
        return self.bank is not None and (self.outcome != "duel" or self.settled == self.rules.players)

    @property
    def _over(self) -> bool:
        """The last round is over."""
        return self.round >= self.rules.rounds and self.round_over

    @property
    def to_roll(self) -> str | None:
        """Who rolls next in this round: "bank", "player <i>" (from 1), or None when the round is
        over (the bank's next roll, if rounds are left, begins the next round)."""
        if self.bank is None:
            return "bank"
        return None if self.round_over else f"player {self.settled + 1}"

    @property
    def bank_net(self) -> Fraction:
        """The bank's net gain in the round so far, in stakes."""
        return -sum(self.nets, Fraction(0))

    @property
    def rounds_finished(self) -> int:
        """The rounds over so far (the one in play not counted)."""
        return self.round if self.bank is None or self.round_over else self.round - 1

    @property
    def last_roll(self) -> tuple[int, tuple[int, int]] | None:
        """The last player roll of the round: (the player from 0, the dice), None before one.

        >>> initial_state(Rules(players=2)).roll(dice=(4, 2)).roll(dice=(6, 1)).last_roll
        (0, (1, 6))
        """
        rolled = [i for i, rolls in enumerate(self.rolls) if rolls]
        return (rolled[-1], self.rolls[rolled[-1]][-1]) if rolled else None

    def rolls_next(self, seat: int | None) -> bool:
        """Whether player `seat` (from 0; None: the bank) makes the round's next roll."""
        return self.to_roll == ("bank" if seat is None else f"player {seat + 1}")

    def next_up(self, you: int | None) -> str:
        """Who rolls next, in words, for the person at player seat `you` (None: at the bank).

        >>> state = initial_state(Rules(players=2))
        >>> state.next_up(0), state.next_up(None), state.roll(dice=(4, 2)).next_up(1)
        ('the bank rolls', 'you roll for the bank', 'Player 1 rolls')
        """
        if self.to_roll == "bank":
            return "you roll for the bank" if you is None else "the bank rolls"
        return "you roll" if self.settled == you else f"Player {self.settled + 1} rolls"

    def describe(self, dice: tuple[int, int]) -> str:
        """What rolling `dice` from here does, in words (the bank's roll, once a round is over).

        >>> state = initial_state(Rules(players=2)).roll(dice=(4, 2))
        >>> state.describe((6, 1)), state.describe((5, 2))
        ('(Gahanam): not in Teur, a fine of 1/10.', '(rank 3): beats 4-2, wins a stake.')
        """
        r = result_of(dice)
        if self.bank is None or self.round_over:
            if bank_outcome(r) == "bank wins all":
                return "the bank takes every stake."
            if bank_outcome(r) == "bank pays all":
                return "the bank pays every player a stake."
            return f"({place_text(r)}): each player must beat it in {kingdom_of(r)}."
        bank = result_of(self.bank)
        if kingdom_of(r) != kingdom_of(bank):
            return f"({kingdom_of(r)}): not in {kingdom_of(bank)}, a fine of {exact_str(self.rules.fine)}."
        if rank_of(r) > rank_of(bank):
            return f"(rank {rank_of(r) + 1}): beats {result_text(bank)}, wins a stake."
        return f"(rank {rank_of(r) + 1}): does not beat {result_text(bank)}, loses the stake."

    def summary(self, money: Callable[[Fraction], str] = exact_str) -> str:
        """What the finished round did, in a sentence (`money` writes the bank's net).

        >>> initial_state(Rules(players=2)).roll(dice=(5, 3)).summary()
        'the bank rolled 5-3 and took every stake.'
        """
        assert self.bank_result is not None, "a round is over once the bank has rolled"
        bank, players = result_text(self.bank_result), len(self.nets)
        if self.outcome == "bank wins all":
            return f"the bank rolled {bank} and took every stake."
        if self.outcome == "bank pays all":
            return f"the bank rolled {bank} and paid every player."
        won = f"{self.duels_won()} of {players} player{'s' if players > 1 else ''} won"
        return f"against the bank's {bank}, {won}; the bank's net {money(self.bank_net)}."

    def seat_status(self, seat: int) -> str:
        """Where player `seat` (from 0) stands in the round's duel: "to roll" (before the bank's
        roll), "settled", "rolling" or "waiting"."""
        if self.bank is None:
            return "to roll"
        if self.outcome != "duel" or seat < self.settled:
            return "settled"
        return "rolling" if seat == self.settled else "waiting"

    def duels_won(self) -> int:
        """How many players have beaten the bank's result this round (their net before fines is +1)."""
        return sum(1 for net, f in zip(self.nets, self.fines) if net + f * self.rules.fine > 0)

    def banked(self) -> tuple[Fraction, ...]:
        """Each player's net from the rounds finished (this one included once it is over)."""
        if not self.round_over:
            return self.totals
        return tuple(t + n for t, n in zip(self.totals, self.nets))

    def cleared(self) -> State:
        """The table as the next round is announced: the finished round's money carried into
        `totals` and its dice cleared, the bank to roll (the same position: the bank's roll
        leads to the same state from either)."""
        if not self.round_over or self._over:
            raise ValueError("the round is not over yet" if not self._over else "the game is over")
        p = self.rules.players
        return State(self.rules, None, ((),) * p, (Fraction(0),) * p, (0,) * p, 0, self.round, self.banked())

    # -- the protocol ------------------------------------------------------------------------------
    def current_player(self) -> int:
        return game.TERMINAL if self._over else game.CHANCE

    def legal_actions(self) -> list[game.Action]:
        return []

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        return [] if self._over else roll_outcomes(2)

    def _apply(self, dice: game.Action) -> State:
        assert isinstance(dice, tuple) and len(dice) == 2
        pair = (int(dice[0]), int(dice[1]))
        p, fine = self.rules.players, self.rules.fine
        if self.bank is None or self.round_over:
            totals = self.banked()
            outcome = bank_outcome(result_of(pair))
            gain = Fraction(0) if outcome == "duel" else Fraction(1 if outcome == "bank pays all" else -1)
            return State(self.rules, pair, ((),) * p, (gain,) * p, (0,) * p, 0, self.round + 1, totals)
        i, bank = self.settled, result_of(self.bank)
        mine = result_of(pair)
        rolls_ = self.rolls[:i] + (self.rolls[i] + (pair,),) + self.rolls[i + 1 :]
        if kingdom_of(mine) != kingdom_of(bank):
            nets = self.nets[:i] + (self.nets[i] - fine,) + self.nets[i + 1 :]
            fines = self.fines[:i] + (self.fines[i] + 1,) + self.fines[i + 1 :]
            return replace(self, rolls=rolls_, nets=nets, fines=fines)
        won = Fraction(1 if rank_of(mine) > rank_of(bank) else -1)
        nets = self.nets[:i] + (self.nets[i] + won,) + self.nets[i + 1 :]
        return replace(self, rolls=rolls_, nets=nets, settled=i + 1)

    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, int] | None = None) -> State:
        """The next roll (the bank's, then the current player's): the given dice in any order, or
        drawn with `rng`."""
        if self._over:
            raise ValueError("the game is over: every round has been played")
        if dice is None:
            if rng is None:
                raise ValueError("give rng or dice")
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        a, b = check_faces(dice, 2)
        after = self.apply((min(a, b), max(a, b)))
        assert isinstance(after, State)
        return after

    def returns(self) -> list[Fraction]:
        return list(self.banked()) if self._over else [Fraction(0)] * self.rules.players

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        if self.bank is None:
            now = "the bank to roll"
        else:
            mine = " ".join(result_text(result_of(d)) for d in self.rolls[player]) or "none"
            bank = result_text(result_of(self.bank))
            now = (
                f"the bank rolled {bank} ({self.outcome}); your rolls {mine}, {self.fines[player]} fines, "
                f"net {self.nets[player]} this round; " + (f"{self.to_roll} to roll" if self.to_roll else "round over")
            )
        return (
            f"round {max(self.round, 1)} of {self.rules.rounds}: {now}; "
            f"nets before this round: {', '.join(str(t) for t in self.totals)}"
        )

    def shape(self) -> game.Shape:
        r = self.rules
        return game.Shape(
            players=r.players,
            max_actions=0,
            max_chance_outcomes=21,
            max_length=r.rounds * (1 + r.players * MAX_DUEL_ROLLS),
            min_return=-r.rounds * (1 + r.fine * MAX_DUEL_ROLLS),
            max_return=Fraction(r.rounds),
            return_sum=None,
        )


def initial_state(rules: Rules | None = None) -> State:
    """The start of a whole game: the bank to roll the first round."""
    rules = rules or Rules()
    p = rules.players
    return State(rules, None, ((),) * p, (Fraction(0),) * p, (0,) * p, 0, 0, (Fraction(0),) * p)


def seat_name(seat: int | None, you: int | None) -> str:
    """ "You", "Player n" or, for the bank (seat None), "The bank" ("You (the bank)" if you hold it)."""
    if seat is None:
        return "You (the bank)" if you is None else "The bank"
    return "You" if seat == you else f"Player {seat + 1}"


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """No decisions in Les Royaumes: no policies."""
    return {}


def expected_nets(round_: State) -> tuple[Fraction, ...]:
    """Each player's expected net gain for the whole round, in stakes, from the round as it
    stands: what is settled counts as it is, fines already paid included; a duel still to play
    adds `player_ev_given` (the rolls to come do not depend on the fines already paid); before
    the bank's roll, `player_ev`. The bank's is minus their sum."""
    fine, n = round_.rules.fine, round_.rules.players
    if round_.bank_result is None:
        return (player_ev(fine),) * n
    if round_.outcome != "duel":
        return round_.nets
    ev = player_ev_given(round_.bank_result, fine)
    return tuple(net + (ev if i >= round_.settled else 0) for i, net in enumerate(round_.nets))
