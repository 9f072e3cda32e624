"""Les Trois's exact odds: one turn solved by expectimax (`nessus.solver.Expectimax`) over states
(what matters of the dice set aside, the roll in front of the player), memoised on (that
summary, dice left), and the report's figures:

- the policy minimising the expected score (`optimal_mean`; `p_zero_optimal` = P(score 0)
  under it; the minimising choice is unique in every state, so the distribution is too);
- the policy maximising P(6-6-6-6-6) (`p_moon_optimal_for_moon`);
- the policy maximising P(score <= `target`) (`p_at_most_target_best`);
- the policy maximising P(score <= need, or the moon) (`win_turn`: the last player of a
  game's last round, `need` being the most they may score and still be lowest).

Ties between choices (none occur for the mean) go to the choice listed first: more dice set
aside, then the lower score. The human rule `heuristic`: set aside every 3, or with no 3 the
single lowest die.

>>> from nessus.games.trois.rules import Rules
>>> optimal_mean(Rules(dice=2))
Fraction(79, 18)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from functools import cache
from typing import Any, Generic, TypeVar

from nessus.dice import Roll, multisets
from nessus.dist import Dist
from nessus.games.trois.rules import NAME, Rules, score, set_asides
from nessus.report import Figure, Report
from nessus.solver import Expectimax, TurnPolicy

START = "start"


S = TypeVar("S", bound=Hashable)
"""What a turn's solver remembers of the dice set aside (the points so far, "all 6s so far"...)."""

"""A turn's play as a function of the solver's state (summary, roll): the dice to set aside
(`START` before the first roll). The summary's type depends on the goal, hence `Any`."""


class Turn(Generic[S]):
    """One turn as an `Expectimax`: state (summary, roll) with roll () once every die is set
    aside, and the starting state (summary, None) whose only move is the first roll.

    `add(summary, dice)` folds the dice just set aside into the summary (the sum, or whether
    all were 6s...), `payoff(summary)` scores the finished turn."""

    def __init__(
        self, dice: int, start: S, add: Callable[[S, Roll], S], payoff: Callable[[S], int], maximise: bool
    ) -> None:
        self.dice, self.start, self.add, self.payoff = dice, start, add, payoff
        self.game = Expectimax(self.choices, self.chance, lambda s: payoff(s[0]), maximise)

    def choices(self, state: tuple[S, Roll | None]) -> list[tuple[Hashable, Hashable]]:
        summary, roll = state
        if roll is None:
            return [(START, (summary, self.dice))]
        return [(h, (self.add(summary, h), len(roll) - len(h))) for h in set_asides(roll)]

    def chance(self, after: tuple[S, int]) -> list[tuple[Hashable, int]]:
        summary, left = after
        if left == 0:
            return [((summary, ()), 1)]
        return [((summary, r), w) for r, w in multisets(left)]

    def value(self) -> Fraction:
        """The turn's optimal expected payoff before the first roll."""
        return Fraction(self.game.value((self.start, None)))

    def distribution(self, policy: TurnPolicy | None = None) -> Dist:
        """The exact distribution of the payoff under `policy(state) -> dice to set aside`
        (default: optimal), by a forward pass over (summary, dice left): dice left only go down."""
        choose: TurnPolicy = policy or self.game.best
        front: dict[tuple[S, int], Fraction] = {(self.start, self.dice): Fraction(1)}
        final: dict[Hashable, Fraction] = {}
        for left in range(self.dice, 0, -1):
            for (summary, _), p in [(a, p) for a, p in front.items() if a[1] == left]:
                q = p / 6**left
                for roll, w in multisets(left):
                    h = choose((summary, roll))
                    assert isinstance(h, tuple), f"a policy sets aside dice, got {h!r}"
                    after = (self.add(summary, h), left - len(h))
                    if after[1] == 0:
                        final[self.payoff(after[0])] = final.get(self.payoff(after[0]), Fraction(0)) + q * w
                    else:
                        front[after] = front.get(after, Fraction(0)) + q * w
        return Dist.from_probabilities(final)


