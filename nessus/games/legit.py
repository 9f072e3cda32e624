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

**The game** (`State`, the game protocol): one round, the players in seat order.

>>> state = initial_state(Rules(players=2))
>>> state.legal_actions(), state.apply(ROLL).is_chance_node()
(['roll'], True)
>>> state = state.apply(ROLL).apply((1, 2, 3, 4, 6, 6))  # 1-6 and 3-4 are 7-pairs
>>> state.turns[0].left, state.legal_actions(), state.hint(Mean()).best
((2, 6), ['keep', 'reroll'], 'keep')
>>> state.keep().apply(ROLL).apply((1, 2, 3, 4, 5, 6)).returns()  # player 2: capped at 0 rerolls, scores 0
[Fraction(1, 1), Fraction(0, 1)]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, partial
from math import comb
from typing import TYPE_CHECKING, cast

import numpy as np

from nessus import game, montecarlo
from nessus.dice import roll_faces, roll_outcomes, rolls
from nessus.dist import Dist, exact_str
from nessus.game import Game
from nessus.pushluck import TurnSampler
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field
from nessus.solver import Expectimax, Hint, TurnPolicy

if TYPE_CHECKING:
    import polars as pl

NAME = "legit"
PAIRS = ((1, 6), (2, 5), (3, 4))

REROLLS = Param("rerolls", 3, 0, 3, "most rerolls (the first player's count caps the later players)")
DICE = Param("dice", 6, 1, 8, "dice rolled at the start")
PLAYERS = Param("players", 2, 2, 6, "players in a round (for the dilemma and the simulated rounds)")
TARGET = Param("target", 15, 0, 48, "score to beat strictly, for the P(beat target) policy")
REROLL_BELOW = Param(
    "reroll_below",
    8,
    0,
    48,
    "the human rule rerolls while the total is below this (8, the default, is the best single threshold)",
)


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
    return rolls(n).map(
        lambda r: (len(remove_pairs(cast(tuple[int, ...], r))), sum(remove_pairs(cast(tuple[int, ...], r))))
    )


@cache
def left_totals(n: int) -> tuple[tuple[int, int, int], ...]:
    """`outcome(n)` as (dice left, total, weight out of 6**n), in its order."""
    den = 6**n
    out = []
    for key, p in outcome(n).items():
        m, t = cast(tuple[int, int], key)
        out.append((m, t, int(p * den)))
    return tuple(out)


"""A way to play one turn: `policy(("rolled", rerolls left, dice left, total)) -> "keep" or
"reroll"` (the solvers' states; `State` policies are `game.Policy`)."""


# -- expectimax ----------------------------------------------------------------------------------------
class TurnSolver:
    """One player's turn solved as an `Expectimax` (a solver, not the game's state: that is
    `State`). States: ("rolled", rerolls left, dice left, total)
    and ("kept", ..., total) once play is over; the start ("start", rerolls, dice) has one move,
    the first roll. `payoff(total, rerolls used)` scores the kept total."""

    def __init__(
        self, dice: int, rerolls: int, payoff: Callable[[int, int], Fraction | int], game: Expectimax | None = None
    ) -> None:
        self.dice, self.rerolls = dice, rerolls
        self.game = game or Expectimax(
            self.choices, self.chance, lambda s: payoff(s[3], self.rerolls - s[1]), maximise=True
        )

    def choices(self, state: tuple) -> list[tuple[Hashable, Hashable]]:
        kind, left, n, *rest = state
        if kind == "start":
            return [("roll", (left, n))]
        if kind == "kept":
            return []
        total = rest[0]
        moves: list[tuple[Hashable, Hashable]] = [("keep", ("keep", left, n, total))]
        if left > 0 and n > 0:
            moves.append(("reroll", (left - 1, n)))
        return moves

    def chance(self, after: tuple) -> list[tuple[Hashable, int]]:
        if after[0] == "keep":
            return [(("kept",) + after[1:], 1)]
        left, n = after
        return [(("rolled", left, m, t), w) for m, t, w in left_totals(n)]

    @property
    def start(self) -> tuple:
        return ("start", self.rerolls, self.dice)

    def value(self) -> Fraction:
        """The optimal expected payoff before the first roll."""
        return Fraction(self.game.value(self.start))

    def final(self, policy: TurnPolicy | None = None) -> dict[tuple[int, int], Fraction]:
        """P(the turn ends with (total, rerolls used)) under `policy(state) -> "keep" or
        "reroll"` (default: optimal), by a forward pass over the rolls."""
        choose: TurnPolicy = policy or self.game.best
        front = {(self.rerolls, self.dice): Fraction(1)}
        out: dict[tuple[int, int], Fraction] = {}
        for left in range(self.rerolls, -1, -1):
            for (r, n), p in [(a, p) for a, p in front.items() if a[0] == left]:
                for m, t, w in left_totals(n):
                    q = Fraction(w, 6**n)
                    state = ("rolled", r, m, t)
                    if len(self.choices(state)) > 1 and choose(state) == "reroll":
                        front[(r - 1, m)] = front.get((r - 1, m), Fraction(0)) + p * q
                    else:
                        key = (t, self.rerolls - r)
                        out[key] = out.get(key, Fraction(0)) + p * q
        return out


