"""La Tresse: whole-game Monte Carlo (`tresse.games_kernel` through nessus.montecarlo.run, CIs
included) against a plain Python loop playing the same games, as a ratio measured in one run
(target >= 50x), and the cold cost of the exact figures for every table size (target < 1 s).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from functools import partial

from _timing import best_of, faster, span, under

from nessus import montecarlo
from nessus.games import tresse

GAMES = 1_000_000
LOOP_GAMES = 20_000


def plain_loop(games: int, players: int, dice: int = 5) -> list[int]:
    """The same games written the straightforward way: wins per seat."""
    wins = [0] * players
    for _ in range(games):
        hold = [0] * players
        hold[0] = dice
        me = 0
        while True:
            faces = [random.randint(1, 6) for _ in range(hold[me])]
            c, left, right = faces.count(1), faces.count(2), faces.count(5)
            hold[me] -= c + left + right
            hold[(me + 1) % players] += left
            hold[(me - 1) % players] += right
            if not any(hold):
                wins[me] += 1
                break
            if not hold[me]:
                me = next((me + k) % players for k in range(1, players + 1) if hold[(me + k) % players])
    return wins


def cold_report(players: int) -> tuple[float, dict]:
    """Wall time of a new interpreter importing the game and printing its report as text (as
    `nessus report` would; the game is not registered in the CLI here), and the report's JSON."""
    code = (
        f"import json; from nessus.games import tresse; r = tresse.report(tresse.Rules(players={players})); "
        "print(r.to_text()); print(json.dumps(r.to_json()))"
    )
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    seconds = time.perf_counter() - t
    return seconds, json.loads(out.splitlines()[-1])


def main() -> None:
    ratios, rates = [], []
    for players in (2, 4, 10):
        ours = best_of(lambda: montecarlo.run(partial(tresse.games_kernel, players, 5), GAMES, 7, progress=False))
        loop = best_of(lambda: plain_loop(LOOP_GAMES, players))
        ours_rate, loop_rate = GAMES / ours, LOOP_GAMES / loop
        print(
            f"La Tresse, {players:2d} players: {ours_rate / 1e3:8.0f} k games/s, {ours_rate / loop_rate:5.0f}x the "
            "plain loop "
            f"({loop_rate / 1e3:.1f} k games/s)"
        )
        ratios.append(ours_rate / loop_rate)
        rates.append(ours_rate)
    faster(
        "La Tresse whole games (2, 4, 10 players) through the Monte Carlo runner, CIs included",
        ratios,
        f" ({span(rates, '{:,.0f}')} games/s)",
    )
    times = []
    for players in range(2, 11):
        seconds, rep = cold_report(players)
        times.append(seconds)
        kind = {name: "exact" if f["exact"] else "bracketed" for name, f in rep["figures"].items()}
        print(
            f"report, {players:2d} players, cold (new interpreter, imports included): {seconds:.2f} s; "
            f"p_win {kind['p_win_seat_1']}, expected_throws {kind['expected_throws']}"
        )
    under("La Tresse report at 2–10 players, fresh process (imports included)", times, 1.0)


if __name__ == "__main__":
    main()
