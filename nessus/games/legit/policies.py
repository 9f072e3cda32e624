"""How to play Le Légit: the objectives a turn is played for, as objects (`Mean`, `Chase`,
`First`: each says what it is in words, scores a turn's end, solves a turn and hints a move),
the ways of playing a turn compared for an objective (`plays`), and the named policies of the
game (`policies`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import ClassVar, cast

from nessus import game
from nessus.dist import Dist
from nessus.games.legit.odds import (
    TurnSolver,
    beat_turn,
    first_share,
    first_turn,
    mean_turn,
    reroll_below,
    score_distribution,
    share,
)
from nessus.games.legit.rules import DICE, Rules
from nessus.games.legit.state import ROLL, State
from nessus.numbers import Kind
from nessus.solver import Hint, TurnPolicy

THRESHOLD = 8
"""The best single "reroll below X" for the mean, with 1, 2 or 3 rerolls."""
SIX = int(DICE.default)

Final = tuple[int, int]
"""A turn's end: (the total kept, the rerolls used)."""


# -- the objectives ----------------------------------------------------------------------------------
class TurnObjective:
    """What a turn is played for (a `nessus.game.Objective`): `text` in words, `unit` of its
    values, `kind` (scores or probabilities, for `nessus.numbers`), `payoff((total, rerolls
    used))`, and from these the solved turn, its hint, its optimal choice and a policy's value.
    `to_beat`: the score it chases, if any (the chart draws it)."""

    kind: ClassVar[Kind] = "probability"
    to_beat: int | None = None

    @property
    def text(self) -> str:
        raise NotImplementedError

    @property
    def unit(self) -> str:
        raise NotImplementedError

    def payoff(self, final: Final) -> Fraction | int:
        raise NotImplementedError

    def turn(self, dice: int, rerolls: int) -> TurnSolver:
        """The turn of `dice` dice and up to `rerolls` rerolls, solved for this objective."""
        raise NotImplementedError

    def hint(self, state: State) -> Hint:
        """The exact value of each move for the player to move in `state`, for this objective."""
        return state.hint(self)

    def choice(self, rerolls: int) -> TurnPolicy:
        """The optimal keep-or-reroll choice, state ("rolled", rerolls left, dice left, total)."""
        return self.turn(SIX, rerolls).game.best

    def worth(self, rerolls: int) -> Fraction:
        """What a turn is worth before its first roll, played optimally for this objective."""
        return self.turn(SIX, rerolls).value()

    def value(self, rerolls: int, policy: TurnPolicy) -> Fraction:
        """The exact value (in `unit`) of playing `policy` with up to `rerolls` rerolls."""
        scores = score_distribution(Rules(rerolls=rerolls), policy)
        return sum((p * self.payoff((cast(int, s), 0)) for s, p in scores.items()), Fraction(0))


@dataclass(frozen=True)
class Mean(TurnObjective):
    """The objective "the most expected points" for a turn."""

    kind: ClassVar[Kind] = "value"
    text = property(lambda self: "the expected score")
    unit = property(lambda self: "expected score")

    def payoff(self, final: Final) -> int:
        return final[0]

    def turn(self, dice: int, rerolls: int) -> TurnSolver:
        return mean_turn(dice, rerolls)

    def value(self, rerolls: int, policy: TurnPolicy) -> Fraction:
        return score_distribution(Rules(rerolls=rerolls), policy).mean()


@dataclass(frozen=True)
class Chase(TurnObjective):
    """The objective "beat `best`" for a turn: P(score > best) + P(score = best)/2 (a tie for
    first shares the win)."""

    best: int
    text = property(lambda self: f"P(score > {self.best}) + ½ P(score = {self.best})")
    unit = property(lambda self: "probability")
    to_beat = property(lambda self: self.best)

    def payoff(self, final: Final) -> Fraction:
        total = final[0]
        return Fraction(int(total > self.best)) + (Fraction(1, 2) if total == self.best else Fraction(0))

    def turn(self, dice: int, rerolls: int) -> TurnSolver:
        return beat_turn(dice, rerolls, self.best, Fraction(1, 2))


