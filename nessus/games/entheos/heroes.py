"""Entheos's heroes and gods (RULES.md part 5), loaded from `data/entheos.json`.

A hero's die has six coloured faces; the hero's card says what each colour makes the hero do
(the rulebook prints Ulysses' card: blue steals 1 point from his opponent, green steals 3,
yellow gives every hero of his side 1 point from the reserve, mauve makes the other side's
steals 1 smaller, white does nothing, red does nothing and makes the first-intervener card
skip a player). A god favours the heroes of one side: each combat point of a favourite is
worth its weight in victory points (Aphrodite: Paris 3, Aeneas 1, Hector -1).

Heroes are numbered 0..5 in the file's order: the three Achaeans, then the three Trojans.

>>> [h.name for h in HEROES], HEROES[0].faces["green"], HEROES[0].assumed
(['Ulysses', 'Achilles', 'Ajax', 'Hector', 'Paris', 'Aeneas'], 'steal3', False)
>>> print(GODS[4])
Aphrodite (trojans): Paris x3, Aeneas x1, Hector x-1
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from nessus import paths

PATH = paths.DATA / "entheos.json"
SIDES = ("achaeans", "trojans")
FACES = ("blue", "green", "yellow", "mauve", "white", "red")
"""The six colours of every hero's die, each face with probability 1/6."""
ACTIONS = ("steal1", "steal3", "rally", "guard", "rest", "falter")
"""What a face makes a hero do: steal 1 or 3 points from the opponent, rally (every hero of the
side +1 from the reserve), guard (the other side's steals 1 smaller), rest (nothing), falter
(nothing, and the first-intervener card skips one more player)."""
ACTION_WORDS = MappingProxyType(
    {"steal1": "steal 1", "steal3": "steal 3", "rally": "rally", "guard": "guard", "rest": "rest", "falter": "falter"}
)
"""Each action in words ("steal 3")."""
ACTION_HELP = MappingProxyType(
    {
        "steal1": "steals 1 point from the hero facing it",
        "steal3": "steals 3 points from the hero facing it",
        "rally": "every hero of its side gains 1 point from the reserve",
        "guard": "the other side's steals are 1 smaller",
        "rest": "does nothing",
        "falter": "does nothing, and the first-intervener card skips one more player",
    }
)
"""What each action does, in a sentence."""
HERO_ACTIONS = ("steal1", "steal3", "rally", "guard")
"""The actions a face can be set to by card 3 ("a face that leads to a hero's action")."""
STEAL = MappingProxyType({"steal1": 1, "steal3": 3})
"""Points each stealing action takes, before guards."""
START_POINTS = 6
"""Combat points each hero starts with."""


@dataclass(frozen=True)
class Hero:
    """A hero: `name`, `side` (0 Achaeans, 1 Trojans) and the action of each face colour."""

    name: str
    side: int
    faces: Mapping[str, str]
    assumed: bool = True

    def action(self, face: str) -> str:
        """The action the face of this colour makes the hero take."""
        return self.faces[face]


@dataclass(frozen=True)
class God:
    """A god: `name`, the `side` it supports (0 Achaeans, 1 Trojans) and its favourites, each
    hero's victory points per combat point."""

    name: str
    side: int
    favourites: Mapping[str, int]
    assumed: bool = True

    def __str__(self) -> str:
        weights = ", ".join(f"{hero} x{w}" for hero, w in self.favourites.items())
        return f"{self.name} ({SIDES[self.side]}): {weights}"

    def victory_points(self, points: Mapping[str, int]) -> int:
        """The victory points of heroes' combat `points` (by hero name), if this god counts."""
        return sum(w * points[hero] for hero, w in self.favourites.items())


def _load() -> tuple[tuple[Hero, ...], tuple[God, ...]]:
    data = json.loads(PATH.read_text())
    heroes = tuple(
        Hero(h["name"], SIDES.index(h["side"]), MappingProxyType(dict(h["faces"])), h["assumed"])
        for h in data["heroes"]
    )
    gods = tuple(
        God(g["name"], SIDES.index(g["side"]), MappingProxyType(dict(g["favourites"])), g["assumed"])
        for g in data["gods"]
    )
    names = {h.name: h for h in heroes}
    for hero in heroes:
        if sorted(hero.faces) != sorted(FACES) or not set(hero.faces.values()) <= set(ACTIONS):
            raise ValueError(f"{PATH.name}: hero {hero.name} needs one action of {ACTIONS} for each face of {FACES}")
    if [h.side for h in heroes] != [0, 0, 0, 1, 1, 1]:
        raise ValueError(f"{PATH.name}: three Achaean heroes, then three Trojan heroes")
    for god in gods:
        if any(names.get(hero) is None or names[hero].side != god.side for hero in god.favourites):
            raise ValueError(f"{PATH.name}: god {god.name}'s favourites must be heroes of its side")
    return heroes, gods


HEROES, GODS = _load()
HERO_NAMES = tuple(h.name for h in HEROES)
GOD_NAMES = tuple(g.name for g in GODS)
DUEL_HERO = HEROES[0]
"""The rulebook's hero (Ulysses): the face table of the isolated duel."""
