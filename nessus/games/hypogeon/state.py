"""L'Hypogéon as the game protocol: whole games (`State`), rounds of turns in seat order, each
turn a `TurnRecord`; the moves ROLL (the first 2d6, then one more die) and STAND; the others'
dice of the round in play hidden until it ends."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import cast

import numpy as np

from nessus import game
from nessus.dice import roll_faces, roll_outcomes
from nessus.games.hypogeon.odds import turn_solver
from nessus.games.hypogeon.rules import BUST, LIMIT, Rules
from nessus.solver import Hint

STAND, ROLL = "stand", "roll"
"""The moves: roll (the first 2d6 of a turn, then one more die) or stand on the total."""

ROUNDS_PER_SCORE = 50
"""`State.shape().max_length` is a practical bound: it counts games of at most ROUNDS_PER_SCORE
times the most scoring rounds a game can take (players * (target - 1) + 1) rounds. Rounds where
nobody scores (a tie for the best, everyone bust) can make a game go on for ever (players who
always roll on are always bust), but a game passes the bound only if its rounds score less than
one time in 50 on average: with stand-at rules or the optimal rule, far more often than not."""

TURN_LENGTH = 42
"""The most moves and rolls in one turn: roll, the 2d6, then 20 times roll and a die (1s from 2
to 22)."""


@dataclass(frozen=True)
class TurnRecord:
    """One player's turn in a round (a part of `State`, not a state to play): the dice rolled so
    far (2 on the first roll, then 1 at a time), whether they stood, and whether dice are on their
    way (a roll asked for: chance next)."""

    rolls: tuple[tuple[int, ...], ...] = ()
    stood: bool = False
    rolling: bool = False

    @property
    def total(self) -> int:
        """The running total (0 before the first roll)."""
        return sum(sum(r) for r in self.rolls)

    @property
    def bust(self) -> bool:
        return self.total > LIMIT

    @property
    def over(self) -> bool:
        """The player stood or went above 21."""
        return self.stood or self.bust

    @property
    def final(self) -> int | None:
        """The final total (BUST = 0 for a bust), None while the turn goes on."""
        if not self.over:
            return None
        return BUST if self.bust else self.total


def score_round(finals: Sequence[int]) -> tuple[int | None, int]:
    """(the seat that scores or None, its points) for the players' final totals (BUST = 0): 2 for
    a sole 21, 1 for a sole best total, nothing on a tie for the best or when everyone is bust."""
    best = max(finals)
    if best == BUST or finals.count(best) > 1:
        return None, 0
    return finals.index(best), 2 if best == LIMIT else 1


@dataclass(frozen=True)
class State(game.State):
    """A whole game of L'Hypogéon (the game protocol): rounds until a player reaches `target`
    points; in each round every player takes a turn in seat order: a decision to roll (the only
    move at a turn's start), chance rolling 2d6 (sorted, exact weights), then "stand" or "roll"
    (one more die) until they stand or go above 21. A round is scored once its last turn is over;
    the next round starts with player 1's roll. Returns: 1 to the winner (only one player scores
    in a round, so one reaches the target first), 0 to the others.

    **Simultaneous play.** The players really roll at the same time: nobody sees the others'
    totals of the round in play. The turns are played in seat order, but `observation(p)` hides
    the other players' dice of the current round until it ends (`shape().hidden` is True, and
    `hidden_variants(p)` gives states that differ only there); hints and the named policies
    depend on the player's own total only.

    `hint()` values each move in expected points of the round against `players` - 1 opponents
    standing at `stand_at` (the expectimax of `optimal_rule`; the scores are left out).
    """

    rules: Rules = Rules()
    banked: tuple[int, ...] = ()
    history: tuple[tuple[int, ...], ...] = ()
    turns: tuple[TurnRecord, ...] = ()

    def __post_init__(self) -> None:
        if not self.banked:  # a new game: no points yet
            object.__setattr__(self, "banked", (0,) * self.rules.players)

    # -- the round ------------------------------------------------------------------------------
    @property
    def round_over(self) -> bool:
        """Every player's turn of the round in play is over (it is scored; the next starts with a roll)."""
        return len(self.turns) == self.rules.players and self.turns[-1].over

    @property
    def finals(self) -> list[int]:
        """The final totals of the round in play, once it is over (BUST = 0)."""
        if not self.round_over:
            raise ValueError("the round is not over")
        return [cast(int, t.final) for t in self.turns]

    @property
    def scores(self) -> list[int]:
        """Each player's points, the round in play counted once it is over."""
        scores = list(self.banked)
        if self.round_over:
            seat, points = score_round(self.finals)
            if seat is not None:
                scores[seat] += points
        return scores

    @property
    def round(self) -> int:
        """The number of the round in play (1 for the first)."""
        return len(self.history) + 1

    @property
    def round_points(self) -> list[int]:
        """Each seat's points from the round in play (none until it is over)."""
        return [s - b for s, b in zip(self.scores, self.banked)]

    @property
    def played(self) -> list[tuple[int, ...]]:
        """The final totals of every round over, the one in play included once it is over."""
        return list(self.history) + ([tuple(self.finals)] if self.round_over else [])

    @property
    def winner(self) -> int | None:
        """The seat that won the game (None while it goes on)."""
        return self.scores.index(max(self.scores)) if self.current_player() == game.TERMINAL else None

    def turn_of(self, seat: int) -> TurnRecord | None:
        """`seat`'s turn in the round in play (None before it starts)."""
        return self.turns[seat] if seat < len(self.turns) else None

    @property
    def playing(self) -> TurnRecord | None:
        """The turn in play (started and not over), if any."""
        return self.turns[-1] if self.turns and not self.turns[-1].over else None

    # -- the protocol --------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.round_over:
            return game.TERMINAL if max(self.scores) >= self.rules.target else 0
        turn = self.playing
        if turn is not None:
            return game.CHANCE if turn.rolling else len(self.turns) - 1
        return len(self.turns)

    def legal_actions(self) -> list[game.Action]:
        player = self.current_player()
        if player < 0:
            return []
        return [STAND, ROLL] if self.playing is not None else [ROLL]

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        turn = self.playing
        if turn is None or not turn.rolling:
            return []
        return roll_outcomes(1 if turn.rolls else 2)

    def _apply(self, action: game.Action) -> State:
        turn = self.playing
        if turn is None:  # a turn starts: the next player, or player 1 of the next round
            state = (
                replace(self, banked=tuple(self.scores), history=self.history + (tuple(self.finals),), turns=())
                if self.round_over
                else self
            )
            return replace(state, turns=state.turns + (TurnRecord(rolling=True),))
        if action == STAND:
            turn = replace(turn, stood=True)
        elif action == ROLL:
            turn = replace(turn, rolling=True)
        else:
            turn = replace(turn, rolls=turn.rolls + (cast(tuple[int, ...], action),), rolling=False)
        return replace(self, turns=self.turns[:-1] + (turn,))

    def returns(self) -> list[Fraction]:
        if self.winner is None:
            return [Fraction(0)] * self.rules.players
        return game.winner_returns(self.rules.players, self.winner)

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        r = self.rules
        lines = [
            f"L'Hypogéon, {r.players} players, first to {r.target} points; you are player {player + 1}.",
            "Scores: " + ", ".join(f"player {i + 1} {s}" for i, s in enumerate(self.scores)) + ".",
        ]
        if self.history:
            lines.append(
                "Rounds played: " + "; ".join(" ".join(final_text(f) for f in finals) for finals in self.history) + "."
            )
        shown = self.round_over
        lines.append(f"Round {self.round}" + ("" if shown else " (the others' dice stay hidden until it ends)") + ":")
        for seat in range(r.players):
            turn = self.turn_of(seat)
            if turn is None:
                lines.append(f"player {seat + 1}: to play")
            elif seat == player or shown:
                dice = " + ".join(" ".join(map(str, roll)) for roll in turn.rolls) or "no dice yet"
                end = f"final {final_text(turn.final)}" if turn.final is not None else f"total {turn.total}"
                lines.append(f"player {seat + 1}: {dice}; {end}")
            else:
                lines.append(f"player {seat + 1}: {'played' if turn.over else 'playing'}")
        mover = self.current_player()
        lines.append(
            "The game is over."
            if mover == game.TERMINAL
            else f"Player {len(self.turns)} is playing."
            if mover == game.CHANCE
            else f"Player {mover + 1} to move."
        )
        return "\n".join(lines)

    def hidden_variants(self, player: int) -> list[game.State]:
        """For each other player who has rolled in the round in play (not yet over): this state
        with their dice replaced (their total is hidden from `player`)."""
        game.check_players([player], self.shape())
        if self.round_over:
            return []
        out: list[game.State] = []
        for seat, turn in enumerate(self.turns):
            if seat == player or not turn.rolls:
                continue
            dice = ((1, 1),) if turn.rolls != ((1, 1),) else ((1, 2),)
            other = TurnRecord(dice, stood=True) if turn.over else TurnRecord(dice, rolling=turn.rolling)
            out.append(replace(self, turns=self.turns[:seat] + (other,) + self.turns[seat + 1 :]))
        return out

    def shape(self) -> game.Shape:
        r = self.rules
        return game.Shape(
            players=r.players,
            max_actions=2,
            max_chance_outcomes=21,
            max_length=ROUNDS_PER_SCORE * (r.players * (r.target - 1) + 1) * r.players * TURN_LENGTH,
            min_return=Fraction(0),
            max_return=Fraction(1),
            hidden=True,
        )

    def hint(self) -> Hint:
        """The expected points of the round for each move of the player to move (`best`: the
        optimal one), against `players` - 1 opponents standing at `stand_at`: before the first
        roll "roll" is the only move, worth `optimal_points`."""
        if self.current_player() < 0:
            return super().hint()
        game_ = turn_solver(self.rules.stand_at, self.rules.players)
        turn = self.playing
        return game_.hint("start" if turn is None else turn.total)

    # -- moves by name ------------------------------------------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, ...] | None = None) -> State:
        """The player to move rolls 2d6 (their first roll) or 1d6 (later), the given faces in any
        order or drawn with `rng`: the state after it."""
        if self.is_terminal():
            raise ValueError("the game is over")
        state = self if self.is_chance_node() else cast(State, self.apply(ROLL))
        n = 1 if state.turns[-1].rolls else 2
        return state.apply(roll_faces(n, rng, dice))

    def stand(self) -> State:
        """The player to move stands on their total."""
        if STAND not in self.legal_actions():
            raise ValueError("the player can stand only after the first roll, while the turn goes on")
        return cast(State, self.apply(STAND))


