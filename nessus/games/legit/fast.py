"""Le Légit by Monte Carlo: turns rolled die by die (`turns_by_dice`), whole rounds rolled die
by die (`rounds_by_dice`) or drawn turn by turn from their exact laws (`rounds`), and `simulate`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial

import numpy as np

from nessus import montecarlo
from nessus.games.legit.odds import PAIRS, beat_turn, first_turn, mean_turn
from nessus.games.legit.rules import NAME, Rules
from nessus.pushluck import TurnSampler
from nessus.report import Figure, Report


def roll_left(n: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Roll n[i] dice for each i and remove 7-pairs: (dice left, their total)."""
    top = int(n.max()) if n.size else 0
    faces = rng.integers(1, 7, size=(n.size, max(top, 1)))
    faces = np.where(np.arange(max(top, 1))[None, :] < n[:, None], faces, 0)
    counts = np.stack([(faces == f).sum(axis=1) for f in range(1, 7)], axis=1)
    left, total = np.zeros(n.size, dtype=np.int64), np.zeros(n.size, dtype=np.int64)
    for a, b in PAIRS:
        gone = np.minimum(counts[:, a - 1], counts[:, b - 1])
        left += counts[:, a - 1] + counts[:, b - 1] - 2 * gone
        total += a * (counts[:, a - 1] - gone) + b * (counts[:, b - 1] - gone)
    return left, total


