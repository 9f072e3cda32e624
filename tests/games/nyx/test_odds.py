"""Nyx's exact odds against independent derivations: the closed binomial form and a brute force
over every face for the keep-matching chain; an independent value iteration and a Monte Carlo
run of the hinted keeps for the expected rolls to a shape."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from nessus.games import nyx
from nessus.games.nyx.matrix import placements
from nessus.games.nyx.odds import (
    FACES,
    SYMBOLS,
    Keep,
    expected_rolls_for_shape,
    keep_hint,
    p_at_least,
    p_shape_within,
    p_symbol,
    shape_game,
)

Z = 3.29  # two-sided 99.9%


@pytest.mark.parametrize("colour", list(FACES))
@pytest.mark.parametrize("symbol", SYMBOLS)
def test_keeping_matches_is_a_binomial_with_each_die_tried_r_times(symbol, colour):
    """A kept die stays matched, so each die matches within r rolls with P 1 - (1 - p)^r,
    independently of the others."""
    p = p_symbol(symbol, colour)
    for dice in (1, 3, 6):
        for rolls in (1, 2, 3):
            q = 1 - (1 - p) ** rolls
            for k in range(dice + 1):
                closed = sum(comb(dice, j) * q**j * (1 - q) ** (dice - j) for j in range(k, dice + 1))
                assert p_at_least(symbol, k, dice, rolls, colour) == closed


def test_keeping_matches_by_brute_force_over_every_face():
    """Two black dice, three rolls: every sequence of faces (each die rolled until it matches),
    the rule played out face by face."""
    faces = ["star"] * 3 + ["crescent"] * 2 + ["moon"]
    for symbol in SYMBOLS:
        hits = {k: 0 for k in range(3)}
        for throws in itertools.product(range(6), repeat=6):  # die d's roll r is throws[2 r + d]
            kept = [False, False]
            for r in range(3):
                for d in range(2):
                    if not kept[d] and faces[throws[2 * r + d]] == symbol:
                        kept[d] = True
            for k in range(3):
                hits[k] += sum(kept) >= k
        for k in range(3):
            assert p_at_least(symbol, k, dice=2, rolls=3) == Fraction(hits[k], 6**6)


def value_iteration_rolls(size: int, dice: int, colour: str) -> float:
    """The same chase solved independently, in floats: states (symbol kept, count kept), every
    roll of the free dice enumerated die by die, the best keep of each roll taken."""
    faces = FACES[colour]
    die = [s for s, n in zip(range(3), faces) for _ in range(n)]
    states = [(None, 0)] + [(s, m) for s in range(3) for m in range(1, size)]
    value = dict.fromkeys(states, 0.0)
    for _ in range(200):
        new = {}
        for held, m in states:
            total = 0.0
            for roll in itertools.product(die, repeat=dice - m):
                best = value[(None, 0)]
                for s in range(3):
                    showing = roll.count(s) + (m if s == held else 0)
                    for j in range(1, showing + 1):
                        best = min(best, 0.0 if j >= size else value[(s, j)])
                total += best
            new[(held, m)] = 1 + total / 6 ** (dice - m)
        if max(abs(new[s] - value[s]) for s in states) < 1e-13:
            break
        value = new
    return value[(None, 0)]


@pytest.mark.parametrize(
    ("size", "dice", "colour"), [(3, 4, "black"), (4, 5, "black"), (3, 5, "white"), (4, 4, "white")]
)
def test_expected_rolls_agree_with_an_independent_value_iteration(size, dice, colour):
    exact = expected_rolls_for_shape(size, dice, colour)
    assert isinstance(exact, Fraction)
    assert abs(float(exact) - value_iteration_rolls(size, dice, colour)) < 1e-9


def test_a_shape_no_bigger_than_a_third_of_the_dice_comes_at_the_first_roll():
    """Pigeonholes: n dice on 3 symbols always show ceil(n / 3) of one."""
    for dice in range(1, 10):
        for size in range(1, -(-dice // 3) + 1):
            assert expected_rolls_for_shape(size, dice) == 1
    assert expected_rolls_for_shape(3, 6) > 1


def test_the_hinted_keeps_take_the_expected_rolls_on_average():
    """20,000 chases of the L-tetromino (4 of a symbol, 6 black dice) playing keep_hint's best:
    the mean number of rolls within 99.9% of the exact expectation."""
    rng = np.random.default_rng(7)
    size, dice = 4, 6
    exact = float(expected_rolls_for_shape(size, dice))
    faces = np.array([0, 0, 0, 1, 1, 2])
    counts = []
    for _ in range(20_000):
        kept, rolls = None, 0
        while True:
            m = kept.count if kept else 0
            rolled = np.bincount(faces[rng.integers(0, 6, dice - m)], minlength=3)
            rolls += 1
            kept = keep_hint(size, tuple(int(c) for c in rolled), (kept.symbol, m) if m else None, dice).best
            if kept.count >= size:
                break
        counts.append(rolls)
    counts = np.array(counts)
    assert abs(counts.mean() - exact) <= Z * counts.std(ddof=1) / len(counts) ** 0.5


def test_stars_are_the_safe_chase_on_black_dice():
    """Six black dice showing two of each symbol, chasing four: keeping the two stars is best and
    keeping the moons worst; on white dice the three symbols are alike."""
    black = keep_hint(4, (2, 2, 2))
    assert black.best == Keep("star", 2)
    assert black.values[Keep("star", 2)] < black.values[Keep("crescent", 2)] < black.values[Keep("moon", 2)]
    white = keep_hint(4, (2, 2, 2), colour="white")
    assert len({white.values[Keep(s, 2, white=2)] for s in SYMBOLS}) == 1


def test_bad_parameters_are_value_errors_naming_them():
    with pytest.raises(ValueError, match="symbol must be one of star, crescent, moon"):
        p_at_least("sun", 1)
    with pytest.raises(ValueError, match="colour must be one of black, white"):
        p_at_least("star", 1, colour="red")
    with pytest.raises(ValueError, match="k must be an integer from 0 to 6"):
        p_at_least("star", 7)
    with pytest.raises(ValueError, match="size must be an integer from 1 to 6"):
        expected_rolls_for_shape(7, 6)
    with pytest.raises(ValueError, match="dice must be an integer from 1 to 15"):
        shape_game(2, 0, 0)
    with pytest.raises(ValueError, match="rolled must count"):
        keep_hint(4, (1, 2))
    with pytest.raises(ValueError, match="rolled and kept must make the 6 dice"):
        keep_hint(4, (1, 1, 1), kept=("star", 1))


# --- the report: the figures are the odds and the matrix counted again, the dice gains respect
# the nine-black-dice cap
def test_the_headline_is_the_rulebooks_l_of_moons_on_six_black_dice():
    r = nyx.report()
    assert r.rules["shape"] == "L4" and r.rules["symbol"] == "moon" and r.rules["dice"] == 6
    assert r.figures["placements"].exact == len(placements("L4")) == 16
    assert r.figures["p_shape_within"].exact == p_shape_within(4, 3, 6, 0)
    gains = {c: r.figures[f"{c}_die_gain"].exact for c in ("black", "white")}
    assert gains["black"] == p_shape_within(4, 3, 7, 0) - p_shape_within(4, 3, 6, 0)
    assert gains["white"] == p_shape_within(4, 3, 6, 1) - p_shape_within(4, 3, 6, 0)
    assert "placements_free" not in r.figures
    assert r.figures["black_die_value"].exact == 4 * gains["black"]  # kept for the 4 nights left
    assert r.figures["white_die_value"].exact == gains["white"]  # one night


def test_blocked_cells_count_the_placements_left():
    r = nyx.report(nyx.Rules(shape="L3", blocked="5"))
    by_hand = [p for p in placements("L3") if 5 not in p]
    assert r.figures["placements_free"].exact == len(by_hand) == 4  # each 2x2 box holds one L3 missing the centre


def test_no_tenth_black_die_is_offered():
    r = nyx.report(nyx.Rules(dice=9))
    assert "black_die_gain" not in r.figures and "white_die_gain" in r.figures
    white = nyx.report(nyx.Rules(dice=9, colour="white"))
    assert "black_die_gain" in white.figures
