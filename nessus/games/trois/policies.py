"""How to play Les Trois: what a turn is played for (its objectives, as objects), the play for
each (ties broken by the least expected score) and the game's named policies.

An objective (`nessus.game.Objective`) says in `text` what it plays for and in `unit` what its
values are; `payoff(final)` scores a turn's dice set aside; `turn()` is the turn solved for it
(an expectimax, `nessus.games.trois.odds.Turn`), `policy()` the play that reaches it, and
`figure(d)` its value for a turn whose score has the law d.

>>> Moon(2).turn().value(), Moon(2).payoff((6, 6)), LeastScore(2).payoff((3, 6))
(Fraction(2, 27), 1, 6)
>>> Win(5, 10).text, Win(5, -4) == Win(5, -1)
('P(score ≤ 10, or the moon)', True)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from nessus import game as protocol
from nessus.dice import Roll
from nessus.dist import Dist
from nessus.games.trois.odds import (
    START,
    Turn,
    heuristic_aside,
    mean_turn,
    moon_turn,
    score_distribution,
    target_turn,
    win_turn,
)
from nessus.games.trois.rules import Aside, Rules, as_aside, score
from nessus.solver import TurnPolicy

if TYPE_CHECKING:
    from nessus.games.trois.state import State


class TurnObjective:
    """What a turn with `dice` dice is played for (see the subclasses). Objectives are values:
    equal when they play for the same thing, hashable."""

    text = "the least expected score"
    unit = "probability"
    played = "played for the goal"
    """The chart's name for a turn played for it."""

    def __init__(self, dice: int, bound: int = 0) -> None:
        self.dice, self.bound = dice, bound

    def turn(self) -> Turn[Any]:
        """The turn solved for this objective; its `value()` is the best value before the first roll."""
        raise NotImplementedError

    def summary(self, points: int, kept: int) -> Hashable:
        """What `turn()` remembers of `kept` dice set aside worth `points`."""
        raise NotImplementedError

    def of_score(self, points: int) -> int:
        """The payoff of a finished turn that scored `points` (6 x dice only for the moon)."""
        raise NotImplementedError

    def payoff(self, final: Roll) -> int:
        """The payoff of a turn's dice, all set aside."""
        return self.of_score(score(final))

    def figure(self, d: Dist) -> Fraction:
        """The objective's value for a turn whose score has the law `d`."""
        return sum((d[s] * self.of_score(cast(int, s)) for s in d.outcomes), Fraction(0))

    def policy(self) -> TurnPolicy:
        """Play for it, taking among the choices best for it the one with the least expected
        score (so once the moon or a target is lost, or sure, play for the lowest score); a policy
        of the solver's state (points set aside so far, roll)."""
        return _choose(self)

    def tied(self, value: Fraction | int | float) -> str:
        """Why every choice is worth the same `value` for it."""
        return "every choice is worth the same for it"

    def aim(self, deciding: bool) -> str:
        """What a player in a game plays for, in a sentence (HTML)."""
        return f"the hint plays for {self.text}."

    def figures(self) -> list[tuple[str, TurnObjective]]:
        """The figures of a turn played for it, by name: the expected score, P(score 0), its own (for
        a target above 0), P(moon).

        >>> [name for name, _ in AtMost(5, 4).figures()]
        ['expected score', 'P(score 0)', 'P(score ≤ 4)', 'P(moon)']
        """
        own = [(self.text, self)] if isinstance(self, (AtMost, Win)) and self.bound > 0 else []
        return [
            ("expected score", LeastScore(self.dice)),
            ("P(score 0)", AtMost(self.dice, 0)),
            *own,
            ("P(moon)", Moon(self.dice)),
        ]

    def _key(self) -> tuple[object, ...]:
        return (type(self).__name__, self.dice, self.bound)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TurnObjective) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.dice}{f', {self.bound}' if type(self) in (AtMost, Win) else ''})"


class LeastScore(TurnObjective):
    """The least expected score (what every turn but a deciding round's last plays for)."""

    unit = "expected final score"
    played = "optimal"

    def turn(self) -> Turn[int]:
        return mean_turn(self.dice)

    def summary(self, points: int, kept: int) -> Hashable:
        return points

    def of_score(self, points: int) -> int:
        return points

    def aim(self, deciding: bool) -> str:
        if deciding:
            return "a deciding round; the players after you still play, so the hint plays for the least expected score."
        return "the hint plays for the least expected score."


class AtMost(TurnObjective):
    """P(score <= `bound`): the target (0: five 3s)."""

    def __init__(self, dice: int, bound: int = 0) -> None:
        super().__init__(dice, bound)
        self.text = "P(score 0)" if bound == 0 else f"P(score ≤ {bound})"

    def turn(self) -> Turn[int]:
        return target_turn(self.dice, self.bound)

    def summary(self, points: int, kept: int) -> Hashable:
        return min(points, self.bound + 1)

    def of_score(self, points: int) -> int:
        return int(points <= self.bound)


