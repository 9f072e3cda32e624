"""The war without interventions: three duels at once, each rally lifting every hero of its side
and each guard weakening every steal of the other side, for a number of turns; then the side
with more points wins (or a tie), and each god scores its favourites' points if its side won
(every god on a tie).

Exact, by the chain on the six heroes' points — a large chain. A turn has 6**6 face
combinations (5**6 = 15,625 once white and red, which move no point, are merged; 3,861 distinct
moves once combinations that give every hero the same gain and steal are merged, `_moves`), and
the positions multiply: even counting the three duels as unordered (they are exchangeable when
the heroes of a side share a face table, as here), the war can be in 338 positions after 1
turn, 4,066 after 2, 12,301 after 3, 84,732 after 6 and 417,674 after 10 (`states`). The
weights are numbers of rolls out of 6**(6 turns), up to 6**60 ≈ 10**47: too large for int64, so
`chain` keeps each modulo a few primes near 2**31 (vectorised int64 arithmetic) and rebuilds
every exact sum it needs by the Chinese remainder theorem. The whole game's length, 10 turns,
takes about 6 minutes: `table` is stored in data/entheos-war.parquet (its first rows are
rebuilt in the tests, the others checked against `kernel`, the vectorised simulation).

Two exact facts need no chain: the sides are symmetric, so P(Achaeans win) = P(Trojans win) =
(1 - P(tie)) / 2; and each hero expects 6 + T/2 points after T turns (a duel's two heroes gain
one point per rally of either side, 3 x 1/6 each turn, and split them evenly by symmetry).

>>> w = exact(1)
>>> w.p_achaeans_win(), w.p_tied(), w.mean_points()
(Fraction(20131, 46656), Fraction(3197, 23328), Fraction(13, 2))
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import polars as pl

from nessus.dist import Dist, exact_str
from nessus.games.entheos.heroes import FACES, GODS, HEROES, START_POINTS, STEAL, Hero

MAX_EXACT_TURNS = 10
"""Turns `exact` solves at most: the game's longest (2 players). About 1 s for 3 turns, 6 minutes
for 10 (417,674 positions), so `table` is stored in data/."""
POINT_ACTIONS = ("steal1", "steal3", "rally", "guard", "rest")
"""The actions as far as points go (falter moves no point: it counts as rest here)."""
_CODE = {action: i for i, action in enumerate(POINT_ACTIONS)} | {"falter": 4}
_BASE = 128  # above any hero's points within MAX_EXACT_TURNS turns (6 + 6 per turn)
_BATCH = 64
_KEY_BITS = 42  # a position's key is below _BASE**6 = 2**42


def _codes(hero: Hero) -> np.ndarray:
    """The point-action code of each of the hero's six faces."""
    return np.array([_CODE[hero.action(face)] for face in FACES], dtype=np.int8)


