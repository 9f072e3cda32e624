"""Checks shared by the games' tests.

- Rules: bad values raise a ValueError naming the parameter and its range (each game's test
  states the ranges itself, from RULES.md and the issue).
- Monte Carlo coverage: over independent replications, each 95% interval covers the exact
  value at least as often as a Binomial(reps, 0.95) count would with probability 99.9%.
- Monte Carlo agreement of one run's many figures: each 95% interval widened to a family-wise
  99.9% level (`holds_together`), so that a fixed seed passes by design, not by luck.
"""

from collections import Counter
from collections.abc import Callable, Mapping

import pytest
from hypothesis import strategies as st
from scipy import stats


def bad_values(lo, hi):
    """Values outside [lo, hi] or of the wrong type."""
    return st.one_of(
        st.integers().filter(lambda v: not lo <= v <= hi),
        st.floats(allow_nan=True),
        st.text(max_size=5),
        st.booleans(),
        st.none(),
    )


def bad_cases(ranges):
    """(name, bad value) pairs for a {name: (lo, hi)} table."""
    return st.sampled_from(sorted(ranges)).flatmap(lambda name: st.tuples(st.just(name), bad_values(*ranges[name])))


def assert_rejected(rules_class, ranges, case):
    """Building the rules with the bad value fails, naming the parameter and its range."""
    name, value = case
    lo, hi = ranges[name]
    with pytest.raises(ValueError) as err:
        rules_class(**{name: value})
    assert name in str(err.value) and f"from {lo} to {hi}" in str(err.value)


def coverage(simulate: Callable[[int], Mapping], exact: Mapping[str, float], reps: int = 40) -> tuple[Counter, int]:
    """(how many of `reps` replications' intervals cover each exact value, the count required).

    `simulate(seed)` returns a report's figures; figures without an exact value are ignored."""
    covered: Counter = Counter()
    for seed in range(reps):
        sim = simulate(seed)
        for name in set(sim) & set(exact):
            lo, hi = sim[name].ci
            covered[name] += lo <= exact[name] <= hi
    return covered, int(stats.binom.ppf(0.001, reps, 0.95))


def holds_together(estimate, value: float, figures: int, alpha: float = 0.001) -> bool:
    """Whether `value` lies in `estimate`'s 95% interval widened so that `figures` such checks all
    hold with probability at least 1 - alpha (Bonferroni): each side of the interval scaled by
    z(1 - alpha / (2 figures)) / z(0.975), about 2.0 for a dozen figures."""
    lo, hi = estimate.ci
    scale = stats.norm.ppf(1 - alpha / (2 * figures)) / stats.norm.ppf(0.975)
    return estimate.value - scale * (estimate.value - lo) <= value <= estimate.value + scale * (hi - estimate.value)
