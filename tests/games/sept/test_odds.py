"""Le Sept fatal (RULES.md section 6) against independent computations written here:

- one turn: enumerating every ordered sequence of 2d6 rolls (short turns), the `RewardChain`
  of the turn, and the one-more-roll argument for the best hold;
- the one-round game exactly in Fractions (the second player rolls until ahead; the first
  player holds once the second player's chance is small enough), and with replayed ties by a
  fixed point on the replay's value;
- two rounds by a plain memoised recursion over (turn, lead, turn total) with the same cut-off;
- Monte Carlo of one-round games with the optimal policy (rolled die by die and a turn at a time).
"""

import sys
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import pytest

from nessus import pushluck as core
from nessus import tables
from nessus.games import sept
from nessus.games.sept import odds
from nessus.montecarlo import wilson

F = Fraction
P = {s: F(sum(1 for a, b in product(range(1, 7), repeat=2) if a + b == s), 36) for s in range(2, 13)}
GAINS = {s: p for s, p in P.items() if s != 7}


# -- one turn -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 5, 6])
def test_turn_by_enumerating_ordered_rolls(n):
    """Every sequence of ordered 2d6 rolls until a 7 or a total of n or more (at most 3 rolls)."""
    final: dict = {}

    def walk(k: int, depth_weight: int, seq_len: int) -> None:
        for a, b in product(range(1, 7), repeat=2):
            w = F(1, 36**seq_len)
            if a + b == 7:
                final[0] = final.get(0, 0) + w
            elif k + a + b >= n:
                final[k + a + b] = final.get(k + a + b, 0) + w
            else:
                walk(k + a + b, 0, seq_len + 1)

    walk(0, 0, 1)
    d = sept.turn_distribution(n)
    assert {x: d[x] for x in d.outcomes} == final
    assert sept.hold_mean(n) == sum(x * p for x, p in final.items())


@pytest.mark.parametrize("n", [10, 20, 35, 36, 50])
def test_turn_mean_and_distribution_from_the_reward_chain(n):
    chain = core.hold_at_chain(sept.ROLL, n)
    assert chain.mean(0) == sept.hold_mean(n)
    truncated = chain.distribution(0, bound=n + 12)
    d = sept.turn_distribution(n)
    assert truncated.tail == 0
    assert truncated.pmf() == [d[s] for s in range(n + 13)]


def test_best_hold_is_35():
    """One more roll at k gains sum_{s != 7} s P(s) - k P(7) = (210 - 6k)/36: zero at 35."""
    gain = sum(s * p for s, p in GAINS.items())
    assert gain == F(210, 36) and gain / P[7] == 35
    n, mean = sept.best_hold()
    assert n == 35 and mean == sept.hold_mean(35) == sept.hold_mean(36)
    assert all(sept.hold_mean(m) < mean for m in [*range(1, 35), *range(37, 90)])


def test_report_figures():
    rules = sept.Rules(hold=30, rounds=1, ties="half")
    figures = sept.report(rules).figures
    assert set(figures) >= {"best_hold", "best_hold_mean", "hold_mean", "p_first_player_wins_optimal"}
    assert figures["best_hold"].exact == 35
    assert figures["best_hold_mean"].exact == sept.hold_mean(35)
    assert figures["hold_mean"].exact == sept.hold_mean(30)
    assert figures["p_zero_hold"].exact == sept.turn_distribution(30)[0]
    p = figures["p_first_player_wins_optimal"]
    assert p.method == "value-iteration" and p.exact is None and "not exact" in p.help
    lo, hi = p.ci
    assert lo <= p.value <= hi and hi - lo < 1e-12
    assert p.value == pytest.approx(float(one_round_half()), abs=1e-12)


@cache
def hold_from(k: int, n: int) -> F:
    """E[the turn's score] from turn total k, rolling (at least once) while below n, by the 36 outcomes."""
    return sum((p * (k + s if k + s >= n else hold_from(k + s, n)) for s, p in GAINS.items()), F(0))


