"""The optimal Nessie turn: when to stop so as to take the most treasure on average, exactly.

Expectimax over the unseen cards: a state is the row, the next card is drawn without
replacement from the unseen pool, and the player either stops (taking the best run ending at
the last revealed card) or reveals again. The value is the expected *treasure taken* (letters
count for nothing but their effect on sinking and on the take), as an exact Fraction.

Two ideas make this exact search fast enough to answer at the table:

- **Rows are summarised by what they can still give.** A later stop takes the new cards first
  (last revealed first) and may then run on into today's row, entering it holding some letters
  and treasures. So a row matters only through `g(entry) = the most its last cards can add`
  for every *entry* (letters held, treasures held) that future cards could produce, plus its
  card counts (which fix the pool and the sinking). Rows with equal summaries are one state:
  the order of letters stops mattering whenever it cannot change a take.
- **Provable pruning.** A row can never give more than its best entry plus the treasure still
  to come, so continuing is worth at most the optimal value of a relaxed game without letter
  penalties (a small exact DP on card counts). Where that bound is no better than stopping,
  stopping is optimal and no further search is needed; otherwise children are searched with
  the same bounds (Ballard's Star1 pruning). Every value returned is exact.

Values are computed as integers scaled by N(N-1)...: no Fraction arithmetic in the search.

A game's first turn (the default deck, an empty hand) is the costly one: about 20 s from the
empty row. Its states with up to `OPENING_DEPTH` cards in the row are stored exactly in
data/nessie-opening.parquet (`nessus data rebuild nessie`; `nessus data check` compares them
with a fresh solve), and that turn's solver starts from them: its first decisions are look-ups.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from nessus.dist import Dist, exact_str
from nessus.games.nessie.cards import (
    CHAIN,
    LETTERS,
    SINK_LETTER,
    SINK_TREASURE,
    Card,
    Hand,
    Situation,
    make_deck,
    neighbours,
)
from nessus.games.nessie.odds import best_take
from nessus.games.nessie.policies import Rule
from nessus.games.nessie.rules import Rules

if TYPE_CHECKING:
    import polars as pl

CARDS: tuple[Card, ...] = (*LETTERS, "1", "2", "3")
BUDGET = SINK_TREASURE - 1  # the most treasure a live row holds
MAX_PENALTIES = len(LETTERS) * (SINK_LETTER - 1)  # letters in a live row: each can cost one treasure
Entry = tuple[int, tuple[int, ...]]  # (letters held as a bit mask, treasures held by value 1/2/3)


def _code(card: Card) -> int:
    return CARDS.index(card)


class TurnSolver:
    """Exact values for one player's turn, for every row reachable from the cards in play.

    `cards` = the unseen pool plus the row (invariant while the turn goes on), `hand` = the
    player's cards. Values are expected treasure points taken; memoised across calls.
    """

    def __init__(self, cards: dict[Card, int], hand: Hand, adjacency: tuple[tuple[str, str], ...] = CHAIN) -> None:
        adj = neighbours(adjacency)
        self.near = [sum(1 << LETTERS.index(y) for y in adj[x]) for x in LETTERS]
        self.own = sum(1 << LETTERS.index(x) for x in set(hand.letters))
        held = sorted(hand.treasures)[:MAX_PENALTIES]  # higher treasures are never discarded
        start: Entry = (self.own, tuple(held.count(v) for v in (1, 2, 3)))
        self.cards = [cards.get(c, 0) for c in CARDS]
        self.size = sum(self.cards)
        self._entries(start)
        # values at pool size n are scaled by n!/floor!, floor below any reachable pool size
        self.floor = max(0, self.size - MAX_PENALTIES - BUDGET - 2)
        self.scale = {self.floor: 1}
        for n in range(self.floor + 1, self.size + 1):
            self.scale[n] = self.scale[n - 1] * n
        self.memo: dict[tuple, int] = {}
        self.relaxed_memo: dict[tuple, int] = {}

    # -- entries and what one card does to them -----------------------------------------
    def _step(self, entry: Entry, code: int) -> tuple[Entry, int]:
        letters, held = entry
        if code >= 6:
            value = code - 5
            counts = list(held)
            counts[value - 1] += 1
            return (letters, tuple(counts)), value
        bit = 1 << code
        if letters == 0 or (not letters & bit and self.near[code] & letters):
            return (letters | bit, held), 0
        for i, n in enumerate(held):
            if n:
                counts = list(held)
                counts[i] -= 1
                return (letters, tuple(counts)), -(i + 1)
        return entry, 0

    def _entries(self, start: Entry) -> None:
        """Every entry future cards can lead to, ordered by the treasure they need (so the
        entries reachable with b treasure points are the first `self.within[b]`)."""
        order: list[Entry] = []
        seen: set[Entry] = set()

        def close(front: list[Entry]) -> None:
            while front:
                e = front.pop()
                if e not in seen:
                    seen.add(e)
                    order.append(e)
                    front.extend(self._step(e, x)[0] for x in range(6))

        close([start])
        self.within = [len(order)]
        for b in range(1, BUDGET + 1):
            close([self._step(e, 5 + t)[0] for t in (1, 2, 3) if t <= b for e in order[: self.within[b - t]]])
            self.within.append(len(order))
        index = {e: i for i, e in enumerate(order)}
        n = len(order)
        self.next = np.zeros((9, n), dtype=np.int64)
        self.gain = np.zeros((9, n), dtype=np.int8)
        for code in range(9):
            for i, e in enumerate(order):
                after, gain = self._step(e, code)
                if after in index:
                    self.next[code, i], self.gain[code, i] = index[after], gain
        self.entry_letters = np.array([e[0] for e in order], dtype=np.int64)
        self.reachable: dict[int, np.ndarray] = {}

    def _extend(self, g: np.ndarray, code: int, treasure_after: int) -> np.ndarray:
        """The summary of row + card, from the row's: the best run is empty or starts with it."""
        m = self.within[BUDGET - treasure_after]
        return np.maximum(0, self.gain[code, :m] + g[self.next[code, :m]])

    def summary(self, row: tuple[Card, ...]) -> tuple[np.ndarray, int]:
        """(g, treasure in the row): g[i] = the most the row's last cards add from entry i."""
        g = np.zeros(self.within[BUDGET], dtype=np.int8)
        treasure = 0
        for card in row:
            code = _code(card)
            treasure += max(0, code - 5)
            if treasure > BUDGET:
                raise ValueError("the row has already sunk")
            g = self._extend(g, code, treasure)
        return g, treasure

    # -- the search ---------------------------------------------------------------------
    def _sinks(self, counts: list[int], treasure: int, code: int) -> bool:
        if code >= 6:
            return treasure + code - 5 > BUDGET
        return counts[code] + 1 + ((self.own >> code) & 1) >= SINK_LETTER

    def _live(self, counts: list[int], treasure: int) -> list[int]:
        return [c for c in range(9) if self.cards[c] > counts[c] and not self._sinks(counts, treasure, c)]

    def _canonical(self, g: np.ndarray, counts: list[int]) -> np.ndarray:
        """Zero the entries no future card can produce (letters that can no longer be revealed)."""
        allowed = self.own
        for x in range(6):
            if counts[x] + ((self.own >> x) & 1) < SINK_LETTER - 1 and self.cards[x] > counts[x]:
                allowed |= 1 << x
        mask = self.reachable.get(allowed)
        if mask is None:
            mask = self.reachable[allowed] = ((self.entry_letters & ~allowed) == 0).astype(np.int8)
        return g * mask[: len(g)]

    def _relaxed(self, counts: list[int], treasure: int, best: int, pool: int) -> int:
        """Upper bound (scaled): optimal value when a stop pays `best` plus all treasure revealed
        from now on, and sinking pays 0. Depends on card counts only."""
        key = (tuple(counts), best)
        hit = self.relaxed_memo.get(key)
        if hit is not None:
            return hit
        stop = best * self.scale[pool]
        live = self._live(counts, treasure) if best < BUDGET else []
        if not live or sum(self.cards[c] - counts[c] for c in live) * BUDGET * self.scale[pool - 1] <= stop:
            self.relaxed_memo[key] = stop
            return stop
        total = 0
        for c in live:
            weight = self.cards[c] - counts[c]
            t = max(0, c - 5)
            counts[c] += 1
            total += weight * self._relaxed(counts, treasure + t, best + t, pool - 1)
            counts[c] -= 1
        value = max(stop, total)
        self.relaxed_memo[key] = value
        return value

    def _value(self, g: np.ndarray, counts: list[int], treasure: int, pool: int) -> int:
        """Optimal value (scaled by scale[pool]) of the state: max(stop, reveal)."""
        g = self._canonical(g, counts)
        key = (tuple(counts), g.tobytes())
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        stop = int(g[0]) * self.scale[pool]
        live = self._live(counts, treasure)
        if not live or self._relaxed(counts, treasure, int(g.max()), pool) <= stop:
            self.memo[key] = stop
            return stop
        value = max(stop, self._reveal(g, counts, treasure, pool, live, stop))
        self.memo[key] = value
        return value

    def _reveal(
        self, g: np.ndarray, counts: list[int], treasure: int, pool: int, live: list[int], stop: int | None
    ) -> int:
        """Value (scaled) of revealing one more card and playing on optimally. With `stop`
        given, the search may end early once revealing provably cannot beat it (then any
        number <= stop is returned)."""
        children = []
        bound = 0
        for c in live:
            t = max(0, c - 5)
            child = self._extend(g, c, treasure + t)
            counts[c] += 1
            b = self._relaxed(counts, treasure + t, int(child.max()), pool - 1)
            counts[c] -= 1
            weight = self.cards[c] - counts[c]
            children.append((weight, c, t, child, b))
            bound += weight * b
        total = 0
        for weight, c, t, child, b in sorted(children, key=lambda x: -x[0]):
            if stop is not None and total + bound <= stop:
                return total + bound
            bound -= weight * b
            counts[c] += 1
            total += weight * self._value(child, counts, treasure + t, pool - 1)
            counts[c] -= 1
        return total

    # -- answers ------------------------------------------------------------------------
    def values(self, row: tuple[Card, ...]) -> tuple[Fraction, Fraction | None]:
        """(stop now, reveal now and play on optimally) in expected treasure points; the
        second is None when no unseen card is left."""
        counts = [0] * 9
        for card in row:
            counts[_code(card)] += 1
        if any(counts[c] > self.cards[c] for c in range(9)):
            raise ValueError("the row holds cards that are not among the solver's cards")
        g, treasure = self.summary(row)
        g = self._canonical(g, counts)
        pool = self.size - len(row)
        stop = Fraction(int(g[0]))
        live = self._live(counts, treasure)
        if pool == 0:
            return stop, None
        reveal = self._reveal(g, counts, treasure, pool, live, None)
        return stop, Fraction(reveal, self.scale[pool])


