"""Nessie: reveal cards onto a row and stop before the boat sinks (RULES.md part 2).

`nessus report nessie` gives, for a fresh deck, an empty row and no cards in front of the
player who never stops: `p_sink_by_reveal_<k>` (sunk by the k-th reveal) for k = 1..12 and
`expected_reveals_until_sink` (the reveal that sinks counts).

`--set state=FILE.json` describes any state instead and gives `p_sink_next` and
`p_sink_within_<k>`. The file (every key optional; cards are "1", "2", "3" or "A".."F", and a
treasure card may be written as the number 1, 2 or 3):

    {"row": ["2", "A", "3"],                        # the face-up row, first revealed first
     "own": {"letters": ["A", "B"], "treasures": [3, 1]},  # the player's cards
     "others": [{"letters": ["C"], "treasures": [2]}],     # everyone else's cards
     "discards_seen": ["D", "1"]}                   # discards the player remembers

The unseen pool is the whole deck minus all of those; the next cards are drawn from it
without replacement (a reshuffle of unremembered discards is part of the pool already).
A state that cannot happen is a ValueError saying why: more cards of a kind than the deck
holds, a row that has already sunk, letters a player could not have kept, more players than
`players`.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from nessus import montecarlo
from nessus.games.nessie.engine import CHAIN, can_keep, make_deck, neighbours
from nessus.games.nessie.odds import LETTERS, SINK_LETTER, SINK_TREASURE, Situation, p_sink_within, safe_counts
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field

if TYPE_CHECKING:
    import polars as pl

NAME = "nessie"
TITLE = "Nessie"
SUMMARY = "Reveal cards and stop before you sink: exact bust odds in any state."
REVEALS = 12

PLAYERS = Param("players", 3, 2, 6, "players at the table")
ONES = Param("ones", 12, 0, 36, "treasure cards of value 1")
TWOS = Param("twos", 12, 0, 36, "treasure cards of value 2")
THREES = Param("threes", 12, 0, 36, "treasure cards of value 3")
PER_LETTER = Param("per_letter", 8, 1, 16, "Nessie cards of each letter A-F")
STATE = Param("state", "", 0, 4096, "a JSON file describing a state (see nessus.games.nessie)", kind=str)


@dataclass(frozen=True)
class Rules(GameRules):
    params = (PLAYERS, ONES, TWOS, THREES, PER_LETTER, STATE)
    players: int = field(PLAYERS)
    ones: int = field(ONES)
    twos: int = field(TWOS)
    threes: int = field(THREES)
    per_letter: int = field(PER_LETTER)
    state: str = field(STATE)

    def validate(self) -> None:
        if self.state:
            situation(self)  # a bad file is a clear error when the rules are made

    def deck(self) -> list[str]:
        return make_deck(self.per_letter, (self.ones, self.twos, self.threes))


TREASURES = ("1", "2", "3")
_KINDS = {
    "card": ('a card: "1", "2", "3" (or the numbers 1, 2, 3) or "A".."F"', TREASURES + tuple(LETTERS)),
    "letter": ('a letter "A".."F"', tuple(LETTERS)),
    "treasure": ('a treasure: "1", "2", "3" or the numbers 1, 2, 3', TREASURES),
}


def _shown(value: object) -> str:
    """A value as the state file writes it (JSON), cut to 60 characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _cards(value: object, what: str, kind: str = "card") -> list[str]:
    """The cards listed under `what`, as strings; a treasure may be written as the number 1, 2 or 3."""
    described, allowed = _KINDS[kind]
    if not isinstance(value, list):
        raise ValueError(f"state: {what} must be a list, each item {described}; got {_shown(value)}")
    cards = []
    for i, c in enumerate(value):
        card = str(c) if isinstance(c, int) and not isinstance(c, bool) else c
        if not isinstance(card, str) or card not in allowed:
            raise ValueError(f"state: {what}[{i}] must be {described}; got {_shown(c)}")
        cards.append(card)
    return cards


def _keepable(letters: list[str]) -> bool:
    """Whether a player can hold these letters: kept one at a time, each as `nessie.engine.can_keep`
    allows (the first any, then one adjacent on the chain A-B-C-D-E-F to a letter held, and new)."""
    adjacent, held, rest = neighbours(CHAIN), [], list(letters)
    while rest:
        kept = next((x for x in rest if can_keep(held, x, adjacent)), None)
        if kept is None:
            return False
        held.append(kept)
        rest.remove(kept)
    return True


