"""Nessos, many games at once: a numpy engine for the bots `naive`, `bluffer` and `bayes`, and
`simulate`, the Monte Carlo figures of fresh hands and of whole games of the bots `Setup.bots`.

The rules are the engine's (`nessos.state.State`: the deal and refills in seat order from the
first player, the offer / accept / refuse / pass chain, elimination at the third Charon, the end
conditions in RULES.md's order, the token passing on) and the bots are those of `nessos.policies`;
only the bookkeeping differs. Each game is a row, and each step of a round — the offer, each
answer, turning the cards up, each card of the refill — is a few array operations over every
game still in play (`play`).

Everything a step reads is packed in integers, so that a step is whole-array integer arithmetic:
- a hand is a uint64 of eleven 5-bit counts (Charon, then the values 1..10), and so are the
  cards face up: "the r-th card of the hand" (the naive bot's random card) is a few operations
  (`nth_kind`). The pile is its cards in no order, a card drawn being a step of Fisher–Yates;
- the cards in front of a player are one int64 of fields (`FRONT_FIELDS`): Charon, 1s, 2s, 3s,
  cards and points, so a card goes face up with one addition (`FRONT_ADD`);
- sets of seats (still in, short of cards, holding cards, already offered to) are bit masks,
  and "the j-th seat of a set" or "the first seat of a set clockwise from s" are table lookups.

Two differences from `nessus.play.play` with `nessos.policies`, neither changing a law:
- the bots draw their random choices from the batch's generator, not from one seeded by their
  observation (`play.observed_rng`): the same distributions, other draws;
- the Bayes bot's answers come from a table of its exact decision (`Table.bayes_answer`, keyed by
  everything that decision depends on, each entry computed with Fractions by `odds`).

>>> out = play(Rules(players=4), np.random.default_rng(1), 2_000, ("bayes", "naive", "bayes", "naive"))
>>> sorted(out), bool(out["ended"].min() >= 1), float(out["shares"].sum())
(['ended', 'rounds', 'shares'], True, 2000.0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import cache, cached_property, partial
from typing import Any, cast

import numpy as np

from nessus import montecarlo
from nessus.dice import uniform_below
from nessus.games.nessos.deck import BONUS, CHARON, KINDS
from nessus.games.nessos.odds import Sender, Valuation, cached_posterior, expected_values
from nessus.games.nessos.policies import TOP_VALUES, policies
from nessus.games.nessos.rules import NAME, Rules, Setup
from nessus.games.nessos.state import (
    ELIMINATION,
    ELIMINATIONS_AT,
    NINE,
    NINE_CHARON,
    NO_CARDS,
    ROUND_LIMIT,
    TARGET,
    State,
    initial_state,
)
from nessus.play import play as play_loop
from nessus.report import Figure, Report

BOTS = ("naive", "bluffer", "bayes")
"""The bots this engine plays (`random_legal` is left to the generic loop)."""
ENDS = (TARGET, ELIMINATION, NINE_CHARON, NO_CARDS, ROUND_LIMIT)
"""How a game ended, coded 1..5 in `play`'s `ended` (0: still in play)."""
ACCEPT, REFUSE, PASS = 0, 1, 2
CLOSE = 1e-9
"""Expected points closer than this are compared exactly (`Table.bayes_answer`)."""
NEXT_REFUSES = Valuation().next_refuses
"""The Bayes bot's chance that cards it passes come back (`odds.Valuation`)."""
CHUNK = 1 << 14
"""Games played together (arrays small enough to stay in cache)."""

U = np.uint64
HAND = 5
"""Bits per kind in a hand or face-up word (counts up to 15; a hand's running total stays under 16)."""
HAND_WORD = U(1) << U(HAND) * np.arange(KINDS, dtype=U)
"""One card of each kind, as a word of counts."""

FRONT_FIELDS = {"charon": 0, "ones": 8, "twos": 16, "threes": 24, "cards": 32, "points": 40}
"""The fields (their shifts) of a front word: 8 bits each, the creature points in the top 24."""
FRONT_ADD = np.array(
    [1 << 32 | (1 if k == CHARON else k << 40 | (1 << 8 * k if k <= 3 else 0)) for k in range(KINDS)],
    dtype=np.int64,
)
"""What one card of each kind adds to a front word."""


def ones(width: int, fields: int) -> np.uint64:
    """A 1 in each of `fields` fields of `width` bits."""
    return U(sum(1 << width * j for j in range(fields)))


def card_word(kind: np.ndarray, width: int = HAND) -> np.ndarray:
    """One card of each `kind`, as a word of counts."""
    return U(1) << (U(width) * kind.astype(U))


def count_of(word: np.ndarray, kind: np.ndarray | int, width: int = HAND) -> np.ndarray:
    """The count of `kind` in each word of counts."""
    shift = U(width) * np.asarray(kind).astype(U)
    return ((word >> shift) & U((1 << width) - 1)).astype(np.int64)


