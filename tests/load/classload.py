"""A class at once: N students open one dashboard against one `nessus serve`, then work on it.

Starts `nessus serve` (`--engine voila` or `solara`, on a free loopback port), waits until it is
ready (Voila: its lesson pools, from `/nessus/status`; then until it is quiet), then runs three phases in
parallel headless Chromium contexts, each phase starting once every student is done with the one
before (or lost):

1. pages: the students arrive spread evenly over `spread` seconds, each waiting for its first chart;
2. Roll: all press the dashboard's main control at the same moment (`CONTROLS`) and wait for the
   page's answer, timed in the page (a real mouse click where the control is, once the page
   offers it, and the page's own promise of the answer: Playwright's checks before a click and its
   polling after cost the 30 browsers more CPU than the page's answer did);
3. Hint: all press Hint together (`HINTS`, where the page has one) and wait for its answer.

Prints first-chart and click-to-answer p50 / p95 / max, lost pages and errors, the server's CPU
seconds (every process of `nessus serve`, from /proc) per page and per click, the browsers' apart,
and the server's memory with the pages open (PSS and RSS of every process, summed; Voila's
kernels apart). `--engine both` runs Voila, then Solara, and prints both side by side in one
markdown table (classresults.py). Loopback only; every wait is bounded.

    python3 dev.py load --students 30 --dashboard le-palais                 # Voila, lesson mode
    python3 dev.py load --students 10 --dashboard le-palais --default       # default serve settings
    python3 dev.py load --students 30 --engine both --json /tmp/class.json  # Voila and Solara
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shlex
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from browser import ARGS, CHROMIUM, HARMLESS
from classresults import Phase, Result, table
from classserver import (  # noqa: F401 - the server tests import these from here
    ROOT,
    Server,
    cmdline,
    cpu_seconds,
    descendants,
    free_port,
    is_kernel,
    kernel_pids,
    memory_mib,
    quiet_server,
    status,
)

from nessus.serving import dashboard_path

CHART = ".nessus-chart svg.marks"  # a chart pane, drawn (the same element on both engines)
PAGE_TIMEOUT = 240
ANSWER_TIMEOUT = 60
SETTLE = 30  # seconds a phase waits at most, at its end, for the server to go quiet


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
HINT = Control("Hint", ".hint-toggle", ".hint-panel")  # the kit's Hint toggle (kit/hint.py HintPanel)
HINTS = {name: HINT for name in ("l-hypogeon", "la-tresse", "le-legit", "le-naute", "le-sept-fatal", "les-trois")}
HINTS |= {"les-royaumes": HINT, "nyx": HINT, "le-palais": Control("Hint", ".hint-toggle", ".hint-table")}
NOTED = ("error", "warning")  # the console messages a lost page reports
PANES = """() => [...document.querySelectorAll('.nessus-chart')].map(
    (c) => c.querySelector('svg.marks') ? 'drawn' : c.querySelector('.vega-embed') ? 'embedding' : 'empty')"""
WATCH = """([button, answer]) => {  // the press and the answer, timed in the page (not by polling it)
    const t = window.nessusLoad = {clicked: null, answered: null, at: null, missed: false};
    let answered;
    t.done = new Promise((ok) => { answered = ok; });
    addEventListener('click', (e) => {
        if (t.clicked !== null) return;
        t.clicked = performance.now();
        t.at = Date.now();
        t.missed = !e.target.closest(button);
    }, {capture: true});
    const watch = new MutationObserver(() => {
        if (t.clicked === null || !document.querySelector(answer)) return;
        t.answered = performance.now();
        watch.disconnect();
        answered({clicked: t.clicked, answered: t.answered, at: t.at});
    });
    watch.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
    const box = document.querySelector(button).getBoundingClientRect();
    return {x: box.x + box.width / 2, y: box.y + box.height / 2};
}"""


def _why(e: Exception) -> str:
    return f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"


@dataclass
class Student:
    """One student's page and what went wrong on it."""

    context: object
    page: object
    problems: list[str] = field(default_factory=list)
    chart: bool = False


