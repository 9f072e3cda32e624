"""Several `nessus serve` behind HAProxy (deploy/scale_out.py): ten students, every one pinned.

The script starts two small backends (lesson mode, le-palais; on each engine) and HAProxy on a
free port; once both backends are ready (their own /nessus/status: Voila's pools filled), ten
students open le-palais through the proxy in parallel contexts of one headless Chromium, wait for
the first chart, press Roll and wait for the answer. Every page must get its chart and its answer,
every kernel websocket must open and receive messages (none refused, no kernel request answered
404), both backends must serve students, each backend's viewers must be as many as the pages
HAProxy's cookie sent there, and no page may show a traceback. The control runs four Voila
students with `--no-sticky` (HAProxy sends each request to a backend drawn at random): some page
must then see its kernel refused by the backend that does not hold it, so the first test can fail.

Both tests also check that the script stops every process it started on SIGTERM. Without haproxy
they are skipped, unless NESSUS_REQUIRE_BROWSER is set (as in CI).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from browser import ARGS, ARTIFACTS, CHROMIUM, browser_or_skip

from nessus.serving import dashboard_path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "deploy" / "scale_out.py"
DASHBOARD = "le-palais"
CHART = ".nessus-chart svg.marks"  # a chart drawn in the kit's chart pane, on either engine
ROLL, ROLLED = ".roll-button", ".roll-counter[data-made='1']"  # Le Palais' Roll, and its answer
START_TIMEOUT = 300  # seconds for the backends' pools and HAProxy
PAGE_TIMEOUT = 240  # seconds for a page's first chart (classload's bound)
CONTROL_TIMEOUT = 90  # seconds a control page is given for its chart or a refusal
ANSWER_TIMEOUT = 60  # seconds for the page to offer Roll, and then to answer it
STOP_TIMEOUT = 90  # seconds for the script to stop everything (its own bound is 30 s a backend)


def haproxy_or_skip() -> None:
    if shutil.which("haproxy") or Path("/usr/sbin/haproxy").exists():
        return
    reason = "haproxy not found (apt-get install haproxy); the scale-out tests skipped"
    if os.environ.get("NESSUS_REQUIRE_BROWSER"):
        pytest.fail(reason.replace("skipped", "required here (NESSUS_REQUIRE_BROWSER is set)"))
    pytest.skip(reason)


def descendants(pid: int) -> list[int]:
    """The process and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        found.append(todo.pop())
        todo += children.get(found[-1], [])
    return found


def status(base: str) -> dict:
    """A backend's /nessus/status."""
    with urllib.request.urlopen(base + "/nessus/status", timeout=5) as r:
        return json.load(r)


def seconds(values: list[float]) -> str:
    """The median and the largest of some seconds."""
    return f"median {statistics.median(values):.1f} s, max {max(values):.1f} s" if values else "none"


def quiet_port() -> int:
    """A free loopback port below the range where kernels draw theirs, the next two free as well
    (the script's backends take the free ports after the proxy's)."""
    while True:
        port = random.randrange(20_000, 30_000)
        try:
            for p in range(port, port + 3):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
        except OSError:
            continue
        return port


class ScaleOut:
    """deploy/scale_out.py on a free port with these arguments, its output in `log`."""

    def __init__(self, log: Path, *args: str) -> None:
        port = quiet_port()
        self.url = f"http://127.0.0.1:{port}"
        self.log_path = log
        self.log = open(log, "w")
        self.proc = subprocess.Popen(
            [sys.executable, str(SCRIPT), "--port", str(port), *args],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )

    def backends(self) -> dict[str, str]:
        """The backends the script announced: cookie value -> address."""
        return dict(re.findall(r"scale_out: backend (b\d+) at (http://[\d.]+:\d+)", self.log_path.read_text()))

    def wait_ready(self, processes: int, kernels: int, engine: str) -> float:
        """Wait until HAProxy serves and each backend holds `kernels` ready (Voila's pools; Solara
        has none); the seconds waited."""
        start = time.monotonic()
        while True:
            if self.proc.poll() is not None:
                pytest.fail(f"scale_out.py exited ({self.proc.returncode}); see {self.log_path}")
            if time.monotonic() - start > START_TIMEOUT:
                pytest.fail(f"not ready after {START_TIMEOUT} s; see {self.log_path}")
            if "students type" in self.log_path.read_text() and len(self.backends()) == processes:
                try:
                    pools = [status(b)["pools"] for b in self.backends().values()]
                except OSError:
                    pools = []
                if pools and all(engine != "voila" or p[f"{DASHBOARD}.ipynb"]["ready"] >= kernels for p in pools):
                    return time.monotonic() - start
            time.sleep(0.5)

    def stop(self) -> list[int]:
        """Send the script SIGTERM and wait; the processes it left behind (killed here)."""
        try:
            family = descendants(self.proc.pid)
        finally:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass
        left = [p for p in family if Path(f"/proc/{p}").exists() and p != self.proc.pid]
        for p in [self.proc.pid, *left]:
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
        self.proc.wait()
        self.log.close()
        return left


