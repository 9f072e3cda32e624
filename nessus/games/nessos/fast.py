"""Nessos, many games at once: a numpy engine for the bots `naive`, `bluffer` and `bayes`, whole
games from the deal (`play`, for `simulation`) or on from given states (`play_from`, for the
rollouts of `rollouts`).

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
from functools import cache, cached_property
from math import lcm
from typing import TYPE_CHECKING

import numpy as np

from nessus.dice import uniform_below
from nessus.games.nessos.deck import BONUS, CHARON, KINDS
from nessus.games.nessos.odds import Sender, Valuation, cached_posterior
from nessus.games.nessos.rules import ELIMINATIONS_AT, ENDS, NINE, TOP_VALUES, Rules

if TYPE_CHECKING:
    from nessus.games.nessos.state import State

BOTS = ("naive", "bluffer", "bayes")
"""The bots this engine plays (`random_legal` is left to the generic loop)."""
TARGET, ELIMINATION, NINE_CHARON, NO_CARDS, ROUND_LIMIT = ENDS
"""How a game ended, coded 1..5 in `play`'s `ended` (0: still in play): the index in `ENDS` plus 1."""
ACCEPT, REFUSE, PASS = 0, 1, 2
CLOSE = 1e-9
"""Expected points closer than this are compared exactly (`Table.bayes_answer`)."""
NEXT_REFUSES = Valuation().next_refuses
"""The Bayes bot's chance that cards it passes come back (`odds.Valuation`)."""
CHUNK = 1 << 14
RANKS: dict[tuple, dict[int, np.ndarray]] = {}
"""`Table.exact_ranks` remembered, by deck values, target and sender model, then by key."""
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

    def keep(self, rows: np.ndarray) -> Chain:
        """Only the games `rows`."""
        return Chain(*(getattr(self, f.name)[..., rows] for f in fields(self)))


