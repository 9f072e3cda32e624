"""La Tresse: seat 1 holds the dice. On a turn the player throws every die in hand: each 1 goes
to the centre (out of play), each 2 to the left neighbour, each 5 to the right neighbour, and
the player throws the rest (3, 4, 6) again, until the hand is empty. Then the next player to
the left who holds dice plays with all of them (a player holding none is skipped). The player
who puts the last die into the centre wins (RULES.md section 4).

With two players both neighbours are the same player. A "throw" is one roll of the dice in
hand; a "turn" is all of one player's throws until the hand is empty.

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

**The game** (`State`, the game protocol): every throw is a chance node, the dice thrown a
sorted multiset with its exact weight; there is no decision. One die, two players:

>>> state = initial_state(Rules(players=2, dice=1))
>>> len(state.chance_outcomes()), state.apply((3,)).current   # a 3 is thrown again
(6, 1)
>>> end = state.apply((1,))
>>> end.is_terminal(), end.returns()
(True, [Fraction(1, 1), Fraction(0, 1)])
>>> win_chances(Rules(players=2, dice=1))[0].exact
Fraction(3, 5)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from math import comb, factorial

import numpy as np
import scipy.sparse as sp

from nessus import game, montecarlo
from nessus.chains import Solved, System, Unknown, expected_steps_bound, float_bracket, solve_sparse
from nessus.dice import code_faces, raw_bits, roll_faces, roll_outcomes
from nessus.game import Game
from nessus.report import Figure, Report
from nessus.rules import GameRules, Param, field

NAME = "tresse"
CENTRE, LEFT, RIGHT = 1, 2, 5
EXACT_UNKNOWNS = 200

PLAYERS = Param("players", 4, 2, 10, "players around the table")
DICE = Param("dice", 5, 1, 6, "dice in play, all in seat 1's hand at the start")

Position = tuple[int, ...]
"""Dice held per seat, counted to the left from the player about to throw (offset 0)."""


@dataclass(frozen=True)
class Rules(GameRules):
    params = (PLAYERS, DICE)
    players: int = field(PLAYERS)
    dice: int = field(DICE)


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


def start(rules: Rules) -> Position:
    """Seat 1 about to throw with every die."""
    return (rules.dice,) + (0,) * (rules.players - 1)


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


# -- Monte Carlo -----------------------------------------------------------------------------------
# A game's holdings are packed in one integer, 4 bits per seat counted from the thrower (bits
# 0-3: the hand, 4-7: the left neighbour, ...): one throw is one table lookup and an addition,
# and passing the turn is a rotation of the bits. Games advance one step at a time together.
# A step draws `bits` random bits r: r < 6**dice is a throw (its base-6 digits are the faces),
# a larger r throws nothing (so the faces stay exactly uniform; the step is not counted).
BATCH = 1 << 15
DONE = 15  # a finished game's code: no hand holds 15 dice, its table row is zero, so it stays put


@cache
def throw_table(players: int, dice: int) -> tuple[int, int, np.ndarray]:
    """(m = 6**dice, bits, table): for a hand of h dice and a draw r of `bits` bits, r < m read
    as base-6 digits (the first h digits are the faces thrown), table[h << bits | r] is the change
    of the packed holdings: -(dice leaving the hand) + (2s << 4) + (5s << 4 (players - 1)); 0 for
    r >= m."""
    m = 6**dice
    bits = (m - 1).bit_length()
    r = np.arange(1 << bits)
    faces = np.stack([np.where(r < m, f, 0) for f in code_faces(r, dice)])
    table = np.zeros((16, r.size), dtype=np.int64)
    for hand in range(1, dice + 1):
        f = faces[:hand]
        centre, left, right = ((f == face).sum(axis=0) for face in (CENTRE, LEFT, RIGHT))
        table[hand] = -(centre + left + right) + (left << 4) + (right << 4 * (players - 1))
    return m, bits, table.ravel()


def _draws(rng: np.random.Generator, n: int, bits: int) -> np.ndarray:
    """n draws of `bits` (<= 16) random bits."""
    return raw_bits(rng, n, bits).astype(np.int64)


def _play(players: int, dice: int, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n whole games: (winning seat from 0, throws, turns)."""
    m, bits, table = throw_table(players, dice)
    width = 4 * players
    full = (1 << width) - 1
    seven = sum(7 << 4 * j for j in range(1, players))  # + 7 sets bit 3 of every non-empty seat but the thrower's
    eights = sum(8 << 4 * j for j in range(1, players))
    state = np.full(n, dice, dtype=np.int64)
    moved = np.zeros(n, dtype=np.int64)  # 4 x seats the turn has moved to the left, in all
    turns = np.zeros(n, dtype=np.int64)
    thrown = np.zeros(n, dtype=np.int64)
    ids = np.arange(n)
    winner, throws, turns_out = (np.empty(n, dtype=np.int64) for _ in range(3))
    live = n
    while live:
        draw = _draws(rng, state.size, bits)
        thrown += draw < m
        draw |= (state & 15) << bits
        state += table.take(draw)
        passing = (state & 15) == 0
        # bit 4k set for each seat k > 0 holding dice, when the hand is empty; bit `width` always:
        # the lowest set bit is the next thrower (a full turn of the table, i.e. no move, otherwise)
        ahead = ((state + seven) & eights) >> 3
        ahead *= passing
        ahead |= 1 << width
        low = (ahead & -ahead) - 1
        shift = np.bitwise_count(low).astype(np.int64)
        rotated = (state << (width - shift)) & full
        state >>= shift
        state |= rotated
        moved += shift
        turns += passing
        over = np.flatnonzero(state == 0)
        if over.size:
            g = ids[over]
            winner[g] = (moved[over] >> 2) % players
            throws[g] = thrown[over]
            turns_out[g] = turns[over]
            state[over] = DONE
            live -= over.size
            if live <= state.size // 2:
                keep = state != DONE
                state, moved, turns, thrown, ids = state[keep], moved[keep], turns[keep], thrown[keep], ids[keep]
    return winner, throws, turns_out


