"""Les Royaumes (RULES.md section 7) against enumeration over the 36 ordered pairs of 2d6 for the
bank and for the player, with the kingdoms parsed here from the rulebook's text, and the fines
as a geometric series summed term by term."""

from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import pytest
from checks import coverage
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from nessus.games import royaumes
from nessus.games.royaumes.odds import duel_figures
from nessus.games.royaumes.state import seat_name

F = Fraction
# The rulebook's lists, lowest to highest (seeds/jeux-populaires-de-nessus.txt).
TEXT = {
    "Gahanam": "1-1, 2-1, 3-1, 4-1, 5-1, 6-1, 2-2",
    "Teur": "3-2, 4-2, 5-2, 6-2, 3-3, 4-3, 5-3",
    "Elysium": "6-3, 4-4, 5-4, 6-4, 5-5, 6-5, 6-6",
}
PLACE = {frozenset(map(int, r.split("-"))): (k, i) for k, text in TEXT.items() for i, r in enumerate(text.split(", "))}
PAIRS = list(product(range(1, 7), repeat=2))


def place(a: int, b: int) -> tuple[str, int]:
    """(kingdom, rank) of the ordered pair (a, b)."""
    return PLACE[frozenset((a, b))]


def bank_effect(a: int, b: int) -> str:
    kingdom, rank = place(a, b)
    return "wins" if rank == 6 else "pays" if rank == 0 else "duel"


def duel_odds(a: int, b: int) -> tuple[Fraction, Fraction]:
    """(P(the player beats the bank's (a, b)), P(one player roll lands in its kingdom)), counting
    the player's ordered pairs: the first in-kingdom roll is uniform over those pairs."""
    kingdom, rank = place(a, b)
    inside = [p for p in PAIRS if place(*p)[0] == kingdom]
    higher = [p for p in inside if place(*p)[1] > rank]
    return F(len(higher), len(inside)), F(len(inside), 36)


@cache
def fines_series(q: Fraction, terms: int = 400) -> Fraction:
    """sum_k k (1 - q)^k q, cut after `terms` terms (the rest is below 1e-40 here); kept once
    per q (a kingdom's size: three values), as 400 exact terms take a while."""
    return sum((k * (1 - q) ** k * q for k in range(terms)), F(0))


def by_enumeration(fine: Fraction) -> dict[str, Fraction]:
    out = dict.fromkeys(("wins", "pays", "duel", "fines", "ev"), F(0))
    for a, b in PAIRS:
        effect = bank_effect(a, b)
        if effect == "wins":
            out["wins"] += F(1, 36)
            out["ev"] -= F(1, 36)
        elif effect == "pays":
            out["pays"] += F(1, 36)
            out["ev"] += F(1, 36)
        else:
            p, q = duel_odds(a, b)
            out["duel"] += p / 36
            out["fines"] += fines_series(q) / 36
            out["ev"] += (p - (1 - p) - fine * fines_series(q)) / 36
    return out


ENUM = by_enumeration(F(1, 10))


def close(x: Fraction, y: Fraction) -> bool:
    return abs(x - y) < F(1, 10**30)


def test_kingdom_sizes_and_special_results():
    assert [royaumes.p_kingdom(k) for k in ("Gahanam", "Teur", "Elysium")] == [F(12, 36), F(13, 36), F(11, 36)]
    assert royaumes.p_bank_wins_all() == ENUM["wins"] == F(4, 36)
    assert royaumes.p_bank_pays_all() == ENUM["pays"] == F(5, 36)
    for a, b in PAIRS:
        r = royaumes.result_of((a, b))
        assert (royaumes.kingdom_of(r), royaumes.rank_of(r)) == place(a, b)
        assert (
            royaumes.bank_outcome(r)
            == {"wins": "bank wins all", "pays": "bank pays all", "duel": "duel"}[bank_effect(a, b)]
        )


def test_duel_odds_per_bank_result():
    for a, b in PAIRS:
        if bank_effect(a, b) == "duel":
            p, q = duel_odds(a, b)
            r = royaumes.result_of((a, b))
            assert royaumes.p_player_beats(r) == p
            assert close(royaumes.fines_expected(r), fines_series(q))


