"""La Tresse (RULES.md section 4) against independent computations written here:

- two players, first-step analysis by hand: at a turn start the other player holds nothing, so
  with v(T) = P(the thrower with T dice wins) and C ~ Binomial(T, 1/3) dice reaching the centre,
  v(T) = 3^-T + sum_{c<T} P(C = c) (1 - v(T - c));
- a throw-by-throw chain over absolute seats, every throw enumerated over the ordered faces of
  the dice in hand (itertools.product), solved with `nessus.chains.solve_linear` (dense
  Gauss-Jordan): P(win) per seat and E[throws] counted one throw at a time;
- the float brackets against the exact solutions; Monte Carlo against both.
"""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb

import numpy as np
import pytest
from checks import assert_rejected, bad_cases, coverage
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from nessus.chains import solve_linear
from nessus.game import CHANCE, TERMINAL
from nessus.games import tresse
from nessus.play import play

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


# -- Monte Carlo -----------------------------------------------------------------------------------
# Up to 12 figures are checked at once, so each 95% interval is widened to 99.9% about its
# centre (Bonferroni: all cover with probability >= 98.8% at any seed); test_simulation_coverage
# checks that the 95% intervals themselves cover as often as they should.
SEED = 20
WIDEN = stats.norm.ppf(0.9995) / stats.norm.ppf(0.975)


def covers(ci: tuple[float, float], x: float) -> bool:
    mid, half = (ci[0] + ci[1]) / 2, (ci[1] - ci[0]) / 2 * WIDEN
    return mid - half <= x <= mid + half


@pytest.mark.parametrize("players", [2, 4, 7])
def test_simulation_agrees_with_exact(players):
    rules = tresse.Rules(players=players)
    exact = tresse.report(rules).figures
    sim = tresse.simulate(rules, trials=200_000, seed=SEED).figures
    assert set(sim) == set(exact)
    for name, f in sim.items():
        assert covers(f.ci, exact[name].value), (name, exact[name].value, f.ci)


def test_simulation_coverage():
    """40 replications of 1000 games with 3 players and 3 dice: each interval covers the exact
    value at least binom.ppf(0.001, 40, 0.95) = 33 times."""
    rules = tresse.Rules(players=3, dice=3)
    exact = {k: f.value for k, f in tresse.report(rules).figures.items()}
    covered, need = coverage(lambda seed: tresse.simulate(rules, trials=1000, seed=seed).figures, exact)
    assert set(covered) == set(exact)
    assert all(c >= need for c in covered.values()), covered


