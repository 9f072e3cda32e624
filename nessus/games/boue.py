"""La Boue (Stuck in the Mud): roll the dice; a roll with no 2 and no 5 scores its total and
the same dice roll again; otherwise it scores nothing and the dice showing 2 or 5 are stuck.
The turn ends when every die is stuck. A game is 3 rounds; highest total wins (RULES.md s. 8).

The turn is an absorbing chain on the number of free dice whose score has unbounded support;
`turn_distribution` gives every P(score = s) exactly and the exact mass beyond the bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial

import numpy as np

from nessus import montecarlo
from nessus.chains import RewardChain, Step
from nessus.dice import check_faces, rolls
from nessus.dist import TruncatedDist
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field

NAME = "boue"
TITLE = "La Boue"
SUMMARY = "Stuck in the Mud: every 2 or 5 sticks; score the rolls with none."

STUCK = (2, 5)
_FACE_CODE = (np.arange(7) + 128 * np.isin(np.arange(7), STUCK)).astype(np.int32)  # face + 128 if it sticks
ROUNDS = 3
TAIL = 1e-15

DICE = Param("dice", 5, 1, 10, "dice at the start of a turn")
PLAYERS = Param("players", 2, 2, 10, "players in a game (for the tie figure)")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (DICE, PLAYERS)
    dice: int = field(DICE)
    players: int = field(PLAYERS)


def stuck_count(roll: tuple[int, ...]) -> int:
    """How many dice of a roll get stuck (show 2 or 5)."""
    return sum(1 for d in roll if d in STUCK)


@cache
def turn_chain(dice: int) -> RewardChain:
    """The turn as a chain: state = free dice; a clean roll adds its total, else dice stick."""
    steps = {}
    for n in range(1, dice + 1):
        grouped: dict[tuple[int, int | None], Fraction] = {}
        for roll, p in rolls(n).items():
            k = stuck_count(roll)
            key = (sum(roll), n) if k == 0 else (0, n - k or None)
            grouped[key] = grouped.get(key, Fraction(0)) + p
        steps[n] = [Step(p, reward, to) for (reward, to), p in grouped.items()]
    return RewardChain(steps)


def turn_distribution(rules: Rules | None = None, bound: int | None = None, tail_below: float = TAIL) -> TruncatedDist:
    """The exact turn score distribution: to `bound`, or as far as needed for tail < tail_below."""
    rules = rules or Rules()
    chain = turn_chain(rules.dice)
    if bound is not None:
        return chain.distribution(rules.dice, bound=bound)
    return chain.distribution(rules.dice, tail_below=tail_below)


@cache
def game_chain(dice: int, rounds: int = ROUNDS) -> RewardChain:
    """A whole game for one player: state = (round, free dice); when every die is stuck the
    next round starts with all dice free, and the last round's end ends the chain."""
    turn = turn_chain(dice)

    def after(r: int, to: int | None) -> tuple[int, int] | None:
        if to is not None:
            return (r, to)
        return (r + 1, dice) if r < rounds else None

    return RewardChain(
        {(r, n): [Step(t.probability, t.reward, after(r, t.to)) for t in steps] for r in range(1, rounds + 1) for n, steps in turn.steps.items()}
    )


def game_total_distribution(rules: Rules | None = None, rounds: int = ROUNDS, tail_below: float = TAIL) -> TruncatedDist:
    """The exact distribution of a player's total over `rounds` turns, with exact tail < tail_below."""
    dice = (rules or Rules()).dice
    return game_chain(dice, rounds).distribution((1, dice), tail_below=tail_below)


def tie_for_first(total: TruncatedDist, players: int) -> tuple[Fraction, Fraction]:
    """Exact bounds [lower, upper] on P(two or more players share the highest total).

    Sums P(max = s and shared) over s <= bound exactly; the rest is at most P(max > bound).
    """
    pmf = total.pmf()
    below = Fraction(0)
    shared = Fraction(0)
    for p in pmf:
        upto = below + p
        shared += upto**players - below**players - players * p * below ** (players - 1)
        below = upto
    return shared, shared + (1 - below**players)


