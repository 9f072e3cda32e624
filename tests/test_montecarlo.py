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
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
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


# -- a lazy plan, and Ctrl-C ----------------------------------------------------------------------
def test_chunk_plan_is_made_on_demand_and_equals_spawning():
    """Chunk i's stream is SeedSequence(seed).spawn(n)[i], built only when asked for: a plan of
    10^15 trials costs nothing up front."""
    plan = chunk_plan(10, 7, chunk=3)
    spawned = np.random.SeedSequence(7).spawn(4)
    assert [s.generate_state(4).tolist() for s, _ in plan] == [s.generate_state(4).tolist() for s in spawned]
    huge = chunk_plan(10**15, 5)
    assert len(huge) == -(-(10**15) // montecarlo.CHUNK)
    last, size = huge[-1]
    assert size == 10**15 - (len(huge) - 1) * montecarlo.CHUNK
    assert last.spawn_key == (len(huge) - 1,)
    with pytest.raises(IndexError):
        huge[len(huge)]


def stops_on_call(k, kernel=die_kernel):
    """`kernel`, except that its k-th call raises KeyboardInterrupt (as Ctrl-C would there)."""
    calls = []

    def stopping(rng, n):
        calls.append(n)
        if len(calls) == k:
            raise KeyboardInterrupt
        return kernel(rng, n)

    stopping.calls = calls
    return stopping


def test_ctrl_c_in_a_session_returns_the_finished_chunks():
    """Interrupted in its 3rd chunk: the first 2 chunks' estimates and samples, to the bit those of
    an uninterrupted run of that many trials."""
    with montecarlo.Session() as session:
        result = run(stops_on_call(3), 10_000, 4, keep=("face",), chunk=1000)
    assert session.interrupted and result.interrupted
    assert (result.trials, result.requested) == (2000, 10_000)
    whole = run(die_kernel, 2000, 4, keep=("face",), chunk=1000)
    assert result.estimates == whole.estimates
    assert np.array_equal(result.samples["face"], whole.samples["face"])
    assert not whole.interrupted and whole.requested == whole.trials == 2000


def test_ctrl_c_outside_a_session_or_before_any_chunk_is_raised():
    with pytest.raises(KeyboardInterrupt):
        run(stops_on_call(3), 10_000, 4, chunk=1000)
    with montecarlo.Session(), pytest.raises(KeyboardInterrupt):
        run(stops_on_call(1), 10_000, 4, chunk=1000)


def test_ctrl_c_with_a_huge_number_of_trials_allocates_nothing_up_front():
    with montecarlo.Session():
        result = run(stops_on_call(2), 10**15, 1, chunk=1000)
    assert result.trials == 1000 and result.requested == 10**15


def test_runs_after_ctrl_c_catch_up_with_the_interrupted_one_and_stop():
    with montecarlo.Session():
        first = run(stops_on_call(4), 50_000, 1, chunk=1000)
        later = run(die_kernel, 50_000, 2, chunk=1000)
    assert first.trials == later.trials == 3000
    assert later.estimates == run(die_kernel, 3000, 2, chunk=1000).estimates


class Future:
    """A stand-in Dask future: finished, or pending until Ctrl-C comes while it is waited for."""

    def __init__(self, result, status):
        self.result, self.status = result, status

    def done(self):
        if self.status != "finished":
            raise KeyboardInterrupt
        return True


class StoppingClient(ReversedClient):
    """A stand-in Dask client on which chunks `stop_at`.. never finish: Ctrl-C comes while the
    first of them is waited for."""

    def __init__(self, stop_at):
        self.stop_at, self.submitted, self.cancelled = stop_at, 0, []

    def map(self, func, *iterables, pure=True):
        results = super().map(func, *iterables, pure=pure)
        first, self.submitted = self.submitted, self.submitted + len(results)
        return [Future(r, "finished" if first + i < self.stop_at else "pending") for i, r in enumerate(results)]

    def gather(self, futures):
        return [f.result for f in futures]

    def cancel(self, futures):
        self.cancelled.append(len(futures))


@pytest.mark.parametrize(("stop_at", "cancelled"), [(8, 4), (10, 2)])
def test_ctrl_c_on_a_client_keeps_the_chunks_finished_in_order(monkeypatch, stop_at, cancelled):
    """4 chunks in flight; Ctrl-C while chunk `stop_at` is waited for: the chunks before it, in
    order, and the chunks still in flight cancelled."""
    monkeypatch.setattr(montecarlo, "WINDOW", 4)
    monkeypatch.setattr(montecarlo, "BATCH", 1)  # a chunk a task
    client = StoppingClient(stop_at)
    with montecarlo.Session():
        result = run(die_kernel, 20_000, 6, keep=("face",), chunk=1000, client=client)
    assert result.trials == 1000 * stop_at and client.cancelled == [cancelled]
    assert result.estimates == run(die_kernel, result.trials, 6, keep=("face",), chunk=1000).estimates


def test_a_small_cluster_gets_a_few_chunks_a_task_with_the_same_bits(monkeypatch):
    """200 chunks and 4 tasks in flight: tasks of 8 consecutive chunks while over 64 are left, then
    fewer, down to single chunks; the same results as a local run. Ctrl-C while the 6th task is
    waited for keeps the 5 finished tasks' 40 chunks, in order, and cancels the 3 others in flight."""
    monkeypatch.setattr(montecarlo, "WINDOW", 4)
    sizes = [len(t) for t in montecarlo.tasks_of(chunk_plan(200, 0, chunk=1), 0, 4)]
    assert sizes[:17] == [8] * 17 and sizes[-8:] == [1] * 8 and sum(sizes) == 200
    assert sizes == sorted(sizes, reverse=True)
    client = StoppingClient(stop_at=10**6)
    whole = run(die_kernel, 200_000, 8, keep=("face",), chunk=1000, client=client)
    local = run(die_kernel, 200_000, 8, keep=("face",), chunk=1000)
    assert client.submitted == len(sizes)
    assert whole.estimates == local.estimates and np.array_equal(whole.samples["face"], local.samples["face"])
    client = StoppingClient(stop_at=5)
    with montecarlo.Session():
        result = run(die_kernel, 200_000, 8, keep=("face",), chunk=1000, client=client)
    assert result.trials == 40_000 and client.cancelled == [3]
    assert result.estimates == run(die_kernel, 40_000, 8, keep=("face",), chunk=1000).estimates


def test_a_client_keeps_two_tasks_in_flight_per_worker_thread():
    class Cluster:
        def scheduler_info(self):
            return {"workers": {"a": {"nthreads": 1}, "b": {"nthreads": 3}}}

    assert montecarlo.in_flight(Cluster()) == 8
    assert montecarlo.in_flight(ReversedClient()) == montecarlo.WINDOW


def two_runs(kernel):
    """A game's `simulate` in small: two runs of the same trials (seeds 3 and 4), then estimates."""

    def simulate(trials):
        one = run(die_kernel, trials, 3, keep=("face",))
        two = run(kernel, trials, 4)
        return one.estimates | {f"two_{k}": e for k, e in two.estimates.items()}, one.samples["face"]

    return simulate


def test_foreground_without_ctrl_c_is_the_plain_run_reusing_the_timed_chunk():
    """The first PROBE chunks of each run (timed for `announce`) are not computed twice."""
    counted = stops_on_call(0)
    seconds = []
    outcome = montecarlo.foreground(two_runs(counted), 5 * montecarlo.CHUNK + 17, seconds.append)
    assert not outcome.interrupted and outcome.trials == outcome.requested == 5 * montecarlo.CHUNK + 17
    estimates, faces = outcome.result
    plain, plain_faces = two_runs(die_kernel)(5 * montecarlo.CHUNK + 17)
    assert estimates == plain and np.array_equal(faces, plain_faces)
    assert len(counted.calls) == 6 and sum(counted.calls) == 5 * montecarlo.CHUNK + 17
    assert len(seconds) == 1 and seconds[0] > 0
    short = []
    assert montecarlo.foreground(two_runs(die_kernel), 1000, short.append).result[0] == two_runs(die_kernel)(1000)[0]
    assert short == []  # within the first chunks: the timed run is the whole run


def test_foreground_announces_the_time_from_the_first_chunk():
    """A kernel taking at least 0.05 s a chunk: 40 chunks take at least 2 s, said before they run
    (after the first PROBE chunks, which are kept)."""
    import time

    def slow(rng, n):
        time.sleep(0.05)
        return die_kernel(rng, n)

    said = []

    def announce(seconds):
        said.append(seconds)
        raise KeyboardInterrupt

    outcome = montecarlo.foreground(lambda n: run(slow, n, 0), 40 * montecarlo.CHUNK, announce)
    assert len(said) == 1 and 40 * 0.05 <= said[0] < 40 * 0.05 * 20
    assert outcome.interrupted and outcome.trials == montecarlo.PROBE * montecarlo.CHUNK  # Ctrl-C while announcing


@pytest.mark.parametrize("stop_on", [2, 4, 7])
def test_foreground_after_ctrl_c_gives_the_run_of_the_trials_every_run_finished(stop_on):
    """Ctrl-C in the second run's k-th kernel call: the figures are those of a plain run of the
    trials both runs finished (the first run's extra chunks are left out)."""
    outcome = montecarlo.foreground(two_runs(stops_on_call(stop_on)), 20 * montecarlo.CHUNK)
    assert outcome.interrupted and outcome.requested == 20 * montecarlo.CHUNK
    assert outcome.trials == (stop_on - 1) * montecarlo.CHUNK
    estimates, faces = outcome.result
    plain, plain_faces = two_runs(die_kernel)(outcome.trials)
    assert estimates == plain and np.array_equal(faces, plain_faces)


def test_foreground_with_ctrl_c_before_any_chunk_gives_no_result():
    outcome = montecarlo.foreground(two_runs(stops_on_call(1)), 20 * montecarlo.CHUNK)
    assert outcome.result is None and outcome.trials == 0 and outcome.interrupted


def with_a_run_of_its_own(own_kernel, own=montecarlo.CHUNK // 4, chunk=montecarlo.CHUNK, kernel=die_kernel):
    """`two_runs(kernel)` after a run of `own_kernel` of a count of its own (`own` trials in
    chunks of `chunk`, `fixed`, as Nyx's whole games)."""

    def simulate(trials):
        mine = run(own_kernel, own, 9, fixed=True, chunk=chunk)
        estimates, faces = two_runs(kernel)(trials)
        return estimates | {f"own_{k}": e for k, e in mine.estimates.items()}, faces

    return simulate


@pytest.mark.parametrize("stop_on", [2, 5])
def test_foreground_after_ctrl_c_leaves_a_run_of_its_own_count_out_of_the_trials_done(stop_on):
    """Ctrl-C in the second run's k-th kernel call: the figures of the trials both runs of the
    trials asked for finished, not cut to the run of its own count (a quarter chunk), which keeps
    its count: those of a plain run."""
    simulate = with_a_run_of_its_own(die_kernel, kernel=stops_on_call(stop_on))
    outcome = montecarlo.foreground(simulate, 20 * montecarlo.CHUNK)
    assert outcome.interrupted and outcome.trials == (stop_on - 1) * montecarlo.CHUNK
    estimates, faces = outcome.result
    plain, plain_faces = with_a_run_of_its_own(die_kernel)(outcome.trials)
    assert estimates == plain and np.array_equal(faces, plain_faces)
    assert {e.trials for k, e in estimates.items() if k.startswith("own_")} == {montecarlo.CHUNK // 4}
    assert {e.trials for k, e in estimates.items() if not k.startswith("own_")} == {outcome.trials}


def test_foreground_leaves_a_run_of_its_own_count_out_of_the_time_said():
    """A slow run of its own count (0.2 s for 1,000 trials) runs once, before the estimate: were it
    counted as a run of the trials asked for, 40 chunks would be said to take over 1,000 s."""
    import time

    def slow(rng, n):
        time.sleep(0.2)
        return die_kernel(rng, n)

    said = []

    def announce(seconds):
        said.append(seconds)
        raise KeyboardInterrupt

    outcome = montecarlo.foreground(with_a_run_of_its_own(slow, 1000), 40 * montecarlo.CHUNK, announce)
    assert len(said) == 1 and said[0] < 100
    estimates, _ = outcome.result
    assert outcome.trials == montecarlo.PROBE * montecarlo.CHUNK and estimates["own_six"].trials == 1000


def test_ctrl_c_in_a_run_of_its_own_count_gives_the_chunks_it_finished_and_computes_no_more():
    """Ctrl-C in the 3rd of 5 chunks of a run of its own count: after it, the runs of the trials
    asked for stop at their first chunk, and the figures give the own run's 2 finished chunks
    (the replay computes none of its 3 others)."""
    kernel = stops_on_call(3)
    outcome = montecarlo.foreground(with_a_run_of_its_own(kernel, 5000, chunk=1000), 20 * montecarlo.CHUNK)
    assert outcome.interrupted and outcome.trials == montecarlo.CHUNK
    estimates, _ = outcome.result
    assert estimates["own_six"].trials == 2000 and kernel.calls == [1000] * 3
    assert estimates["own_six"] == run(die_kernel, 2000, 9, chunk=1000)["six"]
