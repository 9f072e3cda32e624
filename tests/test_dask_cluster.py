"""`nessus simulate --scheduler`: a Dask cluster of its own (`dask scheduler` and two `dask worker`
processes on loopback) gives the serial run's figures to the bit, through the option and through
DASK_SCHEDULER_ADDRESS, and Ctrl-C there prints the figures of the finished chunks (exit 130)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_cli import HUGE, check_stop, interrupt_after_the_estimate, run_json

DASK = Path(sys.executable).with_name("dask")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a scheduler on loopback with two single-threaded workers."""
    port, logs = free_port(), tmp_path_factory.mktemp("dask")
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    common = {"cwd": logs, "env": env, "stdin": subprocess.DEVNULL, "start_new_session": True}
    procs = [
        subprocess.Popen(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--dashboard-address", ":0"],
            stdout=(logs / "scheduler.log").open("w"),
            stderr=subprocess.STDOUT,
            **common,
        )
    ]
    for i in range(2):
        procs.append(
            subprocess.Popen(
                [DASK, "worker", address, "--nthreads", "1", "--nworkers", "1", "--dashboard-address", ":0"],
                stdout=(logs / f"worker-{i}.log").open("w"),
                stderr=subprocess.STDOUT,
                **common,
            )
        )
    try:
        from dask.distributed import Client

        with Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


@pytest.mark.timeout(300)
def test_a_cluster_of_its_own_gives_the_serial_figures_to_the_bit(capsys, scheduler: str) -> None:
    serial = run_json(capsys, "simulate", "boue", "--trials", "600000", "--seed", "5")
    remote = run_json(capsys, "simulate", "boue", "--trials", "600000", "--seed", "5", "--scheduler", scheduler)
    assert remote == serial


@pytest.mark.timeout(300)
def test_dask_scheduler_address_is_the_default_cluster(scheduler: str) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "nessus.cli", "simulate", "palais", "--trials", "300000", "--seed", "2", "--json"],
        env={**os.environ, "DASK_SCHEDULER_ADDRESS": scheduler},
        capture_output=True,
        text=True,
        timeout=240,
    )
    here = subprocess.run(
        [sys.executable, "-m", "nessus.cli", "simulate", "palais", "--trials", "300000", "--seed", "2", "--json"],
        env={k: v for k, v in os.environ.items() if k != "DASK_SCHEDULER_ADDRESS"},
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert out.returncode == here.returncode == 0, out.stderr
    assert json.loads(out.stdout) == json.loads(here.stdout)


@pytest.mark.timeout(300)
def test_ctrl_c_on_a_cluster_prints_the_finished_chunks(capsys, scheduler: str) -> None:
    start = time.monotonic()
    code, out, err = interrupt_after_the_estimate(
        "simulate", "order", "--trials", str(HUGE), "--scheduler", scheduler, "--json", wait=3.0
    )
    assert code == 130 and len(err) == 2 and time.monotonic() - start < 120, err
    done = check_stop(err[1], HUGE)
    doc = json.loads(out)
    assert doc.pop("interrupted")["trials_done"] == done
    assert doc == run_json(capsys, "simulate", "order", "--trials", str(done))


def test_no_scheduler_at_the_address_is_one_line_and_exit_2() -> None:
    port = free_port()
    out = subprocess.run(
        [sys.executable, "-m", "nessus.cli", "simulate", "boue", "--scheduler", f"tcp://127.0.0.1:{port}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "--scheduler: no Dask scheduler answers at" in out.stderr
