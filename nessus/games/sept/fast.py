"""Le Sept fatal by Monte Carlo: whole games simulated a turn at a time, each turn drawn from
its exact law under the optimal policy (`core.turn_table`); `duel_kernel` rolls die by die
(tests compare both), and hold-at-N turns and games are rolled die by die.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from nessus import montecarlo
from nessus import pushluck as core
from nessus.games.sept.odds import Duel, Solution, solution
from nessus.games.sept.rules import NAME, Rules
from nessus.report import Figure, Report


def _two_dice(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(1, 7, size=n, dtype=np.int64) + rng.integers(1, 7, size=n, dtype=np.int64)


def duel_kernel(rounds: int, ties: str, margin: int, rolls: np.ndarray, rng: np.random.Generator, n: int) -> np.ndarray:
    """n two-player games, both optimal (policy table `rolls[context, k]`): whether the first
    player wins (under `half`, a tie is decided by a fair coin so the mean is the share)."""
    d = Duel(rounds, ties, margin)
    index = d.index
    last_regular = 2 * rounds - 1
    totals = np.zeros((n, 2), dtype=np.int64)
    t = np.zeros(n, dtype=np.int64)
    k = np.zeros(n, dtype=np.int64)
    first_wins = np.zeros(n, dtype=bool)
    ids = np.arange(n)
    while ids.size:
        p = t % 2
        lead = totals[ids, p] - totals[ids, 1 - p]
        inside = (lead >= -margin) & (lead + k <= margin)
        c = index[t, np.clip(lead + margin, 0, 2 * margin)]
        roll = np.where(inside, rolls[np.maximum(c, 0), np.clip(k, 0, rolls.shape[1] - 1)], lead < -margin)
        roll |= k == 0
        s = _two_dice(rng, ids.size)
        bust = roll & (s == 7)
        k = np.where(roll & ~bust, k + s, k)
        ends = bust | ~roll
        banked = np.where(bust, 0, k)
        totals[ids[ends], p[ends]] += banked[ends]
        over = ends & ((t == last_regular) | (t == last_regular + 2))
        diff = totals[ids, 0] - totals[ids, 1]
        tied = over & (diff == 0)
        if ties == "half":
            first_wins[ids[tied]] = rng.random(int(tied.sum())) < 0.5
            done = over
        else:
            done = over & ~tied
        first_wins[ids[over & (diff > 0)]] = True
        t = np.where(ends, np.where(tied & (ties == "replay"), 2 * rounds, t + 1), t)
        k = np.where(ends, 0, k)
        keep = ~done
        ids, t, k = ids[keep], t[keep], k[keep]
    return first_wins


def duel_turns(
    rounds: int, ties: str, margin: int, sampler: core.TurnSampler, rng: np.random.Generator, n: int
) -> np.ndarray:
    """n two-player games, both optimal, a whole turn at a time (drawn by `sampler`, from
    `core.turn_table` of the optimal policy): whether the first player wins (under `half`
    a tie is a fair coin). Equal in law to `duel_kernel` (but for leads beyond the margin, held
    as they come: probability below 1e-13) and much faster."""
    index = Duel(rounds, ties, margin).index
    last = 2 * rounds - 1
    diff = np.zeros(n, dtype=np.int64)  # first player's total minus the second's
    t = np.zeros(n, dtype=np.int64)
    first_wins = np.zeros(n, dtype=bool)
    ids = np.arange(n)
    while ids.size:
        second = t % 2 == 1
        lead = np.where(second, -diff, diff)
        c = index[t, np.clip(lead, -margin, margin) + margin]
        banked = sampler.draw(c, rng)
        diff += np.where(second, -banked, banked)
        over = second & (t >= last)
        tied = over & (diff == 0)
        first_wins[ids[over & (diff > 0)]] = True
        if ties == "half":
            coin = np.flatnonzero(tied)
            first_wins[ids[coin]] = rng.random(coin.size) < 0.5
            done = over
        else:
            done = over & ~tied
        t = np.where(tied, 2 * rounds, t + 1)
        keep = ~done
        ids, t, diff = ids[keep], t[keep], diff[keep]
    return first_wins


def hold_games(hold: int, rounds: int, players: int, rng: np.random.Generator, n: int) -> np.ndarray:
    """n games of `players` players all holding at `hold` for `rounds` rounds: totals [n, players]."""
    scores = hold_turns(hold, rng, n * players * rounds).reshape(n, players, rounds)
    return scores.sum(axis=2)


def hold_turns(hold: int, rng: np.random.Generator, n: int) -> np.ndarray:
    """n single turns holding at `hold`: the points banked (0 after a 7)."""
    k = np.zeros(n, dtype=np.int64)
    ids = np.arange(n)
    out = np.zeros(n, dtype=np.int64)
    while ids.size:
        s = _two_dice(rng, ids.size)
        bust = s == 7
        k = k + s
        done = bust | (k >= hold)
        out[ids[done & ~bust]] = k[done & ~bust]
        ids, k = ids[~done], k[~done]
    return out


def game_kernel(
    rules: Rules, margin: int, sampler: core.TurnSampler, rng: np.random.Generator, n: int
) -> dict[str, np.ndarray]:
    """n single hold-at-N turns and n `players`-player hold-at-N games (rolled die by die), and
    n optimal duels (a whole turn at a time)."""
    turns = hold_turns(rules.hold, rng, n)
    totals = hold_games(rules.hold, rules.rounds, rules.players, rng, n)
    best = totals.max(axis=1)
    return {
        "hold_mean": turns,
        "p_zero_hold": turns == 0,
        "p_first_player_wins_optimal": duel_turns(rules.rounds, rules.ties, margin, sampler, rng, n),
        "p_first_alone_highest_hold": (totals[:, 0] == best) & ((totals == best[:, None]).sum(axis=1) == 1),
        "p_tie_for_highest_hold": (totals == best[:, None]).sum(axis=1) > 1,
    }


def sampler(sol: Solution) -> core.TurnSampler:
    """Whole-turn sampler of the optimal policy at every (turn, lead)."""
    return core.TurnSampler.of(core.turn_table(sol.duel, sol.solved.rolls()))


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo (95% intervals): single hold-at-N turns; two-player games both optimal;
    `players`-player games all holding at N (first player alone highest, or a tie for highest)."""
    rules = rules or Rules()
    sol = solution(rules)
    kernel = partial(game_kernel, rules, sol.duel.margin, sampler(sol))
    result = montecarlo.run(kernel, trials, seed, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in result.estimates.items()})
