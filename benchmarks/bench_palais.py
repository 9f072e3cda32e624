"""Le Palais: `report` cold (target < 1 s, a fresh interpreter importing the command line and
the game, as `nessus report palais` does) and whole-game simulation speed (target: the numpy
kernel >= 50x a plain Python loop of the same game and policies), measured in one run.

Whole games of 4 players (the opener, then three chasers), default rules: (a) `game_kernel`,
many games at once, each roll a uniform code of the ordered dice looked up in the roll table;
(b) a plain Python loop: `random.randint` dice, sorted tuples, the same holds read from the
policy tables turned into lists, the same roll-off rule. Both estimates are printed too.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time

import numpy as np
from _timing import faster

from nessus.games import palais
from nessus.games.palais import fast as kernels
from nessus.games.palais import keep
from nessus.games.palais.policies import chase_solution, opener_solution

COLD = "import nessus.cli; from nessus.games import palais; print(palais.report().to_text())"


def cold_report() -> float:
    """Seconds for a fresh interpreter to import and print the report."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", COLD], check=True, capture_output=True)
    return time.perf_counter() - start


def plain_game(rules: palais.Rules, tables: dict, rnd: random.Random) -> tuple[int, bool]:
    """One whole game, written the straightforward way: (winning seat, decided by a roll-off)."""
    lay = keep.layout(5, rules.sticky_holds)
    best, tied, winner = -1, 0, 0
    for seat in range(rules.players):
        table, column = (tables["opener"], 0) if seat == 0 else (tables["chase"], best)
        kept, rolled = (), tuple(sorted(rnd.randint(1, 6) for _ in range(5)))
        for left in (2, 1):
            hold = lay.holds[table[left][lay.state_of(kept, rolled)][column]]
            if len(hold) == 5:
                break
            kept, rolled = hold, tuple(sorted(rnd.randint(1, 6) for _ in range(5 - len(hold))))
        s = tables["strength"][lay.hand_index[tuple(sorted(kept + rolled))]]
        if s > best:
            best, tied, winner = s, 1, seat
        elif s == best:
            tied += 1
            if rnd.random() * tied < 1:
                winner = seat
    return winner, tied > 1


def main() -> None:
    print(f"nessus report palais, cold (fresh interpreter): {cold_report():.2f} s")
    start = time.perf_counter()
    palais.report(palais.Rules(sticky_holds=True))
    print(f"report with sticky holds, in process: {time.perf_counter() - start:.3f} s")

    rules = palais.Rules()
    start = time.perf_counter()
    t = kernels.kernel_tables(rules)
    print(
        f"policy tables for the simulation (opener, chasers, at-least, heuristics): {time.perf_counter() - start:.2f} s"
    )
    plain = {
        "opener": [None] + [x.tolist() for x in opener_solution(rules.players).best[1:]],
        "chase": [None] + [x.tolist() for x in chase_solution().best[1:]],
        "strength": t.strength.tolist(),
    }

    n = 1 << 18
    rng = np.random.default_rng(0)
    kernels.game_kernel(t, rng, 1000)
    start = time.perf_counter()
    out = kernels.game_kernel(t, rng, n)
    fast = (time.perf_counter() - start) / n

    m = 20_000
    rnd = random.Random(0)
    wins = [0] * rules.players
    start = time.perf_counter()
    for _ in range(m):
        w, _ = plain_game(rules, plain, rnd)
        wins[w] += 1
    slow = (time.perf_counter() - start) / m

    print(
        f"whole games, {rules.players} players: numpy kernel {fast * 1e6:.2f} us/game ({n} games), "
        f"plain Python loop {slow * 1e6:.1f} us/game ({m} games): ratio {slow / fast:.0f}x"
    )
    faster(
        f"Le Palais whole games ({rules.players} players), the numpy kernel",
        [slow / fast],
        f" ({fast * 1e6:.2f} against {slow * 1e6:.1f} us/game)",
    )
    print(
        "seat win rates, kernel:",
        " ".join(f"{out[f'p_seat_{k + 1}_wins_{rules.players}_players'].mean():.4f}" for k in range(rules.players)),
    )
    print("seat win rates, plain: ", " ".join(f"{w / m:.4f}" for w in wins))


if __name__ == "__main__":
    main()