class Moon(TurnObjective):
    """P(shooting the moon: every die a 6)."""

    def __init__(self, dice: int) -> None:
        super().__init__(dice)
        self.text = f"P(shooting the moon: {dice} sixes)"

    def turn(self) -> Turn[bool]:
        return moon_turn(self.dice)

    def summary(self, points: int, kept: int) -> Hashable:
        return points == 6 * kept

    def of_score(self, points: int) -> int:
        return int(points == 6 * self.dice)

    def tied(self, value: Fraction | int | float) -> str:
        return "the moon is lost" if value == 0 else super().tied(value)


class Win(TurnObjective):
    """P(score <= `bound`, or the moon): the last player of a deciding round, `bound` being the
    most they may score and still be lowest (below 0: only the moon; 6 x dice or more: sure)."""

    def __init__(self, dice: int, bound: int) -> None:
        super().__init__(dice, min(max(bound, -1), 6 * dice))
        if self.bound < 0:
            self.text = "P(shooting the moon), the only way left to win"
        elif self.bound >= 6 * dice:
            self.text = "P(winning): certain, whatever you score"
        else:
            self.text = f"P(score ≤ {self.bound}, or the moon)"

    def turn(self) -> Turn[tuple[int, bool]]:
        return win_turn(self.dice, self.bound)

    def summary(self, points: int, kept: int) -> Hashable:
        return min(points, self.bound + 1), points == 6 * kept

    def of_score(self, points: int) -> int:
        return int(points <= self.bound or points == 6 * self.dice)

    def aim(self, deciding: bool) -> str:
        if self.bound < 0:
            return "you play last and only the moon can still make you lowest."
        if self.bound >= 6 * self.dice:
            return "you play last and win whatever you score."
        return f"you play last: score at most <b>{self.bound}</b> to finish lowest (or shoot the moon)."


@cache
def _choose(objective: TurnObjective) -> TurnPolicy:
    turn, mean = objective.turn(), mean_turn(objective.dice).game
    dice = objective.dice

    @cache
    def choose(state: tuple[int, Roll | None]) -> Hashable:
        points, roll = state
        if roll is None:
            return START
        values = turn.game.hint((objective.summary(points, dice - len(roll)), roll)).values
        top = (max if turn.game.maximise else min)(values.values())
        best = [h for h, v in values.items() if v == top]
        if len(best) == 1:
            return best[0]
        expected = mean.hint((points, roll)).values
        return min(best, key=expected.__getitem__)

    return choose


@cache
def distribution(objective: TurnObjective) -> Dist:
    """The exact score law of a turn played for `objective`."""
    return score_distribution(Rules(dice=objective.dice), objective.policy())


TARGETED = "P(score ≤ a target)"


def objectives(dice: int, target: int) -> dict[str, TurnObjective]:
    """The objectives a person may choose for a turn with `dice` dice, by name (`target`: the
    score to stay at or below for `TARGETED`)."""
    return {
        "the least expected score": LeastScore(dice),
        "P(score 0): five 3s": AtMost(dice, 0),
        TARGETED: AtMost(dice, target),
        "shoot the moon: five 6s": Moon(dice),
    }


# -- the named policies: a whole game -------------------------------------------------------------
def _playing(objective: Callable[[State], TurnObjective]) -> protocol.Policy:
    """A policy of the game that rolls, then sets aside what `objective(state)` plays for."""

    def choose(state: protocol.State) -> protocol.Action:
        s = cast("State", state)
        if s.rolled is None:
            return "roll"
        return as_aside(objective(s).policy()((s.points, s.rolled)))

    return choose


def _heuristic(state: protocol.State) -> protocol.Action:
    """Set aside every 3, or with no 3 the single lowest die (by points)."""
    s = cast("State", state)
    return "roll" if s.rolled is None else Aside(heuristic_aside(s.rolled))


def policies(rules: Rules | None = None) -> dict[str, protocol.Policy]:
    """ "optimal": the least expected score every turn (what the simulation's optimal seat plays,
    `fast.games`); "heuristic": every 3, or with no 3 the single lowest die (the simulation's
    other seats); "moon": set aside every 6 while the moon can be shot, then the least expected
    score; "win": the least expected score, except the last to play in a deciding round, who
    plays to finish lowest or shoot the moon (`State.objective`, the page's "optimal" machine)."""
    return {
        "optimal": _playing(lambda s: LeastScore(s.rules.dice)),
        "heuristic": _heuristic,
        "moon": _playing(lambda s: Moon(s.rules.dice)),
        "win": _playing(lambda s: s.objective()),
    }


MACHINES = ("optimal", "every 3, or the lowest", "chase the moon")
"""How the machine players of the page play, in words: the policies "win", "heuristic", "moon"."""
POLICIES = dict(zip(MACHINES, ("win", "heuristic", "moon")))


def machine_policies(machine: str, rules: Rules, seats: Sequence[int]) -> dict[int, protocol.Policy]:
    """The policies of the machine players in `seats` (playing `machine`, one of MACHINES), as
    `nessus.play.play` takes them."""
    policy = policies(rules)[POLICIES[machine]]
    return {seat: policy for seat in seats}
