"""Le Légit (RULES.md section 9) against brute force written here: every ordered roll
(itertools.product), 7-pairs removed by repeatedly striking out any two dice adding to 7, and
the keep-or-reroll recursion on (rerolls left, dice left); the first player's dilemma by
enumerating the later players' scores one after another (three players) and by trying every
stopping policy of the first player (small cases); Monte Carlo of turns and rounds."""

from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import pytest
from checks import assert_rejected, bad_cases
from hypothesis import given, settings

from nessus import tables
from nessus.games import legit
from nessus.games.legit import fast, odds
from nessus.montecarlo import wilson

F = Fraction


def strike_sevens(roll) -> list[int]:
    """Strike out any two dice adding to 7 until none is left."""
    left = list(roll)
    while True:
        pair = next(((i, j) for i in range(len(left)) for j in range(i + 1, len(left)) if left[i] + left[j] == 7), None)
        if pair is None:
            return left
        del left[pair[1]], left[pair[0]]


@cache
def after_roll(n: int) -> dict:
    """{(dice left, total): probability} over the 6^n ordered rolls."""
    out: dict = {}
    for roll in product(range(1, 7), repeat=n):
        left = strike_sevens(roll)
        out[(len(left), sum(left))] = out.get((len(left), sum(left)), 0) + F(1, 6**n)
    return out


@cache
def reroll_value(r: int, n: int, payoff) -> F:
    """Best expected payoff of rolling n dice with r rerolls left afterwards."""
    return sum(
        (
            p * (payoff(t) if r == 0 or m == 0 else max(payoff(t), reroll_value(r - 1, m, payoff)))
            for (m, t), p in after_roll(n).items()
        ),
        F(0),
    )


def identity(t):
    return t


@pytest.mark.parametrize("dice,rerolls", [(1, 0), (2, 1), (3, 3), (4, 2), (6, 0), (6, 1), (6, 3)])
def test_optimal_mean_against_brute_force(dice, rerolls):
    rules = legit.Rules(dice=dice, rerolls=rerolls)
    assert legit.optimal_mean(rules) == reroll_value(rerolls, dice, identity)
    f = legit.report(rules).figures
    assert f["no_reroll_mean"].exact == reroll_value(0, dice, identity)
    beats = cache(lambda t: int(t > rules.target))
    assert f["p_beat_target_best"].exact == reroll_value(rerolls, dice, beats)


def test_no_reroll_mean_by_hand():
    """One die: 7/2. Two dice: a 7 is struck out, so (252 - 6 * 7)/36 = 35/6."""
    assert legit.optimal_mean(legit.Rules(dice=1, rerolls=0)) == F(7, 2)
    assert legit.optimal_mean(legit.Rules(dice=2, rerolls=0)) == F(35, 6)


@pytest.mark.parametrize("roll", [(1, 6, 1, 6, 6, 6), (3, 4, 4, 3, 2, 2), (1, 2, 3, 4, 5, 6), (2, 2, 2, 5, 1, 1)])
def test_remove_pairs_matches_striking_out(roll):
    assert legit.remove_pairs(roll) == tuple(sorted(strike_sevens(roll)))


@pytest.mark.parametrize("below", [8, 12])
def test_heuristic_mean_against_brute_force(below):
    """Reroll while below X, with 3 rerolls: the recursion without the max."""

    @cache
    def value(r: int, n: int) -> F:
        return sum(
            (p * (t if r == 0 or m == 0 or t >= below else value(r - 1, m)) for (m, t), p in after_roll(n).items()),
            F(0),
        )

    assert legit.report(legit.Rules(reroll_below=below)).figures["heuristic_mean"].exact == value(3, 6)


def test_the_default_rule_of_thumb_is_the_best_single_threshold():
    """The human rule's default X (8) has the highest mean of every "reroll below X", and beats
    never rerolling (12, the old default, did not)."""
    means = {x: legit.score_distribution(policy=legit.reroll_below(x)).mean() for x in range(37)}
    assert max(means, key=means.get) == legit.Rules().reroll_below
    assert means[legit.Rules().reroll_below] > legit.report().figures["no_reroll_mean"].exact > means[12]


