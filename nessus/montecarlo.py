"""Monte Carlo runner: vectorised kernels, reproducible seeds, confidence intervals.

A *kernel* is a picklable function `kernel(rng, n) -> {name: array of n per-trial values}`.
Boolean arrays are events (estimated as a proportion with a Wilson interval); numeric arrays
are estimated as a mean with a Student t interval.

The trials are cut into fixed-size chunks, chunk i drawing from its own stream
`SeedSequence(seed).spawn(n_chunks)[i]`, and chunk results are combined in chunk order. So the
answer for a given seed and number of trials is the same, to the bit, whether the chunks run
one after another here or on the workers of a `dask.distributed.Client`.

Inside a `Session` (what `foreground` and the command line use), Ctrl-C stops a run between or
within chunks and it returns the chunks finished so far (`interrupted`, with `trials` < `requested`);
`foreground` then gives the figures of the trials every run finished, equal to the bit to an
uninterrupted run of that many trials. A run of a count of its own (`run(..., fixed=True)`: e.g.
whole games played by a slow loop, a rules parameter) keeps its own count, or after Ctrl-C the
trials of it that were finished.
"""

from __future__ import annotations

import ctypes
import functools
import itertools
import logging
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, Generic, Self, TypeVar

import numpy as np

Kernel = Callable[[np.random.Generator, int], Mapping[str, np.ndarray]]

CHUNK = 1 << 17
CONFIDENCE = 0.95
WINDOW = 64  # tasks in flight on a Dask client that does not say how many threads it has
ROUNDS = 2  # a task takes 1/(ROUNDS * tasks in flight) of the chunks left...
BATCH = 8  # ...and at most BATCH consecutive chunks (one chunk a task near the end of a run)
GRACE = 1.0  # seconds a run started after a Ctrl-C may take to catch up with the interrupted one
PROBE = 3  # chunks `foreground` runs first, to time them


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate: `value` with a `confidence` interval `ci` from `trials` trials."""

    name: str
    value: float
    ci: tuple[float, float]
    trials: int
    kind: str  # "proportion" (Wilson interval) or "mean" (t interval)
    confidence: float = CONFIDENCE

    def contains(self, x: float) -> bool:
        """Whether x lies in the confidence interval."""
        return self.ci[0] <= x <= self.ci[1]


@dataclass(slots=True)
class _Sums:
    """Sufficient statistics of one quantity: trial count, sum, sum of squares (exact integers
    for integer and boolean values), is-boolean."""

    n: int
    total: int | float
    squares: int | float
    boolean: bool

    def merge(self, other: _Sums) -> _Sums:
        return _Sums(self.n + other.n, self.total + other.total, self.squares + other.squares, self.boolean)


def check_trials(trials: Any) -> int:
    """Validate a number of trials: a positive integer."""
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or trials <= 0:
        raise ValueError(f"trials must be a positive integer, got {trials!r}")
    return int(trials)


def check_seed(seed: Any) -> int:
    """Validate a seed: a non-negative integer."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def run_chunk(
    kernel: Kernel, seed_seq: np.random.SeedSequence, n: int, keep: tuple[str, ...] = ()
) -> tuple[dict[str, _Sums], dict[str, np.ndarray]]:
    """Run one chunk: the per-quantity sums, and the raw values of the quantities in `keep`."""
    _keep_freed_memory()
    values = kernel(np.random.default_rng(seed_seq), n)
    sums = {}
    for name, v in values.items():
        arr = np.asarray(v)
        if arr.shape != (n,):
            raise ValueError(f"kernel value {name!r} has shape {arr.shape}, expected ({n},)")
        if arr.dtype == np.bool_:
            k = int(np.count_nonzero(arr))
            sums[name] = _Sums(n, k, k, True)
        elif np.issubdtype(arr.dtype, np.integer):
            a = arr.astype(np.int64, copy=False)
            sums[name] = _Sums(n, int(a.sum()), int(np.dot(a, a)), False)
        else:
            f = arr.astype(np.float64, copy=False)
            sums[name] = _Sums(n, float(f.sum()), float(np.dot(f, f)), False)
    return sums, {k: np.asarray(values[k]) for k in keep}


