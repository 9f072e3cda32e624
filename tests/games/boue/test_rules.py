"""La Boue's rules: the ranges of its parameters."""

import pytest
from checks import assert_rejected, bad_cases
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.games import boue

# -- rules validation ---------------------------------------------------------------------------
RANGES = {"dice": (1, 10), "players": (2, 10)}


@settings(max_examples=50, deadline=None)
@given(bad_cases(RANGES))
def test_rules_reject_bad_values(case):
    assert_rejected(boue.Rules, RANGES, case)


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(sorted(RANGES)), st.text(max_size=6))
def test_rules_from_strings_reject_bad_text(name, text):
    lo, hi = RANGES[name]
    try:
        ok = lo <= int(text.strip()) <= hi
    except ValueError:
        ok = False
    if ok:
        assert getattr(boue.Rules.from_strings({name: text}), name) == int(text.strip())
        return
    with pytest.raises(ValueError) as err:
        boue.Rules.from_strings({name: text})
    assert name in str(err.value) and f"from {lo} to {hi}" in str(err.value)