def _all_sixes(dice: Roll) -> bool:
    return all(d == 6 for d in dice)


@cache
def mean_turn(dice: int) -> Turn[int]:
    """Minimise the expected score; the summary is the score so far."""
    return Turn(dice, 0, lambda s, h: s + score(h), lambda s: s, maximise=False)


@cache
def moon_turn(dice: int) -> Turn[bool]:
    """Maximise P(every die set aside is a 6); the summary is "all 6s so far"."""
    return Turn(dice, True, lambda ok, h: ok and _all_sixes(h), int, maximise=True)


@cache
def target_turn(dice: int, target: int) -> Turn[int]:
    """Maximise P(score <= target); the summary is the score so far, capped at target + 1."""
    return Turn(dice, 0, lambda s, h: min(s + score(h), target + 1), lambda s: int(s <= target), maximise=True)


@cache
def win_turn(dice: int, need: int) -> Turn[tuple[int, bool]]:
    """Maximise P(score <= need, or 6-6-...-6: the moon), what the last player of a game's last
    round plays for; the summary is (the score so far capped at need + 1, all 6s so far). With
    `need` below 0 only the moon counts."""
    cap = max(need, -1) + 1
    return Turn(
        dice,
        (0, True),
        lambda s, h: (min(s[0] + score(h), cap), s[1] and _all_sixes(h)),
        lambda s: int(s[0] <= need or s[1]),
        maximise=True,
    )


def heuristic(state: tuple[Any, Roll | None]) -> Roll | str:
    """The human rule: set aside every 3, or with no 3 the single lowest die (by points)."""
    roll = state[1]
    return START if roll is None else heuristic_aside(roll)


def heuristic_aside(roll: Roll) -> Roll:
    """The dice the human rule sets aside from a roll: every 3, or with no 3 the lowest die."""
    threes = tuple(d for d in roll if d == 3)
    return threes if threes else (min(roll, key=lambda d: (score((d,)), d)),)


def optimal_mean(rules: Rules | None = None) -> Fraction:
    """The least expected score (points) of a turn."""
    return mean_turn((rules or Rules()).dice).value()


def score_distribution(rules: Rules | None = None, policy: TurnPolicy | None = None) -> Dist:
    """The exact distribution of a turn's score (points) under `policy(state) -> dice to set
    aside` (default: least expected score)."""
    return mean_turn((rules or Rules()).dice).distribution(policy)


@cache
def heuristic_distribution(dice: int) -> Dist:
    """The exact distribution of a turn's score under the human rule (`heuristic`)."""
    return score_distribution(Rules(dice=dice), heuristic)


def report(rules: Rules | None = None) -> Report:
    """The exact figures of one turn."""
    rules = rules or Rules()
    optimal = score_distribution(rules)
    human = heuristic_distribution(rules.dice)
    return Report(
        NAME,
        rules.as_dict(),
        {
            "optimal_mean": Figure.of(optimal.mean(), "least expected score of a turn (points)"),
            "p_zero_optimal": Figure.of(optimal[0], "P(score 0) playing for the least expected score"),
            "p_moon_optimal_for_moon": Figure.of(moon_turn(rules.dice).value(), "P(all 6s) playing for it"),
            "p_at_most_target_best": Figure.of(
                target_turn(rules.dice, rules.target).value(), f"P(score <= {rules.target}) playing for it"
            ),
            "heuristic_mean": Figure.of(human.mean(), "expected score setting aside every 3, or else the lowest die"),
            "p_zero_heuristic": Figure.of(human[0], "P(score 0) with that rule"),
        },
    )


@cache
def moon_chances(dice: int) -> tuple[Fraction, ...]:
    """P(shooting the moon) chasing it, with k dice still to roll and every die set aside a 6: k = 1 .. dice."""
    game = moon_turn(dice).game
    return tuple(Fraction(game.after_value((True, k))) for k in range(1, dice + 1))