@dataclass
class Student:
    """What one student's page got through the proxy."""

    backend: str = ""  # HAProxy's NESSUS cookie in the browser
    first_chart: float | None = None
    answer: float | None = None
    frames: dict[str, int] = field(default_factory=dict)  # kernel websocket -> messages received
    refused: list[str] = field(default_factory=list)  # kernel websockets' errors, kernels not found
    problems: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)  # the page's console errors, kept in the artifacts

    def watch(self, ws) -> None:
        """Follow a websocket of the page: a kernel's counts its messages and errors."""
        if "/channels" not in ws.url:
            return
        key = f"{len(self.frames)}:{ws.url}"
        self.frames[key] = 0
        ws.on("framereceived", lambda _: self.frames.__setitem__(key, self.frames[key] + 1))
        ws.on("socketerror", lambda error: self.refused.append(error))

    def check(self, response) -> None:
        """Count a kernel request the backend did not know (404) as refused."""
        if response.status == 404 and "/api/kernels/" in response.url:
            self.refused.append(f"404 {response.url}")

    def pinned(self) -> bool:
        """Whether every kernel websocket of the page opened and received messages."""
        return bool(self.frames) and all(self.frames.values()) and not self.refused


async def press_roll(page) -> float:
    """Press Roll once the page offers it; the seconds until the page answers."""
    from playwright.async_api import expect

    button, answer = page.locator(ROLL), page.locator(ROLLED)
    await expect(button).to_be_enabled(timeout=ANSWER_TIMEOUT * 1000)
    await expect(answer).to_have_count(0)
    start = time.perf_counter()
    await button.click(timeout=ANSWER_TIMEOUT * 1000)
    await expect(answer.first).to_be_attached(timeout=ANSWER_TIMEOUT * 1000)
    return time.perf_counter() - start


async def first_chart(page, got: Student, bound: float) -> bool:
    """Wait until the page draws its first chart (True) or a kernel connection is refused (False)."""
    deadline = time.monotonic() + bound
    while not got.refused:
        if await page.locator(CHART).count():
            return True
        if time.monotonic() > deadline:
            raise TimeoutError(f"no chart within {bound:.0f} s")
        await asyncio.sleep(0.25)
    return False


async def student(browser, url: str, delay: float, bound: float, roll: bool, shot: Path) -> tuple[Student, object]:
    """One student opens the page (and presses Roll); what the page got, and its browser context
    (left open, so that its kernel is still counted). A page that fails is saved in `shot`."""
    await asyncio.sleep(delay)
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    got = Student()
    page.on("websocket", got.watch)
    page.on("response", got.check)
    page.on("pageerror", lambda e: got.problems.append(f"page error: {e}"))
    page.on("console", lambda m: got.console.append(m.text[:300]) if m.type == "error" else None)
    start = time.perf_counter()
    try:
        await page.goto(url, timeout=bound * 1000, wait_until="commit")
        if await first_chart(page, got, bound):
            got.first_chart = time.perf_counter() - start
            if roll:
                got.answer = await press_roll(page)
            if "Traceback" in await page.locator("body").inner_text(timeout=10_000):
                got.problems.append("the page shows a Traceback")
    except Exception as e:  # a page that fails is what is counted
        got.problems.append(f"{type(e).__name__}: {str(e).splitlines()[0][:160]}")
        with contextlib.suppress(Exception):  # a page that crashed has nothing to show
            await page.screenshot(path=shot, full_page=True)
    got.backend = next((c["value"] for c in await context.cookies() if c["name"] == "NESSUS"), "")
    return got, context


