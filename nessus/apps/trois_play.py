"""Les Trois as the page plays it (no widget): the goals' exact distributions, your turn as the
page shows it, the score sheet read from the game (`trois.State`) and the machines' policies
(played by `nessus.play.play`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from nessus import game as protocol
from nessus.dice import Roll
from nessus.dist import Dist
from nessus.games import trois
from nessus.games.trois import Goal

__all__ = ["MACHINES", "Goal", "Shown", "Sheet", "distributions", "machine_policies", "moon_chances", "sheet", "shown"]

MACHINES = ("optimal", "every 3, or the lowest", "chase the moon")
POLICIES = dict(zip(MACHINES, ("win", "heuristic", "moon")))
"""The game's policy each machine plays: "optimal" plays for the least expected score, and for the
win when last in a deciding round (`trois.State.objective`)."""


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


def machine_policies(machine: str, rules: trois.Rules, seats: Sequence[int]) -> dict[int, protocol.Policy]:
    """The policies of the machine players in `seats`, as `nessus.play.play` takes them."""
    policy = trois.policies(rules)[POLICIES[machine]]
    return {seat: policy for seat in seats}


# -- your turn as the page shows it ----------------------------------------------------------------
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
        return trois.score(self.kept)

    @property
    def moon(self) -> bool:
        return self.over and all(d == 6 for d in self.kept)


def shown(state: trois.State, mine: int | None) -> Shown:
    """Your turn in the game: `mine` is its place among the game's turns (None before it starts)."""
    dice = state.rules.dice
    if mine is None:
        return Shown(dice)
    if len(state.history) > mine:
        return Shown(dice, state.history[mine].dice)
    return Shown(dice, state.kept, state.rolled)


# -- the score sheet ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Sheet:
    """The score sheet of a game as the page shows it: the round on show (`round`), every seat's
    scores by round, who is in contention (`live`), each seat's last turn since the page last
    turned over (`turns`), the ties met since (`lines`), and the result."""

    rules: trois.Rules
    round: int
    scores: list[dict[int, int]]
    live: tuple[int, ...]
    turns: list[Roll | None]
    lines: list[str]
    result: str
    winner: int

    def total(self, seat: int) -> int:
        """A player's total so far."""
        return sum(self.scores[seat].values())

    def deciding(self) -> bool:
        """Is this the last scheduled round, or a tie-break round?"""
        return self.round >= self.rules.rounds - 1


def sheet(state: trois.State, round_: int, names: Sequence[str], since: int) -> Sheet:
    """The sheet of the game `state` showing round `round_`; `since`: the first of the game's turns
    on this page of the sheet (the last turns and the ties are those since)."""
    turns: list[Roll | None] = [None] * state.rules.players
    for t in state.history[since:]:
        turns[t.seat] = t.dice
    return Sheet(
        state.rules,
        round_,
        state.sheet(),
        state.seats,
        turns,
        tie_lines(state, names, since),
        result_text(state, names),
        -1 if state.winner is None else state.winner,
    )


def tie_lines(state: trois.State, names: Sequence[str], since: int) -> list[str]:
    """A line for each deciding round ended in a tie (the tied play one more round) among the turns since `since`."""
    lines = []
    for r in range(state.rules.rounds - 1, state.round):  # a deciding round the game went on from ended tied
        last = max(i for i, t in enumerate(state.history) if t.round == r)
        if last < since:
            continue
        played = [t.seat for t in state.history if t.round == r]
        totals = {s: sum(t.score for t in state.history if t.seat == s and t.round <= r) for s in played}
        low = min(totals.values())
        tied = " and ".join(names[s] for s in played if totals[s] == low)
        lines.append(f"Tie at {low} between {tied}: one more round between them.")
    return lines


def result_text(state: trois.State, names: Sequence[str]) -> str:
    """Who won, in a sentence ("" while the game goes on)."""
    if state.winner is None:
        return ""
    name = names[state.winner]
    s = "" if name == "You" else "s"
    last = state.history[-1]
    if last.seat == state.winner and all(d == 6 for d in last.dice):
        return f"{name} shoot{s} the moon ({state.rules.dice} sixes) and win{s} at once!"
    return f"{name} win{s} with the lowest total, {state.scores()[state.winner]}."