# -- the dilemma --------------------------------------------------------------------------------------
def beat_distribution(dice: int, cap: int, best: int) -> dict:
    """The score distribution of a later player playing for P(above) + P(equal)/2 (brute force,
    stopping on ties between the two choices)."""
    payoff = cache(lambda t: 1 if t > best else (F(1, 2) if t == best else 0))

    def walk(r: int, n: int, p: F, out: dict) -> None:
        for (m, t), q in after_roll(n).items():
            if r > 0 and m > 0 and reroll_value(r - 1, m, payoff) > payoff(t):
                walk(r - 1, m, p * q, out)
            else:
                out[t] = out.get(t, 0) + p * q

    out: dict = {}
    walk(cap, dice, F(1), out)
    return out


@pytest.mark.parametrize("total,used", [(5, 0), (9, 1), (12, 2), (0, 2)])
def test_share_with_three_players_by_enumerating_later_scores(total, used):
    """Player 2 aims at the first player's total; player 3 at the best of the two."""
    dice = 4
    share = F(0)
    for s2, p2 in beat_distribution(dice, used, total).items():
        for s3, p3 in beat_distribution(dice, used, max(total, s2)).items():
            scores = (total, s2, s3)
            if total == max(scores):
                share += p2 * p3 / scores.count(total)
    assert legit.share(dice, 3, total, used) == share


def test_first_player_against_every_stopping_policy():
    """Two dice, one reroll, two players: the best of all 2^10 keep/reroll policies."""
    rules = legit.Rules(dice=2, rerolls=1, players=2, target=10, reroll_below=10)
    states = sorted(after_roll(2))
    choices = [s for s in states if s[0] > 0]
    best = F(-1)
    for bits in product((False, True), repeat=len(choices)):
        reroll = dict(zip(choices, bits))
        value = F(0)
        for (m, t), p in after_roll(2).items():
            if reroll.get((m, t), False):
                value += p * sum(q * legit.share(2, 2, t2, 1) for (_, t2), q in after_roll(m).items())
            else:
                value += p * legit.share(2, 2, t, 0)
        best = max(best, value)
    assert legit.first_share(rules) == best
    assert legit.report(rules).figures["p_first_wins_optimal"].exact == best


def test_two_player_share_is_one_minus_the_later_players_chance():
    for total, used in [(7, 0), (11, 3)]:
        d = beat_distribution(6, used, total)
        later = sum(p for s, p in d.items() if s > total) + F(1, 2) * d.get(total, 0)
        assert legit.share(6, 2, total, used) == 1 - later


def test_dilemma_table():
    d = legit.dilemma()
    assert d.columns == [
        "rerolls_used",
        "later_mean",
        "p_stop",
        "share_if_stop",
        "stop_from_2_dice",
        "stop_from_4_dice",
        "stop_from_6_dice",
    ]
    assert d["rerolls_used"].to_list() == [0, 1, 2, 3]
    assert d["p_stop"].sum() == pytest.approx(1, abs=1e-12)
    means = [float(reroll_value(u, 6, identity)) for u in range(4)]
    assert d["later_mean"].to_list() == pytest.approx(means, abs=1e-12)
    shares = d["p_stop"] * d["share_if_stop"]
    assert shares.sum() == pytest.approx(float(legit.first_share(legit.Rules())), abs=1e-12)
    assert d["stop_from_6_dice"][3] == 0  # after 3 rerolls the first player must keep
    assert d["stop_from_6_dice"][0] <= d["stop_from_6_dice"][1]  # stopping early is cheaper: it caps the others


def forget_later_odds() -> None:
    """Drop every cached value that came from `later_odds` (stored or solved)."""
    for cached in (legit.later_odds, odds._stored_odds, legit.first_turn):
        cached.cache_clear()


def refuse(*args):
    raise AssertionError("solved")


def test_the_dilemma_reads_the_stored_later_odds(tmp_path, monkeypatch):
    """With data/legit-later_odds.parquet present, the dilemma and the first player's share (any
    player count or cap) solve no later player's turn and equal the solved ones; other dice are
    still solved."""
    frame = legit.tables()["later_odds"]
    assert frame.columns == ["cap", "best", "p_above", "p_equal"] and frame.height == 4 * 37
    cases = [legit.Rules(players=2), legit.Rules(players=5, rerolls=2)]
    monkeypatch.setattr(tables, "DATA", tmp_path)
    forget_later_odds()
    try:
        solved = [(legit.first_share(r), legit.first_stops(r), legit.dilemma(r)) for r in cases]
        frame.write_parquet(tables.path("legit", "later_odds", tmp_path))
        forget_later_odds()
        monkeypatch.setattr(odds, "_later_odds", refuse)
        for rules, (share, stops, dilemma) in zip(cases, solved):
            assert legit.first_share(rules) == share and legit.first_stops(rules) == stops
            assert legit.dilemma(rules).equals(dilemma)
        with pytest.raises(AssertionError, match="solved"):
            legit.first_share(legit.Rules(dice=2))
    finally:
        forget_later_odds()