def run_chunks(
    kernel: Kernel, streams: Sequence[tuple[np.random.SeedSequence, int]], keep: tuple[str, ...] = ()
) -> list[tuple[dict[str, _Sums], dict[str, np.ndarray]]]:
    """Run consecutive chunks, each from its (stream, size): each one's `run_chunk` result, in order.
    One task on a cluster: a few chunks a task spare the scheduler a round trip per chunk."""
    return [run_chunk(kernel, stream, n, keep) for stream, n in streams]


@functools.cache
def _keep_freed_memory() -> None:
    """Once per process, where `MALLOC_TRIM_THRESHOLD_` is set (Dask's nanny starts every worker
    with it), let glibc's malloc keep freed memory for the next chunk again.

    That variable also fixes glibc's mmap threshold at 128 kB, so every array a chunk makes is
    mapped and unmapped anew, page faults and all: a La Boue chunk took 4x as long on a worker as
    in this process. Raising both thresholds (M_TRIM_THRESHOLD, M_MMAP_THRESHOLD) gives the worker
    the speed of a plain process; a worker's memory then shrinks less eagerly between chunks."""
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ or not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-1, 256 * 2**20)  # M_TRIM_THRESHOLD: bytes free at the top before they go back
        libc.mallopt(-3, 32 * 2**20)  # M_MMAP_THRESHOLD: arrays under this come from the heap (its maximum)
    except (OSError, AttributeError):
        pass  # not glibc: nothing to undo


class ChunkPlan(Sequence[tuple[np.random.SeedSequence, int]]):
    """The (stream, size) of each chunk, made when asked for: nothing is stored per chunk or trial.
    Chunk i's stream is `SeedSequence(seed).spawn(len(plan))[i]`."""

    def __init__(self, trials: int, seed: int, chunk: int) -> None:
        self.trials, self.seed, self.chunk = trials, seed, chunk

    def __len__(self) -> int:
        return (self.trials + self.chunk - 1) // self.chunk

    def __getitem__(self, i: int) -> tuple[np.random.SeedSequence, int]:  # type: ignore[override]  # no slices: chunks are made one at a time
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return np.random.SeedSequence(self.seed, spawn_key=(i,)), min(self.chunk, self.trials - i * self.chunk)


def chunk_plan(trials: int, seed: int, chunk: int = CHUNK) -> ChunkPlan:
    """The (stream, size) of each chunk: fixed by (trials, seed, chunk) alone."""
    return ChunkPlan(trials, seed, chunk)


