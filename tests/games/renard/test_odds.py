"""Le Renard (RULES.md section 2): P(triple) by enumerating 3d6, the expected value by hand,
and the ruin probability by the hitting-time theorem and by enumerating win/lose sequences."""

from collections import Counter
from fractions import Fraction
from itertools import product
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.games import renard

TRIPLES = sum(1 for d in product(range(1, 7), repeat=3) if d[0] == d[1] == d[2])
P = Fraction(TRIPLES, 6**3)  # 6/216 = 1/36, by enumeration
Q = 1 - P


def test_p_win_by_enumeration():
    assert renard.p_win() == P == Fraction(6, 216) == Fraction(1, 36)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 100))
def test_ev_per_stake_for_every_payout(payout):
    """E[gain] = payout * 1/36 - 35/36 = (payout - 35)/36, also by averaging over the 216 rolls."""
    rules = renard.Rules(payout=payout)
    by_rolls = Fraction(sum(payout if d[0] == d[1] == d[2] else -1 for d in product(range(1, 7), repeat=3)), 216)
    assert renard.ev_per_stake(rules) == Fraction(payout - 35, 36) == by_rolls
    rep = renard.report(rules).figures
    assert rep["house_edge"].exact == -Fraction(payout - 35, 36)


def test_fair_payout_is_35():
    """(1 - p)/p = 35, and at payout 35 the expected gain is exactly 0."""
    assert renard.fair_payout() == 35
    assert renard.ev_per_stake(renard.Rules(payout=35)) == 0


# -- ruin ---------------------------------------------------------------------------------------
def ruin_by_hitting_time(payout: int, units: int, rounds: int) -> Fraction:
    """Hitting-time (Kemperman / ballot) theorem for a walk with steps +payout (p) and -1 (q),
    skip-free downwards: P(first reach 0 at step k from u0) = (u0/k) C(k, W) p^W q^(k-W), where
    k = u0 + (payout + 1) W. Summed over the k <= rounds."""
    total = Fraction(0)
    w = 0
    while (k := units + (payout + 1) * w) <= rounds:
        total += Fraction(units, k) * comb(k, w) * P**w * Q ** (k - w)
        w += 1
    return total


def brute_bankroll(rules) -> tuple[dict[int, Fraction], Fraction]:
    """Walk all 2**rounds win/lose sequences (weight p^W q^L): final money and P(ruin)."""
    units, rest = divmod(rules.bankroll, rules.stake)
    final: Counter = Counter()
    ruined_weight = 0
    for seq in product((True, False), repeat=rules.rounds):
        u = units
        for win in seq:
            if u == 0:
                break
            u += rules.payout if win else -1
        wins = sum(seq)
        weight = TRIPLES**wins * (216 - TRIPLES) ** (rules.rounds - wins)
        final[u * rules.stake + rest] += weight
        ruined_weight += weight if u == 0 else 0
    den = 216**rules.rounds
    return {m: Fraction(w, den) for m, w in final.items()}, Fraction(ruined_weight, den)


@pytest.mark.parametrize(
    "kw",
    [
        {},  # the defaults: payout 10, stake 1, bankroll 50, 100 rounds
        dict(payout=4, stake=1, bankroll=3, rounds=40),
        dict(payout=20, stake=3, bankroll=40, rounds=200),
        dict(payout=35, stake=7, bankroll=50, rounds=300),
        dict(payout=1, stake=1, bankroll=1, rounds=1),
    ],
)
def test_p_ruin_matches_the_hitting_time_theorem(kw):
    rules = renard.Rules(**kw)
    units = rules.bankroll // rules.stake
    assert renard.p_ruin(rules) == ruin_by_hitting_time(rules.payout, units, rules.rounds)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(1, 4), st.integers(0, 7), st.integers(0, 3), st.integers(1, 10))
def test_bankroll_after_matches_enumerating_all_sequences(payout, stake, extra_units, rest, rounds):
    rules = renard.Rules(payout=payout, stake=stake, bankroll=stake * (1 + extra_units) + rest % stake, rounds=rounds)
    final, ruined = brute_bankroll(rules)
    assert dict(renard.bankroll_after(rules).items()) == final
    assert renard.p_ruin(rules) == ruined
    assert ruined == ruin_by_hitting_time(payout, rules.bankroll // stake, rounds)


@pytest.mark.parametrize(
    "kw", [dict(payout=10, stake=2, bankroll=200, rounds=50), dict(payout=40, stake=5, bankroll=109, rounds=20)]
)
def test_bankroll_mean_without_possible_ruin(kw):
    """More stakes than rounds: no ruin, so E[final] = bankroll + rounds * stake * (payout - 35)/36."""
    rules = renard.Rules(**kw)
    d = renard.bankroll_after(rules)
    assert sum(p for _, p in d.items()) == 1
    assert renard.p_ruin(rules) == 0
    assert d.mean() == rules.bankroll + rules.rounds * rules.stake * Fraction(rules.payout - 35, 36)


@pytest.mark.parametrize("kw", [dict(stake=1, bankroll=5, rounds=60), dict(stake=3, bankroll=11, rounds=80)])
def test_fair_game_keeps_the_mean_bankroll(kw):
    """At payout 35 the bankroll in stakes is a martingale stopped at 0: E[final] = bankroll."""
    rules = renard.Rules(payout=35, **kw)
    assert renard.bankroll_after(rules).mean() == rules.bankroll
    assert renard.p_ruin(rules) > 0


def test_ruin_by_round_is_the_running_hitting_time_sum():
    if not hasattr(renard, "ruin_by_round"):
        pytest.skip("renard.ruin_by_round not present")
    rules = renard.Rules(payout=10, stake=2, bankroll=9, rounds=30)
    curve = renard.ruin_by_round(rules)
    assert len(curve) == 30
    assert curve == [ruin_by_hitting_time(10, 4, r) for r in range(1, 31)]
    assert curve[-1] == renard.p_ruin(rules)


def test_report_figures():
    rules = renard.Rules(payout=12, stake=2, bankroll=25, rounds=30)
    rep = renard.report(rules)
    assert {"p_win", "ev_per_stake", "fair_payout", "house_edge", "p_ruin"} <= set(rep.figures)
    f = rep.figures
    assert f["p_win"].exact == P
    assert f["ev_per_stake"].exact == Fraction(12 - 35, 36)
    assert f["fair_payout"].exact == 35
    assert f["p_ruin"].exact == ruin_by_hitting_time(12, 12, 30)
    assert rep.rules == {"payout": 12, "stake": 2, "bankroll": 25, "rounds": 30}
