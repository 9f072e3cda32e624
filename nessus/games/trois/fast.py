"""Les Trois by Monte Carlo: turns played die by die from the policies' tables, whole games
(each turn drawn from its exact score law, or rolled die by die), and `simulate()`.

A game (simulated): `rounds` rounds, each player one turn per round; the lowest total wins;
a moon ends the game at once, won by its shooter (the first in a round to shoot it); tied
lowest totals play one more round between them, as often as needed. Stakes are not counted,
only who takes the pot. Whole games draw each turn from its exact score law (`score_table`);
`turns` rolls die by die (the turn figures of `simulate` use it, and tests compare both).
"""

from __future__ import annotations

from functools import cache, partial

import numpy as np

from nessus import montecarlo
from nessus.dice import multisets
from nessus.games.trois.odds import heuristic, heuristic_aside, mean_turn, score_distribution
from nessus.games.trois.rules import NAME, Rules, score
from nessus.report import Figure, Report


def _code(sorted_faces: np.ndarray) -> np.ndarray:
    """A sorted roll of n dice (rows) as a base-6 number of its faces minus 1."""
    return (sorted_faces - 1) @ (6 ** np.arange(sorted_faces.shape[1] - 1, -1, -1))


@cache
def action_table(dice: int, kind: str) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """For n dice left, indexed by `_code` of the sorted roll: (dice set aside, their points,
    how many of them are 6s), playing "optimal" (least expected score), "heuristic", or "moon"
    (every 6; a roll with no 6 loses the moon, and `turns` then plays the "optimal" table)."""
    turn = mean_turn(dice)
    out = {}
    for n in range(1, dice + 1):
        table = np.zeros((3, 6**n), dtype=np.int64)
        for roll, _ in multisets(n):
            if kind == "optimal":
                best = turn.game.best((0, roll))
                assert isinstance(best, tuple)
                h = best
            elif kind == "heuristic":
                h = heuristic_aside(roll)
            else:
                h = (6,) * roll.count(6) or (roll[0],)
            table[:, int(_code(np.array([roll]))[0])] = (len(h), score(h), h.count(6))
        out[n] = (table[0], table[1], table[2])
    return out


def turns(dice: int, kind: str, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n turns played by `kind` (see `action_table`): (score, whether it shot the moon). Playing
    for the moon, a turn whose moon is lost (a roll without a 6) plays on for the least expected
    score, as `policy(dice, "moon")` does."""
    table = action_table(dice, kind)
    fallback = action_table(dice, "optimal") if kind == "moon" else table
    left = np.full(n, dice, dtype=np.int64)
    total = np.zeros(n, dtype=np.int64)
    all_six = np.ones(n, dtype=bool)
    while (idx := np.flatnonzero(left)).size:
        for m in np.unique(left[idx]):
            sel = idx[left[idx] == m]
            faces = np.sort(rng.integers(1, 7, size=(sel.size, int(m))), axis=1)
            code = _code(faces)
            chase = all_six[sel] & (table[int(m)][2][code] > 0)
            count, points, sixes = (np.where(chase, t[code], f[code]) for t, f in zip(table[int(m)], fallback[int(m)]))
            total[sel] += points
            all_six[sel] &= sixes == count
            left[sel] -= count
    return total, all_six


def kernel(rules: Rules, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """n turns of each rule, and n whole games of one optimal player (seat 0) against
    players - 1 heuristic players."""
    opt, _ = turns(rules.dice, "optimal", rng, n)
    human, _ = turns(rules.dice, "heuristic", rng, n)
    _, moon = turns(rules.dice, "moon", rng, n)
    return {
        "optimal_mean": opt,
        "p_zero_optimal": opt == 0,
        "p_moon_optimal_for_moon": moon,
        "heuristic_mean": human,
        "p_zero_heuristic": human == 0,
        "p_optimal_wins_game": games(rules, rng, n) == 0,
    }


@cache
def score_table(dice: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """(the scores, their cumulative probabilities) of a turn played by `kind` ("optimal" or
    "heuristic"), from the exact distribution."""
    d = score_distribution(Rules(dice=dice), None if kind == "optimal" else heuristic)
    return np.array(d.outcomes, dtype=np.int64), np.cumsum([float(d[s]) for s in d.outcomes])


def draw_turns(dice: int, kind: str, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n whole turns drawn from the exact score distribution of `kind`: (score, shot the moon;
    only 6-6-...-6 scores 6 * dice)."""
    scores, cdf = score_table(dice, kind)
    s = scores[np.minimum(np.searchsorted(cdf, rng.random(n) * cdf[-1], side="right"), scores.size - 1)]
    return s, s == 6 * dice


def games(rules: Rules, rng: np.random.Generator, n: int, by_dice: bool = False) -> np.ndarray:
    """n games, seat 0 playing for the least expected score and the others the heuristic:
    the winner's seat. Seats play in order within a round; the first moon ends the game.

    Each turn is drawn whole from its exact score distribution, or with `by_dice` rolled die
    by die (`turns`): the same law, the first much faster."""
    play = turns if by_dice else draw_turns
    p = rules.players
    kinds = ["optimal"] + ["heuristic"] * (p - 1)
    winner = np.full(n, -1, dtype=np.int64)
    totals = np.zeros((n, p), dtype=np.int64)
    live = np.ones((n, p), dtype=bool)  # in contention: everyone, then the tied lowest
    played = 0
    on = np.arange(n)
    while on.size:
        scores = np.zeros((on.size, p), dtype=np.int64)
        moons = np.zeros((on.size, p), dtype=bool)
        for seat, kind in enumerate(kinds):
            scores[:, seat], moons[:, seat] = play(rules.dice, kind, rng, on.size)
        moons &= live[on]
        totals[on] += np.where(live[on], scores, 0)
        shot = moons.any(axis=1)
        winner[on[shot]] = moons[shot].argmax(axis=1)
        played += 1
        keep = ~shot
        if played >= rules.rounds:
            t = np.where(live[on], totals[on], np.iinfo(np.int64).max)
            lowest = t == t.min(axis=1, keepdims=True)
            single = lowest.sum(axis=1) == 1
            decided = keep & single
            winner[on[decided]] = lowest[decided].argmax(axis=1)
            live[on] = lowest
            keep &= ~single
        on = on[keep]
    return winner


def simulate(rules: Rules | None = None, trials: int = 100_000, seed: int = 0, client=None, progress=None) -> Report:
    """Monte Carlo (95% intervals): single turns of each rule, and whole games."""
    rules = rules or Rules()
    result = montecarlo.run(partial(kernel, rules), trials, seed, client=client, progress=progress)
    return Report(NAME, rules.as_dict(), {k: Figure.estimated(e) for k, e in result.estimates.items()})
