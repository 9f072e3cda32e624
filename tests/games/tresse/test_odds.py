"""La Tresse (RULES.md section 4) against independent computations written here:

- two players, first-step analysis by hand: at a turn start the other player holds nothing, so
  with v(T) = P(the thrower with T dice wins) and C ~ Binomial(T, 1/3) dice reaching the centre,
  v(T) = 3^-T + sum_{c<T} P(C = c) (1 - v(T - c));
- a throw-by-throw chain over absolute seats, every throw enumerated over the ordered faces of
  the dice in hand (itertools.product), solved with `nessus.chains.solve_linear` (dense
  Gauss-Jordan): P(win) per seat and E[throws] counted one throw at a time;
- the float brackets against the exact solutions (Monte Carlo is in test_fast.py).
"""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb

import numpy as np
import pytest

from nessus.chains import solve_linear
from nessus.games import tresse

F = Fraction


# -- two players by hand ---------------------------------------------------------------------------
def two_player_v(dice: int) -> dict[int, Fraction]:
    """v(T) solved for T = 1..dice: v(T) (1 + (2/3)^T) = 3^-T + (2/3)^T + sum_{0<c<T} P(C=c)(1 - v(T-c))."""
    v: dict[int, Fraction] = {}
    for t in range(1, dice + 1):
        p = [F(comb(t, c) * 2 ** (t - c), 3**t) for c in range(t + 1)]
        rest = sum((p[c] * (1 - v[t - c]) for c in range(1, t)), F(0))
        v[t] = (p[t] + p[0] + rest) / (1 + p[0])
    return v


def two_player_turns(dice: int) -> dict[int, Fraction]:
    """E[turns] by first step: E(T) = 1 + sum_{c<T} P(C=c) E(T - c), so E(T)(1 - (2/3)^T) = 1 + ..."""
    e: dict[int, Fraction] = {}
    for t in range(1, dice + 1):
        p = [F(comb(t, c) * 2 ** (t - c), 3**t) for c in range(t + 1)]
        e[t] = (1 + sum((p[c] * e[t - c] for c in range(1, t)), F(0))) / (1 - p[0])
    return e


@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5, 6])
def test_two_players_by_first_step(dice):
    rules = tresse.Rules(players=2, dice=dice)
    w = tresse.win_chances(rules)
    v = two_player_v(dice)[dice]
    assert [x.exact for x in w] == [v, 1 - v]
    assert tresse.expected_turns(rules).exact == two_player_turns(dice)[dice]


def test_one_die_two_players_by_hand():
    """One die: the thrower wins with 1/3 now, else the other becomes the thrower: v = 1/3 + 2/3 (1 - v), v = 3/5."""
    w = tresse.win_chances(tresse.Rules(players=2, dice=1))
    assert (w[0].exact, w[1].exact) == (F(3, 5), F(2, 5))
    # a turn with one die lasts Geometric(1/2) throws (mean 2); E[turns] = 1 / (1/3) = 3
    assert tresse.turn_throws(1) == 2
    assert tresse.expected_throws(tresse.Rules(players=2, dice=1)).exact == 6


# -- throw by throw, over ordered faces ------------------------------------------------------------
@cache
def throw_outcomes(hand: int) -> Counter:
    """Every ordered throw of `hand` dice, counted by (to centre, to the left, to the right)."""
    return Counter((f.count(1), f.count(2), f.count(5)) for f in product(range(1, 7), repeat=hand))


def throw_chain(players: int, dice: int):
    """States (holdings by absolute seat, seat throwing); each throw's successors with weights
    over 6**hand, and the seat that won (or None)."""
    start = ((dice,) + (0,) * (players - 1), 0)
    moves, todo = {}, [start]
    while todo:
        state = todo.pop()
        if state in moves:
            continue
        hold, me = state
        out = []
        for (c, left, right), count in throw_outcomes(hold[me]).items():
            h = list(hold)
            h[me] -= c + left + right
            h[(me + 1) % players] += left
            h[(me - 1) % players] += right
            if sum(h) == 0:
                out.append((F(count, 6 ** hold[me]), None, me))
                continue
            nxt = me if h[me] else next((me + k) % players for k in range(1, players + 1) if h[(me + k) % players])
            out.append((F(count, 6 ** hold[me]), (tuple(h), nxt), None))
            todo.append((tuple(h), nxt))
        moves[state] = out
    return start, moves


