"""Le Naute's exact figures and solver (`nessus.games.naute.odds`, `nessus.games.naute.expedition`)
against independent computations written here (RULES.md section 3):

- brute-force expectimax over ORDERED dice: every ordered roll, ship/captain/crew found by
  scanning positions, every subset of cargo positions kept (sticky, free and both rules), for 1,
  2 and 3 rolls and several objectives (expected cargo, P(cargo > t), P(qualify));
- the first roll by inclusion-exclusion: P(6, 5 and 4 among 5 dice) = 205/1296;
- small cargo decisions worked by hand.
"""

from fractions import Fraction
from functools import cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nessus.games import naute
from nessus.games.naute.expedition import game, start

F = Fraction
RULES = ("sticky", "free", "both")


# -- independent references ----------------------------------------------------------------------
def board(aboard: int, roll: tuple) -> tuple[int, tuple]:
    """Scan the positions for the 6, then the 5, then the 4: (aboard, the dice left)."""
    used = [False] * len(roll)
    for face in (6, 5, 4)[aboard:]:
        pos = next((i for i, d in enumerate(roll) if d == face and not used[i]), None)
        if pos is None:
            break
        used[pos] = True
        aboard += 1
    return aboard, tuple(d for d, u in zip(roll, used) if not u)


def brute(payoff, rule: str, rolls: int = 3, cargo_policy=None) -> Fraction:
    """E[payoff(cargo)] over ordered dice, the cargo played optimally (or by `cargo_policy`,
    a function (left, kept, free) -> mask of the cargo positions to keep, or None to stop)."""

    @cache
    def cargo(left: int, kept: tuple, free: tuple) -> Fraction:
        stop = F(payoff(sum(kept) + sum(free)))
        if left == 0 or not free:
            return stop
        dice = kept + free

        def reroll(mask: int) -> Fraction:
            chosen = tuple(d for i, d in enumerate(dice) if mask >> i & 1)
            n = len(dice) - len(chosen)
            return sum((cargo(left - 1, chosen, new) for new in product(range(1, 7), repeat=n)), F(0)) / 6**n

        if cargo_policy is not None:
            mask = cargo_policy(left, kept, free)
            return stop if mask is None else reroll(mask)
        best = stop
        for mask in range(2 ** len(dice) - 1):
            kept_mask = (1 << len(kept)) - 1
            if rule == "sticky" and mask & kept_mask != kept_mask:
                continue
            if rule == "both" and mask:
                continue
            best = max(best, reroll(mask))
        return best

    @cache
    def hunt(left: int, aboard: int) -> Fraction:
        if left == 0:
            return F(payoff(0))
        n = 5 - aboard
        total = F(0)
        for roll in product(range(1, 7), repeat=n):
            now, rest = board(aboard, roll)
            total += cargo(left - 1, (), rest) if now == 3 else hunt(left - 1, now)
        return total / 6**n

    return hunt(rolls, 0)


def keep_four_or_more(left, kept, free):
    """The heuristic for the brute force: keep the free cargo dice of 4 or more."""
    low = [i for i, d in enumerate(free) if d < 4]
    if not low:
        return None
    return (1 << len(kept)) - 1 | sum(1 << (len(kept) + i) for i, d in enumerate(free) if d >= 4)


# -- qualifying ---------------------------------------------------------------------------------------
def test_first_roll_by_inclusion_exclusion():
    """P(a 6, a 5 and a 4 among 5 dice) = 1 - 3 (5/6)^5 + 3 (4/6)^5 - (3/6)^5 = 1230/7776."""
    p = 1 - 3 * F(5, 6) ** 5 + 3 * F(4, 6) ** 5 - F(3, 6) ** 5
    assert p == F(205, 1296) == naute.p_qualify_by_roll()[0]


@pytest.mark.parametrize("rolls", [1, 2, 3])
def test_p_qualify_by_roll_against_ordered_brute_force(rolls):
    assert naute.p_qualify_by_roll(rolls)[-1] == brute(lambda c: int(c > 0), "sticky", rolls)
    assert naute.p_qualify_by_roll(3)[:rolls] == naute.p_qualify_by_roll(rolls)


def test_report_figures_are_the_brute_force_values():
    figures = naute.report().figures
    by_roll = [brute(lambda c: int(c > 0), "sticky", k) for k in (1, 2, 3)]
    assert [figures[f"p_qualify_by_roll_{k}"].exact for k in (1, 2, 3)] == by_roll
    assert figures["p_qualify"].exact == by_roll[-1]
    mean = brute(lambda c: c, "sticky")
    assert figures["optimal_cargo_mean"].exact == mean
    assert figures["optimal_cargo_mean_when_qualified"].exact == mean / by_roll[-1]
    assert figures["heuristic_cargo_mean"].exact == brute(lambda c: c, "sticky", cargo_policy=keep_four_or_more)
    assert figures["heuristic_cargo_mean"].exact < mean


# -- optimal play against brute force ------------------------------------------------------------------
@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("rolls", [1, 2, 3])
def test_expected_cargo_against_ordered_brute_force(rule, rolls):
    value = game(naute.CargoMean(), rule, rolls).value(start(rolls))
    assert value == brute(lambda c: c, rule, rolls)


@settings(max_examples=12, deadline=None)
@given(st.integers(-1, 12), st.sampled_from(RULES), st.integers(2, 3))
def test_p_beat_against_ordered_brute_force(target, rule, rolls):
    value = game(naute.Above(target), rule, rolls).value(start(rolls))
    assert value == brute(lambda c: int(c > target), rule, rolls)
    if rolls == 3:
        assert naute.p_beat(target, naute.Rules(cargo_holds=rule)) == value


def test_p_beat_edges_and_order():
    p = [naute.p_beat(t) for t in range(-1, 13)]
    assert p == sorted(p, reverse=True)
    assert p[0] == 1  # even staying in port (0) beats -1
    assert p[1] == p[2] == naute.p_qualify_by_roll()[-1] > p[3]  # every cargo is at least 2
    assert p[-1] == 0


def test_both_rule_loses_expected_cargo_and_free_gains_nothing():
    """Free rerolls of kept dice are never worth it for the expected cargo; forcing both dice
    to be rerolled together costs."""
    sticky, free, both = (naute.optimal_cargo_mean(naute.Rules(cargo_holds=r)) for r in RULES)
    assert free == sticky > both


def test_cargo_decisions_by_hand():
    """One roll left. 4-4: stop 8, keep a 4 and roll 4 + 7/2, roll both 7. 6-1: keep the 6."""
    g = game(naute.CargoMean())
    hint = g.hint(("cargo", 1, (), (4, 4)))
    assert hint.values == {"stop": 8, (4,): F(15, 2), (): 7} and hint.best == "stop"
    hint = g.hint(("cargo", 1, (), (1, 6)))
    assert hint.values == {"stop": 7, (1,): F(9, 2), (6,): F(19, 2), (): 7} and hint.best == (6,)
    two = g.hint(("cargo", 2, (6,), (1,)))  # keep the 6; the 1 may be rolled twice: 6 + 17/4
    assert two.values == {"stop": 7, (6,): 6 + F(17, 4)}
