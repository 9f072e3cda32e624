"""Nessie, the game itself: the deck, the row, taking cards, sinking, reshuffling, the end.

Decisions (RULES.md part 2) and the rulebook's vague points settled here:
- The row stays between turns; the next player sinks at once if it already holds 3 of a letter
  with their own cards (the row is discarded and they pass without revealing).
- On stopping, the cards taken are a run ending at the last revealed card; they are taken one
  at a time from the last revealed backwards, each checked against the letters held so far.
- A Nessie card that cannot be kept is discarded with the taker's *lowest* treasure (if any).
- When the draw pile is empty, the discards are shuffled into a new one.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from nessus.games.nessie.odds import LETTERS, Card, Situation, is_treasure

CHAIN = tuple(zip(LETTERS, LETTERS[1:]))  # A-B, B-C, ... E-F: the summary card's chain
COMPLETE_BONUS = 10


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


@dataclass
class Game:
    """A game in progress. Moves: `reveal()`, `stop(n)` (take the last n row cards)."""

    players: int
    adjacency: tuple[tuple[str, str], ...]
    rng: np.random.Generator
    draw: list[Card]
    discard: list[Card] = field(default_factory=list)
    row: list[Card] = field(default_factory=list)
    hands: list[Hand] = field(default_factory=list)
    current: int = 0
    revealed: int = 0  # cards revealed this turn
    turns: int = 0
    finisher: int | None = None
    events: list[Event] = field(default_factory=list)
    initial: Counter = field(default_factory=Counter)

    @classmethod
    def new(
        cls,
        players: int = 3,
        rng: np.random.Generator | None = None,
        per_letter: int = 8,
        treasures: tuple[int, int, int] = (12, 12, 12),
        adjacency: tuple[tuple[str, str], ...] = CHAIN,
    ) -> Game:
        if not isinstance(players, int) or not 2 <= players <= 6:
            raise ValueError(f"players must be an integer from 2 to 6, got {players!r}")
        rng = rng if rng is not None else np.random.default_rng()
        cards = make_deck(per_letter, treasures)
        neighbours(adjacency)
        order = rng.permutation(len(cards))
        game = cls(
            players,
            adjacency,
            rng,
            [cards[i] for i in order],
            hands=[Hand() for _ in range(players)],
            initial=Counter(cards),
        )
        game._start_turn()
        return game

    # -- what everybody can see ---------------------------------------------------------
    @property
    def log(self) -> list[str]:
        """The events as sentences."""
        return [str(e) for e in self.events]

    @property
    def over(self) -> bool:
        return self.finisher is not None

    @property
    def hand(self) -> Hand:
        return self.hands[self.current]

    def all_cards(self) -> Counter:
        """Every card wherever it is (draw pile, discards, row, hands)."""
        out = Counter(self.draw) + Counter(self.discard) + Counter(self.row)
        for h in self.hands:
            out += Counter(h.cards())
        return out

    def check_conservation(self) -> None:
        """No card is ever lost or duplicated."""
        if self.all_cards() != self.initial:
            raise AssertionError(
                f"cards not conserved: {self.all_cards() - self.initial} / {self.initial - self.all_cards()}"
            )

    def situation(self, remembers_discards: bool = True) -> Situation:
        """What the current player knows: the unseen pool, the row and their letters."""
        pool = Counter(self.draw)
        if not remembers_discards:
            pool += Counter(self.discard)
        return Situation(dict(pool), tuple(self.row), frozenset(self.hand.letters))

    def scores(self) -> list[int]:
        """Treasure points, plus 10 for the player who completed Nessie."""
        return [sum(h.treasures) + (COMPLETE_BONUS if i == self.finisher else 0) for i, h in enumerate(self.hands)]

    def winners(self) -> list[int]:
        """The highest score wins; ties go to the finisher, then the win is shared."""
        scores = self.scores()
        best = [i for i, s in enumerate(scores) if s == max(scores)]
        return [self.finisher] if self.finisher in best and len(best) > 1 else best

    # -- moves --------------------------------------------------------------------------
    def reveal(self) -> Card:
        """Reveal the top card onto the row; sinking discards the row and passes the turn."""
        self._check_playing()
        if not self.draw:
            self._reshuffle()
        if not self.draw:
            raise ValueError("no card left to reveal: every card is in the row or in front of a player")
        card = self.draw.pop()
        self.row.append(card)
        self.revealed += 1
        if sunk(self.row, self.hand):
            self.events.append(Event("sink", self.current, (card,)))
            self._sink()
        else:
            self.events.append(Event("reveal", self.current, (card,)))
        return card

    def stop(self, n: int) -> list[Card]:
        """Stop and take the last n row cards (0 <= n <= len(row)); returns the cards discarded."""
        self._check_playing()
        if self.revealed == 0:
            raise ValueError("reveal at least one card before stopping")
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= len(self.row):
            raise ValueError(f"n must be an integer from 0 to {len(self.row)} (cards in the row), got {n!r}")
        taken = self.row[len(self.row) - n :][::-1]
        del self.row[len(self.row) - n :]
        self.hands[self.current], discards = take(self.hand, taken, neighbours(self.adjacency))
        self.discard += discards
        self.events.append(Event("stop", self.current, tuple(taken), tuple(discards)))
        if self.hand.complete:
            self.finisher = self.current
            return discards
        self._next_player()
        return discards

    # -- turn mechanics -----------------------------------------------------------------
    def _check_playing(self) -> None:
        if self.over:
            raise ValueError("the game is over")

    def _reshuffle(self) -> None:
        order = self.rng.permutation(len(self.discard))
        self.draw = [self.discard[i] for i in order]
        self.discard = []

    def _sink(self) -> None:
        self.discard += self.row
        self.row = []
        self._next_player()

    def _next_player(self) -> None:
        self.current = (self.current + 1) % self.players
        self.turns += 1
        self._start_turn()

    def _start_turn(self) -> None:
        self.revealed = 0
        if self.row and sunk(self.row, self.hand):
            self.events.append(Event("sink_at_start", self.current))
            self._sink()

    def snapshot(self) -> dict[str, Any]:
        """A JSON-ready view of the table."""
        return {
            "current": self.current,
            "row": list(self.row),
            "draw_pile": len(self.draw),
            "discards": len(self.discard),
            "hands": [{"treasures": h.treasures, "letters": h.letters} for h in self.hands],
            "scores": self.scores(),
            "over": self.over,
        }