def from_states(states: Sequence[State], piles: Sequence[np.ndarray] | None = None) -> tuple[Games, Chain]:
    """Games as the engine's states hold them (at any point of a round), with the cards offered in
    the round in play; each pile's cards in kind order, or in the order `piles` gives (its last
    card drawn first, for a `Table` drawing `in_order`)."""
    rules = states[0].rules
    n, p, d = len(states), rules.players, rules.deck.size
    g, chain = new_games(rules, n), Chain.empty(n)
    shift = U(HAND) * np.arange(KINDS, dtype=U)
    hands = np.array([s.hands for s in states], dtype=np.int64)  # (games, seats, kinds)
    fronts = np.array([s.fronts for s in states], dtype=np.int64)
    counts = np.array([s.pile for s in states], dtype=np.int64)
    size = hands.sum(axis=2)
    still_in = ~np.array([s.out for s in states], dtype=bool)
    seat_bit = 1 << np.arange(p)
    g.hand[:] = (hands.astype(U) << shift).sum(axis=2, dtype=U).ravel()
    g.size[:] = size.ravel()
    g.front[:] = (fronts * FRONT_ADD).sum(axis=2).ravel()
    g.alive[:] = still_in @ seat_bit
    g.short[:] = (still_in & (size < rules.hand_size)) @ seat_bit
    g.holding[:] = (still_in & (size > 0)) @ seat_bit
    g.pile[:] = counts.sum(axis=1)
    row = np.repeat(np.arange(n), g.pile)
    laid = np.concatenate(piles) if piles is not None else np.repeat(np.tile(np.arange(KINDS), n), counts.ravel())
    g.cards[row * d + np.arange(row.size) - np.repeat(np.cumsum(g.pile) - g.pile, g.pile)] = laid
    shown = fronts.sum(axis=1)
    g.shown[:] = (shown.astype(U) << shift).sum(axis=1, dtype=U)
    g.face_up[:] = shown.sum(axis=1)
    g.token[:] = [s.token for s in states]
    g.rounds[:] = [s.rounds for s in states]
    for i, s in enumerate(states):
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
    """The bots at their seats, the tables they read, and the generator they draw from (`in_order`:
    each card drawn is the pile's last, the piles laid in a random order beforehand)."""

    def __init__(
        self,
        rules: Rules,
        rng: np.random.Generator,
        bots: Sequence[str],
        sender: Sender | None = None,
        in_order: bool = False,
    ) -> None:
        self.rules, self.in_order = rules, in_order
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
        self.ranks = RANKS.setdefault((rules.deck.values, rules.goal, self.sender), {})
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
        random card of the pile's, replaced there by the pile's last (a step of Fisher–Yates); or,
        for piles laid in a random order (`in_order`), the pile's last."""
        left = g.pile[rows] - 1
        drawn = g.deck_base[rows] + (left if self.in_order else uniform_below(self.rng, left + 1))
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
        exact values instead (`exact_choice`), so every decision is the bot's own."""
        i = g.base[rows] + me
        held = np.stack([count_of(g.hand[i], k) > 0 for k in range(KINDS)], axis=1) & may_pass[:, None]
        accept_rank, refuse_rank, best_rank, stake, card = self.float_choice(g, rows, me, chain, held)
        passes = np.flatnonzero(may_pass & (best_rank > stake))
        move = np.where(accept_rank >= refuse_rank, ACCEPT, REFUSE)
        if passes.size:
            b = passes
            said = np.where(card[b] == CHARON, self.plausible(g, rows[b], me[b]), card[b])
            to = self.ranked(g, rows[b], eligible[b], True)
            self.give(g, rows[b], me[b], card[b], said, to, chain, step)
            move[b] = PASS
        return move

    def exact_choice(self, g: Games, rows: np.ndarray, me: np.ndarray, chain: Chain, held: np.ndarray) -> tuple:
        """The ranks of accepting, of refusing, of passing the best card `held` and of the better
        of accepting and refusing, and that card, from the exact values (`exact_ranks`)."""
        distinct, index = np.unique(self.answer_key(g, rows, me, chain), return_inverse=True)
        ranks = np.stack([self.exact_ranks(int(k)) for k in distinct])[index].astype(float)
        exact = np.where(held, ranks[:, 2:], -np.inf)
        return ranks[:, 0], ranks[:, 1], exact.max(axis=1), ranks[:, :2].max(axis=1), np.argmax(exact, axis=1)

    def float_choice(self, g: Games, rows: np.ndarray, me: np.ndarray, chain: Chain, held: np.ndarray) -> tuple:
        """What `exact_choice` gives, from the expected points in floats where no two values
        compared are within `CLOSE` of each other (those rows from `exact_choice`)."""
        distinct, index = np.unique(self.posterior_key(g, rows, me, chain), return_inverse=True)
        joint = np.stack([self.joint(int(k)) for k in distinct])[index]
        accept, gains = self.worths(chain, rows, joint, g.front[g.base[rows] + me])
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
            close = np.flatnonzero((abs(accept) < CLOSE) | (abs(best - stake) < CLOSE) | unsure.any(axis=1))
        refuse = np.zeros(rows.size)
        if close.size:
            exact = self.exact_choice(g, rows[close], me[close], chain, held[close])
            for mine, theirs in zip((accept, refuse, best, stake, card), exact):
                mine[close] = theirs
        return accept, refuse, best, stake, card

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
        kinds = np.arange(KINDS)  # (games, patterns, kinds) below: each kind added to each pattern
        with_k = Taken(*(getattr(taken, f.name)[:, :, None] for f in fields(Taken))).plus(kinds)
        mine = [m[:, :, None] for m in mine]
        gains = self.worth3(with_k, mine) - self.worth3(Taken.none((1, 1, KINDS)).plus(kinds), mine)
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
        ranks = self.ranks.get(key)
        if ranks is None:
            ranks = self.ranks[key] = _exact_ranks(key, self.rules.deck.values, self.rules.goal, self.sender)
        return ranks

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
        who = self.answers(g, chain, rows)
        return self.turn_up(g, chain, who), who

    def answers(self, g: Games, chain: Chain, rows: np.ndarray) -> np.ndarray:
        """The answers in games `rows`, from the receiver of each chain's last card, until the cards
        are accepted or refused: who takes them, by game (0 in the other games)."""
        who = np.zeros(g.n, dtype=np.int64)
        for step in range(3):
            waiting = rows[chain.length[rows] == step + 1]  # a chain passed on is one card longer
            if not waiting.size:
                continue
            move = np.empty(waiting.size, dtype=np.int64)
            receiver, sender = chain.receiver[step, waiting], chain.sender[step, waiting]
            for bot, r in self.by_bot(receiver, np.arange(waiting.size)):
                move[r] = self.answer(g, waiting[r], bot, chain, step)
            who[waiting] = np.where(move == ACCEPT, receiver, sender)
        return who

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


