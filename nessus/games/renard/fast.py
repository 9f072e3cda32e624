"""Le Renard by Monte Carlo: single rounds and whole bankroll histories, vectorised with numpy."""

from __future__ import annotations

from functools import partial

import numpy as np

from nessus import montecarlo
from nessus.games.renard.rules import NAME, Rules
from nessus.report import Figure, Report


def triples(rng: np.random.Generator, n: int) -> np.ndarray:
    """n rolls of 3d6: whether each is a triple."""
    d = rng.integers(1, 7, size=(3, n), dtype=np.int8)
    return (d[0] == d[1]) & (d[1] == d[2])


def round_kernel(payout: int, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n single rounds: win or not, and the player's net gain in stakes."""
    win = triples(rng, n)
    return {"p_win": win, "ev_per_stake": np.where(win, np.int8(payout), np.int8(-1))}


BLOCK = 64


def bankroll_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n bankroll histories of `rounds` rounds: ruined or not, and the final bankroll."""
    units, rest = divmod(rules.bankroll, rules.stake)
    u = np.full(n, units, dtype=np.int64)
    ruined = np.zeros(n, dtype=bool)
    done = 0
    while done < rules.rounds:
        b = min(BLOCK, rules.rounds - done)
        win = triples(rng, n * b).reshape(n, b)
        path = u[:, None] + np.cumsum(np.where(win, rules.payout, -1), axis=1)
        ruined |= path.min(axis=1) <= 0
        u = path[:, -1]
        done += b
    final = np.where(ruined, rest, u * rules.stake + rest)
    return {"p_ruin": ruined, "mean_final_bankroll": final}


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures with 95% confidence intervals (single rounds, and bankroll histories)."""
    rules = rules or Rules()
    one = montecarlo.run(partial(round_kernel, rules.payout), trials, seed, client=client, progress=progress)
    hist = montecarlo.run(partial(bankroll_kernel, rules), trials, seed + 1, client=client, progress=progress)
    figures = {k: Figure.estimated(e) for k, e in (one.estimates | hist.estimates).items()}
    ev = one["ev_per_stake"]
    figures["house_edge"] = Figure(
        None, -ev.value, (-ev.ci[1], -ev.ci[0]), "monte-carlo", "the bank's gain is the player's loss", ev.trials
    )
    return Report(NAME, rules.as_dict(), figures)
