"""La Tresse's exact odds: every seat's chance of winning and the expected length of a game.

**The chain.** A die keeps being thrown until it shows 1, 2 or 5, each equally likely, so in a
turn each die in hand ends in the centre, on the left or on the right with probability 1/3
each, independently; the turn's number of throws is the largest of the dice's Geometric(1/2)
throw counts. The game is therefore an absorbing Markov chain on turn starts: the dice held by
each seat counted from the player about to throw (offset 0, then 1 = left neighbour, ...).
The player to the right of the one about to throw always holds nothing (they just played, or
were skipped), which the reachable positions reflect. P(the seat at offset j wins) solves a
linear system whose unknowns are (position, j); blocks with the same number of dice in play
are solved in turn (dice only ever leave play).

**Exact or bracketed.** Each block is solved exactly over the fractions by sparse elimination
(`nessus.chains.solve_sparse`) when it has at most `EXACT_UNKNOWNS` unknowns (p_win: 2 to 5
players with 5 dice; expected throws and turns: up to 7 players). Larger systems are solved in
floating point and the figure is a rigorous bracket (`nessus.chains.float_bracket`): the
residual r of the float solution is computed exactly, and the error is at most max|r| times the
expected number of turns, itself bounded by twice a float solution checked exactly (see
`_bracket`). Brackets are narrower than 1e-12.

>>> from nessus.games.tresse.rules import Rules
>>> win_chances(Rules(players=2, dice=1))[0].exact
Fraction(3, 5)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from math import comb, factorial
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from nessus.chains import Solved, System, Unknown, expected_steps_bound, float_bracket, solve_sparse
from nessus.games.tresse.rules import NAME, Position, Rules, start
from nessus.numbers import rarity
from nessus.report import Report

if TYPE_CHECKING:
    from nessus.games.tresse.state import State

EXACT_UNKNOWNS = 200


# -- one turn --------------------------------------------------------------------------------------
def turn_split(hand: int) -> dict[tuple[int, int, int], Fraction]:
    """P(a turn sends c dice to the centre, l to the left, r to the right) for each (c, l, r):
    multinomial with probability 1/3 each."""
    return {
        (c, left, hand - c - left): Fraction(
            factorial(hand), factorial(c) * factorial(left) * factorial(hand - c - left) * 3**hand
        )
        for c in range(hand + 1)
        for left in range(hand - c + 1)
    }


def turn_throws(hand: int) -> Fraction:
    """E[throws in a turn that starts with `hand` dice] = E[max of `hand` Geometric(1/2)]
    = sum_j (-1)^(j+1) C(hand, j) / (1 - 2^-j)."""
    return sum((Fraction((-1) ** (j + 1) * comb(hand, j) * 2**j, 2**j - 1) for j in range(1, hand + 1)), Fraction(0))


def after_turn(position: Position, left: int, right: int) -> tuple[Position | None, int]:
    """The position after the player at offset 0 passes `left` and `right` dice and puts the rest
    into the centre, counted from the next player to throw, and that player's offset in
    `position` (None, 0 if no die is left: the player at offset 0 won)."""
    n = len(position)
    hold = list(position)
    hold[0] = 0
    hold[1 % n] += left
    hold[-1 % n] += right
    if not any(hold):
        return None, 0
    k = next(i for i in range(1, n + 1) if hold[i % n])
    return tuple(hold[(k + i) % n] for i in range(n)), k


@cache
def next_turns(position: Position) -> tuple[tuple[Fraction, Position | None, int], ...]:
    """The turn from `position`: (probability, next position or None if the thrower won, offset
    of the next thrower in `position`), outcomes with the same result merged."""
    merged: dict[tuple[Position | None, int], Fraction] = {}
    for (_, left, right), p in turn_split(position[0]).items():
        key = after_turn(position, left, right)
        merged[key] = merged.get(key, Fraction(0)) + p
    return tuple((p, nxt, k) for (nxt, k), p in merged.items())


@cache
def positions(players: int, dice: int) -> tuple[Position, ...]:
    """Every position reachable from the start, fewest dice in play first."""
    first = (dice,) + (0,) * (players - 1)
    seen, todo = {first}, [first]
    while todo:
        for _, nxt, _ in next_turns(todo.pop()):
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return tuple(sorted(seen, key=lambda s: (sum(s), s)))


# -- exact and bracketed solutions (the general solvers are in nessus.chains) -----------------------
def _win_rows(players: int, position: Position, solved: dict[Unknown, Fraction]) -> System:
    """The equations of W(position)[j] = P(the seat at offset j wins), j = 0..players-1:
    W(s)[j] = [j = 0] P(win now) + sum p W(s')[(j - k) mod n]. Unknowns already `solved` move
    to the right-hand side."""
    out: System = {}
    moves = next_turns(position)
    for j in range(players):
        row: dict[Unknown, Fraction] = {(position, j): Fraction(1)}
        b = Fraction(0)
        for p, nxt, k in moves:
            if nxt is None:
                b += p * (j == 0)
                continue
            u = (nxt, (j - k) % players)
            if u in solved:
                b += p * solved[u]
            else:
                row[u] = row.get(u, Fraction(0)) - p
        out[(position, j)] = (row, b)
    return out


def _reward_rows(position: Position, reward: Fraction, solved: dict[Unknown, Fraction]) -> System:
    """The equation of m(position) = reward + sum p m(s'), m = 0 once the game is over."""
    row: dict[Unknown, Fraction] = {position: Fraction(1)}
    b = reward
    for p, nxt, _ in next_turns(position):
        if nxt is None:
            continue
        if nxt in solved:
            b += p * solved[nxt]
        else:
            row[nxt] = row.get(nxt, Fraction(0)) - p
    return {position: (row, b)}


def _blocks(players: int, dice: int) -> list[list[Position]]:
    by_total: dict[int, list[Position]] = {}
    for s in positions(players, dice):
        by_total.setdefault(sum(s), []).append(s)
    return [by_total[t] for t in sorted(by_total)]


def _solve_exact(
    players: int, dice: int, rows_of: Callable[[Position, dict[Unknown, Fraction]], System]
) -> dict[Unknown, Fraction]:
    solved: dict[Unknown, Fraction] = {}
    for block in _blocks(players, dice):
        system: System = {}
        for s in block:
            system.update(rows_of(s, solved))
        solved.update(solve_sparse(system))
    return solved


@dataclass(frozen=True)
class _Chain:
    """The turn chain as arrays, for the float solve: transition t goes from position src[t] to
    dst[t] with integer weight[t] / 3**dice, the next thrower at offset rot[t]; win[i] is the
    weight of the thrower at position i winning at once."""

    positions: tuple[Position, ...]
    src: np.ndarray
    dst: np.ndarray
    rot: np.ndarray
    weight: np.ndarray
    win: np.ndarray
    scale: int


@cache
def _chain(players: int, dice: int) -> _Chain:
    states = positions(players, dice)
    index = {s: i for i, s in enumerate(states)}
    scale = 3**dice
    src, dst, rot, weight = [], [], [], []
    win = np.zeros(len(states), dtype=np.int64)
    for i, s in enumerate(states):
        for p, nxt, k in next_turns(s):
            w = int(p * scale)
            if nxt is None:
                win[i] += w
            else:
                src.append(i)
                dst.append(index[nxt])
                rot.append(k)
                weight.append(w)
    arr = partial(np.array, dtype=np.int64)
    return _Chain(states, arr(src), arr(dst), arr(rot), arr(weight), win, scale)


def _step_matrix(chain: _Chain, players: int | None) -> sp.csr_matrix:
    """The integer step weights: over positions, or over (position, offset) unknowns i * n + j
    when `players` is given (W(s)[j] draws on W(s')[(j - k) mod n])."""
    m = len(chain.positions)
    if players is None:
        return sp.csr_matrix((chain.weight, (chain.src, chain.dst)), shape=(m, m))
    j = np.arange(players)
    rows = (chain.src[:, None] * players + j).ravel()
    cols = (chain.dst[:, None] * players + (j - chain.rot[:, None]) % players).ravel()
    data = np.repeat(chain.weight, players)
    return sp.csr_matrix((data, (rows, cols)), shape=(m * players,) * 2)


@cache
def _turns_bound(players: int, dice: int) -> Fraction:
    """A proven upper bound on the expected number of turns from any position
    (`chains.expected_steps_bound` on the turn chain)."""
    chain = _chain(players, dice)
    return expected_steps_bound(_step_matrix(chain, None), chain.scale)


def _bracket(players: int, dice: int, offsets: int | None, rhs: list[Fraction]) -> tuple[np.ndarray, Fraction]:
    """Float solution x~ of x = b + P x and a proven bound on its error (`chains.float_bracket`):
    |x - x~| <= max|r| * E[turns], r the exact residual. The (position, offset) chain takes the
    same turns as the position chain, so the bound on E[turns] serves both."""
    chain = _chain(players, dice)
    return float_bracket(_step_matrix(chain, offsets), chain.scale, rhs, _turns_bound(players, dice))


def _largest_block(players: int, dice: int) -> int:
    return max(len(b) for b in _blocks(players, dice))


def _use_exact(method: str, unknowns: int) -> bool:
    if method not in ("auto", "exact", "float"):
        raise ValueError(f"method must be one of auto, exact, float, got {method!r}")
    return method == "exact" or (method == "auto" and unknowns <= EXACT_UNKNOWNS)


@cache
def win_chances(rules: Rules, method: str = "auto") -> tuple[Solved, ...]:
    """P(seat i wins) for seats 1..players, seat 1 throwing first with every die: exact when the
    largest block has at most EXACT_UNKNOWNS unknowns (or method="exact"), else bracketed
    (or method="float")."""
    n = rules.players
    rows_of = partial(_win_rows, n)
    first = start(rules)
    if _use_exact(method, n * _largest_block(n, rules.dice)):
        exact = _solve_exact(n, rules.dice, rows_of)
        return tuple(Solved(exact[first, j], exact[first, j]) for j in range(n))
    chain = _chain(n, rules.dice)
    rhs = [Fraction(int(w) * (j == 0), chain.scale) for w in chain.win for j in range(n)]
    x, err = _bracket(n, rules.dice, n, rhs)
    at = chain.positions.index(first) * n
    out = []
    for j in range(n):
        v = Fraction(float(x[at + j]))
        out.append(Solved(max(v - err, Fraction(0)), min(v + err, Fraction(1))))
    return tuple(out)


def _moments(rules: Rules, reward: Callable[[int], Fraction], method: str) -> Solved:
    """E[sum of reward(dice in hand) over the turns of a game], exact or bracketed."""

    def rows_of(position: Position, solved: dict[Unknown, Fraction]) -> System:
        return _reward_rows(position, reward(position[0]), solved)

    first = start(rules)
    if _use_exact(method, _largest_block(rules.players, rules.dice)):
        v = _solve_exact(rules.players, rules.dice, rows_of)[first]
        return Solved(v, v)
    chain = _chain(rules.players, rules.dice)
    x, err = _bracket(rules.players, rules.dice, None, [reward(s[0]) for s in chain.positions])
    v = Fraction(float(x[chain.positions.index(first)]))
    return Solved(max(v - err, Fraction(0)), v + err)


@cache
def expected_throws(rules: Rules, method: str = "auto") -> Solved:
    """E[throws in a whole game] (every throw of every player), exact or bracketed as for
    `win_chances`."""
    return _moments(rules, turn_throws, method)


@cache
def expected_turns(rules: Rules, method: str = "auto") -> Solved:
    """E[turns in a whole game], exact or bracketed as for `win_chances`."""
    return _moments(rules, lambda hand: Fraction(1), method)


# -- from any position ------------------------------------------------------------------------------
@cache
def _win_values(players: int, dice: int, method: str) -> tuple[dict[Unknown, Fraction], Fraction]:
    """W(position)[j] for every reachable position and offset j, and a proven bound on their
    error (0 when solved exactly); exact or float as for `win_chances`."""
    if _use_exact(method, players * _largest_block(players, dice)):
        return _solve_exact(players, dice, partial(_win_rows, players)), Fraction(0)
    chain = _chain(players, dice)
    rhs = [Fraction(int(w) * (j == 0), chain.scale) for w in chain.win for j in range(players)]
    x, err = _bracket(players, dice, players, rhs)
    return {
        (s, j): Fraction(float(x[i * players + j])) for i, s in enumerate(chain.positions) for j in range(players)
    }, err


@cache
def _throw_values(players: int, dice: int, method: str) -> tuple[dict[Unknown, Fraction], Fraction]:
    """E[throws until the end] from every reachable turn start, and a proven bound on their error."""
    if _use_exact(method, _largest_block(players, dice)):
        return _solve_exact(players, dice, lambda s, solved: _reward_rows(s, turn_throws(s[0]), solved)), Fraction(0)
    chain = _chain(players, dice)
    x, err = _bracket(players, dice, None, [turn_throws(s[0]) for s in chain.positions])
    return {s: Fraction(float(x[i])) for i, s in enumerate(chain.positions)}, err


def _rest_of_turn(state: State) -> tuple[int, Position, tuple[tuple[Fraction, Position | None, int], ...]]:
    """(the thrower's seat from 0, the holdings counted from the thrower, the outcomes of the rest
    of the turn): the dice left in hand end in the centre, left or right 1/3 each, as a whole
    turn's do, so the rest of a turn is one step of the turn chain."""
    if state.current is None:
        raise ValueError("the game is over: no turn to finish")
    n = state.rules.players
    me = state.current - 1
    seen = tuple(state.holdings[(me + i) % n] for i in range(n))
    if sum(seen) + state.centre != state.rules.dice or seen[0] == 0:
        raise ValueError("holdings must add up to the dice not in the centre, the thrower holding some")
    return me, seen, next_turns(seen)


def _solved(value: Fraction, err: Fraction, top: Fraction | None = None) -> Solved:
    low, high = max(value - err, Fraction(0)), value + err
    return Solved(low, high if top is None else min(high, top))


def chances_from(state: State, method: str = "auto") -> tuple[Solved, ...]:
    """P(seat i wins) for seats 1..players from the table as it stands, in the middle of a turn
    too: exact for the tables `win_chances` solves exactly, else proven brackets (the float
    solution's error bound holds at every position). A finished game: 1 for the winner."""
    n = state.rules.players
    if state.is_terminal():
        return tuple(
            Solved(Fraction(int(i + 1 == state.winner)), Fraction(int(i + 1 == state.winner))) for i in range(n)
        )
    me, _, outcomes = _rest_of_turn(state)
    values, err = _win_values(n, state.rules.dice, method)
    by_offset = [Fraction(0)] * n
    for p, nxt, k in outcomes:
        for j in range(n):
            by_offset[j] += p * (j == 0) if nxt is None else p * values[nxt, (j - k) % n]
    return tuple(_solved(by_offset[(i - me) % n], err, Fraction(1)) for i in range(n))


def throws_left(state: State, method: str = "auto") -> Solved:
    """E[throws still to come] from the table as it stands (the rest of the current turn, a
    maximum of Geometric(1/2) counts, included): exact or bracketed as for `expected_throws`."""
    if state.is_terminal():
        return Solved(Fraction(0), Fraction(0))
    _, seen, outcomes = _rest_of_turn(state)
    values, err = _throw_values(state.rules.players, state.rules.dice, method)
    rest = sum((p * values[nxt] for p, nxt, _ in outcomes if nxt is not None), Fraction(0))
    return _solved(turn_throws(seen[0]) + rest, err)


def middle(s: Solved) -> float:
    """The figure as a float (a bracket's middle)."""
    return float((s.low + s.high) / 2)


def is_exact(rules: Rules) -> bool:
    """True when these rules' figures are exact fractions (not brackets)."""
    return all(w.exact is not None for w in win_chances(rules))


def method_note(rules: Rules) -> str:
    """How the figures were solved, in one sentence."""
    if is_exact(rules):
        return (
            "Exact: the absorbing Markov chain of turn starts is solved over the fractions, from every position "
            "(a long fraction is shown by its decimals: click one to read the fraction whole)."
        )
    width = max(float(w.high - w.low) for w in win_chances(rules))
    return (
        f"Floats with a proven error bound: with {rules.players} players the chain is too large for exact "
        "fractions, so it is solved in floating point and every figure is a rigorous bracket "
        f"(here at most {rarity(width).removeprefix('about ')} wide)."
    )


def report(rules: Rules | None = None) -> Report:
    """P(win) per seat and the expected length of a game (exact, or bracketed for large tables)."""
    rules = rules or Rules()
    figures = {
        f"p_win_seat_{i}": w.figure(
            f"P(seat {i} puts the last die into the centre); seat 1 starts with the {rules.dice} dice"
        )
        for i, w in enumerate(win_chances(rules), start=1)
    }
    figures["expected_throws"] = expected_throws(rules).figure("expected throws (rolls of the dice in hand) in a game")
    figures["expected_turns"] = expected_turns(rules).figure("expected turns in a game")
    return Report(NAME, rules.as_dict(), figures)