@cache
def mean_turn(dice: int, rerolls: int) -> TurnSolver:
    """Maximise the expected score."""
    return TurnSolver(dice, rerolls, lambda t, used: t)


@cache
def beat_turn(dice: int, rerolls: int, best: int, tie: Fraction = Fraction(0)) -> TurnSolver:
    """Maximise P(score > best) + tie * P(score = best). The payoff does not depend on the
    rerolls used, so every cap shares one memoised game."""
    shared = None if rerolls == REROLLS.hi else beat_turn(dice, REROLLS.hi, best, tie).game
    return TurnSolver(dice, rerolls, lambda t, used: 1 if t > best else (tie if t == best else 0), shared)


def optimal_mean(rules: Rules | None = None) -> Fraction:
    """The best expected score (points) with up to `rerolls` rerolls."""
    rules = rules or Rules()
    return mean_turn(rules.dice, rules.rerolls).value()


def reroll_below(x: int) -> TurnPolicy:
    """The human rule: reroll while the total is below x (rerolls and dice permitting)."""
    return lambda state: "reroll" if state[3] < x else "keep"


def score_distribution(rules: Rules | None = None, policy: TurnPolicy | None = None) -> Dist:
    """The exact distribution of the score (points) under `policy` (default: best mean)."""
    rules = rules or Rules()
    final = mean_turn(rules.dice, rules.rerolls).final(policy)
    totals: dict[Hashable, Fraction] = {}
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
    keys = [(cap, best) for cap in range(int(REROLLS.hi) + 1) for best in range(6 * rules.dice + 1)]
    odds = [_later_odds(rules.dice, cap, best) for cap, best in keys]
    return {
        "later_odds": pl.DataFrame(
            {
                "cap": pl.Series([k[0] for k in keys], dtype=pl.Int8),
                "best": pl.Series([k[1] for k in keys], dtype=pl.Int16),
                "p_above": [exact_str(a) for a, _ in odds],
                "p_equal": [exact_str(e) for _, e in odds],
            }
        )
    }


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
def first_turn(dice: int, rerolls: int, players: int) -> TurnSolver:
    """The first player maximising their share of the win."""
    return TurnSolver(dice, rerolls, lambda t, used: share(dice, players, t, used))


def first_share(rules: Rules, policy: TurnPolicy | None = None) -> Fraction:
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
        won = sum(
            (p * share(rules.dice, rules.players, t, used) for (t, used), p in final.items() if used == u), Fraction(0)
        )
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
    counts = sorted({m for m, _, _ in left_totals(rules.dice) if m > 0})
    rows = []
    for u, (stop_p, share_if_stop) in first_stops(rules).items():
        row = {
            "rerolls_used": u,
            "later_mean": float(mean_turn(rules.dice, u).value()),
            "p_stop": float(stop_p),
            "share_if_stop": None if share_if_stop is None else float(share_if_stop),
        }
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
    return Report(
        NAME,
        rules.as_dict(),
        {
            "optimal_mean": Figure.of(
                optimal_mean(rules), f"best expected score with up to {rules.rerolls} rerolls (points)"
            ),
            "no_reroll_mean": Figure.of(mean_turn(rules.dice, 0).value(), "expected score without rerolls (points)"),
            "p_beat_target_best": Figure.of(
                beat_turn(rules.dice, rules.rerolls, rules.target).value(), f"best P(score > {rules.target})"
            ),
            "heuristic_mean": Figure.of(
                human.mean(), f"expected score rerolling while the total is below {rules.reroll_below}"
            ),
            "p_first_wins_optimal": Figure.of(
                first_share(rules),
                f"first player's share of the win, {rules.players} players, playing for it (ties shared)",
            ),
            "p_first_wins_max_mean": Figure.of(
                first_share(rules, best_mean), "first player's share playing for the best mean"
            ),
        },
    )


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


