"""Les Royaumes by Monte Carlo: rounds and whole games from random bytes, vectorised with numpy."""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import numpy as np

from nessus import montecarlo
from nessus.dice import raw_bits
from nessus.games.royaumes.odds import KINGDOMS, bank_outcome, kingdom_of, rank_of, result_of
from nessus.games.royaumes.rules import NAME, Rules
from nessus.report import Figure, Report


def _codes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each ordered pair of dice (index 6*(a-1) + b-1): kingdom (0-2), rank (0-6), outcome
    (0 duel, 1 bank wins all, 2 bank pays all)."""
    names = list(KINGDOMS)
    kingdom, rank, outcome = (np.zeros(36, dtype=np.int8) for _ in range(3))
    for a in range(1, 7):
        for b in range(1, 7):
            r = result_of((a, b))
            i = 6 * (a - 1) + b - 1
            kingdom[i], rank[i] = names.index(kingdom_of(r)), rank_of(r)
            outcome[i] = ("duel", "bank wins all", "bank pays all").index(bank_outcome(r))
    return kingdom, rank, outcome


KINGDOM, RANK, OUTCOME = _codes()


# Rolls come from random bytes: a byte b < 252 = 7 * 36 is the ordered pair of dice b % 36
# (exactly uniform), a byte >= 252 is skipped. A duel reads its rolls a block of bytes at a time
# (4 bytes first, 8 later), the block seen as one little-endian word: byte i at bits 8i to 8i + 7.
_BYTE = np.arange(256)
KINGDOM_OF_BYTE = np.where(_BYTE < 252, KINGDOM[_BYTE % 36], -1).astype(np.int8)
RANK_OF_BYTE = RANK[_BYTE % 36]


def _bytes(rng: np.random.Generator, n: int) -> np.ndarray:
    """n random bytes."""
    return raw_bits(rng, n, 8)


def _pairs(rng: np.random.Generator, n: int) -> np.ndarray:
    """n rolls of 2d6 as ordered-pair indices 6 (a - 1) + (b - 1)."""
    b = _bytes(rng, n)
    while True:
        bad = np.flatnonzero(b >= 252)
        if not bad.size:
            return (b % 36).astype(np.int8)
        b[bad] = _bytes(rng, bad.size)


def _duels(
    rng: np.random.Generator, want: np.ndarray, beat: np.ndarray, width: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One block of `width` (4 or 8) bytes for each duel against a bank result of kingdom `want`
    and rank `beat`: (settled or not, +1 / -1 if settled, rolls outside the kingdom before the
    settling roll, or in the whole block if none settles)."""
    word = np.dtype(f"<u{width}")
    block = _bytes(rng, want.size * width).reshape(want.size, width)
    hit = (KINGDOM_OF_BYTE.take(block) == want[:, None]).view(word).ravel()  # byte i = 1: roll i settles
    rolled = (block < 252).view(word).ravel()  # byte i = 1: byte i is a roll
    below = (hit & -hit) - word.type(1)  # the bits under the first settling roll (all, if none)
    shift = np.minimum(np.bitwise_count(below), 8 * width - 8).astype(word)
    rank = RANK_OF_BYTE.take((block.view(word).ravel() >> shift) & word.type(255))
    return hit != 0, np.where(rank > beat, 1, -1).astype(np.int8), np.bitwise_count(rolled & below).astype(np.int16)


def play_rounds(rng: np.random.Generator, n: int, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n rounds with `players` players: the bank's pair index (n,), and per player (n, players)
    the result (+1 won a stake, -1 lost one) and the number of fines paid.

    Every duel of every round rolls together: the first roll in the bank's kingdom settles the
    duel, each roll before it costs a fine."""
    bank = _pairs(rng, n)
    outcome = OUTCOME.take(bank)
    won = np.where(outcome == 2, 1, -1).astype(np.int8).repeat(players)
    fines = np.zeros(n * players, dtype=np.int16)
    jobs = np.flatnonzero((outcome == 0).repeat(players))  # flat indices into (n, players)
    against = bank.repeat(players)[jobs]
    want, beat = KINGDOM.take(against), RANK.take(against)
    settled, result, paid = _duels(rng, want, beat, 4)
    won[jobs], fines[jobs] = result, paid
    rest = np.flatnonzero(~settled)
    jobs, want, beat, paid = jobs[rest], want[rest], beat[rest], paid[rest]
    while jobs.size:
        settled, result, more = _duels(rng, want, beat, 8)
        paid += more
        won[jobs[settled]], fines[jobs[settled]] = result[settled], paid[settled]
        rest = ~settled
        jobs, want, beat, paid = jobs[rest], want[rest], beat[rest], paid[rest]
    return bank, won.reshape(n, players), fines.reshape(n, players)


def round_kernel(fine: Fraction, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n single rounds, seen by one player: the per-round figures."""
    bank, won, fines = play_rounds(rng, n, 1)
    outcome = OUTCOME.take(bank)
    net = won[:, 0] - float(fine) * fines[:, 0]
    return {
        "p_bank_wins_all": outcome == 1,
        "p_bank_pays_all": outcome == 2,
        "p_player_wins_duel": (outcome == 0) & (won[:, 0] == 1),
        "expected_fines": float(fine) * fines[:, 0],
        "expected_fine_count": fines[:, 0],
        "player_ev": net,
        "bank_edge": -net,
    }


GAME_BATCH = 1 << 18  # player-rounds per batch of games


def game_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games (`rounds` rounds, `players` players): each seat ahead at the end or not
    (seat 0 is the bank), and the bank's net. Money in units of 1/denominator(fine) stakes, exact."""
    unit, fine_units = rules.fine.denominator, rules.fine.numerator
    per_game = rules.rounds * rules.players
    step = max(1, GAME_BATCH // per_game)
    nets = np.zeros((n, rules.players), dtype=np.int64)
    for start in range(0, n, step):
        m = min(step, n - start)
        _, won, fines = play_rounds(rng, m * rules.rounds, rules.players)
        shape = (m, rules.rounds, rules.players)
        stakes = won.reshape(shape).sum(axis=1, dtype=np.int64)
        nets[start : start + m] = stakes * unit - fines.reshape(shape).sum(axis=1, dtype=np.int64) * fine_units
    bank = -nets.sum(axis=1)
    out = {"p_bank_ahead": bank > 0, "mean_bank_net": bank / unit}
    for i in range(rules.players):
        out[f"p_ahead_seat_{i + 1}"] = nets[:, i] > 0
    return out


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures with 95% confidence intervals: single rounds, and whole games where
    `p_ahead_seat_<i>` is P(player i ends the game ahead) and `p_bank_ahead` the bank's."""
    rules = rules or Rules()
    one = montecarlo.run(partial(round_kernel, rules.fine), trials, seed, client=client, progress=progress)
    games = montecarlo.run(partial(game_kernel, rules), trials, seed + 1, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in (one.estimates | games.estimates).items()})
