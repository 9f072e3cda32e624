"""L'Hypogéon: roll 2d6, then stand or add 1d6 again and again; above 21 the turn scores
nothing. In each round a sole 21 earns 2 points; otherwise the single best total earns 1
point; a tie for the best earns nothing. First to `target` points wins (RULES.md section 10).

The players' turns do not see each other's totals here: each player follows a rule fixed in
advance, so the order of play does not matter. A *stand-at-k* rule stands as soon as the
total is k or more (k = 2: stand on the first roll). A bust is recorded as total 0 (`BUST`).

**Best response.** `best_stand_at` is the k that maximises a player's expected points in one
round against `players` - 1 opponents who all stand at `stand_at` (the smallest such k on a
tie). A symmetric equilibrium is a k that is its own best response; `equilibria` lists them,
checked against every rule, not only stand-at rules: `optimal_rule` finds the best rule of
any shape with the expectimax solver (it stands or rolls on each total separately).

**Whole games.** `game_odds` gives each seat's exact chance of winning from the start,
`game_odds_from` from any scores (a game in progress).

**The game** (`State`, the game protocol): whole games, the turns in seat order, the others'
dice of the round in play hidden until it ends.

>>> state = initial_state(Rules(players=2, target=1)).roll(dice=(6, 5)).roll(dice=(4,))
>>> state.turn_of(0).total, state.legal_actions(), state.hint().best
(15, ['stand', 'roll'], 'roll')
>>> state = state.stand().roll(dice=(6, 6)).stand()  # player 2: 12 < 15
>>> state.scores, state.is_terminal(), state.returns()
([1, 0], True, [Fraction(1, 1), Fraction(0, 1)])
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, partial
from math import comb, lcm
from typing import cast

import numpy as np
import polars as pl

from nessus import game, montecarlo
from nessus.dice import code_faces, raw_bits, roll_faces, roll_outcomes, total
from nessus.dist import Dist
from nessus.game import Game
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field
from nessus.solver import Expectimax, Hint

NAME = "hypogeon"
LIMIT = 21
BUST = 0

STAND_AT = Param("stand_at", 17, 2, LIMIT, "every player stands once the total is at least this")
PLAYERS = Param("players", 2, 2, 10, "players in a round")
TARGET = Param("target", 5, 1, 10, "points that win a whole game")
SEAT1 = Param(
    "seat1",
    "best",
    4,
    4,
    "seat 1's rule in whole games: 'best' = stand at best_stand_at, 'same' = stand at stand_at",
    kind=str,
    choices=("best", "same"),
)


@dataclass(frozen=True)
class Rules(GameRules):
    params = (STAND_AT, PLAYERS, TARGET, SEAT1)
    stand_at: int = field(STAND_AT)
    players: int = field(PLAYERS)
    target: int = field(TARGET)
    seat1: str = field(SEAT1)


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
def best_response(opponents_stand_at: int, players: int) -> tuple[int, Fraction]:
    """(k, expected points per round) of the best stand-at rule against `players` - 1 opponents
    standing at `opponents_stand_at`; the smallest k on a tie."""
    values = {k: points(k, opponents_stand_at, players) for k in range(2, LIMIT + 1)}
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
def _solver(opponents_stand_at: int, players: int) -> Expectimax:
    return optimal_rule(final_total(opponents_stand_at), players - 1)


def stand_totals(opponents_stand_at: int, players: int) -> tuple[int, ...]:
    """The totals (2..21) on which the optimal rule of any shape stands."""
    game = _solver(opponents_stand_at, players)
    return tuple(t for t in range(2, LIMIT + 1) if game.best(t) == "stand")


def optimal_points(opponents_stand_at: int, players: int) -> Fraction:
    """Expected points per round of the optimal rule of any shape against the opponents."""
    return Fraction(_solver(opponents_stand_at, players).value("start"))


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
        stands = stand_totals(k, players)
        rows.append(
            {
                "opponents_stand_at": k,
                "best_stand_at": best,
                "best_points": float(value),
                "best_points_exact": str(value),
                "optimal_points": float(opt),
                "optimal_is_stand_at": stands == tuple(range(stands[0], LIMIT + 1)) if stands else False,
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


# -- Monte Carlo -----------------------------------------------------------------------------------
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


# -- the game to play -----------------------------------------------------------------------------
STAND, ROLL = "stand", "roll"
"""The moves: roll (the first 2d6 of a turn, then one more die) or stand on the total."""

ROUNDS_PER_SCORE = 50
"""`State.shape().max_length` is a practical bound: it counts games of at most ROUNDS_PER_SCORE
times the most scoring rounds a game can take (players * (target - 1) + 1) rounds. Rounds where
nobody scores (a tie for the best, everyone bust) can make a game go on for ever (players who
always roll on are always bust), but a game passes the bound only if its rounds score less than
one time in 50 on average: with stand-at rules or the optimal rule, far more often than not."""

TURN_LENGTH = 42
"""The most moves and rolls in one turn: roll, the 2d6, then 20 times roll and a die (1s from 2
to 22)."""


@dataclass(frozen=True)
class TurnRecord:
    """One player's turn in a round (a part of `State`, not a state to play): the dice rolled so
    far (2 on the first roll, then 1 at a time), whether they stood, and whether dice are on their
    way (a roll asked for: chance next)."""

    rolls: tuple[tuple[int, ...], ...] = ()
    stood: bool = False
    rolling: bool = False

    @property
    def total(self) -> int:
        """The running total (0 before the first roll)."""
        return sum(sum(r) for r in self.rolls)

    @property
    def bust(self) -> bool:
        return self.total > LIMIT

    @property
    def over(self) -> bool:
        """The player stood or went above 21."""
        return self.stood or self.bust

    @property
    def final(self) -> int | None:
        """The final total (BUST = 0 for a bust), None while the turn goes on."""
        if not self.over:
            return None
        return BUST if self.bust else self.total


def score_round(finals: Sequence[int]) -> tuple[int | None, int]:
    """(the seat that scores or None, its points) for the players' final totals (BUST = 0): 2 for
    a sole 21, 1 for a sole best total, nothing on a tie for the best or when everyone is bust."""
    best = max(finals)
    if best == BUST or finals.count(best) > 1:
        return None, 0
    return finals.index(best), 2 if best == LIMIT else 1


@dataclass(frozen=True)
class State(game.State):
    """A whole game of L'Hypogéon (the game protocol): rounds until a player reaches `target`
    points; in each round every player takes a turn in seat order: a decision to roll (the only
    move at a turn's start), chance rolling 2d6 (sorted, exact weights), then "stand" or "roll"
    (one more die) until they stand or go above 21. A round is scored once its last turn is over;
    the next round starts with player 1's roll. Returns: 1 to the winner (only one player scores
    in a round, so one reaches the target first), 0 to the others.

    **Simultaneous play.** The players really roll at the same time: nobody sees the others'
    totals of the round in play. The turns are played in seat order, but `observation(p)` hides
    the other players' dice of the current round until it ends (`shape().hidden` is True, and
    `hidden_variants(p)` gives states that differ only there); hints and the named policies
    depend on the player's own total only.

    `hint()` values each move in expected points of the round against `players` - 1 opponents
    standing at `stand_at` (the expectimax of `optimal_rule`; the scores are left out).
    """

    rules: Rules = Rules()
    banked: tuple[int, ...] = ()
    history: tuple[tuple[int, ...], ...] = ()
    turns: tuple[TurnRecord, ...] = ()

    def __post_init__(self) -> None:
        if not self.banked:  # a new game: no points yet
            object.__setattr__(self, "banked", (0,) * self.rules.players)

    # -- the round ------------------------------------------------------------------------------
    @property
    def round_over(self) -> bool:
        """Every player's turn of the round in play is over (it is scored; the next starts with a roll)."""
        return len(self.turns) == self.rules.players and self.turns[-1].over

    @property
    def finals(self) -> list[int]:
        """The final totals of the round in play, once it is over (BUST = 0)."""
        if not self.round_over:
            raise ValueError("the round is not over")
        return [cast(int, t.final) for t in self.turns]

    @property
    def scores(self) -> list[int]:
        """Each player's points, the round in play counted once it is over."""
        scores = list(self.banked)
        if self.round_over:
            seat, points = score_round(self.finals)
            if seat is not None:
                scores[seat] += points
        return scores

    @property
    def round(self) -> int:
        """The number of the round in play (1 for the first)."""
        return len(self.history) + 1

    def turn_of(self, seat: int) -> TurnRecord | None:
        """`seat`'s turn in the round in play (None before it starts)."""
        return self.turns[seat] if seat < len(self.turns) else None

    @property
    def playing(self) -> TurnRecord | None:
        """The turn in play (started and not over), if any."""
        return self.turns[-1] if self.turns and not self.turns[-1].over else None

    # -- the protocol --------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.round_over:
            return game.TERMINAL if max(self.scores) >= self.rules.target else 0
        turn = self.playing
        if turn is not None:
            return game.CHANCE if turn.rolling else len(self.turns) - 1
        return len(self.turns)

    def legal_actions(self) -> list[game.Action]:
        player = self.current_player()
        if player < 0:
            return []
        return [STAND, ROLL] if self.playing is not None else [ROLL]

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        turn = self.playing
        if turn is None or not turn.rolling:
            return []
        return roll_outcomes(1 if turn.rolls else 2)

    def _apply(self, action: game.Action) -> State:
        turn = self.playing
        if turn is None:  # a turn starts: the next player, or player 1 of the next round
            state = (
                replace(self, banked=tuple(self.scores), history=self.history + (tuple(self.finals),), turns=())
                if self.round_over
                else self
            )
            return replace(state, turns=state.turns + (TurnRecord(rolling=True),))
        if action == STAND:
            turn = replace(turn, stood=True)
        elif action == ROLL:
            turn = replace(turn, rolling=True)
        else:
            turn = replace(turn, rolls=turn.rolls + (cast(tuple[int, ...], action),), rolling=False)
        return replace(self, turns=self.turns[:-1] + (turn,))

    def returns(self) -> list[Fraction]:
        if not self.is_terminal():
            return [Fraction(0)] * self.rules.players
        scores = self.scores
        return game.winner_returns(self.rules.players, scores.index(max(scores)))

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        r = self.rules
        lines = [
            f"L'Hypogéon, {r.players} players, first to {r.target} points; you are player {player + 1}.",
            "Scores: " + ", ".join(f"player {i + 1} {s}" for i, s in enumerate(self.scores)) + ".",
        ]
        if self.history:
            lines.append(
                "Rounds played: " + "; ".join(" ".join(_final_text(f) for f in finals) for finals in self.history) + "."
            )
        shown = self.round_over
        lines.append(f"Round {self.round}" + ("" if shown else " (the others' dice stay hidden until it ends)") + ":")
        for seat in range(r.players):
            turn = self.turn_of(seat)
            if turn is None:
                lines.append(f"player {seat + 1}: to play")
            elif seat == player or shown:
                dice = " + ".join(" ".join(map(str, roll)) for roll in turn.rolls) or "no dice yet"
                end = f"final {_final_text(turn.final)}" if turn.final is not None else f"total {turn.total}"
                lines.append(f"player {seat + 1}: {dice}; {end}")
            else:
                lines.append(f"player {seat + 1}: {'played' if turn.over else 'playing'}")
        mover = self.current_player()
        lines.append(
            "The game is over."
            if mover == game.TERMINAL
            else f"Player {len(self.turns)} is playing."
            if mover == game.CHANCE
            else f"Player {mover + 1} to move."
        )
        return "\n".join(lines)

    def hidden_variants(self, player: int) -> list[game.State]:
        """For each other player who has rolled in the round in play (not yet over): this state
        with their dice replaced (their total is hidden from `player`)."""
        game.check_players([player], self.shape())
        if self.round_over:
            return []
        out: list[game.State] = []
        for seat, turn in enumerate(self.turns):
            if seat == player or not turn.rolls:
                continue
            dice = ((1, 1),) if turn.rolls != ((1, 1),) else ((1, 2),)
            other = TurnRecord(dice, stood=True) if turn.over else TurnRecord(dice, rolling=turn.rolling)
            out.append(replace(self, turns=self.turns[:seat] + (other,) + self.turns[seat + 1 :]))
        return out

    def shape(self) -> game.Shape:
        r = self.rules
        return game.Shape(
            players=r.players,
            max_actions=2,
            max_chance_outcomes=21,
            max_length=ROUNDS_PER_SCORE * (r.players * (r.target - 1) + 1) * r.players * TURN_LENGTH,
            min_return=Fraction(0),
            max_return=Fraction(1),
            hidden=True,
        )

    def hint(self) -> Hint:
        """The expected points of the round for each move of the player to move (`best`: the
        optimal one), against `players` - 1 opponents standing at `stand_at`: before the first
        roll "roll" is the only move, worth `optimal_points`."""
        if self.current_player() < 0:
            return super().hint()
        game_ = _solver(self.rules.stand_at, self.rules.players)
        turn = self.playing
        return game_.hint("start" if turn is None else turn.total)

    # -- moves by name ------------------------------------------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, ...] | None = None) -> State:
        """The player to move rolls 2d6 (their first roll) or 1d6 (later), the given faces in any
        order or drawn with `rng`: the state after it."""
        if self.is_terminal():
            raise ValueError("the game is over")
        state = self if self.is_chance_node() else cast(State, self.apply(ROLL))
        n = 1 if state.turns[-1].rolls else 2
        return state.apply(roll_faces(n, rng, dice))

    def stand(self) -> State:
        """The player to move stands on their total."""
        if STAND not in self.legal_actions():
            raise ValueError("the player can stand only after the first roll, while the turn goes on")
        return cast(State, self.apply(STAND))


