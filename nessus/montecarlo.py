"""Monte Carlo runner: vectorised kernels, reproducible seeds, confidence intervals.

A *kernel* is a picklable function `kernel(rng, n) -> {name: array of n per-trial values}`.
Boolean arrays are events (estimated as a proportion with a Wilson interval); numeric arrays
are estimated as a mean with a Student t interval.

The trials are cut into fixed-size chunks, chunk i drawing from its own stream
`SeedSequence(seed).spawn(n_chunks)[i]`, and chunk results are combined in chunk order. So the
answer for a given seed and number of trials is the same, to the bit, whether the chunks run
one after another here or on the workers of a `dask.distributed.Client`.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

Kernel = Callable[[np.random.Generator, int], Mapping[str, np.ndarray]]

CHUNK = 1 << 17
CONFIDENCE = 0.95


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


@dataclass
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


def run_chunk(kernel: Kernel, seed_seq: np.random.SeedSequence, n: int, keep: tuple[str, ...] = ()) -> tuple[dict[str, _Sums], dict[str, np.ndarray]]:
    """Run one chunk: the per-quantity sums, and the raw values of the quantities in `keep`."""
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


def chunk_plan(trials: int, seed: int, chunk: int = CHUNK) -> list[tuple[np.random.SeedSequence, int]]:
    """The (stream, size) of each chunk: fixed by (trials, seed, chunk) alone."""
    sizes = [chunk] * (trials // chunk) + ([trials % chunk] if trials % chunk else [])
    return list(zip(np.random.SeedSequence(seed).spawn(len(sizes)), sizes))


def wilson(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (scipy.stats.binomtest)."""
    from scipy.stats import binomtest

    ci = binomtest(successes, trials).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def t_interval(mean: float, sd: float, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Student t interval for a mean from n samples with sample standard deviation sd."""
    from scipy.stats import t

    if n < 2:
        return (-math.inf, math.inf)
    half = float(t.ppf(0.5 + confidence / 2, n - 1)) * sd / math.sqrt(n)
    return mean - half, mean + half


def _estimate(name: str, s: _Sums) -> Estimate:
    mean = s.total / s.n
    if s.boolean:
        return Estimate(name, mean, wilson(int(s.total), s.n), s.n, "proportion")
    var = max(s.squares - s.n * mean * mean, 0.0) / (s.n - 1) if s.n > 1 else 0.0
    return Estimate(name, mean, t_interval(mean, math.sqrt(var), s.n), s.n, "mean")


@dataclass(frozen=True)
class MonteCarloResult:
    """Estimates by quantity name, and the raw per-trial values kept on request."""

    estimates: dict[str, Estimate]
    samples: dict[str, np.ndarray]
    trials: int
    seed: int

    def __getitem__(self, name: str) -> Estimate:
        return self.estimates[name]


def _progress(total: int, enabled: bool | None):
    if enabled is False or (enabled is None and total < 4 * CHUNK):
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="trial", file=sys.stderr, leave=False)


def run(
    kernel: Kernel,
    trials: int,
    seed: int,
    *,
    keep: tuple[str, ...] = (),
    client: Any = None,
    progress: bool | None = None,
    chunk: int = CHUNK,
) -> MonteCarloResult:
    """Run `trials` trials of `kernel` from `seed`; optionally on a dask.distributed `client`.

    `keep` names quantities whose raw per-trial values are returned (in trial order).
    `progress`: True/False forces the progress bar; None shows it for long runs only.
    """
    trials, seed = check_trials(trials), check_seed(seed)
    plan = chunk_plan(trials, seed, chunk)
    if client is not None:
        futures = client.map(run_chunk, [kernel] * len(plan), [s for s, _ in plan], [n for _, n in plan], [keep] * len(plan), pure=False)
        results = client.gather(futures)
    else:
        bar = _progress(trials, progress)
        results = []
        for seq, n in plan:
            results.append(run_chunk(kernel, seq, n, keep))
            if bar is not None:
                bar.update(n)
        if bar is not None:
            bar.close()
    totals: dict[str, _Sums] = {}
    for sums, _ in results:
        for name, s in sums.items():
            totals[name] = totals[name].merge(s) if name in totals else s
    samples = {k: np.concatenate([raw[k] for _, raw in results]) for k in keep}
    return MonteCarloResult({name: _estimate(name, s) for name, s in totals.items()}, samples, trials, seed)