def nth_kind(word: np.ndarray, r: np.ndarray, width: int = HAND, fields: int = KINDS) -> np.ndarray:
    """The kind of card number `r` (from 0, the cards in kind order) of each word of counts.

    Multiplying by `ones` puts each kind's running total in its field; the kind of card r is the
    number of fields whose running total is r or less, counted with the fields' top (guard) bits.

    >>> word = card_word(np.array([0])) * U(2) + card_word(np.array([7]))  # C C 7
    >>> nth_kind(np.repeat(word, 3), np.array([0, 1, 2])).tolist()
    [0, 0, 7]
    """
    step = ones(width, fields)
    guard = step << U(width - 1)
    above = (((word * step) | guard) - (r.astype(U) + U(1)) * step) & guard
    return fields - np.bitwise_count(above).astype(np.int64)


def front_field(front: np.ndarray, name: str) -> np.ndarray:
    """One field of front words (`FRONT_FIELDS`)."""
    return front >> FRONT_FIELDS[name] & (255 if name != "points" else -1)


def score(front: np.ndarray) -> np.ndarray:
    """The points of front words: the creature values plus 10 per complete set {1, 2, 3}."""
    sets = np.minimum(np.minimum(front_field(front, "ones"), front_field(front, "twos")), front_field(front, "threes"))
    return front_field(front, "points") + BONUS * sets


def _fields(key: int) -> Callable[[int, int], int]:
    """A reader of a packed key's fields: field(shift, bits)."""
    return lambda shift, bits: key >> shift & (1 << bits) - 1


def _bits(mask: int) -> list[int]:
    return [s for s in range(8) if mask >> s & 1]


