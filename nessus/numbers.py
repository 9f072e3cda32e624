"""One way to write numbers on every page: pure functions from exact values to text and HTML.

- A short exact fraction comes with its decimal: ``1/36 ≈ 0.028``.
- A long one is written as its decimal, the exact fraction one click away (a ``<details>``).
- A probability is never in scientific notation: ``about 2 in a trillion``.
- Every number is written in the three formats a page can switch between (fractions, decimals,
  percentages); the page's CSS shows the one chosen (classes ``nf``, ``nd``, ``np``).
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Literal

Mode = Literal["fraction", "decimal", "percent"]
Kind = Literal["probability", "value"]
MODES: tuple[Mode, ...] = ("fraction", "decimal", "percent")
SHORT = 15  # the longest fraction ("p/q") written out in full
LONGEST_SHOWN = 4000  # characters of a fraction put in the page; longer ones are described by their size
LOG10_2 = 0.30102999566398120
SCALES = ((10**3, "thousand"), (10**6, "million"), (10**9, "billion"), (10**12, "trillion"), (10**15, "quadrillion"))


D3_FORMATS: dict[str, str] = {
    "probability": ".3~r",
    "percent": ".1~%",
    "value": ",.3~f",
    "count": ",d",
}
"""The number formats a chart may give vega (d3 format strings) for its axes and tooltips: a
probability to three significant digits (0.0278, 0.5), a share in percent (2.8%), a value to
three decimals at most (13.012), a count with thousands separators. Anything longer or in
scientific notation is text made here (`number_text`) and put in the chart's data."""


def d3_format(kind: Literal["probability", "percent", "value", "count"]) -> str:
    """The d3 format of a chart's axis or tooltip for numbers of this kind (see `D3_FORMATS`).

    >>> d3_format("probability"), d3_format("count")
    ('.3~r', ',d')
    """
    return D3_FORMATS[kind]


def digits(n: int) -> str:
    """An integer in decimal, however long: Python's str() refuses more than 4300 digits
    (sys.get_int_max_str_digits), so longer ones are written 4000 digits at a time."""
    try:
        return str(n)
    except ValueError:
        pass
    if n < 0:
        return "-" + digits(-n)
    pieces = []
    while n:
        n, piece = divmod(n, 10**4000)
        pieces.append(piece)
    return str(pieces[-1]) + "".join(str(piece).zfill(4000) for piece in reversed(pieces[:-1]))


def exact_str(p: Fraction) -> str:
    """The reduced fraction as "p/q" ("35" for an integer), at any length."""
    return digits(p.numerator) if p.denominator == 1 else f"{digits(p.numerator)}/{digits(p.denominator)}"


def _trim(text: str) -> str:
    """'0.500' -> '0.5', '2.000' -> '2' (never on integers)."""
    return text.rstrip("0").rstrip(".") if "." in text else text


def rarity(p: float) -> str:
    """A tiny positive probability in words: 2.1e-12 -> "about 2 in a trillion"."""
    for scale, word in SCALES:
        n = p * scale
        if n >= 0.95:
            count = round(n) if n < 9.5 else int(float(f"{n:.2g}"))
            return f"about {count:,} in a {word}"
    return f"less than 1 in a {SCALES[-1][1]}"


def decimal_text(x: Fraction | float | int, kind: Kind = "probability", digits: int = 3) -> str:
    """A decimal without scientific notation: 3 decimals (0.028, 13.012), 2 significant
    digits below 0.01 (0.0046), and a tiny probability in words (about 2 in a trillion)."""
    if isinstance(x, Fraction) and x.denominator == 1:
        return f"{x.numerator:,}"
    v = float(x)
    if v == 0 and x and kind == "probability":
        return rarity(0.0)
    if v == 0:
        return "0"
    if abs(v) >= 0.01:
        return _trim(f"{v:,.{digits}f}")
    if kind == "probability" and 0 < v < 0.001:
        return rarity(v)
    decimals = max(digits, -int(f"{abs(v):e}".split("e")[1]) + 1)
    return _trim(f"{v:.{min(decimals, 20)}f}")


def percent_text(x: Fraction | float | int, kind: Kind = "probability") -> str:
    """A percentage (2.78%), a tiny probability in words; a value that is not a share is left a decimal."""
    v = float(x)
    if kind != "probability":
        return decimal_text(x, kind)
    if v == 0 and not x:
        return "0%"
    if 0 < v < 0.00001:
        return rarity(v)
    pct = 100 * v
    if abs(pct) >= 1:
        return _trim(f"{pct:,.2f}") + "%"
    decimals = -int(f"{abs(pct):e}".split("e")[1]) + 1
    return _trim(f"{pct:.{decimals}f}") + "%"


