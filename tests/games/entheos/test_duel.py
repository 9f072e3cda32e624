"""The isolated duel: the chain's distribution equals a brute force over every face sequence
(turn rules written again here from RULES.md part 5, not `battle.resolve`), its mean is 6 + T/6,
it is symmetric, and an independent simulation agrees with it."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from nessus.games.entheos import battle
from nessus.games.entheos.duel import duel, face_pairs, turn
from nessus.games.entheos.heroes import DUEL_HERO, FACES
from nessus.montecarlo import wilson

RULEBOOK = {"blue": "steal 1", "green": "steal 3", "yellow": "+1 own side", "mauve": "others steal 1 less"}


def by_the_rulebook(a: int, b: int, face_a: str, face_b: str) -> tuple[int, int]:
    """One turn of Ulysses against his twin, read off the rulebook's card for Ulysses."""
    a1 = a + (RULEBOOK.get(face_a) == "+1 own side")
    b1 = b + (RULEBOOK.get(face_b) == "+1 own side")
    steal = {"steal 1": 1, "steal 3": 3}
    take_a = max(0, steal.get(RULEBOOK.get(face_a, ""), 0) - (face_b == "mauve"))
    take_b = max(0, steal.get(RULEBOOK.get(face_b, ""), 0) - (face_a == "mauve"))
    take_a, take_b = min(take_a, b1), min(take_b, a1)
    return a1 + take_a - take_b, b1 + take_b - take_a


def brute_force(turns: int) -> dict[tuple[int, int], Fraction]:
    counts: Counter[tuple[int, int]] = Counter()
    for faces in itertools.product(itertools.product(FACES, FACES), repeat=turns):
        a, b = 6, 6
        for face_a, face_b in faces:
            a, b = by_the_rulebook(a, b, face_a, face_b)
        counts[a, b] += 1
    total = 36**turns
    return {ab: Fraction(c, total) for ab, c in counts.items()}


def test_the_data_gives_ulysses_the_rulebooks_card():
    assert DUEL_HERO.name == "Ulysses" and not DUEL_HERO.assumed
    assert [DUEL_HERO.action(f) for f in FACES] == ["steal1", "steal3", "rally", "guard", "rest", "falter"]
    assert sum(face_pairs().values()) == 36


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_the_chain_equals_every_face_sequence_counted(turns):
    assert dict(duel(turns).dist.items()) == brute_force(turns)


def test_one_step_from_any_position_is_the_rulebooks_turn():
    for a, b in [(0, 0), (0, 5), (1, 6), (2, 2), (6, 6), (9, 1)]:
        by_hand = Counter(by_the_rulebook(a, b, fa, fb) for fa in FACES for fb in FACES)
        assert dict(turn((a, b)).items()) == {ab: Fraction(c, 36) for ab, c in by_hand.items()}


@pytest.mark.parametrize("turns", [0, 1, 4, 10, 25])
def test_the_mean_is_six_plus_a_sixth_per_turn_whatever_the_steals(turns):
    one = duel(turns)
    assert one.mean_a() == 6 + Fraction(turns, 6)
    flipped = one.dist.map(lambda ab: (ab[1], ab[0]))
    assert flipped == one.dist  # the duel is symmetric in its two heroes
    assert one.p_ahead() + one.p_tied() + one.dist.prob(lambda ab: ab[0] < ab[1]) == 1


def test_points_never_go_negative_and_the_total_grows_by_rallies_only():
    for turns in (1, 5, 12):
        for a, b in duel(turns).dist.outcomes:
            assert a >= 0 and b >= 0 and 12 <= a + b <= 12 + 2 * turns


def test_a_simulation_of_the_rules_agrees_with_the_chain():
    rng = np.random.default_rng(11)
    turns, n = 8, 20_000
    ends = []
    for _ in range(n):
        a, b = 6, 6
        for fa, fb in rng.integers(0, 6, size=(turns, 2)):
            a, b = by_the_rulebook(a, b, FACES[fa], FACES[fb])
        ends.append((a, b))
    exact = duel(turns)
    for name, hit, p in [
        ("ahead", [a > b for a, b in ends], exact.p_ahead()),
        ("tied", [a == b for a, b in ends], exact.p_tied()),
        ("zero", [a == 0 for a, _ in ends], exact.p_zero()),
    ]:
        low, high = wilson(sum(hit), n, 0.999)
        assert low <= p <= high, name


def test_resolve_matches_the_rulebook_card_on_every_face_pair():
    for a, b in [(0, 3), (1, 1), (6, 6)]:
        for fa in FACES:
            for fb in FACES:
                actions = (DUEL_HERO.action(fa), DUEL_HERO.action(fb))
                assert battle.resolve((a, b), actions, (0, 1), (1, 0)) == by_the_rulebook(a, b, fa, fb)


def test_a_bad_length_is_a_clear_error():
    with pytest.raises(ValueError, match="turns"):
        duel(-1)


def test_hero_b_mirrors_hero_a_in_the_even_duel():
    one = duel(4)
    assert one.mean_b() == one.mean_a() and one.p_behind() == one.p_ahead()
    assert one.p_ahead() + one.p_tied() + one.p_behind() == 1
