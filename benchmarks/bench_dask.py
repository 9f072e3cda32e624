"""Monte Carlo on Dask: La Boue and Le Palais at 2x10^7 trials, serial and on 1, 2, ... local
workers (one thread each), as ratios measured in one run; every result must be bit-identical.

Targets (issue 23): `--workers 1` within 10% of the serial run; 2 workers >= 1.8x serial on a
2-core machine; 16 workers >= 12x on a 16-core machine (run there with `--workers 1 2 4 8 16`).
A cluster's start (about 2 s) is left out: it is paid once, whatever the trials. Each time is the
best of `--repeat` runs (2 by default), since a shared machine's speed wanders by 10%.

    python benchmarks/bench_dask.py [--trials N] [--workers 1 2] [--games boue palais] [--repeat 2]
"""

from __future__ import annotations

import argparse
import os

from _timing import best_of, record

from nessus import games, montecarlo

TRIALS = 20_000_000


def run_on(game: str, trials: int, workers: int | None, repeat: int) -> tuple[float, dict]:
    """(seconds, figures) of `nessus simulate GAME --trials TRIALS` here (workers None) or on a
    local cluster of `workers` single-threaded processes: the best of `repeat` runs."""
    g = games.get(game)
    rules = g.Rules()
    report: list = []
    if workers is None:
        seconds = best_of(lambda: report.append(g.simulate(rules, trials, 0, progress=False)), repeat)
        return seconds, report[0].to_json()
    from dask.distributed import Client

    with montecarlo.local_cluster(workers, dashboard_address=None) as c, Client(c) as client:
        g.simulate(rules, 3 * 2**17, 1, client=client, progress=False)  # the workers import nessus first
        seconds = best_of(lambda: report.append(g.simulate(rules, trials, 0, client=client, progress=False)), repeat)
    return seconds, report[0].to_json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=TRIALS)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--games", nargs="+", default=["boue", "palais"])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs; {args.trials:,} trials a run")
    for game in args.games:
        serial, figures = run_on(game, args.trials, None, args.repeat)
        line = [f"{game}: serial {serial:.1f} s"]
        for n in args.workers:
            seconds, theirs = run_on(game, args.trials, n, args.repeat)
            if theirs != figures:
                raise SystemExit(f"{game} on {n} workers: the figures differ from the serial run's")
            line.append(f"{n} workers {seconds:.1f} s = {serial / seconds:.2f}x")
            if n == 1:
                record(
                    f"{game}, Dask --workers 1", f"{serial / seconds:.2f}x serial", ">= 0.91x", serial / seconds >= 0.91
                )
            elif n == 2 and (os.cpu_count() or 1) >= 2:
                record(f"{game}, Dask 2 workers", f"{serial / seconds:.2f}x serial", ">= 1.8x", serial / seconds >= 1.8)
            elif n == 16:
                record(f"{game}, Dask 16 workers", f"{serial / seconds:.2f}x serial", ">= 12x", serial / seconds >= 12)
        print("; ".join(line) + "; bit-identical", flush=True)


if __name__ == "__main__":
    main()
