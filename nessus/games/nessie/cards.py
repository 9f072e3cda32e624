"""Nessie's cards: the deck, a row and what sinks it, a hand and what a take keeps (RULES.md
part 2; the whole game, reshuffles and the end included, is the protocol `nessie.state.State`).

Decisions (RULES.md part 2) and the rulebook's vague points settled here:
- The row stays between turns; the next player sinks at once if it already holds 3 of a letter
  with their own cards (the row is discarded and they pass without revealing).
- On stopping, the cards taken are a run ending at the last revealed card; they are taken one
  at a time from the last revealed backwards, each checked against the letters held so far.
- A Nessie card that cannot be kept is discarded with the taker's *lowest* treasure (if any).
- When the draw pile is empty, the discards are shuffled into a new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

LETTERS = "ABCDEF"
TREASURE_VALUES = (1, 2, 3)
TREASURES = ("1", "2", "3")
SINK_TREASURE = 6
SINK_LETTER = 3

Card = str  # "A".."F" for Nessie cards, "1".."3" for treasures

CHAIN = tuple(zip(LETTERS, LETTERS[1:]))  # A-B, B-C, ... E-F: the summary card's chain


def is_treasure(card: Card) -> bool:
    return card in TREASURES


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


def make_deck(per_letter: int = 8, treasures: tuple[int, int, int] = (12, 12, 12)) -> list[Card]:
    """The cards of a game: `per_letter` of each letter A-F and the treasures of value 1, 2, 3."""
    cards = [x for x in LETTERS for _ in range(per_letter)]
    for value, n in zip(("1", "2", "3"), treasures):
        cards += [value] * n
    return cards


def neighbours(adjacency: tuple[tuple[str, str], ...]) -> dict[str, frozenset[str]]:
    """Each letter's adjacent letters."""
    out: dict[str, set[str]] = {x: set() for x in LETTERS}
    for a, b in adjacency:
        if a not in out or b not in out or a == b:
            raise ValueError(f"adjacency must pair two different letters of {LETTERS}, got {(a, b)!r}")
        out[a].add(b)
        out[b].add(a)
    return {x: frozenset(ys) for x, ys in out.items()}


@dataclass
class Hand:
    """The cards face up in front of a player: treasure values and kept Nessie letters."""

    treasures: list[int] = field(default_factory=list)
    letters: list[str] = field(default_factory=list)

    def cards(self) -> list[Card]:
        return [str(v) for v in self.treasures] + list(self.letters)

    @property
    def complete(self) -> bool:
        return len(set(self.letters)) == len(LETTERS)


def can_keep(letters: list[str], letter: str, adj: dict[str, frozenset[str]]) -> bool:
    """A Nessie card is kept if it is the first one, or adjacent to a held letter and new."""
    if not letters:
        return True
    return letter not in letters and any(letter in adj[x] for x in letters)


def take(hand: Hand, cards: list[Card], adj: dict[str, frozenset[str]]) -> tuple[Hand, list[Card]]:
    """Take `cards` in the order given (last revealed first): the new hand and the discards."""
    treasures, letters, discards = list(hand.treasures), list(hand.letters), []
    for c in cards:
        if is_treasure(c):
            treasures.append(int(c))
        elif can_keep(letters, c, adj):
            letters.append(c)
        else:
            discards.append(c)
            if treasures:
                lowest = min(treasures)
                treasures.remove(lowest)
                discards.append(str(lowest))
    return Hand(treasures, letters), discards


def sunk(row: list[Card], hand: Hand) -> bool:
    """Treasures in the row total 6 or more, or 3 of a letter among the row and the hand."""
    return Situation({}, tuple(row), frozenset(hand.letters)).sunk()
