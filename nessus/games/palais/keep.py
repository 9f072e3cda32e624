"""Hold any dice, roll the others, up to a number of rolls: the game behind Le Palais, for
any number of dice and any payoff of the final hand (the tests solve shrunk versions).

Nodes (the solver's states) and actions are as in `nessus.games.palais.state`. Three tools:

- `game`: the game for the core solver (`nessus.solver.Expectimax`), exact;
- `solve`: the same backward induction on integer arrays for many objectives at once (values
  scaled by 6**(dice * rolls left), int64 when nothing can overflow, Python integers
  otherwise), with `policy_table` and `final_weights` to play any policy forward exactly;
- `machine` and `play`: a turn as table lookups for the simulation, each roll of k dice a
  uniform code in [0, 6**k) (the ordered dice) looked up in a roll table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from math import lcm
from typing import cast

import numpy as np

from nessus.dice import Chosen, Roll, multisets, ordered_rolls, sub_multisets
from nessus.solver import Expectimax, TurnPolicy

DICE, ROLLS, SIDES = 5, 3, 6

Node = tuple[int, Roll, Roll]
"""A solver state: (rolls left, dice set aside, dice just rolled)."""
Action = str | Roll
Value = Fraction | int
Objective = Callable[[Roll], Value]
"""A payoff of the final hand (the game's objectives in `nessus.games.palais.policies` are such
callables)."""


class Hold(Chosen):
    """The dice held while the others are rolled again; `str` reads "hold 4 4"."""

    verb = "hold"


# -- the game for the core solver ------------------------------------------------------------------
def hold_order(hold: Roll) -> tuple[int, Roll]:
    """The order actions are listed in (and ties are broken by): more dice held first."""
    return (-len(hold), hold)


def hold_options(kept: Roll, rolled: Roll, sticky: bool) -> list[Roll]:
    """The holds (dice aside while the rest are rolled) allowed after a roll, stop excluded."""
    if sticky:
        options = {tuple(sorted(kept + s)) for s in sub_multisets(rolled)}
    else:
        options = set(sub_multisets(tuple(sorted(kept + rolled))))
    full = len(kept) + len(rolled)
    return sorted((h for h in options if len(h) < full), key=hold_order)


def game(objective: Objective, sticky: bool = False, dice: int = DICE, roll_count: int = ROLLS) -> Expectimax:
    """The game for the core solver: maximise E[objective(final hand)] (`dice` dice, up to
    `roll_count` rolls; states as in `nessus.games.palais.state`)."""

    def choices(state: Node) -> list[tuple[Action, tuple]]:
        left, kept, rolled = state
        if not rolled:
            return [("roll", ("roll", left, kept))] if left else []
        if left == 0:
            return []
        hand = tuple(sorted(kept + rolled))
        return [("stop", ("stop", hand))] + [(h, ("roll", left, h)) for h in hold_options(kept, rolled, sticky)]

    def chance(after: tuple) -> list[tuple[Node, int]]:
        if after[0] == "stop":
            return [((0, (), after[1]), 1)]
        _, left, kept = after
        if sticky:
            return [((left - 1, kept, r), w) for r, w in multisets(dice - len(kept))]
        return [((left - 1, (), tuple(sorted(kept + r))), w) for r, w in multisets(dice - len(kept))]

    return Expectimax(choices, chance, lambda s: objective(tuple(sorted(s[1] + s[2]))))


def start(roll_count: int = ROLLS) -> Node:
    """The state before the first roll."""
    return (roll_count, (), ())


# -- the same solver on arrays ------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """The decision states of "hold any dice, roll the others" as index arrays.

    `holds`: every multiset of 0..dice faces in `hold_order` (holding all the dice = stop);
    `states`: (kept, rolled) right after a roll (((), hand) without sticky holds); the rolls of
    each hold with fewer than `dice` dice in CSR form (`t_ptr`, `t_state`, `t_weight`); the
    holds allowed in each state in `pair_hold` (state by state, `pair_ptr`)."""

    dice: int
    sticky: bool
    hands: tuple[Roll, ...]
    holds: tuple[Roll, ...]
    states: tuple[tuple[Roll, Roll], ...]
    hand_index: dict[Roll, int]
    hold_index: dict[Roll, int]
    state_index: dict[tuple[Roll, Roll], int]
    state_hand: np.ndarray
    hold_len: np.ndarray
    full: int  # holds[:full] hold every die (stop); holds[full:] are rolled from
    full_hand: np.ndarray  # hand index of each full hold
    hand_full: np.ndarray  # full hold index of each hand
    t_ptr: np.ndarray
    t_state: np.ndarray
    t_weight: np.ndarray
    t_owner: np.ndarray  # the hold each transition belongs to
    pair_ptr: np.ndarray
    pair_hold: np.ndarray
    pair_state: np.ndarray

    def state_of(self, kept: Roll, rolled: Roll) -> int:
        """The index of the state right after a roll."""
        if self.sticky and rolled:
            return self.state_index[(tuple(sorted(kept)), tuple(sorted(rolled)))]
        return self.state_index[((), tuple(sorted(kept + rolled)))]


@cache
def layout(dice: int = DICE, sticky: bool = False) -> Layout:
    """The arrays for `dice` dice (cached)."""
    hands = tuple(h for h, _ in multisets(dice))
    holds = tuple(sorted((h for k in range(dice + 1) for h, _ in multisets(k)), key=hold_order))
    hand_index = {h: i for i, h in enumerate(hands)}
    hold_index = {h: i for i, h in enumerate(holds)}
    if sticky:
        states = tuple((k, r) for n in range(dice) for k, _ in multisets(n) for r, _ in multisets(dice - n))
    else:
        states = tuple(((), h) for h in hands)
    state_index = {s: i for i, s in enumerate(states)}

    def after_roll(kept: Roll, r: Roll) -> int:
        return state_index[(kept, r)] if sticky else state_index[((), tuple(sorted(kept + r)))]

    full = sum(1 for h in holds if len(h) == dice)
    t_ptr, t_state, t_weight, t_owner = [0], [], [], []
    for j, h in enumerate(holds[full:]):
        for r, w in multisets(dice - len(h)):
            t_state.append(after_roll(h, r))
            t_weight.append(w)
            t_owner.append(full + j)
        t_ptr.append(len(t_state))
    pair_ptr, pair_hold, pair_state = [0], [], []
    for i, (k, r) in enumerate(states):
        hand = tuple(sorted(k + r))
        for h in [hand] + hold_options(k, r, sticky):
            pair_hold.append(hold_index[h])
            pair_state.append(i)
        pair_ptr.append(len(pair_hold))
    arr = partial(np.array, dtype=np.int64)
    return Layout(
        dice,
        sticky,
        hands,
        holds,
        states,
        hand_index,
        hold_index,
        state_index,
        state_hand=arr([hand_index[tuple(sorted(k + r))] for k, r in states]),
        hold_len=arr([len(h) for h in holds]),
        full=full,
        full_hand=arr([hand_index[h] for h in holds[:full]]),
        hand_full=arr([hold_index[h] for h in hands]),
        t_ptr=arr(t_ptr),
        t_state=arr(t_state),
        t_weight=arr(t_weight),
        t_owner=arr(t_owner),
        pair_ptr=arr(pair_ptr),
        pair_hold=arr(pair_hold),
        pair_state=arr(pair_state),
    )


INT64_SAFE = 2**62


def payoff_matrix(
    objectives: Sequence[Objective], hands: Sequence[Roll], roll_count: int, dice: int
) -> tuple[np.ndarray, list[int]]:
    """The objectives' payoffs as integers (hands x objectives) and each column's denominator;
    int64 when nothing can overflow, Python integers otherwise."""
    columns, dens = [], []
    for obj in objectives:
        vals = [Fraction(obj(h)) for h in hands]
        den = lcm(*(v.denominator for v in vals))
        columns.append([int(v * den) for v in vals])
        dens.append(den)
    biggest = max((abs(x) for col in columns for x in col), default=0) * 6 ** (dice * roll_count)
    dtype = np.int64 if biggest < INT64_SAFE else object
    return np.array(columns, dtype=dtype).T.reshape(len(hands), len(objectives)), dens


@dataclass(frozen=True)
class Solution:
    """Optimal values and holds of several objectives at once.

    `values[left]` (states x objectives): the value after a roll with `left` rolls still allowed,
    times den * 6**(dice * left); `best[left]` the hold index chosen (left >= 1; the first in
    `hold_order` among equals, as the core solver); `first` the value before the first roll,
    times den * 6**(dice * rolls)."""

    layout: Layout
    roll_count: int
    dens: tuple[int, ...]
    values: tuple[np.ndarray, ...]
    best: tuple[np.ndarray | None, ...]
    first: np.ndarray

    def start_value(self, column: int = 0) -> Fraction:
        """The optimal value before the first roll (exact)."""
        return Fraction(int(self.first[column]), self.dens[column] * 6 ** (self.layout.dice * self.roll_count))

    def value(self, state: Node, column: int = 0) -> Fraction:
        """The optimal value of a state after a roll (exact)."""
        left, kept, rolled = state
        if not rolled:
            return (
                self.start_value(column) if left == self.roll_count and not kept else self._pending(left, kept, column)
            )
        i = self.layout.state_of(kept, rolled)
        return Fraction(int(self.values[left][i, column]), self.dens[column] * 6 ** (self.layout.dice * left))

    def _pending(self, left: int, kept: Roll, column: int) -> Fraction:
        lay = self.layout
        h = lay.hold_index[tuple(sorted(kept))]
        seg = slice(lay.t_ptr[h - lay.full], lay.t_ptr[h - lay.full + 1])
        total = sum(int(w) * int(v) for w, v in zip(lay.t_weight[seg], self.values[left - 1][lay.t_state[seg], column]))
        return Fraction(total * 6 ** len(kept), self.dens[column] * 6 ** (lay.dice * left))

    def action(self, state: Node, column: int = 0) -> Action:
        """The optimal action after a roll: "stop" or the dice to hold."""
        left, kept, rolled = state
        if not rolled:
            return "roll"
        best = self.best[left]
        assert best is not None  # left >= 1 after a roll
        hold = self.layout.holds[int(best[self.layout.state_of(kept, rolled), column])]
        return "stop" if len(hold) == self.layout.dice else hold

    def policy(self, column: int = 0) -> TurnPolicy:
        """The optimal policy of one objective, as a function of the state."""
        return partial(_solution_action, self, column)


def _solution_action(solution: Solution, column: int, state: Node) -> Action:
    return solution.action(state, column)


def _roll_values(lay: Layout, v: np.ndarray) -> np.ndarray:
    """sum over the rolls of each hold of weight * value (holds[full:] x columns)."""
    return np.add.reduceat(lay.t_weight[:, None] * v[lay.t_state], lay.t_ptr[:-1], axis=0)


def _choose(lay: Layout, a: np.ndarray, chunk: int = 32) -> tuple[np.ndarray, np.ndarray]:
    """Per state: the largest of its holds' values, and the first hold reaching it."""
    starts = lay.pair_ptr[:-1]
    best_v = np.empty((len(lay.states), a.shape[1]), dtype=a.dtype)
    best_h = np.empty((len(lay.states), a.shape[1]), dtype=np.int16)
    position = np.arange(len(lay.pair_hold))[:, None]
    for c in range(0, a.shape[1], chunk):
        g = a[lay.pair_hold, c : c + chunk]
        top = np.maximum.reduceat(g, starts, axis=0)
        best_v[:, c : c + chunk] = top
        first = np.minimum.reduceat(np.where(g == top[lay.pair_state], position, len(position)), starts, axis=0)
        best_h[:, c : c + chunk] = lay.pair_hold[first]
    return best_v, best_h