def test_headline_figures_by_enumeration():
    assert royaumes.p_player_wins_duel() == ENUM["duel"]
    assert close(royaumes.fines_per_round(), ENUM["fines"])
    assert close(royaumes.player_ev(F(1, 10)), ENUM["ev"])


@settings(max_examples=30, deadline=None)
@given(st.fractions(min_value=0, max_value=1, max_denominator=1000))
def test_ev_is_affine_in_the_fine(fine):
    rules = royaumes.Rules(fine=fine)
    rep = royaumes.report(rules).figures
    ev = rep["player_ev"].exact
    assert ev == royaumes.player_ev(F(0)) - fine * royaumes.fines_per_round()
    assert rep["bank_edge"].exact == -ev
    assert rep["expected_fines"].exact == fine * rep["expected_fine_count"].exact
    assert rep["mean_bank_net"].exact == -ev * rules.players * rules.rounds


def test_ev_against_enumeration_for_several_fines():
    for fine in (F(0), F(1, 20), F(1, 3), F(1)):
        assert close(royaumes.player_ev(fine), by_enumeration(fine)["ev"])


def test_fair_fine_makes_ev_zero():
    assert royaumes.player_ev(royaumes.fair_fine()) == 0
    assert royaumes.fair_fine() < 0  # the bank is ahead even without fines


def test_duel_table():
    table = royaumes.duel_table()
    assert table.height == 21
    assert sum(F(x) for x in table["p_bank_rolls_exact"]) == 1
    assert sum(
        F(p) * F(v) for p, v in zip(table["p_bank_rolls_exact"], table["player_ev_exact"])
    ) == royaumes.player_ev(F(1, 10))


def test_ev_by_fine_and_the_bank_over_a_game():
    """The EV chart's points: the grid 0, 1/20, ..., 1 and the fine shown, each with the enumerated EV;
    the bank's expected net over a game is the players' EV times players times rounds, negated."""
    points = royaumes.ev_by_fine(F(1, 3))
    assert [f for f, _ in points] == sorted({F(k, 20) for k in range(21)} | {F(1, 3)})
    assert all(close(ev, by_enumeration(f)["ev"]) for f, ev in points if f in (0, F(1, 3), 1))
    assert royaumes.bank_ev(F(1, 10), 4, 20) == -20 * 4 * royaumes.player_ev(F(1, 10))
    assert royaumes.report().figures["mean_bank_net"].exact == royaumes.bank_ev(F(1, 10), 4, 20)


def test_report_figures():
    rep = royaumes.report()
    assert {
        "p_bank_wins_all",
        "p_bank_pays_all",
        "p_player_wins_duel",
        "expected_fines",
        "player_ev",
        "bank_edge",
    } <= set(rep.figures)
    assert rep.rules == {"fine": "1/10", "players": 4, "rounds": 20}


# -- Monte Carlo -----------------------------------------------------------------------------------
SEED = 20
WIDEN = stats.norm.ppf(0.9995) / stats.norm.ppf(0.975)


def covers(ci: tuple[float, float], x: float) -> bool:
    """x within the 95% interval widened to 99.9% (about 10 figures are checked together)."""
    mid, half = (ci[0] + ci[1]) / 2, (ci[1] - ci[0]) / 2 * WIDEN
    return mid - half <= x <= mid + half


@pytest.mark.parametrize("kw", [{}, dict(fine=F(1, 2), players=2, rounds=5)])
def test_simulation_agrees_with_exact(kw):
    rules = royaumes.Rules(**kw)
    exact = royaumes.report(rules).figures
    sim = royaumes.simulate(rules, trials=100_000, seed=SEED).figures
    common = set(exact) & set(sim)
    assert {
        "p_bank_wins_all",
        "p_bank_pays_all",
        "p_player_wins_duel",
        "expected_fines",
        "player_ev",
        "bank_edge",
        "mean_bank_net",
    } <= common
    for name in common:
        assert covers(sim[name].ci, exact[name].value), (name, exact[name].value, sim[name].ci)
    seats = [sim[f"p_ahead_seat_{i}"] for i in range(1, rules.players + 1)]
    assert all(covers(s.ci, seats[0].value) for s in seats)  # the players are exchangeable


