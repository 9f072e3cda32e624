"""L'Hypogéon's exact maths: a turn's final total under "stand at k" (`final_total`, `p_bust`,
`p_21`, `mean_if_not_bust`); a round's expected points against opponents standing at k
(`points`; of every stand-at rule, `replies`), the best stand-at reply (`best_response`) and the
best rule of any shape by expectimax (`optimal_rule`, `stand_totals`, `stand_from`,
`optimal_points`), the symmetric equilibria (`equilibria`, `best_response_table`); whole games to
the points target from the start or from any scores (`game_odds`, `game_odds_from`, by a Poisson
embedding in exact integers; `reply_odds` for seat 1 in a game in progress); your turns alone
against what the rules expect (`Tally`); and `report`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from math import comb, lcm
from typing import cast

import polars as pl

from nessus.dice import total
from nessus.dist import Dist
from nessus.games.hypogeon.rules import BUST, LIMIT, NAME, Rules
from nessus.report import Figure, Report
from nessus.solver import Expectimax

MAX_BITS = 3000


def exact_figure(x: Fraction, help: str) -> Figure:
    """An exact figure; but when numerator or denominator passes MAX_BITS bits (about 900
    digits: whole games with many players), the exact value is given as an exact bracket
    [floor(x 2^64), ceil(x 2^64)] / 2^64 instead of a fraction nobody can print."""
    if max(x.numerator.bit_length(), x.denominator.bit_length()) <= MAX_BITS:
        return Figure.of(x, help)
    low = Fraction((x.numerator << 64) // x.denominator, 1 << 64)
    high = low if low == x else low + Fraction(1, 1 << 64)
    return Figure.bracket(low, high, help + " (exact value bracketed to 2^-64)")


# -- one turn ------------------------------------------------------------------------------------
@cache
def final_total(stand_at: int, limit: int = LIMIT) -> Dist:
    """The exact distribution of a turn's final total under stand-at-k (BUST = 0 for a bust)."""
    reach = {t: Fraction(p) for t, p in total(2).items()}
    final: dict[Hashable, Fraction] = {}
    for t in range(2, limit + 7):
        p = reach.pop(t, Fraction(0))
        if not p:
            continue
        if t > limit:
            final[BUST] = final.get(BUST, Fraction(0)) + p
        elif t >= stand_at:
            final[t] = final.get(t, Fraction(0)) + p
        else:
            for face in range(1, 7):
                reach[t + face] = reach.get(t + face, Fraction(0)) + p / 6
    return Dist.from_probabilities(final)


def p_bust(stand_at: int) -> Fraction:
    """P(the turn goes above 21) under stand-at-k."""
    return final_total(stand_at)[BUST]


def p_21(stand_at: int) -> Fraction:
    """P(the turn ends on exactly 21) under stand-at-k."""
    return final_total(stand_at)[LIMIT]


def mean_if_not_bust(stand_at: int) -> Fraction:
    """E[final total | no bust] under stand-at-k."""
    return final_total(stand_at).given(lambda t: t != BUST).mean()


# -- one round against opponents -------------------------------------------------------------------
def points_for_total(t: int, opponents: Dist, count: int, limit: int = LIMIT) -> Fraction:
    """Expected points of a player whose final total is t (BUST = 0) against `count` independent
    opponents whose final totals follow `opponents`: 2 for a sole `limit`, 1 for a sole best."""
    if t == BUST:
        return Fraction(0)
    if t == limit:
        return 2 * (1 - opponents[limit]) ** count
    return opponents.cdf(t - 1) ** count


def points_for_rule(final: Dist, opponents: Dist, count: int, limit: int = LIMIT) -> Fraction:
    """Expected points per round of a player whose final total follows `final`."""
    return sum((p * points_for_total(cast(int, t), opponents, count, limit) for t, p in final.items()), Fraction(0))


def points(stand_at: int, opponents_stand_at: int, players: int) -> Fraction:
    """Expected points per round when standing at `stand_at` against `players` - 1 opponents
    standing at `opponents_stand_at`."""
    return points_for_rule(final_total(stand_at), final_total(opponents_stand_at), players - 1)


@cache
def replies(opponents_stand_at: int, players: int) -> dict[int, Fraction]:
    """Expected points per round of every stand-at rule k (2 to 21) against `players` - 1
    opponents standing at `opponents_stand_at`."""
    return {k: points(k, opponents_stand_at, players) for k in range(2, LIMIT + 1)}


@cache
def best_response(opponents_stand_at: int, players: int) -> tuple[int, Fraction]:
    """(k, expected points per round) of the best stand-at rule against `players` - 1 opponents
    standing at `opponents_stand_at`; the smallest k on a tie."""
    values = replies(opponents_stand_at, players)
    best = max(values.values())
    k = min(k for k, v in values.items() if v == best)
    return k, best


