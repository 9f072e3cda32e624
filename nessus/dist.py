"""Exact probability distributions.

`Dist` is a finite distribution: outcomes with integer weights over a common total, so every
probability is an exact `Fraction`. `TruncatedDist` is a distribution over the non-negative
integers with unbounded support: P(X = s) exactly for every s up to a bound, plus the exact
mass P(X > bound) that lies beyond it.

Two dice, the Norvig way: a sample space of equally likely outcomes, an event, its probability.

>>> die = Dist.uniform(range(1, 7))
>>> two = die.sum_of(2)
>>> two.prob(lambda total: total == 7), two.mean(), two.variance()
(Fraction(1, 6), Fraction(7, 1), Fraction(35, 6))
>>> two.given(lambda total: total >= 10).prob({12})
Fraction(1, 6)
>>> die.combine(die, max).prob({6})          # the higher of two dice is a 6
Fraction(11, 36)
"""

from __future__ import annotations

import html
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from math import gcd, lcm
from typing import TYPE_CHECKING, Any, cast

from nessus.numbers import decimal_text, exact_str

if TYPE_CHECKING:
    import polars as pl

Event = Callable[[Any], bool] | Iterable[Hashable]


def _sort_key(x: Hashable) -> tuple:
    return (0, x, "") if isinstance(x, (int, float, Fraction)) else (1, 0, repr(x))


