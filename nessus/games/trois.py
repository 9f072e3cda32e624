"""Les Trois: roll 5d6; after each roll set aside at least one die (set-aside dice are final)
and roll the rest, until every die is set aside (so at most 5 rolls). Score = the sum of the
dice set aside, every 3 counting 0; lowest wins. Five 3s score 0; 6-6-6-6-6 "shoots the moon"
and wins the pot at once (RULES.md section 5).

Exact play by expectimax (`nessus.solver.Expectimax`) over states (what matters of the dice
set aside, the roll in front of the player), memoised on (that summary, dice left):

- the policy minimising the expected score (`optimal_mean`; `p_zero_optimal` = P(score 0)
  under it; the minimising choice is unique in every state, so the distribution is too);
- the policy maximising P(6-6-6-6-6) (`p_moon_optimal_for_moon`);
- the policy maximising P(score <= `target`) (`p_at_most_target_best`);
- the policy maximising P(score <= need, or the moon) (`win_turn`: the last player of a
  game's last round, `need` being the most they may score and still be lowest).

`policy(dice, goal, target)` plays for any of these goals, breaking its ties by the least
expected score (so once the moon or the target is lost it plays for the lowest score); a
`Goal` names one (what `State.hint` may be asked to value).

Ties between choices (none occur for the mean) go to the choice listed first: more dice set
aside, then the lower score. The human rule `heuristic`: set aside every 3, or with no 3 the
single lowest die.

A game (simulated): `rounds` rounds, each player one turn per round; the lowest total wins;
a moon ends the game at once, won by its shooter (the first in a round to shoot it); tied
lowest totals play one more round between them, as often as needed. Stakes are not counted,
only who takes the pot. Whole games draw each turn from its exact score law (`score_table`);
`turns` rolls die by die (the turn figures of `simulate` use it, and tests compare both).

The game protocol (`nessus.game`): `State` is a whole game, every seat's turns round by round,
tie-break rounds and moons included; a turn starts with "roll", each roll a chance node over the
sorted dice with exact weights, each choice an `Aside` ("set aside 3 3"); the winner's return is
1. Its hint values every choice exactly for the seat's goal (the least expected score; for the
last to play in a deciding round, finishing lowest or the moon).

>>> state = initial_state(Rules(players=2, rounds=1))
>>> state = state.apply("roll").apply((1, 3, 3, 4, 6))
>>> [str(a) for a in state.legal_actions()[:2]], str(state.hint().best)
(['set aside 1 3 3 4 6', 'set aside 1 3 3 4'], 'set aside 3 3')
>>> state = state.apply(Aside((1, 3, 3, 4, 6)))
>>> state.scores(), state.current_player(), state.objective()
([11, 0], 1, Goal(kind='win', target=10))
>>> end = state.apply("roll").apply((1, 2, 3, 3, 3)).apply(Aside((1, 2, 3, 3, 3)))
>>> end.is_terminal(), end.scores(), end.returns()
(True, [11, 3], [Fraction(0, 1), Fraction(1, 1)])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, partial
from itertools import combinations
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np

from nessus import game as protocol
from nessus import montecarlo
from nessus.dice import Chosen, Roll, multisets, roll_faces, roll_outcomes, rolls
from nessus.dist import Dist
from nessus.game import Game
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field
from nessus.solver import Expectimax, Hint, HintValue, TurnPolicy

NAME = "trois"
DICE = Param("dice", 5, 1, 6, "dice rolled at the start of a turn")
TARGET = Param("target", 5, 0, 36, "score to stay at or below, for the P(score <= target) policy")
ROUNDS = Param("rounds", 5, 1, 10, "rounds in a simulated game")
PLAYERS = Param("players", 3, 2, 8, "players in a simulated game")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (DICE, TARGET, ROUNDS, PLAYERS)
    dice: int = field(DICE)
    target: int = field(TARGET)
    rounds: int = field(ROUNDS)
    players: int = field(PLAYERS)


def score(dice: Roll) -> int:
    """The points of dice set aside: face value, a 3 counting 0."""
    return sum(0 if d == 3 else d for d in dice)


@cache
def set_asides(roll: Roll) -> tuple[Roll, ...]:
    """Every distinct non-empty choice of dice to set aside from a sorted roll: most dice
    first, then lowest score, then lowest faces."""
    out = {c for r in range(1, len(roll) + 1) for c in combinations(roll, r)}
    return tuple(sorted(out, key=lambda h: (-len(h), score(h), h)))


# -- expectimax --------------------------------------------------------------------------------------
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


GOALS = ("mean", "target", "moon", "win")


def _goal(dice: int, goal: str, target: int) -> tuple[Turn[Any], Callable[[int, int], Hashable]]:
    """The turn solved for `goal`, and its summary of the dice set aside from (their points, how many)."""
    if goal == "mean":
        return mean_turn(dice), lambda points, n: points
    if goal == "moon":
        return moon_turn(dice), lambda points, n: points == 6 * n
    if goal == "target":
        return target_turn(dice, target), lambda points, n: min(points, target + 1)
    if goal == "win":
        need = min(max(target, -1), 6 * dice)
        return win_turn(dice, need), lambda points, n: (min(points, need + 1), points == 6 * n)
    raise ValueError(f"goal must be one of {', '.join(GOALS)}, got {goal!r}")


def goal_turn(dice: int, goal: str = "mean", target: int = 5) -> Turn[Any]:
    """The turn solved for `goal` (see `Goal`); its `value()` is the best expected score
    ("mean") or the best probability of the goal."""
    return _goal(dice, goal, target)[0]


def policy(dice: int, goal: str = "mean", target: int = 5) -> TurnPolicy:
    """Play for `goal` (see `Goal`), taking among the choices best for it the one with the
    least expected score (so once the moon or the target is lost, or sure, play for the lowest
    score). A policy for `score_distribution`: state (points set aside so far, roll)."""
    return _policy(dice, goal, target if goal in ("target", "win") else 0)


@cache
def _policy(dice: int, goal: str, target: int) -> TurnPolicy:
    turn, summary = _goal(dice, goal, target)
    mean = mean_turn(dice).game

    @cache
    def choose(state: tuple[int, Roll | None]) -> Hashable:
        points, roll = state
        if roll is None:
            return START
        values = turn.game.hint((summary(points, dice - len(roll)), roll)).values
        top = (max if turn.game.maximise else min)(values.values())
        best = [h for h, v in values.items() if v == top]
        if len(best) == 1:
            return best[0]
        expected = mean.hint((points, roll)).values
        return min(best, key=expected.__getitem__)

    return choose


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


def report(rules: Rules | None = None) -> Report:
    """The exact figures of one turn."""
    rules = rules or Rules()
    optimal = score_distribution(rules)
    human = score_distribution(rules, heuristic)
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


# -- vectorised play -------------------------------------------------------------------------------------
def _code(sorted_faces: np.ndarray) -> np.ndarray:
    """A sorted roll of n dice (rows) as a base-6 number of its faces minus 1."""
    return (sorted_faces - 1) @ (6 ** np.arange(sorted_faces.shape[1] - 1, -1, -1))


@cache
def action_table(dice: int, kind: str) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """For n dice left, indexed by `_code` of the sorted roll: (dice set aside, their points,
    how many of them are 6s), playing "optimal" (least expected score), "heuristic", or "moon"
    (every 6; a roll with no 6 loses the moon, and `turns` then plays the "optimal" table)."""
    turn = mean_turn(dice)
    out = {}
    for n in range(1, dice + 1):
        table = np.zeros((3, 6**n), dtype=np.int64)
        for roll, _ in multisets(n):
            if kind == "optimal":
                best = turn.game.best((0, roll))
                assert isinstance(best, tuple)
                h = best
            elif kind == "heuristic":
                h = heuristic_aside(roll)
            else:
                h = (6,) * roll.count(6) or (roll[0],)
            table[:, int(_code(np.array([roll]))[0])] = (len(h), score(h), h.count(6))
        out[n] = (table[0], table[1], table[2])
    return out


def turns(dice: int, kind: str, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n turns played by `kind` (see `action_table`): (score, whether it shot the moon). Playing
    for the moon, a turn whose moon is lost (a roll without a 6) plays on for the least expected
    score, as `policy(dice, "moon")` does."""
    table = action_table(dice, kind)
    fallback = action_table(dice, "optimal") if kind == "moon" else table
    left = np.full(n, dice, dtype=np.int64)
    total = np.zeros(n, dtype=np.int64)
    all_six = np.ones(n, dtype=bool)
    while (idx := np.flatnonzero(left)).size:
        for m in np.unique(left[idx]):
            sel = idx[left[idx] == m]
            faces = np.sort(rng.integers(1, 7, size=(sel.size, int(m))), axis=1)
            code = _code(faces)
            chase = all_six[sel] & (table[int(m)][2][code] > 0)
            count, points, sixes = (np.where(chase, t[code], f[code]) for t, f in zip(table[int(m)], fallback[int(m)]))
            total[sel] += points
            all_six[sel] &= sixes == count
            left[sel] -= count
    return total, all_six


def kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n turns of each rule, and n whole games of one optimal player (seat 0) against
    players - 1 heuristic players."""
    opt, _ = turns(rules.dice, "optimal", rng, n)
    human, _ = turns(rules.dice, "heuristic", rng, n)
    _, moon = turns(rules.dice, "moon", rng, n)
    return {
        "optimal_mean": opt,
        "p_zero_optimal": opt == 0,
        "p_moon_optimal_for_moon": moon,
        "heuristic_mean": human,
        "p_zero_heuristic": human == 0,
        "p_optimal_wins_game": games(rules, rng, n) == 0,
    }


@cache
def score_table(dice: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """(the scores, their cumulative probabilities) of a turn played by `kind` ("optimal" or
    "heuristic"), from the exact distribution."""
    d = score_distribution(Rules(dice=dice), None if kind == "optimal" else heuristic)
    return np.array(d.outcomes, dtype=np.int64), np.cumsum([float(d[s]) for s in d.outcomes])


def draw_turns(dice: int, kind: str, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n whole turns drawn from the exact score distribution of `kind`: (score, shot the moon;
    only 6-6-...-6 scores 6 * dice)."""
    scores, cdf = score_table(dice, kind)
    s = scores[np.minimum(np.searchsorted(cdf, rng.random(n) * cdf[-1], side="right"), scores.size - 1)]
    return s, s == 6 * dice


