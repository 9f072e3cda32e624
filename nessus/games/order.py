"""Order of play: everyone rolls 2d6, the highest total starts; players tied for the highest
roll again among themselves until one is highest (RULES.md section 0)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from math import comb

import numpy as np

from nessus import montecarlo
from nessus.chains import RewardChain, Step
from nessus.dice import total
from nessus.dist import Dist, TruncatedDist
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field

NAME = "order"
TITLE = "Order of play (2d6 roll-off)"
SUMMARY = "Who starts: everyone rolls 2d6, ties for the highest roll again."

PLAYERS = Param("players", 4, 2, 10, "number of players rolling for first place")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (PLAYERS,)
    players: int = field(PLAYERS)


@cache
def top_ties(players: int) -> Dist:
    """The number of players tied for the highest 2d6 total when `players` players roll."""
    two = total(2)
    out: dict[int, Fraction] = {}
    below = Fraction(0)
    for value, p in two.items():
        for j in range(1, players + 1):
            out[j] = out.get(j, Fraction(0)) + comb(players, j) * p**j * below ** (players - j)
        below += p
    return Dist.from_probabilities(out)


@cache
def rolloff(players: int) -> RewardChain:
    """The roll-off as a chain on 'number of players tied for highest'; each round adds 1."""
    return RewardChain(
        {
            m: [Step(p, 1, j if j > 1 else None) for j, p in top_ties(m).items()]
            for m in range(2, players + 1)
        }
    )


def p_unique_first_roll(rules: Rules) -> Fraction:
    """P(one player alone has the highest total on the first roll)."""
    return top_ties(rules.players)[1]


def expected_rounds(rules: Rules) -> Fraction:
    """E[rounds of rolling until one player is highest], the first roll included."""
    return rolloff(rules.players).mean(rules.players)


def rounds(rules: Rules, tail_below: float = 1e-15) -> TruncatedDist:
    """The exact distribution of the number of rounds, with its exact tail."""
    return rolloff(rules.players).distribution(rules.players, tail_below=tail_below)


def report(rules: Rules | None = None) -> Report:
    """The exact headline figures."""
    rules = rules or Rules()
    return Report(
        NAME,
        rules.as_dict(),
        {
            "p_unique_first_roll": Figure.of(p_unique_first_roll(rules), "one player alone is highest at once"),
            "expected_rounds": Figure.of(expected_rounds(rules), "rounds of 2d6 until one player is highest"),
        },
    )


def kernel(players: int, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n roll-offs: whether the first roll had a unique highest, and the rounds they took."""
    tied = np.ones((n, players), dtype=bool)
    rounds_taken = np.zeros(n, dtype=np.int64)
    unique_first = np.zeros(n, dtype=bool)
    live = np.arange(n)
    first = True
    while live.size:
        totals = rng.integers(1, 7, size=(live.size, players, 2), dtype=np.int8).sum(axis=2, dtype=np.int8)
        totals = np.where(tied[live], totals, 0)
        still = totals == totals.max(axis=1, keepdims=True)
        tied[live] = still
        rounds_taken[live] += 1
        done = still.sum(axis=1) == 1
        if first:
            unique_first[live] = done
            first = False
        live = live[~done]
    return {"p_unique_first_roll": unique_first, "expected_rounds": rounds_taken}


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures with 95% confidence intervals."""
    rules = rules or Rules()
    result = montecarlo.run(partial(kernel, rules.players), trials, seed, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in result.estimates.items()})


@dataclass(frozen=True)
class RollOff:
    """A roll-off in progress: who is still tied, and the totals rolled so far per round."""

    players: int
    tied: tuple[int, ...]
    history: tuple[dict[int, int], ...] = ()

    @classmethod
    def start(cls, rules: Rules) -> RollOff:
        return cls(rules.players, tuple(range(1, rules.players + 1)))

    @property
    def winner(self) -> int | None:
        """The player who starts, once one is alone at the top."""
        return self.tied[0] if len(self.tied) == 1 else None

    def roll(self, rng: np.random.Generator) -> RollOff:
        """Everyone still tied rolls 2d6; those with the highest total stay tied."""
        if self.winner is not None:
            raise ValueError("the roll-off is over: a player is alone at the top")
        totals = {p: int(rng.integers(1, 7, size=2).sum()) for p in self.tied}
        best = max(totals.values())
        return RollOff(self.players, tuple(p for p in self.tied if totals[p] == best), self.history + (totals,))