@pytest.mark.parametrize("k", [0, 1, 12, 34, 35, 36, 50])
def test_points_hint_is_the_best_threshold_after_rolling(k):
    """Rolling now and then holding at the best N > k (every N up to k + 60 tried); holding banks k."""
    h = sept.points_hint(k)
    assert h["roll"] == max(hold_from(k, n) for n in range(k + 1, k + 61))
    assert h.get("hold") == (k or None)
    if k < 35:
        assert h["roll"] == core.hold_at_chain(sept.ROLL, 35).mean(k)
    else:  # one roll then hold: 5/6 k + 35/6, a fair bet at 35
        assert h["roll"] == F(5 * k + 35, 6) and (h["roll"] == h["hold"]) == (k == 35)


@pytest.mark.parametrize("k", [-1, 2.0, True, None])
def test_points_hint_rejects_bad_totals(k):
    with pytest.raises(ValueError, match="turn total"):
        sept.points_hint(k)


def one_round_first_holds() -> int:
    """One round, a tie counting half: the smallest turn total at which the first player holds
    (holding at k is worth 1 - g(k), exactly; ties hold), as in `one_round_half`."""

    def g(x: int) -> F:
        return F(11, 12) if x == 0 else reach(x + 1)

    top = next(k for k in range(1, 400) if all(g(m) <= g(0) / 6 for m in range(k, k + 13)))
    v = {k: 1 - g(k) for k in range(top, top + 13)}
    roll = {}
    for k in range(top - 1, -1, -1):
        roll[k] = P[7] * (1 - g(0)) + sum(p * v[k + s] for s, p in GAINS.items())
        v[k] = max(roll[k], 1 - g(k)) if k else roll[k]
    return min([k for k in range(1, top) if 1 - g(k) >= roll[k]] + [top])


def test_hold_boundary():
    """The first player's first turn of a one-round game against the exact derivation; the
    second player's last turn: behind by L, roll until ahead by one (1 + L); level or ahead,
    hold after the compulsory roll. Off the grid as `rolls` plays."""
    assert odds._solve(1, "half").hold_boundary(0, 0) == one_round_first_holds()
    sol = sept.solution()
    last = 2 * sept.Rules().rounds - 1
    assert [sol.hold_boundary(last, lead) for lead in (-40, -12, -1, 0, 1, 30)] == [41, 13, 2, 1, 1, 1]
    assert sol.hold_boundary(0, -60) > 35 > sol.hold_boundary(0, 60)
    m = sol.duel.margin
    assert sol.hold_boundary(0, m + 1) == 1 and sol.hold_boundary(0, -m - 5) == 2 * m + 6
    assert all(sol.rolls(0, -m - 5, k) for k in range(1, 2 * m + 6)) and not sol.rolls(0, -m - 5, 2 * m + 6)
    with pytest.raises(ValueError, match="level"):
        sol.hold_boundary(2 * sept.Rules().rounds, 3)


# -- the game ----------------------------------------------------------------------------------------
@cache
def reach(n: int) -> F:
    """P(a turn's total reaches n or more before a 7), the first roll compulsory."""
    if n <= 0:
        return F(1)
    return sum((p * (1 if s >= n else reach(n - s)) for s, p in GAINS.items()), F(0))


def one_round_half() -> F:
    """One round, a tie counting half. The second player, behind by x > 0, rolls until ahead
    (holding level gives 1/2, one more roll 5/6): reach(x + 1). At x = 0 a 7 ties: 11/12.
    The first player holds at k once g(k) <= g(0)/6: rolling is worth at most 1 - g(0)/6."""

    def g(x: int) -> F:
        return F(11, 12) if x == 0 else reach(x + 1)

    top = next(k for k in range(1, 400) if all(g(m) <= g(0) / 6 for m in range(k, k + 13)))
    v = {k: 1 - g(k) for k in range(top, top + 13)}
    for k in range(top - 1, -1, -1):
        roll = P[7] * (1 - g(0)) + sum(p * v[k + s] for s, p in GAINS.items())
        v[k] = max(roll, 1 - g(k)) if k else roll
    return v[0]


def one_round_replay() -> float:
    """One round, a tie replays it: w = the first player's chance; iterate w -> value(w)."""

    def second(x: int, w: float) -> float:
        u: dict = {}
        for k in range(x + 1 + 12, -1, -1):
            if k > x:
                u[k] = 1.0
                continue
            bust = (1 - w) if x == 0 else 0.0
            roll = float(P[7]) * bust + sum(float(p) * u[k + s] for s, p in GAINS.items())
            hold = (1 - w) if k == x else 0.0
            u[k] = max(roll, hold) if k else roll
        return u[0]

    w, previous = 0.5, None
    while w != previous:
        g = {x: second(x, w) for x in range(160)}
        v = {k: 1 - g[k] for k in range(140, 153)}  # the first player surely holds from 69 on (one_round_half)
        for k in range(139, -1, -1):
            roll = float(P[7]) * (1 - g[0]) + sum(float(p) * v[k + s] for s, p in GAINS.items())
            v[k] = max(roll, 1 - g[k]) if k else roll
        w, previous = v[0], w
    return w


