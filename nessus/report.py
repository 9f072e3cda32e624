"""Figures and reports: the headline numbers of a game, exact or simulated.

The JSON form is a contract other tools rely on:
`{"game": str, "rules": {...}, "figures": {NAME: {"exact": "p/q" or null, "value": float,
"ci": [lo, hi] or null, "method": "exact" | "monte-carlo" | "value-iteration", "trials": int or null}}}`.
A Monte Carlo figure's `trials` is the number of trials it rests on (those done, after Ctrl-C);
it is null for the others.
For a figure that is an infinite series (computed exactly to a truncation point), `exact` is
null and `ci` is a rigorous bracket [lower, upper] that contains the true value. A figure solved
in floats by value iteration (games with cycles, e.g. Pig) has `exact` null, method
"value-iteration", its accuracy in the figure's help, and `ci` a bracket when one is known.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from nessus.dist import exact_str
from nessus.montecarlo import Estimate

if TYPE_CHECKING:
    import polars as pl


def float_below(x: Fraction) -> float:
    """The largest float <= x (float() alone rounds to the nearest, either way)."""
    f = float(x)
    return f if Fraction(f) <= x else math.nextafter(f, -math.inf)


def float_above(x: Fraction) -> float:
    """The smallest float >= x."""
    f = float(x)
    return f if Fraction(f) >= x else math.nextafter(f, math.inf)


@dataclass(frozen=True)
class Figure:
    """One number: exact (a Fraction), exactly bracketed (a series), solved in floats (value
    iteration), or a Monte Carlo estimate from `trials` trials."""

    exact: Fraction | None
    value: float
    ci: tuple[float, float] | None
    method: str
    help: str = ""
    trials: int | None = None

    @classmethod
    def of(cls, exact: Fraction | int, help: str = "") -> Figure:
        """An exact figure."""
        x = Fraction(exact)
        return cls(x, float(x), None, "exact", help)

    @classmethod
    def bracket(cls, lower: Fraction, upper: Fraction, help: str = "") -> Figure:
        """A figure known exactly to lie in [lower, upper] (an infinite series cut off); the
        float ends are rounded outward, so the interval still holds the true value."""
        return cls(None, float((lower + upper) / 2), (float_below(lower), float_above(upper)), "exact", help)

    @classmethod
    def approx(cls, value: float, help: str, interval: tuple[float, float] | None = None) -> Figure:
        """A figure computed in floats by value iteration: not exact (say how accurate in
        `help`); `interval`, when given, is a bracket known to hold the true value."""
        return cls(None, float(value), interval, "value-iteration", help)

    @classmethod
    def estimated(cls, e: Estimate, help: str = "") -> Figure:
        """A Monte Carlo estimate with its confidence interval and its number of trials."""
        return cls(None, e.value, e.ci, "monte-carlo", help, e.trials)

    def contains(self, x: float) -> bool:
        """Whether x lies in the figure's interval (a Monte Carlo interval or a bracket)."""
        if self.ci is None:
            raise ValueError(f"this figure has no interval (method {self.method})")
        return self.ci[0] <= x <= self.ci[1]

    def to_json(self) -> dict[str, Any]:
        return {
            "exact": exact_str(self.exact) if self.exact is not None else None,
            "value": self.value,
            "ci": list(self.ci) if self.ci is not None else None,
            "method": self.method,
            "trials": self.trials,
        }


@dataclass(frozen=True)
class Report:
    """A game's figures under given rules."""

    game: str
    rules: dict[str, Any]
    figures: dict[str, Figure] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rules": self.rules,
            "figures": {name: f.to_json() for name, f in self.figures.items()},
        }

    def to_frame(self) -> pl.DataFrame:
        """A polars DataFrame: figure, exact, value, ci_low, ci_high, method, trials."""
        import polars as pl

        rows = [f.to_json() | {"figure": n} for n, f in self.figures.items()]
        return pl.DataFrame(
            {
                "figure": [r["figure"] for r in rows],
                "exact": [r["exact"] for r in rows],
                "value": [r["value"] for r in rows],
                "ci_low": [r["ci"][0] if r["ci"] else None for r in rows],
                "ci_high": [r["ci"][1] if r["ci"] else None for r in rows],
                "method": [r["method"] for r in rows],
                "trials": [r["trials"] for r in rows],
            },
            schema={
                "figure": pl.String,
                "exact": pl.String,
                "value": pl.Float64,
                "ci_low": pl.Float64,
                "ci_high": pl.Float64,
                "method": pl.String,
                "trials": pl.Int64,
            },
        )

    def to_text(self) -> str:
        """An aligned table for people: figure, exact fraction, decimal, interval, method, and
        where a figure is simulated, the trials each rests on."""
        counted = any(f.trials is not None for f in self.figures.values())
        header = ("figure", "exact", "value", "interval", "method") + (("trials",) if counted else ())
        right = {2, 5}  # the numbers' columns
        rows = [header]
        for name, f in self.figures.items():
            exact = exact_str(f.exact) if f.exact is not None else "-"
            if len(exact) > 40:
                exact = exact[:37] + "..."
            interval = f"[{f.ci[0]:.6g}, {f.ci[1]:.6g}]" if f.ci else "-"
            trials = (f"{f.trials:,}" if f.trials is not None else "-",) if counted else ()
            rows.append((name, exact, f"{f.value:.6g}", interval, f.method, *trials))
        widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
        rules = ", ".join(f"{k}={v}" for k, v in self.rules.items())
        lines = [f"{self.game} ({rules})" if rules else self.game]
        for i, r in enumerate(rows):
            lines.append(
                "  ".join(c.rjust(w) if j in right else c.ljust(w) for j, (c, w) in enumerate(zip(r, widths))).rstrip()
            )
            if i == 0:
                lines.append("  ".join("-" * w for w in widths))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return self.to_frame()._repr_html_()
