"""Entheos played out fast, for rollouts: the rules of `state` on one mutable `Table` (lists and
small ints, no Fractions), and the named bots of `policies` (`BOTS`) choosing on it exactly as
they do on a `State` (the tests play both side by side), about 30 times faster than the
protocol's loop.

`Table.of(state)` starts from any state after the setup; `finish(table, seats, rng)` plays it to
the end, the dice drawn from `rng`, seat p played by the bot named `seats[p]`. Moves are tuples:
a placement the cards placed (sorted), a slot (held, card, older, effect), an effect a tuple
whose first item is its card's number (0 for no target) and then its hero(es) and face index
(the tests turn them into the protocol's actions). It imports nothing of `state`: the state's
rollout hint plays out here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from operator import mul
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from nessus.games.entheos.state import State

from nessus.games.entheos.heroes import ACTIONS, FACES, GODS, HERO_ACTIONS, HERO_NAMES, HEROES
from nessus.games.entheos.rules import DICE, OVER, PLACE, REVEAL

PASSIVE_ORDER = (1, 6, 2, 3, 5, 4)
"""The passive bot's cards, from the one it places first (`policies`)."""
RANK = ("falter", "rest", "guard", "steal1", "rally", "steal3")
"""Actions from worst to best for the hero taking them (rest and falter rank alike)."""
GOOD = ("steal3", "rally")
"""The faces `lock_favourite` locks."""
SIDE_OF = tuple(h.side for h in HEROES)
Code = tuple[int, ...]
"""An effect: (0, card) no target, (1, hero) lock, (2, hero) reserve, (3, hero, face) set face,
(4, a, b) swap places, (5, a, b) swap dice, (6, hero) keep face."""
Slot = tuple[bool, int, int | None, Code | None]
"""A slot move: (held, card, older card revealed or None, its effect or None); a reveal is
(False, card, None, effect)."""

STEAL1, STEAL3, RALLY, GUARD = (ACTIONS.index(a) for a in ("steal1", "steal3", "rally", "guard"))
FALTER = ACTIONS.index("falter")
ACT = tuple(tuple(ACTIONS.index(HEROES[h].action(f)) for f in FACES) for h in range(6))
"""Each hero's action (an index of `ACTIONS`) by face index."""
SETTABLE = tuple(tuple(f for f in range(6) if HEROES[h].action(FACES[f]) in HERO_ACTIONS) for h in range(6))
SIDE_PAIRS = tuple(pair for side in (0, 1) for pair in combinations([h for h in range(6) if SIDE_OF[h] == side], 2))
FAVOURS = tuple(tuple((HERO_NAMES.index(name), w) for name, w in g.favourites.items()) for g in GODS)
WEIGHTS = tuple(tuple(g.favourites.get(name, 0) for name in HERO_NAMES) for g in GODS)
"""Each god's victory points per combat point, by hero."""
GOD_SIDE = tuple(g.side for g in GODS)
GOD_MATRIX, GOD_SIDES = np.array(WEIGHTS), np.array(GOD_SIDE)
RANKED = tuple(RANK.index(a) for a in ACTIONS)
GOOD_ACTS = frozenset(ACTIONS.index(a) for a in GOOD)


def resolve(points: Sequence[int], acts: Sequence[int], opp: Sequence[int], reserve: set[int] | frozenset[int]) -> list:
    """`battle.resolve` on action indexes: every hero's points after the turn."""
    a0, a1, a2, a3, a4, a5 = acts
    r0 = (a0 == RALLY) + (a1 == RALLY) + (a2 == RALLY)
    r1 = (a3 == RALLY) + (a4 == RALLY) + (a5 == RALLY)
    guards = ((a3 == GUARD) + (a4 == GUARD) + (a5 == GUARD), (a0 == GUARD) + (a1 == GUARD) + (a2 == GUARD))
    after = [points[0] + r0, points[1] + r0, points[2] + r0, points[3] + r1, points[4] + r1, points[5] + r1]
    out = after[:]
    for h in range(6):
        a = acts[h]
        if a == STEAL1 or a == STEAL3:
            amount = (1 if a == STEAL1 else 3) - guards[h > 2]
            if amount > 0:
                if h in reserve:
                    out[h] += amount
                else:
                    v = opp[h]
                    taken = amount if amount < after[v] else after[v]
                    out[h] += taken
                    out[v] -= taken
    return out


RESOLVED: dict[tuple[int, ...], list[int]] = {}
"""Resolutions already computed, by points, actions, opponents and reserve heroes (bounded)."""