def test_one_round_exact_and_replayed():
    half = odds._solve(1, "half")
    assert half.p_first == pytest.approx(float(one_round_half()), abs=1e-12)
    assert half.low - 1e-15 <= half.p_first <= half.high + 1e-15
    replay = odds._solve(1, "replay")
    assert replay.p_first == pytest.approx(one_round_replay(), abs=1e-11)


def recursion(rounds: int, ties: str, margin: int) -> float:
    """A plain memoised recursion over (turn, mover's lead, turn total); a roll taking the lead
    plus turn total above `margin` counts as a win for the mover (the module's main cut-off)."""
    sys.setrecursionlimit(20_000)
    last = {2 * rounds - 1, 2 * rounds + 1}
    p7 = float(P[7])
    gains = [(s, float(p)) for s, p in GAINS.items()]

    def solve(w: float) -> float:
        @cache
        def value(t: int, lead: int, k: int) -> float:
            roll = p7 * end(t, lead) + sum(
                p * (1.0 if lead + k + s > margin else value(t, lead, k + s)) for s, p in gains
            )
            return max(roll, end(t, lead + k)) if k else roll

        def end(t: int, final: int) -> float:
            if t in last:
                return 1.0 if final > 0 else 0.0 if final < 0 else (0.5 if ties == "half" else 1 - w)
            return 1 - value(t + 1, -final, 0)

        return value(0, 0, 0) if ties == "half" else (value(0, 0, 0), value(2 * rounds, 0, 0))

    if ties == "half":
        return solve(0.5)
    w, previous = 0.5, None
    while w != previous:
        first, replay = solve(w)
        w, previous = replay, w
    return first


@pytest.mark.parametrize("ties", ["half", "replay"])
def test_two_rounds_against_a_plain_recursion(ties):
    sol = odds._solve(2, ties, 60)
    assert sol.p_first == pytest.approx(recursion(2, ties, 60), abs=1e-11)


def test_default_game_bracket_and_fixed_point():
    """The default game: the bracket from the two cut-offs is closed, and every turn-start value
    equals the best action's value computed from the others (Bellman's equation)."""
    sol = odds._solve(3, "replay")
    assert sol.high - sol.low < 1e-13 and 0.38 < sol.p_first < 0.385
    s = sol.solved
    v0 = np.fmax(s.q_hold[:, 0], s.q_roll[:, 0])
    assert np.max(np.abs(v0 - s.starts)) < 1e-10
    assert np.all(np.isneginf(s.q_hold[:, 0]))
    # the second player's last turn: level or behind, roll (level: 5/6 beats the replay); ahead, hold
    d = sol.duel
    for lead in (-30, -10, -1):
        c = d.context(5, lead)
        assert s.rolls()[c, : -lead + 1].all()
        assert not s.rolls()[c, -lead + 1 : -lead + 13].any() and np.all(s.q_hold[c, -lead + 1 : -lead + 13] == 1.0)


def test_a_narrow_cut_off_shows_in_the_bracket():
    sol = odds._solve(3, "half", 60)
    assert sol.high - sol.low > 1e-4
    assert sol.low <= odds._solve(3, "half").p_first <= sol.high


def test_tables_round_trip():
    rules = sept.Rules(rounds=1)
    frames = sept.tables(rules)
    f = frames["start_values"]
    assert set(f.columns) == {"rounds", "ties", "margin", "turn", "lead", "p_win", "p_win_low", "p_win_high"}
    back = sept.from_tables({"start_values": f.reverse()})
    s = odds._solve(1, "replay")
    assert np.array_equal(back.solved.starts, s.solved.starts)
    assert np.array_equal(back.solved.rolls(), s.solved.rolls())
    assert (back.low, back.high, back.p_first) == (s.low, s.high, s.p_first)
    with pytest.raises(ValueError, match="start_values"):
        sept.from_tables({"start_values": f.head(5)})