async def arrive(browser, url: str, delay: float, phase: Phase, shot: Path | None) -> Student:
    """A student opens the page after `delay` seconds and waits for the first chart (a lost page:
    what it shows, its chart panes and its console's last errors in the error, its screenshot at `shot`)."""
    await asyncio.sleep(delay)
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    student, console = Student(context, page), []
    page.on("pageerror", lambda e: student.problems.append(str(e)))
    page.on("console", lambda m: console.append(f"{m.type}: {m.text[:160]}") if m.type in NOTED else None)
    start = time.perf_counter()
    phase.count += 1
    try:
        await page.goto(url, timeout=PAGE_TIMEOUT * 1000, wait_until="commit")
        await page.wait_for_function(
            f"() => document.querySelector({CHART!r}) !== null", timeout=PAGE_TIMEOUT * 1000, polling=250
        )  # not every frame: 30 pages polling at 60 Hz cost CPU
    except Exception as e:  # a lost page: no chart within the bound
        try:  # what it shows, if it shows anything (a page that never loaded has no body)
            shows = " ".join((await page.locator("body").inner_text(timeout=10_000)).split())[:120]
            panes = await page.evaluate(PANES)
        except Exception as unread:
            shows, panes = f"nothing readable ({_why(unread)})", []
        student.problems.append(
            f"no chart: {_why(e)}; the page shows {shows!r}; its chart panes {panes}; console {console[-4:]}"
        )
        if shot:
            with contextlib.suppress(Exception):
                await page.screenshot(path=shot, full_page=True, timeout=30_000)
    else:
        phase.seconds.append(time.perf_counter() - start)
        student.chart = True
    return student


async def ready(student: Student, control: Control) -> dict | None:
    """Wait until the page offers the control and has not answered it yet; then watch the press.
    Where the control is on the screen (its centre, in CSS pixels), or None (the student's problem noted)."""
    from playwright.async_api import expect

    button = student.page.locator(control.button)
    try:
        await expect(button).to_be_enabled(timeout=ANSWER_TIMEOUT * 1000)
        await expect(student.page.locator(control.answer)).to_have_count(0)
        await button.scroll_into_view_if_needed()
        return await student.page.evaluate(WATCH, [control.button, control.answer])
    except Exception as e:
        student.problems.append(f"{control.name} not offered: {_why(e)}")
        return None


async def press(student: Student, control: Control, where: dict, phase: Phase) -> float | None:
    """Press the control, a real mouse click where `ready` found it, and wait for the page's
    answer; the moment the click landed (epoch ms), the seconds to the answer, as the page saw
    them, added to the phase. The click skips Playwright's actionability checks and the wait is
    the page's own promise, not a poll: those cost 30 browsers more CPU than the page's answer."""
    page = student.page
    phase.count += 1
    try:
        await page.mouse.click(where["x"], where["y"])
        t = await asyncio.wait_for(page.evaluate("() => window.nessusLoad.done"), ANSWER_TIMEOUT)
    except Exception as e:
        why = _why(e)
        with contextlib.suppress(Exception):
            if await page.evaluate("() => window.nessusLoad.missed"):
                why = f"the click missed {control.button}"
        student.problems.append(f"{control.name} not answered: {why}")
        return None
    phase.seconds.append((t["answered"] - t["clicked"]) / 1000)
    return t["at"]


