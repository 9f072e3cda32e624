"""Le Légit: roll 6d6 and remove every pair of dice totalling 7 (1-6, 2-5, 3-4: min(#a, #b)
pairs of each); then keep the total of the dice left, or reroll all of them (removing 7-pairs
again), at most `rerolls` times. No dice left scores 0. Later players in the round may not
reroll more times than the first player did; the highest score wins (RULES.md section 9).

Exact play by expectimax (`nessus.solver.Expectimax`) over (rerolls left, dice left, total):

- `optimal_mean`: the best expected score with up to `rerolls` rerolls; `no_reroll_mean`;
- `p_beat_target_best`: the best P(score > target);
- `heuristic_mean`: the human rule "reroll while the total is below `reroll_below`".

**The first player's dilemma.** Every reroll the first player takes raises the later players'
cap. Model (decisions of this module): a later player knows the best score so far b and their
cap u, and plays to maximise P(score > b) + P(score = b)/2 (ties for the best share the win
equally; among equal choices they stop). While the first player (score t, u rerolls used) is
still in contention every later player faces b = t, so the first player's share is
sum_k C(m, k) tau^k (1 - beta - tau)^(m - k) / (k + 1) over m = players - 1 later players who
each beat t with probability beta and tie it with probability tau. The first player stops or
rerolls to maximise that share (`p_first_wins_optimal`); `p_first_wins_max_mean` is their
share if they play for the best expected score instead. `dilemma(rules)` tabulates, for each
number of rerolls used, the later players' capped means, how often the optimal first player
stops there, their share when they do, and the least total at which they stop.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from nessus import montecarlo
from nessus.dice import check_faces, rolls
from nessus.dist import Dist, exact_str
from nessus.games._pushluck import TurnSampler
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field
from nessus.solver import Expectimax, Hint

if TYPE_CHECKING:
    import polars as pl

NAME = "legit"
TITLE = "Le Légit"
SUMMARY = "Remove the 7-pairs, keep the rest or reroll it; the first player caps the rerolls."

PAIRS = ((1, 6), (2, 5), (3, 4))

REROLLS = Param("rerolls", 3, 0, 3, "most rerolls (the first player's count caps the later players)")
DICE = Param("dice", 6, 1, 8, "dice rolled at the start")
PLAYERS = Param("players", 2, 2, 6, "players in a round (for the dilemma and the simulated rounds)")
TARGET = Param("target", 15, 0, 48, "score to beat strictly, for the P(beat target) policy")
REROLL_BELOW = Param("reroll_below", 8, 0, 48, "the human rule rerolls while the total is below this (8, the default, is the best single threshold)")


@dataclass(frozen=True)
class Rules(GameRules):
    params = (REROLLS, DICE, PLAYERS, TARGET, REROLL_BELOW)
    rerolls: int = field(REROLLS)
    dice: int = field(DICE)
    players: int = field(PLAYERS)
    target: int = field(TARGET)
    reroll_below: int = field(REROLL_BELOW)


def remove_pairs(roll: tuple[int, ...]) -> tuple[int, ...]:
    """The dice left (sorted) once every 7-pair is removed: min(#a, #b) pairs of each (a, b)."""
    left = []
    for a, b in PAIRS:
        na, nb = roll.count(a), roll.count(b)
        gone = min(na, nb)
        left += [a] * (na - gone) + [b] * (nb - gone)
    return tuple(sorted(left))


@cache
def outcome(n: int) -> Dist:
    """The distribution of (dice left, their total) after rolling n dice and removing 7-pairs."""
    return rolls(n).map(lambda r: (len(remove_pairs(r)), sum(remove_pairs(r))))


# -- expectimax ----------------------------------------------------------------------------------------
class Turn:
    """One player's turn as an `Expectimax`. States: ("rolled", rerolls left, dice left, total)
    and ("kept", ..., total) once play is over; the start ("start", rerolls, dice) has one move,
    the first roll. `payoff(total, rerolls used)` scores the kept total."""

    def __init__(self, dice: int, rerolls: int, payoff: Callable[[int, int], Fraction | int], game: Expectimax | None = None) -> None:
        self.dice, self.rerolls = dice, rerolls
        self.game = game or Expectimax(self.choices, self.chance, lambda s: payoff(s[3], self.rerolls - s[1]), maximise=True)

    def choices(self, state: tuple) -> list[tuple[Hashable, Hashable]]:
        kind, left, n, *rest = state
        if kind == "start":
            return [("roll", (left, n))]
        if kind == "kept":
            return []
        total = rest[0]
        moves = [("keep", ("keep", left, n, total))]
        if left > 0 and n > 0:
            moves.append(("reroll", (left - 1, n)))
        return moves

    def chance(self, after: tuple) -> list[tuple[Hashable, int]]:
        if after[0] == "keep":
            return [(("kept",) + after[1:], 1)]
        left, n = after
        return [(("rolled", left, m, t), w) for (m, t), w in outcome(n).weights()]

    @property
    def start(self) -> tuple:
        return ("start", self.rerolls, self.dice)

    def value(self) -> Fraction:
        """The optimal expected payoff before the first roll."""
        return Fraction(self.game.value(self.start))

    def final(self, policy: Callable[[tuple], str] | None = None) -> dict[tuple[int, int], Fraction]:
        """P(the turn ends with (total, rerolls used)) under `policy(state) -> "keep" or
        "reroll"` (default: optimal), by a forward pass over the rolls."""
        policy = policy or self.game.best
        front = {(self.rerolls, self.dice): Fraction(1)}
        out: dict[tuple[int, int], Fraction] = {}
        for left in range(self.rerolls, -1, -1):
            for (r, n), p in [(a, p) for a, p in front.items() if a[0] == left]:
                for (m, t), q in outcome(n).items():
                    state = ("rolled", r, m, t)
                    if len(self.choices(state)) > 1 and policy(state) == "reroll":
                        front[(r - 1, m)] = front.get((r - 1, m), Fraction(0)) + p * q
                    else:
                        key = (t, self.rerolls - r)
                        out[key] = out.get(key, Fraction(0)) + p * q
        return out


@cache
def mean_turn(dice: int, rerolls: int) -> Turn:
    """Maximise the expected score."""
    return Turn(dice, rerolls, lambda t, used: t)


@cache
def beat_turn(dice: int, rerolls: int, best: int, tie: Fraction = Fraction(0)) -> Turn:
    """Maximise P(score > best) + tie * P(score = best). The payoff does not depend on the
    rerolls used, so every cap shares one memoised game."""
    shared = None if rerolls == REROLLS.hi else beat_turn(dice, REROLLS.hi, best, tie).game
    return Turn(dice, rerolls, lambda t, used: 1 if t > best else (tie if t == best else 0), shared)


def optimal_mean(rules: Rules | None = None) -> Fraction:
    """The best expected score (points) with up to `rerolls` rerolls."""
    rules = rules or Rules()
    return mean_turn(rules.dice, rules.rerolls).value()


def reroll_below(x: int) -> Callable[[tuple], str]:
    """The human rule: reroll while the total is below x (rerolls and dice permitting)."""
    return lambda state: "reroll" if state[3] < x else "keep"


def score_distribution(rules: Rules | None = None, policy: Callable[[tuple], str] | None = None) -> Dist:
    """The exact distribution of the score (points) under `policy` (default: best mean)."""
    rules = rules or Rules()
    final = mean_turn(rules.dice, rules.rerolls).final(policy)
    totals: dict[int, Fraction] = {}
    for (t, _), p in final.items():
        totals[t] = totals.get(t, Fraction(0)) + p
    return Dist.from_probabilities(totals)


# -- the first player's dilemma ---------------------------------------------------------------------------
@cache
def later_odds(dice: int, cap: int, best: int) -> tuple[Fraction, Fraction]:
    """(beta, tau): P(a later player capped at `cap` rerolls scores above / exactly `best`),
    playing for P(above) + P(equal)/2. With the default dice, from the stored table
    (data/legit-later_odds.parquet) when there is one, else solved now."""
    stored = _stored_odds() if dice == DICE.default else None
    if stored is not None and (cap, best) in stored:
        return stored[cap, best]
    return _later_odds(dice, cap, best)


def _later_odds(dice: int, cap: int, best: int) -> tuple[Fraction, Fraction]:
    final = beat_turn(dice, cap, best, Fraction(1, 2)).final()
    above = sum((p for (t, _), p in final.items() if t > best), Fraction(0))
    equal = sum((p for (t, _), p in final.items() if t == best), Fraction(0))
    return above, equal


def tables(rules: Rules | None = None) -> dict[str, pl.DataFrame]:
    """{"later_odds": cap, best, p_above, p_equal}: `later_odds` for the rules' dice, every cap
    0..3 and every score to beat 0..6 * dice, freshly solved, exact ("p/q"). Every player count
    and cap of the first player's dilemma is quick from these (they take most of its time)."""
    import polars as pl

    rules = rules or Rules()
    keys = [(cap, best) for cap in range(REROLLS.hi + 1) for best in range(6 * rules.dice + 1)]
    odds = [_later_odds(rules.dice, cap, best) for cap, best in keys]
    return {"later_odds": pl.DataFrame({
        "cap": pl.Series([k[0] for k in keys], dtype=pl.Int8), "best": pl.Series([k[1] for k in keys], dtype=pl.Int16),
        "p_above": [exact_str(a) for a, _ in odds], "p_equal": [exact_str(e) for _, e in odds]})}


@cache
def _stored_odds() -> dict[tuple[int, int], tuple[Fraction, Fraction]] | None:
    """The stored `later_odds` of the default dice by (cap, best), or None if not built."""
    from nessus import tables as store

    frame = store.load(NAME, "later_odds")
    if frame is None:
        return None
    rows = frame.select("cap", "best", "p_above", "p_equal").iter_rows()
    return {(cap, best): (Fraction(above), Fraction(equal)) for cap, best, above, equal in rows}


def share(dice: int, players: int, total: int, used: int) -> Fraction:
    """The first player's share of the win on stopping at `total` after `used` rerolls."""
    beta, tau = later_odds(dice, used, total)
    m = players - 1
    return sum((comb(m, k) * tau**k * (1 - beta - tau) ** (m - k) / (k + 1) for k in range(m + 1)), Fraction(0))


@cache
def first_turn(dice: int, rerolls: int, players: int) -> Turn:
    """The first player maximising their share of the win."""
    return Turn(dice, rerolls, lambda t, used: share(dice, players, t, used))


def first_share(rules: Rules, policy: Callable[[tuple], str] | None = None) -> Fraction:
    """The first player's share of the win under `policy` (default: the share-optimal one)."""
    final = first_turn(rules.dice, rules.rerolls, rules.players).final(policy)
    return sum((p * share(rules.dice, rules.players, t, used) for (t, used), p in final.items()), Fraction(0))


def first_stops(rules: Rules | None = None) -> dict[int, tuple[Fraction, Fraction | None]]:
    """For each number u of rerolls the share-optimal first player may use: (P(they stop after
    exactly u rerolls), their share of the win given that; None if they never stop there)."""
    rules = rules or Rules()
    final = first_turn(rules.dice, rules.rerolls, rules.players).final()
    out = {}
    for u in range(rules.rerolls + 1):
        stop_p = sum((p for (_, used), p in final.items() if used == u), Fraction(0))
        won = sum((p * share(rules.dice, rules.players, t, used) for (t, used), p in final.items() if used == u), Fraction(0))
        out[u] = (stop_p, won / stop_p if stop_p else None)
    return out


def dilemma(rules: Rules | None = None) -> pl.DataFrame:
    """One row per number u of rerolls the first player uses (the later players' cap):
    `later_mean` (a later player's best expected score with at most u rerolls), `p_stop`
    (P(the share-optimal first player stops after exactly u rerolls)), `share_if_stop` (their
    share of the win given that), and `stop_from_<n>_dice` (the least total at which they stop
    with n dice left after u rerolls; null if they never stop there). Exact values as floats."""
    import polars as pl

    rules = rules or Rules()
    turn = first_turn(rules.dice, rules.rerolls, rules.players)
    counts = sorted({m for m, _ in outcome(rules.dice).outcomes if m > 0})
    rows = []
    for u, (stop_p, share_if_stop) in first_stops(rules).items():
        row = {"rerolls_used": u, "later_mean": float(mean_turn(rules.dice, u).value()),
               "p_stop": float(stop_p), "share_if_stop": None if share_if_stop is None else float(share_if_stop)}
        for n in counts:
            stops = [t for t in range(6 * n + 1) if turn.game.best(("rolled", rules.rerolls - u, n, t)) == "keep"]
            row[f"stop_from_{n}_dice"] = min(stops) if stops else None
        rows.append(row)
    return pl.DataFrame(rows)


def report(rules: Rules | None = None) -> Report:
    """The exact figures of one turn and of the first player's dilemma."""
    rules = rules or Rules()
    human = score_distribution(rules, reroll_below(rules.reroll_below))
    best_mean = mean_turn(rules.dice, rules.rerolls).game.best
    return Report(NAME, rules.as_dict(), {
        "optimal_mean": Figure.of(optimal_mean(rules), f"best expected score with up to {rules.rerolls} rerolls (points)"),
        "no_reroll_mean": Figure.of(mean_turn(rules.dice, 0).value(), "expected score without rerolls (points)"),
        "p_beat_target_best": Figure.of(beat_turn(rules.dice, rules.rerolls, rules.target).value(),
                                        f"best P(score > {rules.target})"),
        "heuristic_mean": Figure.of(human.mean(), f"expected score rerolling while the total is below {rules.reroll_below}"),
        "p_first_wins_optimal": Figure.of(first_share(rules), f"first player's share of the win, {rules.players} players, "
                                          "playing for it (ties shared)"),
        "p_first_wins_max_mean": Figure.of(first_share(rules, best_mean), "first player's share playing for the best mean"),
    })


# -- Monte Carlo ------------------------------------------------------------------------------------------
def roll_left(n: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Roll n[i] dice for each i and remove 7-pairs: (dice left, their total)."""
    top = int(n.max()) if n.size else 0
    faces = rng.integers(1, 7, size=(n.size, max(top, 1)))
    faces = np.where(np.arange(max(top, 1))[None, :] < n[:, None], faces, 0)
    counts = np.stack([(faces == f).sum(axis=1) for f in range(1, 7)], axis=1)
    left, total = np.zeros(n.size, dtype=np.int64), np.zeros(n.size, dtype=np.int64)
    for a, b in PAIRS:
        gone = np.minimum(counts[:, a - 1], counts[:, b - 1])
        left += counts[:, a - 1] + counts[:, b - 1] - 2 * gone
        total += a * (counts[:, a - 1] - gone) + b * (counts[:, b - 1] - gone)
    return left, total


@cache
def policy_tables(dice: int, rerolls: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    """The first player's table first[r, n, t] and the later players' later[best, cap, r, n, t]
    (r = rerolls left): True where the optimal player rerolls."""
    top = 6 * dice
    first = np.zeros((rerolls + 1, dice + 1, top + 1), dtype=bool)
    later = np.zeros((top + 1, rerolls + 1, rerolls + 1, dice + 1, top + 1), dtype=bool)
    game = first_turn(dice, rerolls, players).game
    states = [(r, n, t) for r in range(1, rerolls + 1) for n in range(1, dice + 1) for t in range(top + 1)]
    for r, n, t in states:
        first[r, n, t] = game.best(("rolled", r, n, t)) == "reroll"
    for best in range(top + 1):
        for cap in range(rerolls + 1):
            g = beat_turn(dice, cap, best, Fraction(1, 2)).game
            for r, n, t in states:
                if r <= cap:
                    later[best, cap, r, n, t] = g.best(("rolled", r, n, t)) == "reroll"
    return first, later


def turns_by_dice(dice: int, rerolls: np.ndarray, decide: Callable, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Turns of `dice` dice with rerolls[i] allowed, rolled die by die; `decide(rerolls left,
    dice left, total, trial indices) -> reroll?` on arrays. Returns (score, rerolls used)."""
    k = rerolls.size
    n, total = roll_left(np.full(k, dice), rng)
    left = rerolls.copy()
    while True:
        go = (left > 0) & (n > 0)
        go[go] = decide(left[go], n[go], total[go], np.flatnonzero(go))
        if not go.any():
            return total, rerolls - left
        idx = np.flatnonzero(go)
        n[idx], total[idx] = roll_left(n[idx], rng)
        left[idx] -= 1


@cache
def mean_table(dice: int, rerolls: int) -> np.ndarray:
    """mean[r, n, t]: True where the best-mean player rerolls."""
    game = mean_turn(dice, rerolls).game
    tab = np.zeros((rerolls + 1, dice + 1, 6 * dice + 1), dtype=bool)
    for r in range(1, rerolls + 1):
        for m in range(1, dice + 1):
            for t in range(6 * dice + 1):
                tab[r, m, t] = game.best(("rolled", r, m, t)) == "reroll"
    return tab


def rounds_by_dice(rules: Rules, rng: np.random.Generator, n: int) -> np.ndarray:
    """n rounds rolled die by die: the share-optimal first player, then later players capped at
    the first player's rerolls, each playing to beat the best so far. Whether the first player
    wins (a tie for the best broken by a fair draw, so the win rate is the share)."""
    first_tab, later_tab = policy_tables(rules.dice, rules.rerolls, rules.players)
    best, used = turns_by_dice(rules.dice, np.full(n, rules.rerolls), lambda r, m, t, i: first_tab[r, m, t], rng)
    first = best.copy()
    ties = np.ones(n, dtype=np.int64)
    first_wins = np.ones(n, dtype=bool)
    for _ in range(rules.players - 1):
        target = best.copy()
        score, _ = turns_by_dice(rules.dice, used.copy(), lambda r, m, t, i: later_tab[target[i], used[i], r, m, t], rng)
        first_wins &= score <= first
        ties = np.where(score > best, 1, np.where(score == best, ties + 1, ties))
        best = np.maximum(best, score)
    return first_wins & (rng.random(n) * ties < 1)  # among k tied for the best, the first wins 1/k of the time


@dataclass(frozen=True)
class RoundSamplers:
    """Whole turns drawn from their exact laws: the first player's (total, rerolls used) as
    outcome total * (rerolls + 1) + used, and a later player's score by row best * (rerolls + 1) + cap."""

    rerolls: int
    first: TurnSampler
    later: TurnSampler


@cache
def round_samplers(dice: int, rerolls: int, players: int) -> RoundSamplers:
    top, width = 6 * dice, rerolls + 1
    joint = np.zeros((1, (top + 1) * width))
    for (t, used), p in first_turn(dice, rerolls, players).final().items():
        joint[0, t * width + used] = float(p)
    later = np.zeros(((top + 1) * width, top + 1))
    for best in range(top + 1):
        for cap in range(width):
            for (t, _), p in beat_turn(dice, cap, best, Fraction(1, 2)).final().items():
                later[best * width + cap, t] += float(p)
    return RoundSamplers(rerolls, TurnSampler.of(np.cumsum(joint, axis=1)), TurnSampler.of(np.cumsum(later, axis=1)))


def rounds(players: int, samplers: RoundSamplers, rng: np.random.Generator, n: int) -> np.ndarray:
    """n rounds as `rounds_by_dice`, each turn drawn whole from its exact law: much faster."""
    width = samplers.rerolls + 1
    first, used = np.divmod(samplers.first.draw(np.zeros(n, dtype=np.int64), rng), width)
    best = first.copy()
    ties = np.ones(n, dtype=np.int64)
    first_wins = np.ones(n, dtype=bool)
    for _ in range(players - 1):
        score = samplers.later.draw(best * width + used, rng)
        first_wins &= score <= first
        ties = np.where(score > best, 1, np.where(score == best, ties + 1, ties))
        best = np.maximum(best, score)
    return first_wins & (rng.random(n) * ties < 1)


def round_kernel(rules: Rules, samplers: RoundSamplers, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n single turns rolled die by die (best mean; no reroll; the human rule) and n rounds
    (`rounds`)."""
    full = np.full(n, rules.rerolls)
    mean_tab = mean_table(rules.dice, rules.rerolls)
    mean_score, _ = turns_by_dice(rules.dice, full, lambda r, m, t, i: mean_tab[r, m, t], rng)
    _, plain = roll_left(np.full(n, rules.dice), rng)
    human, _ = turns_by_dice(rules.dice, full, lambda r, m, t, i: t < rules.reroll_below, rng)
    return {"optimal_mean": mean_score, "no_reroll_mean": plain, "heuristic_mean": human,
            "p_first_wins_optimal": rounds(rules.players, samplers, rng, n)}


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo (95% intervals): single turns, and whole rounds of `players` players."""
    rules = rules or Rules()
    samplers = round_samplers(rules.dice, rules.rerolls, rules.players)
    result = montecarlo.run(partial(round_kernel, rules, samplers), trials, seed, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in result.estimates.items()})


# -- a turn to play -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """A turn in progress: the dice left after removing 7-pairs (None before the first roll),
    the rerolls left, and every roll so far."""

    rules: Rules = Rules()
    left: tuple[int, ...] | None = None
    rerolls_left: int = REROLLS.default
    rolls: tuple[tuple[int, ...], ...] = ()
    kept: bool = False

    @classmethod
    def start(cls, rules: Rules | None = None, cap: int | None = None) -> Play:
        """A fresh turn; `cap` limits the rerolls (a later player's cap)."""
        rules = rules or Rules()
        return cls(rules, None, rules.rerolls if cap is None else min(cap, rules.rerolls))

    @property
    def total(self) -> int:
        return sum(self.left or ())

    @property
    def over(self) -> bool:
        return self.kept

    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, ...] | None = None) -> Play:
        """The first roll, or a reroll of the dice left (or take the given faces)."""
        if self.kept:
            raise ValueError("the turn is over: the total is kept")
        first = self.left is None
        if not first and (self.rerolls_left == 0 or not self.left):
            raise ValueError("no reroll left" if self.left else "no dice left to reroll")
        n = self.rules.dice if first else len(self.left)
        if dice is None:
            if rng is None:
                raise ValueError("give rng or dice")
            dice = tuple(int(x) for x in rng.integers(1, 7, size=n))
        dice = check_faces(dice, n)
        return Play(self.rules, remove_pairs(dice), self.rerolls_left - (0 if first else 1), self.rolls + (dice,))

    def keep(self) -> Play:
        """Keep the total of the dice left."""
        if self.left is None or self.kept:
            raise ValueError("roll first" if self.left is None else "the turn is over")
        return Play(self.rules, self.left, self.rerolls_left, self.rolls, True)

    def hint(self, best: int | None = None) -> Hint:
        """The value of keeping and of rerolling: expected score, or with `best` (the best score
        so far) P(above) + P(equal)/2."""
        if self.left is None or self.kept:
            raise ValueError("roll first" if self.left is None else "the turn is over")
        r = self.rerolls_left
        turn = mean_turn(self.rules.dice, r) if best is None else beat_turn(self.rules.dice, r, best, Fraction(1, 2))
        return turn.game.hint(("rolled", r, len(self.left), self.total))

    def first_hint(self, players: int) -> Hint:
        """The first player's value of keeping and of rerolling: their share of the win among
        `players` (later players capped at the rerolls used, chasing the best score; ties shared)."""
        if self.left is None or self.kept:
            raise ValueError("roll first" if self.left is None else "the turn is over")
        PLAYERS.check(players)
        r = self.rerolls_left
        if r + len(self.rolls) - 1 != self.rules.rerolls:
            raise ValueError("only the first player's turn (not capped) has a first player's hint")
        return first_turn(self.rules.dice, self.rules.rerolls, players).game.hint(("rolled", r, len(self.left), self.total))