@dataclass(frozen=True)
class First(TurnObjective):
    """The first of `players` players: play for your share of the win, the later players capped
    at the rerolls you use and chasing your score (the round's own goal for seat 1)."""

    players: int
    text = property(lambda self: f"your share of the win, first of {self.players} players")
    unit = property(lambda self: "share of the win")

    def payoff(self, final: Final) -> Fraction:
        return share(SIX, self.players, *final)

    def turn(self, dice: int, rerolls: int) -> TurnSolver:
        return first_turn(dice, rerolls, self.players)

    def hint(self, state: State) -> Hint:
        return state.hint()  # seat 1's own goal in the round

    def value(self, rerolls: int, policy: TurnPolicy) -> Fraction:
        return first_share(Rules(rerolls=rerolls, players=self.players), policy)


Goal = Mean | Chase | First
"""The objectives a turn may be played for."""


# -- the ways of playing a turn, compared -------------------------------------------------------------
NO_REROLL, BELOW = "no reroll", f"reroll below {THRESHOLD}"


@dataclass(frozen=True)
class Play:
    """One way of playing: its name, exact score distribution, value for the goal and expected score."""

    name: str
    scores: Dist
    value: Fraction
    mean: Fraction


@cache
def plays(goal: Goal, rerolls: int) -> tuple[Play, ...]:
    """The optimal play for the goal, never rerolling and "reroll below 8" (and, for a goal other
    than the mean, playing for the best mean), each with up to `rerolls` rerolls."""
    rules = Rules(rerolls=rerolls)  # below: "reroll below 0" never rerolls
    ways: list[tuple[str, TurnPolicy]] = [
        ("optimal", goal.choice(rerolls)),
        (NO_REROLL, reroll_below(0)),
        (BELOW, reroll_below(THRESHOLD)),
    ]
    if goal != Mean():
        ways.append(("for the best mean", Mean().choice(rerolls)))
    out = []
    for name, policy in ways:
        scores = score_distribution(rules, policy)
        out.append(Play(name, scores, goal.value(rerolls, policy), scores.mean()))
    return tuple(out)


def keeps_from(choice: TurnPolicy, rerolls_left: int, dice: int) -> int | None:
    """The least total `choice` keeps with `dice` dice and `rerolls_left` rerolls left (None: it never keeps)."""
    keep = [t for t in range(6 * dice + 1) if choice(("rolled", rerolls_left, dice, t)) == "keep"]
    return min(keep) if keep else None


def least_kept(choice: TurnPolicy, rerolls: int, used: int, dice: int) -> str:
    """The least total `choice` keeps after `used` of `rerolls` rerolls with `dice` dice left, in words."""
    least = keeps_from(choice, rerolls - used, dice)
    return "all" if used == rerolls else "none" if least is None else str(least)


# -- the named policies of the game ---------------------------------------------------------------------
def _as_state(state: game.State) -> State:
    if not isinstance(state, State):
        raise ValueError(f"a Le Légit state is needed, got {type(state).__name__}")
    return state


def optimal(state: game.State) -> game.Action:
    """The module's optimal play: seat 1 for their share of the win, a later seat to beat the best so far."""
    s = _as_state(state)
    if s.legal_actions() == [ROLL]:
        return ROLL
    return s.solver().game.best(s.position())


def per_turn(choose: Callable[[Rules], TurnPolicy]) -> game.Policy:
    """A policy playing every turn by the turn policy `choose(rules)` (see `TurnPolicy`)."""

    def policy(state: game.State) -> game.Action:
        s = _as_state(state)
        if s.legal_actions() == [ROLL]:
            return ROLL
        return choose(s.rules)(s.position())

    return policy


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """ "optimal" (`optimal`), "best_mean" (every turn for the best expected score) and the human
    rule "reroll_below" (reroll while the total is below `rules.reroll_below`)."""
    rules = rules or Rules()
    below = reroll_below(rules.reroll_below)
    return {
        "optimal": optimal,
        "best_mean": per_turn(lambda r: Mean().turn(r.dice, r.rerolls).game.best),
        "reroll_below": per_turn(lambda r: below),
    }
