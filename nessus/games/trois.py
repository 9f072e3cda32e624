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
expected score (so once the moon or the target is lost it plays for the lowest score); `Play`
is a turn in progress and `Play.hint` the value of every choice for a goal.

Ties between choices (none occur for the mean) go to the choice listed first: more dice set
aside, then the lower score. The human rule `heuristic`: set aside every 3, or with no 3 the
single lowest die.

A game (simulated): `rounds` rounds, each player one turn per round; the lowest total wins;
a moon ends the game at once, won by its shooter (the first in a round to shoot it); tied
lowest totals play one more round between them, as often as needed. Stakes are not counted,
only who takes the pot. Whole games draw each turn from its exact score law (`score_table`);
`turns` rolls die by die (the turn figures of `simulate` use it, and tests compare both).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from itertools import combinations

import numpy as np

from nessus import montecarlo
from nessus.dice import check_faces, rolls
from nessus.dist import Dist
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field
from nessus.solver import Expectimax, Hint

NAME = "trois"
TITLE = "Les Trois"
SUMMARY = "Set aside at least one die per roll; 3s count 0; lowest total wins."

Roll = tuple[int, ...]

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


class Turn:
    """One turn as an `Expectimax`: state (summary, roll) with roll () once every die is set
    aside, and the starting state (summary, None) whose only move is the first roll.

    `add(summary, dice)` folds the dice just set aside into the summary (the sum, or whether
    all were 6s...), `payoff(summary)` scores the finished turn."""

    def __init__(self, dice: int, start: Hashable, add: Callable[[Hashable, Roll], Hashable],
                 payoff: Callable[[Hashable], int], maximise: bool) -> None:
        self.dice, self.start, self.add, self.payoff = dice, start, add, payoff
        self.game = Expectimax(self.choices, self.chance, lambda s: payoff(s[0]), maximise)

    def choices(self, state: tuple[Hashable, Roll | None]) -> list[tuple[Hashable, Hashable]]:
        summary, roll = state
        if roll is None:
            return [(START, (summary, self.dice))]
        return [(h, (self.add(summary, h), len(roll) - len(h))) for h in set_asides(roll)]

    def chance(self, after: tuple[Hashable, int]) -> list[tuple[Hashable, int]]:
        summary, left = after
        if left == 0:
            return [((summary, ()), 1)]
        return [((summary, r), w) for r, w in rolls(left).weights()]

    def value(self) -> Fraction:
        """The turn's optimal expected payoff before the first roll."""
        return Fraction(self.game.value((self.start, None)))

    def distribution(self, policy: Callable[[Hashable], Hashable] | None = None) -> Dist:
        """The exact distribution of the payoff under `policy(state) -> dice to set aside`
        (default: optimal), by a forward pass over (summary, dice left): dice left only go down."""
        policy = policy or self.game.best
        front: dict[tuple[Hashable, int], Fraction] = {(self.start, self.dice): Fraction(1)}
        final: dict[Hashable, Fraction] = {}
        for left in range(self.dice, 0, -1):
            for (summary, n), p in [(a, p) for a, p in front.items() if a[1] == left]:
                q = p / 6**left
                for roll, w in rolls(left).weights():
                    h = policy((summary, roll))
                    after = (self.add(summary, h), left - len(h))
                    if after[1] == 0:
                        final[self.payoff(after[0])] = final.get(self.payoff(after[0]), Fraction(0)) + q * w
                    else:
                        front[after] = front.get(after, Fraction(0)) + q * w
        return Dist.from_probabilities(final)


@cache
def mean_turn(dice: int) -> Turn:
    """Minimise the expected score; the summary is the score so far."""
    return Turn(dice, 0, lambda s, h: s + score(h), lambda s: s, maximise=False)


@cache
def moon_turn(dice: int) -> Turn:
    """Maximise P(every die set aside is a 6); the summary is "all 6s so far"."""
    return Turn(dice, True, lambda ok, h: ok and all(d == 6 for d in h), int, maximise=True)


@cache
def target_turn(dice: int, target: int) -> Turn:
    """Maximise P(score <= target); the summary is the score so far, capped at target + 1."""
    return Turn(dice, 0, lambda s, h: min(s + score(h), target + 1), lambda s: int(s <= target), maximise=True)


@cache
def win_turn(dice: int, need: int) -> Turn:
    """Maximise P(score <= need, or 6-6-...-6: the moon), what the last player of a game's last
    round plays for; the summary is (the score so far capped at need + 1, all 6s so far). With
    `need` below 0 only the moon counts."""
    cap = max(need, -1) + 1
    return Turn(dice, (0, True), lambda s, h: (min(s[0] + score(h), cap), s[1] and all(d == 6 for d in h)),
                lambda s: int(s[0] <= need or s[1]), maximise=True)


