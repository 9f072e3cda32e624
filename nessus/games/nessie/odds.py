"""Nessie bust odds, exact, from the cards a player has not seen (RULES.md part 2).

The next cards are drawn without replacement from the *unseen pool*: every card of the game
minus the row, the cards in front of every player and the discards the player remembers.

Sinking is monotone: adding cards to the row only raises the treasure total and the letter
counts. So "not sunk after r more reveals" means exactly "the r cards revealed, as a set, are
safe", and

    P(sink within r) = 1 - (number of safe r-card subsets of the pool) / C(N, r).

The safe subsets factor by category (treasure values 1/2/3, letters A-F), so their number is a
coefficient of a product of small polynomials: exact integers, no enumeration of sequences.

`report()` gives these odds for the rules' situation (`nessus report nessie`). What a stop is
worth is exact too (`take_value`, `best_take`, `choice`): treasure points, plus `letter_value`
per Nessie card kept, by default 10/6 everywhere (the +10 for all six letters spread over them);
pass letter_value=0 to count treasure only.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from nessus.games.nessie.cards import (
    CHAIN,
    LETTERS,
    SINK_LETTER,
    SINK_TREASURE,
    TREASURE_VALUES,
    Card,
    Hand,
    Situation,
    neighbours,
    take,
)
from nessus.games.nessie.rules import NAME, Rules, situation
from nessus.report import Figure, Report

REVEALS = 12
"""The report's sink curve goes up to this many reveals."""


def _mul(a: list[int], b: list[int], top: int) -> list[int]:
    out = [0] * (top + 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b[: top + 1 - i]):
                out[i + j] += x * y
    return out


def safe_counts(s: Situation, top: int) -> list[int]:
    """[number of safe r-card subsets of the pool for r = 0..top] (a subset is safe if adding it
    to the row does not sink the player)."""
    if s.sunk():
        return [0] * (top + 1)
    poly = [1] + [0] * top
    for letter in LETTERS:
        room = SINK_LETTER - 1 - s.row.count(letter) - (letter in s.own_letters)
        n = s.pool.get(letter, 0)
        poly = _mul(poly, [comb(n, x) for x in range(min(room, n) + 1)], top)
    budget = SINK_TREASURE - 1 - s.treasure_in_row()
    n1, n2, n3 = (s.pool.get(str(v), 0) for v in TREASURE_VALUES)
    treasures = [0] * (top + 1)
    for x3 in range(min(n3, budget // 3) + 1):
        for x2 in range(min(n2, (budget - 3 * x3) // 2) + 1):
            for x1 in range(min(n1, budget - 3 * x3 - 2 * x2) + 1):
                size = x1 + x2 + x3
                if size <= top:
                    treasures[size] += comb(n1, x1) * comb(n2, x2) * comb(n3, x3)
    return _mul(poly, treasures, top)


def p_sink_within(s: Situation, k: int) -> Fraction:
    """P(sinking within k more reveals, never stopping), exact. k >= 0; capped at the pool size."""
    if not isinstance(k, int) or isinstance(k, bool) or k < 0:
        raise ValueError(f"k must be an integer >= 0, got {k!r}")
    if s.sunk():
        return Fraction(1)
    r = min(k, s.pool_size)
    return 1 - Fraction(safe_counts(s, r)[r], comb(s.pool_size, r))


def p_sink_next(s: Situation) -> Fraction:
    """P(the next reveal sinks the player), exact."""
    return p_sink_within(s, 1)


def expected_reveals_until_sink(s: Situation) -> Fraction:
    """E[the reveal on which a player who never stops sinks], exact: the sum of P(safe after r)."""
    top = s.pool_size
    counts = safe_counts(s, min(top, 40))
    if s.pool_size <= 40 and counts[-1]:
        raise ValueError("the pool can run out before sinking: the expectation is not defined")
    return sum((Fraction(c, comb(top, r)) for r, c in enumerate(counts) if c), Fraction(0))


def report(rules: Rules | None = None, state: dict | None = None) -> Report:
    """The exact figures: a fresh deck's sink-by-reveal curve, or the odds in a described state
    (`state`, a dict in the state file's format, or the rules' state file)."""
    rules = rules or Rules()
    s = situation(rules, state)
    if state is not None or rules.state:
        figures = {"p_sink_next": Figure.of(p_sink_within(s, 1), "P(the next reveal sinks)")}
        figures |= {
            f"p_sink_within_{k}": Figure.of(p_sink_within(s, k), f"P(sunk within {k} more reveals)")
            for k in range(1, REVEALS + 1)
        }
    else:
        figures = {
            f"p_sink_by_reveal_{k}": Figure.of(p_sink_within(s, k), f"P(sunk by reveal {k}), never stopping")
            for k in range(1, REVEALS + 1)
        }
        figures["expected_reveals_until_sink"] = Figure.of(
            expected_reveals_until_sink(s), "mean reveal on which one sinks"
        )
    return Report(NAME, rules.as_dict(), figures)


# -- what a stop is worth ------------------------------------------------------------------
LETTER_VALUE = Fraction(10, 6)


def take_value(
    hand: Hand, row: tuple[Card, ...], n: int, adjacency=CHAIN, letter_value: Fraction = LETTER_VALUE
) -> Fraction:
    """The value of taking the last n row cards: treasure gained minus treasure lost, plus
    letter_value per Nessie card kept."""
    after, _ = take(hand, list(row[len(row) - n :][::-1]), neighbours(adjacency))
    return Fraction(sum(after.treasures) - sum(hand.treasures)) + letter_value * (
        len(after.letters) - len(hand.letters)
    )


def best_take(
    hand: Hand, row: tuple[Card, ...], adjacency=CHAIN, letter_value: Fraction = LETTER_VALUE
) -> tuple[int, Fraction]:
    """(n, value): the run of the last n cards worth most (the shortest such run)."""
    best_n, best = 0, Fraction(0)
    for n in range(1, len(row) + 1):
        v = take_value(hand, row, n, adjacency, letter_value)
        if v > best:
            best_n, best = n, v
    return best_n, best


def _sinks(s: Situation, card: Card) -> bool:
    return Situation(s.pool, s.row + (card,), s.own_letters).sunk()


@dataclass(frozen=True)
class Choice:
    """The odds panel: P(sink next), P(sink within 3), stop now vs reveal one more and stop."""

    p_sink_next: Fraction
    p_sink_within_3: Fraction
    stop_value: Fraction
    stop_take: int
    reveal_one_value: Fraction

    @property
    def reveal(self) -> bool:
        """Does revealing one more (then stopping at the best take) beat stopping now?"""
        return self.reveal_one_value > self.stop_value


def choice(s: Situation, hand: Hand, adjacency=CHAIN, letter_value: Fraction = LETTER_VALUE) -> Choice:
    """Stop now (best take) against reveal exactly one more card and then take the best run."""
    if s.own_letters != frozenset(hand.letters):
        raise ValueError(
            f"the situation's letters {sorted(s.own_letters)} and the hand's {sorted(hand.letters)} differ"
        )
    n, stop = best_take(hand, s.row, adjacency, letter_value)
    total = s.pool_size
    reveal = Fraction(0)
    for card, count in s.pool.items():
        if count and not _sinks(s, card):
            reveal += Fraction(count, total) * best_take(hand, s.row + (card,), adjacency, letter_value)[1]
    return Choice(p_sink_within(s, 1), p_sink_within(s, 3), stop, n, reveal)
