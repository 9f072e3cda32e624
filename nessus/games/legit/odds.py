"""Le Légit's exact maths by expectimax (`nessus.solver.Expectimax`) over (rerolls left, dice
left, total):

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
from fractions import Fraction
from functools import cache
from math import comb
from typing import TYPE_CHECKING, cast

from nessus.dice import rolls
from nessus.dist import Dist, exact_str
from nessus.games.legit.rules import DICE, NAME, REROLLS, Rules
from nessus.report import Figure, Report
from nessus.solver import Expectimax, TurnPolicy

if TYPE_CHECKING:
    import polars as pl

PAIRS = ((1, 6), (2, 5), (3, 4))


def remove_pairs(roll: tuple[int, ...]) -> tuple[int, ...]:
    """The dice left (sorted) once every 7-pair is removed: min(#a, #b) pairs of each (a, b)."""
    left = []
    for a, b in PAIRS:
        na, nb = roll.count(a), roll.count(b)
        gone = min(na, nb)
        left += [a] * (na - gone) + [b] * (nb - gone)
    return tuple(sorted(left))


def pairs(roll: tuple[int, ...]) -> list[tuple[int, int]]:
    """The 7-pairs a roll loses: min(#a, #b) pairs (a, b) of each of 1-6, 2-5, 3-4."""
    return [(a, b) for a, b in PAIRS for _ in range(min(roll.count(a), roll.count(b)))]


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