def games(rules: Rules, rng: np.random.Generator, n: int, by_dice: bool = False) -> np.ndarray:
    """n games, seat 0 playing for the least expected score and the others the heuristic:
    the winner's seat. Seats play in order within a round; the first moon ends the game.

    Each turn is drawn whole from its exact score distribution, or with `by_dice` rolled die
    by die (`turns`): the same law, the first much faster."""
    play = turns if by_dice else draw_turns
    p = rules.players
    kinds = ["optimal"] + ["heuristic"] * (p - 1)
    winner = np.full(n, -1, dtype=np.int64)
    totals = np.zeros((n, p), dtype=np.int64)
    live = np.ones((n, p), dtype=bool)  # in contention: everyone, then the tied lowest
    played = 0
    on = np.arange(n)
    while on.size:
        scores = np.zeros((on.size, p), dtype=np.int64)
        moons = np.zeros((on.size, p), dtype=bool)
        for seat, kind in enumerate(kinds):
            scores[:, seat], moons[:, seat] = play(rules.dice, kind, rng, on.size)
        moons &= live[on]
        totals[on] += np.where(live[on], scores, 0)
        shot = moons.any(axis=1)
        winner[on[shot]] = moons[shot].argmax(axis=1)
        played += 1
        keep = ~shot
        if played >= rules.rounds:
            t = np.where(live[on], totals[on], np.iinfo(np.int64).max)
            lowest = t == t.min(axis=1, keepdims=True)
            single = lowest.sum(axis=1) == 1
            decided = keep & single
            winner[on[decided]] = lowest[decided].argmax(axis=1)
            live[on] = lowest
            keep &= ~single
        on = on[keep]
    return winner


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo (95% intervals): single turns of each rule, and whole games."""
    rules = rules or Rules()
    result = montecarlo.run(partial(kernel, rules), trials, seed, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in result.estimates.items()})


# -- goals: what a turn is played for -------------------------------------------------------------
@dataclass(frozen=True)
class Goal:
    """What a turn is played for: "mean" (the least expected score), "target" (P(score <=
    target)), "moon" (P(every die a 6)) or "win" (P(score <= target, or the moon): the last
    player of a deciding round, `target` being the most they may score and still be lowest)."""

    kind: str = "mean"
    target: int = 0

    def __post_init__(self) -> None:
        if self.kind not in GOALS:
            raise ValueError(f"goal must be one of {', '.join(GOALS)}, got {self.kind!r}")

    @property
    def unit(self) -> str:
        """What a hint's values are: expected scores, or probabilities."""
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

    def policy(self, dice: int) -> Callable[[tuple[int, Roll | None]], Hashable]:
        """The engine's play for the goal, ties broken by the least expected score (see `policy`)."""
        return policy(dice, self.kind, self.target)


