"""La Boue by Monte Carlo: many turns at once, vectorised with numpy, and whole games from them."""

from __future__ import annotations

import itertools
from functools import partial

import numpy as np

from nessus import montecarlo
from nessus.games.boue.rules import NAME, ROUNDS, STUCK, Rules
from nessus.report import Figure, Report

GROUP = 5
"""Dice rolled as one number: a uniform integer below 6**GROUP is GROUP fair dice (its base-6 digits)."""
OUTCOMES = 6**GROUP


def _roll_table() -> np.ndarray:
    """For k = 0..GROUP dice and each number u below 6**GROUP, rolling the first k of u's base-6
    digits as dice, in one int32: what it adds to the turn's score in the low 8 bits (the faces'
    sum, 0 if a die sticks) and, above them, how far it moves the turn's row down (OUTCOMES for
    each die that sticks). A flat array, row k."""
    rolls = np.zeros((GROUP + 1, OUTCOMES), dtype=np.int32)
    for u, faces in enumerate(itertools.product(range(1, 7), repeat=GROUP)):
        for k in range(1, GROUP + 1):
            stuck = sum(f in STUCK for f in faces[:k])
            rolls[k, u] = (stuck * OUTCOMES) << 8 | (0 if stuck else sum(faces[:k]))
    return rolls.ravel()


_ROLLS = _roll_table()


def turn_scores(dice: int, rng: np.random.Generator, n: int) -> np.ndarray:
    """The scores of n simulated turns (all turns advance together; only free dice are rolled).

    A turn is its *row*, OUTCOMES times its free dice. Its free dice are rolled GROUP at a time
    as one uniform integer u below 6**GROUP, whose base-6 digits are that many fair dice; at
    row + u, a table gives what the roll adds to the score (low 8 bits) and how far the row
    moves down (the rest). One number and one look-up per roll, not a few operations per die,
    is what makes it fast. A finished turn (row 0) adds 0; finished turns are dropped once they
    are half of those left.
    """
    out = np.zeros(n, dtype=np.int64)
    ids = np.arange(n)
    row = np.full(n, dice * OUTCOMES, dtype=np.int32)
    score = np.zeros(n, dtype=np.int32)
    live = n
    while live:
        if dice <= GROUP:
            roll = _ROLLS.take(row + rng.integers(0, OUTCOMES, size=row.size, dtype=np.int32))
        else:  # GROUP dice at a time; the faces count only if no group sticks (at most 60 < 256)
            roll, rest = np.zeros(row.size, dtype=np.int32), row
            while rest.any():
                k = np.minimum(rest, GROUP * OUTCOMES)
                roll += _ROLLS.take(k + rng.integers(0, OUTCOMES, size=k.size, dtype=np.int32))
                rest = rest - k
            roll = np.where(roll >> 8 == 0, roll, roll & ~255)
        score += roll & 255
        row -= roll >> 8
        live = int(np.count_nonzero(row))
        if 2 * live <= row.size:
            done = row == 0
            out[ids[done]] = score[done]
            keep = ~done
            ids, row, score = ids[keep], row[keep], score[keep]
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