def test_no_rerolls_is_a_fair_round():
    f = legit.report(legit.Rules(rerolls=0, players=3)).figures
    assert f["p_first_wins_optimal"].exact == F(1, 3) == f["p_first_wins_max_mean"].exact


def test_playing_for_the_share_beats_playing_for_the_mean():
    f = legit.report().figures
    assert f["p_first_wins_optimal"].exact > f["p_first_wins_max_mean"].exact > F(1, 2)


# -- Monte Carlo -------------------------------------------------------------------------------------
@pytest.mark.parametrize("players,seed", [(2, 1), (4, 2)])
def test_simulation_agrees_with_exact(players, seed):
    rules = legit.Rules(players=players)
    exact = legit.report(rules).figures
    sim = legit.simulate(rules, trials=40_000, seed=seed).figures
    assert set(sim) == {"optimal_mean", "no_reroll_mean", "heuristic_mean", "p_first_wins_optimal"}
    for name in sim:
        lo, hi = sim[name].ci
        assert lo <= exact[name].value <= hi, (name, sim[name].ci, exact[name].value)


def test_rounds_by_dice_against_exact():
    """Three players, 60,000 rounds rolled die by die: the exact share is in the interval."""
    rules = legit.Rules(players=3)
    wins = legit.rounds_by_dice(rules, np.random.default_rng(3), 60_000)
    lo, hi = wilson(int(wins.sum()), wins.size)
    assert lo <= float(legit.first_share(rules)) <= hi


def test_roll_left_distribution():
    """200,000 vectorised rolls of 6 dice against the exact (dice left, total) distribution."""
    n, t = fast.roll_left(np.full(200_000, 6), np.random.default_rng(0))
    exact = after_roll(6)
    for key in [(0, 0), (2, 7), (6, 21)]:
        p = float(exact.get(key, 0))
        got = np.mean((n == key[0]) & (t == key[1]))
        assert abs(got - p) < 4 * (p * (1 - p) / 200_000) ** 0.5 + 1e-9


# -- the game to play -------------------------------------------------------------------------------------
def test_state_steps_and_hints():
    state = legit.initial_state()
    assert state.legal_actions() == ["roll"] and state.current_player() == 0
    with pytest.raises(ValueError, match="roll first"):
        state.keep()
    state = state.roll(dice=(1, 6, 2, 2, 4, 6))
    turn = state.turns[0]
    assert turn.left == (2, 2, 4, 6) and turn.total == 14 and turn.rerolls_left == 3
    hint = state.hint(legit.Mean())
    assert hint.values["keep"] == 14 and hint.values["reroll"] == reroll_value(2, 4, identity)
    assert hint.best == ("keep" if 14 >= reroll_value(2, 4, identity) else "reroll")
    state = state.roll(dice=(3, 4, 5, 5))
    assert state.turns[0].left == (5, 5) and state.turns[0].rerolls_left == 2
    with pytest.raises(ValueError, match="dice"):
        state.roll(dice=(1, 2, 3))
    assert state.hint(legit.Chase(11)).values["keep"] == 0
    state = state.keep()
    assert state.turns[0].over and state.scores == [10] and state.cap(1) == 1
    assert state.current_player() == 1 and state.legal_actions() == ["roll"]
    state = state.roll(dice=(1, 1, 1, 1, 1, 1))
    assert set(state.hint().values) == {"keep", "reroll"}
    assert state.hint().values == legit.beat_turn(6, 1, 10, F(1, 2)).game.hint(("rolled", 1, 6, 6)).values
    state = state.roll(dice=(2,) * 6)  # the cap: one reroll, so the turn is over
    assert state.is_terminal() and state.scores == [10, 12] and state.returns() == [0, 1]
    with pytest.raises(ValueError, match="over"):
        state.roll(dice=(1, 1))
    with pytest.raises(ValueError, match="over"):
        state.hint()


