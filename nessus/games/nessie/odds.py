"""Nessie bust odds, exact, from the cards a player has not seen (RULES.md part 2).

The next cards are drawn without replacement from the *unseen pool*: every card of the game
minus the row, the cards in front of every player and the discards the player remembers.

Sinking is monotone: adding cards to the row only raises the treasure total and the letter
counts. So "not sunk after r more reveals" means exactly "the r cards revealed, as a set, are
safe", and

    P(sink within r) = 1 - (number of safe r-card subsets of the pool) / C(N, r).

The safe subsets factor by category (treasure values 1/2/3, letters A-F), so their number is a
coefficient of a product of small polynomials: exact integers, no enumeration of sequences.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb

LETTERS = "ABCDEF"
TREASURE_VALUES = (1, 2, 3)
SINK_TREASURE = 6
SINK_LETTER = 3

Card = str  # "A".."F" for Nessie cards, "1".."3" for treasures


def is_treasure(card: Card) -> bool:
    return card in ("1", "2", "3")


@dataclass(frozen=True)
class Situation:
    """What sinking depends on: the unseen pool, the row, and the letters the player owns."""

    pool: Mapping[Card, int]
    row: tuple[Card, ...]
    own_letters: frozenset[str]

    @property
    def pool_size(self) -> int:
        return sum(self.pool.values())

    def treasure_in_row(self) -> int:
        return sum(int(c) for c in self.row if is_treasure(c))

    def sunk(self) -> bool:
        """Sunk already: treasure total >= 6 or three of a letter among own cards and row."""
        return self.treasure_in_row() >= SINK_TREASURE or any(
            self.row.count(x) + (x in self.own_letters) >= SINK_LETTER for x in LETTERS
        )


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