def final_text(final: int | None) -> str:
    """A final total in words: the number, "bust", or "?" while the turn goes on."""
    return "?" if final is None else "bust" if final == BUST else str(final)


def round_text(finals: Sequence[int], names: Sequence[str]) -> str:
    """A round's outcome in a sentence, from its final totals (`names`: the seats', "You" first).

    >>> round_text([21, 20], ["You", "Player 2"]), round_text([0, 0], ["You", "Player 2"])
    ('You score 2 points with a sole 21.', 'Nobody scores: everyone is bust.')
    """
    seat, points = score_round(finals)
    if seat is None:
        return f"Nobody scores: {'everyone is bust' if max(finals) == BUST else f'a tie for best on {max(finals)}'}."
    how = "a sole 21" if points == 2 else f"the single best total, {finals[seat]}"
    return f"{names[seat]} score{'' if seat == 0 else 's'} {points} point{'s' if points == 2 else ''} with {how}."


def round_line(number: int, finals: Sequence[int], names: Sequence[str]) -> str:
    """A round over in a game's list: its number, every player's final total (you first) and the outcome.

    >>> round_line(3, [18, 0], ["You", "Player 2"])
    'Round 3: you 18 · P2 bust → You score 1 point with the single best total, 18.'
    """
    shown = " · ".join(f"{'you' if i == 0 else f'P{i + 1}'} {final_text(f)}" for i, f in enumerate(finals))
    return f"Round {number}: {shown} → {round_text(finals, names)}"


def result_text(state: State, names: Sequence[str]) -> str:
    """Who won the game, in a sentence ("" while it goes on; `names`: the seats', "You" first)."""
    if state.winner is None:
        return ""
    seat, n = state.winner, len(state.played)
    return (
        f"{names[seat]} {'win' if seat == 0 else 'wins'} the game with {state.scores[seat]} points after {n} "
        f"round{'s' if n > 1 else ''}."
    )


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: no points, player 1 to roll."""
    rules = rules or Rules()
    return State(rules)
