"""Nyx's exact odds (RULES.md part 4), all as Fractions: the symbol dice, the chance of k dice
showing a symbol within r rolls keeping the matching dice, and the expected number of rolls to
get `size` dice showing one common symbol, keeping optimally.

A black die shows 3 stars, 2 crescents and 1 full moon; a white die 2 of each.

>>> p_symbol("star", "black"), p_symbol("moon", "white")
(Fraction(1, 2), Fraction(1, 3))

Four full moons on six black dice with three rolls, keeping the moons: each die shows a moon
at some roll with P 1 - (5/6)^3, independently of the others (a kept die stays a moon).

>>> p_at_least("moon", 4, dice=6, rolls=3)
Fraction(10660183412333, 50779978334208)

The rulebook's dream is an L-tetromino: four dice of one symbol, any symbol, chosen as you go.

>>> e = expected_rolls_for_shape(4, dice=6)
>>> e, round(float(e), 3)
(Fraction(9732725047, 5797973412), 1.679)

With three moons kept, a roll of two stars and a crescent: chasing stars now (two kept, four
dice to roll) takes fewer rolls on average than waiting for a fourth moon:

>>> str(keep_hint(4, rolled=(2, 1, 0), kept=("moon", 3)).best)
'keep 2 stars'

"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb, factorial, prod
from typing import cast

from nessus.dist import Dist
from nessus.solver import Hint, PolicyIteration

SYMBOLS = ("star", "crescent", "moon")
"""What a face shows."""
FACES = {"black": (3, 2, 1), "white": (2, 2, 2)}
"""The faces of each symbol (in `SYMBOLS` order) on a die of each colour."""
SIDES = 6
MAX_DICE = 15
"""The most dice a player rolls at once in these figures (9 black dice and white dice bought)."""


def check_symbol(symbol: str) -> str:
    if symbol not in SYMBOLS:
        raise ValueError(f"symbol must be one of {', '.join(SYMBOLS)}, got {symbol!r}")
    return symbol


def check_colour(colour: str) -> str:
    if colour not in FACES:
        raise ValueError(f"colour must be one of {', '.join(FACES)}, got {colour!r}")
    return colour


def _check_count(name: str, value: int, low: int, high: int) -> int:
    if not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    return value


def die(colour: str = "black") -> Dist:
    """One die of `colour`: its symbol's exact distribution."""
    return Dist(dict(zip(SYMBOLS, FACES[check_colour(colour)])))


def p_symbol(symbol: str, colour: str = "black") -> Fraction:
    """P(one die of `colour` shows `symbol`)."""
    return die(colour).prob({check_symbol(symbol)})


# --- k of a symbol within r rolls ----------------------------------------------------------------
def kept_after(symbol: str, dice: int, rolls: int, colour: str = "black") -> Dist:
    """The number of dice showing `symbol` after `rolls` rolls of `dice` dice, the matching dice
    kept and the others rolled again: a Markov chain on the count kept, each roll adding a
    binomial number of new matches among the dice still rolled."""
    _check_count("dice", dice, 1, MAX_DICE)
    _check_count("rolls", rolls, 1, 20)
    p = p_symbol(symbol, colour)
    kept = Dist.point(0)
    for _ in range(rolls):
        kept = Dist.mixture([(q, _one_roll(cast(int, m), dice, p)) for m, q in kept.items()])
    return kept


def _one_roll(kept: int, dice: int, p: Fraction) -> Dist:
    """The dice showing the symbol after one roll of the `dice` - `kept` dice not kept."""
    free = dice - kept
    return Dist({kept + new: comb(free, new) * _ways(p, new, free - new) for new in range(free + 1)})


def _ways(p: Fraction, hits: int, misses: int) -> int:
    """A binomial outcome's weight over the common denominator (p's denominator to the dice)."""
    return p.numerator**hits * (p.denominator - p.numerator) ** misses


def p_at_least(symbol: str, k: int, dice: int = 6, rolls: int = 3, colour: str = "black") -> Fraction:
    """P(at least `k` of `dice` dice of `colour` show `symbol` within `rolls` rolls, keeping the
    matching dice and rolling the others again)."""
    _check_count("k", k, 0, dice)
    return kept_after(symbol, dice, rolls, colour).prob(lambda m: m >= k)