def approximately(text: str) -> str:
    """'≈ ' before a decimal (not before words: "about 2 in a trillion")."""
    return text if text[0].isalpha() else f"≈ {text}"


def digit_count(n: int) -> int:
    """How many decimal digits |n| has (without writing it out: huge integers are slow to print)."""
    n = abs(n)
    if n.bit_length() <= 3 * LONGEST_SHOWN:
        return len(str(n))
    estimate = int(n.bit_length() * LOG10_2)
    return estimate + (n >= 10**estimate)


def printable(x: Fraction) -> bool:
    """True when the fraction is short enough to be put in the page in full."""
    return digit_count(x.numerator) + digit_count(x.denominator) < LONGEST_SHOWN


def with_decimal(x: Fraction, kind: Kind = "probability") -> str:
    """A short fraction and its decimal: "1/36 ≈ 0.028", "1/7776, about 130 in a million"."""
    d = decimal_text(x, kind)
    return f"{exact_str(x)} ≈ {d}" if not d[0].isalpha() else f"{exact_str(x)}, {d}"


def is_short(x: Fraction | int) -> bool:
    """True when the exact fraction is short enough to read at a glance."""
    x = Fraction(x)
    return max(x.numerator.bit_length(), x.denominator.bit_length()) < 64 and len(exact_str(x)) <= SHORT


def number_text(x: Fraction | float | int, mode: Mode = "fraction", kind: Kind = "probability") -> str:
    """Plain text of a number (chart titles, tooltips, CSV): a short fraction with its decimal,
    a long one as "≈ decimal", a float (not exact) as "≈ decimal"."""
    if mode == "percent":
        return percent_text(x, kind)
    if not isinstance(x, (Fraction, int)):
        return approximately(decimal_text(x, kind, 4 if mode == "decimal" else 3))
    x = Fraction(x)
    if x.denominator == 1:
        return f"{x.numerator:,}"
    if mode == "decimal":
        return approximately(decimal_text(x, kind, 6)) if not is_short(x) else decimal_text(x, kind, 6)
    if is_short(x):
        return with_decimal(x, kind)
    return approximately(decimal_text(x, kind))


def csv_value(x: Fraction | float | int) -> str:
    """A number as a CSV cell: the exact fraction ("1/36"), or a float's repr (for floats, and for
    fractions too long to print)."""
    if isinstance(x, (Fraction, int)) and printable(Fraction(x)):
        return exact_str(Fraction(x))
    return repr(float(x))


def _exact_details(x: Fraction, kind: Kind) -> str:
    """A long fraction: its decimal, the exact fraction one click away."""
    if printable(x):
        shown = f"<code class='exact'>{html.escape(exact_str(x))}</code>"
    else:
        shown = (
            f"a fraction with a {digit_count(x.numerator):,}-digit numerator and a "
            f"{digit_count(x.denominator):,}-digit denominator"
        )
    summary = approximately(decimal_text(x, kind))
    return (
        f"<details class='nessus-exact'><summary title='show the exact fraction'>{summary}</summary>{shown}</details>"
    )


def number_html(x: Fraction | float | int, kind: Kind = "probability", approx: bool = False, mark: bool = True) -> str:
    """A number in all three formats (the page shows one): exact values as fractions or
    whole numbers, floats (value iteration, simulations) marked "≈" (unless not `mark`).
    `approx` treats an exact value as an approximation (a decimal, never a fraction)."""
    exact = isinstance(x, (Fraction, int)) and not approx
    if exact:
        x = Fraction(x)
        if x.denominator == 1:
            whole = f"{x.numerator:,}"
            return f"<span class='num' data-csv='{x.numerator}'><code>{whole}</code></span>"
        frac = (
            html.escape(with_decimal(x, kind)).replace(html.escape(exact_str(x)), f"<code>{exact_str(x)}</code>", 1)
            if is_short(x)
            else _exact_details(x, kind)
        )
        dec = html.escape(decimal_text(x, kind, 6))
        csv = csv_value(x)
    else:
        text = decimal_text(x, kind, 6 if approx else 4)
        frac = dec = html.escape(approximately(text) if mark else text)
        csv = csv_value(float(x))
    pct = html.escape(percent_text(x, kind))
    return (
        f"<span class='num' data-csv='{csv}'><span class='nf'>{frac}</span><span class='nd'>{dec}</span>"
        f"<span class='np'>{pct}</span></span>"
    )


def interval_html(low: float, high: float, kind: Kind = "probability") -> str:
    """A confidence interval [low, high] in the page's format."""
    return f"[{number_html(low, kind, mark=False)}, {number_html(high, kind, mark=False)}]"
