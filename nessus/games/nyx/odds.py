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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb, factorial, prod
from typing import cast

from nessus.dist import Dist
from nessus.games.nyx.matrix import placements
from nessus.games.nyx.rules import FACES, MAX_BLACK, MAX_DICE, NAME, SYMBOLS, Rules
from nessus.report import Figure, Report
from nessus.solver import Expectimax, Hint, PolicyIteration


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


@cache
def p_within(symbol: str, need: int, black: int, white: int, rolls: int) -> Fraction:
    """P(at least `need` of `black` black and `white` white dice show `symbol` within `rolls`
    rolls, keeping the matching dice (`kept_after` for each colour)."""
    if need <= 0:
        return Fraction(1)
    if need > black + white:
        return Fraction(0)
    b = {int(k): p for k, p in kept_after(symbol, black, rolls, "black").items()} if black else {0: Fraction(1)}  # type: ignore[call-overload]
    w = {int(k): p for k, p in kept_after(symbol, white, rolls, "white").items()} if white else {0: Fraction(1)}  # type: ignore[call-overload]
    return sum(
        (Fraction(pb) * Fraction(pw) for x, pb in b.items() for y, pw in w.items() if x + y >= need), Fraction(0)
    )


# --- a shape of one symbol, chosen as you go -----------------------------------------------------
@dataclass(frozen=True)
class Keep:
    """Keep `count` dice showing `symbol`, `white` of them white dice, and roll the others
    (count 0: roll them all)."""

    symbol: str | None
    count: int
    white: int = 0

    def __str__(self) -> str:
        if not self.count:
            return "roll every die"
        colours = f" ({self.white} white)" if self.white and self.white < self.count else " white" if self.white else ""
        return f"keep {self.count}{colours} {self.symbol}{'s' if self.count > 1 else ''}"


START, DONE, FAILED, OVER = ("start",), ("done",), ("failed",), ("over",)
Counts = tuple[int, int, int]


@cache
def colour_rolls(n: int, colour: str) -> tuple[tuple[Counts, int], ...]:
    """Every roll of n dice of `colour` as symbol counts, with its weight over 6^n."""
    faces = FACES[colour]
    return tuple(
        (
            (a, b, n - a - b),
            factorial(n)
            // (factorial(a) * factorial(b) * factorial(n - a - b))
            * prod(f**c for f, c in zip(faces, (a, b, n - a - b))),
        )
        for a in range(n + 1)
        for b in range(n - a + 1)
    )


def _chase(size: int, black: int, white: int, rolls: int | None) -> tuple[Callable, Callable]:
    """The chase of `size` dice showing one common symbol with `black` and `white` dice: after
    each roll, keep some dice of one symbol (the dice kept before count if it is the same
    symbol; switching frees them) and roll the rest. States: ("rolled", symbol kept, black kept,
    white kept, black rolled, white rolled, rolls left); after-states: ("kept", symbol, black
    kept, white kept, rolls left) — rolls left None when unlimited — DONE, or FAILED when
    the last roll allowed did not do it. Returns (choices, chance)."""
    _check_count("dice", black + white, 1, MAX_DICE)
    _check_count("size", size, 1, black + white)

    def kept(symbol: str | None, b: int, w: int, left: int | None) -> tuple:
        if b + w >= size:
            return DONE
        if left == 0:
            return FAILED
        return ("kept", symbol if b + w else None, b, w, None if left is None else left - 1)

    def choices(state: tuple) -> list[tuple[Keep, tuple]]:
        if state == START:
            return [(Keep(None, 0), ("kept", None, 0, 0, None if rolls is None else rolls - 1))]
        if state in (OVER, FAILED):
            return []
        _, held, kb, kw, rb, rw, left = state
        moves = [(Keep(None, 0), kept(None, 0, 0, left))]
        for i, symbol in enumerate(SYMBOLS):
            mine = symbol == held
            showing_b, showing_w = rb[i] + (kb if mine else 0), rw[i] + (kw if mine else 0)
            for w in range(showing_w + 1):
                for b in range(showing_b + 1):
                    if 0 < b + w <= size:
                        moves.append((Keep(symbol, b + w, w), kept(symbol, b, w, left)))
        return moves

    def chance(after: tuple) -> list[tuple[tuple, int]]:
        if after in (DONE, FAILED):
            return [(OVER if after == DONE else FAILED, 1)]
        _, symbol, b, w, left = after
        return [
            (("rolled", symbol, b, w, cb, cw, left), wb * ww)
            for cb, wb in colour_rolls(black - b, "black")
            for cw, ww in colour_rolls(white - w, "white")
        ]

    return choices, chance


def _dice(dice: int, colour: str) -> tuple[int, int]:
    """(black, white) dice for `dice` dice of `colour`."""
    return (dice, 0) if check_colour(colour) == "black" else (0, dice)


@cache
def shape_game(size: int, black: int = 6, white: int = 0) -> PolicyIteration:
    """The chase (see `_chase`) with no limit on the rolls, solved exactly by policy iteration:
    every after-state's value is the expected number of rolls still to come."""
    choices, chance = _chase(size, black, white, None)
    return PolicyIteration(
        [START], choices, chance, payoff=lambda s: 0, step=lambda a: 0 if a == DONE else 1, maximise=False
    )


@cache
def shape_within(size: int, black: int, white: int, rolls: int) -> Expectimax:
    """The chase (see `_chase`) within `rolls` rolls, solved exactly by expectimax: every
    state's value is the probability of getting there, keeping to maximise it."""
    _check_count("rolls", rolls, 1, 20)
    choices, chance = _chase(size, black, white, rolls)
    return Expectimax(choices, chance, payoff=lambda s: int(s == OVER))