def test_simulation_coverage():
    rules = royaumes.Rules(players=2, rounds=3)
    exact = {k: f.value for k, f in royaumes.report(rules).figures.items()}
    covered, need = coverage(lambda seed: royaumes.simulate(rules, trials=2000, seed=seed).figures, exact)
    assert {"p_player_wins_duel", "player_ev", "mean_bank_net"} <= set(covered)
    assert all(c >= need for c in covered.values()), covered


def test_one_round_distribution_by_pair():
    """play_rounds: the bank's pair is uniform and a player's fines are geometric with the kingdom's q."""
    rng = np.random.default_rng(1)
    bank, won, fines = royaumes.play_rounds(rng, 200_000, 1)
    counts = np.bincount(bank, minlength=36)
    assert stats.chisquare(counts).pvalue > 1e-3
    teur = np.isin(
        bank,
        [
            i
            for i in range(36)
            if place(i // 6 + 1, i % 6 + 1)[0] == "Teur" and bank_effect(i // 6 + 1, i % 6 + 1) == "duel"
        ],
    )
    f = fines[teur, 0]
    q = 13 / 36
    observed = np.bincount(np.minimum(f, 8), minlength=9)
    expected = [(1 - q) ** k * q for k in range(8)] + [(1 - q) ** 8]
    assert stats.chisquare(observed, np.array(expected) * f.size).pvalue > 1e-3


# -- a round at the table --------------------------------------------------------------------------
def test_round_special_results_end_it():
    for dice, gain in (((2, 2), -1), ((3, 5), -1), ((1, 1), 1), ((2, 3), 1)):
        rnd = royaumes.initial_state(royaumes.Rules(players=3, rounds=1)).roll(dice=dice)
        assert (
            rnd.is_terminal()
            and rnd.round_over
            and rnd.nets == (gain,) * 3
            and rnd.bank_net == -3 * gain
            and rnd.to_roll is None
        )
        with pytest.raises(ValueError, match="over"):
            rnd.roll(dice=(1, 2))


def test_round_duel_with_fines():
    """Bank 4-2 (Teur, rank 1). Player 1: 1-1 (Gahanam, fine), 6-6 (Elysium, fine), 3-3 (rank 4:
    wins). Player 2: 3-2 (rank 0: loses)."""
    rules = royaumes.Rules(players=2, fine=F(1, 10))
    rnd = royaumes.initial_state(rules)
    assert rnd.to_roll == "bank"
    rnd = rnd.roll(dice=(2, 4))
    assert rnd.bank_result == (4, 2) and rnd.outcome == "duel" and rnd.to_roll == "player 1"
    for dice in ((1, 1), (6, 6), (3, 3)):
        rnd = rnd.roll(dice=dice)
    assert rnd.nets[0] == 1 - F(2, 10) and rnd.fines == (2, 0) and rnd.to_roll == "player 2"
    rnd = rnd.roll(dice=(2, 3))
    assert rnd.round_over and rnd.nets == (F(8, 10), F(-1)) and rnd.bank_net == F(2, 10)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.data())
def test_round_money_and_order(players, data):
    rules = royaumes.Rules(players=players)
    rnd = royaumes.initial_state(rules)
    pair = st.tuples(st.integers(1, 6), st.integers(1, 6))
    for _ in range(300):
        if rnd.round_over:
            break
        rnd = rnd.roll(dice=data.draw(pair))
    if rnd.round_over:
        assert rnd.bank_net == -sum(rnd.nets)
        for net, fines in zip(rnd.nets, rnd.fines):
            assert net + fines * rules.fine in ((1, -1) if rnd.outcome == "duel" else (-rnd.bank_net / players,))


def test_round_with_a_generator_and_bad_dice():
    rng = np.random.default_rng(4)
    rnd = royaumes.initial_state()
    while not rnd.round_over:
        rnd = rnd.roll(rng)
    assert rnd.to_roll is None
    with pytest.raises(ValueError, match="rng or dice"):
        royaumes.initial_state().roll()
    for bad in ((0, 1), (1, 2, 3), (7, 1), (1.0, 2)):
        with pytest.raises(ValueError, match="dice"):
            royaumes.initial_state().roll(dice=bad)


