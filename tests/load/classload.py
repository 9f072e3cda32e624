"""A class at once: N students open one dashboard against one `nessus serve`, and what they get.

Starts `nessus serve` (the same command line, on a free loopback port), waits until its lesson
pools are ready (`/nessus/status`), then opens N pages in parallel headless Chromium contexts
(arrivals spread evenly over `spread` seconds), each waiting for its first chart and pressing
one button. Prints first-chart p50 / p95 / max, lost pages and errors, the server's CPU seconds
per page during the burst (Voila and its kernels, from /proc) apart from the browsers', and the
kernels' memory (PSS and RSS). Loopback only; every wait is bounded.

    python tests/load/classload.py --students 30 --dashboard le-palais            # lesson mode
    python tests/load/classload.py --students 10 --dashboard le-palais --default  # default serve
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from browser import ARGS, CHROMIUM  # noqa: E402 - tests/ is on sys.path (above)

CHART = ".widget-output svg.marks"
PAGE_TIMEOUT = 240
TICK = os.sysconf("SC_CLK_TCK")


@dataclass
class Result:
    """What one class got."""

    mode: str
    dashboard: str
    students: int
    first_chart: list[float] = field(default_factory=list)
    lost: int = 0
    errors: list[str] = field(default_factory=list)
    server_cpu: float = 0.0
    voila_cpu: float = 0.0
    new_kernels_cpu: float = 0.0
    browser_cpu: float = 0.0
    kernels: int = 0
    kernel_pss_mib: list[float] = field(default_factory=list)
    kernel_rss_mib: list[float] = field(default_factory=list)
    wall: float = 0.0

    def summary(self) -> str:
        """The figures, a few lines of text."""
        t = sorted(self.first_chart)
        q = (lambda p: t[min(len(t) - 1, int(p * len(t)))]) if t else (lambda p: float("nan"))
        n = max(self.students, 1)
        lines = [
            f"[load] {self.mode}: {self.students} students on {self.dashboard}, arrivals over the burst; "
            f"wall {self.wall:.1f} s",
            f"[load]   first chart: p50 {statistics.median(t) if t else float('nan'):.2f} s, p95 {q(0.95):.2f} s, "
            f"max {max(t) if t else float('nan'):.2f} s; {len(t)} got a chart, {self.lost} lost, "
            f"{len(self.errors)} errors",
            f"[load]   server CPU (Voila + kernels) {self.server_cpu:.1f} s = {self.server_cpu / n:.2f} s per page; "
            f"browsers {self.browser_cpu:.1f} s = {self.browser_cpu / n:.2f} s per page",
            f"[load]   of the server's: Voila {self.voila_cpu:.1f} s, kernels started during the burst "
            f"{self.new_kernels_cpu:.1f} s, the rest (kernels ready before it) "
            f"{self.server_cpu - self.voila_cpu - self.new_kernels_cpu:.1f} s",
        ]
        if self.kernel_pss_mib:
            lines.append(
                f"[load]   {self.kernels} kernels: PSS {sum(self.kernel_pss_mib):.0f} MiB in all, "
                f"median {statistics.median(self.kernel_pss_mib):.0f} MiB each "
                f"(RSS median {statistics.median(self.kernel_rss_mib):.0f} MiB, max {max(self.kernel_rss_mib):.0f})"
            )
        lines += [f"[load]   error: {e}" for e in self.errors[:5]]
        return "\n".join(lines)


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


def kernel_pids(server: int) -> list[int]:
    return [p for p in descendants(server) if "ipykernel_launcher" in cmdline(p)]


def status(base: str) -> dict:
    with urllib.request.urlopen(base + "/nessus/status", timeout=5) as r:
        return json.load(r)


class Server:
    """`nessus serve` on a free loopback port, stopped on exit."""

    def __init__(self, *args: str, log: Path | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(log or os.devnull, "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "nessus.cli", "serve", "--port", str(self.port), *args],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )

    def wait_ready(self, pools: dict[str, int], timeout: float = 300) -> float:
        """Wait until the server answers and each named pool holds that many ready kernels, then
        for a quiet CPU; returns the seconds waited."""
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
        quiet_cpu(time.monotonic() + 60)
        return time.monotonic() - start

    def pid(self) -> int:
        """The Voila process (the child of `nessus serve`)."""
        kids = [p for p in descendants(self.proc.pid) if "nessus.serving" in cmdline(p)]
        return kids[0] if kids else self.proc.pid

    def stop(self) -> None:
        """Stop `nessus serve`, which stops Voila and its kernels; anything left is killed."""
        family = descendants(self.proc.pid)
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


def quiet_cpu(deadline: float) -> None:
    """Wait for two seconds of a mostly idle CPU in a row (or the deadline)."""

    def sample() -> tuple[int, int]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return fields[3] + fields[4], sum(fields)

    quiet = 0
    while quiet < 2 and time.monotonic() < deadline:
        i0, t0 = sample()
        time.sleep(1)
        i1, t1 = sample()
        quiet = quiet + 1 if (i1 - i0) / max(t1 - t0, 1) > 0.85 else 0


async def _student(browser, url: str, delay: float, result: Result) -> None:
    await asyncio.sleep(delay)
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    start = time.perf_counter()
    try:
        await page.goto(url, timeout=PAGE_TIMEOUT * 1000, wait_until="commit")
        await page.wait_for_function(
            f"() => document.querySelector({CHART!r}) !== null", timeout=PAGE_TIMEOUT * 1000, polling=250
        )  # not every frame: 30 pages polling at 60 Hz cost CPU
        result.first_chart.append(time.perf_counter() - start)
        button = page.locator("button.jupyter-button:not([disabled]):visible").first
        if await button.count():
            await button.click(timeout=30_000)
            await page.wait_for_timeout(500)
        text = await page.locator("body").inner_text()
        problems += [f"page shows {w!r}" for w in ("Traceback", "class is full") if w in text]
    except Exception as e:  # a lost page: no chart within the bound
        result.lost += 1
        problems.append(f"{type(e).__name__}: {str(e).splitlines()[0][:160]}")
    result.errors += problems
    await context.close()


async def _class(url: str, students: int, spread: float, result: Result, server_pid: int) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        me = os.getpid()
        server0 = cpu_seconds(descendants(server_pid))
        browser0 = cpu_seconds([q for q in descendants(me) if "chrom" in cmdline(q)])
        start = time.perf_counter()
        step = spread / max(students - 1, 1)
        await asyncio.gather(*(_student(browser, url, i * step, result) for i in range(students)))
        result.wall = time.perf_counter() - start
        server1 = cpu_seconds(descendants(server_pid))
        browser1 = cpu_seconds([q for q in descendants(me) if "chrom" in cmdline(q)])
        result.server_cpu = sum(v - server0.get(k, 0.0) for k, v in server1.items())
        result.voila_cpu = server1.get(server_pid, 0.0) - server0.get(server_pid, 0.0)
        result.new_kernels_cpu = sum(v for k, v in server1.items() if k not in server0)
        result.browser_cpu = sum(v - browser0.get(k, 0.0) for k, v in browser1.items())
        await browser.close()


def run_class(
    students: int, dashboard: str, lesson: bool = True, spread: float = 10.0, log: Path | None = None
) -> Result:
    """One class: a fresh server (lesson mode for `dashboard`, or default settings), its pools
    ready, then `students` pages arriving over `spread` seconds."""
    notebook = f"{dashboard}.ipynb"
    args = ["--students", str(students), "--dashboards", dashboard] if lesson else []
    result = Result("lesson mode" if lesson else "default settings", dashboard, students)
    with Server(*args, log=log) as server:
        server.wait_ready({notebook: students if lesson else 1})
        with ThreadPoolExecutor(1) as pool:  # its own event loop, whatever runs in this thread
            url = f"{server.base}/voila/render/{notebook}"
            pool.submit(asyncio.run, _class(url, students, spread, result, server.pid())).result()
        kernels = kernel_pids(server.pid())
        result.kernels = len(kernels)
        mem = [memory_mib(k) for k in kernels]
        result.kernel_pss_mib = [m[0] for m in mem]
        result.kernel_rss_mib = [m[1] for m in mem]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--dashboard", default="le-palais")
    parser.add_argument("--spread", type=float, default=10.0, help="seconds over which the students arrive")
    parser.add_argument("--default", action="store_true", help="default `nessus serve` settings, not lesson mode")
    args = parser.parse_args(argv)
    result = run_class(args.students, args.dashboard, lesson=not args.default, spread=args.spread)
    print(result.summary(), flush=True)
    return 0 if result.lost == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