class Meter:
    """The CPU seconds of the server's processes and of the browsers, phase after phase."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.me = os.getpid()
        self.last = self.read()

    def read(self) -> tuple[dict[int, float], dict[int, float]]:
        browsers = [p for p in descendants(self.me) if "chrom" in cmdline(p)]
        return cpu_seconds(self.server.family()), cpu_seconds(browsers)

    def phase_ends(self, phase: Phase) -> None:
        """Give the phase the CPU seconds since the last phase ended."""
        (server0, browser0), (server1, browser1) = self.last, self.read()
        phase.server_cpu = sum(v - server0.get(k, 0.0) for k, v in server1.items())
        phase.new_kernels_cpu = sum(v for k, v in server1.items() if k not in server0 and is_kernel(k))
        phase.browser_cpu = sum(v - browser0.get(k, 0.0) for k, v in browser1.items())
        self.last = (server1, browser1)

    async def settle(self, phase: Phase) -> None:
        """Wait (at most SETTLE seconds) for the server to finish what the pages asked; end the phase."""
        await asyncio.to_thread(quiet_server, self.server.family, time.monotonic() + SETTLE)
        self.phase_ends(phase)


async def click_phase(students: list[Student], control: Control, meter: Meter) -> Phase:
    """Every student whose page is up presses `control` at the same moment and waits for the answer."""
    phase = Phase(control.name)
    up = [s for s in students if s.chart]
    offered = await asyncio.gather(*(ready(s, control) for s in up))
    landed = await asyncio.gather(*(press(s, control, at, phase) for s, at in zip(up, offered) if at))
    at = [t for t in landed if t is not None]
    phase.clicks_within = (max(at) - min(at)) / 1000 if at else 0.0
    await meter.settle(phase)
    return phase


async def _class(url: str, spread: float, result: Result, server: Server, shots: Path | None) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        meter = Meter(server)
        start = time.perf_counter()
        pages = Phase("pages")
        step = spread / max(result.students - 1, 1)
        students = await asyncio.gather(
            *(
                arrive(browser, url, i * step, pages, shots and shots / f"{result.slug}-lost-{i}.png")
                for i in range(result.students)
            )
        )
        await meter.settle(pages)
        result.phases.append(pages)
        result.lost = sum(not s.chart for s in students)
        for control in (CONTROLS.get(result.dashboard, ROLL), HINTS.get(result.dashboard)):
            if control and server.proc.poll() is None:
                result.phases.append(await click_phase(list(students), control, meter))
        if server.proc.poll() is not None:
            phase = result.phases[-1].name
            result.errors.append(f"nessus serve exited by the end of {phase} (exit status {server.proc.returncode})")
        result.wall = time.perf_counter() - start
        family = server.family()
        mem = [memory_mib(k) for k in family]
        result.pss_mib, result.rss_mib, result.processes = sum(m[0] for m in mem), sum(m[1] for m in mem), len(mem)
        kernels = [memory_mib(k) for k in family if is_kernel(k)]
        result.kernel_pss_mib, result.kernel_rss_mib = [m[0] for m in kernels], [m[1] for m in kernels]
        for s in students:
            if s.chart:
                text = await s.page.locator("body").inner_text()
                s.problems += [f"page shows {w!r}" for w in ("Traceback", "class is full") if w in text]
            result.errors += [e for e in s.problems if not any(h in e for h in HARMLESS)]
        await asyncio.gather(*(s.context.close() for s in students))
        await browser.close()


def run_class(
    students: int,
    dashboard: str,
    lesson: bool = True,
    spread: float = 10.0,
    artifacts: Path | None = None,
    engine: str = "voila",
) -> Result:
    """One class: a fresh server of `engine` (lesson mode for `dashboard`, or default settings),
    ready, then `students` pages arriving over `spread` seconds, pressing Roll, then Hint. The
    server's log and the lost pages' screenshots go to `artifacts` (`Result.slug`...)."""
    args = ["--students", str(students), "--dashboards", dashboard] if lesson else []
    result = Result(engine, "lesson mode" if lesson else "default settings", dashboard, students, spread)
    if artifacts:
        artifacts.mkdir(parents=True, exist_ok=True)
    with Server(*args, engine=engine, log=artifacts and artifacts / f"{result.slug}.log") as server:
        result.command = list(server.args)
        pools = {f"{dashboard}.ipynb": students if lesson else 1} if engine == "voila" else {}
        result.ready_s = server.wait_ready(pools)
        result.idle_pss_mib = sum(memory_mib(p)[0] for p in server.family())
        with ThreadPoolExecutor(1) as pool:  # its own event loop, whatever runs in this thread
            url = f"{server.base}/{dashboard_path(dashboard, engine)}"
            pool.submit(asyncio.run, _class(url, spread, result, server, artifacts)).result()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--dashboard", default="le-palais")
    parser.add_argument("--engine", choices=("voila", "solara", "both"), default="both")
    parser.add_argument("--spread", type=float, default=10.0, help="seconds over which the students arrive")
    parser.add_argument("--default", action="store_true", help="default `nessus serve` settings, not lesson mode")
    parser.add_argument("--json", type=Path, help="write the results there (a list of classes)")
    parser.add_argument("--logs", type=Path, help="a folder for the servers' logs and the lost pages' screenshots")
    args = parser.parse_args(argv)
    engines = ("voila", "solara") if args.engine == "both" else (args.engine,)
    results = []
    for engine in engines:
        result = run_class(args.students, args.dashboard, not args.default, args.spread, args.logs, engine)
        print(result.summary(), flush=True)
        results.append(result)
        if args.json:
            args.json.write_text(json.dumps([asdict(r) for r in results], indent=2))
    if len(results) > 1:
        command = shlex.join(["python3", "dev.py", "load", *(sys.argv[1:] if argv is None else argv)])
        print("\n" + table(results, command), flush=True)
    return 0 if all(r.lost == 0 and not r.unanswered() and not r.errors for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