@dataclass(frozen=True)
class OptimalChoice:
    """The optimal player's view, in expected treasure points: stopping now takes
    `stop_value` (the last `take` cards of the row); revealing now and then playing optimally
    is worth `reveal_value` (None when no card is left to reveal)."""

    stop_value: Fraction
    reveal_value: Fraction | None
    take: int = 0

    @property
    def reveal(self) -> bool:
        """Does the optimal player reveal? (Ties stop.)"""
        return self.reveal_value is not None and self.reveal_value > self.stop_value

    @property
    def value(self) -> Fraction:
        """The optimal value of the state."""
        return self.reveal_value if self.reveal_value is not None and self.reveal else self.stop_value


_SOLVERS: OrderedDict[tuple, TurnSolver] = OrderedDict()

# -- the opening: a fresh deck's first turn, stored in data/ --------------------------------
OPENING_DEPTH = 6  # rows of up to 6 cards: decisions on up to 5 read stored states, deeper ones search < 0.2 s
ROW_COLUMNS = tuple(f"row_{c}" for c in CARDS)


def _key(cards: dict[Card, int], hand: Hand, adjacency: tuple[tuple[str, str], ...]) -> tuple:
    return (
        tuple(cards.get(c, 0) for c in CARDS),
        tuple(sorted(set(hand.letters))),
        tuple(sorted(hand.treasures)[:MAX_PENALTIES]),
        adjacency,
    )


