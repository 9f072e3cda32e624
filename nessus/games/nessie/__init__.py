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
`players`. In Python the same description is a dict, no file needed (`situation`, `report` and
`simulate` take it as `state=`):

>>> from nessus.games.nessie.odds import p_sink_next
>>> p_sink_next(situation(state={"row": ["2", "3"]}))  # any of the 34 unseen treasures sinks
Fraction(17, 41)

Whole games are played through the game protocol (`State`, `initial_state`, `policies`): the
draw pile is counted, not ordered, and each reveal draws a card from it with exact weights.

>>> state = initial_state().apply(REVEAL)
>>> dict(state.chance_outcomes())["3"]
Fraction(1, 7)
>>> state = state.apply("3").apply(Stop(1))
>>> state.scores(), state.current_player()
([3, 0, 0], 1)

The modules: `engine` (the deck, the moves, taking and sinking), `odds` (exact bust odds), `play`
(what a stop is worth, the rules of play as policies, tournaments), `optimal` (the exact
single-turn optimal rule), `fast` (many games at once in numpy).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, replace
from dataclasses import field as dc_field
from fractions import Fraction
from functools import partial
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from nessus import game, montecarlo
from nessus.game import Game
from nessus.games.nessie import play as nessie_play
from nessus.games.nessie.engine import (
    CHAIN,
    COMPLETE_BONUS,
    MAX_TURNS,
    REVEAL,
    Event,
    Hand,
    Stop,
    can_keep,
    make_deck,
    neighbours,
    sunk,
    take,
)
from nessus.games.nessie.odds import LETTERS, SINK_LETTER, SINK_TREASURE, Card, Situation, p_sink_within, safe_counts
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field
from nessus.solver import Hint, Value

if TYPE_CHECKING:
    import polars as pl

NAME = "nessie"
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
    """Why a row is already sunk (nessie.odds.Situation.sunk), as the error message says it."""
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


def expected_reveals_until_sink(s: Situation) -> Fraction:
    """E[the reveal on which a player who never stops sinks], exact: the sum of P(safe after r)."""
    top = s.pool_size
    counts = safe_counts(s, min(top, 40))
    if s.pool_size <= 40 and counts[-1]:
        raise ValueError("the pool can run out before sinking: the expectation is not defined")
    return sum((Fraction(c, comb(top, r)) for r, c in enumerate(counts) if c), Fraction(0))


def report(rules: Rules | None = None, state: dict | None = None) -> Report:
    """The exact figures: a fresh deck's sink-by-reveal curve, or the odds in a described state
    (`state`, a dict in the state file's format, or the rules' state file)."""
    rules = rules or Rules()
    s = situation(rules, state)
    if state is not None or rules.state:
        figures = {"p_sink_next": Figure.of(p_sink_within(s, 1), "P(the next reveal sinks)")}
        figures |= {
            f"p_sink_within_{k}": Figure.of(p_sink_within(s, k), f"P(sunk within {k} more reveals)")
            for k in range(1, REVEALS + 1)
        }
    else:
        figures = {
            f"p_sink_by_reveal_{k}": Figure.of(p_sink_within(s, k), f"P(sunk by reveal {k}), never stopping")
            for k in range(1, REVEALS + 1)
        }
        figures["expected_reveals_until_sink"] = Figure.of(
            expected_reveals_until_sink(s), "mean reveal on which one sinks"
        )
    return Report(NAME, rules.as_dict(), figures)


_CODE = {c: i for i, c in enumerate(["1", "2", "3", *LETTERS])}


def reveal_kernel(
    pool: tuple[int, ...], row_treasure: int, letter_start: tuple[int, ...], rng: np.random.Generator, n: int
) -> dict[str, np.ndarray]:
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


def simulate(
    rules: Rules | None = None,
    trials: int = 100_000,
    seed: int = 0,
    client=None,
    progress=None,
    state: dict | None = None,
) -> Report:
    """Monte Carlo of a player who never stops, from the rules' situation (or the `state` dict),
    with 95% intervals."""
    rules = rules or Rules()
    s = situation(rules, state)
    pool = tuple(s.pool.get(c, 0) for c in _CODE)
    letters = tuple(s.row.count(x) + (x in s.own_letters) for x in LETTERS)
    kernel = partial(reveal_kernel, pool, s.treasure_in_row(), letters)
    result = montecarlo.run(kernel, trials, seed, client=client, progress=progress)
    figures = {k: Figure.estimated(e) for k, e in result.estimates.items()}
    if state is not None or rules.state:
        figures = {
            k.replace("p_sink_by_reveal_", "p_sink_within_"): f
            for k, f in figures.items()
            if k != "expected_reveals_until_sink"
        }
        figures = {"p_sink_next": figures["p_sink_within_1"]} | figures
    return Report(NAME, rules.as_dict(), figures)


