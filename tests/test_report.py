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


def test_a_simulated_figure_says_its_trials_in_the_json_the_table_and_the_frame():
    """An estimate's trials travel with its figure; figures of other kinds have none, and a
    table without simulated figures has no trials column."""
    from nessus.montecarlo import Estimate
    from nessus.report import Report

    simulated = Figure.estimated(Estimate("p", 0.25, (0.2, 0.3), 12_345, "proportion"))
    exact = Figure.of(Fraction(1, 4))
    assert simulated.to_json()["trials"] == 12_345 and exact.to_json()["trials"] is None
    report = Report("toy", {}, {"p": simulated, "q": exact})
    header, _, p_row, q_row = report.to_text().splitlines()[1:]
    assert header.split()[-1] == "trials" and p_row.split()[-1] == "12,345" and q_row.split()[-1] == "-"
    assert report.to_frame()["trials"].to_list() == [12_345, None]
    assert "trials" not in Report("toy", {}, {"q": exact}).to_text()