@pytest.mark.parametrize("players,dice", [(2, 3), (3, 1), (3, 2), (3, 3), (4, 2), (5, 2), (6, 1)])
def test_turn_chain_matches_the_throw_by_throw_chain(players, dice):
    rules = tresse.Rules(players=players, dice=dice)
    start, _ = throw_chain(players, dice)
    every_wins, every_throws = values_by_throws(players, dice)
    wins, throws = every_wins[start], every_throws[start]
    assert [w.exact for w in tresse.win_chances(rules)] == wins
    assert sum(wins) == 1
    assert tresse.expected_throws(rules).exact == throws


def test_turn_split_and_throws_against_enumeration():
    """Per die: P(1) = P(2) = P(5) = 1/6 per throw, the rest thrown again: each ends 1/3 each way.
    E[throws of a turn] from P(max > k) = 1 - (1 - 2^-k)^h summed (a series, cut at 200 terms)."""
    for hand in range(1, 7):
        split = tresse.turn_split(hand)
        assert sum(split.values()) == 1
        for (c, left, _), p in split.items():
            assert p == F(comb(hand, c) * comb(hand - c, left), 3**hand)
        series = sum(1 - (1 - F(1, 2**k)) ** hand for k in range(200))
        assert abs(tresse.turn_throws(hand) - series) < F(1, 10**40)


def test_right_neighbour_of_the_thrower_holds_nothing():
    """Reachable positions: the seat at offset -1 has no dice (it just played or was skipped)."""
    for players in range(2, 11):
        assert all(s[-1] == 0 or s == (5,) + (0,) * (players - 1) for s in tresse.positions(players, 5))


@cache
def values_by_throws(players: int, dice: int) -> tuple[dict, dict]:
    """P(win) per seat and E[throws left] from EVERY state of the throw-by-throw chain (dense
    exact solves): {(holdings, thrower): [P(seat 1 wins), ...]}, {(holdings, thrower): E[throws]}."""
    _, moves = throw_chain(players, dice)
    states = list(moves)
    at = {s: i for i, s in enumerate(states)}
    matrix = [[F(int(i == j)) for j in range(len(states))] for i in range(len(states))]
    for s, out in moves.items():
        for p, nxt, _ in out:
            if nxt is not None:
                matrix[at[s]][at[nxt]] -= p
    per_seat = [
        solve_linear(
            matrix, [sum((p for p, nxt, who in moves[s] if nxt is None and who == seat), F(0)) for s in states]
        )
        for seat in range(players)
    ]
    throws = solve_linear(matrix, [F(1)] * len(states))
    return {s: [w[at[s]] for w in per_seat] for s in states}, {s: throws[at[s]] for s in states}


def table_at(players: int, dice: int, state) -> tresse.State:
    """A game State with these holdings and this thrower (seats from 0), the other dice in the centre."""
    hold, me = state
    return tresse.State(tresse.Rules(players=players, dice=dice), hold, me + 1, dice - sum(hold))


@pytest.mark.parametrize("players,dice", [(2, 3), (3, 2), (3, 3), (4, 2), (5, 2)])
def test_chances_from_every_position_match_the_throw_by_throw_chain(players, dice):
    """Mid-turn positions included: every state of the throw chain, start and all."""
    wins, throws = values_by_throws(players, dice)
    for state in wins:
        table = table_at(players, dice, state)
        assert [w.exact for w in tresse.chances_from(table)] == wins[state], state
        assert tresse.throws_left(table).exact == throws[state], state