GOALS = ("mean", "target", "moon", "win")


def _goal(dice: int, goal: str, target: int) -> tuple[Turn, Callable[[int, int], Hashable]]:
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


def goal_turn(dice: int, goal: str = "mean", target: int = 5) -> Turn:
    """The turn solved for `goal` (see `Play.hint`); its `value()` is the best expected score
    ("mean") or the best probability of the goal."""
    return _goal(dice, goal, target)[0]


def policy(dice: int, goal: str = "mean", target: int = 5) -> Callable[[tuple[int, Roll | None]], Hashable]:
    """Play for `goal` (see `Play.hint`), taking among the choices best for it the one with the
    least expected score (so once the moon or the target is lost, or sure, play for the lowest
    score). A policy for `score_distribution`: state (points set aside so far, roll)."""
    return _policy(dice, goal, target if goal in ("target", "win") else 0)


@cache
def _policy(dice: int, goal: str, target: int) -> Callable[[tuple[int, Roll | None]], Hashable]:
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


def heuristic(state: tuple[Hashable, Roll | None]) -> Hashable:
    """The human rule: set aside every 3, or with no 3 the single lowest die (by points)."""
    roll = state[1]
    if roll is None:
        return START
    threes = tuple(d for d in roll if d == 3)
    return threes if threes else (min(roll, key=lambda d: (score((d,)), d)),)


def optimal_mean(rules: Rules | None = None) -> Fraction:
    """The least expected score (points) of a turn."""
    return mean_turn((rules or Rules()).dice).value()


def score_distribution(rules: Rules | None = None, policy: Callable[[Hashable], Hashable] | None = None) -> Dist:
    """The exact distribution of a turn's score (points) under `policy(state) -> dice to set
    aside` (default: least expected score)."""
    return mean_turn((rules or Rules()).dice).distribution(policy)


def report(rules: Rules | None = None) -> Report:
    """The exact figures of one turn."""
    rules = rules or Rules()
    optimal = score_distribution(rules)
    human = score_distribution(rules, heuristic)
    return Report(NAME, rules.as_dict(), {
        "optimal_mean": Figure.of(optimal.mean(), "least expected score of a turn (points)"),
        "p_zero_optimal": Figure.of(optimal[0], "P(score 0) playing for the least expected score"),
        "p_moon_optimal_for_moon": Figure.of(moon_turn(rules.dice).value(), "P(all 6s) playing for it"),
        "p_at_most_target_best": Figure.of(target_turn(rules.dice, rules.target).value(),
                                           f"P(score <= {rules.target}) playing for it"),
        "heuristic_mean": Figure.of(human.mean(), "expected score setting aside every 3, or else the lowest die"),
        "p_zero_heuristic": Figure.of(human[0], "P(score 0) with that rule"),
    })


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
        for roll, _ in rolls(n).weights():
            if kind == "optimal":
                h = turn.game.best((0, roll))
            elif kind == "heuristic":
                h = heuristic((0, roll))
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


# -- a turn to play ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """A turn in progress: the dice set aside so far, the roll in front of the player (None
    before a roll), and how many dice are left to roll."""

    dice: int = DICE.default
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

    def throw(self, rng: np.random.Generator | None = None, dice: Roll | None = None) -> Play:
        """Roll the dice not set aside (or take the given faces)."""
        if self.over or self.roll is not None:
            raise ValueError("set aside dice from the roll first" if self.roll else "the turn is over")
        n = self.dice - len(self.kept)
        if dice is None:
            if rng is None:
                raise ValueError("give rng or dice")
            dice = tuple(int(x) for x in rng.integers(1, 7, size=n))
        return Play(self.dice, self.kept, tuple(sorted(check_faces(dice, n))))

    def set_aside(self, dice: Roll) -> Play:
        """Set aside these dice from the roll (at least one)."""
        if self.roll is None:
            raise ValueError("roll before setting dice aside")
        h = tuple(sorted(dice))
        if h not in set_asides(self.roll):
            raise ValueError(f"set aside must be at least one of the dice rolled {self.roll}, got {dice!r}")
        return Play(self.dice, tuple(sorted(self.kept + h)), None)

    def hint(self, goal: str = "mean", target: int = 5) -> Hint:
        """The value of every choice of dice to set aside: expected final score (goal "mean"),
        P(all 6s) ("moon"), P(final score <= target) ("target") or P(final score <= target, or
        all 6s) ("win", the target being the most the player may score and still win)."""
        if self.roll is None:
            raise ValueError("roll first: the hint is about which dice to set aside")
        turn, summary = _goal(self.dice, goal, target)
        return turn.game.hint((summary(self.score, len(self.kept)), self.roll))