def solve(objectives: Sequence[Objective], sticky: bool = False, dice: int = DICE, roll_count: int = ROLLS) -> Solution:
    """Optimal values and holds of every objective (each maximised on its own), exact."""
    lay = layout(dice, sticky)
    pay, dens = payoff_matrix(objectives, lay.hands, roll_count, dice)
    return solve_matrix(lay, pay, dens, roll_count)


def solve_matrix(lay: Layout, pay: np.ndarray, dens: Sequence[int], roll_count: int) -> Solution:
    """`solve` for payoffs already as integers (hands x objectives) over denominators `dens`."""
    scale = np.array([6 ** int(k) for k in lay.hold_len[lay.full :]], dtype=pay.dtype)[:, None]
    v = pay[lay.state_hand]
    values, best = [v], list[np.ndarray | None]([None])
    for left in range(1, roll_count):
        a = np.empty((len(lay.holds), pay.shape[1]), dtype=pay.dtype)
        a[: lay.full] = pay[lay.full_hand] * 6 ** (lay.dice * left)
        a[lay.full :] = _roll_values(lay, v) * scale
        v, chosen = _choose(lay, a)
        values.append(v)
        best.append(chosen)
    seg = slice(lay.t_ptr[-2], lay.t_ptr[-1])  # the last hold is (): roll every die
    first = (lay.t_weight[seg, None] * values[-1][lay.t_state[seg]]).sum(axis=0)
    return Solution(lay, roll_count, tuple(dens), tuple(values), tuple(best), first)


