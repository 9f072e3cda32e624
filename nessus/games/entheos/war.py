"""The war without interventions: three duels at once, each rally lifting every hero of its side
and each guard weakening every steal of the other side, for a number of turns; then the side
with more points wins (or a tie), and each god scores its favourites' points if its side won
(every god on a tie).

Exact, by the chain on the six heroes' points — but the chain is large. A turn has 6**6 face
combinations (5**6 = 15,625 once white and red, which move no point, are merged), and the
positions multiply: even counting the three duels as unordered (they are exchangeable when the
heroes of a side share a face table, as here), the war can be in 338 positions after 1 turn,
4,066 after 2, 12,301 after 3 (`states`), and several hundred thousand by the game's 6 to 10
turns (see README). So `exact(turns)` solves the war for a few turns (`MAX_EXACT_TURNS`, integer
weights over 6**(6 turns)), and the game's length is simulated (`kernel`, vectorised numpy) with
intervals; the tests check the simulation against the exact war where both exist.

Two exact facts need no chain: the sides are symmetric, so P(Achaeans win) = P(Trojans win) =
(1 - P(tie)) / 2; and each hero expects 6 + T/2 points after T turns (a duel's two heroes gain
one point per rally of either side, 3 x 1/6 each turn, and split them evenly by symmetry).

>>> w = exact(1)
>>> w.p_achaeans_win(), w.p_tied(), w.mean_points()
(Fraction(20131, 46656), Fraction(3197, 23328), Fraction(13, 2))
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from nessus.games.entheos.heroes import FACES, GODS, HEROES, START_POINTS, STEAL, Hero

MAX_EXACT_TURNS = 3
"""Turns `exact` solves at most (about 16 s for 3 turns; integer weights over 6**18)."""
POINT_ACTIONS = ("steal1", "steal3", "rally", "guard", "rest")
"""The actions as far as points go (falter moves no point: it counts as rest here)."""
_CODE = {action: i for i, action in enumerate(POINT_ACTIONS)} | {"falter": 4}
_BASE = 64  # above any hero's points within MAX_EXACT_TURNS turns (6 + 6 per turn)
_BATCH = 48


def _codes(hero: Hero) -> np.ndarray:
    """The point-action code of each of the hero's six faces."""
    return np.array([_CODE[hero.action(face)] for face in FACES], dtype=np.int8)


