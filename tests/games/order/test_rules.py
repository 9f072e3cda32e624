"""Order of play's rules: the players parameter and its messages."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.games import order


# -- rules validation ---------------------------------------------------------------------------
def _check_message(err, name, lo, hi):
    text = str(err.value)
    assert name in text and f"from {lo} to {hi}" in text


@settings(max_examples=60, deadline=None)
@given(
    st.one_of(
        st.integers().filter(lambda v: not 2 <= v <= 10),
        st.floats(allow_nan=True),
        st.text(max_size=5),
        st.booleans(),
        st.none(),
        st.fractions(),
    )
)
def test_rules_reject_bad_players(value):
    with pytest.raises(ValueError) as err:
        order.Rules(players=value)
    _check_message(err, "players", 2, 10)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=8))
def test_rules_from_strings_reject_bad_text(text):
    try:
        ok = 2 <= int(text.strip()) <= 10
    except ValueError:
        ok = False
    if ok:
        assert order.Rules.from_strings({"players": text}).players == int(text.strip())
        return
    with pytest.raises(ValueError) as err:
        order.Rules.from_strings({"players": text})
    _check_message(err, "players", 2, 10)


def test_rules_unknown_parameter():
    with pytest.raises(ValueError, match="unknown parameter 'dice'; allowed: players"):
        order.Rules.from_strings({"dice": "3"})
