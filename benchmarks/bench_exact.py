"""Exact computations: La Boue's distribution to tail < 1e-12 (target < 50 ms), and
`nessus report GAME` cold in a fresh process for every game."""

from __future__ import annotations

import subprocess
import sys
import time

from _timing import record, under

from nessus import dice
from nessus.games import GAMES, boue


def boue_cold() -> float:
    """Seconds for the exact turn distribution with every cache cleared (chain built too)."""
    dice.rolls.cache_clear()
    boue.turn_chain.cache_clear()
    t = time.perf_counter()
    d = boue.turn_distribution(tail_below=1e-12)
    elapsed = time.perf_counter() - t
    assert d.tail < 1e-12
    return elapsed


def main() -> None:
    cold = min(boue_cold() for _ in range(5))
    t = time.perf_counter()
    d = boue.turn_distribution(tail_below=1e-12)
    warm = time.perf_counter() - t
    print(
        f"La Boue exact turn distribution, tail {float(d.tail):.2e} at bound {d.bound}: "
        f"{cold * 1000:.1f} ms cold (chain built), {warm * 1000:.1f} ms warm; target < 50 ms"
    )
    under(
        "La Boue exact turn distribution to tail < 1e-12, cold (chain built)",
        [cold],
        0.05,
        f" at bound {d.bound}; warm {warm * 1000:.1f} ms",
    )
    seconds = {}
    for name in GAMES:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "nessus.cli", "report", name, "--json"], check=True, capture_output=True)
        seconds[name] = time.perf_counter() - t
        print(f"nessus report {name:8s} cold: {seconds[name]:.2f} s (process start and imports included)")
    slowest = max(seconds, key=seconds.__getitem__)
    record(
        f"`nessus report GAME --json` in a fresh process, imports included, each of the {len(seconds)} games",
        f"slowest {slowest} {seconds[slowest]:.2f} s; " + ", ".join(f"{n} {s:.2f}" for n, s in seconds.items()),
        "< 1 s",
        seconds[slowest] < 1,
    )


if __name__ == "__main__":
    main()
