"""Absorbing Markov chains that add up rewards, solved exactly.

A `RewardChain` has finitely many transient states; each step moves to another state (or
ends the process) with an exact probability and adds a non-negative integer reward. The total
reward until the end can have unbounded support (La Boue's score, the rounds of an order-of-play
roll-off). We give P(total = s) *exactly* for every s up to any bound and the exact mass beyond
it, rather than cutting the process off after a number of steps.

How: f_x(s) = P(total from x = s) satisfies f_x(s) = sum_t q_t f_{to(t)}(s - r_t), which is
well founded in s when the zero-reward steps form no cycle. Every q_t is a/b with b | B**e_t
for one base B, so with potentials c_x chosen below, g_x(s) = f_x(s) * B**(lam*s + c_x) is an
integer and the whole recursion runs on Python integers with no gcd at all.

For chains too large for dense exact elimination (La Tresse with many players), the second part
solves x = b + P x exactly by sparse elimination (`solve_sparse`), or in floating point with a
proven bound on the error (`float_bracket`, `expected_steps_bound`); a figure is then `Solved`,
exact or a rigorous bracket.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, lcm
from typing import TYPE_CHECKING

import numpy as np

from nessus.dist import TruncatedDist
from nessus.report import Figure

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

State = Hashable


@dataclass(frozen=True)
class Step:
    """One transition: with `probability`, add `reward` and move `to` a state (None = end)."""

    probability: Fraction
    reward: int
    to: State | None


def solve_linear(matrix: Sequence[Sequence[Fraction]], rhs: Sequence[Fraction]) -> list[Fraction]:
    """Solve A x = b exactly by Gauss-Jordan elimination over the rationals."""
    n = len(matrix)
    a = [[Fraction(v) for v in row] + [Fraction(b)] for row, b in zip(matrix, rhs)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if a[r][col] != 0), None)
        if pivot is None:
            raise ValueError("the linear system is singular")
        a[col], a[pivot] = a[pivot], a[col]
        inv = 1 / a[col][col]
        a[col] = [v * inv for v in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0:
                factor = a[r][col]
                a[r] = [v - factor * w for v, w in zip(a[r], a[col])]
    return [row[n] for row in a]


def _radical(n: int) -> int:
    """The product of the distinct primes dividing n."""
    result, p = 1, 2
    while p * p <= n:
        if n % p == 0:
            result *= p
            while n % p == 0:
                n //= p
        p += 1
    return result * (n if n > 1 else 1)


def _exponent(den: int, base: int) -> int:
    """The smallest e with den | base**e."""
    e, power = 0, 1
    while power % den:
        power *= base
        e += 1
    return e


class RewardChain:
    """An absorbing chain over transient states whose steps add non-negative integer rewards."""

    def __init__(self, steps: Mapping[State, Iterable[Step]]) -> None:
        self.steps: dict[State, tuple[Step, ...]] = {x: tuple(ts) for x, ts in steps.items()}
        for x, ts in self.steps.items():
            if sum(t.probability for t in ts) != 1:
                raise ValueError(f"the steps out of state {x!r} must have probabilities summing to 1")
            for t in ts:
                if t.probability < 0 or t.reward < 0 or int(t.reward) != t.reward:
                    raise ValueError(f"bad step out of {x!r}: {t}")
                if t.to is not None and t.to not in self.steps:
                    raise ValueError(f"step out of {x!r} goes to unknown state {t.to!r}")
        self._order = self._zero_reward_order()
        self._means: dict[State, Fraction] | None = None

    @property
    def states(self) -> list[State]:
        return list(self.steps)

    def _zero_reward_order(self) -> list[State]:
        """States ordered so that zero-reward steps always lead to earlier states."""
        order: list[State] = []
        mark: dict[State, int] = {}

        def visit(x: State) -> None:
            if mark.get(x) == 2:
                return
            if mark.get(x) == 1:
                raise ValueError("zero-reward steps form a cycle: the total is not well defined")
            mark[x] = 1
            for t in self.steps[x]:
                if t.reward == 0 and t.probability and t.to is not None:
                    visit(t.to)
            mark[x] = 2
            order.append(x)

        for x in self.steps:
            visit(x)
        return order

    # -- moments ------------------------------------------------------------------------
    def _solve(self, per_state_rhs: Mapping[State, Fraction]) -> dict[State, Fraction]:
        """Solve v_x = rhs_x + sum_t q_t v_to (v_end = 0) exactly."""
        index = {x: i for i, x in enumerate(self.steps)}
        n = len(index)
        matrix = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
        for x, ts in self.steps.items():
            for t in ts:
                if t.to is not None:
                    matrix[index[x]][index[t.to]] -= t.probability
        try:
            values = solve_linear(matrix, [per_state_rhs[x] for x in self.steps])
        except ValueError:
            raise ValueError("some state never reaches the end: the chain is not absorbing") from None
        return dict(zip(self.steps, values))

    def mean(self, start: State) -> Fraction:
        """E[total reward from `start` until the end], exact."""
        if self._means is None:
            self._means = self._solve(
                {x: sum((t.probability * t.reward for t in ts), Fraction(0)) for x, ts in self.steps.items()}
            )
        return self._means[start]

    def variance(self, start: State) -> Fraction:
        """Var[total reward from `start` until the end], exact."""
        self.mean(start)
        m = self._means
        assert m is not None
        rhs = {
            x: sum(
                (t.probability * (t.reward**2 + 2 * t.reward * (m[t.to] if t.to is not None else 0)) for t in ts),
                Fraction(0),
            )
            for x, ts in self.steps.items()
        }
        second = self._solve(rhs)
        return second[start] - m[start] ** 2

    # -- exact distribution -------------------------------------------------------------
    def _scaling(self) -> tuple[int, int, dict[State, int], dict[State, list[tuple[int, int, State | None]]]]:
        """Base B, slope lam, potentials c_x and integer multipliers so that the DP is integral."""
        dens = [t.probability.denominator for ts in self.steps.values() for t in ts if t.probability]
        base = _radical(lcm(*dens))
        expo = {
            (x, i): _exponent(t.probability.denominator, base) if base > 1 else 0
            for x, ts in self.steps.items()
            for i, t in enumerate(ts)
        }
        positive = [(expo[x, i], t.reward) for x, ts in self.steps.items() for i, t in enumerate(ts) if t.reward > 0]
        lam = max((ceil(e / r) for e, r in positive), default=0)
        while True:
            pot = self._potentials(expo, lam)
            if pot is not None:
                break
            lam += 1
        mult: dict[State, list[tuple[int, int, State | None]]] = {}
        for x, ts in self.steps.items():
            mult[x] = []
            for i, t in enumerate(ts):
                if not t.probability:
                    continue
                c_to = pot[t.to] if t.to is not None else 0
                shift = pot[x] - c_to - expo[x, i] + lam * t.reward
                k = t.probability.numerator * (base ** expo[x, i] // t.probability.denominator) * base**shift
                mult[x].append((k, t.reward, t.to))
        return base, lam, pot, mult

    def _potentials(self, expo: Mapping[tuple[State, int], int], lam: int) -> dict[State, int] | None:
        """Least c with c_x >= e_t - lam*r_t + c_to for every step (longest paths), or None."""
        pot = {x: 0 for x in self.steps}
        for _ in range(len(self.steps) + 1):
            changed = False
            for x, ts in self.steps.items():
                for i, t in enumerate(ts):
                    need = expo[x, i] - lam * t.reward + (pot[t.to] if t.to is not None else 0)
                    if t.probability and need > pot[x]:
                        pot[x], changed = need, True
            if not changed:
                return pot
        return None

    def distribution(self, start: State, bound: int | None = None, tail_below: float | None = None) -> TruncatedDist:
        """P(total = s) exactly for s = 0..bound and the exact P(total > bound).

        Give `bound`, or `tail_below` to take the smallest bound whose tail is below it.
        """
        if (bound is None) == (tail_below is None):
            raise ValueError("give exactly one of bound or tail_below")
        if bound is not None and (not isinstance(bound, int) or bound < 0):
            raise ValueError(f"bound must be an integer >= 0, got {bound!r}")
        if tail_below is not None and not 0 < tail_below < 1:
            raise ValueError(f"tail_below must be in (0, 1), got {tail_below!r}")
        self.mean(start)  # raises ValueError when some state never reaches the end
        base, lam, pot, mult = self._scaling()
        g: dict[State | None, list[int]] = {x: [] for x in self.steps}
        g[None] = []
        step_scale = base**lam
        cumulative, denominator = 0, base ** pot[start]
        limit = Fraction(tail_below) if tail_below is not None else None
        s = 0
        while True:
            g[None].append(1 if s == 0 else 0)
            for x in self._order:
                acc = 0
                for k, r, to in mult[x]:
                    if r <= s:
                        acc += k * g[to][s - r]
                g[x].append(acc)
            cumulative += g[start][s]
            if bound is not None and s == bound:
                break
            if limit is not None and Fraction(denominator - cumulative, denominator) < limit:
                break
            cumulative *= step_scale
            denominator *= step_scale
            s += 1
        top = s
        numerators = [g[start][v] * base ** (lam * (top - v)) for v in range(top + 1)]
        return TruncatedDist(numerators, denominator)


# -- large chains: sparse exact solves, and float solves with proven brackets ---------------------
# For chains too large for `RewardChain` (La Tresse with many players): A x = b with A = I - P,
# P substochastic and absorbing, solved exactly by sparse elimination over the fractions, or in
# floating point with a rigorous bound on the error of the float solution.
BITS = 40
"""An expected-steps bound's float solution is rounded to multiples of 2**-BITS."""
SOLUTION_BITS = 60
"""Float solutions are rounded to multiples of 2**-SOLUTION_BITS before their residual is computed exactly."""