def effects(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What the turn's action `codes` (n, 6) do whatever the points: each hero's rally gain (its
    side's rallies) and steal amount (its face's, less the other side's guards, not below 0)."""
    rally = codes == _CODE["rally"]
    guard = codes == _CODE["guard"]
    rallies = np.stack([rally[:, :3].sum(1), rally[:, 3:].sum(1)], axis=1)
    guards = np.stack([guard[:, :3].sum(1), guard[:, 3:].sum(1)], axis=1)
    base = np.where(codes == _CODE["steal1"], STEAL["steal1"], np.where(codes == _CODE["steal3"], STEAL["steal3"], 0))
    amount = np.where(base > 0, np.maximum(base - np.repeat(guards[:, ::-1], 3, axis=1), 0), 0)
    return np.repeat(rallies, 3, axis=1), amount


def _facing(x: np.ndarray) -> np.ndarray:
    """Each column's value for the hero facing it."""
    return np.concatenate([x[:, 3:], x[:, :3]], axis=1)


def resolve(points: np.ndarray, gain: np.ndarray, amount: np.ndarray) -> np.ndarray:
    """The points after the turn from `points` (n, 6) and the turn's `effects`: rallies first,
    then every steal at once, capped by its victim's points after the rallies."""
    after = points + gain
    taken = np.minimum(amount, _facing(after))
    return after + taken - _facing(taken)


def step(points: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The war's turn, vectorised: `points` (n, 6) and action `codes` (n, 6) hero by hero, the
    heroes at columns i and 3 + i facing each other (Achaeans 0-2, Trojans 3-5); the points
    after the turn (RULES.md part 5's order, as `battle.resolve`)."""
    return resolve(points, *effects(codes))


@cache
def _combos(places: tuple[int, ...] = tuple(range(6))) -> tuple[np.ndarray, np.ndarray]:
    """Every combination of the point actions of the heroes at the six places (rows) and its
    number of face rolls."""
    counts = np.stack([np.bincount(_codes(HEROES[h]), minlength=len(POINT_ACTIONS)) for h in places])
    rows = np.indices((len(POINT_ACTIONS),) * 6).reshape(6, -1).T
    weights = np.prod(counts[np.arange(6), rows], axis=1)
    return rows[weights > 0].astype(np.int64), weights[weights > 0].astype(np.int64)


@cache
def _moves(places: tuple[int, ...] = tuple(range(6))) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The turn's distinct effects (gain, amount) over every combination of actions, each with
    its number of face rolls: 3,861 moves instead of 15,625 combinations."""
    combos, weights = _combos(places)
    gain, amount = effects(combos)
    key = np.concatenate([gain, amount], axis=1) @ (8 ** np.arange(12))
    order = np.argsort(key, kind="stable")
    key = key[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    return gain[order][starts], amount[order][starts], np.add.reduceat(weights[order], starts)


def _canonical(points: np.ndarray) -> np.ndarray:
    """One integer per war position, the three duels taken in sorted order (they are
    exchangeable)."""
    duels = np.sort(points[:, :3] * _BASE + points[:, 3:], axis=1)
    square = _BASE * _BASE
    return (duels[:, 0] * square + duels[:, 1]) * square + duels[:, 2]


def _decode(keys: np.ndarray) -> np.ndarray:
    square = _BASE * _BASE
    duels = np.stack([keys // (square * square), keys // square % square, keys % square], axis=1)
    return np.concatenate([duels // _BASE, duels % _BASE], axis=1)


PRIMES = (
    2147483647,
    2147483629,
    2147483587,
    2147483579,
    2147483563,
    2147483549,
    2147483543,
    2147483497,
    2147483489,
    2147483477,
    2147483423,
    2147483399,
)
"""The moduli of `exact`'s weights: each weight is kept modulo each prime (int64 arithmetic,
vectorised), and an exact sum is rebuilt from its residues by the Chinese remainder theorem."""


def _merge(keys: np.ndarray, weights: np.ndarray, primes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equal keys merged, their weights (n, primes) added modulo each prime."""
    order = np.argsort(keys, kind="stable")
    keys, weights = keys[order], weights[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return keys[starts], np.add.reduceat(weights, starts, axis=0) % primes


def _crt(residues: Sequence[int], primes: Sequence[int]) -> int:
    """The integer in [0, product of primes) with these residues."""
    total, modulus = 0, 1
    for r, p in zip(residues, primes, strict=True):
        step = (r - total) * pow(modulus, -1, p) % p
        total += modulus * step
        modulus *= p
    return total


def _exchangeable() -> bool:
    achaean, trojan = {tuple(_codes(h)) for h in HEROES[:3]}, {tuple(_codes(h)) for h in HEROES[3:]}
    return len(achaean) == 1 and len(trojan) == 1


@dataclass(frozen=True)
class War:
    """The war's exact distribution after `turns` turns: `positions` (n, 6) points, the three
    duels in sorted order (columns i and 3 + i face each other), each with its number of the
    6**(6 turns) rolls kept modulo each of `primes` (`residues`, (n, len(primes)))."""

    turns: int
    positions: np.ndarray
    residues: np.ndarray
    primes: tuple[int, ...]

    def _sum(self, values: np.ndarray) -> int:
        """The exact sum over positions of value x weight (values: small non-negative integers)."""
        sums = [int((self.residues[:, j] * values % p).sum() % p) for j, p in enumerate(self.primes)]
        return _crt(sums, self.primes)

    def _p(self, event: np.ndarray) -> Fraction:
        return Fraction(self._sum(event.astype(np.int64)), 6 ** (6 * self.turns))

    def _totals(self) -> tuple[np.ndarray, np.ndarray]:
        return self.positions[:, :3].sum(1), self.positions[:, 3:].sum(1)

    def p_achaeans_win(self) -> Fraction:
        achaeans, trojans = self._totals()
        return self._p(achaeans > trojans)

    def p_trojans_win(self) -> Fraction:
        achaeans, trojans = self._totals()
        return self._p(trojans > achaeans)

    def p_tied(self) -> Fraction:
        achaeans, trojans = self._totals()
        return self._p(achaeans == trojans)

    def mean_points(self, side: int = 0) -> Fraction:
        """A hero's expected points (every hero of a side alike)."""
        return Fraction(self._sum(self._totals()[side]), 3 * 6 ** (6 * self.turns))

    def god_ev(self, name: str) -> Fraction:
        """The god's expected victory points: its favourites' weights times their points, if its
        side won or the war is tied, else 0 (every hero of a side alike)."""
        god = next(g for g in GODS if g.name == name)
        totals = self._totals()
        counts = totals[god.side] >= totals[1 - god.side]
        scored = self._sum(totals[god.side] * counts)
        return Fraction(sum(god.favourites.values()) * scored, 3 * 6 ** (6 * self.turns))


def _primes_for(turns: int) -> tuple[int, ...]:
    """Enough primes that their product exceeds every exact sum `War` takes (a side's total
    points, below 2**9, times 6**(6 turns))."""
    bits = 6 * turns * np.log2(6) + 10
    return PRIMES[: max(1, int(np.ceil(bits / 30)))]


def chain(turns: int) -> Iterator[War]:
    """The war after 0, 1, ..., `turns` turns (at most `MAX_EXACT_TURNS`), by the chain on the
    heroes' points with the duels unordered; every hero of a side must share a face table."""
    if not isinstance(turns, int) or not 0 <= turns <= MAX_EXACT_TURNS:
        raise ValueError(f"turns must be an integer from 0 to {MAX_EXACT_TURNS} for the exact war, got {turns!r}")
    if not _exchangeable():
        raise ValueError("the exact war needs the heroes of each side to share a face table")
    primes = _primes_for(turns)
    moduli = np.array(primes, dtype=np.int64)
    gain, amount, counts = _moves()
    keys = _canonical(np.full((1, 6), START_POINTS, dtype=np.int64))
    residues = np.ones((1, len(primes)), dtype=np.int64)
    positions = _decode(keys)
    yield War(0, positions, residues, primes)
    for turn in range(1, turns + 1):
        parts_k, parts_w = [], []
        for start in range(0, len(keys), _BATCH):
            n = len(positions[start : start + _BATCH])
            after = resolve(
                np.repeat(positions[start : start + _BATCH], len(counts), axis=0),
                np.tile(gain, (n, 1)),
                np.tile(amount, (n, 1)),
            )
            # (position in the batch, next position) pairs first, their rolls counted exactly in
            # int64; then each pair's weight is its position's residues times that count
            pair = np.repeat(np.arange(n, dtype=np.int64), len(counts)) << _KEY_BITS | _canonical(after)
            order = np.argsort(pair)
            pair = pair[order]
            starts = np.flatnonzero(np.r_[True, pair[1:] != pair[:-1]])
            rolls = np.add.reduceat(np.tile(counts, n)[order], starts)
            pair = pair[starts]
            weights = residues[start + (pair >> _KEY_BITS)] * rolls[:, None] % moduli
            k, w = _merge(pair & ((1 << _KEY_BITS) - 1), weights, moduli)
            parts_k.append(k)
            parts_w.append(w)
        keys, residues = _merge(np.concatenate(parts_k), np.concatenate(parts_w), moduli)
        positions = _decode(keys)
        yield War(turn, positions, residues, primes)


@cache
def exact(turns: int) -> War:
    """The war after `turns` turns (see `chain`)."""
    *_, last = chain(turns)
    return last


def table(turns: int) -> pl.DataFrame:
    """The exact war after 0..`turns` turns, one row per length: its positions (duels
    unordered), P(Achaeans win), P(Trojans win), P(tie), a hero's expected points and each god's
    expected victory points, as exact fractions written "p/q"."""
    rows = []
    for w in chain(turns):
        row: dict[str, int | str] = {"turns": w.turns, "positions": len(w.residues)}
        figures = {
            "p_achaeans_win": w.p_achaeans_win(),
            "p_trojans_win": w.p_trojans_win(),
            "p_war_tied": w.p_tied(),
            "hero_mean_points": w.mean_points(),
        } | {f"god_{g.name.lower()}_ev": w.god_ev(g.name) for g in GODS}
        rows.append(row | {k: exact_str(v) for k, v in figures.items()})
    return pl.DataFrame(rows)


def states(turns: int) -> int:
    """How many positions (duels unordered) the war can be in after `turns` turns."""
    return len(exact(turns).residues)


def kernel(
    turns: int,
    rng: np.random.Generator,
    n: int,
    points: Sequence[int] | None = None,
    places: Sequence[int] | None = None,
) -> dict[str, np.ndarray]:
    """n wars of `turns` turns without interventions: whether the Achaeans won, the Trojans won
    or the war was tied, each hero's points (`hero_<name>_points`) and each god's victory points
    (`god_<name>_ev`). From `points` (hero by hero; default 6 each) and `places` (the hero at
    each place, places i and 3 + i facing each other; default: the Achaeans in order against a
    random order of the Trojans, drawn for each war)."""
    faces = np.stack([_codes(h) for h in HEROES])
    rows = np.arange(n)[:, None]
    if places is None:
        at = np.concatenate([np.tile(np.arange(3), (n, 1)), 3 + np.argsort(rng.random((n, 3)), axis=1)], axis=1)
    else:
        at = np.tile(np.asarray(places, dtype=np.int64), (n, 1))
    start = START_POINTS if points is None else np.asarray(points, dtype=np.int64)
    hero_points = np.broadcast_to(start, (n, 6)).astype(np.int64)
    placed = hero_points[rows, at]
    for _ in range(turns):
        rolled = rng.integers(0, 6, size=(n, 6))
        placed = step(placed, faces[at, rolled])
    hero_points = np.empty_like(placed)
    hero_points[rows, at] = placed
    achaeans, trojans = hero_points[:, :3].sum(1), hero_points[:, 3:].sum(1)
    out = {
        "p_achaeans_win": achaeans > trojans,
        "p_trojans_win": trojans > achaeans,
        "p_war_tied": achaeans == trojans,
    }
    for i, hero in enumerate(HEROES):
        out[f"hero_{hero.name.lower()}_points"] = hero_points[:, i]
    index = {h.name: i for i, h in enumerate(HEROES)}
    for god in GODS:
        side, other = (achaeans, trojans) if god.side == 0 else (trojans, achaeans)
        vp = sum(w * hero_points[:, index[hero]] for hero, w in god.favourites.items())
        out[f"god_{god.name.lower()}_ev"] = np.where(side >= other, vp, 0)
    return out


def next_turn(points: Sequence[int], places: Sequence[int]) -> list[Dist]:
    """Each duel's exact distribution after the next turn without interventions, from `points`
    (hero by hero) and `places` (the hero at each place): for place i, a Dist of (points of the
    hero at place i, points of the hero at place 3 + i). The duels are not independent (rallies
    and guards act across a side); these are their marginals.

    >>> first = next_turn((6,) * 6, range(6))[0]
    >>> first[(9, 3)] == first[(3, 9)], first.prob(lambda ab: ab[0] == ab[1])
    (True, Fraction(3217, 11664))
    """
    at = tuple(places)
    gain, amount, rolls = _moves(at)
    by_place = np.broadcast_to(np.array([points[h] for h in at], dtype=np.int64), gain.shape)
    after = resolve(by_place, gain, amount)
    duels = []
    for i in range(3):
        key = after[:, i] * _BASE + after[:, 3 + i]
        weights = np.bincount(key, weights=rolls, minlength=_BASE * _BASE).astype(np.int64)
        duels.append(Dist({(int(k) // _BASE, int(k) % _BASE): int(weights[k]) for k in np.flatnonzero(weights)}))
    return duels
