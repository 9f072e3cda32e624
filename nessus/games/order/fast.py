"""The roll-off by Monte Carlo: many roll-offs at once, vectorised with numpy."""

from __future__ import annotations

from functools import partial

import numpy as np

from nessus import montecarlo
from nessus.games.order.rules import NAME, Rules
from nessus.report import Figure, Report


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