def optimal_rule(opponents: Dist, count: int, limit: int = LIMIT) -> Expectimax:
    """The expectimax solver for one turn against `count` opponents whose final totals follow
    `opponents`, maximising expected points. States: "start" (before the 2d6), a running total
    t, or ("final", t) with t = BUST for a bust; actions "stand" and "roll"."""

    def choices(state):
        if state == "start":
            return [("roll", "first roll")]
        if isinstance(state, tuple):
            return []
        return [("stand", ("stand", state)), ("roll", ("roll", state))]

    def chance(after):
        if after == "first roll":
            return [(reached(t), w) for t, w in total(2).weights()]
        kind, t = after
        if kind == "stand":
            return [(("final", t), 1)]
        return [(reached(t + f), 1) for f in range(1, 7)]

    def reached(t: int):
        return t if t <= limit else ("final", BUST)

    def payoff(state):
        return points_for_total(state[1], opponents, count, limit)

    return Expectimax(choices, chance, payoff)


@cache
def turn_solver(opponents_stand_at: int, players: int) -> Expectimax:
    """`optimal_rule` against `players` - 1 opponents standing at `opponents_stand_at` (cached)."""
    return optimal_rule(final_total(opponents_stand_at), players - 1)


def stand_totals(opponents_stand_at: int, players: int) -> tuple[int, ...]:
    """The totals (2..21) on which the optimal rule of any shape stands."""
    game = turn_solver(opponents_stand_at, players)
    return tuple(t for t in range(2, LIMIT + 1) if game.best(t) == "stand")


def stand_from(opponents_stand_at: int, players: int) -> int | None:
    """The k from which the optimal rule of any shape stands, when it is a stand-at rule (it
    stands on k and every total above it, and rolls below); None when it is not."""
    stands = stand_totals(opponents_stand_at, players)
    return stands[0] if stands and stands == tuple(range(stands[0], LIMIT + 1)) else None


def optimal_points(opponents_stand_at: int, players: int) -> Fraction:
    """Expected points per round of the optimal rule of any shape against the opponents."""
    return Fraction(turn_solver(opponents_stand_at, players).value("start"))


@dataclass
class Tally:
    """Your turns alone: how many, the points you scored, what the optimal rule and the opponents'
    own rule expect over them (exact), and the expected points your decisions cost.

    >>> t = Tally()
    >>> t.add(1, 17, 2, Fraction(1, 10)); t.add(0, 17, 2, Fraction(0)); (t.turns, t.points, t.cost)
    (2, 1, Fraction(1, 10))
    """

    turns: int = 0
    points: int = 0
    optimal: Fraction = Fraction(0)
    same: Fraction = Fraction(0)
    cost: Fraction = Fraction(0)

    def add(self, scored: int, stand_at: int, players: int, cost: Fraction) -> None:
        """One more turn, against `players` - 1 opponents standing at `stand_at`: `scored` points."""
        self.turns, self.points, self.cost = self.turns + 1, self.points + scored, self.cost + cost
        self.optimal += optimal_points(stand_at, players)
        self.same += points(stand_at, stand_at, players)


def equilibria(players: int) -> list[int]:
    """Every k such that standing at k is a best reply (among all rules) when everyone else stands
    at k: the symmetric equilibria in stand-at rules. Often there is none."""
    return [k for k in range(2, LIMIT + 1) if points(k, k, players) == optimal_points(k, players)]


def best_response_table(players: int) -> pl.DataFrame:
    """For each opponents' k: the best stand-at rule, its expected points, the optimal rule's
    expected points (any shape), whether the optimum is a stand-at rule, and whether k is an
    equilibrium. Points per round, exact values as strings beside the floats."""
    rows = []
    for k in range(2, LIMIT + 1):
        best, value = best_response(k, players)
        opt = optimal_points(k, players)
        rows.append(
            {
                "opponents_stand_at": k,
                "best_stand_at": best,
                "best_points": float(value),
                "best_points_exact": str(value),
                "optimal_points": float(opt),
                "optimal_is_stand_at": stand_from(k, players) is not None,
                "same_points": float(points(k, k, players)),
                "equilibrium": points(k, k, players) == opt,
            }
        )
    return pl.DataFrame(rows)


# -- whole games -----------------------------------------------------------------------------------
def seat_rules(rules: Rules) -> tuple[int, ...]:
    """The stand-at k of each seat in whole games: seat 1 per `seat1`, the others `stand_at`."""
    first = best_response(rules.stand_at, rules.players)[0] if rules.seat1 == "best" else rules.stand_at
    return (first,) + (rules.stand_at,) * (rules.players - 1)


