"""The Monte Carlo runner: reproducibility, chunk independence (here and on a real Dask cluster),
and the confidence intervals against scipy and the textbook Wilson formula."""

import math
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from nessus import montecarlo
from nessus.games import boue
from nessus.montecarlo import Estimate, check_seed, check_trials, chunk_plan, run, run_chunk, t_interval, wilson

# Fixed seeds throughout: every test here is deterministic.
COVERAGE_RUNS = 40
COVERAGE_MIN = int(stats.binom.ppf(0.001, COVERAGE_RUNS, 0.95))  # 33 of 40


def die_kernel(rng, n):
    """One d6 per trial: whether it shows 6 (exact 1/6) and its face (exact mean 7/2)."""
    faces = rng.integers(1, 7, size=n)
    return {"six": faces == 6, "face": faces}


# -- validation ---------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "3", None])
def test_check_trials_rejects(bad):
    with pytest.raises(ValueError, match="trials"):
        check_trials(bad)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3", None])
def test_check_seed_rejects(bad):
    with pytest.raises(ValueError, match="seed"):
        check_seed(bad)


def test_check_accepts_positive_integers_and_seed_zero():
    assert check_trials(5) == 5 and check_trials(np.int64(7)) == 7
    assert check_seed(0) == 0 and check_seed(np.int32(3)) == 3
    with pytest.raises(ValueError, match="trials"):
        run(die_kernel, 0, 1)
    with pytest.raises(ValueError, match="seed"):
        run(die_kernel, 10, -1)


def test_kernel_with_wrong_shape_is_rejected():
    with pytest.raises(ValueError, match="shape"):
        run(lambda rng, n: {"x": np.zeros(n + 1)}, 10, 0)


# -- reproducibility -----------------------------------------------------------------------------
def test_same_seed_gives_bit_identical_results():
    a = run(die_kernel, 5000, 42, keep=("face",), chunk=1000)
    b = run(die_kernel, 5000, 42, keep=("face",), chunk=1000)
    assert a.estimates == b.estimates
    assert np.array_equal(a.samples["face"], b.samples["face"])
    c = run(die_kernel, 5000, 43, chunk=1000)
    assert c["face"].value != a["face"].value


def test_chunk_plan_sizes_and_streams():
    plan = chunk_plan(10, 7, chunk=3)
    assert [n for _, n in plan] == [3, 3, 3, 1]
    assert [s.spawn_key for s, _ in plan] == [(0,), (1,), (2,), (3,)]
    assert all(s.entropy == 7 for s, _ in plan)
    assert [n for _, n in chunk_plan(6, 0, chunk=3)] == [3, 3]


def test_kept_samples_are_the_chunks_in_trial_order():
    """The raw values equal running each chunk by hand, in order; estimates follow from them."""
    result = run(die_kernel, 2500, 9, keep=("face", "six"), chunk=1000)
    by_hand = [run_chunk(die_kernel, seq, n, ("face",))[1]["face"] for seq, n in chunk_plan(2500, 9, chunk=1000)]
    faces = result.samples["face"]
    assert np.array_equal(faces, np.concatenate(by_hand))
    assert faces.shape == (2500,)
    est = result["face"]
    assert est.kind == "mean" and est.trials == 2500
    assert est.value == pytest.approx(faces.mean(), rel=1e-12)
    lo, hi = stats.t.interval(0.95, 2499, loc=faces.mean(), scale=faces.std(ddof=1) / math.sqrt(2500))
    assert est.ci == pytest.approx((lo, hi), rel=1e-9)
    six = result["six"]
    assert six.kind == "proportion"
    k = int(result.samples["six"].sum())
    assert six.value == k / 2500
    assert six.ci == wilson(k, 2500)