def wilson(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (as scipy.stats.binomtest's, computed
    here so that a dashboard's first paint does not import scipy.stats, about 50 MiB)."""
    n, k = trials, successes
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    center = (2 * k + z * z) / (2 * (n + z * z))
    half = z * math.sqrt(z * z + 4 * k * (n - k) / n) / (2 * (n + z * z))
    return (0.0 if k == 0 else center - half), (1.0 if k == n else center + half)


def t_interval(mean: float, sd: float, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Student t interval for a mean from n samples with sample standard deviation sd."""
    from scipy.special import stdtrit  # the t quantile without scipy.stats

    if n < 2:
        return (-math.inf, math.inf)
    half = float(stdtrit(n - 1, 0.5 + confidence / 2)) * sd / math.sqrt(n)
    return mean - half, mean + half


def _estimate(name: str, s: _Sums) -> Estimate:
    mean = s.total / s.n
    if s.boolean:
        return Estimate(name, mean, wilson(int(s.total), s.n), s.n, "proportion")
    var = max(s.squares - s.n * mean * mean, 0.0) / (s.n - 1) if s.n > 1 else 0.0
    return Estimate(name, mean, t_interval(mean, math.sqrt(var), s.n), s.n, "mean")


@dataclass(frozen=True)
class MonteCarloResult:
    """Estimates by quantity name, and the raw per-trial values kept on request. `trials` is the
    number of trials run: fewer than `requested` when Ctrl-C stopped the run."""

    estimates: dict[str, Estimate]
    samples: dict[str, np.ndarray]
    trials: int
    seed: int
    requested: int = 0

    def __getitem__(self, name: str) -> Estimate:
        return self.estimates[name]

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C stopped the run before all the trials asked for."""
        return self.trials < self.requested


Chunk = tuple[int, dict[str, _Sums], dict[str, np.ndarray]]  # (size, sums, kept raw values)


@dataclass
class _Finished:
    """The chunks one run of a session finished, in chunk order."""

    key: tuple[Any, ...]
    fixed: bool = False  # a count of its own, not the trials `foreground` asks for
    chunks: list[Chunk] = field(default_factory=list)
    seconds: float = 0.0  # spent computing the `timed` trials
    timed: int = 0

    @property
    def trials(self) -> int:
        return sum(n for n, _, _ in self.chunks)


_SESSION: ContextVar[Session | None] = ContextVar("nessus_montecarlo_session", default=None)


class Session:
    """Runs that Ctrl-C can stop: inside `with Session():`, a KeyboardInterrupt stops the run
    under way, which returns the chunks it finished (it is raised on if there are none); runs
    started after it stop once they have as many trials as that one, or after GRACE seconds.
    A session keeps every chunk its runs finished and reuses them when the same runs (the same
    kernel function, seed, keep and chunk size, in the same order) are made again: see `begin`.
    """

    def __init__(self) -> None:
        self.interrupted = False
        self._runs: list[_Finished] = []
        self._next = 0
        self._replay = False
        self._cap = 0
        self._since = 0.0
        self._tokens: list[Any] = []

    def __enter__(self) -> Self:
        self._tokens.append(_SESSION.set(self))
        return self

    def __exit__(self, *exc: object) -> None:
        _SESSION.reset(self._tokens.pop())

    def begin(self, replay: bool = False) -> None:
        """Start the runs over (the next run is the first one again). `replay`: the runs are made
        of chunks finished already, none computed; Ctrl-C is let through and no progress bar is shown."""
        self._next, self._replay = 0, replay

    def seconds_per_trial(self) -> float:
        """The time one trial of every run of the trials asked for takes (runs of a count of their
        own are left out), from the chunks computed so far; a run's first chunk is left out when
        it had others (it pays for warming up)."""
        return sum(r.seconds / r.timed for r in self._runs if r.timed and not r.fixed)

    def covered(self) -> int:
        """The trials that every run of the trials asked for has finished (runs of a count of
        their own are left out; 0 without runs)."""
        return min((r.trials for r in self._runs if not r.fixed), default=0)

    def _finished(self, key: tuple[Any, ...], fixed: bool) -> _Finished:
        i, self._next = self._next, self._next + 1
        if i < len(self._runs) and self._runs[i].key == key:
            return self._runs[i]
        record = _Finished(key, fixed)
        self._runs[i : i + 1] = [record]
        return record

    def _interrupt(self, done: int) -> None:
        if not self.interrupted:
            self.interrupted, self._cap, self._since = True, done, time.monotonic()

    def _enough(self, done: int) -> bool:
        return self.interrupted and not self._replay and (done >= self._cap or time.monotonic() - self._since > GRACE)


def _progress(total: int, enabled: bool | None):
    if enabled is False or (enabled is None and total < 4 * CHUNK):
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="trial", file=sys.stderr, leave=False)


def _chunks(
    kernel: Kernel,
    plan: ChunkPlan,
    keep: tuple[str, ...],
    client: Any,
    finished: _Finished | None,
    window: int,
    more: bool = True,
) -> Iterator[Chunk]:
    """Each chunk's (size, sums, raw values) in chunk order: those `finished` already holds, then
    (with `more`) new ones computed here or on `client` (up to `window` chunks at a time in flight)
    and added to `finished`. Ctrl-C while chunks run on `client` yields those finished before the
    first unfinished one, then raises."""
    done = finished.chunks if finished is not None else []
    i = 0
    while i < len(plan) and i < len(done) and done[i][0] == plan[i][1]:
        yield done[i]
        i += 1
    if not more or i >= len(plan):
        return
    start = time.perf_counter()
    if client is None:
        results: Iterator[tuple[int, Any]] = ((j, run_chunk(kernel, *plan[j], keep)) for j in range(i, len(plan)))
    else:
        results = _streamed(client, kernel, plan, i, keep, window)
    for j, (sums, raw) in results:
        chunk = (plan[j][1], sums, raw)
        if finished is not None and len(done) == j:
            done.append(chunk)
            if j > 0 or len(plan) == 1:  # a run's first chunk pays for warming up: not timed
                finished.seconds += time.perf_counter() - start
                finished.timed += plan[j][1]
        start = time.perf_counter()
        yield chunk


def _streamed(
    client: Any, kernel: Kernel, plan: ChunkPlan, first: int, keep: tuple[str, ...], window: int
) -> Iterator[tuple[int, Any]]:
    """(chunk index, result) of chunks `first`.. run on `client`, in chunk order, keeping `window`
    tasks in flight: a worker that finishes one finds the next waiting, with no pause at the end
    of a batch. Each task runs a few consecutive chunks (`tasks_of`); the chunks, hence the
    results, are the same whatever the cluster. The kernel is sent to the workers once, not with
    every task. After Ctrl-C: the chunks finished before the first unfinished one, the others
    cancelled, then KeyboardInterrupt."""
    shipped = client.scatter(kernel, broadcast=True, hash=False) if hasattr(client, "scatter") else kernel
    tasks = tasks_of(plan, first, window)
    flying: list[tuple[range, Any]] = []
    try:
        while (batch := list(itertools.islice(tasks, window - len(flying)))) or flying:
            if batch:
                futures = client.map(
                    run_chunks,
                    [shipped] * len(batch),
                    [[plan[j] for j in task] for task in batch],
                    [keep] * len(batch),
                    pure=False,
                )
                flying += zip(batch, futures)
            ready = list(itertools.takewhile(lambda tf: _done(tf[1]), flying))
            if not ready:
                time.sleep(0.01)  # Ctrl-C lands here rather than inside the client's event loop
                continue
            del flying[: len(ready)]
            for task, results in zip([t for t, _ in ready], client.gather([f for _, f in ready])):
                yield from zip(task, results)
    except KeyboardInterrupt:
        ready = list(itertools.takewhile(lambda tf: getattr(tf[1], "status", None) == "finished", flying))
        if hasattr(client, "cancel") and len(ready) < len(flying):
            client.cancel([f for _, f in flying[len(ready) :]])
        for task, results in zip([t for t, _ in ready], client.gather([f for _, f in ready]) if ready else []):
            yield from zip(task, results)
        raise


def tasks_of(plan: ChunkPlan, first: int, window: int) -> Iterator[range]:
    """The chunk indices of each task, in order, made when asked for: runs of consecutive chunks
    from `first`, each 1/(ROUNDS * window) of the chunks left, at most BATCH and at least one.
    Long runs on a small cluster make few tasks (each costs the scheduler milliseconds), and the
    last tasks are single chunks, so no worker waits long for another at the end. (Tasks of a
    worker thread's share of the chunks left, as guided self-scheduling has it, made Dask at 16
    workers 10% slower: large first tasks, unequal.)

    >>> [len(t) for t in tasks_of(chunk_plan(12, 0, chunk=1), 0, window=1)]
    [6, 3, 1, 1, 1]
    >>> [len(t) for t in tasks_of(chunk_plan(153, 0, chunk=1), 0, window=4)][:12]
    [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8]
    >>> len(list(tasks_of(chunk_plan(153, 0, chunk=1), 0, window=4)))  # 2 workers, 2*10^7 trials
    38
    >>> len(list(tasks_of(chunk_plan(153, 0, chunk=1), 0, window=32)))  # 16 workers
    140
    """
    j = first
    while j < len(plan):
        per_task = max(1, min(BATCH, (len(plan) - j) // (ROUNDS * window)))
        yield range(j, min(len(plan), j + per_task))
        j += per_task


QUIET_CLUSTER = {
    "distributed.worker.profile.enabled": False,  # each worker's sampling profiler: 100 samples a second
    "distributed.admin.tick.interval": "1s",  # every process's event-loop watchdog: 50 ticks a second
    "distributed.admin.system-monitor.interval": "10s",  # CPU and memory readings for the status page
    "distributed.scheduler.active-memory-manager.start": False,  # copies of results: a run keeps none
}


def local_cluster(workers: int, dashboard_address: str | None = "127.0.0.1:0") -> Any:
    """A Dask `LocalCluster` of `workers` single-threaded processes on this machine for Monte Carlo
    runs, without the background work they do not need (QUIET_CLUSTER): an idle cluster of two
    workers takes 4% of a core, not 13%. Its status page on any free port (Dask's own, 8787, may be
    another server's here), or none with `dashboard_address` None."""
    import dask
    from dask.distributed import LocalCluster

    with dask.config.set(QUIET_CLUSTER):
        return LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            dashboard_address=dashboard_address,
            silence_logs=logging.ERROR,
        )


def _done(future: Any) -> bool:
    return future.done() if hasattr(future, "done") else True


def in_flight(client: Any) -> int:
    """How many tasks to keep in flight on `client`: two per worker thread (WINDOW if it cannot say)."""
    try:
        threads = sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values())
    except (AttributeError, KeyError, TypeError):
        return WINDOW
    return max(4, 2 * threads)


def run(
    kernel: Kernel,
    trials: int,
    seed: int,
    *,
    keep: tuple[str, ...] = (),
    client: Any = None,
    progress: bool | None = None,
    chunk: int = CHUNK,
    fixed: bool = False,
) -> MonteCarloResult:
    """Run `trials` trials of `kernel` from `seed`; optionally on a dask.distributed `client`.

    `keep` names quantities whose raw per-trial values are returned (in trial order).
    `progress`: True/False forces the progress bar; None shows it for long runs only.
    Inside a `Session`, Ctrl-C returns the chunks finished so far (see `MonteCarloResult.interrupted`).
    `fixed`: `trials` is a count of the run's own (a rules parameter), not the trials `foreground`
    hands the simulation: `foreground` leaves the run out of its estimate of the time and of the
    trials every run finished, and after Ctrl-C the run gives the trials of it that were finished.
    """
    trials, seed = check_trials(trials), check_seed(seed)
    plan = chunk_plan(trials, seed, chunk)
    session = _SESSION.get()
    key = (getattr(kernel, "func", kernel), seed, keep, chunk)
    record = session._finished(key, fixed) if session is not None else None
    replay = session is not None and session._replay
    results: list[Chunk] = []
    bar = _progress(trials, False if replay else progress)
    try:
        window = in_flight(client) if client is not None else 1
        if session is not None and session.interrupted:
            window = 1  # after Ctrl-C: catch up briefly
        for result in _chunks(kernel, plan, keep, client, record, window, more=not replay):
            results.append(result)
            if bar is not None:
                bar.update(result[0])
            if session is not None and session._enough(min(len(results) * chunk, trials)):
                break
    except KeyboardInterrupt:
        if session is None or session._replay or not results:
            raise
        session._interrupt(sum(n for n, _, _ in results))
    finally:
        if bar is not None:
            bar.close()
    if not results:  # a replay of a run that finished no chunk: no figures
        raise KeyboardInterrupt
    totals: dict[str, _Sums] = {}
    for _, sums, _ in results:
        for name, s in sums.items():
            totals[name] = totals[name].merge(s) if name in totals else s
    samples = {k: np.concatenate([raw[k] for _, _, raw in results]) for k in keep}
    estimates = {name: _estimate(name, s) for name, s in totals.items()}
    return MonteCarloResult(estimates, samples, sum(n for n, _, _ in results), seed, trials)


T = TypeVar("T")


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """What `foreground` gives: the result (None when stopped before any figure could be made),
    the trials behind it, and the trials asked for."""

    result: T | None
    trials: int
    requested: int

    @property
    def interrupted(self) -> bool:
        return self.trials < self.requested


def foreground(
    simulate: Callable[[int], T], trials: int, announce: Callable[[float], None] | None = None
) -> Outcome[T]:
    """`simulate(trials)` (any function of a number of trials that makes its runs with `run`),
    so that Ctrl-C stops it with figures. Returns the Outcome.

    It first calls `simulate` with PROBE chunks' worth of trials and `announce(seconds)` with the
    time the whole should take, then `simulate(trials)` reusing those chunks. After Ctrl-C, the
    result is `simulate(m)` for the largest m that every run had finished (runs of a count of
    their own give the trials of it they finished), made from the chunks already finished: the
    same figures, to the bit, as an uninterrupted run of m trials."""
    trials = check_trials(trials)
    first = min(trials, PROBE * CHUNK)
    with Session() as session:
        try:
            result = simulate(first)
        except KeyboardInterrupt:
            return Outcome(None, 0, trials)
        try:
            if first < trials and not session.interrupted:
                if announce is not None:
                    announce(session.seconds_per_trial() * trials)
                session.begin()
                result = simulate(trials)
        except KeyboardInterrupt:
            session._interrupt(0)
        if not session.interrupted:
            return Outcome(result, trials, trials)
        done = min(session.covered(), trials)
        if not done:
            return Outcome(None, 0, trials)
        session.begin(replay=True)
        try:
            return Outcome(simulate(done), done, trials)
        except KeyboardInterrupt:
            return Outcome(None, 0, trials)
