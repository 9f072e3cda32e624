"""Le Naute: `report` cold (target < 1 s, a fresh interpreter importing the command line and
the game, as `nessus report naute` does) and whole-game simulation speed (target: the numpy
kernel >= 50x a plain Python loop of the same game and policies), measured in one run.

Whole games of 4 players x 3 expeditions, default rules: (a) `game_kernel`, many games at once,
each roll a uniform code of the ordered dice looked up in the roll table; (b) a plain Python
loop: `random.randint` dice, ship/captain/crew set aside with `set_aside`, the cargo played by
the same policies (their actions in every cargo state, in dictionaries). Both estimates are
printed too.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time

import numpy as np
from _timing import faster

from nessus.games import naute
from nessus.games.naute import fast as simulation

COLD = "import nessus.cli; from nessus.games import naute; print(naute.report().to_text())"


def cold_report() -> float:
    """Seconds for a fresh interpreter to import and print the report."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", COLD], check=True, capture_output=True)
    return time.perf_counter() - start


def plain_expedition(actions: dict, rnd: random.Random) -> int:
    """One expedition played by `actions` (cargo state -> action): the cargo."""
    aboard, kept, free = 0, (), ()
    for left in (2, 1, 0):
        if aboard < 3:
            aboard, free = naute.set_aside(aboard, sorted(rnd.randint(1, 6) for _ in range(5 - aboard)))
            if aboard < 3:
                continue
        else:
            free = tuple(sorted(rnd.randint(1, 6) for _ in range(2 - len(kept))))
        if left == 0:
            break
        action = actions[("cargo", left, kept, free)]
        if action == "stop":
            break
        kept = action
    return sum(kept) + sum(free) if aboard == 3 else 0


def plain_game(rules: naute.Rules, columns: list[dict], rnd: random.Random) -> list[int]:
    """One whole game, written the straightforward way: every player's total."""
    p = rules.players
    totals = [0] * p
    for e in range(rules.expeditions):
        for seat in range(p):
            column = simulation.MEAN_COLUMN
            if e == rules.expeditions - 1:
                t = max(totals[:seat] + totals[seat + 1 :]) - totals[seat]
                column = 1 + t if 0 <= t < naute.TOP else simulation.MEAN_COLUMN
            totals[seat] += plain_expedition(columns[column], rnd)
    return totals


def main() -> None:
    print(f"nessus report naute, cold (fresh interpreter): {cold_report():.2f} s")
    rules = naute.Rules()
    start = time.perf_counter()
    m = simulation.machine(rules.cargo_holds)
    print(f"roll and policy tables for the simulation: {time.perf_counter() - start:.2f} s")
    policies = [naute.optimal(naute.CargoMean(), rules)] + [naute.chase_policy(t, rules) for t in range(naute.TOP)]
    columns = [{s: pol(s) for s in naute.cargo_states(rules.cargo_holds)} for pol in policies]

    n = 1 << 17
    rng = np.random.default_rng(0)
    simulation.game_kernel(m, rules, rng, 1000)
    start = time.perf_counter()
    out = simulation.game_kernel(m, rules, rng, n)
    fast = (time.perf_counter() - start) / n

    games = 20_000
    rnd = random.Random(0)
    wins = [0] * (rules.players + 1)
    start = time.perf_counter()
    for _ in range(games):
        totals = plain_game(rules, columns, rnd)
        best = max(totals)
        wins[totals.index(best) if totals.count(best) == 1 else rules.players] += 1
    slow = (time.perf_counter() - start) / games

    p = rules.players
    print(
        f"whole games, {p} players x {rules.expeditions} expeditions: numpy kernel {fast * 1e6:.2f} us/game ({n} "
        "games), "
        f"plain Python loop {slow * 1e6:.1f} us/game ({games} games): ratio {slow / fast:.0f}x"
    )
    faster(
        f"Le Naute whole games ({p} players x {rules.expeditions} expeditions), the numpy kernel",
        [slow / fast],
        f" ({fast * 1e6:.2f} against {slow * 1e6:.1f} us/game)",
    )
    print(
        "seat win rates and shared first, kernel:",
        " ".join(f"{out[f'p_seat_{k + 1}_wins_{p}_players'].mean():.4f}" for k in range(p)),
        f"{out[f'p_shared_first_{p}_players'].mean():.4f}",
    )
    print("seat win rates and shared first, plain: ", " ".join(f"{w / games:.4f}" for w in wins))


if __name__ == "__main__":
    main()