def play_from(
    states: Sequence[State],
    rng: np.random.Generator,
    bots: Sequence[str],
    sender: Sender | None = None,
    piles: Sequence[np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """Each of `states` (games of the same rules, at any point: cards offered, cards being drawn,
    between rounds, or over) played on to the end by `bots`, as `play` plays them: `shares`, (n,
    players) win shares, and `points`, (n, players) the points in front of each seat at the end.
    `piles`: each pile's cards in the order they will be drawn, the last first (by default they
    are drawn uniformly)."""
    rules, n = states[0].rules, len(states)
    table = Table(rules, rng, bots, sender, in_order=piles is not None)
    g, chain = from_states(states, piles)
    ended = np.array([ENDS.index(s.ended) + 1 if s.ended else 0 for s in states], dtype=np.int64)
    shares = np.zeros((n, rules.players))
    for i in np.flatnonzero(ended).tolist():
        shares[i] = [float(r) for r in states[i].returns()]
    points = np.zeros((n, rules.players), dtype=np.int64)
    offered = np.flatnonzero(chain.length > 0)
    who = table.answers(g, chain, offered)
    if offered.size:  # the round in play ends
        games = g.keep(offered)
        ended[offered] = table.turn_up(games, chain.keep(offered), who[offered])
        g.put(offered, games)
    drawing = np.flatnonzero(np.array([s.drawing and not s.ended for s in states]))
    table.refill(g, drawing)
    table.start_round(g, drawing, ended)
    fresh = np.flatnonzero((ended > 0) & ~np.array([bool(s.ended) for s in states]))
    if fresh.size:
        shares[fresh] = table.shares(g.keep(fresh), ended[fresh], who[fresh])
    points[:] = score(g.front.reshape(n, -1))
    live = g.keep(ended == 0)
    while live.n:
        how, who = table.round(live)
        done = np.flatnonzero(how)
        if done.size:
            games = live.keep(done)
            shares[games.game] = table.shares(games, how[done], who[done])
            points[games.game] = score(games.front.reshape(done.size, -1))
            live = live.keep(how == 0)
    return {"shares": shares, "points": points}


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
    """`Table.exact_ranks`: the values of `odds.expected_values` (accept, refuse, pass with each
    kind), each times the posterior's common denominator `scale` (the same ranks, in sums of whole
    weights: fast)."""
    field = _fields(key)
    pool, announced = _pool(key, values)
    front = (CHARON,) * field(33, 2) + tuple(v for j, v in enumerate((1, 2, 3)) for _ in range(field(35 + 2 * j, 2)))
    joint = cached_posterior(pool, announced, values, sender).joint
    scale = lcm(*(p.denominator for p in joint.values()))
    cases = [
        (tuple(CHARON if c else v for c, v in zip(pattern, announced)), p.numerator * (scale // p.denominator))
        for pattern, p in joint.items()
    ]
    valuation = Valuation(goal=goal, front=front)

    def expected(extra: tuple[int, ...]) -> Fraction:
        return sum((weight * valuation.worth(cards + extra) for cards, weight in cases), Fraction(0))

    worths: list[Fraction | None] = [expected(()), Fraction(0)]
    worths += [
        valuation.next_refuses * (expected((k,)) - scale * valuation.worth((k,)))
        if (k == CHARON or k in values) and len(announced) < 3
        else None
        for k in range(KINDS)
    ]
    order = sorted({w for w in worths if w is not None})
    return np.array([-1 if w is None else order.index(w) for w in worths], dtype=np.int64)
