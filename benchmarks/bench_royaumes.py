"""Les Royaumes: whole games (a bank and `players` players over `rounds` rounds;
`royaumes.game_kernel` through nessus.montecarlo.run, CIs included) against a plain Python loop
playing the same games, as a ratio measured in one run (target >= 50x), and the cold cost of the report (target < 1 s).
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from fractions import Fraction
from functools import partial

from _timing import best_of, faster, span

from nessus import montecarlo
from nessus.games import royaumes

GAMES = 200_000
LOOP_GAMES = 2_000


def plain_loop(games: int, players: int, rounds: int, fine: Fraction) -> int:
    """The same games written the straightforward way: how often the bank ends ahead. Money in
    units of 1/denominator(fine) stakes, integers as in the kernel."""
    kingdom = {r: (k, i) for k, results in royaumes.KINGDOMS.items() for i, r in enumerate(results)}
    unit, fine_units = fine.denominator, fine.numerator
    bank_ahead = 0
    for _ in range(games):
        bank = 0
        for _ in range(rounds):
            a, b = random.randint(1, 6), random.randint(1, 6)
            result = (max(a, b), min(a, b))
            if result in royaumes.BANK_WINS_ALL:
                bank += players * unit
                continue
            if result in royaumes.BANK_PAYS_ALL:
                bank -= players * unit
                continue
            home, rank = kingdom[result]
            for _ in range(players):
                while True:
                    a, b = random.randint(1, 6), random.randint(1, 6)
                    mine, my_rank = kingdom[(max(a, b), min(a, b))]
                    if mine == home:
                        bank += -unit if my_rank > rank else unit
                        break
                    bank += fine_units
        bank_ahead += bank > 0
    return bank_ahead


def main() -> None:
    ratios, rates = [], []
    for players, rounds in ((1, 20), (4, 20), (10, 20)):
        rules = royaumes.Rules(players=players, rounds=rounds)
        ours = best_of(lambda: montecarlo.run(partial(royaumes.game_kernel, rules), GAMES, 7, progress=False))
        loop = best_of(lambda: plain_loop(LOOP_GAMES, players, rounds, rules.fine))
        ours_rate, loop_rate = GAMES / ours, LOOP_GAMES / loop
        print(
            f"Les Royaumes, {players:2d} players x {rounds} rounds: {ours_rate / 1e3:7.1f} k games/s, "
            f"{ours_rate / loop_rate:4.0f}x the plain loop ({loop_rate / 1e3:.2f} k games/s)"
        )
        ratios.append(ours_rate / loop_rate)
        rates.append(ours_rate)
    faster(
        "Les Royaumes whole games (1, 4, 10 players x 20 rounds) through the Monte Carlo runner, CIs included",
        ratios,
        f" ({span(rates, '{:,.0f}')} games/s)",
    )
    t = time.perf_counter()
    code = "from nessus.games import royaumes; print(royaumes.report().to_text())"
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    print(f"report, cold (new interpreter, imports included): {time.perf_counter() - t:.2f} s")


if __name__ == "__main__":
    main()
