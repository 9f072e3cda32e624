"""The server a class loads, seen from /proc: `nessus serve` on a free loopback port (`Server`), its
processes' CPU seconds and memory, and a wait for a quiet server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TICK = os.sysconf("SC_CLK_TCK")
QUIET_SERVER = 0.05  # CPU seconds per second under which the server counts as quiet


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError):
                continue
            kids.setdefault(ppid, []).append(int(entry.name))
    return kids


def descendants(pid: int) -> list[int]:
    """The process and every process below it."""
    kids, found, todo = _children(), [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo += kids.get(p, [])
    return found


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """CPU seconds (user + system) of each live process, with those of its children that have
    ended (a closed page's renderer, a culled kernel), so that nothing is counted twice or lost."""
    out = {}
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            out[p] = sum(int(f) for f in fields[11:15]) / TICK
        except (OSError, IndexError):
            pass
    return out


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def memory_mib(pid: int) -> tuple[float, float]:
    """(PSS, RSS) of a process in MiB."""
    pss = rss = 0.0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                pss = int(line.split()[1]) / 1024
            elif line.startswith("Rss:"):
                rss = int(line.split()[1]) / 1024
    except OSError:
        pass
    return pss, rss


def is_kernel(pid: int) -> bool:
    return "ipykernel_launcher" in cmdline(pid)


def kernel_pids(server: int) -> list[int]:
    return [p for p in descendants(server) if is_kernel(p)]


def status(base: str) -> dict:
    with urllib.request.urlopen(base + "/nessus/status", timeout=5) as r:
        return json.load(r)


class Server:
    """`nessus serve --engine engine` on a free loopback port, stopped on exit."""

    def __init__(self, *args: str, engine: str = "voila", log: Path | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(log or os.devnull, "w")
        self.args = ("--engine", engine, *args)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "nessus.cli", "serve", "--port", str(self.port), *self.args],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )

    def wait_ready(self, pools: dict[str, int], timeout: float = 300) -> float:
        """Wait until the server answers and each named pool holds that many ready kernels, then
        until it is quiet (at most a minute more); returns the seconds waited."""
        start = time.monotonic()
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("nessus serve exited")
            try:
                got = status(self.base)["pools"]
                if all(got.get(nb, {}).get("ready", 0) >= n for nb, n in pools.items()):
                    break
            except OSError:
                pass
            if time.monotonic() - start > timeout:
                raise TimeoutError(f"pools not ready after {timeout} s")
            time.sleep(0.5)
        quiet_server(self.family, time.monotonic() + 60)
        return time.monotonic() - start

    def pid(self) -> int:
        """The Voila process (the child of `nessus serve`)."""
        kids = [p for p in descendants(self.proc.pid) if "nessus.serving" in cmdline(p)]
        return kids[0] if kids else self.proc.pid

    def family(self) -> list[int]:
        """Every process of the server: `nessus serve`, the engine's process, the kernels."""
        return descendants(self.proc.pid)

    def stop(self) -> None:
        """Stop `nessus serve`, which stops its server and kernels; anything left is killed."""
        family = self.family()
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            pass
        deadline = time.monotonic() + 20
        while (alive := [p for p in family if Path(f"/proc/{p}").exists()]) and time.monotonic() < deadline:
            time.sleep(0.5)
        for p in reversed(alive):
            try:
                os.kill(p, 9)
            except OSError:
                pass
        self.proc.wait()
        self.log.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def total_cpu(pids: Callable[[], list[int]]) -> float:
    return sum(cpu_seconds(pids()).values())


def quiet_server(pids: Callable[[], list[int]], deadline: float) -> None:
    """Wait for two seconds in a row in which the processes `pids()` used under QUIET_SERVER of a
    core (or the deadline): the server has done what the pages asked, whatever else the machine runs."""
    quiet, before = 0, total_cpu(pids)
    while quiet < 2 and time.monotonic() < deadline:
        time.sleep(1)
        now = total_cpu(pids)
        quiet = quiet + 1 if now - before < QUIET_SERVER else 0
        before = now
