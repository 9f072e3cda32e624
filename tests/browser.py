"""Helpers for the dashboard tests in a real browser: a real `nessus serve` process, Solara or
Voila (the `server` fixture in conftest.py), driven in headless Chromium by Playwright.

Screenshots go to test-artifacts/. Timings (page load to first chart, control change to
redrawn chart) are printed and saved to test-artifacts/dashboard-timings.json.

Without /usr/bin/chromium these tests are skipped with a reason, unless NESSUS_REQUIRE_BROWSER
is set (as .ci/run does), where a missing browser is a failure.

What a test checks on the page it checks with Playwright's auto-waiting `expect(...)` (its
timeout set to WAIT_MS in conftest.py), or `wait_for_function` where no `expect` fits: a page
answers a click in several widget messages, one after another, and on a busy machine the one a
test waited for may arrive well before the one it reads next.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from nessus.serving import dashboard_path

WAIT_MS = 30_000  # how long an expect(...) or a helper here waits for the page
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ARTIFACTS = Path(os.environ.get("NESSUS_ARTIFACTS") or Path(__file__).resolve().parent.parent / "test-artifacts")
TIMINGS: dict[str, dict[str, float]] = {}
HARMLESS = (
    "font-awesome",
    "fontawesome",
    "Failed to load resource",
    "not trusted",
    "module federation",
    "shared module",
)
ERROR_TEXT = ("Traceback", "Error:", "setData is not a function", "Exception")


class Served(str):
    """A running server's base address, knowing its engine (`nessus.serving.ENGINES`)."""

    engine: str


def browser_or_skip() -> None:
    if Path(CHROMIUM).exists():
        return
    reason = f"{CHROMIUM} not found (apt-get install chromium); browser tests skipped"
    if os.environ.get("NESSUS_REQUIRE_BROWSER"):
        pytest.fail(reason.replace("skipped", "required here (NESSUS_REQUIRE_BROWSER is set)"))
    print(f"\nSKIP: {reason}", file=sys.stderr)
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_pools(proc: subprocess.Popen, log: Path, deadline: float) -> None:
    """Wait until every dashboard's preheated kernel has started and finished its imports."""
    notebooks = {p.name for p in (Path(__file__).resolve().parent.parent / "dashboards").glob("*.ipynb")}
    while True:
        text = log.read_text()
        if all(f"Kernel pool of {n} is filled" in text for n in notebooks):
            break
        if proc.poll() is not None or time.monotonic() > deadline + 120:
            pytest.fail(f"voila's kernel pools did not fill; see {log}")
        time.sleep(0.5)
    wait_until_quiet(time.monotonic() + 120)


def cpu_idle_fraction(seconds: float = 1.0) -> float:
    def sample() -> tuple[int, int]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return fields[3] + fields[4], sum(fields)

    idle0, total0 = sample()
    time.sleep(seconds)
    idle1, total1 = sample()
    return (idle1 - idle0) / max(total1 - total0, 1)


def wait_until_quiet(deadline: float) -> None:
    """Voila logs a pool as filled when its kernel starts, before the imports run: wait for
    two quiet seconds of CPU in a row (or the deadline)."""
    quiet = 0
    while quiet < 2 and time.monotonic() < deadline:
        quiet = quiet + 1 if cpu_idle_fraction() > 0.85 else 0


def marks(pg) -> int:
    """How many vega marks are drawn on the page."""
    return pg.locator("[aria-roledescription]").count()


def at_least(locator, n: int) -> None:
    """Wait until `locator` matches at least n (>= 1) elements."""
    expect(locator.nth(n - 1)).to_be_attached()


def until(pg, condition: str, arg=None, now: Callable[[], object] | None = None) -> None:
    """Wait until the JS `condition` (called with `arg`) holds; if it never does, fail saying what
    `now()` reads then."""
    try:
        pg.wait_for_function(condition, arg=arg, timeout=WAIT_MS, polling=50)
    except PlaywrightTimeoutError:
        seen = f"; now {now()!r}" if now else ""
        raise AssertionError(f"the page never met {condition} (with {arg!r}){seen}") from None


def fits(pg, width: int) -> None:
    """Wait until the page is at most `width` px wide (nothing sticks out sideways), as after a resize."""
    until(
        pg,
        "(w) => document.documentElement.scrollWidth <= w",
        width,
        lambda: (pg.evaluate("document.documentElement.scrollWidth"), pg.evaluate(STICKING_OUT, width)),
    )


STICKING_OUT = r"""(w) => Array.from(document.querySelectorAll('*'))
    .filter(e => e.getBoundingClientRect().right > w
        && !Array.from(e.children).some(c => c.getBoundingClientRect().right > w))
    .slice(0, 5)
    .map(e => `${e.tagName}.${e.getAttribute('class')} (${Math.round(e.getBoundingClientRect().right)} px)`)"""
"""What sticks out past `w` px: the innermost elements whose right edge is past it."""


def chart_svg(pg, index: int = 0) -> str:
    return pg.locator(".widget-output svg.marks").nth(index).inner_html()


def no_errors(pg) -> None:
    text = pg.locator("body").inner_text()
    assert not any(e in text for e in ERROR_TEXT), text[:2000]
    assert not pg.problems, pg.problems


def open_dashboard(pg, server: str, notebook: str) -> float:
    """Open a dashboard; the seconds from navigation to the first drawn vega chart."""
    start = time.perf_counter()
    pg.goto(
        f"{server}/{dashboard_path(notebook, getattr(server, 'engine', 'voila'))}", timeout=90_000, wait_until="commit"
    )
    pg.wait_for_selector(".widget-output svg.marks", timeout=90_000)
    return time.perf_counter() - start