class Table:
    """A game of Entheos after its setup, mutable (see the module docstring); fields as `State`'s,
    `faces` as face indexes (-1 not rolled), `opp` the hero facing each hero."""

    __slots__ = (
        "n", "turns", "per_turn", "turn", "phase", "step", "points", "faces", "places", "opp", "gods", "first",
        "to_roll", "hands", "placed", "held", "used", "locked", "reserve", "kept", "memo", "grid",
    )  # fmt: skip
    n: int
    turns: int
    per_turn: int
    turn: int
    phase: str
    step: int
    points: list[int]
    faces: list[int]
    places: list[int]
    opp: list[int]
    gods: list[list[int]]
    first: int
    to_roll: list[int]
    hands: list[list[int]]
    placed: list[list[int]]
    held: list[list[tuple[int, int]]]
    used: list[list[int]]
    locked: set[int]
    reserve: set[int]
    kept: set[int]
    memo: dict[Code | None, list[int]]
    grid: tuple[np.ndarray, np.ndarray, dict[int, list[int]], int] | None

    @classmethod
    def of(cls, state: State) -> Table:
        """The table of `state`, an `entheos.state.State` (a ValueError before the setup is over)."""
        if state.first < 0:
            raise ValueError("state must be past the setup (line-up, gods and first intervener drawn)")
        t = cls()
        t.n, t.turns, t.per_turn = state.players, state.turns, state.per_turn
        t.turn, t.phase, t.step, t.first = state.turn, state.phase, state.step, state.first
        t.points = list(state.points)
        t.faces = [FACES.index(f) if f else -1 for f in state.faces]
        t.places = list(state.places)
        t.opp = _opponents(t.places)
        t.gods = [list(g) for g in state.gods]
        t.to_roll = list(state.to_roll)
        t.hands = [list(h) for h in state.hands]
        t.placed = [list(p) for p in state.placed]
        t.held = [list(h) for h in state.held]
        t.used = [sorted(u) for u in state.used]
        t.locked, t.reserve, t.kept = set(state.locked), set(state.reserve), set(state.kept)
        t.memo, t.grid = {}, None
        return t

    def key(self) -> tuple:
        """Everything the game's course depends on, comparable between tables."""
        return (
            self.turn, self.phase, self.step, tuple(self.points), tuple(self.faces), tuple(self.places), self.first,
            tuple(self.to_roll), tuple(map(tuple, self.hands)), tuple(map(tuple, self.placed)),
            tuple(map(tuple, self.held)), tuple(map(tuple, self.used)), sorted(self.locked), sorted(self.reserve),
            sorted(self.kept),
        )  # fmt: skip

    # -- what the table shows --------------------------------------------------------------------
    def mover(self) -> int:
        """The player to move (a placement or a slot)."""
        return (self.first + self.step) % self.n

    def older(self, p: int) -> int | None:
        for t, c in self.held[p]:
            if t < self.turn:
                return c
        return None

    def effects(self, card: int) -> list[Code]:
        """`State.effects` as codes, in the same order."""
        locked = self.locked
        out: list[Code]
        if card == 1 or card == 2 or card == 6:
            return [(card, h) for h in range(6)]
        if card == 3:
            out = [(3, h, f) for h in range(6) if h not in locked for f in SETTABLE[h]]
        elif card == 4:
            out = [(4, a, b) for a, b in SIDE_PAIRS if a not in locked and b not in locked]
        else:
            pl = self.places
            out = [(5, pl[i], pl[i + 3]) for i in range(3) if pl[i] not in locked and pl[i + 3] not in locked]
        return out or [(0, card)]

    def slot_moves(self, p: int, placed: Sequence[int] | None = None) -> list[Slot]:
        """`State.slot_actions` as moves, in the same order."""
        placed = self.placed[p] if placed is None else placed
        out: list[Slot] = [(False, c, None, e) for c in placed for e in self.effects(c)]
        older = self.older(p)
        if older is None:
            out += [(True, c, None, None) for c in placed]
        else:
            older_effects = self.effects(older)
            out += [(True, c, older, e) for c in placed for e in older_effects]
        return out

    def placements(self, p: int) -> list[tuple[int, ...]]:
        return list(combinations(self.hands[p], self.per_turn))

    def resolution(self, effect: Code | None = None) -> list:
        """Every hero's points after this turn with `effect` applied first, no other card played
        (remembered until the dice, places, reserves or points change)."""
        effect = self.plain(effect)
        known = self.memo.get(effect)
        if known is None:
            known = self.memo[effect] = self._resolution(effect)
        return known

    def plain(self, effect: Code | None) -> Code | None:
        """`effect`, or None where it leaves this turn's resolution as it is: a lock, a keep, no
        target, a reserve for a hero that does not steal, a face set or swapped to the same action."""
        if effect is None:
            return None
        kind = effect[0]
        if kind == 0 or kind == 1 or kind == 6:
            return None
        faces = self.faces
        if kind == 2:
            return effect if ACT[effect[1]][faces[effect[1]]] <= STEAL3 else None
        if kind == 3:
            return effect if ACT[effect[1]][effect[2]] != ACT[effect[1]][faces[effect[1]]] else None
        if kind == 5:
            return effect if ACT[effect[1]][faces[effect[1]]] != ACT[effect[2]][faces[effect[2]]] else None
        return effect

    def _resolution(self, effect: Code | None) -> list:
        faces, opp, reserve = self.faces, self.opp, self.reserve
        if effect is not None:
            kind = effect[0]
            if kind == 2:
                reserve = reserve | {effect[1]}
            elif kind == 3:
                faces = faces[:]
                faces[effect[1]] = effect[2]
            elif kind == 4:
                places = self.places[:]
                i, j = places.index(effect[1]), places.index(effect[2])
                places[i], places[j] = places[j], places[i]
                opp = _opponents(places)
            elif kind == 5:
                faces = faces[:]
                faces[effect[1]], faces[effect[2]] = faces[effect[2]], faces[effect[1]]
        key = (*self.points, *[ACT[h][faces[h]] for h in range(6)], *opp, *sorted(reserve))
        known = RESOLVED.get(key)
        if known is None:
            if len(RESOLVED) > 1 << 18:
                RESOLVED.clear()
            known = RESOLVED[key] = resolve(self.points, key[6:12], opp, reserve)
        return known

    def worths2(self, p: int) -> tuple[list[int], dict[int, list[int]], int]:
        """`worth2` of every card's every effect at once: (the worths of the distinct resolutions,
        each card's effects as indexes into them, the index of no effect)."""
        if self.grid is None:
            plain = {self.plain(e): 0 for c in range(1, 7) for e in self.effects(c)} | {None: 0}
            index = {e: i for i, e in enumerate(plain)}
            points = np.array([self.resolution(e) for e in plain])
            a, t = points[:, :3].sum(axis=1), points[:, 3:].sum(axis=1)
            ahead = np.stack([1 + (a >= t), 1 + (t >= a)], axis=1)
            rows = {c: [index[self.plain(e)] for e in self.effects(c)] for c in range(1, 7)}
            self.grid = (points, ahead, rows, index[None])
        points, ahead, rows, none = self.grid
        gods = self.gods[p]
        worth = (points @ GOD_MATRIX[gods].T * ahead[:, GOD_SIDES[gods]]).sum(axis=1)
        return worth.tolist(), rows, none

    def worth2(self, p: int, pts: Sequence[int]) -> int:
        """Twice `State.worth`: a god of the side ahead or level counts 2, behind 1."""
        a, t = pts[0] + pts[1] + pts[2], pts[3] + pts[4] + pts[5]
        total = 0
        for g in self.gods[p]:
            total += sum(map(mul, WEIGHTS[g], pts)) * (2 if (a >= t if GOD_SIDE[g] == 0 else t >= a) else 1)
        return total

    def victory_points(self) -> list[int]:
        pts = self.points
        a, t = pts[0] + pts[1] + pts[2], pts[3] + pts[4] + pts[5]
        winner = None if a == t else (0 if a > t else 1)
        return [
            sum(sum(map(mul, WEIGHTS[g], pts)) for g in gods if winner is None or GOD_SIDE[g] == winner)
            for gods in self.gods
        ]

    # -- moves ------------------------------------------------------------------------------------
    def roll(self, rng: np.random.Generator) -> None:
        """The dice still to roll this turn, then the placements."""
        for h, f in zip(self.to_roll, rng.integers(6, size=len(self.to_roll)).tolist()):
            self.faces[h] = f
        self.to_roll, self.phase, self.step, self.kept, self.memo, self.grid = [], PLACE, 0, set(), {}, None

    def place(self, cards: Sequence[int]) -> None:
        p = self.mover()
        for c in cards:
            self.hands[p].remove(c)
        self.placed[p] = list(cards)
        self.step += 1
        if self.step == self.n:
            self.phase, self.step = REVEAL, 0

    def play_slot(self, move: Slot) -> None:
        held, card, older, effect = move
        p = self.mover()
        self.placed[p].remove(card)
        if held:
            if older is not None:
                i = next(i for i, (t, _) in enumerate(self.held[p]) if t < self.turn)
                del self.held[p][i]
                self.used[p].append(older)
                self.used[p].sort()
            self.held[p].append((self.turn, card))
        else:
            self.used[p].append(card)
            self.used[p].sort()
        if effect is not None:
            self._apply(effect)
        self.step += 1
        if self.step == self.n * self.per_turn:
            self._end_turn()

    def _apply(self, effect: Code) -> None:
        kind = effect[0]
        if 1 <= kind <= 5:
            self.memo, self.grid = ({} if kind > 1 else self.memo), None
        if kind == 1:
            self.locked.add(effect[1])
        elif kind == 2:
            self.reserve.add(effect[1])
        elif kind == 3:
            self.faces[effect[1]] = effect[2]
        elif kind == 4:
            i, j = self.places.index(effect[1]), self.places.index(effect[2])
            self.places[i], self.places[j] = self.places[j], self.places[i]
            self.opp = _opponents(self.places)
        elif kind == 5:
            a, b = effect[1], effect[2]
            self.faces[a], self.faces[b] = self.faces[b], self.faces[a]
        elif kind == 6:
            self.kept.add(effect[1])

    def _end_turn(self) -> None:
        self.points, self.memo, self.grid = self.resolution(), {}, None
        falters = sum(1 for h in range(6) if ACT[h][self.faces[h]] == FALTER)
        n = self.n
        self.first = (self.first + 1 + falters) % n
        for p in range(n):
            if len(self.hands[p]) == (0 if n == 2 else 1):
                self.hands[p], self.held[p], self.used[p] = [1, 2, 3, 4, 5, 6], [], []
        self.turn += 1
        self.locked, self.reserve, self.step = set(), set(), 0
        if self.turn >= self.turns:
            self.phase = OVER
            return
        self.to_roll = [h for h in range(6) if h not in self.kept]
        self.phase = DICE
        if not self.to_roll:
            self.phase, self.kept = PLACE, set()