class ReversedClient:
    """Stands in for a dask Client: runs the chunks on threads, submitting them last first."""

    def map(self, func, *iterables, pure=True):
        jobs = list(zip(*iterables))
        with ThreadPoolExecutor(max_workers=3) as pool:
            futures = {i: pool.submit(func, *args) for i, args in reversed(list(enumerate(jobs)))}
            return [futures[i].result() for i in range(len(jobs))]

    def gather(self, futures):
        return futures


def test_results_do_not_depend_on_how_chunks_run():
    local = run(die_kernel, 7000, 3, keep=("face",), chunk=1000)
    other = run(die_kernel, 7000, 3, keep=("face",), chunk=1000, client=ReversedClient())
    assert local.estimates == other.estimates
    assert np.array_equal(local.samples["face"], other.samples["face"])


def test_progress_bar_does_not_change_results(capsys):
    quiet = run(die_kernel, 3000, 5, chunk=1000, progress=False)
    shown = run(die_kernel, 3000, 5, chunk=1000, progress=True)
    assert quiet.estimates == shown.estimates


@pytest.mark.timeout(30)
def test_dask_local_cluster_gives_bit_identical_estimates():
    """Two worker processes, chunks shipped to them, results gathered: same bits as a local run."""
    from dask.distributed import Client, LocalCluster

    kernel = partial(boue.turn_kernel, 3)
    local = run(kernel, 12_000, 11, keep=("turn_mean",), chunk=1500)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, Client(cluster) as client:
        remote = run(kernel, 12_000, 11, keep=("turn_mean",), chunk=1500, client=client)
    assert remote.estimates == local.estimates
    assert np.array_equal(remote.samples["turn_mean"], local.samples["turn_mean"])


# -- intervals ----------------------------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(st.integers(1, 100_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_matches_scipy_and_the_textbook_formula(case):
    """(k + z^2/2)/(n + z^2) +- z/(n + z^2) sqrt(k(n - k)/n + z^2/4), z the 97.5% normal quantile."""
    k, n = case
    lo, hi = wilson(k, n)
    ref = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert (lo, hi) == pytest.approx((ref.low, ref.high), rel=1e-12, abs=1e-15)
    z = stats.norm.ppf(0.975)
    center = (k + z * z / 2) / (n + z * z)
    half = z / (n + z * z) * math.sqrt(k * (n - k) / n + z * z / 4)
    assert (lo, hi) == pytest.approx((max(center - half, 0), min(center + half, 1)), rel=1e-9, abs=1e-12)


@settings(max_examples=50, deadline=None)
@given(st.floats(-100, 100), st.floats(0.01, 50), st.integers(2, 10_000))
def test_t_interval_matches_scipy(mean, sd, n):
    expected = stats.t.interval(0.95, n - 1, loc=mean, scale=sd / math.sqrt(n))
    assert t_interval(mean, sd, n) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_t_interval_of_one_sample_is_unbounded():
    assert t_interval(3.0, 0.0, 1) == (-math.inf, math.inf)


def test_estimate_contains():
    e = Estimate("x", 0.5, (0.4, 0.6), 100, "proportion")
    assert e.contains(0.4) and e.contains(0.6) and not e.contains(0.61)


def test_intervals_cover_at_the_stated_rate():
    """40 independent replications (seeds 0..39) of a die: the Wilson interval for P(6) = 1/6 and
    the t interval for the mean face 7/2 each cover at least the binomial 0.1% quantile of
    Binomial(40, 0.95) times. Deterministic: the seeds are fixed."""
    covered_p = covered_mean = 0
    for seed in range(COVERAGE_RUNS):
        result = run(die_kernel, 400, seed)
        covered_p += result["six"].contains(1 / 6)
        covered_mean += result["face"].contains(3.5)
    assert covered_p >= COVERAGE_MIN
    assert covered_mean >= COVERAGE_MIN


def test_confidence_is_95_percent():
    assert montecarlo.CONFIDENCE == 0.95
    assert run(die_kernel, 100, 0)["six"].confidence == 0.95
