"""Nyx played out fast: the rules of `nyx.state` and the bots of `nyx.policies` on a mutable
table of plain lists and tuples, for the rollouts of the win-chance hint (`nyx.rollouts`).

`Table(state)` copies any position of the protocol `State`; `Table.run(bots, chance)` plays it
to the end, each seat's moves by its bot (`BOTS`: greedy, odds and random_legal, played as
`nyx.policies` plays them) and chance by `chance`: a `Stream` draws from one generator as the
protocol's play loop does (`play.sample`: one integer below the common denominator per roll or
card), so that from the same state and seed the table plays the very game `nessus.play.play`
plays with greedy and odds (tests/games/nyx/test_playout.py checks it, move by move);
random_legal draws from a stream of its own here (the protocol's from the mover's observation),
so only its law is the same. A `World` is a rollout's chance (see `nyx.rollouts`).

A move is a tuple: (NO_REROLL,), (REROLL, dice), (DREAM, slot, symbol index, cells mask),
(SPELL, slot), (WHITE,), (BLACK,), (END, dream slot, spell slot), (PASS,); dice are counted by
colour and symbol as in `nyx.state.Dice`, a matrix is a 9-bit mask (bit c - 1 for cell c).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from nessus.games.nyx.cards import CARDS, card_value
from nessus.games.nyx.matrix import NAMES, _placements
from nessus.games.nyx.odds import colour_rolls, p_within
from nessus.games.nyx.rules import MAX_BLACK, MAX_TURNS, ODDS_ROLLS, ROLL_CAP, SIDES, SYMBOLS, THRESHOLD

if TYPE_CHECKING:
    from nessus.games.nyx.state import State

NO_REROLL, REROLL, DREAM, SPELL, WHITE, BLACK, END, PASS = range(8)
ROLL, CHOOSE, REROLLING, ACT, DONE, OVER, DEAL = "roll", "choose", "reroll", "act", "done", "over", "deal"
Move = tuple[Any, ...]
Dice = tuple[int, ...]
FULL = (1 << 9) - 1
SIZE = tuple(card.size for card in CARDS)
"""The dice each card takes, by id."""
NEED = tuple(tuple(card.symbols.count(s) for s in SYMBOLS) for card in CARDS)
"""The stars, crescents and moons each spell takes, by id."""
PAID = tuple(tuple(i for i, s in enumerate(SYMBOLS) for _ in range(card.symbols.count(s))) for card in CARDS)
"""The symbols (indices) each spell takes, by id, in the order `State` pays them."""


def _mask(cells: Sequence[int] | frozenset[int]) -> int:
    return sum(1 << (c - 1) for c in cells)


@cache
def placements(shape: str) -> tuple[int, ...]:
    """The placements of `shape` as masks, in `matrix.placements` order."""
    return tuple(_mask(p) for p in _placements(shape))


@cache
def room_table() -> tuple[int, ...]:
    """`matrix.room` of every set of free cells (by mask): the placements of every shape that fit."""
    every = [m for shape in NAMES for m in placements(shape)]
    return tuple(sum(m & free == m for m in every) for free in range(FULL + 1))


@cache
def best_placement(shape: str, blocked: int) -> tuple[int, int] | None:
    """The placement of `shape` off the `blocked` cells that leaves the most room (the first such
    in `matrix.placements` order): (room, mask), or None if it does not fit."""
    rooms, best = room_table(), None
    for m in placements(shape):
        if not m & blocked and (best is None or rooms[FULL & ~blocked & ~m] > best[0]):
            best = (rooms[FULL & ~blocked & ~m], m)
    return best


@cache
def card_values(players: int) -> tuple[int, ...]:
    """`cards.card_value` of every card, by id."""
    return tuple(card_value(card, players) for card in CARDS)


@cache
def roll_table(black: int, white: int) -> tuple[int, list[int], list[Dice]]:
    """A roll of `black` and `white` dice as `play.sample` draws it from `State.chance_outcomes`:
    the common denominator, the cumulative counts and the rolls (by colour and symbol)."""
    weights = [
        (b + w, Fraction(wb * ww, SIDES ** (black + white)))
        for b, wb in colour_rolls(black, "black")
        for w, ww in colour_rolls(white, "white")
    ]
    den = math.lcm(*(p.denominator for _, p in weights))
    counts = np.cumsum([p.numerator * (den // p.denominator) for _, p in weights])
    return den, [int(c) for c in counts], [dice for dice, _ in weights]


class Stream:
    """Chance as the protocol's play loop draws it: one generator, one integer per roll or card."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def roll(self, seat: int, black: int, white: int) -> Dice:
        """Seat `seat`'s roll of `black` and `white` dice."""
        den, cumulative, dice = roll_table(black, white)
        return dice[bisect_right(cumulative, int(self.rng.integers(den)))]

    def draw(self, deck: list[int], which: int) -> int:
        """The next card of `deck` (the dreams' 0, the spells' 1), taken out of it."""
        return deck.pop(int(self.rng.integers(len(deck))))

    def pick(self, count: int) -> int:
        """A uniform integer below `count`, for random_legal."""
        return int(self.rng.integers(count))