def opening_cards() -> dict[Card, int]:
    """The cards of the opening turn: the default deck (8 of each letter, 12 of each treasure)."""
    return dict(Counter(make_deck()))


def opening_table(cards: dict[Card, int] | None = None, depth: int = OPENING_DEPTH) -> pl.DataFrame:
    """The first turn of a game with these cards (default: the default deck), an empty hand and
    the summary card's chain, freshly solved from the empty row (about 20 s): one row per state
    the search valued with at most `depth` cards in the row, sorted: `row_A` .. `row_3` (the
    row's card counts), `summary` (the row's summary g, one signed byte per entry: the solver's
    memo key) and `value` (the optimal expected treasure taken, exact "p/q")."""
    import polars as pl

    turn = TurnSolver(cards or opening_cards(), Hand())
    turn.values(())
    states = sorted((counts, g, value) for (counts, g), value in turn.memo.items() if sum(counts) <= depth)
    columns = {name: pl.Series(name, [s[0][i] for s in states], dtype=pl.UInt8) for i, name in enumerate(ROW_COLUMNS)}
    return pl.DataFrame(
        {
            **columns,
            "summary": pl.Series([s[1] for s in states], dtype=pl.Binary),
            "value": [exact_str(Fraction(v, turn.scale[turn.size - sum(c)])) for c, _, v in states],
        }
    )


