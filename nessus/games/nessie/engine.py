"""Nessie's rules: the deck, the moves, taking cards, sinking (the whole game, reshuffles and the
end included, is the protocol `nessie.State`).

Decisions (RULES.md part 2) and the rulebook's vague points settled here:
- The row stays between turns; the next player sinks at once if it already holds 3 of a letter
  with their own cards (the row is discarded and they pass without revealing).
- On stopping, the cards taken are a run ending at the last revealed card; they are taken one
  at a time from the last revealed backwards, each checked against the letters held so far.
- A Nessie card that cannot be kept is discarded with the taker's *lowest* treasure (if any).
- When the draw pile is empty, the discards are shuffled into a new one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nessus.games.nessie.odds import LETTERS, Card, Situation, is_treasure

CHAIN = tuple(zip(LETTERS, LETTERS[1:]))  # A-B, B-C, ... E-F: the summary card's chain
COMPLETE_BONUS = 10
MAX_TURNS = 3000
"""A game still unfinished after this many turns ends there (a practical bound: such games are
unknown in practice)."""
REVEAL = "reveal"
"""The move "reveal the next card onto the row"."""


@dataclass(frozen=True)
class Stop:
    """The move "stop and take the last `take` cards of the row" (0: take nothing)."""

    take: int

    def __str__(self) -> str:
        return f"stop and take {self.take}"


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


@dataclass(frozen=True)
class Event:
    """Something that happened: kind "reveal", "sink" (on a reveal), "sink_at_start" or "stop".
    `player` is the seat (0-based); `cards` the card revealed or the cards taken (last revealed
    first); `discards` what a stop discarded."""

    kind: str
    player: int
    cards: tuple[Card, ...] = ()
    discards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        who = f"player {self.player + 1}"
        if self.kind == "reveal":
            return f"{who} reveals {self.cards[0]}"
        if self.kind == "sink":
            return f"{who} reveals {self.cards[0]} and sinks"
        if self.kind == "sink_at_start":
            return f"{who} sinks at the start of the turn"
        return f"{who} stops and takes {''.join(self.cards) or 'nothing'}"


def sunk(row: list[Card], hand: Hand) -> bool:
    """Treasures in the row total 6 or more, or 3 of a letter among the row and the hand."""
    return Situation({}, tuple(row), frozenset(hand.letters)).sunk()
