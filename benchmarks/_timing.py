"""Timing shared by the benchmarks."""

import subprocess
import sys
import time
from collections.abc import Callable


def timed(f: Callable[[], object]) -> float:
    """The seconds one call f() takes."""
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def best_of(f: Callable[[], object], repeat: int = 3) -> float:
    """The fastest of `repeat` timings of f(), in seconds."""
    return min(timed(f) for _ in range(repeat))


def speedups(unit: str, loop_rate: float, rates: dict[str, float], target: float = 50) -> str:
    """One line comparing rates (items/s) with a plain loop's: "plain loop 1,000 games/s;
    a turn at a time 90,000 games/s = 90x; ...; target >= 50x"."""
    parts = [f"plain loop {loop_rate:,.0f} {unit}/s"]
    parts += [f"{name} {rate:,.0f} {unit}/s = {rate / loop_rate:.0f}x" for name, rate in rates.items()]
    return "; ".join(parts) + f"; target >= {target:g}x"


def in_fresh_process(code: str, stored: bool = True) -> float:
    """Seconds `code` takes in a new Python process, its imports included (without data/'s
    tables when `stored` is False)."""
    hide = "" if stored else "from nessus import tables\ntables.DATA = tables.DATA / 'absent'\n"
    script = f"import time\nt = time.perf_counter()\n{hide}{code}\nprint(time.perf_counter() - t)"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return float(run.stdout.split()[-1])
