"""L'Hypogéon: whole games to `target` points (`hypogeon.game_kernel` through
nessus.montecarlo.run, CIs included) against a plain Python loop playing the same games, as a
ratio measured in one run (target >= 50x), and the cold cost of the exact figures (target < 1 s).
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from functools import partial

from _timing import best_of, faster, span, under

from nessus import montecarlo
from nessus.games import hypogeon

GAMES = 400_000
LOOP_GAMES = 10_000


def plain_loop(games: int, rules: tuple[int, ...], target: int) -> list[int]:
    """The same games written the straightforward way: wins per seat."""
    wins = [0] * len(rules)
    for _ in range(games):
        score = [0] * len(rules)
        while max(score) < target:
            totals = []
            for k in rules:
                t = random.randint(1, 6) + random.randint(1, 6)
                while t < k:
                    t += random.randint(1, 6)
                totals.append(0 if t > 21 else t)
            best = max(totals)
            if totals.count(21) == 1:
                score[totals.index(21)] += 2
            elif best and totals.count(best) == 1:
                score[totals.index(best)] += 1
        wins[score.index(max(score))] += 1
    return wins


def main() -> None:
    ratios, rates = [], []
    for players in (2, 4, 10):
        rules = hypogeon.Rules(players=players)
        seats = hypogeon.seat_rules(rules)
        ours = best_of(lambda: montecarlo.run(partial(hypogeon.game_kernel, rules), GAMES, 7, progress=False))
        loop = best_of(lambda: plain_loop(LOOP_GAMES, seats, rules.target))
        ours_rate, loop_rate = GAMES / ours, LOOP_GAMES / loop
        print(
            f"L'Hypogeon, {players:2d} players to {rules.target}: {ours_rate / 1e3:7.1f} k games/s, "
            f"{ours_rate / loop_rate:4.0f}x the plain loop ({loop_rate / 1e3:.2f} k games/s)"
        )
        ratios.append(ours_rate / loop_rate)
        rates.append(ours_rate)
    faster(
        "L'Hypogéon whole games (2, 4, 10 players) through the Monte Carlo runner, CIs included",
        ratios,
        f" ({span(rates, '{:,.0f}')} games/s)",
    )
    times = []
    for players in (2, 10):
        for target in (5, 10):
            t = time.perf_counter()
            code = (
                f"from nessus.games import hypogeon as h; print(h.report(h.Rules(players={players}, "
                f"target={target})).to_text())"
            )
            subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
            times.append(time.perf_counter() - t)
            print(
                f"report, {players:2d} players, target {target:2d}, cold (new interpreter, imports included): "
                f"{times[-1]:.2f} s"
            )
    under("L'Hypogéon report at 2 and 10 players, targets 5 and 10, fresh process (imports included)", times, 1.0)


if __name__ == "__main__":
    main()
