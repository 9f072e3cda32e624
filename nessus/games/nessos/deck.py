"""Nessos' cards and decks (RULES.md part 3): 55 amphora cards, 40 creatures (values 1–10, four
of each) and 15 Charon; fewer for fewer players.

A card is an int: a creature's value 1..10, or `CHARON` (0). `card_text` writes it as players
do ("C" for Charon), `parse_cards` reads "C,7,7,2,10". Cards are also counted by kind (a tuple
indexed by card: `counts_of`, `cards_of`), and `points` scores the cards in front of a player.

>>> deck(3).size, deck(3).charon, deck(3).values
(39, 11, (1, 2, 3, 5, 7, 9, 10))
>>> parse_cards("C,7,7,2,10")
(0, 7, 7, 2, 10)
>>> cards_text((0, 7, 2)), card_name(0), card_name(7)
('C 7 2', 'Charon', '7')
>>> points(counts_of([1, 2, 3, 1, 10, CHARON]))  # 17, and 10 for the set {1, 2, 3}
27
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

Card = int
CHARON: Card = 0
VALUES = tuple(range(1, 11))
COPIES = 4  # of each creature value in the full deck
KINDS = 11
"""Card kinds: Charon (0) and the creature values 1..10; counts are tuples indexed by card."""
BONUS = 10
"""Points per complete set {1, 2, 3} in front."""

Counts = tuple[int, ...]


@dataclass(frozen=True)
class Deck:
    """The deck for a player count: the creature values in it (four cards each) and the Charon."""

    players: int
    values: tuple[int, ...]
    charon: int

    @property
    def size(self) -> int:
        return COPIES * len(self.values) + self.charon

    def counts(self) -> Counter[Card]:
        """How many cards of each kind the deck holds."""
        return Counter({CHARON: self.charon, **dict.fromkeys(self.values, COPIES)})

    def check(self, cards: Iterable[Card], name: str = "cards") -> None:
        """A ValueError naming `name` unless every card is in this deck, with no more copies of a
        kind than the deck holds."""
        counts, have = self.counts(), Counter(cards)
        for card, n in sorted(have.items()):
            if card not in counts:
                allowed = "C, " + ", ".join(map(str, self.values))
                raise ValueError(
                    f"{name}: {card_text(card)} is not a card of the {self.players}-player deck ({allowed})"
                )
            if n > counts[card]:
                raise ValueError(
                    f"{name}: the {self.players}-player deck holds {counts[card]} cards {card_text(card)}, not {n}"
                )


@cache
def deck(players: int) -> Deck:
    """The deck for `players` (3..6): 3 players remove the 4s, 6s and 8s and 4 Charon; 4 players
    remove the 6s and 1 Charon; 5–6 players use all 55."""
    if players == 3:
        return Deck(3, tuple(v for v in VALUES if v not in (4, 6, 8)), 11)
    if players == 4:
        return Deck(4, tuple(v for v in VALUES if v != 6), 14)
    if players in (5, 6):
        return Deck(players, VALUES, 15)
    raise ValueError(f"players must be an integer from 3 to 6, got {players!r}")


def card_text(card: Card) -> str:
    """ "C" for Charon, else the creature's value."""
    return "C" if card == CHARON else str(card)


def card_name(card: Card) -> str:
    """ "Charon", or the creature's value (a card named in a sentence or a menu)."""
    return "Charon" if card == CHARON else card_text(card)


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as players write them, space-separated ("C 7 2")."""
    return " ".join(map(card_text, cards))


def parse_cards(text: str, name: str = "cards") -> tuple[Card, ...]:
    """Cards typed as "C,7,7,2,10" ("" for none); a ValueError naming `name` for anything else."""
    cards: list[Card] = []
    for part in (p.strip() for p in text.split(",")) if text.strip() else ():
        if part.upper() == "C":
            cards.append(CHARON)
        elif part.isdigit() and 1 <= int(part) <= 10:
            cards.append(int(part))
        else:
            raise ValueError(
                f"{name} must be cards separated by commas, each C (Charon) or a value 1 to 10, got {part!r}"
            )
    return tuple(cards)


TARGETS = {3: 40, 4: 40, 5: 35, 6: 30}
"""The points that win, by player count."""


def counts_of(cards: Iterable[Card]) -> Counts:
    """Cards as counts by kind (index = card)."""
    out = [0] * KINDS
    for c in cards:
        out[c] += 1
    return tuple(out)


def cards_of(counts: Sequence[int]) -> tuple[Card, ...]:
    """Counts by kind as a sorted tuple of cards (Charon first)."""
    return tuple(c for c, n in enumerate(counts) for _ in range(n))


def points(front: Sequence[int]) -> int:
    """Points of the cards in front of a player (counts by kind): the creature values plus 10 per
    complete set {1, 2, 3}."""
    return sum(v * front[v] for v in range(1, KINDS)) + BONUS * min(front[1], front[2], front[3])