def policy_table(
    policy: TurnPolicy, sticky: bool = False, dice: int = DICE, roll_count: int = ROLLS
) -> tuple[np.ndarray | None, ...]:
    """A policy as arrays: the hold index it chooses in each state, for each `left` >= 1."""
    lay = layout(dice, sticky)
    out: list[np.ndarray | None] = [None]
    for left in range(1, roll_count):
        chosen = []
        for kept, rolled in lay.states:
            action = policy((left, kept, rolled))
            if isinstance(action, str):  # "stop": every die held
                hold = tuple(sorted(kept + rolled))
            else:
                hold = tuple(sorted(cast(Roll, action)))
            chosen.append(lay.hold_index[hold])
        out.append(np.array(chosen, dtype=np.int16)[:, None])
    return tuple(out)


def final_weights(
    table: Sequence[np.ndarray | None], sticky: bool = False, dice: int = DICE, roll_count: int = ROLLS, column: int = 0
) -> np.ndarray:
    """Integer weights of each final hand (summing to 6**(dice * roll_count)) under the holds
    of `table` (from `policy_table` or a `Solution`'s best)."""
    lay = layout(dice, sticky)
    seg = slice(lay.t_ptr[-2], lay.t_ptr[-1])
    mass = np.zeros(len(lay.states), dtype=np.int64)
    np.add.at(mass, lay.t_state[seg], lay.t_weight[seg] * 6 ** (dice * (roll_count - 1)))
    final = np.zeros(len(lay.hands), dtype=np.int64)
    for left in range(roll_count - 1, 0, -1):
        holds = table[left]
        assert holds is not None
        hold = holds[:, column].astype(np.int64)
        stop = hold < lay.full
        np.add.at(final, lay.state_hand[stop], mass[stop])
        held = np.zeros(len(lay.holds), dtype=np.int64)
        np.add.at(held, hold[~stop], mass[~stop])
        share = held[lay.t_owner] // 6 ** (dice - lay.hold_len[lay.t_owner])
        mass = np.zeros(len(lay.states), dtype=np.int64)
        np.add.at(mass, lay.t_state, share * lay.t_weight)
    np.add.at(final, lay.state_hand, mass)
    return final


