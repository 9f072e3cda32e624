"""Les Trois as a game (the protocol, `nessus.game`): `State` is a whole game, every seat's turns
round by round, tie-break rounds and moons included; a turn starts with "roll", each roll a
chance node over the sorted dice with exact weights, each choice an `Aside` ("set aside 3 3");
the winner's return is 1. Its hint values every choice exactly for the seat's objective (the
least expected score; for the last to play in a deciding round, finishing lowest or the moon).

>>> from nessus.games.trois.rules import Aside, Rules
>>> state = initial_state(Rules(players=2, rounds=1))
>>> state = state.apply("roll").apply((1, 3, 3, 4, 6))
>>> [str(a) for a in state.legal_actions()[:2]], str(state.hint().best)
(['set aside 1 3 3 4 6', 'set aside 1 3 3 4'], 'set aside 3 3')
>>> state = state.apply(Aside((1, 3, 3, 4, 6)))
>>> state.scores(), state.current_player(), state.objective()
([11, 0], 1, Win(5, 10))
>>> end = state.apply("roll").apply((1, 2, 3, 3, 3)).apply(Aside((1, 2, 3, 3, 3)))
>>> end.is_terminal(), end.scores(), end.returns()
(True, [11, 3], [Fraction(0, 1), Fraction(1, 1)])
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from nessus import game as protocol
from nessus.dice import Roll, roll_faces, roll_outcomes, rolls
from nessus.games.trois.odds import moon_chances
from nessus.games.trois.policies import LeastScore, Moon, TurnObjective, Win
from nessus.games.trois.rules import Aside, Rules, as_aside, score, set_asides
from nessus.numbers import number_text
from nessus.solver import Hint, HintValue

TIE_BREAKS = 50
"""Tie-break rounds `State.shape().max_length` allows for: a practical bound (see `State`)."""


class Finished(NamedTuple):
    """A finished turn: the round it was played in, the seat, and every die it set aside."""

    round: int
    seat: int
    dice: Roll

    @property
    def score(self) -> int:
        return score(self.dice)


@dataclass(frozen=True)
class State(protocol.State):
    """A whole game of Les Trois (the game protocol): `rounds` rounds, each seat still in
    contention (`live`) one turn per round in seat order; the lowest total wins; the first
    6-6-...-6 ("the moon") ends the game at once, won by its shooter; after the last scheduled
    round, tied lowest totals play one more round between them, as often as needed.

    A turn starts with "roll" (the only move: the dice are rolled, a chance node over the sorted
    dice with exact weights); the player sets aside at least one die (`Aside`), and while dice
    are left chance rolls them again. `history` holds the finished turns in order, `kept` the dice
    set aside in the turn being played, `rolled` the roll in front of the player (None before
    it), and `rolling` is True while chance rolls. Returns: 1 to the winner, 0 to the others.

    `shape().max_length` is a practical bound: it allows `TIE_BREAKS` (50) tie-break rounds. A
    tie-break round is followed by another only if the lowest total is tied again with no moon:
    with one die (where play makes no choice) that has probability at most 25/36, so 50 more
    rounds have probability below 1e-7; with more dice, two players of the named policies score
    the same with probability below 0.11.
    """

    rules: Rules = Rules()
    history: tuple[Finished, ...] = ()
    live: tuple[int, ...] | None = None
    round: int = 0
    kept: Roll = ()
    rolled: Roll | None = None
    rolling: bool = False
    winner: int | None = None

    def __post_init__(self) -> None:
        r = self.rules
        if self.live is None:
            object.__setattr__(self, "live", tuple(range(r.players)))
        live = self.seats
        if not live or list(live) != sorted(set(live)) or not 0 <= live[0] <= live[-1] < r.players:
            raise ValueError(f"live must be distinct seats from 0 to {r.players - 1} in order, got {self.live!r}")
        if any(not isinstance(d, int) or not 1 <= d <= 6 for d in self.kept + (self.rolled or ())):
            raise ValueError(f"kept and rolled must hold dice from 1 to 6, got {self.kept!r}, {self.rolled!r}")
        if self.kept != tuple(sorted(self.kept)) or (
            self.rolled is not None and self.rolled != tuple(sorted(self.rolled))
        ):
            raise ValueError(f"kept and rolled must be sorted, got {self.kept!r}, {self.rolled!r}")
        if len(self.kept) >= r.dice:
            raise ValueError(
                f"kept must hold fewer than the {r.dice} dice (a turn with every die set aside is over), got "
                f"{self.kept!r}"
            )
        if self.rolled is not None and (self.rolling or len(self.rolled) != r.dice - len(self.kept)):
            raise ValueError(
                f"rolled must be the {r.dice - len(self.kept)} dice not set aside, and not while rolling, got "
                f"{self.rolled!r}"
            )

    # -- where the game stands -------------------------------------------------------------------
    @property
    def seats(self) -> tuple[int, ...]:
        """The seats in contention (`live`)."""
        assert self.live is not None  # set in __post_init__
        return self.live

    @property
    def _over(self) -> bool:
        """The game is won."""
        return self.winner is not None

    @property
    def played(self) -> tuple[int, ...]:
        """The seats that have played this round."""
        out = []
        for t in reversed(self.history):
            if t.round != self.round:
                break
            out.append(t.seat)
        return tuple(reversed(out))

    @property
    def seat(self) -> int:
        """The seat whose turn it is (the winner once the game is over)."""
        if self.winner is not None:
            return self.winner
        return self.seats[len(self.played)]

    @property
    def points(self) -> int:
        """The points of the dice set aside in the turn being played."""
        return score(self.kept)

    @property
    def left(self) -> int:
        """The dice of the turn still to roll (none while a roll waits for a choice)."""
        return self.rules.dice - len(self.kept) - (len(self.rolled) if self.rolled is not None else 0)

    def sheet(self) -> list[dict[int, int]]:
        """Every seat's score, round by round (rounds it did not play, out of contention, are missing)."""
        out: list[dict[int, int]] = [{} for _ in range(self.rules.players)]
        for t in self.history:
            out[t.seat][t.round] = t.score
        return out

    def scores(self) -> list[int]:
        """Every seat's total score so far (the lowest wins)."""
        out = [0] * self.rules.players
        for t in self.history:
            out[t.seat] += t.score
        return out

    def deciding(self) -> bool:
        """Is this the last scheduled round, or a tie-break round?"""
        return self.round >= self.rules.rounds - 1

    def waits(self, seat: int, turn: int | None) -> bool:
        """Has `seat` nothing to play now: the game over, its turn played (the game's `turn`-th,
        counting from 0; None: not started yet), or the seat out of contention?"""
        return self.is_terminal() or (turn is not None and len(self.history) > turn) or seat not in self.seats

    def round_over(self, seat: int, turn: int | None) -> bool:
        """Has the round of `seat`'s turn (the game's `turn`-th) ended, not the game, with the
        seat still in contention? A page played round by round pauses there, before the next
        round's first move (out of contention, the seat watches the game played out).

        >>> from nessus.games.trois.rules import Aside, Rules
        >>> state = initial_state(Rules(players=2, rounds=2)).roll(dice=(1, 2, 4, 5, 6)).set_aside((1, 2, 4, 5, 6))
        >>> state.round_over(0, 0), state.roll(dice=(3, 3, 3, 3, 3)).apply(Aside((3, 3, 3, 3, 3))).round_over(0, 0)
        (False, True)
        """
        if turn is None or len(self.history) <= turn or self.is_terminal():
            return False
        return self.round > self.history[turn].round and seat in self.seats

    def shown_round(self, seat: int, turn: int | None) -> int:
        """The round a page shows `seat`: that of its turn `turn` while it waits for the next
        round (`round_over`), else the game's."""
        return self.history[turn].round if turn is not None and self.round_over(seat, turn) else self.round

    def objective(self) -> TurnObjective:
        """What the seat to play plays for: the least expected score, except the last to play in
        a deciding round, who plays to finish lowest (the most it may score and stay lowest:
        below 0, only the moon; 6 x dice or more, anything), or shoot the moon."""
        others = [s for s in self.seats if s != self.seat]
        if not self._over and self.deciding() and others and len(self.played) == len(others):
            scores = self.scores()
            need = min(scores[s] for s in others) - scores[self.seat] - 1
            return Win(self.rules.dice, need)
        return LeastScore(self.rules.dice)

    # -- the protocol ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._over:
            return protocol.TERMINAL
        return protocol.CHANCE if self.rolling else self.seat

    def legal_actions(self) -> list[protocol.Action]:
        if self._over or self.rolling:
            return []
        if self.rolled is None:
            return ["roll"]
        return [Aside(h) for h in set_asides(self.rolled)]

    def chance_outcomes(self) -> list[tuple[protocol.Action, Fraction]]:
        if self._over or not self.rolling:
            return []
        return roll_outcomes(self.rules.dice - len(self.kept))

    def _apply(self, action: protocol.Action) -> State:
        if self.rolling:
            assert isinstance(action, tuple)
            return replace(self, rolled=tuple(sorted(action)), rolling=False)
        if action == "roll":
            return replace(self, rolling=True)
        assert isinstance(action, tuple) and self.rolled is not None
        kept = tuple(sorted(self.kept + tuple(action)))
        if len(kept) < self.rules.dice:
            return replace(self, kept=kept, rolled=None, rolling=True)
        return self._finish(kept)

    def _finish(self, dice: Roll) -> State:
        """The turn is over with these dice: a moon wins; the round ends when every seat in
        contention has played (after a deciding round, the lowest total wins or the tied play on)."""
        history = self.history + (Finished(self.round, self.seat, dice),)
        state = State(self.rules, history, self.seats, self.round)
        if all(d == 6 for d in dice):
            return replace(state, winner=self.seat)
        if len(self.played) + 1 < len(self.seats):
            return state
        if not self.deciding():
            return replace(state, round=self.round + 1)
        scores = state.scores()
        low = min(scores[s] for s in self.seats)
        tied = tuple(s for s in self.seats if scores[s] == low)
        if len(tied) == 1:
            return replace(state, winner=tied[0])
        return replace(state, live=tied, round=self.round + 1)

    def returns(self) -> list[Fraction]:
        if self.winner is None:
            return [Fraction(0)] * self.rules.players
        return protocol.winner_returns(self.rules.players, self.winner)

    def observation(self, player: int) -> str:
        protocol.check_players([player], self.shape())
        scores = ", ".join(f"player {s + 1}: {t}" for s, t in enumerate(self.scores()))
        which = self.rules.round_name(self.round)
        if self._over:
            return (
                f"you are player {player + 1}; the game is over, won by player {self.seat + 1} ({which}); scores "
                f"{scores}"
            )
        rolled = "not rolled yet" if self.rolled is None else " ".join(map(str, self.rolled))
        return (
            f"you are player {player + 1}; {which}, player {self.seat + 1} to play; in contention: "
            f"{', '.join(f'player {s + 1}' for s in self.seats)}; set aside {' '.join(map(str, self.kept)) or 'none'} "
            f"({self.points} points), roll {rolled}; scores {scores}"
        )

    def shape(self) -> protocol.Shape:
        r = self.rules
        return protocol.Shape(
            players=r.players,
            max_actions=2**r.dice - 1,
            max_chance_outcomes=len(rolls(r.dice).outcomes),
            max_length=(r.rounds + TIE_BREAKS) * r.players * (1 + 2 * r.dice),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    def hint(self, objective: TurnObjective | None = None) -> Hint:
        """Every legal action's exact value for the seat to play, for `objective` (default
        `objective()`: the least expected score, or the win for the last of a deciding round),
        from the turn's expectimax; the best one as the objective's `policy()` plays it (ties:
        the least expected score)."""
        if self.current_player() < 0:
            return super().hint()
        goal = objective or self.objective()
        dice = self.rules.dice
        turn = goal.turn()
        node = goal.summary(self.points, len(self.kept))
        if self.rolled is None:
            return Hint(
                (node, None),
                {"roll": turn.game.after_value((node, dice - len(self.kept)))},
                "roll",
                turn.game.maximise,
                "exact",
            )
        h = turn.game.hint((node, self.rolled))
        values: dict[Hashable, HintValue] = {as_aside(a): v for a, v in h.values.items()}
        best = as_aside(goal.policy()((self.points, self.rolled)))
        return Hint(h.state, values, best, h.maximise, "exact")

    # -- convenience: the moves as a person makes them -------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: Sequence[int] | None = None) -> State:
        """Roll the dice not set aside (the given faces in any order, or drawn with `rng`)."""
        if self._over:
            raise ValueError("the game is over")
        if self.rolled is not None:
            raise ValueError("set aside dice from the roll first")
        state = self if self.rolling else self.apply("roll")
        n = self.rules.dice - len(self.kept)
        return state.apply(roll_faces(n, rng, dice))

    def set_aside(self, dice: Sequence[int]) -> State:
        """Set aside these dice from the roll (at least one); chance rolls the others next, or
        the turn is over."""
        if self._over:
            raise ValueError("the game is over")
        if self.rolled is None:
            raise ValueError("roll before setting dice aside")
        h = tuple(sorted(dice))
        if h not in set_asides(self.rolled):
            raise ValueError(f"set aside must be at least one of the dice rolled {self.rolled}, got {tuple(dice)!r}")
        return self.apply(Aside(h))


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: seat 0's first turn, before its first roll."""
    return State(rules or Rules())


# -- your turn, and the game in words (for a page) ----------------------------------------------
@dataclass(frozen=True)
class Shown:
    """Your turn as the page shows it (after its end too): its dice, those set aside, the roll in
    front of you (None before a roll or once the turn is over)."""

    dice: int
    kept: Roll = ()
    roll: Roll | None = None

    @property
    def left(self) -> int:
        return self.dice - len(self.kept) - (len(self.roll) if self.roll else 0)

    @property
    def over(self) -> bool:
        return len(self.kept) == self.dice

    @property
    def score(self) -> int:
        return score(self.kept)

    @property
    def moon(self) -> bool:
        return self.over and all(d == 6 for d in self.kept)

    def after(self, aside: Roll) -> int:
        """The turn's score with these dice of the roll set aside too."""
        return self.score + score(aside)

    @property
    def chasing(self) -> int:
        """The dice still to roll chasing the moon, every die set aside a 6 (the roll in front of you
        counts if it has a 6); 0 once the moon is lost or the turn over.

        >>> Shown(5, (6,), (1, 2, 6, 6)).chasing, Shown(5, (6,)).chasing, Shown(5, (6,), (1, 2, 3, 4)).chasing
        (4, 4, 0)
        """
        alive = all(d == 6 for d in self.kept) and not self.over and (self.roll is None or 6 in self.roll)
        return (len(self.roll) if self.roll else self.left) if alive else 0

    def moon_text(self, state: State) -> str:
        """Where the turn stands with the moon, in words (`state`: the game, at your choice when a
        roll is in front of you).

        >>> Shown(5, (6,), (1, 2, 3, 4)).moon_text(initial_state())
        'your turn: the moon is lost (this roll has no 6)'
        >>> Shown(2).moon_text(initial_state(Rules(dice=2)))
        'your turn: the moon is still possible, P(moon) 2/27 ≈ 0.074 before this roll'
        """
        if self.over:
            return "you shot the moon!" if self.moon else "turn over"
        if not self.chasing:
            lost = "a die other than 6 is set aside" if any(d != 6 for d in self.kept) else "this roll has no 6"
            return f"your turn: the moon is lost ({lost})"
        chance: HintValue
        if self.roll is None:
            chance, where = moon_chances(self.dice)[self.chasing - 1], "before this roll"
        else:
            chance, where = state.hint(Moon(self.dice)).value, "from this roll, chasing it"
        return f"your turn: the moon is still possible, P(moon) {number_text(chance)} {where}"


def shown(state: State, mine: int | None) -> Shown:
    """Your turn in the game: `mine` is its place among the game's turns (None before it starts)."""
    dice = state.rules.dice
    if mine is None:
        return Shown(dice)
    if len(state.history) > mine:
        return Shown(dice, state.history[mine].dice)
    return Shown(dice, state.kept, state.rolled)


def tie_lines(state: State, names: Sequence[str], since: int) -> list[str]:
    """A line for each deciding round ended in a tie (the tied play one more round) among the turns since `since`."""
    lines = []
    for r in range(state.rules.rounds - 1, state.round):  # a deciding round the game went on from ended tied
        if max(i for i, t in enumerate(state.history) if t.round == r) < since:
            continue
        played = [t.seat for t in state.history if t.round == r]
        totals = {s: sum(t.score for t in state.history if t.seat == s and t.round <= r) for s in played}
        low = min(totals.values())
        tied = " and ".join(names[s] for s in played if totals[s] == low)
        lines.append(f"Tie at {low} between {tied}: one more round between them.")
    return lines


def result_text(state: State, names: Sequence[str]) -> str:
    """Who won, in a sentence ("" while the game goes on)."""
    if state.winner is None:
        return ""
    name = names[state.winner]
    s = "" if name == "You" else "s"
    last = state.history[-1]
    if last.seat == state.winner and all(d == 6 for d in last.dice):
        return f"{name} shoot{s} the moon ({state.rules.dice} sixes) and win{s} at once!"
    return f"{name} win{s} with the lowest total, {state.scores()[state.winner]}."
