"""Timing shared by the benchmarks, and the rows they record for docs/performance.md."""

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

ROWS = "NESSUS_BENCH_ROWS"  # names the file a run's rows go to (benchmarks/run.py sets it)


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


def record(what: str, measured: str, target: str = "—", met: bool | None = None) -> None:
    """One row of docs/performance.md (`met` None where there is no target), appended as a JSON
    line to the file that $NESSUS_BENCH_ROWS names; a script run alone only prints."""
    path = os.environ.get(ROWS)
    if path:
        with open(path, "a", encoding="utf-8") as rows:
            rows.write(json.dumps({"what": what, "measured": measured, "target": target, "met": met}) + "\n")


def span(values: Sequence[float], form: str = "{:.0f}") -> str:
    """The range of `values` as "59–69", or one figure where both ends read the same."""
    low, high = form.format(min(values)), form.format(max(values))
    return low if low == high else f"{low}–{high}"


def faster(what: str, ratios: Sequence[float], detail: str = "", target: float = 50) -> None:
    """Record a row: a fast path's speed over a plain Python loop's, one ratio per setting
    measured, against a target of at least `target` times (every setting)."""
    record(what, f"{span(ratios)}x a plain Python loop{detail}", f">= {target:g}x a plain loop", min(ratios) >= target)


def under(what: str, seconds: Sequence[float], limit: float, detail: str = "") -> None:
    """Record a row: times in seconds, one per setting measured, against a target of under
    `limit` seconds (every setting); in ms where the limit is under a second."""
    scale, unit = (1000, "ms") if limit < 1 else (1, "s")
    figures = span([s * scale for s in seconds], "{:.2f}")
    record(what, f"{figures} {unit}{detail}", f"< {limit * scale:g} {unit}", max(seconds) < limit)