def _player(value: object, what: str) -> tuple[list[str], list[str]]:
    """A player's (letters, treasures), checked: letters they could have kept, treasures 1..3."""
    if not isinstance(value, dict) or set(value) - {"letters", "treasures"}:
        raise ValueError(f"state: {what} must be {{\"letters\": [...], \"treasures\": [...]}}, got {_shown(value)}")
    letters = _cards(value.get("letters", []), f"{what} letters", "letter")
    treasures = _cards(value.get("treasures", []), f"{what} treasures", "treasure")
    twice = sorted(x for x, n in Counter(letters).items() if n > 1)
    if twice:
        raise ValueError(f"state: {what} holds the letter \"{twice[0]}\" {Counter(letters)[twice[0]]} times; "
                         "a player keeps at most one card of each letter")
    if len(letters) == len(LETTERS):
        raise ValueError(f"state: {what} holds all six letters, so the game is over")
    if not _keepable(letters):
        raise ValueError(f"state: {what} holds the letters {', '.join(sorted(letters))}, which cannot be kept "
                         "together: a Nessie card is kept only if its letter is next to one already held "
                         "(A-B-C-D-E-F)")
    return letters, treasures


def _sunk_reason(row: list[str], own_letters: list[str]) -> str:
    """Why a row is already sunk (nessie.odds.Situation.sunk), as the error message says it."""
    treasure = Situation({}, tuple(row), frozenset()).treasure_in_row()
    if treasure >= SINK_TREASURE:
        return (f"the row's treasures total {treasure}; a row reaching {SINK_TREASURE} sinks the boat at once "
                "and is discarded")
    x = next(x for x in LETTERS if row.count(x) + (x in own_letters) >= SINK_LETTER)
    if row.count(x) >= SINK_LETTER:
        return (f"the row holds {row.count(x)} cards \"{x}\"; revealing the last of them sank the boat and the row "
                "was discarded")
    return (f"the row's {row.count(x)} cards \"{x}\" and your own \"{x}\" make {SINK_LETTER}: you sink at the start "
            "of your turn and the row is discarded")


def situation(rules: Rules) -> Situation:
    """The player's situation described by the rules' state file (a fresh deck without one)."""
    if not rules.state:
        return Situation(dict(Counter(rules.deck())), (), frozenset())
    try:
        data = json.loads(Path(rules.state).read_text())
    except OSError as e:
        raise ValueError(f"state: cannot read {rules.state!r} ({e.strerror})") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"state: {rules.state!r} is not JSON ({e.msg} at line {e.lineno})") from None
    return situation_from_dict(data, rules)


def situation_from_dict(data: object, rules: Rules | None = None) -> Situation:
    """The situation a state (in the file format above, as a dict) describes, for these rules."""
    rules = rules or Rules()
    if not isinstance(data, dict) or set(data) - {"row", "own", "others", "discards_seen"}:
        raise ValueError("state: the file must hold an object with keys row, own, others, discards_seen")
    row = _cards(data.get("row", []), "row")
    own_letters, own_treasures = _player(data.get("own", {}), "own")
    discards = _cards(data.get("discards_seen", []), "discards_seen")
    seen = Counter(row) + Counter(own_letters) + Counter(own_treasures) + Counter(discards)
    others = data.get("others", [])
    if not isinstance(others, list):
        raise ValueError(f"state: others must be a list of players, got {_shown(others)}")
    if len(others) > rules.players - 1:
        raise ValueError(f"state: others lists {len(others)} players, but with players={rules.players} "
                         f"there are only {rules.players - 1} others")
    for i, other in enumerate(others):
        letters, treasures = _player(other, f"others[{i}]")
        seen += Counter(letters) + Counter(treasures)
    deck = Counter(rules.deck())
    param = {x: f"per_letter={rules.per_letter}" for x in LETTERS} | {
        "1": f"ones={rules.ones}", "2": f"twos={rules.twos}", "3": f"threes={rules.threes}"}
    over = [f"the deck holds {deck[c]} cards \"{c}\" ({param[c]}) but the state shows {seen[c]}"
            for c in (*TREASURES, *LETTERS) if seen[c] > deck[c]]
    if over:
        raise ValueError("state: " + "; ".join(over))
    if Situation({}, tuple(row), frozenset(own_letters)).sunk():
        raise ValueError(f"state: the row has already sunk: {_sunk_reason(row, own_letters)}")
    pool = deck - seen
    return Situation({c: n for c, n in pool.items() if n}, tuple(row), frozenset(own_letters))