class Dist:
    """A finite distribution with exact probabilities (integer weights over their total)."""

    __slots__ = ("_weights", "_total")

    def __init__(self, weights: Mapping[Hashable, int]) -> None:
        cleaned: dict[Hashable, int] = {}
        for outcome, w in weights.items():
            if not isinstance(w, int) or w < 0:
                raise ValueError(f"weights must be non-negative integers, got {w!r} for {outcome!r}")
            if w:
                cleaned[outcome] = cleaned.get(outcome, 0) + w
        if not cleaned:
            raise ValueError("a distribution needs at least one outcome of positive weight")
        g = 0
        for w in cleaned.values():
            g = gcd(g, w)
        self._weights = {x: cleaned[x] // g for x in sorted(cleaned, key=_sort_key)}
        self._total = sum(self._weights.values())

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_counts(cls, counts: Mapping[Hashable, int] | Iterable[Hashable]) -> Dist:
        """From outcome counts ({outcome: count}) or from a list of equally likely outcomes."""
        if isinstance(counts, Mapping):
            return cls(counts)
        tally: dict[Hashable, int] = {}
        for x in counts:
            tally[x] = tally.get(x, 0) + 1
        return cls(tally)

    @classmethod
    def from_probabilities(cls, probs: Mapping[Hashable, Fraction | int]) -> Dist:
        """From exact probabilities that sum to 1."""
        fracs = {x: Fraction(p) for x, p in probs.items()}
        if any(p < 0 for p in fracs.values()) or sum(fracs.values()) != 1:
            raise ValueError("probabilities must be non-negative and sum to 1")
        den = lcm(*(p.denominator for p in fracs.values()))
        return cls({x: p.numerator * (den // p.denominator) for x, p in fracs.items()})

    @classmethod
    def uniform(cls, outcomes: Iterable[Hashable]) -> Dist:
        """Each distinct outcome equally likely."""
        return cls({x: 1 for x in outcomes})

    @classmethod
    def point(cls, outcome: Hashable) -> Dist:
        """The outcome with probability 1."""
        return cls({outcome: 1})

    @classmethod
    def mixture(cls, components: Sequence[tuple[Fraction | int, Dist]]) -> Dist:
        """Pick component i with probability w_i (the w_i sum to 1), then draw from it."""
        ws = [Fraction(w) for w, _ in components]
        if any(w < 0 for w in ws) or sum(ws) != 1:
            raise ValueError("mixture weights must be non-negative and sum to 1")
        probs: dict[Hashable, Fraction] = {}
        for w, (_, d) in zip(ws, components):
            for x, p in d.items():
                probs[x] = probs.get(x, Fraction(0)) + w * p
        return cls.from_probabilities({x: p for x, p in probs.items() if p})

    # -- access -------------------------------------------------------------------------
    @property
    def outcomes(self) -> list[Hashable]:
        """The outcomes of positive probability, sorted."""
        return list(self._weights)

    @property
    def total(self) -> int:
        """The common denominator of the weights."""
        return self._total

    def weight(self, outcome: Hashable) -> int:
        """The integer weight of an outcome (probability = weight / total)."""
        return self._weights.get(outcome, 0)

    def __len__(self) -> int:
        return len(self._weights)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._weights)

    def __getitem__(self, outcome: Hashable) -> Fraction:
        return Fraction(self._weights.get(outcome, 0), self._total)

    def items(self) -> Iterator[tuple[Hashable, Fraction]]:
        """(outcome, exact probability) pairs, outcomes sorted."""
        for x, w in self._weights.items():
            yield x, Fraction(w, self._total)

    def weights(self) -> Iterator[tuple[Hashable, int]]:
        """(outcome, integer weight) pairs, outcomes sorted."""
        return iter(self._weights.items())

    def prob(self, event: Event) -> Fraction:
        """P(event): the event is a predicate on outcomes or a collection of outcomes."""
        if callable(event):
            w = sum(wt for x, wt in self._weights.items() if event(x))
        else:
            w = sum(self._weights.get(x, 0) for x in set(event))
        return Fraction(w, self._total)

    # -- transformation -----------------------------------------------------------------
    def map(self, f: Callable[[Any], Hashable]) -> Dist:
        """The distribution of f(X)."""
        out: dict[Hashable, int] = {}
        for x, w in self._weights.items():
            y = f(x)
            out[y] = out.get(y, 0) + w
        return Dist(out)

    def combine(self, other: Dist, f: Callable[[Any, Any], Hashable]) -> Dist:
        """The distribution of f(X, Y) for X ~ self and Y ~ other independent."""
        out: dict[Hashable, int] = {}
        for x, wx in self._weights.items():
            for y, wy in other._weights.items():
                z = f(x, y)
                out[z] = out.get(z, 0) + wx * wy
        return Dist(out)

    def __add__(self, other: Dist | int | Fraction) -> Dist:
        """Sum of independent variables (convolution), or a shift by a constant."""
        if isinstance(other, Dist):
            return self.combine(other, lambda x, y: x + y)
        if isinstance(other, (int, Fraction)):
            return self.map(lambda x: x + other)
        return NotImplemented

    __radd__ = __add__

    def sum_of(self, n: int) -> Dist:
        """The sum of n independent copies (n >= 1), by repeated squaring."""
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be an integer >= 1, got {n!r}")
        result: Dist | None = None
        power = self
        while n:
            if n & 1:
                result = power if result is None else result + power
            n >>= 1
            if n:
                power = power + power
        assert result is not None
        return result

    def given(self, event: Event) -> Dist:
        """The conditional distribution given the event (which must have positive probability)."""
        inside = event if callable(event) else set(event).__contains__
        kept = {x: w for x, w in self._weights.items() if inside(x)}
        if not kept:
            raise ValueError("cannot condition on an event of probability 0")
        return Dist(kept)

    # -- summaries ----------------------------------------------------------------------
    def mean(self) -> Fraction:
        """E[X], exact (numeric outcomes)."""
        return Fraction(sum(Fraction(cast(Any, x)) * w for x, w in self._weights.items()), self._total)

    def variance(self) -> Fraction:
        """Var[X], exact (numeric outcomes)."""
        m = self.mean()
        return sum(((Fraction(cast(Any, x)) - m) ** 2 * w for x, w in self._weights.items()), Fraction(0)) / self._total

    def cdf(self, x: Any) -> Fraction:
        """P(X <= x)."""
        return self.prob(lambda y: y <= x)

    def quantile(self, q: Fraction | float) -> Hashable:
        """The smallest outcome x with P(X <= x) >= q, for 0 < q <= 1."""
        q = Fraction(q)
        if not 0 < q <= 1:
            raise ValueError(f"q must be in (0, 1], got {q}")
        acc = 0
        for x, w in self._weights.items():
            acc += w
            if Fraction(acc, self._total) >= q:
                return x
        raise AssertionError("unreachable: probabilities sum to 1")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dist) and dict(self.items()) == dict(other.items())

    def __hash__(self) -> int:
        return hash(tuple(self.items()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{x!r}: {exact_str(p)}" for x, p in list(self.items())[:8])
        more = ", ..." if len(self) > 8 else ""
        return f"Dist({{{shown}{more}}})"

    # -- output -------------------------------------------------------------------------
    def to_frame(self) -> pl.DataFrame:
        """A polars DataFrame: `value`, `probability` (float), `exact` ("p/q")."""
        import polars as pl

        values = self.outcomes
        numeric = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in values)
        return pl.DataFrame(
            {
                "value": values if numeric else [str(x) for x in values],
                "probability": [float(p) for _, p in self.items()],
                "exact": [exact_str(p) for _, p in self.items()],
            }
        )

    def _repr_html_(self) -> str:
        rows = [(str(x), p) for x, p in self.items()]
        return _html_table_and_bars(rows, note="")


class TruncatedDist:
    """A distribution on 0, 1, 2, ... known exactly up to `bound`, with the exact tail beyond.

    Stored as integer numerators over one common denominator, so every P(X = s) is exact and
    `tail` = P(X > bound) = 1 - sum of the rest is exact too.
    """

    __slots__ = ("_num", "_den")

    def __init__(self, numerators: Sequence[int], denominator: int) -> None:
        if denominator <= 0 or any(n < 0 for n in numerators) or sum(numerators) > denominator:
            raise ValueError("numerators must be non-negative and sum to at most the denominator")
        if not numerators:
            raise ValueError("a truncated distribution needs a bound >= 0")
        self._num = list(numerators)
        self._den = denominator

    @property
    def bound(self) -> int:
        """The largest s whose probability is held."""
        return len(self._num) - 1

    @property
    def tail(self) -> Fraction:
        """P(X > bound), exact."""
        return Fraction(self._den - sum(self._num), self._den)

    def probability(self, s: int) -> Fraction:
        """P(X = s), exact, for 0 <= s <= bound."""
        self._check(s)
        return Fraction(self._num[s], self._den) if s >= 0 else Fraction(0)

    __getitem__ = probability

    def pmf(self) -> list[Fraction]:
        """[P(X = 0), ..., P(X = bound)]."""
        return [Fraction(n, self._den) for n in self._num]

    def cdf(self, s: int) -> Fraction:
        """P(X <= s), exact, for s <= bound."""
        self._check(s)
        return Fraction(sum(self._num[: s + 1]), self._den) if s >= 0 else Fraction(0)

    def sf(self, s: int) -> Fraction:
        """P(X > s), exact, for s <= bound (the tail beyond the bound included)."""
        return 1 - self.cdf(s)

    def _check(self, s: int) -> None:
        if s > self.bound:
            raise ValueError(f"s must be at most the bound {self.bound}, got {s}")

    def truncate(self, bound: int) -> TruncatedDist:
        """The same distribution held only up to a smaller bound."""
        self._check(bound)
        return TruncatedDist(self._num[: bound + 1], self._den)

    def __add__(self, other: TruncatedDist) -> TruncatedDist:
        """Sum of independent copies; exact up to the smaller bound (all values are >= 0)."""
        if not isinstance(other, TruncatedDist):
            return NotImplemented
        b = min(self.bound, other.bound)
        a, c = self._num, other._num
        out = [sum(a[i] * c[s - i] for i in range(s + 1)) for s in range(b + 1)]
        return TruncatedDist(out, self._den * other._den)

    def sum_of(self, n: int) -> TruncatedDist:
        """The sum of n independent copies (n >= 1)."""
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be an integer >= 1, got {n!r}")
        result = self
        for _ in range(n - 1):
            result = result + self
        return result

    def to_frame(self) -> pl.DataFrame:
        """A polars DataFrame: `value`, `probability` (float), `exact` ("p/q") for s <= bound."""
        import polars as pl

        pmf = self.pmf()
        return pl.DataFrame(
            {
                "value": list(range(len(pmf))),
                "probability": [float(p) for p in pmf],
                "exact": [exact_str(p) for p in pmf],
            }
        )

    def __repr__(self) -> str:
        return f"TruncatedDist(bound={self.bound}, tail={float(self.tail):.3g})"

    def _repr_html_(self) -> str:
        rows = [(str(s), p) for s, p in enumerate(self.pmf()) if p]
        note = f"P(X &gt; {self.bound}) = {decimal_text(self.tail)} (exact, not shown as bars)"
        return _html_table_and_bars(rows, note=note)


def _html_table_and_bars(rows: list[tuple[str, Fraction]], note: str, limit: int = 12) -> str:
    """A small table of the most likely rows next to an inline SVG bar chart of all of them."""
    top = sorted(rows, key=lambda r: -r[1])[:limit]
    top_set = {r[0] for r in top}
    table_rows = "".join(
        f"<tr><td>{html.escape(x)}</td><td>{exact_str(p)}</td><td>{decimal_text(p)}</td></tr>"
        for x, p in rows
        if x in top_set
    )
    more = f"<tr><td colspan=3>… {len(rows) - limit} more</td></tr>" if len(rows) > limit else ""
    width, height = 360, 120
    pmax = float(max(p for _, p in rows))
    bar_w = width / len(rows)
    bars = "".join(
        f'<rect x="{i * bar_w:.2f}" y="{height - float(p) / pmax * height:.2f}" '
        f'width="{max(bar_w - 1, 0.5):.2f}" height="{float(p) / pmax * height:.2f}" fill="#4c78a8">'
        f"<title>{html.escape(x)}: {exact_str(p)}</title></rect>"
        for i, (x, p) in enumerate(rows)
    )
    svg = f'<svg width="{width}" height="{height}" role="img">{bars}</svg>'
    return (
        '<div style="display:flex;gap:1.5em;align-items:flex-start">'
        f"<table><tr><th>value</th><th>exact</th><th>≈</th></tr>{table_rows}{more}</table>"
        f"<div>{svg}<div style='font-size:small'>{note}</div></div></div>"
    )
