"""Figures: intervals and the kinds of figure."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nessus.report import Figure


def test_contains_uses_the_interval():
    f = Figure.bracket(Fraction(1, 3), Fraction(1, 2))
    assert f.contains(0.4) and not f.contains(0.6)
    g = Figure.approx(0.53, "floats, within 1e-9", (0.52, 0.54))
    assert g.method == "value-iteration" and g.exact is None and g.contains(0.53)
    with pytest.raises(ValueError, match="no interval"):
        Figure.of(Fraction(1, 36)).contains(0.1)


@given(st.fractions(), st.fractions(min_value=0, max_value=1))
def test_a_bracket_holds_its_ends_exactly(lower, width):
    """float() rounds to the nearest; a bracket's float ends must still enclose both exact ends."""
    upper = lower + width
    lo, hi = Figure.bracket(lower, upper).ci
    assert Fraction(lo) <= lower and upper <= Fraction(hi)


def test_a_tight_bracket_is_not_rounded_inward():
    """A bracket 2^-64 wide around 0.51 (the shape of L'Hypogéon's whole-game brackets) held
    no value at all when both ends were rounded to the nearest float."""
    low = Fraction(9416457195063549, 2**64) * 1000  # not a float's value
    high = low + Fraction(1, 2**64)
    f = Figure.bracket(low, high)
    assert f.contains(low) and f.contains(high) and f.ci[0] < f.ci[1]