def test_a_turn_ends_with_no_choice_left():
    """Every die paired off, or no reroll left: the turn is over without a keep."""
    empty = legit.initial_state().roll(dice=(1, 6, 2, 5, 3, 4))
    assert empty.turns[0].left == () and empty.turns[0].total == 0 and empty.turns[0].over
    assert empty.current_player() == 1 and empty.cap(1) == 0
    capped = empty.roll(dice=(1, 1, 1, 1, 1, 1))
    assert capped.is_terminal() and capped.returns() == [0, 1]
    tie = legit.initial_state(legit.Rules(players=3, rerolls=0))
    for roll in [(1, 1, 1, 1, 1, 2), (1, 1, 1, 1, 1, 2), (1, 1, 1, 1, 1, 1)]:
        tie = tie.roll(dice=roll)
    assert tie.returns() == [F(1, 2), F(1, 2), 0]


def test_policies_play_like_the_solvers():
    """ "optimal": seat 1 by `first_turn`, later seats chasing the best so far; "best_mean" and
    "reroll_below" by their turn policies."""
    pol = legit.policies()
    state = legit.initial_state().roll(dice=(1, 1, 2, 2, 3, 3))  # no 7-pair: 12 on 6 dice
    assert pol["optimal"](state) == legit.first_turn(6, 3, 2).game.best(("rolled", 3, 6, 12))
    assert pol["best_mean"](state) == legit.mean_turn(6, 3).game.best(("rolled", 3, 6, 12)) == "keep"
    assert (
        pol["reroll_below"](state) == "keep"
        and pol["reroll_below"](legit.initial_state().roll(dice=(1, 1, 1, 1, 1, 2))) == "reroll"
    )
    later = state.roll(dice=(1, 1, 1, 1, 2, 2)).keep().roll(dice=(1, 1, 1, 1, 1, 2))  # 8 to beat, one reroll: 7
    assert later.current_player() == 1 and later.turns[1].rerolls_left == 1
    assert (
        pol["optimal"](later) == legit.beat_turn(6, 1, 8, F(1, 2)).game.best(("rolled", 1, 6, 7)) == later.hint().best
    )
    assert all(p(legit.initial_state()) == "roll" for p in pol.values())


def test_fast_simulator_agrees_with_the_generic_loop():
    """The vectorised rounds (`rounds`, turns drawn from their exact laws, and `rounds_by_dice`,
    die by die) and `turns_by_dice` against `nessus.play` with the same policies: the first
    player's share of the win (optimal play, 3 players) and the mean score under "reroll below
    8". Each pair agrees within z = 3.29 (99.9%) standard errors of their difference."""
    from nessus.play import play, tournament

    z = 3.29
    rules = legit.Rules(players=3)
    games = 1500
    loop = tournament(legit.initial_state(rules), [legit.optimal] * 3, games=games, seed=4)
    a = loop["win_share"][0]
    samplers = fast.round_samplers(rules.dice, rules.rerolls, rules.players)
    for drawn in (
        fast.rounds(3, samplers, np.random.default_rng(5), 50_000),
        legit.rounds_by_dice(rules, np.random.default_rng(6), 20_000),
    ):
        b = float(drawn.mean())
        se = (a * (1 - a) / games + b * (1 - b) / drawn.size) ** 0.5
        assert abs(a - b) <= z * se, (a, b, se)
    policy = legit.policies(rules)["reroll_below"]
    rng = np.random.default_rng(7)
    loop_scores = np.array([play(legit.initial_state(rules), [policy] * 3, rng).scores[0] for _ in range(games)])
    fast_scores, _ = fast.turns_by_dice(
        rules.dice, np.full(50_000, rules.rerolls), lambda r, m, t, i: t < 8, np.random.default_rng(8)
    )
    se = (loop_scores.var(ddof=1) / games + fast_scores.var(ddof=1) / fast_scores.size) ** 0.5
    assert abs(loop_scores.mean() - fast_scores.mean()) <= z * se


# -- rules validation ------------------------------------------------------------------------------------
RANGES = {"rerolls": (0, 3), "dice": (1, 8), "players": (2, 6), "target": (0, 48), "reroll_below": (0, 48)}


@settings(max_examples=50, deadline=None)
@given(bad_cases(RANGES))
def test_rules_reject_bad_values(case):
    assert_rejected(legit.Rules, RANGES, case)


def test_scores_out_of_reach():
    """Two dice score at most 12: beating 12 is impossible, and rerolling below 13 always rerolls."""
    f = legit.report(legit.Rules(dice=2, target=12, reroll_below=13)).figures
    assert f["p_beat_target_best"].exact == 0
    always = cache(
        lambda r, n: sum(
            (p * (t if r == 0 or m == 0 else always(r - 1, m)) for (m, t), p in after_roll(n).items()), F(0)
        )
    )
    assert f["heuristic_mean"].exact == always(3, 2)


