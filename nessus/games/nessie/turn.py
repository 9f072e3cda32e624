"""One Nessie turn solved exactly: the most treasure a player can expect to take this turn.

Expectimax over the unseen cards: the next card is drawn without replacement from the unseen
pool, and the player either stops (taking the best run ending at the last revealed card) or
reveals again. Values are expected *treasure taken* (letters count only through sinking and
through the treasure a take discards with them), exact: integers scaled by N(N-1)... for a pool
of N cards, returned as Fractions.

**A state** is the row's card counts (which fix the pool and the sinking) and the row's
*summary*: a later stop takes the new cards first (last revealed first) and may run on into
today's row holding some letters and treasures (an *entry*); `g[entry]` is the most today's
row can add from it. Two refinements merge the rows that no future can tell apart:
- entries no future card can lead to (letters that can no longer be revealed) are zeroed;
- `g[entry]` is raised to the entry's *floor*: the least by which stopping earlier (a shorter
  run of the new cards) beats taking them all, over every way of reaching the entry. A value
  below its floor never decides a take.

**Layer by layer.** A reveal adds one card, so the states fall in layers by the number of cards
in the row, and each layer is built from the one before with array operations over all its
states at once: every state's child by every card, their summaries deduplicated by a hash and
checked row by row (so the merging is exact). A state is not expanded where stopping is proved
optimal, by bounds from a relaxed game (a stop pays the row's best plus all treasure revealed
later, letters cost nothing: `_Relaxed`): its relaxed value is no more than stopping, or its
children's add up to no more, or, once the layers below are built, their bounds do. Then the
exact values go back up the layers.

The previous solver, a depth-first search one state at a time, took up to 26 s on a position of
a real game; this one takes about a second there (benchmarks/bench_nessie.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from nessus.games.nessie.cards import CHAIN, LETTERS, SINK_LETTER, SINK_TREASURE, Card, Hand, neighbours

CARDS: tuple[Card, ...] = (*LETTERS, "1", "2", "3")
BUDGET = SINK_TREASURE - 1  # the most treasure a live row holds
MAX_PENALTIES = len(LETTERS) * (SINK_LETTER - 1)  # letters in a live row: each can cost one treasure
Entry = tuple[int, tuple[int, ...]]  # (letters held as a bit mask, treasures held by value 1/2/3)
BITS = 4  # a row's card counts packed in one integer, 4 bits a card (a live row holds at most 5 of one)
FITS = 1 << 62  # scaled values below this are computed in int64, above it as Python integers
MARGIN = 1e-9  # bounds in floats prune only where they clear stopping by this much
_HASH = np.random.default_rng(2024).integers(1 << 40, 1 << 62, 4096, dtype=np.uint64) | np.uint64(1)


def code(card: Card) -> int:
    """The card's index in CARDS: 0-5 the letters A-F, 6-8 the treasures 1-3."""
    return CARDS.index(card)


def _pack(counts: Sequence[int]) -> int:
    return sum(int(n) << (BITS * c) for c, n in enumerate(counts))