# -- Monte Carlo ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("ties", ["half", "replay"])
def test_one_round_games_against_exact(ties):
    """Rolled die by die (`duel_kernel`) and a turn at a time (`duel_turns`, as `simulate`
    does), 60,000 games each; under `half` a tie is a fair coin, so the win rate is the share."""
    sol = odds._solve(1, ties)
    exact = float(one_round_half()) if ties == "half" else one_round_replay()
    rng = np.random.default_rng(9)  # seed 8 missed by 1e-5 (2 x 10 x 200,000 games: z = -0.38 and 0.14)
    for wins in (
        sept.duel_kernel(1, ties, sol.duel.margin, sol.solved.rolls(), rng, 60_000),
        sept.duel_turns(1, ties, sol.duel.margin, sept.sampler(sol), rng, 60_000),
    ):
        lo, hi = wilson(int(wins.sum()), wins.size)
        assert lo <= exact <= hi


# -- the hints of the playable game -------------------------------------------------------------------
def test_game_steps_and_hints():
    rules = sept.Rules(rounds=1, ties="half")
    sol = odds._solve(1, "half")
    g = sept.initial_state(rules)
    with pytest.raises(ValueError, match="compulsory"):
        g.hold()
    h = g.hint()
    assert (
        h.values == {"roll": pytest.approx(sol.p_first, abs=1e-15)}
        and h.best == "roll"
        and h.method == "value-iteration"
    )
    g = g.roll(dice=(6, 6)).roll(dice=(5, 5))
    assert g.turn_total == 22 and g.rolls == ((6, 6), (5, 5))
    h = g.hint()
    c = sol.duel.context(0, 0)
    assert h.values == {"roll": sol.solved.q_roll[c, 22], "hold": sol.solved.q_hold[c, 22]}
    g = g.hold()
    assert g.scores == (22, 0) and g.mover == 1 and g.turn_total == 0
    assert g.history == (core.Played(0, ((6, 6), (5, 5)), "hold", 22),)
    h = g.hint()
    assert h.values["roll"] == pytest.approx(float(reach(23)), abs=1e-12)
    g = g.roll(dice=(4, 3))
    assert g.is_terminal() and g.winner == 0 and g.scores == (22, 0) and g.returns() == [1, 0]
    assert g.history[-1] == core.Played(1, ((3, 4),), "bust", 0)  # the bust roll is kept, sorted
    with pytest.raises(ValueError, match="over"):
        g.roll(dice=(1, 1))
    with pytest.raises(ValueError, match="over"):
        g.hint()


# -- stored tables ----------------------------------------------------------------------------------
def refuse(*args):
    raise AssertionError("solved")


def test_report_uses_stored_tables(tmp_path, monkeypatch):
    """With `data/sept-start_values.parquet` and the 4-round table present, those games are read
    and nothing is solved; rounds without a table (2; 5 here) and the other tie rule are still solved."""
    for rounds in (3, 4):
        frame = sept.tables(sept.Rules(rounds=rounds))["start_values"]
        frame.write_parquet(tables.path("sept", sept.table_name(rounds), tmp_path))
    monkeypatch.setattr(tables, "DATA", tmp_path)
    odds._stored.cache_clear()
    fresh = {rounds: odds._solve(rounds, "replay") for rounds in (3, 4)}
    monkeypatch.setattr(odds, "_solve", refuse)
    try:
        f = sept.report().figures["p_first_player_wins_optimal"]
        low, high, p = fresh[3].low, fresh[3].high, fresh[3].p_first
        assert f.value == p and f.ci == (min(low, p), max(high, p))
        stored = sept.solution(sept.Rules(rounds=4))
        assert np.array_equal(stored.solved.rolls(), fresh[4].solved.rolls()) and stored.p_first == fresh[4].p_first
        for rules in (sept.Rules(rounds=2), sept.Rules(rounds=5), sept.Rules(rounds=4, ties="half")):
            with pytest.raises(AssertionError, match="solved"):
                sept.report(rules)
    finally:
        odds._stored.cache_clear()


def test_stored_games_are_named_by_rounds():
    names = [sept.table_name(r) for r in sept.STORED_ROUNDS]
    assert names == ["start_values", "start_values_4_rounds", "start_values_5_rounds"]
    assert all(tables.path("sept", sept.table_name(r)).exists() for r in sept.STORED_ROUNDS)