def round_scores(first: int, others: int, players: int) -> dict[tuple[int, int], Fraction]:
    """One round, seat 1 standing at `first`, the other seats at `others`: P(seat 1 scores s) as
    (0, s) and P(a given other seat scores s) as (1, s), s = 1 or 2. Nobody scores otherwise."""
    me, them = final_total(first), final_total(others)
    m = players - 1
    out = {
        (0, 2): me[LIMIT] * (1 - them[LIMIT]) ** m,
        (0, 1): sum(
            (p * them.cdf(cast(int, t) - 1) ** m for t, p in me.items() if t not in (BUST, LIMIT)), Fraction(0)
        ),
        (1, 2): them[LIMIT] * (1 - me[LIMIT]) * (1 - them[LIMIT]) ** (m - 1),
        (1, 1): sum(
            (
                p * me.cdf(cast(int, t) - 1) * them.cdf(cast(int, t) - 1) ** (m - 1)
                for t, p in them.items()
                if t not in (BUST, LIMIT)
            ),
            Fraction(0),
        ),
    }
    return out


def _egf_mul(a: list[int], b: list[int]) -> list[int]:
    """The product of two polynomials written as sum_k a_k u^k / k! (integer coefficients stay
    integers: the binomial convolution)."""
    out = [0] * (len(a) + len(b) - 1)
    for m in range(len(out)):
        out[m] = sum(comb(m, k) * a[k] * b[m - k] for k in range(max(0, m - len(b) + 1), min(m, len(a) - 1) + 1))
    return out


def _egf_pow(a: list[int], n: int) -> list[int]:
    result, power = [1], a
    while n:
        if n & 1:
            result = _egf_mul(result, power)
        n >>= 1
        if n:
            power = _egf_mul(power, power)
    return result