def wait_for_charts(pg, n: int) -> None:
    """Wait until n vega charts are drawn (a page's charts arrive one by one), and no more."""
    charts = pg.locator(".widget-output svg.marks")
    at_least(charts, n)
    expect(charts).to_have_count(n)


def redraw_time(pg, before: str, action, index: int = 0) -> float:
    """Seconds from `action` to the chart's SVG differing from `before`."""
    start = time.perf_counter()
    action()
    pg.wait_for_function(
        "([i, old]) => { const s = document.querySelectorAll('.widget-output svg.marks')[i]; "
        "return s && s.innerHTML !== old; }",
        arg=[index, before],
        timeout=30_000,
        polling=20,
    )
    return time.perf_counter() - start


def nudge_slider(pg) -> None:
    """Move the page's first slider one step right, as a keyboard user would."""
    handle = pg.locator(".noUi-handle").first
    handle.focus()
    handle.press("ArrowRight")


def record(name: str, **values: float) -> None:
    TIMINGS[name] = values
    print(f"\n[timing] {name}: " + ", ".join(f"{k} = {v:.2f} s" for k, v in values.items()))


DIE = ".nessus-tray .nessus-die:visible"
TRAY = r"""() => Array.from(document.querySelectorAll('.nessus-tray .nessus-die'))
    .filter(b => b.offsetParent !== null)
    .map(b => [+(b.className.match(/face-(\d)/) || [0, 0])[1], b.classList.contains('held'), !b.disabled])"""


def tray(pg) -> list[tuple[int, bool, bool]]:
    """The dice shown in the tray: (face, held, clickable) each."""
    return [tuple(d) for d in pg.evaluate(TRAY)]


def rolls_made(pg) -> int:
    return int(pg.locator(".roll-counter").get_attribute("data-made"))


def roll_dice(pg) -> float:
    """Click Roll; the seconds until the roll counter has moved on."""
    made = rolls_made(pg)
    start = time.perf_counter()
    pg.locator(".roll-button").click()
    pg.wait_for_function(
        "(n) => +document.querySelector('.roll-counter').dataset.made === n", arg=made + 1, timeout=30_000, polling=20
    )
    return time.perf_counter() - start


def click_until(pg, locator, condition: str, arg=None) -> float:
    """Click, then wait for a JS condition; the seconds it took."""
    start = time.perf_counter()
    locator.click()
    pg.wait_for_function(condition, arg=arg, timeout=30_000, polling=20)
    return time.perf_counter() - start


def mark_first_die(pg, roll_label: str, verb: str) -> float:
    """Click the tray's first die: it is marked, Roll now reads `roll_label` (e.g. "Roll 4 dice"),
    and the hint judges that choice ("Your choice (<verb> ...)": optimal, or what it costs).
    The seconds from the click to the new Roll label."""
    face = tray(pg)[0][0]
    die = pg.locator(DIE).first
    seconds = click_until(
        pg, die, "(label) => document.querySelector('.roll-button').innerText.includes(label)", roll_label
    )
    expect(die).to_contain_class(f"held face-{face}")
    expect(die).to_be_enabled()
    # The hint may arrive after the Roll label: until then the panel still judges the previous choice.
    verdict = re.compile(rf"^Your choice \({re.escape(verb)}.*(is optimal|costs)", re.S)
    expect(pg.locator(".hint-verdict")).to_have_text(verdict, use_inner_text=True)
    expect(pg.locator(".hint-row.chosen")).to_have_count(1)
    return seconds


def tray_until(pg, condition: str, arg=None) -> list[tuple[int, bool, bool]]:
    """Wait until the dice in the tray, as `tray` gives them, meet the JS `condition`
    ((dice, arg) => bool); those dice."""
    until(pg, f"([arg]) => ({condition})(({TRAY})(), arg)", [arg], lambda: tray(pg))
    return tray(pg)


def fresh_dice(pg, n: int) -> list[tuple[int, bool, bool]]:
    """Wait until the tray shows n dice just rolled: none held, every one clickable; those dice."""
    return tray_until(pg, "(d, n) => d.length === n && d.every(([, held, click]) => !held && click)", n)


CHART_TEXT = r"""(i) => { const out = document.querySelectorAll('.nessus-chart')[i];
    return !out ? '' : Array.from(out.querySelectorAll('svg text'))
        .map(t => t.querySelector('tspan')
            ? Array.from(t.querySelectorAll('tspan')).map(s => s.textContent).join(' ') : t.textContent)
        .join(' ').trim().split(/\s+/).join(' '); }"""


def chart_shows(pg, words: str, index: int = 0) -> None:
    """Wait until the index-th chart pane's text (a long title is drawn as lines, joined here by
    spaces) contains `words`."""
    until(pg, f"([i, w]) => ({CHART_TEXT})(i).includes(w)", [index, words], lambda: chart_text(pg, index))


def shows_error(pg, message: str) -> str:
    """Wait for the page's message (`.nessus-error`, never a traceback) to say `message`; returns its text."""
    error = pg.locator(".nessus-error")
    expect(error).to_contain_text(message, use_inner_text=True)
    return error.inner_text()


def enter_bad(pg, field, value: str, message: str) -> str:
    """Type a bad `value` into `field` and press Enter: the page says `message` (returned whole)."""
    field.fill(value)
    field.press("Enter")
    return shows_error(pg, message)


def error_cleared(pg) -> None:
    """Wait until the page shows no message."""
    pg.wait_for_function("() => !document.querySelector('.nessus-error')", timeout=30_000)


def chart_text(pg, index: int = 0) -> str:
    """The text of the index-th chart pane now, its lines joined by spaces (a long title is drawn as
    lines): to read after a wait; `chart_shows` waits."""
    return pg.evaluate(CHART_TEXT, index)