@cache
def policy_tables(dice: int, rerolls: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    """The first player's table first[r, n, t] and the later players' later[best, cap, r, n, t]
    (r = rerolls left): True where the optimal player rerolls."""
    top = 6 * dice
    first = np.zeros((rerolls + 1, dice + 1, top + 1), dtype=bool)
    later = np.zeros((top + 1, rerolls + 1, rerolls + 1, dice + 1, top + 1), dtype=bool)
    game = first_turn(dice, rerolls, players).game
    states = [(r, n, t) for r in range(1, rerolls + 1) for n in range(1, dice + 1) for t in range(top + 1)]
    for r, n, t in states:
        first[r, n, t] = game.best(("rolled", r, n, t)) == "reroll"
    for best in range(top + 1):
        for cap in range(rerolls + 1):
            g = beat_turn(dice, cap, best, Fraction(1, 2)).game
            for r, n, t in states:
                if r <= cap:
                    later[best, cap, r, n, t] = g.best(("rolled", r, n, t)) == "reroll"
    return first, later


def turns_by_dice(
    dice: int, rerolls: np.ndarray, decide: Callable, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Turns of `dice` dice with rerolls[i] allowed, rolled die by die; `decide(rerolls left,
    dice left, total, trial indices) -> reroll?` on arrays. Returns (score, rerolls used)."""
    k = rerolls.size
    n, total = roll_left(np.full(k, dice), rng)
    left = rerolls.copy()
    while True:
        go = (left > 0) & (n > 0)
        go[go] = decide(left[go], n[go], total[go], np.flatnonzero(go))
        if not go.any():
            return total, rerolls - left
        idx = np.flatnonzero(go)
        n[idx], total[idx] = roll_left(n[idx], rng)
        left[idx] -= 1


@cache
def mean_table(dice: int, rerolls: int) -> np.ndarray:
    """mean[r, n, t]: True where the best-mean player rerolls."""
    game = mean_turn(dice, rerolls).game
    tab = np.zeros((rerolls + 1, dice + 1, 6 * dice + 1), dtype=bool)
    for r in range(1, rerolls + 1):
        for m in range(1, dice + 1):
            for t in range(6 * dice + 1):
                tab[r, m, t] = game.best(("rolled", r, m, t)) == "reroll"
    return tab


def rounds_by_dice(rules: Rules, rng: np.random.Generator, n: int) -> np.ndarray:
    """n rounds rolled die by die: the share-optimal first player, then later players capped at
    the first player's rerolls, each playing to beat the best so far. Whether the first player
    wins (a tie for the best broken by a fair draw, so the win rate is the share)."""
    first_tab, later_tab = policy_tables(rules.dice, rules.rerolls, rules.players)
    best, used = turns_by_dice(rules.dice, np.full(n, rules.rerolls), lambda r, m, t, i: first_tab[r, m, t], rng)
    first = best.copy()
    ties = np.ones(n, dtype=np.int64)
    first_wins = np.ones(n, dtype=bool)
    for _ in range(rules.players - 1):
        target = best.copy()
        score, _ = turns_by_dice(
            rules.dice, used.copy(), lambda r, m, t, i, target=target: later_tab[target[i], used[i], r, m, t], rng
        )
        first_wins &= score <= first
        ties = np.where(score > best, 1, np.where(score == best, ties + 1, ties))
        best = np.maximum(best, score)
    return first_wins & (rng.random(n) * ties < 1)  # among k tied for the best, the first wins 1/k of the time


@dataclass(frozen=True)
class RoundSamplers:
    """Whole turns drawn from their exact laws: the first player's (total, rerolls used) as
    outcome total * (rerolls + 1) + used, and a later player's score by row best * (rerolls + 1) + cap."""

    rerolls: int
    first: TurnSampler
    later: TurnSampler


@cache
def round_samplers(dice: int, rerolls: int, players: int) -> RoundSamplers:
    top, width = 6 * dice, rerolls + 1
    joint = np.zeros((1, (top + 1) * width))
    for (t, used), p in first_turn(dice, rerolls, players).final().items():
        joint[0, t * width + used] = float(p)
    later = np.zeros(((top + 1) * width, top + 1))
    for best in range(top + 1):
        for cap in range(width):
            for (t, _), p in beat_turn(dice, cap, best, Fraction(1, 2)).final().items():
                later[best * width + cap, t] += float(p)
    return RoundSamplers(rerolls, TurnSampler.of(np.cumsum(joint, axis=1)), TurnSampler.of(np.cumsum(later, axis=1)))


def rounds(players: int, samplers: RoundSamplers, rng: np.random.Generator, n: int) -> np.ndarray:
    """n rounds as `rounds_by_dice`, each turn drawn whole from its exact law: much faster."""
    width = samplers.rerolls + 1
    first, used = np.divmod(samplers.first.draw(np.zeros(n, dtype=np.int64), rng), width)
    best = first.copy()
    ties = np.ones(n, dtype=np.int64)
    first_wins = np.ones(n, dtype=bool)
    for _ in range(players - 1):
        score = samplers.later.draw(best * width + used, rng)
        first_wins &= score <= first
        ties = np.where(score > best, 1, np.where(score == best, ties + 1, ties))
        best = np.maximum(best, score)
    return first_wins & (rng.random(n) * ties < 1)


def round_kernel(rules: Rules, samplers: RoundSamplers, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n single turns rolled die by die (best mean; no reroll; the human rule) and n rounds
    (`rounds`)."""
    full = np.full(n, rules.rerolls)
    mean_tab = mean_table(rules.dice, rules.rerolls)
    mean_score, _ = turns_by_dice(rules.dice, full, lambda r, m, t, i: mean_tab[r, m, t], rng)
    _, plain = roll_left(np.full(n, rules.dice), rng)
    human, _ = turns_by_dice(rules.dice, full, lambda r, m, t, i: t < rules.reroll_below, rng)
    return {
        "optimal_mean": mean_score,
        "no_reroll_mean": plain,
        "heuristic_mean": human,
        "p_first_wins_optimal": rounds(rules.players, samplers, rng, n),
    }


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo (95% intervals): single turns, and whole rounds of `players` players."""
    rules = rules or Rules()
    samplers = round_samplers(rules.dice, rules.rerolls, rules.players)
    result = montecarlo.run(partial(round_kernel, rules, samplers), trials, seed, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in result.estimates.items()})