def games_kernel(players: int, dice: int, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n whole games, in batches of BATCH: the winning seat, throws and turns."""
    parts = [_play(players, dice, rng, min(BATCH, n - i)) for i in range(0, n, BATCH)]
    winner, throws, turns = (np.concatenate(p) for p in zip(*parts))
    out = {f"p_win_seat_{i + 1}": winner == i for i in range(players)}
    out["expected_throws"] = throws
    out["expected_turns"] = turns
    return out


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo figures of whole games with 95% confidence intervals."""
    rules = rules or Rules()
    result = montecarlo.run(
        partial(games_kernel, rules.players, rules.dice), trials, seed, client=client, progress=progress
    )
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in result.estimates.items()})


# -- the game (the protocol) ---------------------------------------------------------------------
@cache
def _max_throws(dice: int) -> int:
    """The least t with P(a game lasts more than t throws) < 1e-15, by a proven bound: in each
    throw the first die in hand shows 1 with probability 1/6 whatever came before, and the game
    is over once `dice` dice have reached the centre, so P(more than t throws) <=
    P(Binomial(t, 1/6) < dice)."""
    t = dice
    while sum(comb(t, k) * Fraction(1, 6) ** k * Fraction(5, 6) ** (t - k) for k in range(dice)) >= Fraction(1, 10**15):
        t += 1
    return t


