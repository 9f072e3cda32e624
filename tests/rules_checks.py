"""Shared check for every game's Rules: bad values raise a ValueError naming the parameter and
its range. Each game's test states the ranges itself, from RULES.md and the issue."""

import pytest
from hypothesis import strategies as st


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
