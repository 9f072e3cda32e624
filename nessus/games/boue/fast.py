"""La Boue by Monte Carlo: many turns at once, vectorised with numpy, and whole games from them."""

from __future__ import annotations

from functools import partial

import numpy as np

from nessus import montecarlo
from nessus.games.boue.rules import NAME, ROUNDS, STUCK, Rules
from nessus.report import Figure, Report

_FACE_CODE = (np.arange(7) + 128 * np.isin(np.arange(7), STUCK)).astype(np.int32)  # face + 128 if it sticks


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
