"""Les Trois: the exact report (target < 1 s) and whole-game Monte Carlo (5 rounds, one
optimal player against two heuristic players) against a plain Python loop playing the same
games with the same policies (target >= 50x), measured in one run. The vectorised games draw
each turn whole from its exact score law (as `simulate` does); die by die is shown too."""

from __future__ import annotations

import random

import numpy as np
from _timing import best_of, faster, speedups, timed, under

from nessus.dice import rolls
from nessus.games import trois

GAMES = 1 << 17
LOOP_GAMES = 1_000


def loop(rules: trois.Rules, n: int) -> int:
    """n games in plain Python, every die rolled: how many the optimal seat wins."""
    game = trois.mean_turn(rules.dice).game
    best = {roll: game.best((0, roll)) for m in range(1, rules.dice + 1) for roll, _ in rolls(m).weights()}

    def turn(optimal: bool) -> tuple[int, bool]:
        left, score, sixes = rules.dice, 0, True
        while left:
            roll = tuple(sorted(random.randint(1, 6) for _ in range(left)))
            h = best[roll] if optimal else trois.heuristic((0, roll))
            score += trois.score(h)
            sixes &= all(d == 6 for d in h)
            left -= len(h)
        return score, sixes

    wins = 0
    for _ in range(n):
        totals, live, played = [0] * rules.players, [True] * rules.players, 0
        while True:
            results = [turn(seat == 0) if live[seat] else (0, False) for seat in range(rules.players)]
            moon = next((seat for seat, (_, m) in enumerate(results) if m), None)
            if moon is not None:
                wins += moon == 0
                break
            totals = [a + s for a, (s, _) in zip(totals, results)]
            played += 1
            if played >= rules.rounds:
                low = min(t for t, ok in zip(totals, live) if ok)
                live = [ok and t == low for t, ok in zip(totals, live)]
                if sum(live) == 1:
                    wins += live[0]
                    break
    return wins


def main() -> None:
    report = timed(trois.report)
    print(f"exact report: {report:.3f} s (in-process, caches cold)")
    under("Les Trois exact report, in process, caches cold", [report], 1.0)
    rules = trois.Rules()
    rng = np.random.default_rng(1)
    trois.score_table(5, "optimal"), trois.score_table(5, "heuristic"), trois.action_table(5, "optimal")
    by_turn = best_of(lambda: trois.games(rules, rng, GAMES))
    by_dice = timed(lambda: trois.games(rules, rng, GAMES, by_dice=True))
    loop_rate = LOOP_GAMES / timed(lambda: loop(rules, LOOP_GAMES))
    print(
        "whole games (3 players, 5 rounds): "
        + speedups("games", loop_rate, {"a turn at a time": GAMES / by_turn, "die by die": GAMES / by_dice})
    )
    faster(
        "Les Trois whole games (3 players, 5 rounds), each turn drawn whole from its exact law",
        [GAMES / by_turn / loop_rate],
        f" ({GAMES / by_turn:,.0f} games/s); die by die {GAMES / by_dice / loop_rate:.0f}x",
    )


if __name__ == "__main__":
    main()