# -- the game protocol: a whole game -----------------------------------------------------------------
TIE_BREAKS = 50
"""Tie-break rounds `State.shape().max_length` allows for: a practical bound (see `State`)."""


class Aside(Chosen):
    """The dice set aside from a roll; `str` reads "set aside 3 3"."""

    verb = "set aside"


def as_aside(dice: Hashable) -> Aside:
    """A solver's or a policy's dice to set aside (a sorted tuple) as the protocol's action."""
    if not isinstance(dice, tuple):
        raise TypeError(f"dice to set aside must be a tuple, got {dice!r}")
    return Aside(dice)


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

    def objective(self) -> Goal:
        """What the seat to play plays for: the least expected score, except the last to play in
        a deciding round, who plays to finish lowest (the most it may score and stay lowest:
        below 0, only the moon; 6 x dice or more, anything), or shoot the moon."""
        others = [s for s in self.seats if s != self.seat]
        if not self._over and self.deciding() and others and len(self.played) == len(others):
            scores = self.scores()
            need = min(scores[s] for s in others) - scores[self.seat] - 1
            return Goal("win", min(max(need, -1), 6 * self.rules.dice))
        return Goal()

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
        r = self.rules.rounds
        which = f"round {self.round + 1} of {r}" if self.round < r else f"tie-break round {self.round + 1 - r}"
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

    def hint(self, objective: Goal | None = None) -> Hint:
        """Every legal action's exact value for the seat to play, for `objective` (default
        `objective()`: the least expected score, or the win for the last of a deciding round),
        from the turn's expectimax; the best one as `Goal.policy` plays it (ties: the least
        expected score)."""
        if self.current_player() < 0:
            return super().hint()
        goal = objective or self.objective()
        dice = self.rules.dice
        turn, summary = _goal(dice, goal.kind, goal.target)
        node = summary(self.points, len(self.kept))
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
        best = as_aside(goal.policy(dice)((self.points, self.rolled)))
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


def _goal_policy(goal: Callable[[State], Goal]) -> protocol.Policy:
    def choose(state: protocol.State) -> protocol.Action:
        assert isinstance(state, State)
        if state.rolled is None:
            return "roll"
        return as_aside(goal(state).policy(state.rules.dice)((state.points, state.rolled)))

    return choose


def _heuristic(state: protocol.State) -> protocol.Action:
    """Set aside every 3, or with no 3 the single lowest die (by points)."""
    assert isinstance(state, State)
    return "roll" if state.rolled is None else Aside(heuristic_aside(state.rolled))


def policies(rules: Rules | None = None) -> dict[str, protocol.Policy]:
    """ "optimal": the least expected score every turn (what the simulation's optimal seat plays,
    `games`); "heuristic": every 3, or with no 3 the single lowest die (the simulation's other
    seats); "moon": set aside every 6 while the moon can be shot, then the least expected score;
    "win": the least expected score, except the last to play in a deciding round, who plays to
    finish lowest or shoot the moon (`State.objective`, the dashboard's "optimal" machine)."""
    return {
        "optimal": _goal_policy(lambda s: Goal()),
        "heuristic": _heuristic,
        "moon": _goal_policy(lambda s: Goal("moon")),
        "win": _goal_policy(State.objective),
    }


GAME = Game(
    name=NAME,
    title="Les Trois",
    summary="Set aside at least one die per roll; 3s count 0; lowest total wins.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="07-les-trois",
    dashboard="les-trois.ipynb",
    pitch=(
        "Set aside at least one die per roll, lowest total wins: every choice's exact value, alone or against"
        " the machine, and your chance of the moon."
    ),
)
"""This game, as the registry, the command line and the gallery see it."""
