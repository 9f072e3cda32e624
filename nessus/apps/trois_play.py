"""Les Trois as the page plays it: the goals a turn is played for (with their exact values and
distributions), a game's score sheet and who wins it, and the machines' turns (no widget)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from nessus.dist import Dist
from nessus.games import trois
from nessus.games.trois import Play
from nessus.solver import Hint

MACHINES = ("optimal", "every 3, or the lowest", "chase the moon")
MAX_ROUNDS = 1000  # tie-break rounds played out for the machines (a tie lasting this long has probability ~0)


# -- goals ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Goal:
    """A turn's aim: "mean" (the least expected score), "target" (P(score <= target)), "moon" (P(five 6s)) or
    "win" (P(score <= target, or the moon): the last player of a deciding round)."""

    kind: str = "mean"
    target: int = 0

    @property
    def unit(self) -> str:
        return "expected final score" if self.kind == "mean" else "probability"

    def text(self, dice: int) -> str:
        """The goal in words."""
        if self.kind == "mean":
            return "the least expected score"
        if self.kind == "moon":
            return f"P(shooting the moon: {dice} sixes)"
        if self.kind == "target":
            return "P(score 0)" if self.target == 0 else f"P(score ≤ {self.target})"
        if self.target < 0:
            return "P(shooting the moon), the only way left to win"
        if self.target >= 6 * dice:
            return "P(winning): certain, whatever you score"
        return f"P(score ≤ {self.target}, or the moon)"

    def figure(self, d: Dist, dice: int) -> Fraction:
        """The goal's value for a turn whose score has the distribution d."""
        if self.kind == "mean":
            return d.mean()
        moon, low = self.kind in ("moon", "win"), self.kind in ("target", "win")
        return d.prob(lambda s: (moon and s == 6 * dice) or (low and s <= self.target))

    def policy(self, dice: int) -> Callable[[tuple[int, tuple[int, ...] | None]], Hashable]:
        """The engine's play for the goal, ties broken by the least expected score."""
        return trois.policy(dice, self.kind, self.target)

    def hint(self, play: Play) -> Hint:
        """Every set-aside's value for the goal; the best one as the policy plays it (ties: the least expected score)."""
        h = play.hint(self.kind, self.target)
        return Hint(h.state, h.values, self.policy(play.dice)((play.score, play.roll)), h.maximise)


@cache
def distributions(dice: int, goal: Goal) -> tuple[Dist, Dist]:
    """The exact score distribution of a turn played for the goal, and setting aside every 3 (or the lowest die)."""
    rules = trois.Rules(dice=dice)
    return trois.score_distribution(rules, goal.policy(dice)), trois.score_distribution(rules, trois.heuristic)


@cache
def moon_chances(dice: int) -> tuple[Fraction, ...]:
    """P(shooting the moon) chasing it, with k dice still to roll and every die set aside a 6: k = 1 .. dice."""
    game = trois.moon_turn(dice).game
    return tuple(Fraction(game.after_value((True, k))) for k in range(1, dice + 1))


# -- a game: the score sheet and the machines ---------------------------------------------------
class Match:
    """A game's score sheet: scores by round, last turns, who is in contention (`live`) and has played, the result."""

    def __init__(self, rules: trois.Rules, names: list[str]) -> None:
        self.rules, self.names = rules, names
        self.scores: list[dict[int, int]] = [{} for _ in range(rules.players)]
        self.turns: list[Play | None] = [None] * rules.players
        self.live, self.round, self.played = list(range(rules.players)), 0, set[int]()
        self.result, self.winner, self.lines = "", -1, list[str]()

    def total(self, seat: int) -> int:
        """A player's total so far."""
        return sum(self.scores[seat].values())

    def deciding(self) -> bool:
        """Is this the last scheduled round, or a tie-break round?"""
        return self.round >= self.rules.rounds - 1

    def played_out(self) -> bool:
        """Has every player still in contention played this round?"""
        return all(s in self.played for s in self.live)

    def goal_for(self, seat: int) -> Goal:
        """The least expected score; for the last to play in a deciding round, the most they may score and stay lowest."""
        others = [s for s in self.live if s != seat]
        if self.deciding() and others and all(s in self.played for s in others):
            need = min(self.total(s) for s in others) - self.total(seat) - 1
            return Goal("win", min(max(need, -1), 6 * self.rules.dice))  # below 0 (or above every score): all alike
        return Goal()

    def record(self, seat: int, turn: Play) -> None:
        """A finished turn on the score sheet; a moon ends the game at once."""
        self.scores[seat][self.round], self.turns[seat] = turn.score, turn
        self.played.add(seat)
        if turn.moon:
            self.winner, s = seat, "" if self.names[seat] == "You" else "s"
            self.result = f"{self.names[seat]} shoot{s} the moon ({turn.dice} sixes) and win{s} at once!"

    def end_round(self) -> None:
        """After a deciding round: the lowest total wins, or the tied play one more round."""
        if not self.deciding():
            return
        low = min(self.total(s) for s in self.live)
        tied = [s for s in self.live if self.total(s) == low]
        if len(tied) == 1:
            self.winner, name = tied[0], self.names[tied[0]]
            self.result = f"{name} win{'' if name == 'You' else 's'} with the lowest total, {low}."
        else:
            self.live = tied
            tied_names = " and ".join(self.names[s] for s in tied)
            self.lines.append(f"Tie at {low} between {tied_names}: one more round between them.")

    def next_round(self, fresh: bool = True) -> None:
        """On to the next round (`fresh`: a new page of the sheet, last turns and notes cleared)."""
        self.round, self.played = self.round + 1, set()
        if fresh:
            self.turns = [None] * self.rules.players
            self.lines = []


def play_machine(kind: str, goal: Goal, dice: int, rng: np.random.Generator) -> Play:
    """A machine's whole turn, played as `kind` (one of MACHINES; "optimal": for `goal`): the finished turn."""
    policy = trois.heuristic if kind == MACHINES[1] else (goal if kind == MACHINES[0] else Goal("moon")).policy(dice)
    play = Play(dice)
    while not play.over:
        play = play.throw(rng)
        play = play.set_aside(policy((play.score, play.roll)))
    return play