def test_throw_table_moves_the_faces_of_each_draw():
    """The simulation reads a draw r < 6**dice as base-6 digits (the faces, first die first); a
    larger r throws nothing."""
    for players, dice in ((2, 5), (4, 5), (10, 3)):
        m, bits, table = tresse.throw_table(players, dice)
        assert m == 6**dice and 1 << bits >= m
        for hand in range(1, dice + 1):
            for r in (0, 1, 5, 6, 77, m - 1, m, (1 << bits) - 1):
                faces = [(r // 6**i) % 6 + 1 for i in range(hand)] if r < m else []
                gone = sum(1 for f in faces if f in (1, 2, 5))
                want = -gone + (faces.count(2) << 4) + (faces.count(5) << 4 * (players - 1))
                assert table[hand << bits | r] == want


# -- the game (the protocol) -----------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.integers(2, 10), st.integers(1, 6), st.data())
def test_table_moves_every_die_by_the_rules(players, dice, data):
    table = tresse.initial_state(tresse.Rules(players=players, dice=dice))
    assert table.holdings == (dice,) + (0,) * (players - 1) and table.current == 1
    for _ in range(200):
        if table.is_terminal():
            break
        hand = table.hand
        faces = tuple(data.draw(st.lists(st.integers(1, 6), min_size=hand, max_size=hand)))
        me = table.current - 1
        before = table
        table = table.roll(dice=faces)
        assert sum(table.holdings) + table.centre == dice
        assert table.centre - before.centre == faces.count(1) and table.throws == before.throws + 1
        left, right = (me + 1) % players, (me - 1) % players
        assert table.holdings[me] == hand - sum(1 for f in faces if f in (1, 2, 5))
        if players > 2:
            assert table.holdings[left] == before.holdings[left] + faces.count(2)
            assert table.holdings[right] == before.holdings[right] + faces.count(5)
        else:
            assert table.holdings[left] == before.holdings[left] + faces.count(2) + faces.count(5)
        if table.is_terminal():
            assert table.winner == me + 1 and sum(table.holdings) == 0 and faces.count(1) > 0
        elif table.holdings[me]:
            assert table.current == me + 1
        else:
            nxt = table.current - 1
            assert table.holdings[nxt] > 0
            skipped = [(me + k) % players for k in range(1, (nxt - me) % players)]
            assert all(table.holdings[s] == 0 for s in skipped)


def test_table_game_with_a_generator_ends_with_a_winner():
    rng = np.random.default_rng(3)
    table = tresse.initial_state(tresse.Rules(players=5))
    while not table.is_terminal():
        table = table.roll(rng)
    assert table.winner in range(1, 6) and table.centre == 5 and table.current is None
    assert table.history[-1][0] == table.winner
    with pytest.raises(ValueError, match="over"):
        table.roll(dice=())
    with pytest.raises(ValueError, match="rng or dice"):
        tresse.initial_state().roll()


def test_table_skips_players_without_dice():
    """Seat 1 of 4 throws 2, 2, 6, 6, 5: two dice go left to seat 2, one right to seat 4; seat 1
    throws 1, 1 and is empty; seat 2 plays; it passes both dice left and seat 3 plays."""
    table = tresse.initial_state(tresse.Rules(players=4))
    table = table.roll(dice=(2, 2, 6, 6, 5))
    assert table.holdings == (2, 2, 0, 1) and table.current == 1
    table = table.roll(dice=(1, 1))
    assert table.holdings == (0, 2, 0, 1) and table.current == 2 and table.centre == 2
    table = table.roll(dice=(2, 2))
    assert table.holdings == (0, 0, 2, 1) and table.current == 3
    table = table.roll(dice=(2, 1))
    assert table.holdings == (0, 0, 0, 2) and table.current == 4
    table = table.roll(dice=(1, 1))
    assert table.is_terminal() and table.winner == 4 and table.throws == 5


@pytest.mark.parametrize("dice", [(1, 2), (1, 2, 3, 4, 5, 6), (0, 1, 1, 1, 1), (7, 1, 1, 1, 1), (1.0, 1, 1, 1, 1)])
def test_table_rejects_bad_dice(dice):
    with pytest.raises(ValueError, match="dice"):
        tresse.initial_state().roll(dice=dice)


def test_protocol_throws_are_chance_nodes():
    """Each throw is a chance node: the dice in hand as sorted multisets with exact weights; no
    decisions, no policies; the winner's return is 1."""
    state = tresse.initial_state(tresse.Rules(players=3, dice=2))
    assert state == tresse.initial_state(tresse.Rules(players=3, dice=2)) and tresse.policies() == {}
    outcomes = dict(state.chance_outcomes())
    assert state.current_player() == CHANCE and state.legal_actions() == []
    assert len(outcomes) == 21 and sum(outcomes.values()) == 1 and outcomes[(1, 2)] == F(2, 36)
    state = state.apply((1, 2))
    assert state.holdings == (0, 1, 0) and state.current == 2 and len(state.chance_outcomes()) == 6
    assert "player 2 throws 1 next" in state.observation(0)
    end = state.apply((1,))
    assert end.is_terminal() and end.current_player() == TERMINAL and end.winner == 2
    assert end.returns() == [0, 1, 0] and end.chance_outcomes() == []
    assert "player 2 won after 2 throws" in end.observation(2)


def test_roll_with_a_generator_draws_as_before():
    """roll(rng) throws the hand with rng.integers(1, 7, size=hand), as the old table did (the
    lesson's seeded game is unchanged); the faces are kept sorted."""
    state = tresse.initial_state().roll(np.random.default_rng(6))
    assert state.history[0] == (1, tuple(sorted(int(x) for x in np.random.default_rng(6).integers(1, 7, size=5))))


def test_max_length_bound():
    """shape().max_length is the least t with P(Binomial(t, 1/6) < dice) < 1e-15 (a proven bound
    on P(more throws), see `_max_throws`); a few hundred throws."""
    for dice in (1, 5, 6):
        t = tresse.initial_state(tresse.Rules(dice=dice)).shape().max_length
        assert stats.binom.cdf(dice - 1, t, 1 / 6) < 1e-15 <= stats.binom.cdf(dice - 1, t - 1, 1 / 6)
        assert t < 300


def test_fast_simulator_agrees_with_the_generic_loop():
    """games_kernel (the packed-bits simulator) against `nessus.play.play` on the protocol state,
    4 players: every seat's win share, and the mean throws, agree within z(99.9%) times the
    standard error of their difference."""
    rules, n_fast, n_loop, z = tresse.Rules(), 20_000, 4000, stats.norm.ppf(0.9995)
    fast = tresse.games_kernel(rules.players, rules.dice, np.random.default_rng(SEED), n_fast)
    rng = np.random.default_rng(SEED + 1)
    ends = [play(tresse.initial_state(rules), {}, rng) for _ in range(n_loop)]
    loop = {f"p_win_seat_{i + 1}": np.array([e.winner == i + 1 for e in ends]) for i in range(rules.players)}
    loop["expected_throws"] = np.array([e.throws for e in ends])
    for name, b in loop.items():
        a = fast[name].astype(float)
        se = (a.var(ddof=1) / n_fast + b.astype(float).var(ddof=1) / n_loop) ** 0.5
        assert abs(a.mean() - b.mean()) <= z * se, (name, a.mean(), b.mean())


# -- rules validation ------------------------------------------------------------------------------
RANGES = {"players": (2, 10), "dice": (1, 6)}


@settings(max_examples=40, deadline=None)
@given(bad_cases(RANGES))
def test_rules_reject_bad_values(case):
    assert_rejected(tresse.Rules, RANGES, case)


def test_rules_from_strings():
    assert tresse.Rules.from_strings({"players": "7"}).players == 7
    with pytest.raises(ValueError, match="players must be an integer from 2 to 10"):
        tresse.Rules.from_strings({"players": "11"})
