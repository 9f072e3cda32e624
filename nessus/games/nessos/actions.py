"""Nessos' moves (RULES.md part 3), as the game protocol's actions: a card drawn (chance), an
offer, a pass (a card added and the cards passed on), an answer (accept or refuse); and a card
of the round's chain as the engine keeps it (`Offered`)."""

from __future__ import annotations

from dataclasses import dataclass

from nessus.games.nessos.deck import Card, card_text


@dataclass(frozen=True)
class Draw:
    """A chance outcome: the next card drawn from the pile is `card` (it goes to `State.drawer`)."""

    card: Card

    def __str__(self) -> str:
        return f"draw {card_text(self.card)}"


@dataclass(frozen=True)
class Offer:
    """The first player offers a card of kind `card` face down to seat `to`, announcing `announced`."""

    card: Card
    to: int
    announced: int

    def __str__(self) -> str:
        return f"offer {card_text(self.card)} to player {self.to + 1} as {self.announced}"


@dataclass(frozen=True)
class Pass:
    """The receiver adds a card of kind `card` and passes all the cards to seat `to`, announcing
    `announced` for the added one."""

    card: Card
    to: int
    announced: int

    def __str__(self) -> str:
        return f"add {card_text(self.card)} and pass to player {self.to + 1} as {self.announced}"


@dataclass(frozen=True)
class Answer:
    """The receiver accepts (`accept`) or refuses the cards offered, without looking."""

    accept: bool

    def __str__(self) -> str:
        return "accept" if self.accept else "refuse"


ACCEPT, REFUSE = Answer(True), Answer(False)


@dataclass(frozen=True)
class Offered:
    """One card of the round's chain: its face (hidden from all but `sender`), the value announced,
    who offered it and to whom."""

    card: Card
    announced: int
    sender: int
    receiver: int