def _opponents(places: Sequence[int]) -> list[int]:
    out = [0] * 6
    for i in range(3):
        a, b = places[i], places[i + 3]
        out[a], out[b] = b, a
    return out


# -- the bots ------------------------------------------------------------------------------------
Placer = Callable[[Table, int, np.random.Generator], tuple[int, ...]]
Revealer = Callable[[Table, int, np.random.Generator], Slot]


def passive_place(t: Table, p: int, _: np.random.Generator | None = None, keep: int = 0) -> tuple[int, ...]:
    ranked = sorted(t.hands[p], key=lambda c: (c == keep, PASSIVE_ORDER.index(c)))
    return tuple(sorted(ranked[: t.per_turn]))


def passive_slot(t: Table, p: int, _: np.random.Generator | None = None) -> Slot:
    """The move that changes this turn's resolution least, the first of equals."""
    now = t.resolution()
    best: Slot | None = None
    least = -1
    seen: dict[Code | None, int] = {}
    for move in t.slot_moves(p):
        e = move[3]
        if e not in seen:
            seen[e] = sum(abs(x - y) for x, y in zip(t.resolution(e), now))
        if best is None or seen[e] < least:
            best, least = move, seen[e]
            if least == 0:
                break
    assert best is not None
    return best


def _values(t: Table, p: int) -> Callable[[Code | None], int]:
    cache: dict[Code | None, int] = {}

    def value(e: Code | None) -> int:
        e = t.plain(e)
        known = cache.get(e)
        if known is None:
            known = cache[e] = t.worth2(p, t.resolution(e))
        return known

    return value


