"""Figures: intervals and the kinds of figure."""

from fractions import Fraction

import pytest

from nessus.report import Figure


def test_contains_uses_the_interval():
    f = Figure.bracket(Fraction(1, 3), Fraction(1, 2))
    assert f.contains(0.4) and not f.contains(0.6)
    g = Figure.approx(0.53, "floats, within 1e-9", (0.52, 0.54))
    assert g.method == "value-iteration" and g.exact is None and g.contains(0.53)
    with pytest.raises(ValueError, match="no interval"):
        Figure.of(Fraction(1, 36)).contains(0.1)