@dataclass(frozen=True)
class Solved:
    """A figure of a chain: exact (low == high), or a rigorous bracket [low, high] from a float solve."""

    low: Fraction
    high: Fraction

    @property
    def exact(self) -> Fraction | None:
        return self.low if self.low == self.high else None

    def figure(self, help: str) -> Figure:
        if self.exact is not None:
            return Figure.of(self.exact, help)
        return Figure.bracket(self.low, self.high, help + " (bracket from a float solve with a proven error bound)")


Unknown = Hashable
System = dict[Unknown, tuple[dict[Unknown, Fraction], Fraction]]
"""Unknown -> (its row {unknown: coefficient of A}, right-hand side) for A x = b."""


def solve_sparse(system: System) -> dict[Unknown, Fraction]:
    """Solve A x = b exactly by Gaussian elimination over the fractions, choosing each pivot to
    keep fill-in small (least (row entries - 1) * (column entries - 1), Markowitz).

    Pivots are taken on the diagonal: A = I - P with P substochastic and absorbing is a
    nonsingular M-matrix, whose Schur complements are M-matrices too, so no pivot vanishes.

    >>> solve_sparse({"a": ({"a": Fraction(1), "b": Fraction(-1, 2)}, Fraction(1)),
    ...               "b": ({"b": Fraction(1), "a": Fraction(-1, 2)}, Fraction(0))})
    {'b': Fraction(2, 3), 'a': Fraction(4, 3)}
    """
    rows = {u: dict(row) for u, (row, _) in system.items()}
    rhs = {u: b for u, (_, b) in system.items()}
    cols: dict[Unknown, set[Unknown]] = {}
    for u, row in rows.items():
        for v in row:
            cols.setdefault(v, set()).add(u)
    left = set(rows)
    order = []
    while left:
        p = min(left, key=lambda u: ((len(rows[u]) - 1) * (len(cols[u]) - 1), len(rows[u])))
        left.discard(p)
        prow = rows[p]
        inv = 1 / prow[p]
        for v in prow:
            prow[v] *= inv
        rhs[p] *= inv
        for u in list(cols[p]):
            if u == p or u not in left:
                continue
            row = rows[u]
            factor = row.pop(p)
            cols[p].discard(u)
            for v, a in prow.items():
                if v == p:
                    continue
                new = row.get(v, 0) - factor * a
                if new:
                    row[v] = new
                    cols.setdefault(v, set()).add(u)
                else:
                    row.pop(v, None)
                    cols[v].discard(u)
            rhs[u] -= factor * rhs[p]
        order.append(p)
    x: dict[Unknown, Fraction] = {}
    for p in reversed(order):
        x[p] = rhs[p] - sum((a * x[v] for v, a in rows[p].items() if v != p), Fraction(0))
    return x