def step(points: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The war's turn, vectorised: `points` (n, 6) and action `codes` (n, 6) hero by hero, the
    heroes at columns i and 3 + i facing each other (Achaeans 0-2, Trojans 3-5); the points
    after the turn (RULES.md part 5's order, as `battle.resolve`)."""
    rally = codes == _CODE["rally"]
    guard = codes == _CODE["guard"]
    rallies = np.stack([rally[:, :3].sum(1), rally[:, 3:].sum(1)], axis=1)
    guards = np.stack([guard[:, :3].sum(1), guard[:, 3:].sum(1)], axis=1)
    after = points + np.repeat(rallies, 3, axis=1)
    base = np.where(codes == _CODE["steal1"], STEAL["steal1"], np.where(codes == _CODE["steal3"], STEAL["steal3"], 0))
    other_guards = np.repeat(guards[:, ::-1], 3, axis=1)
    amount = np.where(base > 0, np.maximum(base - other_guards, 0), 0)
    victim = np.concatenate([after[:, 3:], after[:, :3]], axis=1)
    taken = np.minimum(amount, victim)
    lost = np.concatenate([taken[:, 3:], taken[:, :3]], axis=1)
    return after + taken - lost


@cache
def _combos() -> tuple[np.ndarray, np.ndarray]:
    """Every combination of the six heroes' point actions (rows) and its number of face rolls."""
    counts = []
    for hero in HEROES:
        c = np.bincount(_codes(hero), minlength=len(POINT_ACTIONS))
        counts.append(c)
    rows, weights = [], []
    for combo in itertools.product(range(len(POINT_ACTIONS)), repeat=6):
        w = 1
        for hero, code in enumerate(combo):
            w *= int(counts[hero][code])
        if w:
            rows.append(combo)
            weights.append(w)
    return np.array(rows, dtype=np.int64), np.array(weights, dtype=np.int64)


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


def _merge(keys: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equal keys merged, their weights added exactly (int64)."""
    order = np.argsort(keys, kind="stable")
    keys, weights = keys[order], weights[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return keys[starts], np.add.reduceat(weights, starts)


def _exchangeable() -> bool:
    achaean, trojan = {tuple(_codes(h)) for h in HEROES[:3]}, {tuple(_codes(h)) for h in HEROES[3:]}
    return len(achaean) == 1 and len(trojan) == 1


@dataclass(frozen=True)
class War:
    """The war's exact distribution after `turns` turns: `positions` (n, 6) points, the three
    duels in sorted order, each with its integer `weights` over 6**(6 turns)."""

    turns: int
    positions: np.ndarray
    weights: np.ndarray

    def _p(self, event: np.ndarray) -> Fraction:
        return Fraction(int(self.weights[event].astype(object).sum()), 6 ** (6 * self.turns))

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
        totals = self._totals()[side].astype(object)
        return Fraction(int((totals * self.weights.astype(object)).sum()), 3 * 6 ** (6 * self.turns))

    def god_ev(self, name: str) -> Fraction:
        """The god's expected victory points: its favourites' weights times their points, if its
        side won or the war is tied, else 0."""
        god = next(g for g in GODS if g.name == name)
        totals = self._totals()
        counts = totals[god.side] >= totals[1 - god.side]
        scored = (totals[god.side] * counts).astype(object) * self.weights.astype(object)
        return Fraction(sum(god.favourites.values()) * int(scored.sum()), 3 * 6 ** (6 * self.turns))


@cache
def exact(turns: int) -> War:
    """The war after `turns` turns (at most `MAX_EXACT_TURNS`), by the chain on the heroes'
    points with the duels unordered; every hero of a side must share a face table."""
    if not isinstance(turns, int) or not 0 <= turns <= MAX_EXACT_TURNS:
        raise ValueError(f"turns must be an integer from 0 to {MAX_EXACT_TURNS} for the exact war, got {turns!r}")
    if not _exchangeable():
        raise ValueError("the exact war needs the heroes of each side to share a face table")
    combos, combo_weights = _combos()
    keys = _canonical(np.full((1, 6), START_POINTS, dtype=np.int64))
    weights = np.ones(1, dtype=np.int64)
    positions = _decode(keys)
    for _ in range(turns):
        parts_k, parts_w = [], []
        for start in range(0, len(keys), _BATCH):
            batch = positions[start : start + _BATCH]
            n = len(batch)
            after = step(np.repeat(batch, len(combos), axis=0), np.tile(combos, (n, 1)))
            w = np.repeat(weights[start : start + _BATCH], len(combos)) * np.tile(combo_weights, n)
            k, w = _merge(_canonical(after), w)
            parts_k.append(k)
            parts_w.append(w)
        keys, weights = _merge(np.concatenate(parts_k), np.concatenate(parts_w))
        positions = _decode(keys)
    return War(turns, positions, weights)


def states(turns: int) -> int:
    """How many positions (duels unordered) the war can be in after `turns` turns."""
    return len(exact(turns).weights)


def kernel(turns: int, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n wars of `turns` turns without interventions, each with a random line-up (the Trojans'
    order facing the Achaeans): whether the Achaeans won, the Trojans won or the war was tied,
    each hero's points (`hero_<name>_points`) and each god's victory points (`god_<name>_ev`)."""
    faces = np.stack([_codes(h) for h in HEROES])
    lineup = np.argsort(rng.random((n, 3)), axis=1)
    points = np.full((n, 6), START_POINTS, dtype=np.int64)
    rows = np.arange(n)[:, None]
    trojans = 3 + lineup
    for _ in range(turns):
        rolled = rng.integers(0, 6, size=(n, 6))
        codes = faces[np.arange(6), rolled]
        placed = np.concatenate([points[:, :3], points[rows, trojans]], axis=1)
        placed_codes = np.concatenate([codes[:, :3], codes[rows, trojans]], axis=1)
        after = step(placed, placed_codes)
        points[:, :3] = after[:, :3]
        points[rows, trojans] = after[:, 3:]
    achaeans, trojan_total = points[:, :3].sum(1), points[:, 3:].sum(1)
    out = {
        "p_achaeans_win": achaeans > trojan_total,
        "p_trojans_win": trojan_total > achaeans,
        "p_war_tied": achaeans == trojan_total,
    }
    for i, hero in enumerate(HEROES):
        out[f"hero_{hero.name.lower()}_points"] = points[:, i]
    index = {h.name: i for i, h in enumerate(HEROES)}
    for god in GODS:
        side, other = (achaeans, trojan_total) if god.side == 0 else (trojan_total, achaeans)
        vp = sum(w * points[:, index[hero]] for hero, w in god.favourites.items())
        out[f"god_{god.name.lower()}_ev"] = np.where(side >= other, vp, 0)
    return out