def duel_value(a: int, b: int, fine: Fraction) -> Fraction:
    """A player's expected net in a duel against the bank's (a, b) from its first roll, by the
    ordered pairs and the fines' series: P(beat) - P(not) - fine E[fines]."""
    p, q = duel_odds(a, b)
    return p - (1 - p) - fine * fines_series(q)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.fractions(min_value=0, max_value=1, max_denominator=100), st.data())
def test_expected_nets_from_any_point_of_a_round(players, fine, data):
    """Before the bank rolls: the enumerated EV per player; then, roll by roll, settled players
    keep their net and the others add the duel's value to what they have paid so far."""
    rnd = royaumes.initial_state(royaumes.Rules(players=players, fine=fine))
    assert all(close(e, by_enumeration(fine)["ev"]) for e in royaumes.expected_nets(rnd))
    pair = st.tuples(st.integers(1, 6), st.integers(1, 6))
    for _ in range(40):
        if rnd.round_over:
            break
        rnd = rnd.roll(dice=data.draw(pair))
        nets = royaumes.expected_nets(rnd)
        bank = rnd.bank
        if rnd.round_over:
            assert nets == rnd.nets
            continue
        settled = int(rnd.to_roll.split()[1]) - 1
        for i in range(players):
            if i < settled:
                assert nets[i] == rnd.nets[i] and rnd.nets[i] + rnd.fines[i] * fine in (1, -1)
            else:
                assert close(nets[i], -rnd.fines[i] * fine + duel_value(*bank, fine))


# -- whole games through the protocol ----------------------------------------------------------------
def test_a_whole_game_carries_each_round_into_the_totals():
    rules = royaumes.Rules(players=2, rounds=2, fine=F(1, 10))
    state = royaumes.initial_state(rules)
    for dice in ((6, 6), (4, 2), (1, 1), (3, 3), (2, 3)):  # bank wins all; then a duel: fine, win; lose
        assert not state.is_terminal()
        state = state.roll(dice=dice)
    assert state.is_terminal() and state.round == 2
    assert state.returns() == [-1 + 1 - F(1, 10), -1 - 1]
    assert state.banked() == tuple(state.returns())


def test_seat_status_duels_won_and_rounds_finished():
    """Each seat's place in the duel, the players who beat the bank, the rounds over."""
    state = royaumes.initial_state(royaumes.Rules(players=3, rounds=5, fine=F(1, 10)))
    assert [state.seat_status(i) for i in range(3)] == ["to roll"] * 3 and state.rounds_finished == 0
    state = state.roll(dice=(4, 2))  # Teur, rank 2: a duel
    assert [state.seat_status(i) for i in range(3)] == ["rolling", "waiting", "waiting"] and state.rounds_finished == 0
    state = state.roll(dice=(1, 1)).roll(dice=(3, 3))  # a fine, then a win
    assert [state.seat_status(i) for i in range(3)] == ["settled", "rolling", "waiting"] and state.duels_won() == 1
    state = state.roll(dice=(3, 2)).roll(dice=(5, 3))  # a loss, a win: the round is over
    assert state.round_over and state.duels_won() == 2 and state.rounds_finished == 1
    bank = state.cleared().roll(dice=(2, 2))  # the bank takes every stake
    assert [bank.seat_status(i) for i in range(3)] == ["settled"] * 3 and bank.duels_won() == 0
    assert bank.rounds_finished == 2


def test_cleared_round_leads_to_the_same_state():
    state = royaumes.initial_state(royaumes.Rules(players=2, rounds=3)).roll(dice=(2, 2))
    assert state.round_over and state.to_roll is None
    assert state.cleared().roll(dice=(1, 1)) == state.roll(dice=(1, 1))
    assert state.cleared().to_roll == "bank" and state.cleared().totals == (-1, -1)