def report(rules: Rules | None = None) -> Report:
    """The exact headline figures (the tie figure is a series: bracketed exactly)."""
    rules = rules or Rules()
    chain = turn_chain(rules.dice)
    turn = turn_distribution(rules, bound=60)
    game = game_total_distribution(rules)
    mean = chain.mean(rules.dice)
    lo, hi = tie_for_first(game, rules.players)
    return Report(
        NAME,
        rules.as_dict(),
        {
            "turn_mean": Figure.of(mean, "expected score of one turn"),
            "turn_variance": Figure.of(chain.variance(rules.dice), "variance of one turn's score"),
            "p_turn_zero": Figure.of(turn.probability(0), "P(a turn scores 0)"),
            "p_turn_at_most_20": Figure.of(turn.cdf(20), "P(a turn scores 20 or less)"),
            "three_round_mean": Figure.of(ROUNDS * mean, "expected total over 3 rounds"),
            "p_three_rounds_at_least_60": Figure.of(game.sf(59), "P(3-round total >= 60)"),
            "p_tie_for_first": Figure.bracket(lo, hi, f"P(tie for the highest 3-round total, {rules.players} players)"),
        },
    )


def turn_scores(dice: int, rng: np.random.Generator, n: int) -> np.ndarray:
    """The scores of n simulated turns (all turns advance together; only free dice are rolled).

    Each roll's dice lie side by side in one flat array; a face is coded face + 128 if it
    sticks, so one cumulative sum gives every roll's code: under 128 it is a clean roll's total,
    otherwise code // 128 dice stuck. A finished turn has no dice and adds 0; finished turns are
    dropped once they are half of those left.
    """
    out = np.zeros(n, dtype=np.int64)
    ids = np.arange(n)
    free = np.full(n, dice, dtype=np.int32)
    score = np.zeros(n, dtype=np.int32)
    live = n
    while live:
        ends = np.cumsum(free)
        codes = _FACE_CODE.take(rng.integers(1, 7, size=int(ends[-1]), dtype=np.int8))
        running = np.zeros(codes.size + 1, dtype=np.int32)
        np.cumsum(codes, out=running[1:])
        roll = running[ends]
        roll[1:] -= running[ends[:-1]]
        score += np.where(roll < 128, roll, 0)
        free -= roll >> 7
        live = int(np.count_nonzero(free))
        if live <= free.size // 2:
            done = free == 0
            out[ids[done]] = score[done]
            keep = ~done
            ids, free, score = ids[keep], free[keep], score[keep]
    return out


def turn_kernel(dice: int, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n turns: score, scored zero, scored at most 20."""
    s = turn_scores(dice, rng, n)
    return {"turn_mean": s, "p_turn_zero": s == 0, "p_turn_at_most_20": s <= 20}


def game_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n games of `players` players x 3 rounds: player 1's total, and whether first place is shared."""
    totals = turn_scores(rules.dice, rng, n * rules.players * ROUNDS).reshape(n, rules.players, ROUNDS).sum(axis=2)
    best = totals.max(axis=1, keepdims=True)
    return {
        "three_round_mean": totals[:, 0],
        "p_three_rounds_at_least_60": totals[:, 0] >= 60,
        "p_tie_for_first": (totals == best).sum(axis=1) > 1,
    }


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures with 95% confidence intervals (turns, and whole games)."""
    rules = rules or Rules()
    turns = montecarlo.run(partial(turn_kernel, rules.dice), trials, seed, client=client, progress=progress)
    games = montecarlo.run(partial(game_kernel, rules), trials, seed + 1, client=client, progress=progress)
    estimates = turns.estimates | games.estimates
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in estimates.items()})


@dataclass(frozen=True)
class Turn:
    """A turn in progress: the free dice still to roll, the stuck dice, the score, the rolls."""

    free: int
    stuck: tuple[int, ...] = ()
    score: int = 0
    rolls: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def start(cls, rules: Rules | None = None) -> Turn:
        return cls((rules or Rules()).dice)

    @property
    def over(self) -> bool:
        """Every die is stuck."""
        return self.free == 0

    @property
    def last(self) -> tuple[int, ...]:
        """The last roll ((), before the first)."""
        return self.rolls[-1] if self.rolls else ()

    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, ...] | None = None) -> Turn:
        """Roll the free dice (or take the given faces): the turn after this roll."""
        if self.over:
            raise ValueError("the turn is over: every die is stuck")
        if dice is None:
            if rng is None:
                raise ValueError("give rng or dice")
            dice = tuple(int(x) for x in rng.integers(1, 7, size=self.free))
        dice = check_faces(dice, self.free)
        newly = tuple(d for d in dice if d in STUCK)
        if newly:
            return Turn(self.free - len(newly), self.stuck + newly, self.score, self.rolls + (dice,))
        return Turn(self.free, self.stuck, self.score + sum(dice), self.rolls + (dice,))
