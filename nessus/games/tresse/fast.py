"""La Tresse by Monte Carlo: whole games played many at a time on packed integers, and
`simulate()` (every figure of the report with its 95% interval)."""

from __future__ import annotations

from functools import cache, partial

import numpy as np

from nessus import montecarlo
from nessus.dice import code_faces, raw_bits
from nessus.games.tresse.rules import CENTRE, LEFT, NAME, RIGHT, Rules
from nessus.report import Figure, Report

# A game's holdings are packed in one integer, 4 bits per seat counted from the thrower (bits
# 0-3: the hand, 4-7: the left neighbour, ...): one throw is one table lookup and an addition,
# and passing the turn is a rotation of the bits. Games advance one step at a time together.
# A step draws `bits` random bits r: r < 6**dice is a throw (its base-6 digits are the faces),
# a larger r throws nothing (so the faces stay exactly uniform; the step is not counted).
BATCH = 1 << 15
DONE = 15  # a finished game's code: no hand holds 15 dice, its table row is zero, so it stays put


@cache
def throw_table(players: int, dice: int) -> tuple[int, int, np.ndarray]:
    """(m = 6**dice, bits, table): for a hand of h dice and a draw r of `bits` bits, r < m read
    as base-6 digits (the first h digits are the faces thrown), table[h << bits | r] is the change
    of the packed holdings: -(dice leaving the hand) + (2s << 4) + (5s << 4 (players - 1)); 0 for
    r >= m."""
    m = 6**dice
    bits = (m - 1).bit_length()
    r = np.arange(1 << bits)
    faces = np.stack([np.where(r < m, f, 0) for f in code_faces(r, dice)])
    table = np.zeros((16, r.size), dtype=np.int64)
    for hand in range(1, dice + 1):
        f = faces[:hand]
        centre, left, right = ((f == face).sum(axis=0) for face in (CENTRE, LEFT, RIGHT))
        table[hand] = -(centre + left + right) + (left << 4) + (right << 4 * (players - 1))
    return m, bits, table.ravel()


def _draws(rng: np.random.Generator, n: int, bits: int) -> np.ndarray:
    """n draws of `bits` (<= 16) random bits."""
    return raw_bits(rng, n, bits).astype(np.int64)


def _play(players: int, dice: int, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n whole games: (winning seat from 0, throws, turns)."""
    m, bits, table = throw_table(players, dice)
    width = 4 * players
    full = (1 << width) - 1
    seven = sum(7 << 4 * j for j in range(1, players))  # + 7 sets bit 3 of every non-empty seat but the thrower's
    eights = sum(8 << 4 * j for j in range(1, players))
    state = np.full(n, dice, dtype=np.int64)
    moved = np.zeros(n, dtype=np.int64)  # 4 x seats the turn has moved to the left, in all
    turns = np.zeros(n, dtype=np.int64)
    thrown = np.zeros(n, dtype=np.int64)
    ids = np.arange(n)
    winner, throws, turns_out = (np.empty(n, dtype=np.int64) for _ in range(3))
    live = n
    while live:
        draw = _draws(rng, state.size, bits)
        thrown += draw < m
        draw |= (state & 15) << bits
        state += table.take(draw)
        passing = (state & 15) == 0
        # bit 4k set for each seat k > 0 holding dice, when the hand is empty; bit `width` always:
        # the lowest set bit is the next thrower (a full turn of the table, i.e. no move, otherwise)
        ahead = ((state + seven) & eights) >> 3
        ahead *= passing
        ahead |= 1 << width
        low = (ahead & -ahead) - 1
        shift = np.bitwise_count(low).astype(np.int64)
        rotated = (state << (width - shift)) & full
        state >>= shift
        state |= rotated
        moved += shift
        turns += passing
        over = np.flatnonzero(state == 0)
        if over.size:
            g = ids[over]
            winner[g] = (moved[over] >> 2) % players
            throws[g] = thrown[over]
            turns_out[g] = turns[over]
            state[over] = DONE
            live -= over.size
            if live <= state.size // 2:
                keep = state != DONE
                state, moved, turns, thrown, ids = state[keep], moved[keep], turns[keep], thrown[keep], ids[keep]
    return winner, throws, turns_out


def games_kernel(players: int, dice: int, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games, in batches of BATCH: the winning seat, throws and turns."""
    parts = [_play(players, dice, rng, min(BATCH, n - i)) for i in range(0, n, BATCH)]
    winner, throws, turns = (np.concatenate(p) for p in zip(*parts))
    out = {f"p_win_seat_{i + 1}": winner == i for i in range(players)}
    out["expected_throws"] = throws
    out["expected_turns"] = turns
    return out


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures of whole games with 95% confidence intervals."""
    rules = rules or Rules()
    result = montecarlo.run(
        partial(games_kernel, rules.players, rules.dice), trials, seed, client=client, progress=progress
    )
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in result.estimates.items()})