class World(Stream):
    """A rollout's chance from `table`: each deck in a uniformly random order and one stream of
    rolls per seat (and one for random_legal), all drawn from `rng`, so that every move tried from
    one position meets the same cards and each seat the same rolls, roll by roll (the decks are
    the same after any move, before its draws). A roll is drawn exactly as `Stream`'s: a uniform
    integer below the common denominator, from the seat's 64-bit integers by rejection."""

    AHEAD = 40
    """The 64-bit integers drawn ahead per stream (a longer game draws more, per stream)."""

    def __init__(self, rng: np.random.Generator, table: Table) -> None:
        self.rng = rng
        self.orders = [rng.permutation(sorted(deck)).tolist() for deck in table.decks]  # whatever order listed
        raw = rng.bit_generator.random_raw((table.n + 1) * (self.AHEAD + 1)).tolist()
        self.ahead = [raw[k :: table.n + 1] for k in range(table.n + 1)]  # the last of each: its seed for more

    def _below(self, stream: int, count: int) -> int:
        """A uniform integer below `count` from `stream` (64-bit integers, the top partial block rejected)."""
        ahead = self.ahead[stream]
        while True:
            if len(ahead) == 1:
                ahead[:] = np.random.default_rng(ahead[0]).bit_generator.random_raw(self.AHEAD + 1).tolist()
            x = ahead.pop()
            if x < (2**64 // count) * count:
                return x % count

    def roll(self, seat: int, black: int, white: int) -> Dice:
        den, cumulative, dice = roll_table(black, white)
        return dice[bisect_right(cumulative, self._below(seat, den))]

    def draw(self, deck: list[int], which: int) -> int:
        card = self.orders[which].pop()
        deck.remove(card)
        return card

    def pick(self, count: int) -> int:
        return self._below(-1, count)


class Table:
    """A position of Nyx, played in place (see the module docstring): per seat `score`, `black`,
    `white`, `free` (dice), `started`, `rolls`, `pending_black`, `pending_white`, `matrix`
    (mask), `night` and `active` (card ids); the `decks` (dreams, spells: lists of ids), the
    `display` (dreams, spells: tuples of ids or None), the reserves, `turn`, `phase` (as
    `State.phase`), `draws` ((deck 0 or 1, slot) waiting), `rolling`, `rerolled`, `exhausted`."""

    def __init__(self, state: State) -> None:
        self.n = state.players
        seats = state.seats
        self.score = [s.score for s in seats]
        self.black = [s.black for s in seats]
        self.white = [s.white for s in seats]
        self.free = [tuple(s.free) for s in seats]
        self.started = [s.started for s in seats]
        self.rolls = [s.rolls for s in seats]
        self.pending_black = [s.pending_black for s in seats]
        self.pending_white = [s.pending_white for s in seats]
        self.matrix = [_mask(s.matrix) for s in seats]
        self.night = [list(s.night) for s in seats]
        self.active = [list(s.active) for s in seats]
        self.decks = (list(state.dream_deck), list(state.spell_deck))
        self.display = [tuple(state.dreams), tuple(state.spells)]
        self.reserve_black, self.reserve_white = state.reserve_black, state.reserve_white
        self.turn, self.phase, self.rerolled, self.exhausted = state.turn, state.phase, state.rerolled, state.exhausted
        self.draws = [(0 if deck == "dream" else 1, slot) for deck, slot in state.draws]
        self.rolling: Dice = tuple(state.rolling)

    def copy(self) -> Table:
        """An independent copy."""
        t = object.__new__(Table)
        t.__dict__.update(self.__dict__)
        for name in ("score", "black", "white", "free", "started", "rolls", "pending_black", "pending_white"):
            setattr(t, name, list(getattr(self, name)))
        t.matrix, t.display, t.draws = list(self.matrix), list(self.display), list(self.draws)
        t.night, t.active = [list(c) for c in self.night], [list(c) for c in self.active]
        t.decks = (list(self.decks[0]), list(self.decks[1]))
        return t

    @property
    def mover(self) -> int:
        return self.turn % self.n

    def chance(self) -> bool:
        """Whether chance acts next (a card to draw, dice to roll)."""
        return bool(self.draws) or self.phase in (ROLL, REROLLING)

    def _place(self, deck: int, slot: int, card: int | None) -> None:
        shown = self.display[deck]
        self.display[deck] = shown[:slot] + (card,) + shown[slot + 1 :]

    # -- chance ------------------------------------------------------------------------------------
    def draw(self, card: int) -> None:
        """The next card drawn is `card` (out of its deck, into the slot waiting for it)."""
        deck, slot = self.draws.pop(0)
        if card in self.decks[deck]:  # a chance source may have taken it out already
            self.decks[deck].remove(card)
        self._place(deck, slot, card)
        self._drawing()

    def roll(self, dice: Dice) -> None:
        """The dice rolled (the night's roll, or the reroll of `rolling`) show `dice`."""
        p = self.mover
        if self.phase == ROLL:
            self.free[p], self.started[p], self.rolls[p] = tuple(dice), True, 1
        else:
            self.free[p] = tuple(f - r + d for f, r, d in zip(self.free[p], self.rolling, dice))
            self.rolls[p] += 1
        self.phase, self.rerolled, self.rolling = ACT, True, (0,) * 6

    def dice_to_roll(self) -> tuple[int, int]:
        """The black and white dice the chance node rolls."""
        if self.phase == ROLL:
            return self.black[self.mover], self.white[self.mover]
        return sum(self.rolling[:3]), sum(self.rolling[3:])

    # -- moves -------------------------------------------------------------------------------------
    def apply(self, move: Move) -> None:
        """The mover plays `move` (a legal one)."""
        p, kind = self.mover, move[0]
        if kind == NO_REROLL:
            self.phase = ACT
            return
        if kind == REROLL:
            self.phase, self.rolling = REROLLING, move[1]
            return
        if kind == END:
            self._end_night(p, move[1], move[2])
        elif kind in (DREAM, SPELL):
            deck = 0 if kind == DREAM else 1
            card = self.display[deck][move[1]]
            assert card is not None
            self._spend(p, (move[2],) * SIZE[card] if kind == DREAM else PAID[card])
            if kind == DREAM:
                self.matrix[p] |= move[3]
            self.night[p].append(card)
            self._place(deck, move[1], None)
            self.draws = [(deck, move[1])]
        elif kind == WHITE:
            self._spend(p, (0,))
            self.pending_white[p] += 1
            self.reserve_white -= 1
        elif kind == BLACK:
            self._spend(p, (0, 1, 2))
            self.pending_black[p] += 1
            self.reserve_black -= 1
        self.phase = DONE
        self._drawing()

    def _spend(self, p: int, symbols: Sequence[int]) -> None:
        """The mover pays one free die a symbol, white before black (`state.pay`)."""
        free = list(self.free[p])
        for i in symbols:
            free[3 + i if free[3 + i] else i] -= 1
        self.free[p] = tuple(free)

    def _score_night(self, p: int) -> None:
        gain = sum(CARDS[c].points for c in self.active[p])
        loss = 0
        for c in self.night[p]:
            if CARDS[c].kind == "nightmare":
                loss += CARDS[c].points
            else:
                gain += CARDS[c].points
        for q in range(self.n):
            self.score[q] = self.score[q] + gain if q == p else max(0, self.score[q] - loss)

    def _end_night(self, p: int, dream: int | None, spell: int | None) -> None:
        self._score_night(p)
        self.active[p] += [c for c in self.night[p] if CARDS[c].effect == "power"]
        self.reserve_white += self.white[p]
        self.black[p] += self.pending_black[p]
        self.white[p] = self.pending_white[p]
        self.pending_black[p] = self.pending_white[p] = self.rolls[p] = self.matrix[p] = 0
        self.free[p], self.started[p], self.night[p] = (0,) * 6, False, []
        for deck, slot in ((0, dream), (1, spell)):
            if slot is not None:
                self._place(deck, slot, None)
                self.draws.append((deck, slot))

    def _drawing(self) -> None:
        """`State._drawing`: skip the draws from empty decks, then the next turn (or the end)."""
        while self.draws:
            if self.decks[self.draws[0][0]]:
                return
            self.draws.pop(0)
            self.exhausted = True
        if self.phase != DEAL:
            self.turn, self.rerolled = self.turn + 1, False
            if (self.exhausted and self.turn % self.n == 0) or self.turn >= MAX_TURNS * self.n:
                for p in range(self.n):
                    self._score_night(p)
                self.phase = OVER
                return
        self.phase, self.rerolled = CHOOSE if self.started[self.mover] else ROLL, False

    # -- what the bots read ------------------------------------------------------------------------
    def can_buy(self) -> tuple[bool, bool]:
        """Whether the mover may buy a black die, and a white die."""
        p = self.mover
        free = self.free[p]
        black = (
            self.reserve_black > 0
            and self.black[p] + self.pending_black[p] < MAX_BLACK
            and free[0] + free[3] > 0
            and free[1] + free[4] > 0
            and free[2] + free[5] > 0
        )
        return black, self.reserve_white > 0 and free[0] + free[3] > 0

    def best_realisation(self) -> Move | None:
        """`policies.best_realisation`: the Dream or Spell worth most now, a dream placed where it
        leaves the most room (the first such in the legal order); None if none can be realised."""
        p = self.mover
        return realisation(self.display[0], self.display[1], self.free[p], self.matrix[p], self.n)

    def chase(self) -> tuple[Fraction, int | None]:
        """`policies.chase`: the highest card value × P(enough dice of a symbol within `ODDS_ROLLS`
        rerolls) over the face-up dreams that fit, and its symbol (None: nothing is worth it)."""
        p = self.mover
        return chase(self.display[0], self.free[p], self.matrix[p], self.n)

    def end_night(self) -> Move:
        """`State.end_night`: ending the night, discarding the face-up dream and spell worth most."""
        value = card_values(self.n)

        def top(slots: tuple[int | None, ...]) -> int | None:
            present = [i for i, c in enumerate(slots) if c is not None]
            return max(present, key=lambda i: value[slots[i]], default=None)  # type: ignore[index]

        return (END, top(self.display[0]), top(self.display[1]))

    def legal(self) -> list[Move]:
        """Every legal move of the mover, in `State.legal_actions` order."""
        p = self.mover
        free = self.free[p]
        if self.phase == CHOOSE:
            subsets: list[Dice] = [()]
            for n in free:
                subsets = [d + (k,) for d in subsets for k in range(n + 1)]
            return [(NO_REROLL,), *((REROLL, d) for d in subsets if any(d))]
        moves: list[Move] = []
        for slot, c in enumerate(self.display[0]):
            if c is not None:
                for i in range(3):
                    if free[i] + free[3 + i] >= SIZE[c]:
                        moves += [(DREAM, slot, i, m) for m in placements(CARDS[c].shape) if not m & self.matrix[p]]
        moves += [(SPELL, s) for s, c in enumerate(self.display[1]) if c is not None and _pays(free, NEED[c])]
        black, white = self.can_buy()
        moves += [(WHITE,)] * white + [(BLACK,)] * black
        dreams: list[int | None] = [i for i, c in enumerate(self.display[0]) if c is not None] or [None]
        spells: list[int | None] = [i for i, c in enumerate(self.display[1]) if c is not None] or [None]
        moves += [(END, d, s) for d in dreams for s in spells]
        return moves + [(PASS,)] * self.rerolled

    # -- play --------------------------------------------------------------------------------------
    def run(self, bots: Sequence[Bot], chance: Stream) -> Table:
        """Play to the end: chance by `chance`, seat p's moves by `bots[p]`; returns self."""
        while self.phase != OVER:
            if self.draws:
                which = self.draws[0][0]
                self.draw(chance.draw(self.decks[which], which))
            elif self.phase == ROLL or self.phase == REROLLING:
                self.roll(chance.roll(self.mover, *self.dice_to_roll()))
            else:
                self.apply(bots[self.mover](self, chance))
        return self

    def result(self, player: int) -> tuple[Fraction, int]:
        """`player`'s win share (1/k for a k-way tie at the top) and final points, once over."""
        top = max(self.score)
        return (Fraction(1, self.score.count(top)) if self.score[player] == top else Fraction(0)), self.score[player]


def _pays(free: Dice, need: Sequence[int]) -> bool:
    return need[0] <= free[0] + free[3] and need[1] <= free[1] + free[4] and need[2] <= free[2] + free[5]


@lru_cache(maxsize=1 << 16)
def realisation(dreams: tuple, spells: tuple, free: Dice, blocked: int, players: int) -> Move | None:
    """`Table.best_realisation` from the display, the mover's free dice and matrix (memoised)."""
    value = card_values(players)
    best: Move | None = None
    key = (-1, -1)
    for slot, c in enumerate(dreams):
        if c is None or value[c] < key[0]:
            continue
        symbol = next((i for i in range(3) if free[i] + free[3 + i] >= SIZE[c]), None)
        placed = best_placement(CARDS[c].shape, blocked) if symbol is not None else None
        if placed is not None and (value[c], placed[0]) > key:
            best, key = (DREAM, slot, symbol, placed[1]), (value[c], placed[0])
    for slot, c in enumerate(spells):
        if c is not None and (value[c], 0) > key and _pays(free, NEED[c]):
            best, key = (SPELL, slot), (value[c], 0)
    return best


@lru_cache(maxsize=1 << 16)
def chase(dreams: tuple, free: Dice, blocked: int, players: int) -> tuple[Fraction, int | None]:
    """`Table.chase` from the face-up dreams, the mover's free dice and matrix (memoised)."""
    value = card_values(players)
    black, white = sum(free[:3]), sum(free[3:])
    best: tuple[Fraction, int | None] = (Fraction(0), None)
    for c in dreams:
        if c is None or best_placement(CARDS[c].shape, blocked) is None:
            continue
        for i in range(3):
            worth = _worth(value[c], i, SIZE[c] - free[i] - free[3 + i], black - free[i], white - free[3 + i])
            if worth > best[0]:
                best = (worth, i)
    return best


@cache
def _worth(value: int, symbol: int, need: int, black: int, white: int) -> Fraction:
    """A chase's worth: `value` × `odds.p_within` with `ODDS_ROLLS` rolls."""
    return value * p_within(SYMBOLS[symbol], need, black, white, ODDS_ROLLS)


def _reroll_others(free: Dice, symbol: int) -> Move | None:
    dice = tuple(0 if k % 3 == symbol else n for k, n in enumerate(free))
    return (REROLL, dice) if any(dice) else None


Bot = Callable[[Table, Stream], Move]
"""A bot on a table: its move, given the chance (random_legal draws from it)."""


def greedy(t: Table, chance: Stream) -> Move:
    """`policies.greedy` on a table."""
    p = t.mover
    now = t.best_realisation()
    black, white = t.can_buy()
    choose = t.phase == CHOOSE
    if now is not None or black or white:
        return (NO_REROLL,) if choose else now or ((BLACK,) if black else (WHITE,))
    free = t.free[p]
    common = max(range(3), key=lambda i: (free[i] + free[3 + i], -i))
    reroll = _reroll_others(free, common) if t.rolls[p] < ROLL_CAP else None
    if choose:
        return reroll or (NO_REROLL,)
    return (PASS,) if t.rerolled and reroll is not None else t.end_night()


def odds(t: Table, chance: Stream) -> Move:
    """`policies.odds` on a table."""
    p = t.mover
    black, white = t.can_buy()
    now = t.best_realisation() or ((BLACK,) if black else None)
    choose = t.phase == CHOOSE
    if now is not None:
        return (NO_REROLL,) if choose else now
    reroll = None
    if t.rolls[p] < ROLL_CAP:
        value, symbol = t.chase()
        if symbol is not None and value >= THRESHOLD:
            reroll = _reroll_others(t.free[p], symbol)
    if choose:
        return reroll or (NO_REROLL,)
    if t.rerolled and reroll is not None:
        return (PASS,)
    return (WHITE,) if white else t.end_night()


def random_legal(t: Table, chance: Stream) -> Move:
    """A uniformly random legal move (`chance.pick`)."""
    moves = t.legal()
    return moves[chance.pick(len(moves))]


BOTS: dict[str, Bot] = {"greedy": greedy, "odds": odds, "random_legal": random_legal}
"""The bots on a table, by the names `nyx.policies` gives them."""