def tables(rules: Rules | None = None) -> dict[str, pl.DataFrame]:
    """{"opening": the optimal single-turn values of a game's first turn with the rules' deck
    (`nessie.optimal.opening_table`), freshly solved (about 20 s)}. The stored one (default
    rules) makes the optimal player's first decisions a look-up."""
    from nessus.games.nessie import optimal as nessie_optimal

    rules = rules or Rules()
    return {"opening": nessie_optimal.opening_table(dict(Counter(rules.deck())))}


# -- the game protocol: whole games ------------------------------------------------------------
CARD_KINDS: tuple[Card, ...] = (*TREASURES, *LETTERS)
"""The order in which a state counts the cards of a pile."""
MAX_ROW = (SINK_LETTER - 1) * len(LETTERS) + SINK_TREASURE - 1
"""The most cards a row holds while it floats: 2 of each letter and treasure worth at most 5."""


@dataclass(frozen=True)
class Held:
    """The cards face up in front of a player: treasure values and Nessie letters, in the order taken."""

    treasures: tuple[int, ...] = ()
    letters: tuple[str, ...] = ()

    def hand(self) -> Hand:
        """As the engine's (mutable) `Hand`."""
        return Hand(list(self.treasures), list(self.letters))

    @classmethod
    def of(cls, hand: Hand) -> Held:
        return cls(tuple(hand.treasures), tuple(hand.letters))

    def cards(self) -> list[Card]:
        return [str(v) for v in self.treasures] + list(self.letters)

    def __str__(self) -> str:
        return " ".join(self.cards()) or "nothing"


def _counted(cards: tuple[Card, ...] | list[Card]) -> tuple[int, ...]:
    return tuple(cards.count(c) for c in CARD_KINDS)


def _plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b))


def _cards_of(counts: tuple[int, ...]) -> str:
    return " ".join(f"{n}×{c}" for c, n in zip(CARD_KINDS, counts) if n) or "none"


NO_CARDS = (0,) * len(CARD_KINDS)