def test_the_round_in_words_who_rolls_next_and_the_last_roll():
    """A roll told (`describe`: every case), who rolls next (`rolls_next`, `next_up`) and the last player roll."""
    state = royaumes.initial_state(royaumes.Rules(players=2, rounds=3))
    assert state.describe((2, 2)) == "the bank takes every stake."
    assert state.describe((3, 2)) == "the bank pays every player a stake."
    assert state.describe((2, 4)) == "(Teur, rank 2 of 7): each player must beat it in Teur."
    assert state.rolls_next(None) and not state.rolls_next(0) and state.last_roll is None
    duel = state.roll(dice=(4, 2))
    assert duel.describe((1, 1)) == "(Gahanam): not in Teur, a fine of 1/10."
    assert duel.describe((5, 3)) == "(rank 7): beats 4-2, wins a stake."
    assert duel.describe((3, 2)) == "(rank 1): does not beat 4-2, loses the stake."
    assert duel.rolls_next(0) and not duel.rolls_next(None)
    assert [duel.next_up(you) for you in (0, 1, None)] == ["you roll", "Player 1 rolls", "Player 1 rolls"]
    after = duel.roll(dice=(1, 1)).roll(dice=(3, 3)).roll(dice=(6, 1))
    assert after.last_roll == (1, (1, 6)) and after.rolls_next(1)
    over = after.roll(dice=(3, 4))
    assert over.round_over and not any(over.rolls_next(s) for s in (0, 1, None))
    assert over.describe((6, 6)) == "the bank takes every stake."  # the next round's first roll
    assert royaumes.result_text((5, 3)) == "5-3" and royaumes.place_text((6, 6)) == "Elysium, rank 7 of 7"


def test_the_round_summed_up_the_seats_named_and_the_duel_figures():
    """A finished round in a sentence (`summary`, every outcome), a seat's name and the hint's figures."""
    state = royaumes.initial_state(royaumes.Rules(players=2, rounds=3))
    assert state.roll(dice=(1, 1)).summary() == "the bank rolled 1-1 and paid every player."
    over = state.roll(dice=(4, 2)).roll(dice=(5, 3)).roll(dice=(1, 1)).roll(dice=(3, 2))
    assert over.round_over
    assert over.summary() == "against the bank's 4-2, 1 of 2 players won; the bank's net 1/10."
    assert [seat_name(s, you) for s, you in ((0, 0), (1, 0), (None, 0), (None, None))] == [
        "You",
        "Player 2",
        "The bank",
        "You (the bank)",
    ]
    fine = Fraction(1, 10)
    before = duel_figures(None, fine)
    assert [v for _, v, _ in before] == [
        royaumes.p_bank_wins_all(),
        royaumes.p_bank_pays_all(),
        royaumes.p_player_wins_duel(),
        royaumes.fines_per_round(),
    ]
    assert duel_figures((2, 2), fine) == [] and duel_figures((3, 2), fine) == []
    name, ev, unit = duel_figures((4, 2), fine)[-1]
    assert ev == royaumes.player_ev_given((4, 2), fine) and unit == "stakes"


Z_999 = 3.290527  # two-sided 99.9% normal quantile


def test_fast_games_agree_with_the_generic_loop():
    """The vectorised whole games (`game_kernel`, 20,000) and the generic loop over the State
    (`nessus.play.play`, 400): the bank's mean net and P(seat 1 ends ahead) agree within z(99.9%)
    times the standard error of their difference."""
    from nessus.play import play

    rules = royaumes.Rules(players=3, rounds=4)
    fast = royaumes.game_kernel(rules, np.random.default_rng(1), 20_000)
    rng = np.random.default_rng(2)
    ends = [play(royaumes.initial_state(rules), {}, rng).returns() for _ in range(400)]
    loop = {
        "mean_bank_net": np.array([-float(sum(r)) for r in ends]),
        "p_ahead_seat_1": np.array([r[0] > 0 for r in ends], dtype=float),
    }
    for key, b in loop.items():
        a = np.asarray(fast[key], dtype=float)
        se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
        assert abs(a.mean() - b.mean()) <= Z_999 * se, (key, a.mean(), b.mean(), se)
