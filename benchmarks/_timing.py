"""Timing shared by the benchmarks."""

import time
from collections.abc import Callable


def best_of(f: Callable[[], object], repeat: int = 3) -> float:
    """The fastest of `repeat` timings of f(), in seconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)