# -- simulation ---------------------------------------------------------------------------------------
ROLL_CODES = SIDES**DICE  # k dice rolled = a uniform code in [0, 6**k) (base-6 digits, one per die)


@dataclass(frozen=True)
class Machine:
    """Turns as table lookups. States 0..S-1 are the layout's states (right after a roll), the
    next ones the hands of a stopped turn (in `layout.hands` order). Holding `hold` and rolling
    the others to `code` (taken modulo `mod[hold]`, 6 to the number of dice rolled) leads to
    state `after[offset[hold] + code % mod[hold]]`; a full hold rolls nothing and leads to its
    stopped hand."""

    layout: Layout
    after: np.ndarray
    offset: np.ndarray
    mod: np.ndarray
    hand: np.ndarray
    roll_all: int

    def row(self, hold: int) -> np.ndarray:
        """The states a hold leads to, one per roll code."""
        return self.after[self.offset[hold] : self.offset[hold] + self.mod[hold]]


@cache
def machine(sticky: bool = False, dice: int = DICE) -> Machine:
    """The roll table of `dice` dice (cached)."""
    lay = layout(dice, sticky)
    after: list[int] = []
    offset, mod = [], []
    for i, hold in enumerate(lay.holds):
        k = dice - len(hold)
        offset.append(len(after))
        mod.append(SIDES**k)
        if k == 0:
            after.append(len(lay.states) + int(lay.full_hand[i]))
            continue
        seen: dict[Roll, int] = {}
        for roll in ordered_rolls(k).tolist():
            r = tuple(sorted(roll))
            if r not in seen:
                seen[r] = lay.state_of(hold, r)
            after.append(seen[r])
    hand = np.concatenate([lay.state_hand, np.arange(len(lay.hands))])
    return Machine(
        lay,
        np.array(after, dtype=np.int16),
        np.array(offset, dtype=np.int32),
        np.array(mod, dtype=np.int16),
        hand,
        lay.hold_index[()],
    )


def extend(m: Machine, best: Sequence[np.ndarray | None]) -> tuple[np.ndarray | None, ...]:
    """A solution's or policy table's holds with rows for the stopped hands (which stay put)."""
    out: list[np.ndarray | None] = [None]
    for table in best[1:]:
        assert table is not None
        stay = np.repeat(m.layout.hand_full[:, None], table.shape[1], axis=1)
        out.append(np.concatenate([table, stay]).astype(np.int16))
    return tuple(out)


def codes(rng: np.random.Generator, n: int) -> np.ndarray:
    """n uniform roll codes of `DICE` dice (k dice: the code modulo 6**k, also uniform)."""
    return rng.integers(0, ROLL_CODES, size=n, dtype=np.int16)


def play(
    m: Machine, best: Sequence[np.ndarray | None], column: np.ndarray | int, rng: np.random.Generator, n: int
) -> np.ndarray:
    """n turns played by table lookup (`column`: which policy of `best`, for all turns or per
    turn; `best[left]` for left = rolls - 1 down to 1, as from `extend`): the final hands'
    indices. Needs `DICE` dice."""
    state = m.after[m.offset[m.roll_all] + codes(rng, n)]
    for left in range(len(best) - 1, 0, -1):
        table = best[left]
        assert table is not None
        hold = table[state, column]
        state = m.after[m.offset[hold] + codes(rng, n) % m.mod[hold]]
    return m.hand[state]