def _points_polys(one: int, two: int, target: int) -> list[list[int]]:
    """A seat scoring 1 point at rate one/D and 2 points at rate two/D per round, in Poisson time
    t = D u: P(c points at t) = exp(-(one + two) t / D) * sum_k e[c][k] u^k / k! for c < target,
    with e[c][k] = C(k, c - k) one^(2k - c) two^(c - k) (k scoring events, c - k of them 2s)."""
    return [
        [comb(k, c - k) * one ** (2 * k - c) * two ** (c - k) if (c + 1) // 2 <= k <= c else 0 for k in range(target)]
        for c in range(target)
    ]


def game_odds(rules: Rules) -> tuple[list[Fraction], Fraction]:
    """Exact (P(seat i wins the game) for each seat, E[rounds]) with the seats' rules of
    `seat_rules`. Only one player scores in a round, so exactly one reaches the target first.

    Poisson embedding: let the rounds be the jumps of a Poisson process; then the seats' points,
    thinned by who scores and how much, are independent compound Poisson processes, and
    P(seat 1 wins) = integral of f_1(t) * P(each other seat is below the target at t) dt, where
    f_1 is the density of seat 1's time to reach the target; E[rounds] = integral of P(nobody
    has reached it at t) dt. Each factor is exp(-rate t) times a polynomial in t and the
    integrals of t^m exp(-sigma t) are m!/sigma^(m+1): integers throughout, one division at the end."""
    first, others = seat_rules(rules)[:2]
    n, target = rules.players, rules.target
    sc = round_scores(first, others, n)
    den = lcm(*(v.denominator for v in sc.values()))
    x = {key: v.numerator * (den // v.denominator) for key, v in sc.items()}
    sigma = x[0, 1] + x[0, 2] + (n - 1) * (x[1, 1] + x[1, 2])
    mine, theirs = _points_polys(x[0, 1], x[0, 2], target), _points_polys(x[1, 1], x[1, 2], target)
    rest = _egf_pow([sum(col) for col in zip(*theirs)], n - 1)  # every other seat still below target
    hit = [
        sum(mine[c][k] * (x[0, 1] * (c + 1 >= target) + x[0, 2] * (c + 2 >= target)) for c in range(target))
        for k in range(target)
    ]
    nobody = _egf_mul([sum(col) for col in zip(*mine)], rest)
    win = _egf_mul(hit, rest)
    p1 = Fraction(sum(g * sigma ** (len(win) - 1 - m) for m, g in enumerate(win)), sigma ** len(win))
    rounds = Fraction(den * sum(g * sigma ** (len(nobody) - 1 - m) for m, g in enumerate(nobody)), sigma ** len(nobody))
    return [p1] + [(1 - p1) / (n - 1)] * (n - 1), rounds


def _egf_integral(poly: list[int], sigma: int) -> Fraction:
    """The integral over u >= 0 of exp(-sigma u) sum_m poly[m] u^m / m!, i.e. sum_m poly[m] / sigma^(m + 1)."""
    return Fraction(sum(g * sigma ** (len(poly) - 1 - m) for m, g in enumerate(poly)), sigma ** len(poly))


def game_odds_from(rules: Rules, scores: Sequence[int]) -> tuple[list[Fraction], Fraction]:
    """Exact (P(seat i wins the game) for each seat, E[rounds still to play]) when the seats
    already have `scores` points (each below `target`), with the seats' rules of `seat_rules`.
    The Poisson embedding of `game_odds`, each seat needing its own number of points; seats
    with the same rule and the same need share their computation."""
    n, target = rules.players, rules.target
    if len(scores) != n or any(not 0 <= s < target for s in scores):
        raise ValueError(
            f"scores must be {n} numbers of points from 0 to {target - 1} (the game is not over), got {list(scores)}"
        )
    first, others = seat_rules(rules)[:2]
    sc = round_scores(first, others, n)
    den = lcm(*(v.denominator for v in sc.values()))
    x = {key: v.numerator * (den // v.denominator) for key, v in sc.items()}
    sigma = x[0, 1] + x[0, 2] + (n - 1) * (x[1, 1] + x[1, 2])
    keys = [(0 if i == 0 else 1, target - s) for i, s in enumerate(scores)]
    below, hit = {}, {}
    for kind, need in set(keys):
        one, two = x[kind, 1], x[kind, 2]
        polys = _points_polys(one, two, need)
        below[kind, need] = [sum(col) for col in zip(*polys)]
        hit[kind, need] = [
            sum(polys[c][k] * (one * (c + 1 >= need) + two * (c + 2 >= need)) for c in range(need)) for k in range(need)
        ]
    but_one = {key: _egf_pow(below[key], keys.count(key) - 1) for key in below}  # all seats of a key but one
    every = {key: _egf_mul(but_one[key], below[key]) for key in below}

    def below_all(but: tuple[int, int] | None) -> list[int]:
        """Every seat still below its need, leaving out one seat of key `but`."""
        out = [1]
        for key in below:
            out = _egf_mul(out, but_one[key] if key == but else every[key])
        return out

    win = {key: _egf_integral(_egf_mul(hit[key], below_all(key)), sigma) for key in below}
    return [win[key] for key in keys], den * _egf_integral(below_all(None), sigma)


@cache
def reply_odds(rules: Rules, scores: tuple[int, ...]) -> tuple[int, Fraction, Fraction, Fraction]:
    """A game in progress at `scores`, the other seats standing at `stand_at`: seat 1's best
    stand-at reply k, its exact chance of winning the game standing at k from now on, its chance
    standing at `stand_at` like them, and the expected rounds left when it stands at k (cached)."""
    best = replace(rules, seat1="best")
    wins, rounds = game_odds_from(best, scores)
    return seat_rules(best)[0], wins[0], game_odds_from(replace(rules, seat1="same"), scores)[0][0], rounds


def report(rules: Rules | None = None) -> Report:
    """The exact headline figures: the turn under stand-at-k, the best response, whole games."""
    rules = rules or Rules()
    k, n = rules.stand_at, rules.players
    best, best_pts = best_response(k, n)
    wins, rounds = game_odds(rules)
    seat1 = f"seat 1 stands at {seat_rules(rules)[0]}, the others at {k}"
    figures = {
        "p_bust": Figure.of(p_bust(k), f"P(a turn goes above {LIMIT}) standing at {k}"),
        "p_21": Figure.of(p_21(k), f"P(a turn ends on exactly {LIMIT}) standing at {k}"),
        "mean_if_not_bust": Figure.of(mean_if_not_bust(k), f"mean final total when not bust, standing at {k}"),
        "best_stand_at": Figure.of(
            best,
            f"the stand-at rule maximising expected points per round against {n - 1} opponent(s) standing at {k} "
            "(smallest on a tie)",
        ),
        "best_response_points": exact_figure(best_pts, "expected points per round of best_stand_at against them"),
        "optimal_points": exact_figure(
            optimal_points(k, n), "expected points per round of the best rule of any shape against them"
        ),
        "points_per_round": exact_figure(
            points(k, k, n), f"expected points per round when all {n} players stand at {k}"
        ),
    }
    for i, p in enumerate(wins, start=1):
        figures[f"p_win_seat_{i}"] = exact_figure(p, f"P(seat {i} reaches {rules.target} points first; {seat1})")
    figures["expected_rounds"] = exact_figure(rounds, f"expected rounds in a whole game ({seat1})")
    return Report(NAME, rules.as_dict(), figures)
