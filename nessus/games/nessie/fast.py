"""Nessie, many games at once: a numpy engine for the table-driven rules of play.

The rules are those of the protocol `nessie.State` with the default deck and the chain
A-B-...-F: the row is left for the next player, who sinks at the start of the turn if the row
and their own letters already give 3 of a letter (or the row's treasure is 6 or more); at least
one card is revealed; a stop takes `best_take` (letter value 10/6); the discards are reshuffled
into the draw pile when it is empty at a reveal; the game ends when a player holds all six
letters, or at `max_turns` turns as the State ends it.

`Batch.step()` makes one move (a reveal or a stop) in every game still in play, with array
operations over the games. It plays the rules `table_rule` understands (`stop_at`,
`stop_when_risky`); `tournament` uses it when every rule is one of them.

One decision of this engine: the discards are kept as counts, and a reshuffle deals a random
order of them listed card by card (A..F, 1, 2, 3). A uniformly random order of a pile does not
depend on the pile's order before shuffling, so the games have the same law as the State's (whose draw
pile is counted, each card drawn with exact weights). The randomness goes through a *shuffler*
(`deal`, `reshuffle`; see `Shuffler`), so that a test can replay the same deck orders and
reshuffles card by card through the State.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from math import floor
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from nessus import montecarlo
from nessus.games.nessie.cards import (
    CHAIN,
    LETTERS,
    SINK_LETTER,
    SINK_TREASURE,
    TREASURE_VALUES,
    can_keep,
    make_deck,
    neighbours,
)
from nessus.games.nessie.odds import LETTER_VALUE, REVEALS
from nessus.games.nessie.policies import Rule, StopAt, StopWhenRisky
from nessus.games.nessie.rules import NAME, Rules, situation
from nessus.games.nessie.state import COMPLETE_BONUS, MAX_TURNS, initial_state
from nessus.report import Figure, Report

if TYPE_CHECKING:
    import polars as pl

CARDS = LETTERS + "".join(map(str, TREASURE_VALUES))  # card codes: 0-5 the letters A-F, 6-8 the treasures 1-3
DECK = np.array([CARDS.index(c) for c in make_deck()], dtype=np.int8)  # listed card by card
DECK_SIZE = len(DECK)
ALL_LETTERS = (1 << len(LETTERS)) - 1
ROW = 21  # room for a row: column 0 then at most 2 of each letter and 5 treasures (a row that has not sunk)
ALWAYS = 1 << 30  # a number of cards no turn reveals
DEAL = 4096  # games dealt at a time
CHUNK = 1 << 16  # games played together by `tournament` (about 25 MB of arrays)

# Cards counted in an int64: card c in bits 4c..4c+3 (at most 12 of a card in the deck).
COUNT = np.array([1 << 4 * c for c in range(9)], dtype=np.int64)
DECK_PACKED = int(np.bincount(DECK, minlength=9) @ COUNT)
BYTES = 0x0F0F0F0F0F

# The row word (int64): bits 2x..2x+1 count letter x in the row, bits 12-15 the row's treasure
# (together the row's "state"), bits 16-51 its cards counted as above.
STATE = 0xFFFF
TREASURE_SHIFT = 12
ROW_STATE = np.array([1 << 2 * x for x in range(6)] + [v << TREASURE_SHIFT for v in (1, 2, 3)], dtype=np.int64)
ROW_INC = ROW_STATE | COUNT << 16
LOW_BITS = sum(1 << 2 * x for x in range(6))  # the low bit of each letter's field
OWN = np.array(
    [sum(1 << 2 * x for x in range(6) if m >> x & 1) for m in range(64)], dtype=np.int32
)  # letters held -> state


def _sunk(state: np.ndarray) -> np.ndarray:
    """Whether row states (the player's own letters added) have sunk: 3 of a letter, or
    treasure 6 or more."""
    return (state & (state >> 1) & LOW_BITS != 0) | (state >= SINK_TREASURE << TREASURE_SHIFT)


def _sinking_cards() -> np.ndarray:
    """For each state (own letters added): the count fields of the cards whose reveal sinks."""
    s = np.arange(1 << 16, dtype=np.int64)
    out = np.zeros(len(s), dtype=np.int64)
    for x in range(6):
        out |= np.where((s >> 2 * x & 3) == SINK_LETTER - 1, 0xF << 4 * x, 0)
    for v in (1, 2, 3):
        out |= np.where((s >> TREASURE_SHIFT) + v >= SINK_TREASURE, 0xF << 4 * (5 + v), 0)
    return out


SINKING_CARDS = _sinking_cards()

# A hand (int64): the treasures (bits 0-23, 8 bits for each value 1, 2, 3) and the letters
# (bits 24-29). While taking cards from the row, the take word adds the value of the take so far
# (bits 48-63, signed, in units of 1/denominator of LETTER_VALUE); bits 30-47 stay 0.
LETTER_SHIFT, VALUE_SHIFT = 24, 48
TREASURES = (1 << LETTER_SHIFT) - 1
HAND = (ALL_LETTERS << LETTER_SHIFT) | TREASURES
RUN_BITS = 5  # a run length n (< 32) in the low bits of a comparison key: value << 5 | (31 - n)
LV_NUM, LV_DEN = LETTER_VALUE.numerator, LETTER_VALUE.denominator
TREASURE_UNIT = (0, 1, 1 << 8, 1 << 16)  # one treasure of value 0 (none), 1, 2, 3 in a hand


def _take_tables() -> tuple[np.ndarray, np.ndarray]:
    """By key letters << 4 | card: what taking the card adds to the take word, and whether it
    is a Nessie card that cannot be kept (then the lowest treasure goes with it)."""
    add = np.zeros(64 << 4, dtype=np.int64)
    thrown = np.zeros(64 << 4, dtype=bool)
    chain = neighbours(CHAIN)
    for letters in range(64):
        held = [x for i, x in enumerate(LETTERS) if letters >> i & 1]
        for card in range(9):
            key = letters << 4 | card
            if card >= 6:
                add[key] = (LV_DEN * (card - 5) << VALUE_SHIFT) + TREASURE_UNIT[card - 5]
            elif can_keep(held, LETTERS[card], chain):
                add[key] = (LV_NUM << VALUE_SHIFT) + (1 << card + LETTER_SHIFT)
            else:
                thrown[key] = True
    return add, thrown


TAKE_ADD, TAKE_THROWN = _take_tables()
LOSE_LOWEST = np.array([(LV_DEN * v << VALUE_SHIFT) + TREASURE_UNIT[v] for v in range(4)], dtype=np.int64)
LOWEST_COUNT = np.array([0, *COUNT[6:]], dtype=np.int64)  # the lowest treasure thrown, counted


class ShufflerLike(Protocol):
    """Where the engine's randomness comes from; `games` are game numbers (`Batch.gid`)."""

    def deal(self, games: np.ndarray) -> np.ndarray:
        """(len(games), 84): the deck orders, as positions in `make_deck()`."""
        ...

    def reshuffle(self, games: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        """(len(games), >= max(sizes)): row i begins with an order of range(sizes[i])."""
        ...


class Shuffler:
    """Deck orders and reshuffles from one numpy Generator (uniformly random orders)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def deal(self, games: np.ndarray) -> np.ndarray:
        """(len(games), 84): each row an order of range(84), positions in `make_deck()`. The draw
        pile is dealt from the end."""
        return np.argsort(self.rng.random((len(games), DECK_SIZE)), axis=1)

    def reshuffle(self, games: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        """(len(games), max(sizes)): row i begins with an order of range(sizes[i]), positions in
        the discards listed card by card."""
        keys = self.rng.random((len(games), int(sizes.max())))
        keys[np.arange(keys.shape[1]) >= sizes[:, None]] = 2.0
        return np.argsort(keys, axis=1)


class PerGame:
    """Deck orders and reshuffles from one numpy Generator per game, seeded by `seeds[g]`: the
    deck order first (`permutation(84)`), then one `permutation(size)` per reshuffle. A game
    then replays alone, whatever else is played with it (the State, card by card, in the tests;
    the plain loops of the benchmark)."""

    def __init__(self, seeds: Sequence[object]) -> None:
        self.rngs = [np.random.default_rng(s) for s in seeds]  # type: ignore[arg-type]

    def deal(self, games: np.ndarray) -> np.ndarray:
        return np.stack([self.rngs[g].permutation(DECK_SIZE) for g in games])

    def reshuffle(self, games: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        out = np.zeros((len(games), int(sizes.max())), dtype=np.int64)
        for i, (g, size) in enumerate(zip(games, sizes)):
            out[i, :size] = self.rngs[g].permutation(int(size))
        return out


def table_rule(rule: Rule) -> tuple[int, np.ndarray] | None:
    """(cards, most): the rule reveals when nothing is revealed yet this turn, or when fewer
    than `cards` are and at most most[N] of the N cards in the draw pile would sink the player.
    None for a rule this engine cannot play."""
    if isinstance(rule, StopAt):
        return min(int(rule.cards), ALWAYS), np.arange(DECK_SIZE + 1)
    if isinstance(rule, StopWhenRisky):
        limit = Fraction(rule.limit)
        return ALWAYS, np.array([floor(limit * n) for n in range(DECK_SIZE + 1)])
    return None


def is_table_driven(rule: Rule) -> bool:
    """Whether this engine can play the rule."""
    return table_rule(rule) is not None


@dataclass(frozen=True)
class Outcome:
    """Games played, by seat: `scores` (games, players), `finisher` (the seat that completed
    Nessie, -1 when the game stopped at the turn limit) and `turns`, per game."""

    scores: np.ndarray
    finisher: np.ndarray
    turns: np.ndarray

    @property
    def over(self) -> np.ndarray:
        """Whether each game ended with a completed Nessie."""
        return self.finisher >= 0

    def winners(self) -> np.ndarray:
        """(games, players) bool: the highest score wins; ties go to the finisher, then shared."""
        best = self.scores == self.scores.max(axis=1, keepdims=True)
        finisher_best = best[np.arange(len(best)), np.maximum(self.finisher, 0)] & self.over
        return np.where(finisher_best[:, None], np.arange(self.scores.shape[1]) == self.finisher[:, None], best)


def _counts(packed: np.ndarray) -> np.ndarray:
    """(games, 9): packed card counts unpacked."""
    return packed[:, None] >> 4 * np.arange(9) & 0xF


def _treasure(hands: np.ndarray) -> np.ndarray:
    """Treasure points of hands."""
    return (hands & 0xFF) + 2 * (hands >> 8 & 0xFF) + 3 * (hands >> 16 & 0xFF)


def _letters(hands: np.ndarray) -> np.ndarray:
    """The letters of hands, bit x for letter x."""
    return hands >> LETTER_SHIFT & ALL_LETTERS


class Batch:
    """Games with the same number of players, in play together: `step()` makes one move in
    each. seating[g, s] is the index in `rules` of the rule at seat s of game g.

    Games that are over are dropped from the arrays once they are a quarter of them (`gid`
    numbers the games still there); their results are kept in `scores`, `finisher`, `turns_played`."""

    GAME_ARRAYS = (
        "gid",
        "draw",
        "drawn",
        "pool",
        "discarded",
        "row",
        "row_words",
        "row_len",
        "row_word",
        "current",
        "owner",
        "revealed",
        "turns",
        "own",
        "in_play",
        "cards_limit_now",
        "most_at",
    )
    SEAT_ARRAYS = ("seating", "hands")

    def __init__(
        self, seating: np.ndarray, rules: Sequence[Rule], shuffler: ShufflerLike, max_turns: int = MAX_TURNS
    ) -> None:
        n, self.players = seating.shape
        found = [table_rule(r) for r in rules]
        tables = [t for t in found if t is not None]
        if len(tables) < len(found):
            raise ValueError("rules must be table-driven (stop_at, stop_when_risky) for the fast engine")
        self.shuffler, self.max_turns = shuffler, max_turns
        self.cards_limit = np.array([t[0] for t in tables], dtype=np.int32)
        self.most = np.concatenate([t[1] for t in tables]).astype(np.int32)
        self.risky = any(isinstance(r, StopWhenRisky) for r in rules)
        self.scores = np.zeros((n, self.players), dtype=np.int64)
        self.finisher = np.full(n, -1, dtype=np.int64)
        self.turns_played = np.zeros(n, dtype=np.int64)

        self.gid = np.arange(n)
        self.seating = seating.astype(np.int32).ravel()  # by (game, seat), like hands
        self.next_seat = ((np.arange(self.players) + 1) % self.players).astype(np.int32)
        self.draw = np.empty((n, DECK_SIZE), dtype=np.int8)
        for start in range(0, n, DEAL):
            self.draw[start : start + DEAL] = DECK[shuffler.deal(self.gid[start : start + DEAL])]
        self.drawn = np.full(n, DECK_SIZE, dtype=np.int32)  # cards in the draw pile; its top is the last
        self.pool = np.full(n, DECK_PACKED, dtype=np.int64)  # the draw pile counted (kept for risky rules)
        self.discarded = np.zeros(n, dtype=np.int64)  # the discards counted
        self.row = np.zeros((n, ROW), dtype=np.int8)  # the row from column 1, the last revealed card last
        self.row_words = np.zeros((n, ROW), dtype=np.int64)  # [g, j]: the row word of the first j cards of row[g]
        self.row_len = np.zeros(n, dtype=np.int32)
        self.row_word = np.zeros(n, dtype=np.int64)
        self.hands = np.zeros(n * self.players, dtype=np.int64)
        self.current = np.zeros(n, dtype=np.int32)
        self.owner = np.zeros(n, dtype=np.int32)  # whose turn is running
        self.revealed = np.zeros(n, dtype=np.int32)
        self.turns = np.zeros(n, dtype=np.int32)
        self.own = np.zeros(n, dtype=np.int32)  # the current player's letters, as a state
        self.in_play = np.full(n, max_turns > 0)
        self.cards_limit_now = np.zeros(n, dtype=np.int32)  # the current player's rule
        self.most_at = np.zeros(n, dtype=np.int32)
        self._bases()
        self._seat_changed(np.arange(n))

    @property
    def size(self) -> int:
        """Games in the arrays (in play, or over and not yet dropped)."""
        return len(self.gid)

    def _bases(self) -> None:
        self.draw_top = np.arange(self.size, dtype=np.int64) * DECK_SIZE - 1
        self.row_at = np.arange(self.size, dtype=np.int64) * ROW + 1  # the first row card (column 0 stays empty)

    # -- one move in every game in play ----------------------------------------------
    def step(self) -> None:
        """Every game in play reveals a card or stops, as its current player's rule says."""
        go = self.revealed < self.cards_limit_now
        if self.risky:
            hit = self.pool & SINKING_CARDS.take((self.row_word & STATE) + self.own)
            hit = (hit & BYTES) + (hit >> 4 & BYTES)
            sinking = (hit * 0x0101010101) >> 32 & 0xFF  # the draw pile's cards that would sink
            go &= sinking <= self.most.take(self.most_at + self.drawn)
        go |= self.revealed == 0
        go &= self.in_play
        stop = np.flatnonzero(self.in_play > go)
        sunk = self._reveal(go)
        if len(stop):
            self._stop(stop)
        if len(sunk):
            self._sink(sunk)
            self._end_turn(sunk)

    def _reveal(self, go: np.ndarray) -> np.ndarray:
        """Reveal the top card where `go` (reshuffling an empty draw pile); the games that sank.
        The default deck never runs out: hands hold at most 5 letters each and the row 12, so
        at least 6 of the 48 letters are in the draw pile or the discards."""
        empty = np.flatnonzero(go > (self.drawn > 0))
        if len(empty):
            self._reshuffle(empty)
        top = self.draw.reshape(-1).take(self.draw_top + self.drawn, mode="clip")
        step = go.view(np.int8)
        at = self.row_at + self.row_len  # beyond the row where not go: harmless
        self.row.reshape(-1)[at] = top
        self.row_word += ROW_INC.take(top) * step
        self.row_words.reshape(-1)[at] = self.row_word
        self.drawn -= step
        self.row_len += step
        self.revealed += step
        if self.risky:
            self.pool -= COUNT.take(top) * step
        return np.flatnonzero(go & _sunk((self.row_word & STATE) + self.own))

    def _reshuffle(self, games: np.ndarray) -> None:
        """The discards, in a random order, become the draw pile."""
        counts = _counts(self.discarded[games])
        sizes = counts.sum(axis=1)
        ends = np.cumsum(sizes)
        order = self.shuffler.reshuffle(self.gid[games], sizes)
        listed = np.repeat(
            np.tile(np.arange(9, dtype=np.int8), len(games)), counts.ravel()
        )  # card by card, game after game
        at = np.minimum((ends - sizes)[:, None] + order, len(listed) - 1)  # beyond a game's size: harmless
        self.draw[games, : order.shape[1]] = listed.take(at)
        self.drawn[games] = sizes
        self.pool[games] = self.discarded[games]
        self.discarded[games] = 0

    def _sink(self, games: np.ndarray) -> None:
        """The row goes to the discards."""
        self.discarded[games] += self.row_word[games] >> 16
        self.row_word[games] = 0
        self.row_len[games] = 0

    def _stop(self, games: np.ndarray) -> None:
        """The current player takes `best_take`: the shortest run of maximal value ending at
        the last revealed card, taken from the last revealed backwards."""
        games = games[np.argsort(-self.row_len[games].astype(np.int8), kind="stable")]  # longest rows first
        m, lengths = len(games), self.row_len[games]
        seat = games * self.players + self.current[games]
        longest = int(lengths[0])
        many = np.searchsorted(-lengths, -np.arange(1, longest + 1), side="right")  # games with >= n row cards
        words = np.empty((longest + 1, m), dtype=np.int64)  # the take word after n cards
        words[0] = self.hands[seat]
        last = self.row_at[games] + lengths - 1
        row = self.row.reshape(-1)
        best_rank = np.full(m, 31, dtype=np.int64)  # taking nothing (n = 0) is worth 0
        thrown = []
        for n in range(1, longest + 1):
            k = many[n - 1]
            card = row.take(last[:k] - (n - 1))
            key = (words[n - 1, :k] >> LETTER_SHIFT - 4) & 0x3F0 | card
            now = words[n, :k]
            np.add(words[n - 1, :k], TAKE_ADD.take(key), out=now)
            throw = np.flatnonzero(TAKE_THROWN.take(key))
            if len(throw):
                treasures = now[throw] & TREASURES
                low_bit = treasures & -treasures
                lowest = (treasures > 0).astype(np.int64) + (low_bit >= 1 << 8) + (low_bit >= 1 << 16)
                now[throw] -= LOSE_LOWEST.take(lowest)
                thrown.append((n, throw, COUNT.take(card[throw]) + LOWEST_COUNT.take(lowest)))
            rank = (now >> VALUE_SHIFT - RUN_BITS) | (31 - n)  # the best run: highest value, then shortest
            np.maximum(best_rank[:k], rank, out=best_rank[:k])
        best = 31 - (best_rank & 31)
        hand = words[best, np.arange(m)] & HAND
        self.hands[seat] = hand
        left = lengths - best
        self.row_len[games] = left
        self.row_word[games] = self.row_words.reshape(-1).take(self.row_at[games] + left - 1)
        for n, throw, cards in thrown:
            taken = best[throw] >= n
            self.discarded[games[throw[taken]]] += cards[taken]  # each game at most once here
        complete = _letters(hand) == ALL_LETTERS
        done = games[complete]
        self.finisher[self.gid[done]] = self.current[done]
        self.in_play[done] = False
        self._end_turn(games[~complete])

    def _end_turn(self, games: np.ndarray) -> None:
        """Pass the turn; the next player sinks at once if the row already sinks them. When
        the player has changed (the turn has left them), stop the game at the turn limit."""
        self._next_player(games)
        at_start = games[(self.row_len[games] > 0) & _sunk((self.row_word[games] & STATE) + self.own[games])]
        if len(at_start):
            self._sink(at_start)
            self._next_player(at_start)
        changed = games[self.current[games] != self.owner[games]] if self.players == 2 else games
        self.owner[changed] = self.current[changed]
        cut = changed[self.turns[changed] >= self.max_turns]
        self.in_play[cut] = False

    def _next_player(self, games: np.ndarray) -> None:
        seat = self.next_seat.take(self.current[games])
        self.current[games] = seat
        self.turns[games] += 1
        self.revealed[games] = 0
        self._seat_changed(games, seat)

    def _seat_changed(self, games: np.ndarray, seat: np.ndarray | None = None) -> None:
        """Note the current player's letters and rule."""
        at = games * self.players + (self.current[games] if seat is None else seat)
        self.own[games] = OWN.take(self.hands.take(at) >> LETTER_SHIFT)
        rule = self.seating.take(at)
        self.cards_limit_now[games] = self.cards_limit.take(rule)
        self.most_at[games] = rule * (DECK_SIZE + 1)

    # -- whole games -------------------------------------------------------------------
    def play(self) -> Outcome:
        """Step until every game is over; the outcome by seat."""
        while self.size:
            self.step()
            if 4 * (self.size - np.count_nonzero(self.in_play)) >= self.size:
                self._drop_over()
        return Outcome(self.scores, self.finisher, self.turns_played)

    def _drop_over(self) -> None:
        """Record the games that are over and remove them from the arrays."""
        over, keep = ~self.in_play, self.in_play.copy()
        ids = self.gid[over]
        points = _treasure(self.hands.reshape(-1, self.players)[over])
        finisher = self.finisher[ids]
        ended = finisher >= 0
        points[np.flatnonzero(ended), finisher[ended]] += COMPLETE_BONUS
        self.scores[ids] = points
        self.turns_played[ids] = self.turns[over]
        for name in self.GAME_ARRAYS:
            setattr(self, name, getattr(self, name)[keep])
        for name in self.SEAT_ARRAYS:
            setattr(self, name, getattr(self, name).reshape(-1, self.players)[keep].ravel())
        self._bases()

    def cards(self) -> np.ndarray:
        """(games, 9): each game's cards (codes of CARDS) in its draw pile, discards, row and
        hands, counted from the piles themselves."""
        n = self.size
        out = _counts(self.discarded)
        for pile, length in ((self.draw, self.drawn), (self.row[:, 1:], self.row_len)):
            valid = np.arange(pile.shape[1]) < length[:, None]
            np.add.at(out, (np.nonzero(valid)[0], pile[valid]), 1)
        hands = self.hands.reshape(n, self.players)
        for v in (1, 2, 3):
            out[:, 5 + v] += (hands >> 8 * (v - 1) & 0xFF).sum(axis=1)
        letters = _letters(hands)
        for x in range(6):
            out[:, x] += (letters >> x & 1).sum(axis=1)
        return out


def _shuffler(rng: Any) -> ShufflerLike:
    return rng if hasattr(rng, "reshuffle") else Shuffler(rng)


def play_games(
    rules: Sequence[Rule], games: int, rng: Any, max_turns: int = MAX_TURNS, rotate: bool = False
) -> Outcome:
    """`games` whole games of len(rules) players; the outcome by seat. Seat i plays
    rules[i]; with `rotate`, game g seats rule i at seat (i + g) mod players instead
    (as `protocol_kernel` seats them). `rng`: a numpy Generator, or a shuffler."""
    k = len(rules)
    if not 2 <= k <= 6:
        raise ValueError(f"players (the number of rules) must be from 2 to 6, got {k}")
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 0:
        raise ValueError(f"games must be an integer >= 0, got {games!r}")
    if isinstance(max_turns, bool) or not isinstance(max_turns, (int, np.integer)) or max_turns < 0:
        raise ValueError(f"max_turns must be an integer >= 0, got {max_turns!r}")
    shift = np.arange(games)[:, None] if rotate else np.zeros((games, 1), dtype=np.int64)
    seating = (np.arange(k) - shift) % k
    return Batch(seating, rules, _shuffler(rng), max_turns).play()


def tournament_kernel(rules: tuple[Rule, ...], rng: Any, n: int) -> dict[str, np.ndarray]:
    """`protocol_kernel` on this engine, same quantities: n whole games, game g
    seating rule i at seat (i + g) mod players."""
    k = len(rules)
    outcome = play_games(rules, n, rng, rotate=True)
    games = np.arange(n)
    seat = (np.arange(k)[:, None] + games) % k
    wins, scores = outcome.winners()[games, seat], outcome.scores[games, seat]
    out = {f"p_win_{i}": wins[i] for i in range(k)} | {f"mean_score_{i}": scores[i] for i in range(k)}
    out["p_finished"] = outcome.over
    return out


# -- tournaments and the Monte Carlo of the report --------------------------------------------
def protocol_kernel(rules: tuple[Rule, ...], rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games played through the protocol (`nessus.play.play` on `nessie.State`); game g
    seats rule i at seat (i + g) mod players. Per rule: won (alone or sharing the win) and its
    score; and whether the game ended by a completed Nessie."""
    from nessus.play import play  # the play loop loads polars: not needed for the odds

    k = len(rules)
    start = initial_state(Rules(players=k))
    wins = np.zeros((k, n), dtype=bool)
    scores = np.zeros((k, n), dtype=np.int64)
    finished = np.zeros(n, dtype=bool)
    for g in range(n):
        seat_of = [(i + g) % k for i in range(k)]
        end = play(start, [rules[(seat - g) % k] for seat in range(k)], rng)
        assert isinstance(end, type(start))
        winners, points = end.winners(), end.scores()
        for i, seat in enumerate(seat_of):
            wins[i, g] = seat in winners
            scores[i, g] = points[seat]
        finished[g] = end.finisher is not None
    out = {f"p_win_{i}": wins[i] for i in range(k)} | {f"mean_score_{i}": scores[i] for i in range(k)}
    out["p_finished"] = finished
    return out


def tournament(rules: dict[str, Rule], games: int = 1000, seed: int = 0, progress=None) -> pl.DataFrame:
    """Win rates and mean scores of rules in whole games, the players moved round the table from
    game to game, as a polars DataFrame with `nessus.play.tournament`'s names where they mean the
    same: policy, p_win (the share of games won alone or sharing the win: not `win_share`, which
    counts a k-way shared win 1/k) with its 95% Wilson interval low..high, mean_score, and
    p_finished (the share of games that ended with a completed Nessie rather than at the turn
    limit). When every rule is table-driven (`is_table_driven`),
    the games are played together by the numpy engine above (same rules, other random
    draws), otherwise one at a time through the protocol (`protocol_kernel`)."""
    import polars as pl

    names, chosen = list(rules), tuple(rules.values())
    kernel, chunk = partial(protocol_kernel, chosen), 256
    if all(is_table_driven(r) for r in chosen):
        kernel, chunk = partial(tournament_kernel, chosen), CHUNK
    result = montecarlo.run(kernel, games, seed, progress=progress, chunk=chunk)
    return pl.DataFrame(
        {
            "policy": names,
            "p_win": [result[f"p_win_{i}"].value for i in range(len(names))],
            "low": [result[f"p_win_{i}"].ci[0] for i in range(len(names))],
            "high": [result[f"p_win_{i}"].ci[1] for i in range(len(names))],
            "mean_score": [result[f"mean_score_{i}"].value for i in range(len(names))],
            "p_finished": [result["p_finished"].value] * len(names),
        }
    )


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
