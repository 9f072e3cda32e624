"""Nessie's parameters: the players, the deck, and a state file (`state`) describing a
situation to give the odds in, read and checked here (a file that describes a state which
cannot happen is a clear error when the rules are made).

The state file's format is in the package's docstring (`nessus.games.nessie`). In Python the
same description is a dict, no file needed (`situation`, `report` and `simulate` take it as
`state=`):

>>> situation(state={"row": ["2", "3"]}).pool_size
82
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from nessus.games.nessie.cards import (
    CHAIN,
    LETTERS,
    SINK_LETTER,
    SINK_TREASURE,
    TREASURES,
    Situation,
    can_keep,
    make_deck,
    neighbours,
)
from nessus.rules import GameRules, Param, field

NAME = "nessie"

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
    """Whether a player can hold these letters: kept one at a time, each as `nessie.cards.can_keep`
    allows (the first any, then one adjacent on the chain A-B-C-D-E-F to a letter held, and new)."""
    adjacent, held, rest = neighbours(CHAIN), list[str](), list(letters)
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
        raise ValueError(f'state: {what} must be {{"letters": [...], "treasures": [...]}}, got {_shown(value)}')
    letters = _cards(value.get("letters", []), f"{what} letters", "letter")
    treasures = _cards(value.get("treasures", []), f"{what} treasures", "treasure")
    twice = sorted(x for x, n in Counter(letters).items() if n > 1)
    if twice:
        raise ValueError(
            f'state: {what} holds the letter "{twice[0]}" {Counter(letters)[twice[0]]} times; '
            "a player keeps at most one card of each letter"
        )
    if len(letters) == len(LETTERS):
        raise ValueError(f"state: {what} holds all six letters, so the game is over")
    if not _keepable(letters):
        raise ValueError(
            f"state: {what} holds the letters {', '.join(sorted(letters))}, which cannot be kept "
            "together: a Nessie card is kept only if its letter is next to one already held "
            "(A-B-C-D-E-F)"
        )
    return letters, treasures


def _sunk_reason(row: list[str], own_letters: list[str]) -> str:
    """Why a row is already sunk (nessie.cards.Situation.sunk), as the error message says it."""
    treasure = Situation({}, tuple(row), frozenset()).treasure_in_row()
    if treasure >= SINK_TREASURE:
        return (
            f"the row's treasures total {treasure}; a row reaching {SINK_TREASURE} sinks the boat at once "
            "and is discarded"
        )
    x = next(x for x in LETTERS if row.count(x) + (x in own_letters) >= SINK_LETTER)
    if row.count(x) >= SINK_LETTER:
        return (
            f'the row holds {row.count(x)} cards "{x}"; revealing the last of them sank the boat and the row '
            "was discarded"
        )
    return (
        f'the row\'s {row.count(x)} cards "{x}" and your own "{x}" make {SINK_LETTER}: you sink at the start '
        "of your turn and the row is discarded"
    )


def situation(rules: Rules | None = None, state: dict | None = None) -> Situation:
    """The player's situation: described by `state` when given (a dict in the state file's
    format above, e.g. `situation(state={"row": ["2", "3"]})`), else by the rules' state file,
    else a fresh deck (no card seen)."""
    rules = rules or Rules()
    if state is not None:
        return situation_from_dict(state, rules)
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
        raise ValueError("state: the file (or dict) must hold an object with keys row, own, others, discards_seen")
    row = _cards(data.get("row", []), "row")
    own_letters, own_treasures = _player(data.get("own", {}), "own")
    discards = _cards(data.get("discards_seen", []), "discards_seen")
    seen = Counter(row) + Counter(own_letters) + Counter(own_treasures) + Counter(discards)
    others = data.get("others", [])
    if not isinstance(others, list):
        raise ValueError(f"state: others must be a list of players, got {_shown(others)}")
    if len(others) > rules.players - 1:
        raise ValueError(
            f"state: others lists {len(others)} players, but with players={rules.players} "
            f"there are only {rules.players - 1} others"
        )
    for i, other in enumerate(others):
        letters, treasures = _player(other, f"others[{i}]")
        seen += Counter(letters) + Counter(treasures)
    deck = Counter(rules.deck())
    param = {x: f"per_letter={rules.per_letter}" for x in LETTERS} | {
        "1": f"ones={rules.ones}",
        "2": f"twos={rules.twos}",
        "3": f"threes={rules.threes}",
    }
    over = [
        f'the deck holds {deck[c]} cards "{c}" ({param[c]}) but the state shows {seen[c]}'
        for c in (*TREASURES, *LETTERS)
        if seen[c] > deck[c]
    ]
    if over:
        raise ValueError("state: " + "; ".join(over))
    if Situation({}, tuple(row), frozenset(own_letters)).sunk():
        raise ValueError(f"state: the row has already sunk: {_sunk_reason(row, own_letters)}")
    pool = deck - seen
    return Situation({c: n for c, n in pool.items() if n}, tuple(row), frozenset(own_letters))
