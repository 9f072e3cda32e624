"""The previous exact solver of a Nessie turn (nessus.games.nessie.optimal before the layered
solver of nessus.games.nessie.turn), kept as the tests' reference: a depth-first expectimax,
one state at a time, each row summarised by what its last cards can add for every entry, the
entries that no future card can produce zeroed, and Star1 pruning with a relaxed game. It
shares no code with the layered solver but the rules of a take (`nessie.cards`); it is exact,
and takes seconds to minutes where the pool is large."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from nessus.games.nessie.cards import CHAIN, LETTERS, SINK_LETTER, SINK_TREASURE, Card, Hand, neighbours

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