def expected_reveals_until_sink(s: Situation) -> Fraction:
    """E[the reveal on which a player who never stops sinks], exact: the sum of P(safe after r)."""
    top = s.pool_size
    counts = safe_counts(s, min(top, 40))
    if s.pool_size <= 40 and counts[-1]:
        raise ValueError("the pool can run out before sinking: the expectation is not defined")
    return sum((Fraction(c, comb(top, r)) for r, c in enumerate(counts) if c), Fraction(0))


def report(rules: Rules | None = None) -> Report:
    """The exact figures: a fresh deck's sink-by-reveal curve, or the odds in a described state."""
    rules = rules or Rules()
    s = situation(rules)
    if rules.state:
        figures = {"p_sink_next": Figure.of(p_sink_within(s, 1), "P(the next reveal sinks)")}
        figures |= {f"p_sink_within_{k}": Figure.of(p_sink_within(s, k), f"P(sunk within {k} more reveals)") for k in range(1, REVEALS + 1)}
    else:
        figures = {f"p_sink_by_reveal_{k}": Figure.of(p_sink_within(s, k), f"P(sunk by reveal {k}), never stopping") for k in range(1, REVEALS + 1)}
        figures["expected_reveals_until_sink"] = Figure.of(expected_reveals_until_sink(s), "mean reveal on which one sinks")
    return Report(NAME, rules.as_dict(), figures)


_CODE = {c: i for i, c in enumerate(["1", "2", "3", *LETTERS])}


def reveal_kernel(pool: tuple[int, ...], row_treasure: int, letter_start: tuple[int, ...], rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n shuffles of the pool revealed one by one: the reveal on which each sinks (0 = never)."""
    cards = np.repeat(np.arange(9, dtype=np.int8), pool)
    order = rng.permuted(np.tile(cards, (n, 1)), axis=1)
    treasure = np.cumsum(np.where(order < 3, order + 1, 0), axis=1, dtype=np.int16) + row_treasure
    sinks = treasure >= SINK_TREASURE
    for i in range(6):
        sinks |= np.cumsum(order == 3 + i, axis=1, dtype=np.int16) + letter_start[i] >= SINK_LETTER
    first = np.where(sinks.any(axis=1), sinks.argmax(axis=1) + 1, 0)
    out = {f"p_sink_by_reveal_{k}": (first >= 1) & (first <= k) for k in range(1, REVEALS + 1)}
    out["expected_reveals_until_sink"] = first
    return out


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo of a player who never stops, from the rules' situation, with 95% intervals."""
    rules = rules or Rules()
    s = situation(rules)
    pool = tuple(s.pool.get(c, 0) for c in _CODE)
    letters = tuple(s.row.count(x) + (x in s.own_letters) for x in LETTERS)
    kernel = partial(reveal_kernel, pool, s.treasure_in_row(), letters)
    result = montecarlo.run(kernel, trials, seed, client=client, progress=progress)
    figures = {k: Figure.estimated(e) for k, e in result.estimates.items()}
    if rules.state:
        figures = {k.replace("p_sink_by_reveal_", "p_sink_within_"): f for k, f in figures.items() if k != "expected_reveals_until_sink"}
        figures = {"p_sink_next": figures["p_sink_within_1"]} | figures
    return Report(NAME, rules.as_dict(), figures)


def tables(rules: Rules | None = None) -> dict[str, pl.DataFrame]:
    """{"opening": the optimal single-turn values of a game's first turn with the rules' deck
    (`nessie.optimal.opening_table`), freshly solved (about 20 s)}. The stored one (default
    rules) makes the optimal player's first decisions a look-up."""
    from nessus.games.nessie import optimal as nessie_optimal

    rules = rules or Rules()
    return {"opening": nessie_optimal.opening_table(dict(Counter(rules.deck())))}
