"""A class at once: N students open one dashboard against one `nessus serve`, and what they get.

Starts `nessus serve` (the same command line, on a free loopback port), waits until its lesson
pools are ready (`/nessus/status`), then opens N pages in parallel headless Chromium contexts
(arrivals spread evenly over `spread` seconds), each waiting for its first chart, then pressing
the dashboard's main control (Roll on Le Palais; `CONTROLS`) and waiting for the page's answer.
Prints first-chart and press-to-answer p50 / p95 / max, lost pages and errors, the server's CPU
seconds per page during the burst (Voila and its kernels, from /proc) apart from the browsers',
and the kernels' memory (PSS and RSS). Loopback only; every wait is bounded.

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
ANSWER_TIMEOUT = 60
TICK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Control:
    """What a student presses (`button`, a CSS selector) and the page's answer: `answer`, a CSS
    selector that matches nothing before the press and something once the page has answered."""

    name: str
    button: str
    answer: str


ROLL = Control("Roll", ".roll-button", ".roll-counter[data-made='1']")  # the dice games' roll counter
CONTROLS = {
    "le-renard": Control("Roll", ".roll-button", ".verdict"),
    "la-boue": Control("Roll", ".roll-button", "svg.die"),
    "nessie": Control("Reveal", ".reveal-button", ".nessie-row .nessie-card"),
    "la-tresse": Control("Throw", ".roll-button", ".tresse-log[data-lines='1']"),
    "les-royaumes": Control("Roll", ".roll-button", ".royaumes-log[data-lines='1']"),
    "nessos": Control("Offer", ".offer-button", ".nessos-prompt[data-made='1']"),
    "entheos": Control("Roll", ".entheos-roll", ".ent-field[data-phase='place']"),
}
WATCH = """(answer) => {  // the press and the answer, timed in the page (not by Playwright's polling)
    const t = window.nessusLoad = {clicked: null, answered: null};
    addEventListener('click', () => { t.clicked ??= performance.now(); }, {capture: true, once: true});
    const watch = new MutationObserver(() => {
        if (t.clicked === null || !document.querySelector(answer)) return;
        t.answered = performance.now();
        watch.disconnect();
    });
    watch.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def percentiles(values: list[float]) -> str:
    """p50, p95 and max of some seconds."""
    t = sorted(values)
    if not t:
        return "p50 nan s, p95 nan s, max nan s"
    return f"p50 {statistics.median(t):.2f} s, p95 {t[min(len(t) - 1, int(0.95 * len(t)))]:.2f} s, max {t[-1]:.2f} s"


@dataclass
class Result:
    """What one class got."""

    mode: str
    dashboard: str
    students: int
    control: str = ""
    first_chart: list[float] = field(default_factory=list)
    answer: list[float] = field(default_factory=list)  # seconds from the press to the page's answer
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
        n = max(self.students, 1)
        lines = [
            f"[load] {self.mode}: {self.students} students on {self.dashboard}, arrivals over the burst; "
            f"wall {self.wall:.1f} s",
            f"[load]   first chart: {percentiles(self.first_chart)}; {len(self.first_chart)} got a chart, "
            f"{self.lost} lost, {len(self.errors)} errors",
            f"[load]   {self.control} to its answer: {percentiles(self.answer)}; {len(self.answer)} answered",
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


def _why(e: Exception) -> str:
    return f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"


async def press(page, control: Control) -> float:
    """Press the control once the page offers it, and wait for the page's answer; the seconds
    between the two, as the page saw them."""
    from playwright.async_api import expect

    button, answer = page.locator(control.button), page.locator(control.answer)
    await expect(button).to_be_enabled(timeout=ANSWER_TIMEOUT * 1000)
    await expect(answer).to_have_count(0)  # not answered before the press
    await page.evaluate(WATCH, control.answer)
    await button.click(timeout=ANSWER_TIMEOUT * 1000)
    await expect(answer.first).to_be_attached(timeout=ANSWER_TIMEOUT * 1000)
    await page.wait_for_function("() => window.nessusLoad.answered !== null", timeout=10_000)
    return await page.evaluate("() => (window.nessusLoad.answered - window.nessusLoad.clicked) / 1000")


async def _student(browser, url: str, control: Control, delay: float, result: Result) -> None:
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
    except Exception as e:  # a lost page: no chart within the bound
        result.lost += 1
        problems.append(_why(e))
    else:
        try:
            result.answer.append(await press(page, control))
        except Exception as e:
            problems.append(f"{control.name} not answered: {_why(e)}")
        text = await page.locator("body").inner_text()
        problems += [f"page shows {w!r}" for w in ("Traceback", "class is full") if w in text]
    result.errors += problems
    await context.close()


async def _class(url: str, control: Control, students: int, spread: float, result: Result, server_pid: int) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        me = os.getpid()
        server0 = cpu_seconds(descendants(server_pid))
        browser0 = cpu_seconds([q for q in descendants(me) if "chrom" in cmdline(q)])
        start = time.perf_counter()
        step = spread / max(students - 1, 1)
        await asyncio.gather(*(_student(browser, url, control, i * step, result) for i in range(students)))
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
    control = CONTROLS.get(dashboard, ROLL)
    result = Result("lesson mode" if lesson else "default settings", dashboard, students, control.name)
    with Server(*args, log=log) as server:
        server.wait_ready({notebook: students if lesson else 1})
        with ThreadPoolExecutor(1) as pool:  # its own event loop, whatever runs in this thread
            url = f"{server.base}/voila/render/{notebook}"
            pool.submit(asyncio.run, _class(url, control, students, spread, result, server.pid())).result()
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