def expected_rolls_for_shape(size: int, dice: int = 6, colour: str = "black", white: int = 0) -> Fraction:
    """The expected number of rolls, the first rolling all the dice, until `size` dice show one
    common symbol (any symbol, chosen as you go), keeping optimally: `dice` dice of `colour`,
    and `white` white dice besides (`shape_game`)."""
    black, whites = _dice(dice, colour)
    return shape_game(size, black, whites + white).after_value(("kept", None, 0, 0, None))


def p_shape_within(size: int, rolls: int, black: int = 6, white: int = 0) -> Fraction:
    """P(`size` dice show one common symbol within `rolls` rolls, the first rolling every die),
    keeping to make it most likely, with `black` and `white` dice (`shape_within`)."""
    return Fraction(shape_within(size, black, white, rolls).value(START))


def keep_hint(
    size: int, rolled: Sequence[int], kept: tuple[str, int] | None = None, dice: int = 6, colour: str = "black"
) -> Hint:
    """What to keep after a roll: every choice's exact expected number of rolls still to come
    (the best is the fewest). `rolled` counts the dice rolled by symbol (stars, crescents, moons),
    `kept` the dice kept before this roll (symbol, count); all the dice of `colour`."""
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
    black, white = _dice(dice, colour)
    none: Counts = (0, 0, 0)
    held = held if m else None
    state: tuple
    if black:
        state = ("rolled", held, m, 0, counts, none, None)
    else:
        state = ("rolled", held, 0, m, none, counts, None)
    return shape_game(size, black, white).hint(state)


# --- the report ---------------------------------------------------------------------------------
def report(rules: Rules | None = None) -> Report:
    """The exact figures.

    `nessus report nyx` gives, exactly:
    - `p_at_least`: P(at least `k` of `dice` dice of `colour` show `symbol` within `rolls` rolls,
      keeping the matching dice);
    - `placements`: the placements of `shape` on the empty matrix (rotations and flips, as distinct
      cell sets), and with `blocked` cells `placements_free`;
    - `expected_rolls_for_shape`: the expected rolls, the first rolling every die, until `size` dice
      (default: the shape's) show one common symbol, any symbol chosen as you go, keeping optimally;
      `p_shape_within`: the chance of it within `rolls` rolls;
    - black vs white: `black_die_gain` and `white_die_gain`, what one more die of each colour adds
      to `p_shape_within` — a night's worth — and over the rest of the game `black_die_value` (the
      gain on each of the `nights` nights left: a black die is kept) and `white_die_value` (one
      night: a white die serves the night after it is bought, then goes back). The stated model:
      each night a player chases one dream of the shape's size, `rolls` rolls to get it, so a gain
      in its probability is extra dreams realised; the price (a star for a white die, a star, a
      crescent and a moon for a black one) is left to the player.
    """
    rules = rules or Rules()
    size = rules.chase_size
    black, white = rules.black_white
    within = p_shape_within(size, rules.rolls, black, white)
    figures = {
        "p_at_least": Figure.of(
            p_at_least(rules.symbol, rules.k, rules.dice, rules.rolls, rules.colour),
            f"P(at least {rules.k} of {rules.dice} {rules.colour} dice show a {rules.symbol} within {rules.rolls} "
            "rolls, keeping the matching dice)",
        ),
        "placements": Figure.of(len(placements(rules.shape)), f"placements of {rules.shape} on the empty matrix"),
    }
    if rules.blocked_cells:
        figures["placements_free"] = Figure.of(
            len(placements(rules.shape, rules.blocked_cells)),
            f"placements of {rules.shape} avoiding cells {rules.blocked}",
        )
    figures["expected_rolls_for_shape"] = Figure.of(
        expected_rolls_for_shape(size, rules.dice, rules.colour),
        f"expected rolls until {size} dice show one common symbol, keeping optimally",
    )
    figures["p_shape_within"] = Figure.of(
        within, f"P({size} dice of one common symbol within {rules.rolls} rolls), keeping to make it most likely"
    )
    for colour, more in dice_bought(*rules.black_white).items():
        gain = p_shape_within(size, rules.rolls, *more) - within
        figures[f"{colour}_die_gain"] = Figure.of(gain, f"what one more {colour} die adds to p_shape_within in a night")
        nights = rules.nights if colour == "black" else 1
        figures[f"{colour}_die_value"] = Figure.of(
            nights * gain,
            f"extra dreams a {colour} die bought now realises over the game: "
            + (
                f"its gain on each of the {nights} nights left (it is kept)"
                if colour == "black"
                else "one night's gain (it is returned)"
            ),
        )
    return Report(NAME, rules.as_dict(), figures)


def dice_bought(black: int, white: int) -> dict[str, tuple[int, int]]:
    """The (black, white) dice with one more die of each colour that can be bought, from `black`
    and `white` dice: a black die while a player holds fewer than 9 (RULES.md), a white die while
    the dice stay under 15.

    >>> dice_bought(6, 0), dice_bought(9, 0), dice_bought(9, 6)
    ({'black': (7, 0), 'white': (6, 1)}, {'white': (9, 1)}, {})
    """
    out = {}
    if black < MAX_BLACK and black + white < MAX_DICE:
        out["black"] = (black + 1, white)
    if black + white < MAX_DICE:
        out["white"] = (black, white + 1)
    return out
