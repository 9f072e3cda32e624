"""The one number format of the pages (nessus.numbers) and the tables' CSV downloads."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from nessus.kit.common import tables_csv
from nessus.numbers import (
    decimal_text,
    digit_count,
    digits,
    is_short,
    number_html,
    number_text,
    percent_text,
    printable,
    rarity,
)


def shown(page: str, mode: str) -> str:
    """The text a page shows of number_html in one mode (the other spans are hidden by CSS)."""
    cls = {"fraction": "nf", "decimal": "nd", "percent": "np"}[mode]
    spans = re.findall(rf"<span class='{cls}'>(.*?)</span><span class='n|<span class='{cls}'>(.*?)</span></span>", page)
    text = next(a or b for a, b in spans)
    return re.sub(r"<[^>]+>", "", text)


def test_a_short_fraction_comes_with_its_decimal():
    assert number_text(Fraction(1, 36)) == "1/36 ≈ 0.028"
    assert number_text(Fraction(-2, 3)) == "-2/3 ≈ -0.667"
    assert number_text(Fraction(5, 6), "decimal") == "0.833333"
    assert number_text(Fraction(1, 36), "percent") == "2.78%"
    assert shown(number_html(Fraction(1, 36)), "fraction") == "1/36 ≈ 0.028"
    assert shown(number_html(Fraction(1, 36)), "percent") == "2.78%"


def test_a_whole_number_is_written_as_it_is():
    assert number_text(Fraction(35)) == "35"
    assert number_text(7) == "7"
    assert "<code>1,000</code>" in number_html(1000)


def test_a_long_fraction_is_a_decimal_with_the_fraction_one_click_away():
    p = Fraction(2783176, 60466176) ** 3
    assert not is_short(p)
    assert number_text(p) == "≈ 0.0001" or number_text(p).startswith("about ")
    html = number_html(Fraction(21672031222612, 6212308247145), "value")
    assert "<details class='nessus-exact'>" in html and "<summary" in html
    assert "21672031222612/6212308247145" in html  # inside the details: one click away
    assert "title=" not in html.split("<details")[0]  # not a hover-only tooltip
    assert "a fraction of" not in html


@pytest.mark.parametrize(
    "p, words",
    [
        (2.12682e-12, "about 2 in a trillion"),
        (0.00046, "about 460 in a million"),
        (3.3e-4, "about 330 in a million"),
        (1.2e-7, "about 120 in a billion"),
        (Fraction(1, 6**17), "about 59 in a quadrillion"),
        (1e-20, "less than 1 in a quadrillion"),
    ],
)
def test_a_tiny_probability_is_said_in_words(p, words):
    assert decimal_text(p) == words
    assert number_text(p) == words
    for mode in ("fraction", "decimal", "percent"):
        assert "e-" not in shown(number_html(p), mode)


@pytest.mark.parametrize(
    "x", [2.12682e-12, 1e-9, 0.00046, 0.0046, 0.05, 0.5, 13.0123, 1234.5, -0.000123, Fraction(1, 6**17)]
)
def test_never_scientific_notation(x):
    for mode in ("fraction", "decimal", "percent"):
        assert not re.search(r"\de[-+]?\d", number_text(x, mode)), number_text(x, mode)
    assert not re.search(r"\de[-+]?\d", decimal_text(x, "value"))


def test_decimals_are_rounded_sensibly():
    assert decimal_text(0.0277778) == "0.028"
    assert decimal_text(0.0046) == "0.0046"
    assert decimal_text(13.0123, "value") == "13.012"
    assert decimal_text(0.5) == "0.5"
    assert rarity(9.7e-4) == "about 1 in a thousand"
    assert rarity(9.2e-4) == "about 920 in a million"
    assert percent_text(0.530593) == "53.06%"
    assert percent_text(0.00046) == "0.046%"
    assert percent_text(Fraction(13, 1), "value") == "13"  # not a share: no percent sign


def test_floats_are_marked_approximate():
    assert number_text(0.530593) == "≈ 0.531"
    assert shown(number_html(0.530593), "fraction") == "≈ 0.5306"


def test_huge_fractions_are_described_not_printed():
    x = Fraction(3**30000 + 1, 7**20000)
    assert digit_count(x.numerator) == len(digits(3**30000 + 1))
    assert not printable(x)
    html = number_html(x)
    assert "14,314-digit numerator" in html and "16,902-digit denominator" in html


def test_tables_become_csv_with_exact_numbers():
    page = (
        f"<table><tr><th>figure</th><th>exact</th></tr><tr><td>P(<b>win</b>)</td>"
        f"<td>{number_html(Fraction(1, 36))}</td></tr><tr><td>mean</td><td>{number_html(0.25, 'value')}</td></tr>"
        "</table><p>x</p><table><tr><td>a</td></tr></table>"
    )
    assert tables_csv(page) == ["figure,exact\nP(win),1/36\nmean,0.25\n", "a\n"]