def greedy_place(t: Table, p: int, _: np.random.Generator | None = None) -> tuple[int, ...]:
    """`State.hint`'s best placement: the first with the best reveal or hold it allows now."""
    worth, rows, none = t.worths2(p)
    older = t.older(p)
    hold = max(worth[i] for i in rows[older]) if older is not None else worth[none]
    card_best = {c: max(worth[i] for i in rows[c]) for c in t.hands[p]}
    best, top = None, None
    for cards in t.placements(p):
        v = max(hold, *(card_best[c] for c in cards))
        if top is None or v > top:
            best, top = cards, v
    assert best is not None
    return best


def greedy_slot(t: Table, p: int, _: np.random.Generator | None = None) -> Slot:
    value = _values(t, p)
    return max(t.slot_moves(p), key=lambda m: value(m[3]))


def random_place(t: Table, p: int, rng: np.random.Generator) -> tuple[int, ...]:
    options = t.placements(p)
    return options[int(rng.integers(len(options)))]


def random_slot(t: Table, p: int, rng: np.random.Generator) -> Slot:
    options = t.slot_moves(p)
    return options[int(rng.integers(len(options)))]


def _placing_with(t: Table, p: int, card: int) -> tuple[int, ...]:
    others = sorted((c for c in t.hands[p] if c != card), key=PASSIVE_ORDER.index)
    return tuple(sorted((card, *others[: t.per_turn - 1])))


