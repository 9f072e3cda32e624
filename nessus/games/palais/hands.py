"""Le Palais' hands: the nine categories, best last in `HANDS`, and how two hands compare.

Hands, best first: palais (five of a kind), tour (four), manoir (three and a pair), grande
suite (1-2-3-4-5 or 2-3-4-5-6), trident (three), suite (four in sequence), deux paires, paire,
faillite. A roll's hand is the best category it qualifies for; under tie-break A equal
categories are ordered by their dice (`tie_key`), under B they are equal.

>>> category((2, 2, 5, 5, 5)), NAMES["deux_paires"], hand_text((2, 5, 5, 5, 2))
('manoir', 'Deux paires', '5 5 5 2 2')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import cache

import numpy as np

from nessus.dice import Roll
from nessus.games.palais.keep import DICE, layout

HANDS = ("faillite", "paire", "deux_paires", "suite", "trident", "grande_suite", "manoir", "tour", "palais")
BEST_FIRST = HANDS[::-1]
RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
NAMES = {h: h.replace("_", " ").capitalize() for h in HANDS}
"""Each category in words ("Grande suite"), as a page shows it."""


def category(hand: Sequence[int]) -> str:
    """The best category five dice qualify for (a name from HANDS)."""
    counts = sorted(Counter(hand).values(), reverse=True)
    faces = set(hand)
    if counts[0] == 5:
        return "palais"
    if counts[0] == 4:
        return "tour"
    if counts[:2] == [3, 2]:
        return "manoir"
    if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}):
        return "grande_suite"
    if counts[0] == 3:
        return "trident"
    if any(run <= faces for run in RUNS):
        return "suite"
    if counts[:2] == [2, 2]:
        return "deux_paires"
    if counts[0] == 2:
        return "paire"
    return "faillite"


def rank(hand: Sequence[int]) -> int:
    """The category's rank: 0 (faillite) to 8 (palais)."""
    return HANDS.index(category(hand))


def tie_key(hand: Sequence[int]) -> tuple[int, ...]:
    """Variant A's order: the rank, then the dice that make the category, then the rest, highest
    first (a suite: its run, then the odd die). Distinct hands have distinct keys."""
    cat = category(hand)
    counts = Counter(hand)
    if cat == "suite":
        run = next(r for r in reversed(RUNS) if r <= set(hand))
        rest = list(hand)
        for f in run:
            rest.remove(f)
        return (HANDS.index(cat), *sorted(run, reverse=True), *rest)
    faces = sorted(counts, key=lambda f: (counts[f], f), reverse=True)
    return (HANDS.index(cat), *(f for f in faces for _ in range(counts[f])))


def strength(hand: Sequence[int], tie_break: str = "A") -> tuple[int, ...]:
    """What two hands are compared by: the full key (variant A) or the rank alone (variant B)."""
    return tie_key(hand) if tie_break == "A" else (rank(hand),)


@cache
def strength_classes(tie_break: str = "A") -> tuple[tuple[tuple[int, ...], ...], np.ndarray]:
    """The distinct strengths, weakest first, and each hand's class index (hands in `layout` order)."""
    hands = layout(DICE, False).hands
    keys = sorted({strength(h, tie_break) for h in hands})
    index = {k: i for i, k in enumerate(keys)}
    return tuple(keys), np.array([index[strength(h, tie_break)] for h in hands], dtype=np.int16)


def strongest(hands: Sequence[Roll], tie_break: str = "A") -> list[int]:
    """The places of the strongest hands (more than one: a tie)."""
    key = [strength(h, tie_break) for h in hands]
    return [i for i, k in enumerate(key) if k == max(key)]


def reading_order(hand: Sequence[int]) -> list[int]:
    """Five dice as a player reads them: the most common faces first, highest first (5 5 5 5 2)."""
    counts = Counter(hand)
    return sorted(hand, key=lambda f: (counts[f], f), reverse=True)


def hand_text(hand: Sequence[int]) -> str:
    """The dice in reading order, as text ("5 5 5 5 2")."""
    return " ".join(map(str, reading_order(hand)))


def parse_hand(text: str, example: str = "3 3 3 2 2") -> Roll:
    """Five dice typed as "3 3 3 2 2" (spaces or commas), sorted; or a ValueError saying how to type them.

    >>> parse_hand("6, 1 6 6 6")
    (1, 6, 6, 6, 6)
    """
    words = [w for w in re.split(r"[\s,;]+", text.strip()) if w]
    if len(words) != DICE or not all(w.isdigit() and 1 <= int(w) <= 6 for w in words):
        raise ValueError(f"hand to beat: type five dice from 1 to 6, e.g. {example} (got {text!r})")
    return tuple(sorted(int(w) for w in words))
