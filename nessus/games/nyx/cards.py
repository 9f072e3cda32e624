"""Nyx's cards (RULES.md part 4), loaded from `data/nyx-cards.json`: 30 dream cards ("songes":
dreams and nightmares, each a polyomino shape and points) and 30 spell cards (the symbols to
place, and an effect: "power" gains its points at every end of night from the night it is
realised on, "once" gains them once at the end of that night).

Only the rulebook's two example cards are printed there (the L-shaped dream of 4 full moons, the
spell needing a crescent and a full moon), and not even their points: every card says what is
assumed (`assumed`, `assumed_fields`).

Each card has an id: the dreams 0..29 in the file's order, the spells 30..59. With fewer than 4
players the last 6 cards of each deck per missing player are left out (the rulebook removes them
at random: here a fixed choice, so the decks' contents are not chance).

>>> len(DREAMS), len(SPELLS), len(dream_ids(2)), len(spell_ids(4))
(30, 30, 18, 30)
>>> print(CARDS[0]), print(SPELLS[0])
The Falling Stair: dream L4, 4 points
Veil of Dusk: spell crescent + moon, 1 point every night
(None, None)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from nessus import paths
from nessus.games.nyx.matrix import SHAPES, placements
from nessus.games.nyx.rules import SYMBOLS

PATH = paths.DATA / "nyx-cards.json"
MAX_PLAYERS = 4
PER_MISSING_PLAYER = 6
"""Cards of each deck left out per player fewer than 4."""
KINDS = ("dream", "nightmare")
EFFECTS = ("power", "once")


@dataclass(frozen=True)
class Card:
    """One card: a dream or nightmare (`kind`, `shape`, `points`) or a spell (`kind` "spell",
    `symbols`, `effect`, `points`)."""

    id: int
    name: str
    kind: str
    points: int
    shape: str = ""
    symbols: tuple[str, ...] = ()
    effect: str = ""
    assumed: bool = True
    assumed_fields: tuple[str, ...] = ()

    @property
    def is_spell(self) -> bool:
        return self.kind == "spell"

    @property
    def size(self) -> int:
        """The dice a dream takes (its shape's cells), or a spell takes (its symbols)."""
        return len(self.symbols) if self.is_spell else len(SHAPES[self.shape])

    def __str__(self) -> str:
        pts = f"{self.points} point{'s' if self.points != 1 else ''}"
        if self.is_spell:
            when = "every night" if self.effect == "power" else "once"
            return f"{self.name}: spell {' + '.join(self.symbols)}, {pts} {when}"
        if self.kind == "nightmare":
            return f"{self.name}: nightmare {self.shape}, -{pts} to each opponent"
        return f"{self.name}: dream {self.shape}, {pts}"


def card_value(card: Card, players: int) -> int:
    """What the bots and the heuristic count realising `card` worth, in points: its points, a
    nightmare's times the opponents (`players` - 1), a power spell's twice (it scores again later)."""
    if card.kind == "nightmare":
        return card.points * (players - 1)
    return 2 * card.points if card.effect == "power" else card.points


def _check(condition: bool, what: str) -> None:
    if not condition:
        raise ValueError(f"{PATH.name}: {what}")


def load(path: Path = PATH) -> tuple[Card, ...]:
    """Every card of the data file, dreams first (ids 0..), then spells; a ValueError for a card
    that breaks the file's rules (a shape that does not fit the empty matrix, an unknown symbol…)."""
    data = json.loads(Path(path).read_text())
    cards: list[Card] = []
    for raw in data["dreams"]:
        _check(raw["kind"] in KINDS, f"a dream's kind must be one of {KINDS}, got {raw['kind']!r}")
        _check(raw["shape"] in SHAPES and bool(placements(raw["shape"])), f"{raw['shape']!r} does not fit the matrix")
        cards.append(
            Card(
                len(cards),
                raw["name"],
                raw["kind"],
                int(raw["points"]),
                shape=raw["shape"],
                assumed=bool(raw["assumed"]),
                assumed_fields=tuple(raw.get("assumed_fields", ())),
            )
        )
    for raw in data["spells"]:
        symbols = tuple(raw["symbols"])
        _check(1 <= len(symbols) <= 3 and set(symbols) <= set(SYMBOLS), f"bad spell symbols {symbols!r}")
        _check(raw["effect"] in EFFECTS, f"a spell's effect must be one of {EFFECTS}, got {raw['effect']!r}")
        cards.append(
            Card(
                len(cards),
                raw["name"],
                "spell",
                int(raw["points"]),
                symbols=symbols,
                effect=raw["effect"],
                assumed=bool(raw["assumed"]),
                assumed_fields=tuple(raw.get("assumed_fields", ())),
            )
        )
    for c in cards:
        _check(c.points >= 0, f"{c.name}: points must be at least 0")
    return tuple(cards)


CARDS: tuple[Card, ...] = load()
"""Every card, by id."""
DREAMS: tuple[Card, ...] = tuple(c for c in CARDS if not c.is_spell)
SPELLS: tuple[Card, ...] = tuple(c for c in CARDS if c.is_spell)


def _kept(deck: tuple[Card, ...], players: int) -> tuple[int, ...]:
    if not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be an integer from 2 to {MAX_PLAYERS}, got {players!r}")
    return tuple(c.id for c in deck[: len(deck) - PER_MISSING_PLAYER * (MAX_PLAYERS - players)])


def dream_ids(players: int) -> tuple[int, ...]:
    """The ids of the dream deck for `players` players."""
    return _kept(DREAMS, players)


def spell_ids(players: int) -> tuple[int, ...]:
    """The ids of the spell deck for `players` players."""
    return _kept(SPELLS, players)