@dataclass(frozen=True)
class State(game.State):
    """A whole game (the game protocol): every throw is a chance node, the seat to throw rolling
    the dice in hand (a sorted multiset, with its exact weight); there is no decision.

    `holdings[i]` is the number of dice seat i + 1 holds (seats count from 1, seat 2 sits to the
    left of seat 1); `current` is the seat throwing next (None once the game is over); `winner`
    the seat that put the last die into the centre; `throws` the throws so far and `history`
    each one's (seat, dice). The returns are 1 to the winner, 0 to the others (player i is seat
    i + 1). A game could go on for ever; `shape().max_length` is a length passed with
    probability below 1e-15 (`_max_throws`).
    """

    rules: Rules
    holdings: tuple[int, ...]
    current: int | None = 1
    centre: int = 0
    throws: int = 0
    winner: int | None = None
    history: tuple[tuple[int, tuple[int, ...]], ...] = ()

    @property
    def _over(self) -> bool:
        return self.winner is not None

    @property
    def hand(self) -> int:
        """How many dice the current seat throws next (0 once the game is over)."""
        return 0 if self.current is None else self.holdings[self.current - 1]

    # -- the protocol -------------------------------------------------------------------------------
    def current_player(self) -> int:
        return game.TERMINAL if self._over else game.CHANCE

    def legal_actions(self) -> list[game.Action]:
        return []

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        return [] if self._over else roll_outcomes(self.hand)

    def _apply(self, action: game.Action) -> State:
        assert isinstance(action, tuple) and self.current is not None
        dice: tuple[int, ...] = action
        n, me = self.rules.players, self.current - 1
        hold = list(self.holdings)
        hold[me] -= sum(1 for d in dice if d in (CENTRE, LEFT, RIGHT))
        hold[(me + 1) % n] += dice.count(LEFT)
        hold[(me - 1) % n] += dice.count(RIGHT)
        history = self.history + ((self.current, dice),)
        centre = self.centre + dice.count(CENTRE)
        if not any(hold):
            return State(self.rules, tuple(hold), None, centre, self.throws + 1, self.current, history)
        nxt = self.current
        if hold[me] == 0:
            nxt = next((me + k) % n for k in range(1, n + 1) if hold[(me + k) % n]) + 1
        return State(self.rules, tuple(hold), nxt, centre, self.throws + 1, None, history)

    def returns(self) -> list[Fraction]:
        if self.winner is None:
            return [Fraction(0)] * self.rules.players
        return game.winner_returns(self.rules.players, self.winner - 1)

    def observation(self, player: int) -> str:
        game.check_players([player], self.shape())
        held = ", ".join(f"player {i}: {h}" for i, h in enumerate(self.holdings, start=1))
        if self.winner is not None:
            now = f"player {self.winner} won after {self.throws} throws"
        else:
            now = f"player {self.current} throws {self.hand} next"
        last = (
            f"; last throw: player {self.history[-1][0]} rolled {' '.join(map(str, self.history[-1][1]))}"
            if self.history
            else ""
        )
        return f"you are player {player + 1}; dice held: {held}; centre {self.centre}; {now}{last}"

    def shape(self) -> game.Shape:
        r = self.rules
        return game.Shape(
            players=r.players,
            max_actions=0,
            max_chance_outcomes=len(roll_outcomes(r.dice)),
            max_length=_max_throws(r.dice),
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    # -- playing at the table -----------------------------------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: tuple[int, ...] | None = None) -> State:
        """The current seat throws every die in hand (the given faces in any order, or drawn with
        `rng`): the table after it."""
        if self._over or self.current is None:
            raise ValueError("the game is over: every die is in the centre")
        return self.apply(roll_faces(self.hand, rng, dice))


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: seat 1 holds every die."""
    rules = rules or Rules()
    return State(rules, start(rules))


def policies(rules: Rules | None = None) -> dict[str, game.Policy]:
    """No decisions in La Tresse: no policies."""
    return {}


GAME = Game(
    name=NAME,
    title="La Tresse",
    summary="5d6 passed around: 1s to the centre, 2s left, 5s right; the last die into the centre wins.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="06-la-tresse",
    dashboard="la-tresse.ipynb",
    pitch=(
        "Pass five dice round the table throw by throw, with every seat's exact chance of winning from the "
        "dice as they lie."
    ),
)
"""This game, as the registry, the command line and the gallery see it."""