def turns_by_dice(
    dice: int, rerolls: np.ndarray, decide: Callable, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
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
        score, _ = turns_by_dice(
            rules.dice, used.copy(), lambda r, m, t, i, target=target: later_tab[target[i], used[i], r, m, t], rng
        )
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
    return {
        "optimal_mean": mean_score,
        "no_reroll_mean": plain,
        "heuristic_mean": human,
        "p_first_wins_optimal": rounds(rules.players, samplers, rng, n),
    }


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo (95% intervals): single turns, and whole rounds of `players` players."""
    rules = rules or Rules()
    samplers = round_samplers(rules.dice, rules.rerolls, rules.players)
    result = montecarlo.run(partial(round_kernel, rules, samplers), trials, seed, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in result.estimates.items()})


# -- the game to play ----------------------------------------------------------------------------------------
ROLL, KEEP, REROLL = "roll", "keep", "reroll"
"""The moves: the first roll of a turn (its only move), then keep the total or reroll the dice left."""


@dataclass(frozen=True)
class TurnRecord:
    """One player's turn in the round (a part of `State`, not a state to play): every roll so
    far (the dice as rolled, 7-pairs included), the most rerolls they may use (`cap`), whether
    they kept their total, and whether dice are on their way (rolled or rerolled: chance next)."""

    cap: int
    rolls: tuple[tuple[int, ...], ...] = ()
    kept: bool = False
    rolling: bool = False

    @property
    def left(self) -> tuple[int, ...] | None:
        """The dice left after removing the 7-pairs of the last roll (None before the first roll)."""
        return remove_pairs(self.rolls[-1]) if self.rolls else None

    @property
    def total(self) -> int:
        """The total of the dice left (the score once the turn is over)."""
        return sum(self.left or ())

    @property
    def used(self) -> int:
        """The rerolls used."""
        return max(len(self.rolls) - 1, 0)

    @property
    def rerolls_left(self) -> int:
        return self.cap - self.used

    @property
    def can_reroll(self) -> bool:
        """The player has a choice: dice to reroll and a reroll to do it."""
        return bool(self.rolls) and not (self.kept or self.rolling) and self.rerolls_left > 0 and bool(self.left)

    @property
    def over(self) -> bool:
        """Kept, or no choice left after a roll (no reroll left, or every die paired off)."""
        return bool(self.rolls) and not self.rolling and not self.can_reroll


@dataclass(frozen=True)
class Mean:
    """The objective "the most expected points" for a turn."""


@dataclass(frozen=True)
class Chase:
    """The objective "beat `best`" for a turn: P(score > best) + P(score = best)/2 (a tie for
    first shares the win)."""

    best: int


Objective = Mean | Chase
"""What a turn may be played for, other than the round's own goal (`State.hint`)."""


@dataclass(frozen=True)
class State(game.State):
    """A round of Le Légit (the game protocol; one round is a whole game): the players take
    their turns in seat order, each a decision to roll (its only move), chance rolling the dice
    (sorted, exact weights), then "keep" or "reroll" while the player has a choice; a turn ends
    by itself when no reroll is left or every die is paired off. Seat 1's rerolls cap everyone
    else's. Returns: the win shares of the scores (a tie for the best shares the win).
    Perfect information: everybody sees every roll.

    `hint()` values each move for the player to move by the module's model: seat 1 their share of
    the win (`first_turn`), a later seat P(above) + P(equal)/2 against the best score so far
    (`beat_turn`); `hint(Mean())` and `hint(Chase(b))` value a turn played for other objectives.
    """

    rules: Rules = Rules()
    turns: tuple[TurnRecord, ...] = ()

    # -- the protocol --------------------------------------------------------------------------
    @property
    def _playing(self) -> TurnRecord | None:
        """The turn in play (started and not over), if any."""
        return self.turns[-1] if self.turns and not self.turns[-1].over else None

    def current_player(self) -> int:
        turn = self._playing
        if turn is not None:
            return game.CHANCE if turn.rolling else len(self.turns) - 1
        return game.TERMINAL if len(self.turns) == self.rules.players else len(self.turns)

    def legal_actions(self) -> list[game.Action]:
        turn = self._playing
        if turn is not None:
            return [] if turn.rolling else [KEEP, REROLL]
        return [] if len(self.turns) == self.rules.players else [ROLL]

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        turn = self._playing
        if turn is None or not turn.rolling:
            return []
        return roll_outcomes(len(turn.left) if turn.left is not None else self.rules.dice)

    def _apply(self, action: game.Action) -> State:
        if action == ROLL:
            return replace(self, turns=self.turns + (TurnRecord(self.cap(len(self.turns)), rolling=True),))
        turn = self.turns[-1]
        if action == KEEP:
            turn = replace(turn, kept=True)
        elif action == REROLL:
            turn = replace(turn, rolling=True)
        else:
            turn = replace(turn, rolls=turn.rolls + (cast(tuple[int, ...], action),), rolling=False)
        return replace(self, turns=self.turns[:-1] + (turn,))

    def returns(self) -> list[Fraction]:
        if not self.is_terminal():
            return [Fraction(0)] * self.rules.players
        return game.win_shares(self.scores)

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        r = self.rules
        lines = [
            f"Le Légit, {r.players} players, {r.dice} dice, up to {r.rerolls} rerolls (seat 1's rerolls cap the "
            "others'); "
            f"you are player {player + 1}."
        ]
        for seat in range(r.players):
            turn = self.turn_of(seat)
            if turn is None:
                lines.append(f"Player {seat + 1}: to play.")
                continue
            rolled = (
                "; ".join(
                    f"{' '.join(map(str, roll))} -> {' '.join(map(str, remove_pairs(roll))) or 'nothing'}"
                    for roll in turn.rolls
                )
                or "about to roll"
            )
            end = f"score {turn.total}" if turn.over else "rolling" if turn.rolling else f"total {turn.total}, deciding"
            lines.append(f"Player {seat + 1}: {rolled} ({turn.used} of {turn.cap} rerolls used); {end}.")
        mover = self.current_player()
        if mover >= 0:
            lines.append(f"Player {mover + 1} to move: {' or '.join(map(str, self.legal_actions()))}.")
        elif mover == game.TERMINAL:
            lines.append("The round is over.")
        return "\n".join(lines)

    def shape(self) -> game.Shape:
        r = self.rules
        return game.Shape(
            players=r.players,
            max_actions=2,
            max_chance_outcomes=comb(r.dice + 5, 5),
            max_length=r.players * (3 + 2 * r.rerolls),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    # -- the round ------------------------------------------------------------------------------
    def cap(self, seat: int) -> int:
        """The most rerolls `seat` may use: the rules' for seat 1, then as many as seat 1 used."""
        if seat == 0:
            return self.rules.rerolls
        if not self.turns or not self.turns[0].over:
            raise ValueError("the later players' cap is known once the first player's turn is over")
        return self.turns[0].used

    def turn_of(self, seat: int) -> TurnRecord | None:
        """`seat`'s turn (None before it starts)."""
        return self.turns[seat] if seat < len(self.turns) else None

    @property
    def scores(self) -> list[int]:
        """The scores of the players whose turn is over, in seat order."""
        return [t.total for t in self.turns if t.over]

    @property
    def best_so_far(self) -> int:
        """The best score of the turns over (0 before any)."""
        return max(self.scores, default=0)

    def solver(self, mean: bool = False, to_beat: int | None = None) -> tuple[TurnSolver, tuple]:
        """The solved turn for the player to move and their position in it: for the round (seat 1
        their share of the win, a later seat beating the best so far), or for the best mean, or to
        beat `to_beat`."""
        seat = self.current_player()
        if seat < 0:
            raise ValueError(self._no_decision("decision"))
        turn = self._playing
        r = self.rules
        cap = self.cap(seat)
        position = (
            ("start", cap, r.dice) if turn is None else ("rolled", turn.rerolls_left, len(turn.left or ()), turn.total)
        )
        if mean:
            return mean_turn(r.dice, cap), position
        if to_beat is None and seat == 0:
            return first_turn(r.dice, r.rerolls, r.players), position
        return beat_turn(r.dice, cap, self.best_so_far if to_beat is None else to_beat, Fraction(1, 2)), position

    def hint(self, objective: Objective | None = None) -> Hint:
        """The exact value of each move for the player to move (see the class docstring): the
        turn's worth before its first roll ("roll" is the only move), then keep against reroll;
        for the round's goal, or the `objective` given (`Mean()`, `Chase(best)`)."""
        if self.current_player() < 0:
            return super().hint()
        to_beat = objective.best if isinstance(objective, Chase) else None
        solved, position = self.solver(isinstance(objective, Mean), to_beat)
        return solved.game.hint(position)

    # -- moves by name ------------------------------------------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, ...] | None = None) -> State:
        """The player to move rolls (the first roll, or a reroll of the dice left) and the dice
        fall: the given faces in any order, or drawn with `rng`."""
        state = self
        if not self.is_chance_node():
            moves = self.legal_actions()
            if ROLL not in moves and REROLL not in moves:
                raise ValueError("the round is over" if self.is_terminal() else "no choice to reroll")
            state = cast(State, self.apply(ROLL if ROLL in moves else REROLL))
        turn = state.turns[-1]
        n = len(turn.left) if turn.left is not None else self.rules.dice
        return state.apply(roll_faces(n, rng, dice))

    def keep(self) -> State:
        """The player to move keeps the total of the dice left."""
        if KEEP not in self.legal_actions():
            raise ValueError("roll first" if self.legal_actions() == [ROLL] else "no total to keep here")
        return cast(State, self.apply(KEEP))


def initial_state(rules: Rules | None = None) -> State:
    """The start of a round: player 1 to roll."""
    return State(rules or Rules())


def _as_state(state: game.State) -> State:
    if not isinstance(state, State):
        raise ValueError(f"a Le Légit state is needed, got {type(state).__name__}")
    return state


def optimal(state: game.State) -> game.Action:
    """The module's optimal play: seat 1 for their share of the win, a later seat to beat the best so far."""
    s = _as_state(state)
    if s.legal_actions() == [ROLL]:
        return ROLL
    solved, position = s.solver()
    return solved.game.best(position)


def per_turn(choose: Callable[[Rules], TurnPolicy]) -> game.Policy:
    """A policy playing every turn by the turn policy `choose(rules)` (see `TurnPolicy`)."""

    def policy(state: game.State) -> game.Action:
        s = _as_state(state)
        if s.legal_actions() == [ROLL]:
            return ROLL
        _, position = s.solver(mean=True)
        return choose(s.rules)(position)

    return policy


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """ "optimal" (`optimal`), "best_mean" (every turn for the best expected score) and the human
    rule "reroll_below" (reroll while the total is below `rules.reroll_below`)."""
    rules = rules or Rules()
    below = reroll_below(rules.reroll_below)
    return {
        "optimal": optimal,
        "best_mean": per_turn(lambda r: mean_turn(r.dice, r.rerolls).game.best),
        "reroll_below": per_turn(lambda r: below),
    }


GAME = Game(
    name=NAME,
    title="Le Légit",
    summary="Remove the 7-pairs, keep the rest or reroll it; the first player caps the rerolls.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="10-le-legit",
    dashboard="le-legit.ipynb",
    pitch=(
        "Remove the 7-pairs, keep or reroll, alone or against the machine, with each choice's exact value and"
        " the first player's dilemma."
    ),
    tables=tables,
)
"""This game, as the registry, the command line and the gallery see it."""