def _final_text(final: int | None) -> str:
    return "?" if final is None else "bust" if final == BUST else str(final)


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: no points, player 1 to roll."""
    rules = rules or Rules()
    return State(rules)


def standing_at(k: int) -> game.Policy:
    """The rule "stand at k": roll while the total is below k (k = 2: stand on the first roll)."""

    def policy(state: game.State) -> game.Action:
        turn = _as_state(state).playing
        return ROLL if turn is None or turn.total < k else STAND

    policy.__name__ = f"stand at {k}"
    return policy


def _as_state(state: game.State) -> State:
    if not isinstance(state, State):
        raise ValueError(f"an L'Hypogéon state is needed, got {type(state).__name__}")
    return state


def optimal(state: game.State) -> game.Action:
    """The optimal rule of any shape against opponents standing at `stand_at` (`optimal_rule`)."""
    s = _as_state(state)
    turn = s.playing
    if turn is None:
        return ROLL
    return cast(game.Action, _solver(s.rules.stand_at, s.rules.players).best(turn.total))


def seat_rule(state: game.State) -> game.Action:
    """Each seat stands at its k of `seat_rules` (seat 1 per `seat1`, the others at `stand_at`)."""
    s = _as_state(state)
    return standing_at(seat_rules(s.rules)[s.current_player()])(s)


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """ "optimal" (`optimal`), "stand_at" (stand at `stand_at`), "best_stand_at" (stand at
    `best_response` to it) and "seat_rules" (each seat its rule of `seat_rules`, as in
    `game_odds` and the simulated games)."""
    rules = rules or Rules()
    return {
        "optimal": optimal,
        "stand_at": standing_at(rules.stand_at),
        "best_stand_at": standing_at(best_response(rules.stand_at, rules.players)[0]),
        "seat_rules": seat_rule,
    }


GAME = Game(
    name=NAME,
    title="L'Hypogéon",
    summary="2d6, then 1d6 at a time: get closest to 21 without going over.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="11-l-hypogeon",
    dashboard="l-hypogeon.ipynb",
    pitch=(
        "21 with dice: roll or stand with the exact value of each, alone or to the points target against the "
        "machine, and the best reply to any rule."
    ),
)
"""This game, as the registry, the command line and the gallery see it."""