@dataclass(frozen=True)
class State(game.State):
    """A whole game of Nessie (the game protocol), every player, to the end (RULES.md part 2, the
    decisions of `nessie.engine`): the player to move chooses `REVEAL` (compulsory as the first
    move of a turn) or `Stop(n)` (take the last n row cards); a reveal is a chance node whose
    outcomes are the kinds of card in the draw pile, each weighted by its count there (the
    pile's order is not in the state: the card is drawn then, exactly). When the draw pile is
    empty, the discards become the pile (the reshuffle). The game ends when a player holds all
    six letters, or, as `nessie.fast` ends it too, once `max_turns` (`MAX_TURNS`, 3000) turns
    have been played (a practical bound: such games are unknown in practice);
    returns are win shares (the highest score; a tie goes to the player who completed Nessie,
    then is shared).

    Nothing is hidden: every card is face up (the row, the cards in front of each player) or
    was face up on its way to the discards (a sunk row, a Nessie card that could not be kept
    with the treasure lost with it), so the draw pile, counted, is the same for everyone: the
    deck minus every card seen. (A player who forgets discards is the odds' `discards_seen`.)

    `last` holds what the last move did (`nessie.engine.Event`s: a reveal, a sink, a stop, a
    sink at the start of the next turn), for a game log; it is not part of the position.

    >>> state = initial_state(Rules(players=2))
    >>> state.legal_actions()
    ['reveal']
    >>> state = state.apply(REVEAL)
    >>> state.is_chance_node(), sum(p for _, p in state.chance_outcomes())
    (True, Fraction(1, 1))
    >>> state = state.apply("3")
    >>> [str(a) for a in state.legal_actions()]
    ['reveal', 'stop and take 0', 'stop and take 1']
    >>> state = state.apply(Stop(1))
    >>> state.scores(), state.current_player()
    ([3, 0], 1)
    """

    rules: Rules
    draw: tuple[int, ...]
    discards: tuple[int, ...] = NO_CARDS
    row: tuple[Card, ...] = ()
    hands: tuple[Held, ...] = ()
    current: int = 0
    revealed: int = 0
    turns: int = 0
    drawing: bool = False
    finisher: int | None = None
    cut: bool = False
    max_turns: int = MAX_TURNS
    last: tuple[Event, ...] = dc_field(default=(), compare=False, repr=False)

    # -- what everybody can see --------------------------------------------------------
    @property
    def _over(self) -> bool:
        """Someone completed Nessie, or the turn limit was reached."""
        return self.finisher is not None or self.cut

    @property
    def players(self) -> int:
        return self.rules.players

    def hand(self, player: int | None = None) -> Hand:
        """The cards in front of `player` (default: the player to play), as an engine `Hand`."""
        return self.hands[self.current if player is None else player].hand()

    def situation(self) -> Situation:
        """What the player to play knows, for the odds: the draw pile (counted), the row and
        their letters."""
        pool = {c: n for c, n in zip(CARD_KINDS, self.draw) if n}
        return Situation(pool, self.row, frozenset(self.hands[self.current].letters))

    def scores(self) -> list[int]:
        """Treasure points, plus 10 for the player who completed Nessie."""
        return [sum(h.treasures) + (COMPLETE_BONUS if i == self.finisher else 0) for i, h in enumerate(self.hands)]

    def winners(self) -> list[int]:
        """The highest score wins; ties go to the player who completed Nessie, then the win is shared."""
        scores = self.scores()
        best = [i for i, s in enumerate(scores) if s == max(scores)]
        return [self.finisher] if self.finisher in best and len(best) > 1 else best

    def can_reveal(self) -> bool:
        """A card is left to reveal (in the draw pile, or in the discards to reshuffle)."""
        return sum(self.draw) + sum(self.discards) > 0

    # -- the protocol --------------------------------------------------------------------
    def current_player(self) -> int:
        if self._over:
            return game.TERMINAL
        return game.CHANCE if self.drawing else self.current

    def legal_actions(self) -> list[game.Action]:
        if self._over or self.drawing:
            return []
        reveal: list[game.Action] = [REVEAL] if self.can_reveal() else []
        if self.revealed == 0 and reveal:
            return reveal
        return reveal + [Stop(n) for n in range(len(self.row) + 1)]

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        if self._over or not self.drawing:
            return []
        pile = self.draw if sum(self.draw) else self.discards
        total = sum(pile)
        return [(c, Fraction(n, total)) for c, n in zip(CARD_KINDS, pile) if n]

    def _apply(self, action: game.Action) -> State:
        if self.drawing:
            assert isinstance(action, str)
            return self._revealed(action)
        if action == REVEAL:
            return replace(self, drawing=True, last=())
        assert isinstance(action, Stop)
        return self._stopped(action.take)

    def _revealed(self, card: Card) -> State:
        draw, discards = (self.draw, self.discards) if sum(self.draw) else (self.discards, NO_CARDS)
        draw = tuple(n - (c == card) for c, n in zip(CARD_KINDS, draw))
        row = self.row + (card,)
        if sunk(list(row), self.hand()):
            sink = Event("sink", self.current, (card,))
            return replace(
                self,
                draw=draw,
                discards=_plus(discards, _counted(row)),
                row=(),
                revealed=self.revealed + 1,
                drawing=False,
            )._pass(self.current, (sink,))
        return replace(
            self,
            draw=draw,
            discards=discards,
            row=row,
            revealed=self.revealed + 1,
            drawing=False,
            last=(Event("reveal", self.current, (card,)),),
        )

    def _stopped(self, n: int) -> State:
        taken = self.row[len(self.row) - n :][::-1]
        hand, thrown = take(self.hand(), list(taken), neighbours(CHAIN))
        hands = self.hands[: self.current] + (Held.of(hand),) + self.hands[self.current + 1 :]
        event = Event("stop", self.current, taken, tuple(thrown))
        after = replace(
            self, row=self.row[: len(self.row) - n], hands=hands, discards=_plus(self.discards, _counted(thrown))
        )
        if hand.complete:
            return replace(after, finisher=self.current, last=(event,))
        return after._pass(self.current, (event,))

    def _pass(self, mover: int, events: tuple[Event, ...]) -> State:
        """The next player's turn (who sinks at once if the row and their letters already sink
        them); the game stops at the turn limit once the turn has left `mover`."""
        state = replace(self, current=(self.current + 1) % self.players, turns=self.turns + 1, revealed=0)
        if state.row and sunk(list(state.row), state.hand()):
            events += (Event("sink_at_start", state.current),)
            state = replace(
                state,
                discards=_plus(state.discards, _counted(state.row)),
                row=(),
                current=(state.current + 1) % self.players,
                turns=state.turns + 1,
            )
        cut = state.turns >= self.max_turns and state.current != mover
        return replace(state, cut=cut, last=events)

    def returns(self) -> list[Fraction]:
        if not self._over:
            return [Fraction(0)] * self.players
        winners = self.winners()
        return [Fraction(1, len(winners)) if p in winners else Fraction(0) for p in range(self.players)]

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        scores = self.scores()
        seats = "; ".join(
            f"player {p + 1}{' (you)' if p == player else ''}: {h}, score {scores[p]}" for p, h in enumerate(self.hands)
        )
        if self._over:
            status = "game over" + ("" if self.finisher is None else f", player {self.finisher + 1} completed Nessie")
        else:
            status = f"turn {self.turns + 1}, player {self.current + 1} to play, {self.revealed} revealed this turn"
            status += ", a card is being revealed" if self.drawing else ""
        return (
            f"{status}; row: {' '.join(self.row) or 'empty'}; draw pile ({sum(self.draw)}): {_cards_of(self.draw)}; "
            f"discards ({sum(self.discards)}): {_cards_of(self.discards)}; {seats}"
        )

    def shape(self) -> game.Shape:
        reveals = MAX_ROW + 1  # a turn reveals until the row sinks at the latest
        return game.Shape(
            players=self.players,
            max_actions=1 + MAX_ROW + 1,
            max_chance_outcomes=len(CARD_KINDS),
            max_length=self.max_turns * (2 * reveals + 1),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    def hint(self) -> Hint:
        """The look-ahead player's values (`nessie.play.choice`), in points: a stop of n cards is
        worth the treasure it gains minus the treasure it loses plus `LETTER_VALUE` (10/6) per
        Nessie card kept; a reveal, the average of stopping at the best take after one more card
        (0 if it sinks). A heuristic: it looks one card ahead and scores letters by a rule of thumb."""
        if self.current_player() < 0:
            return super().hint()
        hand = self.hand()
        values: dict[Hashable, Value] = {}
        if self.can_reveal():
            values[REVEAL] = nessie_play.choice(self.situation(), hand).reveal_one_value
        if self.revealed or not values:
            values |= {Stop(n): nessie_play.take_value(hand, self.row, n) for n in range(len(self.row) + 1)}
            n, stop = nessie_play.best_take(hand, self.row)
            best: Hashable = REVEAL if REVEAL in values and values[REVEAL] > stop else Stop(n)
        else:
            best = REVEAL
        return Hint(self, values, best, True, "heuristic")

    # -- moves by name --------------------------------------------------------------------
    def _check_move(self) -> None:
        if self._over:
            raise ValueError("the game is over")
        if self.drawing:
            raise ValueError("a card is being revealed: chance acts next")

    def reveal(self, card: Card | None = None, rng: np.random.Generator | None = None) -> State:
        """Reveal a card: the given one, or drawn with `rng` from the pile (exactly weighted)."""
        self._check_move()
        if not self.can_reveal():
            raise ValueError("no card left to reveal: every card is in the row or in front of a player")
        state = self.apply(REVEAL)
        if card is None:
            if rng is None:
                raise ValueError("give rng or card")
            from nessus.play import sample

            card = str(sample(state.chance_outcomes(), rng))
        after = state.apply(card)
        assert isinstance(after, State)
        return after

    def stop(self, n: int) -> State:
        """Stop and take the last n row cards (0 <= n <= len(row)), once a card is revealed."""
        self._check_move()
        if self.revealed == 0 and self.can_reveal():
            raise ValueError("reveal at least one card before stopping")
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= len(self.row):
            raise ValueError(f"n must be an integer from 0 to {len(self.row)} (cards in the row), got {n!r}")
        after = self.apply(Stop(n))
        assert isinstance(after, State)
        return after


def initial_state(rules: Rules | None = None) -> State:
    """The start of a whole game: a full deck, no card seen, player 1 to play."""
    rules = rules or Rules()
    return State(rules, _counted(rules.deck()), hands=(Held(),) * rules.players)


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """The rules of `nessie.play` (each a policy): "lookahead" (one card ahead, letters worth
    10/6), "stop_at_2", "stop_at_3" (reveal that many cards, then take the best run) and
    "stop_when_risky" (stop when P(the next card sinks) > 3/10). The single-turn optimal rule
    (`nessie.optimal.optimal()`, a policy too) is not named here: it maximises one turn's
    treasure, not the game, and a later turn can take seconds to solve."""
    return {
        "lookahead": nessie_play.lookahead(),
        "stop_at_2": nessie_play.stop_at(2),
        "stop_at_3": nessie_play.stop_at(3),
        "stop_when_risky": nessie_play.stop_when_risky(Fraction(3, 10)),
    }


GAME = Game(
    name=NAME,
    title="Nessie",
    summary="Reveal cards and stop before you sink: exact bust odds in any state.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="03-nessie-bust-odds",
    dashboard="nessie.ipynb",
    pitch="Push your luck card by card against automatic opponents, with your exact odds of sinking beside you.",
    tables=tables,
)
"""This game, as the registry, the command line and the gallery see it."""