# -- the first player's choices, by brute force (four dice, two rerolls, three players) -------------------
DICE4, REROLLS2, PLAYERS3 = 4, 2, 3


@cache
def first_keep(t: int, used: int) -> F:
    """The first player's share on keeping t after `used` rerolls (`legit.share`, checked above by
    enumerating the later players' scores)."""
    return legit.share(DICE4, PLAYERS3, t, used)


@cache
def first_value(r: int, n: int) -> F:
    """The first player's best share rolling n dice with r rerolls left afterwards."""
    used = REROLLS2 - r
    return sum(
        (
            p * (first_keep(t, used) if r == 0 or m == 0 else max(first_keep(t, used), first_value(r - 1, m)))
            for (m, t), p in after_roll(n).items()
        ),
        F(0),
    )


def test_first_hint_against_brute_force():
    """Keeping is worth the share at (total, rerolls used); rerolling, the recursion over the
    rolls of the dice left with the better of keep and reroll."""
    rules = legit.Rules(dice=DICE4, rerolls=REROLLS2, players=PLAYERS3)
    state = legit.initial_state(rules).roll(dice=(1, 1, 2, 3))  # no 7-pair: total 7
    hint = state.hint()
    assert hint.values == {"keep": first_keep(7, 0), "reroll": first_value(1, 4)}
    assert hint.best == max(hint.values, key=hint.values.get)
    state = state.roll(dice=(6, 1, 5, 5))  # one 1-6 pair: 5, 5 left, one reroll used
    assert state.hint().values == {"keep": first_keep(10, 1), "reroll": first_value(0, 2)}
    assert legit.initial_state(rules).hint().values == {"roll": first_value(REROLLS2, DICE4)}


def test_first_stops_by_a_forward_pass():
    """P(stop after exactly u rerolls) and the share given that, walking every roll with the
    brute-force decision (keep when keeping is worth at least as much as rerolling)."""
    stops = {u: [F(0), F(0)] for u in range(REROLLS2 + 1)}

    def walk(used: int, n: int, p: F) -> None:
        r = REROLLS2 - used
        for (m, t), q in after_roll(n).items():
            if r > 0 and m > 0 and first_value(r - 1, m) > first_keep(t, used):
                walk(used + 1, m, p * q)
            else:
                stops[used][0] += p * q
                stops[used][1] += p * q * first_keep(t, used)

    walk(0, DICE4, F(1))
    got = legit.first_stops(legit.Rules(dice=DICE4, rerolls=REROLLS2, players=PLAYERS3))
    assert got == {u: (p, won / p if p else None) for u, (p, won) in stops.items()}
    assert sum(p * s for p, s in got.values() if s is not None) == first_value(REROLLS2, DICE4)
    assert sum(p for p, _ in got.values()) == 1


def test_the_round_as_a_page_reads_it():
    """A seat's turn before it starts, the words of its moves, its goal, the machines, the result."""
    from nessus.games.legit.policies import First, machine_policies, seat_goal

    rules = legit.Rules(players=3)
    start = legit.initial_state(rules)
    assert start.seat_turn(0) == legit.TurnRecord(rules.rerolls) and seat_goal(start, 0) == First(3)
    first = start.roll(dice=(1, 6, 2, 2, 4, 5)).keep()  # 1-6 and 2-5 removed: 2 + 4 = 6, no reroll used
    assert first.seat_turn(1) == legit.TurnRecord(0) and seat_goal(first, 1) == legit.Chase(6)
    second = first.roll(dice=(6, 6, 6, 5, 5, 5))  # no pair: 33, the turn over (capped at no reroll)
    assert second.turn_of(1).over and second.result_text(you=1) == ""
    machines = machine_policies("best mean", rules, [2])
    assert list(machines) == [2] and machines[2] is not None
    rolled = second.roll(dice=(3, 4, 1, 1, 1, 1))  # 3-4 removed: 4 dice, total 4; it may not reroll
    assert rolled.is_terminal() and rolled.result_text(you=1) == "You win with 33."
    tie = legit.initial_state(legit.Rules(players=2)).roll(dice=(6, 6, 1, 2, 2, 2)).keep()
    tie = tie.roll(dice=(2, 2, 2, 1, 6, 6))
    assert tie.result_text(you=0) == "You and Player 2 share the win with 12 (a tie for the best score)."
    assert legit.initial_state().roll(dice=(1, 1, 1, 1, 1, 1)).move_text("keep") == "keep 6"