def tables(rules: Rules | None = None) -> dict[str, pl.DataFrame]:
    """{"opening": the optimal single-turn values of a game's first turn with the rules' deck
    (`opening_table`), freshly solved (about 20 s)}. The stored one (default
    rules) makes the optimal player's first decisions a look-up."""
    rules = rules or Rules()
    return {"opening": opening_table(dict(Counter(rules.deck())))}


def opening_memo(frame: pl.DataFrame, turn: TurnSolver) -> dict[tuple, int]:
    """The memo entries of `turn` (the opening's solver) that an `opening_table` holds: values
    scaled as the search scales them."""
    memo = {}
    for *counts, g, value in frame.select(*ROW_COLUMNS, "summary", "value").iter_rows():
        num, _, den = value.partition("/")
        scaled, rest = divmod(int(num) * turn.scale[turn.size - sum(counts)], int(den or 1))
        if rest:
            raise ValueError(f"the opening value {value} does not fit the solver's scale")
        memo[(tuple(counts), g)] = scaled
    return memo


@cache
def _stored_opening() -> dict[tuple, int] | None:
    """The stored opening's memo entries (data/nessie-opening.parquet), or None if not built."""
    from nessus import tables

    frame = tables.load("nessie", "opening")
    return None if frame is None else opening_memo(frame, TurnSolver(opening_cards(), Hand()))


def solver(s: Situation, hand: Hand, adjacency: tuple[tuple[str, str], ...] = CHAIN) -> TurnSolver:
    """The (cached) solver for this turn: the same for every state of one turn, since a turn
    only moves cards from the pool to the row. A game's first turn (the default deck, an empty
    hand, the chain) starts from the stored opening's values when data/ has them."""
    if s.own_letters != frozenset(hand.letters):
        raise ValueError(
            f"the situation's letters {sorted(s.own_letters)} and the hand's {sorted(hand.letters)} differ"
        )
    cards = {c: s.pool.get(c, 0) + s.row.count(c) for c in CARDS}
    key = _key(cards, hand, adjacency)
    if key in _SOLVERS:
        _SOLVERS.move_to_end(key)
        return _SOLVERS[key]
    made = TurnSolver(cards, hand, adjacency)
    if key == _key(opening_cards(), Hand(), CHAIN):
        made.memo.update(_stored_opening() or {})
    _SOLVERS[key] = made
    while len(_SOLVERS) > 4:
        _SOLVERS.popitem(last=False)
    return made


MAX_TAKE_REVEALS = 6