def card_bot(card: int) -> tuple[Placer, Revealer]:
    """`policies.card_bot`'s placement and slot."""

    def place(t: Table, p: int, rng: np.random.Generator) -> tuple[int, ...]:
        return _placing_with(t, p, card) if card in t.hands[p] else passive_place(t, p)

    def slot(t: Table, p: int, rng: np.random.Generator) -> Slot:
        if card not in t.placed[p]:
            return passive_slot(t, p)
        value = _values(t, p)
        return max(((False, card, None, e) for e in t.effects(card)), key=lambda m: value(m[3]))

    return place, slot


def favourite(t: Table, p: int) -> int:
    best: tuple[int, int] | None = None
    for g in t.gods[p]:
        for h, w in FAVOURS[g]:
            if best is None or w > best[0]:
                best = (w, h)
    assert best is not None
    return best[1]


def lock_place(t: Table, p: int, rng: np.random.Generator) -> tuple[int, ...]:
    fav = favourite(t, p)
    if ACT[fav][t.faces[fav]] in GOOD_ACTS and 1 in t.hands[p]:
        return _placing_with(t, p, 1)
    return passive_place(t, p, keep=1)


def lock_slot(t: Table, p: int, rng: np.random.Generator) -> Slot:
    fav = favourite(t, p)
    if ACT[fav][t.faces[fav]] in GOOD_ACTS and 1 in t.placed[p] and fav not in t.locked:
        return (False, 1, None, (1, fav))
    return passive_slot(t, p)


def swap_wanted(t: Table, p: int) -> Code | None:
    fav = favourite(t, p)
    opp = t.opp[fav]
    if RANKED[ACT[opp][t.faces[opp]]] <= RANKED[ACT[fav][t.faces[fav]]] or fav in t.locked or opp in t.locked:
        return None
    return (5, fav, opp) if SIDE_OF[fav] == 0 else (5, opp, fav)


def swap_place(t: Table, p: int, rng: np.random.Generator) -> tuple[int, ...]:
    if swap_wanted(t, p) and 5 in t.hands[p]:
        return _placing_with(t, p, 5)
    return passive_place(t, p, keep=5)


def swap_slot(t: Table, p: int, rng: np.random.Generator) -> Slot:
    swap = swap_wanted(t, p)
    if swap and 5 in t.placed[p]:
        return (False, 5, None, swap)
    return passive_slot(t, p)


BOTS: dict[str, tuple[Placer, Revealer]] = {
    "greedy": (greedy_place, greedy_slot),
    "passive": (passive_place, passive_slot),
    "random_legal": (random_place, random_slot),
    **{f"card_{c}": card_bot(c) for c in range(1, 7)},
    "lock_favourite": (lock_place, lock_slot),
    "swap_against_competitor": (swap_place, swap_slot),
}
"""Every named bot of `policies.policies` (random_legal drawing from the play-out's stream)."""


def finish(t: Table, seats: Sequence[str], rng: np.random.Generator) -> Table:
    """`t` played to the end, seat p by the bot `seats[p]`; returns `t`."""
    bots = [BOTS[name] for name in seats]
    while t.phase != OVER:
        if t.phase == DICE:
            t.roll(rng)
        elif t.phase == PLACE:
            p = t.mover()
            t.place(bots[p][0](t, p, rng))
        else:
            p = t.mover()
            t.play_slot(bots[p][1](t, p, rng))
    return t


def shares(vp: Sequence[int]) -> list[float]:
    """Win shares of the most victory points (as `game.win_shares`, in floats)."""
    top = max(vp)
    k = sum(1 for v in vp if v == top)
    return [1 / k if v == top else 0.0 for v in vp]


# -- a move ----------------------------------------------------------------------------------------
def play(t: Table, move: tuple[int, ...] | Slot) -> None:
    """Play the mover's `move` on `t`."""
    if t.phase == PLACE:
        t.place(move)  # type: ignore[arg-type]
    else:
        t.play_slot(move)  # type: ignore[arg-type]
