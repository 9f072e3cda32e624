"""L'Hypogéon by Monte Carlo: turns drawn five dice at a time from one table (`play_turns`,
`turn_kernel`), rounds scored in arrays (`round_points`), whole games to the points target
(`game_kernel`), and `simulate`."""

from __future__ import annotations

from functools import cache, partial

import numpy as np

from nessus import montecarlo
from nessus.dice import code_faces, raw_bits
from nessus.games.hypogeon.odds import seat_rules
from nessus.games.hypogeon.rules import BUST, LIMIT, NAME, Rules
from nessus.report import Figure, Report

# A turn is a walk on codes: 0 = before the first roll, 1..21 = the total, BUSTED = above 21.
# One draw r of 13 random bits is up to five dice: r < 6**5 read as base-6 digits (the dice in
# order), r >= 6**5 rolls nothing (so every r is used and the dice stay exactly uniform); a
# table maps (code, r) to the code after those dice are rolled one by one under the rule.
DRAW_BITS = 13
FIVE_DICE = 6**5
BUSTED = LIMIT + 1
BATCH = 1 << 15


@cache
def turn_table(stand_at: int) -> np.ndarray:
    """table[code << DRAW_BITS | r]: the code after the dice of draw r, standing at `stand_at`
    (the first two dice are always rolled; then one more while the total is below `stand_at`)."""
    r = np.arange(1 << DRAW_BITS)
    faces = code_faces(r, 5)
    table = np.empty((BUSTED + 1, r.size), dtype=np.int8)
    for code in range(BUSTED + 1):
        t = np.full(r.size, code, dtype=np.int64)
        for i, face in enumerate(faces):
            rolls = (r < FIVE_DICE) & (t <= LIMIT) & ((t < stand_at) | ((code == 0) & (i < 2)))
            t = np.where(rolls, t + face, t)
        table[code] = np.where(t > LIMIT, BUSTED, t)
    return table.ravel()


def _draws(rng: np.random.Generator, n: int) -> np.ndarray:
    """n draws of DRAW_BITS random bits."""
    return raw_bits(rng, n, DRAW_BITS).astype(np.int32)


def play_turns(stand_at: int, rng: np.random.Generator, n: int) -> np.ndarray:
    """n turns standing at `stand_at`: the final totals, BUST = 0. Two draws (up to ten dice) for
    every turn first, then more for the few still below `stand_at`."""
    table = turn_table(stand_at)
    code = table.take(_draws(rng, n))
    code = table.take((code.astype(np.int32) << DRAW_BITS) | _draws(rng, n))
    live = np.flatnonzero(code < stand_at)
    while live.size:
        code[live] = table.take((code[live].astype(np.int32) << DRAW_BITS) | _draws(rng, live.size))
        live = live[code[live] < stand_at]
    code[code == BUSTED] = BUST
    return code


def round_points(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """From final totals (seats x games, BUST = 0): for each game the seat that scores (0 when
    nobody does) and its points: 2 for a sole 21, 1 for a sole best total, else 0."""
    best = totals.max(axis=0)
    is_best = totals == best
    sole = (is_best.sum(axis=0) == 1) & (best > BUST)
    seat = np.where(sole, (is_best * np.arange(totals.shape[0])[:, None]).sum(axis=0), 0)
    return seat, np.where(sole, np.where(best == LIMIT, 2, 1), 0).astype(np.int16)


def turn_kernel(stand_at: int, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n turns standing at k: bust or not, 21 or not, and the total (BUST = 0)."""
    t = play_turns(stand_at, rng, n)
    return {"p_bust": t == BUST, "p_21": t == LIMIT, "total": t}


def _games(rules: Rules, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n whole games: (winning seat from 0, rounds). Arrays are seats x games. Only the round's
    single best total scores, so only that seat's score can reach the target."""
    first, others = seat_rules(rules)[:2]
    p = rules.players
    score = np.zeros((p, n), dtype=np.int16)
    ids = np.arange(n)
    winner, rounds = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    played = 0
    while ids.size:
        played += 1
        g = ids.size
        totals = np.empty((p, g), dtype=np.int8)
        totals[0] = play_turns(first, rng, g)
        totals[1:] = play_turns(others, rng, (p - 1) * g).reshape(p - 1, g)
        seat, points = round_points(totals)
        games = np.arange(g)
        score[seat, games] += points
        done = score[seat, games] >= rules.target
        if done.any():
            winner[ids[done]], rounds[ids[done]] = seat[done], played
            keep = ~done
            score, ids = score[:, keep], ids[keep]
    return winner, rounds


def game_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games to `target` points with the seats' rules of `seat_rules`, in batches of
    BATCH: who wins, how many rounds."""
    parts = [_games(rules, rng, min(BATCH, n - i)) for i in range(0, n, BATCH)]
    winner, rounds = (np.concatenate(x) for x in zip(*parts))
    out = {f"p_win_seat_{i + 1}": winner == i for i in range(rules.players)}
    out["expected_rounds"] = rounds
    return out


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures with 95% confidence intervals: single turns standing at `stand_at`,
    and whole games with the seats' rules of `seat_rules`. `mean_if_not_bust` is the
    mean over the turns that did not bust, with the t interval of that mean."""
    rules = rules or Rules()
    one = montecarlo.run(
        partial(turn_kernel, rules.stand_at), trials, seed, keep=("total",), client=client, progress=progress
    )
    games = montecarlo.run(partial(game_kernel, rules), trials, seed + 1, client=client, progress=progress)
    figures = {k: Figure.estimated(one[k]) for k in ("p_bust", "p_21")}
    kept = one.samples["total"]
    kept = kept[kept != BUST].astype(np.float64)
    if kept.size:
        mean = float(kept.mean())
        sd = float(kept.std(ddof=1)) if kept.size > 1 else 0.0
        figures["mean_if_not_bust"] = Figure(
            None,
            mean,
            montecarlo.t_interval(mean, sd, kept.size),
            "monte-carlo",
            "mean final total over the turns that did not bust",
            one.trials,
        )
    figures |= {k: Figure.estimated(e) for k, e in games.estimates.items()}
    return Report(NAME, rules.as_dict(), figures)
