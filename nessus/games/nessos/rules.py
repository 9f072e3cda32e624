"""Nessos' parameters: the game's own (`Rules`: players, target, rounds, hand size: what a
`State` plays by) and the command line's (`Setup`: the game's, a question about one position
that `report` answers — the receiver's `hand`, the cards `seen`, the value `announced`, the
`sender` model and its `bluff` — and the `bots` seated for `simulate`).

>>> setup = Setup(players=3, hand="C,7", announced=7)
>>> setup.rules, setup.hand_cards
(Rules(players=3, target=0, rounds=0, hand_size=5), (0, 7))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from nessus.games.nessos.deck import TARGETS, Card, Deck, deck, parse_cards
from nessus.rules import GameRules, Param, field, seat_names

NAME = "nessos"

PLAYERS = Param("players", 4, 3, 6, "players at the table (the deck depends on it)")
TARGET = Param("target", 0, 0, 200, "points that win; 0 = the rulebook's for the player count (40, 40, 35, 30)")
ROUNDS = Param(
    "rounds", 0, 0, 1000, "rounds played at most (0: to the end); a game cut short ends as at 9 Charon (reduced games)"
)
HAND_SIZE = Param("hand_size", 5, 1, 10, "cards dealt to each player, and refilled to")
HAND = Param(
    "hand", "", 0, 60, "the receiver's own hand, e.g. C,7,7,2,10 (C = Charon); empty: no offer to judge", kind=str
)
ANNOUNCED = Param("announced", 0, 0, 10, "the value announced for the offered card (0: no offer)")
SEEN = Param("seen", "", 0, 400, "every face-up card the receiver can see, e.g. 3,C,10", kind=str)
SENDER = Param(
    "sender", "naive", 0, 0, "the model of the sender: naive or bluffer", kind=str, choices=("naive", "bluffer")
)
BOT_NAMES = ("naive", "bluffer", "bayes", "random_legal")
TOP_VALUES = 3
"""A bluffer announces its Charon as one of the deck's this many highest values."""
ELIMINATIONS_AT = 3
"""Charon in front of a player that eliminate them."""
NINE = 9
"""Charon face up in all that end the game."""
ENDS = ("target", "elimination", "nine_charon", "no_cards", "round_limit")
"""How a game ends (`State.ended`): a player reaches the target, an elimination leaves one player, 9 Charon
are face up, no player still in holds a card, or (a reduced game) the round limit is reached."""
BOTS = Param(
    "bots",
    "bayes,naive",
    1,
    200,
    "the bots at the table in `nessus simulate`, comma-separated, seat by seat, repeated round the table "
    "(naive, bluffer, bayes, random_legal)",
    kind=str,
)
BLUFF = Param("bluff", Fraction(1, 2), 0, 1, "a bluffer's chance of offering a Charon when it holds one", kind=Fraction)


@dataclass(frozen=True)
class Rules(GameRules):
    """The game's own parameters: what a `State` plays by."""

    params = (PLAYERS, TARGET, ROUNDS, HAND_SIZE)
    players: int = field(PLAYERS)
    target: int = field(TARGET)
    rounds: int = field(ROUNDS)
    hand_size: int = field(HAND_SIZE)

    def validate(self) -> None:
        d = self.deck
        if self.hand_size * self.players > d.size:
            raise ValueError(
                f"hand_size must leave a deal possible: {self.players} hands of {self.hand_size} exceed the {d.size} "
                "cards"
            )

    @property
    def deck(self) -> Deck:
        return deck(self.players)

    @property
    def goal(self) -> int:
        """The points that win: `target`, or the rulebook's for the player count."""
        return self.target or TARGETS[self.players]


@dataclass(frozen=True)
class Setup(GameRules):
    """Every parameter the command line sets (`--set`): the game's `rules`, the question about a
    position that `report` answers (`odds.Question.of`) and the bots `simulate` seats
    (`seat_bots`)."""

    params = (PLAYERS, TARGET, ROUNDS, HAND_SIZE, HAND, ANNOUNCED, SEEN, SENDER, BLUFF, BOTS)
    players: int = field(PLAYERS)
    target: int = field(TARGET)
    rounds: int = field(ROUNDS)
    hand_size: int = field(HAND_SIZE)
    hand: str = field(HAND)
    announced: int = field(ANNOUNCED)
    seen: str = field(SEEN)
    sender: str = field(SENDER)
    bluff: Fraction = field(BLUFF)
    bots: str = field(BOTS)

    def validate(self) -> None:
        d = deck(self.players)
        hand, seen = self.hand_cards, self.seen_cards
        if len(hand) > self.hand_size:
            raise ValueError(f"hand holds at most {self.hand_size} cards (hand_size), got {len(hand)}")
        d.check(hand, "hand")
        d.check(seen, "seen")
        d.check(hand + seen, "hand and seen together")
        if self.announced and self.announced not in d.values:
            allowed = ", ".join(map(str, d.values))
            raise ValueError(
                f"announced must be a creature value of the {self.players}-player deck ({allowed}), got "
                f"{self.announced}"
            )
        self.seat_bots  # noqa: B018 (a ValueError naming `bots` for an unknown bot)
        self.rules  # noqa: B018 (a ValueError for a deal that is not possible)

    @property
    def rules(self) -> Rules:
        """The game's own parameters."""
        return Rules(self.players, self.target, self.rounds, self.hand_size)

    @property
    def seat_bots(self) -> tuple[str, ...]:
        """The bot at each seat: `bots` repeated round the table."""
        return seat_names(self.bots, self.players, BOT_NAMES)

    @property
    def hand_cards(self) -> tuple[Card, ...]:
        return parse_cards(self.hand, "hand")

    @property
    def seen_cards(self) -> tuple[Card, ...]:
        return parse_cards(self.seen, "seen")