def fixed_point(step: csr_matrix, scale: int, b: np.ndarray) -> np.ndarray:
    """Iterate x = b + P x (P = step / scale, integer `step` weights, P substochastic and
    absorbing) until a sweep moves no value by more than 1e-15 relative (the error is bounded
    afterwards, exactly)."""
    p = step.astype(np.float64) / scale
    x = b.copy()
    for _ in range(100_000):
        nxt = b + p @ x
        if np.max(np.abs(nxt - x)) <= 1e-15 * max(1.0, float(np.max(np.abs(nxt)))):
            return nxt
        x = nxt
    raise ArithmeticError("the fixed-point iteration did not settle")


def residual_max(step: csr_matrix, scale: int, rhs: Sequence[Fraction], x: np.ndarray, bits: int) -> Fraction:
    """max_i |b_i + (P x~)_i - x~_i| exactly, x~ = x rounded to multiples of 2**-bits, in
    Python integers (no overflow)."""
    a = np.array([int(v) for v in np.rint(np.ldexp(x, bits))], dtype=object)
    den = lcm(*(b.denominator for b in rhs))
    per_entry = step.data.astype(object) * a[step.indices]
    counts = np.diff(step.indptr)
    sums = np.zeros(len(a), dtype=object)
    nonempty = counts > 0
    sums[nonempty] = np.add.reduceat(per_entry, step.indptr[:-1][nonempty])
    b_num = np.array([b.numerator * (den // b.denominator) for b in rhs], dtype=object)
    resid = b_num * (scale << bits) + den * (sums - a * scale)
    return Fraction(max(abs(r) for r in resid), den * (scale << bits))


def dyadic(x: np.ndarray, bits: int) -> np.ndarray:
    """x rounded to multiples of 2**-bits."""
    return np.ldexp(np.rint(np.ldexp(x, bits)), -bits)


def expected_steps_bound(step: csr_matrix, scale: int, bits: int = BITS) -> Fraction:
    """A proven upper bound on the expected number of steps to absorption from any state.

    Let t be a float solution of t = 1 + P t, rounded to a dyadic t~ >= 0; if t~ - P t~ >= 1/2
    holds exactly, then the true T = (I - P)^-1 1 <= 2 t~, since (I - P)^-1 has non-negative
    entries: (I - P)(2 t~ - T) >= 0. The check runs in int64, exact while every t~ is below
    2**10 and `scale` below 2**(52 - bits) (else an ArithmeticError)."""
    if scale << (bits + 11) >= 1 << 63:
        raise ArithmeticError("the scale is too large for an exact int64 check")
    t = dyadic(fixed_point(step, scale, np.ones(step.shape[0])) * 1.001, bits)
    if not 0 <= t.min() <= t.max() < 2**10:
        raise ArithmeticError("the expected number of steps is out of the range this check allows")
    num = np.rint(np.ldexp(t, bits)).astype(np.int64)  # exact: entries < 2**(10 + bits), rows sum to <= scale
    if not np.all(2 * (num * scale - step @ num) >= scale << bits):
        raise ArithmeticError("the bound on the expected number of steps could not be checked")
    return 2 * Fraction(int(num.max()), 1 << bits)


def float_bracket(
    step: csr_matrix, scale: int, rhs: list[Fraction], steps_bound: Fraction, bits: int = SOLUTION_BITS
) -> tuple[np.ndarray, Fraction]:
    """Float solution x~ of x = b + P x and a proven bound on its error:
    |x - x~| = (I - P)^-1 |r| <= max|r| * E[steps], P substochastic; r the exact residual and
    `steps_bound` a proven bound on the expected steps (`expected_steps_bound`)."""
    x = dyadic(fixed_point(step, scale, np.array([float(b) for b in rhs])), bits)
    return x, residual_max(step, scale, rhs, x, bits) * steps_bound