@pytest.mark.parametrize("players,dice", [(4, 3), (6, 2)])
def test_chances_from_brackets_contain_the_exact_values(players, dice):
    wins, throws = values_by_throws(players, dice)
    for state in list(wins)[::7]:
        table = table_at(players, dice, state)
        for b, e in zip(tresse.chances_from(table, "float"), wins[state]):
            assert b.exact is None and b.low <= e <= b.high and b.high - b.low < F(1, 10**12)
        b = tresse.throws_left(table, "float")
        assert b.low <= throws[state] <= b.high and b.high - b.low < F(1, 10**12)


@pytest.mark.parametrize("players", [3, 5, 8])
def test_chances_from_the_start_and_the_end(players):
    """At the start: the same figures as win_chances and expected_throws (exact), or brackets that
    overlap theirs (both hold the true value); once over: 1 for the winner."""
    rules = tresse.Rules(players=players)
    table = tresse.initial_state(rules)
    for mine, theirs in zip(tresse.chances_from(table), tresse.win_chances(rules)):
        assert mine == theirs if theirs.exact is not None else max(mine.low, theirs.low) <= min(mine.high, theirs.high)
    start = tresse.throws_left(table)
    whole = tresse.expected_throws(rules)
    assert max(start.low, whole.low) <= min(start.high, whole.high)
    rng = np.random.default_rng(players)
    while not table.is_terminal():
        table = table.roll(rng)
        chances = tresse.chances_from(table)
        assert sum(c.low for c in chances) <= 1 <= sum(c.high for c in chances)
    assert [c.exact for c in tresse.chances_from(table)] == [int(i + 1 == table.winner) for i in range(players)]
    assert tresse.throws_left(table).exact == 0


def test_chances_from_rejects_holdings_that_do_not_add_up():
    with pytest.raises(ValueError, match="holdings must add up"):
        tresse.chances_from(tresse.State(tresse.Rules(players=3), (2, 0, 0), 1, 0))


# -- exact solutions vs brackets -------------------------------------------------------------------
@pytest.mark.parametrize("players,dice", [(4, 5), (5, 3), (6, 3), (8, 2), (10, 2)])
def test_float_brackets_contain_the_exact_values(players, dice):
    rules = tresse.Rules(players=players, dice=dice)
    exact = tresse.win_chances(rules, "exact")
    fl = tresse.win_chances(rules, "float")
    for e, b in zip(exact, fl):
        assert e.exact is not None and b.exact is None
        assert b.low <= e.exact <= b.high and b.high - b.low < F(1, 10**12)
    for figure in (tresse.expected_throws, tresse.expected_turns):
        e, b = figure(rules, "exact"), figure(rules, "float")
        assert b.low <= e.exact <= b.high and b.high - b.low < F(1, 10**12)


@pytest.mark.parametrize("players", [6, 10])
def test_large_tables_are_bracketed_and_consistent(players):
    rules = tresse.Rules(players=players)
    wins = tresse.win_chances(rules)
    assert all(w.exact is None and w.high - w.low < F(1, 10**12) for w in wins)
    assert sum(w.low for w in wins) <= 1 <= sum(w.high for w in wins)
    rep = tresse.report(rules).figures
    assert set(rep) == {f"p_win_seat_{i}" for i in range(1, players + 1)} | {"expected_throws", "expected_turns"}
    assert all(
        f.exact is None and f.method == "exact" and f.ci[0] <= f.value <= f.ci[1]
        for k, f in rep.items()
        if k.startswith("p_win")
    )


def test_bad_method_is_rejected():
    with pytest.raises(ValueError, match="method must be one of"):
        tresse.win_chances(tresse.Rules(), "guess")


def test_report_figures_are_exact_for_small_tables():
    rep = tresse.report(tresse.Rules(players=3))
    assert rep.rules == {"players": 3, "dice": 5}
    assert all(f.exact is not None and f.ci is None for f in rep.figures.values())
    assert sum(rep.figures[f"p_win_seat_{i}"].exact for i in (1, 2, 3)) == 1
    two = tresse.report(tresse.Rules(players=2)).figures
    assert two["p_win_seat_1"].exact == two_player_v(5)[5]
    assert two["expected_turns"].exact == two_player_turns(5)[5]