@dataclass
class Games:
    """Games in play, one row each. Per-seat arrays are flat (row × players + seat)."""

    game: np.ndarray  # each row's index among the games asked for
    token: np.ndarray  # the first player
    rounds: np.ndarray
    alive: np.ndarray  # mask of the players still in
    short: np.ndarray  # mask of the players still in with fewer than hand_size cards
    holding: np.ndarray  # mask of the players still in holding a card
    cards: np.ndarray  # per row, the deck's size: the pile's cards (kinds) first, in no order
    pile: np.ndarray  # cards in the pile
    shown: np.ndarray  # every card face up, a word of counts
    face_up: np.ndarray  # cards face up
    hand: np.ndarray  # per seat: a word of counts
    size: np.ndarray  # per seat: cards in hand
    front: np.ndarray  # per seat: a front word

    WIDE = ("cards", "hand", "size", "front")
    """The arrays with several entries a row."""

    @property
    def n(self) -> int:
        return len(self.game)

    @cached_property
    def base(self) -> np.ndarray:
        """Each row's first index in the per-seat arrays."""
        return np.arange(self.n) * (self.hand.size // max(self.n, 1))

    @cached_property
    def deck_base(self) -> np.ndarray:
        """Each row's first index in `cards`."""
        return np.arange(self.n) * (self.cards.size // max(self.n, 1))

    def keep(self, rows: np.ndarray) -> Games:
        """Only the games `rows` (a mask or indices)."""
        n = self.n
        return Games(
            **{
                f.name: getattr(self, f.name).reshape(n, -1)[rows].ravel()
                if f.name in self.WIDE
                else getattr(self, f.name)[rows]
                for f in fields(self)
            }
        )

    def put(self, rows: np.ndarray, other: Games) -> None:
        """Games `other` in place of the games `rows`."""
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if f.name in self.WIDE:
                mine.reshape(self.n, -1)[rows] = theirs.reshape(other.n, -1)
            else:
                mine[rows] = theirs


def new_games(rules: Rules, n: int) -> Games:
    """n games before the deal: the whole deck in the pile, every player short of cards."""
    p = rules.players
    counts = rules.deck.counts()
    full = (1 << p) - 1
    return Games(
        game=np.arange(n),
        token=np.zeros(n, dtype=np.int64),
        rounds=np.zeros(n, dtype=np.int64),
        alive=np.full(n, full),
        short=np.full(n, full),
        holding=np.zeros(n, dtype=np.int64),
        cards=np.tile(np.repeat(np.arange(KINDS, dtype=np.int8), [counts[k] for k in range(KINDS)]), n),
        pile=np.full(n, rules.deck.size, dtype=np.int64),
        shown=np.zeros(n, dtype=U),
        face_up=np.zeros(n, dtype=np.int64),
        hand=np.zeros(n * p, dtype=U),
        size=np.zeros(n * p, dtype=np.int64),
        front=np.zeros(n * p, dtype=np.int64),
    )


@dataclass
class Chain:
    """The cards offered in the round in play: (3, games) arrays of each card's face, the value
    announced, its sender and its receiver; `length` the cards offered so far, `offered` the
    mask of the players they were offered to."""

    card: np.ndarray
    said: np.ndarray
    sender: np.ndarray
    receiver: np.ndarray
    length: np.ndarray
    offered: np.ndarray

    @staticmethod
    def empty(n: int) -> Chain:
        z = np.zeros((3, n), dtype=np.int64)
        return Chain(z, z.copy(), z.copy(), z.copy(), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64))


def from_states(states: Sequence[State]) -> tuple[Games, Chain]:
    """Games as the engine's states hold them (between rounds, or with cards offered), with the
    cards offered in the round in play."""
    rules = states[0].rules
    p, h = rules.players, rules.hand_size
    g, chain = new_games(rules, len(states)), Chain.empty(len(states))
    for i, s in enumerate(states):
        for seat in range(p):
            f = s.fronts[seat]
            g.hand[i * p + seat] = sum(U(n) << U(HAND * k) for k, n in enumerate(s.hands[seat]))
            g.size[i * p + seat] = sum(s.hands[seat])
            g.front[i * p + seat] = sum(int(FRONT_ADD[k]) * n for k, n in enumerate(f))
        still_in = [seat for seat in range(p) if not s.out[seat]]
        g.alive[i] = sum(1 << seat for seat in still_in)
        g.short[i] = sum(1 << seat for seat in still_in if sum(s.hands[seat]) < h)
        g.holding[i] = sum(1 << seat for seat in still_in if sum(s.hands[seat]))
        d = rules.deck.size
        g.cards[i * d : i * d + sum(s.pile)] = [k for k, n in enumerate(s.pile) for _ in range(n)]
        g.pile[i] = sum(s.pile)
        shown = [sum(column) for column in zip(*s.fronts)]
        g.shown[i], g.face_up[i] = sum(n << HAND * k for k, n in enumerate(shown)), sum(shown)
        g.token[i], g.rounds[i] = s.token, s.rounds
        for j, o in enumerate(s.chain):
            chain.card[j, i], chain.said[j, i], chain.sender[j, i], chain.receiver[j, i] = (
                o.card,
                o.announced,
                o.sender,
                o.receiver,
            )
            chain.offered[i] |= 1 << o.receiver
        chain.length[i] = len(s.chain)
    return g, chain


@dataclass(frozen=True)
class Taken:
    """Cards to be taken face up, counted: Charon, creature points, 1s, 2s and 3s (arrays)."""

    charon: np.ndarray
    points: np.ndarray
    ones: np.ndarray
    twos: np.ndarray
    threes: np.ndarray

    @staticmethod
    def none(shape: tuple[int, ...]) -> Taken:
        z = np.zeros(shape, dtype=np.int64)
        return Taken(z, z, z, z, z)

    def plus(self, kind: np.ndarray) -> Taken:
        """These cards and one of `kind` (-1: none)."""
        return Taken(
            self.charon + (kind == CHARON),
            self.points + np.maximum(kind, 0),
            self.ones + (kind == 1),
            self.twos + (kind == 2),
            self.threes + (kind == 3),
        )


class Table:
    """The bots at their seats, the tables they read, and the generator they draw from."""

    def __init__(
        self, rules: Rules, rng: np.random.Generator, bots: Sequence[str], sender: Sender | None = None
    ) -> None:
        self.rules = rules
        self.rng = rng
        self.bots = tuple(bots)
        unknown = sorted(set(self.bots) - set(BOTS))
        if unknown or len(self.bots) != rules.players:
            raise ValueError(
                f"bots must name one bot per seat ({rules.players}) among {', '.join(BOTS)} for the fast engine, "
                f"got {', '.join(self.bots)}"
            )
        p = rules.players
        self.seat_bot = np.array([BOTS.index(b) for b in self.bots])
        self.values = np.array(rules.deck.values)
        self.high = self.values[-TOP_VALUES:]
        counts = rules.deck.counts()
        self.deck_word = U(sum(counts[k] << HAND * k for k in range(KINDS)))
        self.seats = np.arange(p)
        self.sender = sender or Sender("naive", cards=rules.hand_size)
        # nth_seat[mask << 3 | j]: the j-th seat of a mask; next_seat[mask << 3 | s]: its first seat
        # clockwise from s (p if none).
        self.nth_seat = np.array([(_bits(m) + [0] * 8)[j] for m in range(64) for j in range(8)])
        self.next_seat = np.array(
            [min(((t - s) % p for t in _bits(m) if t < p), default=p) for m in range(64) for s in range(8)]
        )
        self.next_seat = np.where(self.next_seat < p, (self.next_seat + np.tile(np.arange(8), 64)) % p, p)

    # -- cards -----------------------------------------------------------------------------------
    def draw(self, g: Games, rows: np.ndarray, seat: np.ndarray) -> None:
        """Deal one card from the pile to `seat` in each game `rows`, drawn uniformly: a uniformly
        random card of the pile's, replaced there by the pile's last (a step of Fisher–Yates)."""
        left = g.pile[rows] - 1
        drawn = g.deck_base[rows] + uniform_below(self.rng, left + 1)
        kind = g.cards[drawn]
        g.cards[drawn] = g.cards[g.deck_base[rows] + left]
        g.pile[rows] = left
        i = g.base[rows] + seat
        g.hand[i] += HAND_WORD[kind]
        size = g.size[i] + 1
        g.size[i] = size
        bit = 1 << seat
        g.holding[rows] |= bit
        g.short[rows] = np.where(size < self.rules.hand_size, g.short[rows], g.short[rows] & ~bit)

    def refill(self, g: Games, rows: np.ndarray) -> None:
        """Deal or refill: each card to the first player still in, from the first player
        clockwise, with fewer than `hand_size` cards, while the pile lasts."""
        while rows.size:
            rows = rows[(g.short[rows] != 0) & (g.pile[rows] > 0)]
            if rows.size:
                self.draw(g, rows, self.next_seat[g.short[rows] << 3 | g.token[rows]])

    def start_round(self, g: Games, rows: np.ndarray, ended: np.ndarray) -> None:
        """The token passes to the next player still in with a card (it stays with player 1 after
        the deal); if there is none, the game ends (`NO_CARDS`)."""
        start = (g.token[rows] + (g.rounds[rows] > 0)) % self.rules.players
        first = self.next_seat[g.holding[rows] << 3 | start]
        none = first == self.rules.players
        g.token[rows] = np.where(none, g.token[rows], first)
        ended[rows[none]] = ENDS.index(NO_CARDS) + 1

    def deal(self, n: int) -> Games:
        """n new games, dealt: `hand_size` cards to each player in seat order, each card a step of
        Fisher–Yates over the whole pile (`draw` without its bookkeeping), player 1 to play first."""
        g = new_games(self.rules, n)
        p, h, d = self.rules.players, self.rules.hand_size, self.rules.deck.size
        piles = g.cards.reshape(n, d)
        every = np.arange(n)
        hands = g.hand.reshape(n, p)
        for t in range(p * h):
            left = d - 1 - t
            drawn = uniform_below(self.rng, np.full(n, left + 1))
            kind = piles[every, drawn]
            piles[every, drawn] = piles[:, left]
            hands[:, t // h] += HAND_WORD[kind]
        g.pile[:] = d - p * h
        g.size[:] = h
        g.short[:] = 0
        g.holding[:] = (1 << p) - 1
        return g

    def give(
        self,
        g: Games,
        rows: np.ndarray,
        me: np.ndarray,
        card: np.ndarray,
        said: np.ndarray,
        to: np.ndarray,
        chain: Chain,
        step: int = -1,
    ) -> None:
        """`me` adds `card` (announced `said`) to the cards offered and hands them to `to`:
        the chain's card `step` + 1 (the first player's offer: step -1)."""
        i = g.base[rows] + me
        g.hand[i] -= HAND_WORD[card]
        size = g.size[i] - 1
        g.size[i] = size
        bit = 1 << me
        g.short[rows] |= bit
        g.holding[rows] = np.where(size > 0, g.holding[rows], g.holding[rows] & ~bit)
        j = step + 1
        chain.card[j, rows], chain.said[j, rows], chain.sender[j, rows], chain.receiver[j, rows] = card, said, me, to
        chain.length[rows] = j + 1
        chain.offered[rows] |= 1 << to

    # -- what a player sees ------------------------------------------------------------------------
    def unseen(self, g: Games, rows: np.ndarray, me: np.ndarray) -> np.ndarray:
        """The cards `me` has not seen (the deck less its hand and every card face up), as words."""
        return self.deck_word - g.hand[g.base[rows] + me] - g.shown[rows]

    def plausible(self, g: Games, rows: np.ndarray, me: np.ndarray) -> np.ndarray:
        """The value `me` announces for a Charon (the Bayes bot): the deck's value with the most
        copies `me` has not seen, the highest among equals."""
        unseen = self.unseen(g, rows, me)
        best, said = np.full(rows.size, -1), np.zeros(rows.size, dtype=np.int64)
        for v in self.values:
            n = count_of(unseen, int(v))
            said = np.where(n >= best, v, said)
            best = np.maximum(best, n)
        return said

    def pick(self, eligible: np.ndarray) -> np.ndarray:
        """A uniformly random seat of each mask (none empty)."""
        j = uniform_below(self.rng, np.bitwise_count(eligible).astype(np.int64))
        return self.nth_seat[eligible << 3 | j]

    def ranked(self, g: Games, rows: np.ndarray, eligible: np.ndarray, highest: bool) -> np.ndarray:
        """The seat of each mask with the most points (`highest`) or the fewest, the lowest seat
        among equals (the Bayes bot's `_by_score`)."""
        points = score(g.front.reshape(g.n, -1)[rows])
        key = (points if highest else -points) * 8 - self.seats
        member = (eligible[:, None] >> self.seats) & 1 == 1
        return np.argmax(np.where(member, key, np.iinfo(np.int64).min), axis=1)

    # -- the bots ----------------------------------------------------------------------------------
    def offer(self, g: Games, rows: np.ndarray, bot: str, chain: Chain) -> None:
        """The first player's offer in each game `rows`, by `bot`."""
        me = g.token[rows]
        i = g.base[rows] + me
        hand = g.hand[i]
        eligible = g.alive[rows] & ~(1 << me)
        has_charon = hand & U(31) != 0
        if bot == "bayes":
            card = np.where(has_charon, CHARON, nth_kind(hand, np.zeros(rows.size, dtype=np.int64)))
            said = np.where(has_charon, self.plausible(g, rows, me), card)
            leader, last = self.ranked(g, rows, eligible, True), self.ranked(g, rows, eligible, False)
            to = np.where(has_charon, leader, last)
        else:
            card = nth_kind(hand, uniform_below(self.rng, g.size[i]))
            said = np.where(
                card == CHARON, self.values[uniform_below(self.rng, np.full(rows.size, self.values.size))], card
            )
            if bot == "bluffer":
                high = self.high[uniform_below(self.rng, np.full(rows.size, self.high.size))]
                card = np.where(has_charon, CHARON, card)
                said = np.where(has_charon, high, said)
            to = self.pick(eligible)
        self.give(g, rows, me, card, said, to, chain)

    def answer(self, g: Games, rows: np.ndarray, bot: str, chain: Chain, step: int) -> np.ndarray:
        """The answer of the receiver of card `step` (from 0) in each game `rows`, by `bot`:
        ACCEPT, REFUSE or PASS (then its card is added to the chain)."""
        me = chain.receiver[step, rows]
        i = g.base[rows] + me
        eligible = g.alive[rows] & ~(1 << g.token[rows]) & ~chain.offered[rows]
        may_pass = (eligible != 0) & (g.size[i] > 0) if step < 2 else np.zeros(rows.size, dtype=bool)
        if bot == "bayes":
            return self.bayes_answer(g, rows, me, chain, eligible, may_pass, step)
        wary = front_field(g.front[i], "charon") >= ELIMINATIONS_AT - 1
        move = np.where(wary, REFUSE, ACCEPT)
        if bot == "bluffer":
            bluff = np.flatnonzero(wary & may_pass & (g.hand[i] & U(31) != 0))
            if bluff.size:
                said = self.high[uniform_below(self.rng, np.full(bluff.size, self.high.size))]
                card = np.zeros(bluff.size, dtype=np.int64)
                self.give(g, rows[bluff], me[bluff], card, said, self.pick(eligible[bluff]), chain, step)
                move[bluff] = PASS
        return move

    def bayes_answer(
        self,
        g: Games,
        rows: np.ndarray,
        me: np.ndarray,
        chain: Chain,
        eligible: np.ndarray,
        may_pass: np.ndarray,
        step: int,
    ) -> np.ndarray:
        """The Bayes bot's answer (`policies.bayes`): it passes the card of its hand whose passing is
        worth most (the lowest kind among equals) to the leader if that beats accepting and
        refusing (0), else accepts unless refusing is worth more — the expected points of
        `odds.expected_values` under the posterior of `odds.chain_posterior`.

        The expected points are computed in floats from the posterior (`Table.joint`); where two
        of the values compared are within `CLOSE` of each other the decision is taken from the
        exact values instead (`exact_ranks`), so every decision is the bot's own."""
        posterior = self.posterior_key(g, rows, me, chain)
        distinct, index = np.unique(posterior, return_inverse=True)
        joint = np.stack([self.joint(int(k)) for k in distinct])[index]
        i = g.base[rows] + me
        accept, gains = self.worths(chain, rows, joint, g.front[i])
        held = np.stack([count_of(g.hand[i], k) > 0 for k in range(KINDS)], axis=1) & may_pass[:, None]
        by_card = np.where(held, (joint[:, :, None] * gains).sum(axis=1) * (float(NEXT_REFUSES) / 3), -np.inf)
        card = np.argmax(by_card, axis=1)
        best = by_card[np.arange(rows.size), card]
        stake = np.maximum(accept, 0.0)
        with np.errstate(invalid="ignore"):
            below = best[:, None] - by_card
            # Cards whose passing is worth the same float as the best card's are truly worth the
            # same only if they gain the same in every case; near misses are settled exactly.
            same = (gains == np.take_along_axis(gains, card[:, None, None], axis=2)).all(axis=1)
            unsure = ((below == 0) & held & ~same) | ((below > 0) & (below < CLOSE))
            close = (abs(accept) < CLOSE) | (abs(best - stake) < CLOSE) | unsure.any(axis=1)
        accept_rank, refuse_rank, best_rank = accept, np.zeros(rows.size), best
        if close.any():
            c = np.flatnonzero(close)
            keys = self.answer_key(g, rows[c], me[c], chain)
            ranks = np.stack([self.exact_ranks(int(k)) for k in keys]).astype(float)
            exact = np.where(held[c], ranks[:, 2:], -np.inf)
            accept_rank, best_rank = accept.copy(), best.copy()
            accept_rank[c], refuse_rank[c], best_rank[c] = ranks[:, 0], ranks[:, 1], exact.max(axis=1)
            stake[c] = np.maximum(ranks[:, 0], ranks[:, 1])
            card[c] = np.argmax(exact, axis=1)
        passes = np.flatnonzero(may_pass & (best_rank > stake))
        move = np.where(accept_rank >= refuse_rank, ACCEPT, REFUSE)
        if passes.size:
            b = passes
            said = np.where(card[b] == CHARON, self.plausible(g, rows[b], me[b]), card[b])
            to = self.ranked(g, rows[b], eligible[b], True)
            self.give(g, rows[b], me[b], card[b], said, to, chain, step)
            move[b] = PASS
        return move

    def posterior_key(self, g: Games, rows: np.ndarray, me: np.ndarray, chain: Chain) -> np.ndarray:
        """What the posterior of the cards offered to `me` depends on, packed in an int64: the
        values announced, the unseen Charon, the unseen cards of each value announced and the
        unseen cards in all."""
        unseen = self.unseen(g, rows, me)
        length = chain.length[rows]
        key = length.copy()
        said = [np.where(j < length, chain.said[j, rows], 0) for j in range(3)]
        n = [np.where(j < length, count_of(unseen, said[j]), 0) for j in range(3)]
        charon = count_of(unseen, CHARON)
        for j in range(3):
            key |= said[j] << 2 + 4 * j | n[j] << 18 + 3 * j
        key |= charon << 14
        first = [True, said[1] != said[0], (said[2] != said[0]) & (said[2] != said[1])]
        named = charon + sum(np.where(first[j], n[j], 0) for j in range(3))  # the unseen cards of the kinds named
        unseen_total = self.rules.deck.size - g.size[g.base[rows] + me] - g.face_up[rows]
        if self.sender.model == "naive":
            # Each naive sender offers a uniformly random card of a hand drawn from the pool: with
            # a full hand for every sender, the cards offered are drawn from the pool one by one,
            # whatever its size, so the posterior depends on the size only below that.
            unseen_total = np.minimum(unseen_total, np.maximum(length * self.sender.cards, named))
        return key | unseen_total << 27

    def joint(self, key: int) -> np.ndarray:
        """The posterior for a `posterior_key`, as floats: P(the cards that are Charon are those
        of pattern m) for m = 0..7 (bit j: card j)."""
        return _joint(key, self.rules.deck.values, self.sender)

    def worths(
        self, chain: Chain, rows: np.ndarray, joint: np.ndarray, front: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """For receivers with cards `front` in front (`odds.Valuation`'s model): the expected
        points of accepting the cards offered (floats), and for each pattern of Charon among
        them and each kind k, three times what the cards with a k added are worth beyond the k
        alone (integers: (games, 8, kinds)); passing with a k is worth half their expectation."""
        length = chain.length[rows]
        pattern = np.arange(8)
        taken = Taken.none((rows.size, 8))  # the cards of each pattern
        for j in range(3):
            here = (j < length)[:, None]
            taken = taken.plus(np.where(here, np.where(pattern >> j & 1, CHARON, chain.said[j, rows][:, None]), -1))
        mine = [front_field(front, name)[:, None] for name in ("charon", "ones", "twos", "threes")]
        accept = (joint * self.worth3(taken, mine)).sum(axis=1) / 3
        gains = np.empty((rows.size, 8, KINDS), dtype=np.int64)
        for k in range(KINDS):
            alone = Taken.none((rows.size, 1)).plus(np.full((rows.size, 1), k))
            gains[:, :, k] = self.worth3(taken.plus(np.full((rows.size, 8), k)), mine) - self.worth3(alone, mine)
        return accept, np.where(joint[:, :, None] > 0, gains, 0)

    def worth3(self, taken: Taken, front: list[np.ndarray]) -> np.ndarray:
        """Three times what taking the cards `taken` face up is worth to a player with `front`
        (its Charon, 1s, 2s and 3s), in points (`odds.Valuation.worth`, an integer so): the
        points they add, less a Charon's cost (target / 3) each; -target if they bring a third
        Charon."""
        goal = self.rules.goal
        charon, ones_, twos, threes = front
        sets = np.minimum(np.minimum(ones_, twos), threes)
        gained = np.minimum(np.minimum(ones_ + taken.ones, twos + taken.twos), threes + taken.threes) - sets
        value = 3 * (taken.points + BONUS * gained) - taken.charon * goal
        return np.where((taken.charon > 0) & (charon + taken.charon >= ELIMINATIONS_AT), -3 * goal, value)

    def answer_key(self, g: Games, rows: np.ndarray, me: np.ndarray, chain: Chain) -> np.ndarray:
        """Everything the Bayes bot's exact expected points depend on, packed in an int64: the
        `posterior_key`, the Charon in its front, and its 1s, 2s and 3s beyond their least (only
        3 count: no more than 3 cards are ever weighed)."""
        key = self.posterior_key(g, rows, me, chain)
        front = g.front[g.base[rows] + me]
        key |= front_field(front, "charon") << 33
        low = np.stack([front_field(front, name) for name in ("ones", "twos", "threes")], axis=1)
        beyond = np.minimum(low - low.min(axis=1, keepdims=True), 3)
        for j in range(3):
            key |= beyond[:, j] << 35 + 2 * j
        return key

    def exact_ranks(self, key: int) -> np.ndarray:
        """For one `answer_key`: the ranks (0 the least) of the exact expected points of accepting,
        of refusing (0) and of passing each kind (-1: not in the deck, or no passing), as
        `policies.bayes` weighs them with `odds.chain_posterior` and `odds.expected_values`."""
        return _exact_ranks(key, self.rules.deck.values, self.rules.goal, self.sender)

    # -- a round -----------------------------------------------------------------------------------
    def by_bot(self, seat: np.ndarray, rows: np.ndarray) -> list[tuple[str, np.ndarray]]:
        """The games `rows` grouped by the bot at `seat` in each: (bot, rows) pairs."""
        if len(set(self.bots)) == 1:
            return [(self.bots[0], rows)]
        bot = self.seat_bot[seat]
        return [(BOTS[b], rows[bot == b]) for b in np.unique(bot)]

    def round(self, g: Games) -> tuple[np.ndarray, np.ndarray]:
        """One round in every game: the offer, the answers, the cards turned up, the end
        conditions, the refill and the token passing on. How each game ended (0: it goes on),
        and who took the cards."""
        rows = np.arange(g.n)
        chain = Chain.empty(g.n)
        for bot, r in self.by_bot(g.token, rows):
            self.offer(g, r, bot, chain)
        who = np.zeros(g.n, dtype=np.int64)
        waiting = rows
        for step in range(3):
            move = np.empty(waiting.size, dtype=np.int64)
            receiver, sender = chain.receiver[step, waiting], chain.sender[step, waiting]
            for bot, r in self.by_bot(receiver, np.arange(waiting.size)):
                move[r] = self.answer(g, waiting[r], bot, chain, step)
            who[waiting] = np.where(move == ACCEPT, receiver, sender)
            waiting = waiting[move == PASS]
            if not waiting.size:
                break
        return self.turn_up(g, chain, who), who

    def turn_up(self, g: Games, chain: Chain, who: np.ndarray) -> np.ndarray:
        """The cards offered go face up in front of `who`; then elimination, the end conditions in
        RULES.md's order, the refill and the next first player. How each game ended (0: on)."""
        add, shown = FRONT_ADD[chain.card[0]], HAND_WORD[chain.card[0]]
        for j in (1, 2):
            here = j < chain.length
            if here.any():
                add += np.where(here, FRONT_ADD[chain.card[j]], 0)
                shown += np.where(here, HAND_WORD[chain.card[j]], U(0))
        i = g.base + who
        front = g.front[i] + add
        g.front[i] = front
        g.shown += shown
        g.face_up += chain.length
        g.rounds += 1
        ended = np.zeros(g.n, dtype=np.int64)
        out = front_field(front, "charon") >= ELIMINATIONS_AT
        if out.any():
            bit = 1 << who[out]
            g.alive[out] &= ~bit
            g.short[out] &= ~bit
            g.holding[out] &= ~bit
            ended[out & (np.bitwise_count(g.alive) == 1)] = ENDS.index(ELIMINATION) + 1
        ended[(ended == 0) & ~out & (score(front) >= self.rules.goal)] = ENDS.index(TARGET) + 1
        ended[(ended == 0) & (count_of(g.shown, CHARON) >= NINE)] = ENDS.index(NINE_CHARON) + 1
        if self.rules.rounds:
            ended[(ended == 0) & (g.rounds >= self.rules.rounds)] = ENDS.index(ROUND_LIMIT) + 1
        on = np.flatnonzero(ended == 0)
        self.refill(g, on)
        self.start_round(g, on, ended)
        return ended

    def shares(self, g: Games, ended: np.ndarray, who: np.ndarray) -> np.ndarray:
        """Each seat's win share in games that ended: the one left (elimination), the receiver
        (target), else the most points among players still in, then the most cards in front,
        a tie shared."""
        front = g.front.reshape(g.n, -1)
        still_in = (g.alive[:, None] >> self.seats) & 1 == 1
        key = np.where(still_in, score(front) * 64 + front_field(front, "cards"), -1)
        best = key == key.max(axis=1, keepdims=True)
        target = ended == ENDS.index(TARGET) + 1
        best[target] = self.seats == who[target, None]
        return best / best.sum(axis=1, keepdims=True)


def play(
    rules: Rules, rng: np.random.Generator, n: int, bots: Sequence[str], sender: Sender | None = None
) -> dict[str, np.ndarray]:
    """n whole games with `bots` at the seats (one of `BOTS` each, e.g. `Setup.seat_bots`), the
    Bayes bots judging offers with the `sender` model (default: `policies.bayes`'s):
    `ended` (1..5, the index in `ENDS` plus 1), `rounds` and `shares`, (n, players) win shares
    (a k-way shared win counts 1/k).

    Up to `CHUNK` games are in play at once; a game that ends makes room for a new one, dealt
    beforehand with others (`Table.deal`), until all n have started."""
    table = Table(rules, rng, bots, sender)
    ended = np.zeros(n, dtype=np.int64)
    rounds = np.zeros(n, dtype=np.int64)
    shares = np.zeros((n, rules.players))
    g = table.deal(min(CHUNK, n))
    started, reserve, taken = g.n, table.deal(0), 0
    while g.n:
        how, who = table.round(g)
        done = np.flatnonzero(how)
        if not done.size:
            continue
        finished = g.keep(done)
        ended[finished.game] = how[done]
        rounds[finished.game] = finished.rounds
        shares[finished.game] = table.shares(finished, how[done], who[done])
        new = min(done.size, n - started)
        if new > reserve.n - taken:
            reserve, taken = table.deal(max(new, min(CHUNK, n - started))), 0
        if new:
            fresh = reserve.keep(np.arange(taken, taken + new))
            taken += new
            fresh.game = np.arange(started, started + new)
            g.put(done[:new], fresh)
            started += new
        if new < done.size:
            live = np.ones(g.n, dtype=bool)
            live[done[new:]] = False
            g = g.keep(live)
    return {"ended": ended, "rounds": rounds, "shares": shares}


def _pool(key: int, values: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """The unseen pool (grouped: Charon, each value announced, the rest) and the values
    announced of a `posterior_key`."""
    field = _fields(key)
    announced = tuple(field(2 + 4 * j, 4) for j in range(field(0, 2)))
    pool = {CHARON: field(14, 4)} | {a: field(18 + 3 * j, 3) for j, a in enumerate(announced)}
    rest = next(v for v in values if v not in announced)  # the other unseen cards, grouped
    pool[rest] = field(27, 6) - sum(pool.values())
    return tuple(sorted(pool.items())), announced


@cache
def _joint(key: int, values: tuple[int, ...], sender: Sender) -> np.ndarray:
    chain = cached_posterior(*_pool(key, values), values, sender)
    out = np.zeros(8)
    for pattern, p in chain.joint.items():
        out[sum(1 << j for j, c in enumerate(pattern) if c)] = float(p)
    return out


@cache
def _exact_ranks(key: int, values: tuple[int, ...], goal: int, sender: Sender) -> np.ndarray:
    field = _fields(key)
    pool, announced = _pool(key, values)
    front = (CHARON,) * field(33, 2) + tuple(v for j, v in enumerate((1, 2, 3)) for _ in range(field(35 + 2 * j, 2)))
    chain = cached_posterior(pool, announced, values, sender)
    valuation = Valuation(goal=goal, front=front)
    worths: list[Fraction | None] = [expected_values(chain, announced, (), valuation, False).accept, Fraction(0)]
    worths += [
        expected_values(chain, announced, (k,), valuation).pass_ if k == CHARON or k in values else None
        for k in range(KINDS)
    ]
    order = sorted({w for w in worths if w is not None})
    return np.array([-1 if w is None else order.index(w) for w in worths], dtype=np.int64)


# -- simulate ----------------------------------------------------------------------------------------
def games_kernel(setup: Setup, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games with the setup's bots (`Setup.seat_bots`): how each ended, its rounds, and
    whether each seat won (a shared win counting its share). Naive, bluffing and Bayes bots play
    in the vectorised engine (`play`); a table with a `random_legal` bot plays through the game
    protocol's loop (`nessus.play.play`)."""
    rules, bots = setup.rules, setup.seat_bots
    if set(bots) <= set(BOTS):
        out = play(rules, rng, n, bots)
        ended = np.array(ENDS, dtype=object)[out["ended"] - 1]
        rounds, shares = out["rounds"], out["shares"]
    else:
        named = policies(rules)
        seats = [named[b] for b in bots]
        ends = [cast(State, play_loop(initial_state(rules), seats, rng)) for _ in range(n)]
        ended = np.array([e.ended for e in ends], dtype=object)
        rounds = np.array([e.rounds for e in ends], dtype=np.int64)
        shares = np.array([[float(r) for r in e.returns()] for e in ends]).reshape(n, rules.players)
    out = {f"p_game_ends_by_{reason}": ended == reason for reason in (TARGET, ELIMINATION, NINE_CHARON)}
    out["p_game_ends_with_no_cards"] = ended == NO_CARDS
    if rules.rounds:
        out["p_game_ends_at_round_limit"] = ended == ROUND_LIMIT
    out["mean_rounds"] = rounds
    for seat, bot in enumerate(bots):
        out[f"win_share_seat_{seat + 1}_{bot}"] = shares[:, seat]
    return out


def hands_kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n fresh hands dealt from a shuffled deck: whether each holds no Charon, or 3 or more (the
    Monte Carlo check of the exact hand odds). The deck's Charon are its first cards."""
    d = rules.deck
    dealt = np.argsort(rng.random((n, d.size)), axis=1)[:, : rules.hand_size]
    charon = (dealt < d.charon).sum(axis=1)
    return {"p_hand_no_charon": charon == 0, "p_hand_3plus_charon": charon >= 3}


def simulate(
    setup: Setup | None = None, trials: int = 100_000, seed: int = 0, client: Any = None, progress: Any = None
) -> Report:
    """Fresh hands and whole games of the setup's bots by Monte Carlo, with 95% intervals: the hand
    odds (`p_hand_no_charon`, `p_hand_3plus_charon`, checks of the exact ones), how games end (the
    target, an elimination leaving one player, 9 Charon face up, or no card left in any hand),
    the mean number of rounds, and each seat's win share. Games of naive, bluffing and Bayes
    bots are played by the vectorised engine (`play`: hundreds of thousands a second without a
    Bayes bot, tens of thousands with), others by the generic play loop."""
    setup = setup or Setup()
    hands = montecarlo.run(partial(hands_kernel, setup.rules), trials, seed, client=client, progress=progress)
    run = montecarlo.run(partial(games_kernel, setup), trials, seed + 1, client=client, progress=progress)
    estimates = hands.estimates | run.estimates
    return Report(NAME, setup.as_dict(), {k: Figure.estimated(e) for k, e in estimates.items()})