def _lowest(held: tuple[int, ...]) -> tuple[int, ...]:
    """Treasures held (how many of value 1, 2, 3) as far as a take can tell: the lowest ones up to
    a total of BUDGET. A take discards the lowest first; once it has discarded BUDGET, it has
    lost at least as much as the row holds, and the higher ones no longer change its best run."""
    kept, total = [], 0
    for value, n in zip((1, 2, 3), held):
        take = min(n, max(0, -(-(BUDGET - total) // value)))
        kept.append(take)
        total += take * value
    return tuple(kept)


def _groups(keys: np.ndarray, size: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(one index of each distinct key, the number of each key's group), groups in key order.
    Keys below a small enough `size` are grouped by marking, others by sorting."""
    if 0 < size <= 4 * len(keys) + 4096:
        present = np.zeros(size, dtype=bool)
        present[keys] = True
        rank = np.cumsum(present) - 1
        number = rank[keys]
        first = np.empty(int(rank[-1]) + 1, dtype=np.int64)
        first[number] = np.arange(len(keys))
        return first, number
    order = np.argsort(keys)
    ordered = keys[order]
    new = np.empty(len(keys), dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    number = np.empty(len(keys), dtype=np.int64)
    number[order] = np.cumsum(new) - 1
    return order[new], number


def _hashes(rows: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each row of an int8 matrix whose width is a multiple of 8: its 8-byte
    words times odd random numbers, each mixed (a bijection), then added up. Rows that differ
    in one word never share a hash."""
    words = rows.view(np.uint64) * _HASH[: rows.shape[1] // 8]
    words ^= words >> np.uint64(29)
    return words.sum(axis=1)


def _distinct_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`_groups` of the rows of an int8 matrix (width a multiple of 8): by their hashes, checked
    row by row (should two rows share a hash, they are sorted by their bytes instead)."""
    first, number = _groups(_hashes(rows))
    if not np.array_equal(rows, rows[first[number]]):
        _, first, number = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    return first, number.ravel()


@dataclass
class _Layer:
    """The states with `pool` unseen cards. `groups[t]` holds those whose row holds t treasure:
    (their distinct summaries (int8 rows), each state's packed card counts, each state's
    summary); the states are numbered group after group, t ascending. Per state, so numbered:
    `stop` (its stop value), `expanded`, `proved` (stopping is proved optimal), `bound` (its
    value at most, in treasure points), `weights` (9 x states: the unseen cards of each kind),
    `children` (states x 9: the child by each card in the next layer, -1 for none); `reveal`:
    each expanded state's reveal value, scaled, in their order."""

    pool: int
    groups: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]
    stop: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    expanded: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    proved: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    bound: np.ndarray = field(default_factory=lambda: np.zeros(0))
    weights: np.ndarray = field(default_factory=lambda: np.zeros((9, 0), np.int64))
    children: np.ndarray = field(default_factory=lambda: np.zeros((0, 9), np.int64))
    reveal: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    hashes: dict[int, np.ndarray] = field(default_factory=dict)  # by t, the hash of each summary

    def size(self) -> int:
        return sum(len(counts) for _, counts, _ in self.groups.values())

    def find(self, packed: int, g: np.ndarray, treasure: int) -> int | None:
        """The number of the state with these counts and summary, or None."""
        if treasure not in self.groups:
            return None
        rows, states, summaries = self.groups[treasure]
        if treasure not in self.hashes:
            self.hashes[treasure] = _hashes(rows)
        for row in np.nonzero(self.hashes[treasure] == _hashes(g[None, :])[0])[0]:
            (at,) = np.nonzero((states == packed) & (summaries == row))
            if len(at) and np.array_equal(rows[row], g):
                return sum(len(self.groups[t][1]) for t in self.groups if t < treasure) + int(at[0])
        return None

    def forget(self) -> None:
        """Keep only what look-ups read: the states expanded or proved, and their summaries."""
        kept, start, groups = self.expanded | self.proved, 0, {}
        for t in sorted(self.groups):
            rows, states, summaries = self.groups[t]
            mine = kept[start : start + len(states)]
            if mine.any():
                first, number = _groups(summaries[mine], len(rows))
                groups[t] = (rows[summaries[mine][first]], states[mine], number)
            start += len(states)
        self.groups, self.expanded, self.proved = groups, self.expanded[kept], self.proved[kept]
        self.bound, self.weights, self.children = np.zeros(0), np.zeros((9, 0), np.int64), np.zeros((0, 9), np.int64)


@dataclass
class _Chunk:
    """The children one card gives some states of a layer (each child's parent a state), into
    rows holding `t` treasure: their unmasked summaries `made` (`which` row for each child),
    their masked summaries `masked` (`pair` row for each child), each child's best (the most its
    row adds, less floors), the card's unseen count for each parent (`weight`), the children's
    packed counts (`states`) and the parents' numbers (`parents`)."""

    t: int
    card: int
    made: np.ndarray
    which: np.ndarray
    masked: np.ndarray
    pair: np.ndarray
    best: np.ndarray
    weight: np.ndarray
    states: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    parents: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))


class TurnSolver:
    """Exact values for one player's turn, for every row reachable from the cards in play.

    `cards` = the unseen pool plus the row (invariant while the turn goes on), `hand` = the
    player's cards. `values(row)` gives (stop now, reveal now) in expected treasure points,
    `reveals(row)` the optimal choice; the states a solve expanded or proved answer later rows
    of the turn without a new solve.
    """

    def __init__(self, cards: dict[Card, int], hand: Hand, adjacency: tuple[tuple[str, str], ...] = CHAIN) -> None:
        adj = neighbours(adjacency)
        self.near = [sum(1 << LETTERS.index(y) for y in adj[x]) for x in LETTERS]
        self.own = sum(1 << LETTERS.index(x) for x in set(hand.letters))
        self.own_bits = [(self.own >> x) & 1 for x in range(len(LETTERS))]
        held = sorted(hand.treasures)
        self.cards = [cards.get(c, 0) for c in CARDS]
        self.size = sum(self.cards)
        self._entries((self.own, _lowest(tuple(held.count(v) for v in (1, 2, 3)))))
        self._layout()
        # values at pool size n are scaled by n!/floor!, floor below any reachable pool size
        self.floor = max(0, self.size - MAX_PENALTIES - BUDGET - 2)
        self.scale = {self.floor: 1}
        for n in range(self.floor + 1, self.size + 1):
            self.scale[n] = self.scale[n - 1] * n
        self.solved: list[list[_Layer]] = []  # the latest solves, for look-ups
        self.known: dict[tuple, int] = {}  # reveal values (scaled) by (row counts, summary bytes): the stored opening
        self.relaxed: _Relaxed | None = None
        self.answers: dict[tuple[Card, ...], tuple[Fraction, Fraction | None]] = {}  # by row: `values`
        self.choices: dict[tuple[Card, ...], bool] = {}  # by row: `reveals`

    # -- entries and what one card does to them -----------------------------------------
    def _step(self, entry: Entry, card: int) -> tuple[Entry, int]:
        letters, held = entry
        if card >= 6:
            value = card - 5
            counts = list(held)
            counts[value - 1] += 1
            return (letters, tuple(counts)), value
        bit = 1 << card
        if letters == 0 or (not letters & bit and self.near[card] & letters):
            return (letters | bit, held), 0
        for i, n in enumerate(held):
            if n:
                counts = list(held)
                counts[i] -= 1
                return (letters, tuple(counts)), -(i + 1)
        return entry, 0

    def _entries(self, start: Entry) -> None:
        """Every entry future cards can lead to, ordered by the treasure they need (so the
        entries reachable with b treasure points are the first `self.within[b]`), and what each
        card does to each (`next`, `gain`)."""
        moves: dict[Entry, list[tuple[Entry, int]]] = {}
        order: list[Entry] = []

        def close(front: list[Entry]) -> None:
            while front:
                e = front.pop()
                if e not in moves:
                    moves[e] = [self._step(e, c) for c in range(9)]
                    order.append(e)
                    front.extend(after for after, _ in moves[e][:6])

        close([start])
        self.within = [len(order)]
        for b in range(1, BUDGET + 1):
            close([moves[e][5 + t][0] for t in (1, 2, 3) if t <= b for e in order[: self.within[b - t]]])
            self.within.append(len(order))
        index = {e: i for i, e in enumerate(order)}
        n = len(order)
        self.next = np.zeros((9, n), dtype=np.int64)
        self.gain = np.zeros((9, n), dtype=np.int8)
        for i, e in enumerate(order):
            for card, (after, gain) in enumerate(moves[e]):
                if after in index:
                    self.next[card, i], self.gain[card, i] = index[after], gain
        self.entry_letters = np.array([e[0] for e in order], dtype=np.int64)

    def _layout(self) -> None:
        """The arrays a layer is built with, for rows holding t treasure: `width[t]` (the entries
        that t leaves reachable, padded to a multiple of 8 bytes), `to[t][card]` (where each
        entry goes on taking the card; padding goes to entry 0), `floors[t]` and `masks[t][a]`
        (1 on the entries within budget whose letters lie in the bit mask a)."""
        n = len(self.entry_letters)
        self.width = [-(-self.within[BUDGET - t] // 8) * 8 for t in range(BUDGET + 1)]
        pad = max(self.width) - n
        inside = [np.arange(w) < self.within[BUDGET - t] for t, w in enumerate(self.width)]
        moves = np.pad(self.next, ((0, 0), (0, pad)))
        self.to = [np.where(inside[t], moves[:, :w], 0) for t, w in enumerate(self.width)]
        self.gains = np.pad(self.gain, ((0, 0), (0, pad)))
        letters = np.pad(self.entry_letters, (0, pad))
        self.masks = [
            np.array([inside[t] & (letters[:w] & ~a == 0) for a in range(64)], dtype=np.int8)
            for t, w in enumerate(self.width)
        ]
        least = self._least(n + pad)
        self.floors = [least[: BUDGET - t + 1].min(axis=0)[:w] for t, w in enumerate(self.width)]
        for floor in self.floors:
            floor[floor > BUDGET] = 0  # unreachable: masked anyway

    def _least(self, n: int) -> np.ndarray:
        """least[s, e]: over the ways to reach entry e spending exactly s treasure, the least by
        which the best shorter run beats the whole (capped at BUDGET; above it where unreachable)."""
        never = 99
        least = np.full((BUDGET + 1, n), never, dtype=np.int64)
        least[0, 0] = 0
        changed = True
        while changed:
            changed = False
            for card in range(9):
                value = max(0, card - 5)
                for s in range(BUDGET + 1 - value):
                    m = self.within[s]
                    reached = least[s, :m] < never
                    drop = np.minimum(np.maximum(least[s, :m] - self.gain[card, :m], 0), BUDGET)[reached]
                    before = least[s + value].copy()
                    np.minimum.at(least[s + value], self.next[card, :m][reached], drop)
                    changed |= not np.array_equal(before, least[s + value])
        return least.astype(np.int8)

    # -- rows ---------------------------------------------------------------------------
    def _extend(self, g: np.ndarray, card: int, treasure_after: int) -> np.ndarray:
        """The summary of row + card, from the row's: the best run is empty or starts with it."""
        m = self.within[BUDGET - treasure_after]
        return np.maximum(0, self.gain[card, :m] + g[self.next[card, :m]])

    def summary(self, row: Sequence[Card]) -> tuple[np.ndarray, int]:
        """(g, treasure in the row): g[i] = the most the row's last cards add from entry i."""
        g = np.zeros(self.within[BUDGET], dtype=np.int8)
        treasure = 0
        for card in row:
            c = code(card)
            treasure += max(0, c - 5)
            if treasure > BUDGET:
                raise ValueError("the row has already sunk")
            g = self._extend(g, c, treasure)
        return g, treasure

    def _sinks(self, counts: Sequence[int], treasure: int, card: int) -> bool:
        if card >= 6:
            return treasure + card - 5 > BUDGET
        return counts[card] + 1 + self.own_bits[card] >= SINK_LETTER

    def _live(self, counts: Sequence[int], treasure: int) -> list[int]:
        return [c for c in range(9) if self.cards[c] > counts[c] and not self._sinks(counts, treasure, c)]

    def state(self, row: Sequence[Card]) -> tuple[list[int], np.ndarray, int]:
        """(the row's card counts, its summary as the solver keys it, its treasure)."""
        counts = [0] * 9
        for card in row:
            counts[code(card)] += 1
        if any(counts[c] > self.cards[c] for c in range(9)):
            raise ValueError("the row holds cards that are not among the solver's cards")
        g, treasure = self.summary(row)
        g = np.pad(g, (0, max(self.width) - len(g)))[: self.width[treasure]]
        allowed = self.own | sum(1 << c for c in self._live(counts, BUDGET))  # treasure BUDGET: letters only
        return counts, np.maximum(g, self.floors[treasure]) * self.masks[treasure][allowed], treasure

    # -- answers ------------------------------------------------------------------------
    def values(self, row: Sequence[Card]) -> tuple[Fraction, Fraction | None]:
        """(stop now, reveal now and play on optimally) in expected treasure points; the
        second is None when no unseen card is left."""
        row = tuple(row)
        if row in self.answers:
            return self.answers[row]
        counts, g, treasure = self.state(row)
        stop, pool = Fraction(int(g[0])), self.size - sum(counts)
        if pool == 0:
            return stop, None
        if not self._live(counts, treasure):
            return stop, Fraction(0)
        reveal = self._known(counts, g, treasure)
        if reveal is None or reveal is False:
            reveal = self._solve(counts, g, treasure)
        self.answers[row] = stop, Fraction(reveal, self.scale[pool])
        return self.answers[row]

    def reveals(self, row: Sequence[Card]) -> bool:
        """Does the optimal player reveal (ties stop)? From the states already solved where
        they tell, else as `values` says."""
        row = tuple(row)
        if row not in self.choices:
            counts, g, treasure = self.state(row)
            known = (
                self._known(counts, g, treasure) if self.size > sum(counts) and self._live(counts, treasure) else False
            )
            if known is None:
                known = self._solve(counts, g, treasure)
            self.choices[row] = known is not False and known > int(g[0]) * self.scale[self.size - sum(counts)]
        return self.choices[row]

    def _known(self, counts: Sequence[int], g: np.ndarray, treasure: int) -> int | bool | None:
        """The reveal value (scaled) of a state stored or expanded by a solve, False for one a
        solve proved a stop (its reveal value is not known), else None."""
        known = self.known.get((tuple(counts), g.tobytes()))
        if known is not None:
            return known
        for layers in self.solved:
            depth = sum(counts) - (self.size - layers[0].pool)
            layer = layers[depth] if 0 <= depth < len(layers) else None
            at = layer.find(_pack(counts), g, treasure) if layer is not None else None
            if layer is not None and at is not None and layer.expanded[at]:
                return int(layer.reveal[np.count_nonzero(layer.expanded[:at])])
            if layer is not None and at is not None and layer.proved[at]:
                return False
        return None

    def expanded_states(self, depth: int) -> list[tuple[list[int], np.ndarray, int]]:
        """(row counts, summary, reveal value scaled) of each state that the latest solve
        expanded with at most `depth` cards in the row."""
        found = []
        for layer in self.solved[0]:
            if self.size - layer.pool > depth:
                break
            start, reveals = 0, iter(layer.reveal)
            for t in sorted(layer.groups):
                rows, states, summaries = layer.groups[t]
                for i in np.nonzero(layer.expanded[start : start + len(states)])[0]:
                    counts = [(int(states[i]) >> (BITS * c)) & 15 for c in range(9)]
                    found.append((counts, rows[summaries[i]], int(next(reveals))))
                start += len(states)
        return found

    # -- the solve ----------------------------------------------------------------------
    def _solve(self, counts: list[int], g: np.ndarray, treasure: int) -> int:
        """Solve from this state (always expanded), keep its layers for look-ups, and return its
        reveal value scaled by scale[pool]."""
        relaxed = self.relaxed
        if relaxed is None or not relaxed.covers(counts):  # a table from the rows of every solve so far
            low = counts if relaxed is None else [min(a, b) for a, b in zip(relaxed.low, counts)]
            relaxed = self.relaxed = _Relaxed(self, low)
        root = {treasure: (g[None, :].copy(), np.array([_pack(counts)]), np.zeros(1, np.int64))}
        layers = [_Layer(self.size - sum(counts), root)]
        unmasked = {treasure: (g[None, :].copy(), np.zeros(1, np.int64))}
        while layers[-1].size():
            unmasked = self._expand(layers, unmasked, relaxed)
        self._back_up(layers)
        for layer in layers:
            layer.forget()
        self.solved = [layers, *self.solved[:1]]
        return int(layers[0].reveal[0])

    def _expand(self, layers: list[_Layer], unmasked: dict, relaxed: _Relaxed) -> dict:
        """Decide which states of the last layer are expanded and build the next layer from
        them; returns its unmasked summaries: by t, (rows, each state's row)."""
        layer, chunks = layers[-1], dict[int, list[_Chunk]]()
        root = len(layers) == 1
        stops: list[np.ndarray] = []
        weights: list[np.ndarray] = []
        expand: list[np.ndarray] = []
        for t in sorted(layer.groups):
            rows, states, summaries = layer.groups[t]
            full, state_full = unmasked[t]
            counts = [(states >> (BITS * c)) & 15 for c in range(9)]
            live = [self._can_reveal(counts, t, c) for c in range(9)]
            stop = rows[summaries, 0].astype(np.int64)
            best = (rows - self.floors[t]).max(axis=1)[summaries]
            more = np.logical_or.reduce(live)
            if not root:
                (tight,) = np.nonzero(more & (best == stop))
                more[tight[relaxed.stops(states[tight], best[tight])]] = False
            allowed = np.full(len(states), self.own, dtype=np.int64)
            for x in range(len(LETTERS)):
                allowed |= live[x].astype(np.int64) << x
            first = sum(len(s) for s in stops)
            for c in range(9):
                (sel,) = np.nonzero(more & live[c])
                if len(sel):
                    chunk = self._children(t, c, full, state_full[sel], allowed[sel], counts[c][sel])
                    chunk.states, chunk.parents = states[sel] + (1 << (BITS * c)), first + sel
                    chunks.setdefault(chunk.t, []).append(chunk)
            stops.append(stop)
            weights.append(np.array([self.cards[c] - counts[c] for c in range(9)]))
            expand.append(more)
        layer.stop, layer.weights = np.concatenate(stops), np.concatenate(weights, axis=1)
        if root:
            layer.expanded, layer.bound = np.concatenate(expand), np.full(len(layer.stop), np.inf)
        else:
            layer.expanded, bound = relaxed.worth_revealing(layer, np.concatenate(expand), chunks)
            layer.bound = np.where(layer.expanded, np.maximum(bound, layer.stop), layer.stop)
        layer.proved = ~layer.expanded
        self._recheck(layers)
        return self._next_layer(layers, chunks)

    def _can_reveal(self, counts: list[np.ndarray], t: int, card: int) -> np.ndarray:
        """Per state: the card is unseen and revealing it does not sink the row."""
        live = self.cards[card] > counts[card]
        if card < len(LETTERS):
            return live & (counts[card] + 1 + self.own_bits[card] < SINK_LETTER)
        return live & (t + card - 5 <= BUDGET)

    def _children(
        self, t: int, card: int, full: np.ndarray, rows: np.ndarray, allowed: np.ndarray, count: np.ndarray
    ) -> _Chunk:
        """The children that `card` gives states whose row holds t treasure, whose unmasked
        summaries are full[rows], whose letters still revealable are `allowed` and which hold
        `count` of the card."""
        t2 = t + max(0, card - 5)
        parents, which = _groups(rows, len(full))
        made = np.take(full[rows[parents]], self.to[t2][card], axis=1)
        made += self.gains[card, : self.width[t2]]
        np.maximum(made, self.floors[t2], out=made)
        if card < len(LETTERS):
            gone = (count + 1 + self.own_bits[card] >= SINK_LETTER - 1) | (self.cards[card] == count + 1)
            allowed = (allowed & ~(gone.astype(np.int64) << card)) | self.own
        first, pair = _groups(which * 64 + allowed, 64 * len(made))
        masked = made[which[first]] * self.masks[t2][allowed[first]]
        best = (masked - self.floors[t2]).max(axis=1)[pair]
        return _Chunk(t2, card, made, which, masked, pair, best, self.cards[card] - count)

    def _recheck(self, layers: list[_Layer]) -> None:
        """Two cards ahead and more: going up from the last layer, a state whose children's
        bounds add up to less than stopping is not expanded after all (its bound becomes its stop
        value); then the states no expanded state reaches from the root are not expanded."""
        top = None
        for k in range(len(layers) - 2, 0, -1):
            parent = layers[k]
            (at,) = np.nonzero(parent.expanded)
            below = np.append(layers[k + 1].bound, 0.0)[parent.children[at]]
            total = (parent.weights[:, at].T * below).sum(axis=1) / parent.pool
            stop = parent.stop[at]
            pruned = total < stop - MARGIN
            parent.bound[at] = np.where(pruned, stop, np.minimum(parent.bound[at], np.maximum(total, stop)))
            if not pruned.any():
                break
            parent.expanded[at[pruned]] = False
            parent.proved[at[pruned]] = True
            top = k
        if top is None:
            return
        for layer, below in zip(layers[top:], layers[top + 1 :]):
            reach = np.zeros(below.size() + 1, dtype=bool)
            reach[layer.children[layer.expanded]] = True
            below.expanded &= reach[:-1]

    def _next_layer(self, layers: list[_Layer], chunks: dict[int, list[_Chunk]]) -> dict:
        """Append the layer of the expanded states' children (numbering them in the last layer's
        `children`); returns its unmasked summaries."""
        layer = layers[-1]
        groups, unmasked = {}, {}
        layer.children = np.full((len(layer.stop), 9), -1, dtype=np.int64)
        first = 0
        for t in sorted(chunks):
            kept = [(chunk, layer.expanded[chunk.parents]) for chunk in chunks[t]]
            kept = [(chunk, pick) for chunk, pick in kept if pick.any()]
            if not kept:
                continue
            rows, summary = _merge([(chunk.masked, chunk.pair[pick]) for chunk, pick in kept])
            full, full_of = _merge([(chunk.made, chunk.which[pick]) for chunk, pick in kept])
            states = np.concatenate([chunk.states[pick] for chunk, pick in kept])
            state_first, state_number = _groups(states * len(rows) + summary)
            groups[t] = (rows, states[state_first], summary[state_first])
            unmasked[t] = (full, full_of[state_first])
            at = 0
            for chunk, pick in kept:
                n = int(pick.sum())
                layer.children[chunk.parents[pick], chunk.card] = first + state_number[at : at + n]
                at += n
            first += len(state_first)
        layers.append(_Layer(layer.pool - 1, groups))
        return unmasked

    def _back_up(self, layers: list[_Layer]) -> None:
        """The values from the deepest layer up: each expanded state's reveal value and every
        state's value, max(stop, reveal), scaled by scale[pool]."""
        below = np.zeros(1, dtype=np.int64)  # the values of the layer below, and 0 for no child
        for layer in reversed(layers):
            if not layer.size():
                continue
            scale = self.scale[layer.pool]
            exact = BUDGET * scale >= FITS
            (at,) = np.nonzero(layer.expanded)
            weights = layer.weights[:, at].T
            if exact:
                below, weights = below.astype(object), weights.astype(object)
            layer.reveal = (weights * below[layer.children[at]]).sum(axis=1) if len(at) else np.zeros(0, below.dtype)
            value = layer.stop.astype(object) * scale if exact else layer.stop * scale
            value[at] = np.maximum(value[at], layer.reveal)
            below = np.append(value, 0)


def _merge(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Rows taken from several tables: (the distinct rows, each taken row's number among them),
    from (table, the rows taken from it) pairs."""
    tables = np.concatenate([table for table, _ in parts])
    starts = np.cumsum([0] + [len(table) for table, _ in parts])
    taken = np.concatenate([start + picks for start, (_, picks) in zip(starts, parts)])
    used, number = _groups(taken, int(starts[-1]))
    rows = tables[taken[used]]
    first, row_number = _distinct_rows(rows)
    return rows[first], row_number[number]


class _Relaxed:
    """The relaxed game from a row on: a stop pays `best` (the row's most, less floors) plus all
    treasure revealed since, letters cost nothing, sinking pays 0; its value bounds the true one
    from above. Tabulated in floats for every count of cards a row can reach and every best:
    `points` (its value in treasure points) and `stop` (revealing is worth clearly less than
    stopping, by more than the floats' error: then stopping is optimal)."""

    def __init__(self, solver: TurnSolver, counts: Sequence[int]) -> None:
        self.low = list(counts)
        treasure = counts[6] + 2 * counts[7] + 3 * counts[8]
        high = [min(solver.cards[c], SINK_LETTER - 1 - solver.own_bits[c]) for c in range(len(LETTERS))]
        high += [min(solver.cards[c], counts[c] + (BUDGET - treasure) // (c - 5)) for c in range(6, 9)]
        high = [max(low, h) for low, h in zip(self.low, high)]
        span = [h - low + 1 for h, low in zip(high, self.low)]
        self.stride = [int(np.prod(span[c + 1 :])) for c in range(9)]
        self.base = sum(low * s for low, s in zip(self.low, self.stride))
        index = np.arange(self.stride[0] * span[0])
        cc = [self.low[c] + (index // self.stride[c]) % span[c] for c in range(9)]
        row_treasure, size = cc[6] + 2 * cc[7] + 3 * cc[8], np.sum(cc, axis=0)
        self.points = np.zeros((len(index), BUDGET + 1))
        self.stop = np.zeros((len(index), BUDGET + 1), dtype=bool)
        for n in sorted(set(size[row_treasure <= BUDGET].tolist()), reverse=True):
            (at,) = np.nonzero((size == n) & (row_treasure <= BUDGET))
            pool = solver.size - n
            for best in range(BUDGET + 1):
                reveal = np.zeros(len(at))
                for c in range(9):
                    unseen = solver.cards[c] - cc[c][at]
                    live = (unseen > 0) & (cc[c][at] < high[c])
                    if c < len(LETTERS):
                        live &= cc[c][at] + 1 + solver.own_bits[c] < SINK_LETTER
                        after = best
                    else:
                        live &= (row_treasure[at] + c - 5 <= BUDGET) & (best + c - 5 <= BUDGET)
                        after = min(BUDGET, best + c - 5)
                    reveal[live] += unseen[live] * self.points[at[live] + self.stride[c], after]
                reveal /= max(pool, 1)
                self.points[at, best] = np.maximum(reveal, best)
                self.stop[at, best] = reveal < best - MARGIN

    def covers(self, counts: Sequence[int]) -> bool:
        """Does the table hold every row that grows from a row with these counts?"""
        return all(c >= low for c, low in zip(counts, self.low))

    def cell(self, states: np.ndarray) -> np.ndarray:
        out = np.full(len(states), -self.base, dtype=np.int64)
        for c in range(9):
            out += ((states >> (BITS * c)) & 15) * self.stride[c]
        return out

    def stops(self, states: np.ndarray, best: np.ndarray) -> np.ndarray:
        """Per state: is stopping optimal in the relaxed game (so in the true one, when the row's
        stop value equals its best)?"""
        return self.stop[self.cell(states), best]

    def worth_revealing(
        self, layer: _Layer, expand: np.ndarray, chunks: dict[int, list[_Chunk]]
    ) -> tuple[np.ndarray, np.ndarray]:
        """(which states of the layer to expand, a bound on their reveal value in points): those
        in `expand` whose children's relaxed values do not add up to clearly less than stopping."""
        bound = np.zeros(len(expand))
        for group in chunks.values():
            for chunk in group:
                bound[chunk.parents] += chunk.weight * self.points[self.cell(chunk.states), chunk.best]
        bound /= max(layer.pool, 1)
        return expand & (bound > layer.stop - MARGIN), bound