# --- a shape of one symbol, chosen as you go -----------------------------------------------------
@dataclass(frozen=True)
class Keep:
    """Keep `count` dice showing `symbol` and roll the others (count 0: roll them all)."""

    symbol: str | None
    count: int

    def __str__(self) -> str:
        if not self.count:
            return "roll every die"
        return f"keep {self.count} {self.symbol}{'s' if self.count > 1 else ''}"


START, DONE, OVER = ("start",), ("done",), ("over",)


def _rolls_of(n: int, colour: str) -> list[tuple[tuple[int, ...], int]]:
    """Every roll of n dice of `colour` as symbol counts, with its weight over 6^n."""
    faces = FACES[colour]
    return [
        (
            (a, b, n - a - b),
            factorial(n)
            // (factorial(a) * factorial(b) * factorial(n - a - b))
            * prod(f**c for f, c in zip(faces, (a, b, n - a - b))),
        )
        for a in range(n + 1)
        for b in range(n - a + 1)
    ]


@cache
def shape_game(size: int, dice: int = 6, colour: str = "black") -> PolicyIteration:
    """The chase of `size` dice showing one common symbol with `dice` dice of `colour`, solved
    exactly: after each roll, keep some dice of one symbol (those kept before count if it is the
    same symbol; switching frees them) and roll the rest, until `size` dice show the symbol.
    States: ("rolled", symbol kept, count kept, counts rolled by symbol); after-states:
    ("kept", symbol, count), each costing one roll; the value is the expected number of rolls."""
    _check_count("dice", dice, 1, MAX_DICE)
    _check_count("size", size, 1, dice)
    check_colour(colour)

    def kept(symbol: str | None, count: int) -> tuple:
        return DONE if count >= size else ("kept", symbol if count else None, count)

    def choices(state: tuple) -> list[tuple[Keep, tuple]]:
        if state == START:
            return [(Keep(None, 0), kept(None, 0))]
        if state == OVER:
            return []
        _, held, m, rolled = state
        moves = [(Keep(None, 0), kept(None, 0))]
        for i, symbol in enumerate(SYMBOLS):
            showing = rolled[i] + (m if symbol == held else 0)
            moves += [(Keep(symbol, j), kept(symbol, j)) for j in range(1, min(showing, size) + 1)]
        return moves

    def chance(after: tuple) -> list[tuple[tuple, int]]:
        if after == DONE:
            return [(OVER, 1)]
        _, symbol, m = after
        return [(("rolled", symbol, m, counts), w) for counts, w in _rolls_of(dice - m, colour)]

    return PolicyIteration(
        [START], choices, chance, payoff=lambda s: 0, step=lambda a: 0 if a == DONE else 1, maximise=False
    )


def expected_rolls_for_shape(size: int, dice: int = 6, colour: str = "black") -> Fraction:
    """The expected number of rolls, the first rolling all `dice` dice, until `size` dice show
    one common symbol (any symbol, chosen as you go), keeping optimally (`shape_game`)."""
    return shape_game(size, dice, colour).after_value(("kept", None, 0))


def keep_hint(
    size: int, rolled: Sequence[int], kept: tuple[str, int] | None = None, dice: int = 6, colour: str = "black"
) -> Hint:
    """What to keep after a roll: every choice's exact expected number of rolls still to come
    (the best is the fewest). `rolled` counts the dice rolled by symbol (stars, crescents, moons),
    `kept` the dice kept before this roll (symbol, count)."""
    held, m = kept or (None, 0)
    if held is not None:
        check_symbol(held)
    counts = tuple(rolled)
    if len(counts) != len(SYMBOLS) or any(not isinstance(c, int) or c < 0 for c in counts):
        raise ValueError(f"rolled must count the dice showing each of {', '.join(SYMBOLS)}, got {rolled!r}")
    if sum(counts) + m != dice or m >= size:
        raise ValueError(
            f"rolled and kept must make the {dice} dice, fewer than size={size} kept, got {counts} and {m}"
        )
    return shape_game(size, dice, colour).hint(("rolled", held if m else None, m, counts))
