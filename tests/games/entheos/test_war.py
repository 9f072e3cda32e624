"""The war without interventions: the exact chain equals a brute force over every roll of the six
dice (hero by hero, no symmetry used, the turn written again from RULES.md part 5), its symmetry
and its 6 + T/2 mean hold, and the vectorised simulation agrees with the exact war and with
`battle.resolve`."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from nessus.games.entheos import battle, war
from nessus.games.entheos.heroes import FACES, GODS, HEROES
from nessus.montecarlo import run, wilson

STEAL = {"steal1": 1, "steal3": 3}


def war_turn(points: tuple[int, ...], actions: tuple[str, ...]) -> tuple[int, ...]:
    """One turn of the war, heroes 0-2 facing 3-5, read off RULES.md part 5 step by step."""
    side = [0, 0, 0, 1, 1, 1]
    rallies = [sum(a == "rally" for a in actions[:3]), sum(a == "rally" for a in actions[3:])]
    guards = [sum(a == "guard" for a in actions[:3]), sum(a == "guard" for a in actions[3:])]
    after = [p + rallies[side[h]] for h, p in enumerate(points)]
    new = list(after)
    for h, action in enumerate(actions):
        if action in STEAL:
            victim = (h + 3) % 6
            amount = min(max(0, STEAL[action] - guards[1 - side[h]]), after[victim])
            new[h] += amount
            new[victim] -= amount
    return tuple(new)


def brute_force_one_turn() -> Counter[tuple[int, ...]]:
    return Counter(
        war_turn((6,) * 6, tuple(h.action(f) for h, f in zip(HEROES, faces)))
        for faces in itertools.product(FACES, repeat=6)
    )


def test_one_turn_of_war_equals_every_roll_of_the_six_dice():
    ends = brute_force_one_turn()
    total = 6**6
    a_win = Fraction(sum(c for p, c in ends.items() if sum(p[:3]) > sum(p[3:])), total)
    tied = Fraction(sum(c for p, c in ends.items() if sum(p[:3]) == sum(p[3:])), total)
    w = war.exact(1)
    assert (w.p_achaeans_win(), w.p_tied()) == (a_win, tied)
    for h in range(6):
        assert Fraction(sum(c * p[h] for p, c in ends.items()), total) == w.mean_points(h // 3)
    index = {hero.name: i for i, hero in enumerate(HEROES)}
    for god in GODS:
        by_hand = Fraction(0)
        for p, c in ends.items():
            mine, theirs = (sum(p[:3]), sum(p[3:])) if god.side == 0 else (sum(p[3:]), sum(p[:3]))
            if mine >= theirs:
                by_hand += Fraction(c * sum(w_ * p[index[h]] for h, w_ in god.favourites.items()), total)
        assert w.god_ev(god.name) == by_hand, god.name


@pytest.mark.parametrize("turns", [0, 1, 2])
def test_the_sides_are_symmetric_and_each_hero_expects_six_plus_half_a_point_a_turn(turns):
    w = war.exact(turns)
    assert w.p_achaeans_win() == w.p_trojans_win() == (1 - w.p_tied()) / 2
    assert w.mean_points(0) == w.mean_points(1) == 6 + Fraction(turns, 2)
    assert w.p_achaeans_win() + w.p_trojans_win() + w.p_tied() == 1


def test_the_vectorised_turn_is_battle_resolve():
    rng = np.random.default_rng(5)
    points = rng.integers(0, 9, size=(400, 6))
    codes = rng.integers(0, 5, size=(400, 6))
    after = war.step(points, codes)
    for p, c, a in zip(points, codes, after):
        actions = tuple(war.POINT_ACTIONS[i] for i in c)
        assert tuple(a) == battle.resolve(tuple(p), actions, (0, 0, 0, 1, 1, 1), (3, 4, 5, 0, 1, 2))
        assert tuple(a) == war_turn(tuple(p), actions)


@pytest.mark.parametrize("turns", [1, 2])
def test_the_simulation_agrees_with_the_exact_war(turns):
    w = war.exact(turns)
    result = run(lambda rng, n: war.kernel(turns, rng, n), 100_000, 3)
    for name, exact in [("p_achaeans_win", w.p_achaeans_win()), ("p_war_tied", w.p_tied())]:
        e = result[name]
        low, high = wilson(round(e.value * e.trials), e.trials, 0.999)
        assert low <= exact <= high, name
    for god in GODS:
        e = result[f"god_{god.name.lower()}_ev"]
        half = (e.ci[1] - e.ci[0]) / 2 * 3.291 / 1.960  # the 95% interval widened to 99.9%
        assert abs(e.value - w.god_ev(god.name)) <= half, god.name


def test_the_game_length_is_simulated_with_the_exact_mean_inside_its_interval():
    result = run(lambda rng, n: war.kernel(10, rng, n), 50_000, 4)
    for hero in HEROES:
        e = result[f"hero_{hero.name.lower()}_points"]
        half = (e.ci[1] - e.ci[0]) / 2 * 3.291 / 1.960
        assert abs(e.value - 11) <= half


def test_the_exact_war_counts_its_positions_and_refuses_long_wars():
    assert [war.states(t) for t in (0, 1)] == [
        1,
        len({tuple(sorted(zip(p[:3], p[3:]))) for p in brute_force_one_turn()}),
    ]
    with pytest.raises(ValueError, match="turns"):
        war.exact(war.MAX_EXACT_TURNS + 1)


def test_the_simulation_from_a_position_follows_its_places():
    points, places = (1, 2, 3, 4, 5, 6), (0, 1, 2, 5, 3, 4)  # Ulysses faces Aeneas, Achilles Hector, Ajax Paris
    by_place = tuple(points[h] for h in places)
    ends = Counter()
    for faces in itertools.product(FACES, repeat=6):
        after = war_turn(by_place, tuple(HEROES[h].action(f) for h, f in zip(places, faces)))
        ends[after[0], after[3]] += 1  # Ulysses and Aeneas
    out = war.kernel(1, np.random.default_rng(8), 60_000, points=points, places=places)
    for (u, a), count in ends.most_common(4):
        hits = (out["hero_ulysses_points"] == u) & (out["hero_aeneas_points"] == a)
        low, high = wilson(int(hits.sum()), hits.size, 0.999)
        assert low <= count / 6**6 <= high


def test_the_next_turns_duels_are_the_marginals_of_every_roll():
    points, places = (2, 0, 7, 5, 1, 6), (1, 0, 2, 4, 5, 3)
    by_place = tuple(points[h] for h in places)
    counts = [Counter() for _ in range(3)]
    for faces in itertools.product(FACES, repeat=6):
        after = war_turn(by_place, tuple(HEROES[h].action(f) for h, f in zip(places, faces)))
        for i in range(3):
            counts[i][after[i], after[3 + i]] += 1
    for dist, by_hand in zip(war.next_turn(points, places), counts):
        assert dict(dist.items()) == {ab: Fraction(c, 6**6) for ab, c in by_hand.items()}