def take_distribution(s: Situation, hand: Hand, k: int, adjacency: tuple[tuple[str, str], ...] = CHAIN) -> Dist:
    """What a stop after exactly k more reveals would let the player take, exact: a Dist over
    treasure points (the best run, treasure only) with the outcome "sunk" for sinking on the way.
    k = 0..MAX_TAKE_REVEALS (every ordered draw is enumerated: 9**k sequences at most)."""
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= MAX_TAKE_REVEALS:
        raise ValueError(f"k must be an integer from 0 to {MAX_TAKE_REVEALS}, got {k!r}")
    if s.sunk():
        return Dist.point("sunk")
    turn = solver(s, hand, adjacency)
    weights: dict[object, int] = {}
    start = [0] * 9
    for card in s.row:
        start[_code(card)] += 1
    g, treasure = turn.summary(tuple(s.row))
    pool = turn.size - len(s.row)
    if k > pool:
        raise ValueError(f"k must be at most the {pool} unseen cards, got {k}")

    def draw(g: np.ndarray, counts: list[int], treasure: int, left: int, weight: int) -> None:
        if left == 0:
            weights[int(g[0])] = weights.get(int(g[0]), 0) + weight
            return
        remaining = turn.size - sum(counts)
        for c in range(9):
            n = turn.cards[c] - counts[c]
            if not n:
                continue
            if turn._sinks(counts, treasure, c):
                later = 1  # every continuation of this draw sinks: count the ordered ways
                for i in range(1, left):
                    later *= remaining - i
                weights["sunk"] = weights.get("sunk", 0) + weight * n * later
                continue
            t = max(0, c - 5)
            counts[c] += 1
            draw(turn._extend(g, c, treasure + t), counts, treasure + t, left - 1, weight * n)
            counts[c] -= 1

    draw(g, start, treasure, k, 1)
    return Dist(weights)


def optimal_choice(s: Situation, hand: Hand, adjacency: tuple[tuple[str, str], ...] = CHAIN) -> OptimalChoice:
    """Stop now or reveal, for the player maximising the expected treasure taken this turn."""
    if s.sunk():
        raise ValueError("the player has already sunk in this situation")
    stop, reveal = solver(s, hand, adjacency).values(tuple(s.row))
    return OptimalChoice(stop, reveal, best_take(hand, s.row, adjacency, letter_value=Fraction(0))[0])


@dataclass(frozen=True)
class Optimal(Rule):
    """The optimal single-turn rule: reveal while that is worth more treasure than stopping (the
    first card of a turn is always revealed). Its take maximises treasure, so `letter_value` is 0."""

    letter_value: Fraction = Fraction(0)

    def reveals(self, s: Situation, hand: Hand, revealed: int) -> bool:
        return revealed == 0 or optimal_choice(s, hand).reveal


def optimal() -> Optimal:
    """The optimal single-turn rule (see `Optimal`)."""
    return Optimal()


def turn_kernel(s: Situation, hand: Hand, rule: Rule, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n single turns from `s`, cards drawn at random from the unseen pool, the player
    revealing as `rule` says and taking the best run by treasure: treasure taken and sunk."""
    taken = np.zeros(n, dtype=np.int64)
    sank = np.zeros(n, dtype=bool)
    cards = [c for c, k in s.pool.items() for _ in range(k)]
    for i in range(n):
        order = rng.permutation(len(cards))
        pool, row, revealed = Counter(s.pool), tuple(s.row), 0
        while revealed < len(cards) and rule.reveals(Situation(pool, row, s.own_letters), hand, revealed):
            card = cards[order[revealed]]
            revealed += 1
            pool[card] -= 1
            row += (card,)
            if Situation(pool, row, s.own_letters).sunk():
                sank[i] = True
                break
        else:
            taken[i] = int(best_take(hand, row, letter_value=Fraction(0))[1])
    return {"treasure": taken, "sunk": sank}


def simulate_turn(s: Situation, hand: Hand, rule: Rule, trials: int = 2000, seed: int = 0):
    """Monte Carlo of single turns from `s`: estimates (95% intervals) of the mean treasure
    taken and of P(sinking), as a MonteCarloResult with "treasure" and "sunk"."""
    from functools import partial

    from nessus import montecarlo

    return montecarlo.run(partial(turn_kernel, s, hand, rule), trials, seed, chunk=1024)