async def a_class(
    url: str, students: int, spread: float, bound: float, roll: bool, backends: dict[str, str], name: str
):
    """The students arriving over `spread` seconds; what each got, and each backend's status once
    all have finished (their pages still open). A failed page's screenshot: ARTIFACTS/<name>-<i>.png."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            step = spread / max(students - 1, 1)
            done = await asyncio.gather(
                *(student(browser, url, i * step, bound, roll, ARTIFACTS / f"{name}-{i}.png") for i in range(students))
            )
            statuses = {name: await asyncio.to_thread(status, base) for name, base in backends.items()}
        finally:
            await browser.close()
    return [s for s, _ in done], statuses


def run(engine: str, name: str, students: int, kernels: int, spread: float, bound: float, roll: bool, *flags: str):
    """Serve through scale_out.py with two backends, run the class; the students, the backends'
    statuses and the processes left after SIGTERM."""
    haproxy_or_skip()
    browser_or_skip()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    serve = ["--students", str(kernels), "--dashboards", DASHBOARD]
    proxy = ScaleOut(
        ARTIFACTS / f"scale-out-{name}-{engine}.log", "--processes", "2", *flags, "--engine", engine, "--", *serve
    )
    try:
        ready = proxy.wait_ready(2, kernels, engine)
        url = f"{proxy.url}/{dashboard_path(DASHBOARD, engine)}"
        with ThreadPoolExecutor(1) as pool:  # its own event loop, whatever runs in this thread
            got, statuses = pool.submit(
                asyncio.run, a_class(url, students, spread, bound, roll, proxy.backends(), f"scale-out-{name}-{engine}")
            ).result()
    finally:
        left = proxy.stop()
    (ARTIFACTS / f"scale-out-{name}-{engine}.json").write_text(
        json.dumps([dataclasses.asdict(s) for s in got], indent=2)
    )
    charts = [s.first_chart for s in got if s.first_chart is not None]
    answers = [s.answer for s in got if s.answer is not None]
    viewers = {b: st["viewers"] for b, st in statuses.items()}
    print(
        f"\n[scale-out] {name} ({engine}): backends ready in {ready:.0f} s; first chart {seconds(charts)} "
        f"({len(charts)}/{students}); Roll to answer {seconds(answers)}; pinned "
        f"{sum(s.pinned() for s in got)}/{students}; backends {sorted(s.backend for s in got)}; "
        f"viewers {viewers}"
    )
    return got, statuses, left


@pytest.mark.browser
def test_ten_students_pinned_through_haproxy():
    """On Voila, whose pages need their kernel's backend for every request (the suite's time
    allows one engine; `deploy/scale_out.py --engine solara` works the same way)."""
    got, statuses, left = run("voila", "sticky", 10, 5, 5.0, PAGE_TIMEOUT, True)
    report = "\n".join(f"{s.backend or '-'}: {s.problems} {s.refused} {s.frames}" for s in got)
    assert all(s.first_chart is not None for s in got), f"lost pages:\n{report}"
    assert all(s.answer is not None for s in got), f"Roll not answered:\n{report}"
    assert all(s.pinned() for s in got), f"a kernel websocket failed:\n{report}"
    assert not any(s.problems for s in got), report
    served = {b: sum(s.backend == b for s in got) for b in statuses}
    assert sorted(served) == ["b1", "b2"] and all(served.values()), f"one backend served everyone: {served}"
    assert {b: st["viewers"] for b, st in statuses.items()} == served, f"kernels not where the cookie says: {statuses}"
    assert not left, f"processes left after SIGTERM: {left}"


@pytest.mark.browser
def test_without_stickiness_pages_lose_their_kernel():
    """Voila's pages: a page's kernel lives in the backend that served the page, which its
    websocket, sent to the other backend, does not find (404). Solara's page speaks to its
    process over its one websocket only, so its pages got their charts without stickiness (8 of 8
    here, requests at random): there the cookie keeps a page's later connections (a websocket
    reconnecting) on the process that holds its virtual kernel, and its websocket on the backend
    where the page's request took its place (else it holds a place on each for up to a minute)."""
    got, _, left = run("voila", "control", 4, 2, 0.0, CONTROL_TIMEOUT, False, "--no-sticky")
    assert not any(s.backend for s in got), "HAProxy set its cookie with --no-sticky"
    report = "\n".join(f"{s.first_chart}: {s.problems} {s.refused} {s.frames}" for s in got)
    assert any(s.refused for s in got), f"no kernel connection refused without stickiness: the control failed\n{report}"
    assert not left, f"processes left after SIGTERM: {left}"
