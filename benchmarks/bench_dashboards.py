"""Dashboard timings, measured by the browser tests (tests/games/*/test_page.py, tests/apps/) in a real
Voila with preheated kernels and headless Chromium: page load to first chart (target <= 3 s)
and control change to redrawn chart (target <= 300 ms). Run `python3 dev.py test` first (or
`python -m pytest -m browser -s`), which saves them; this prints what they measured, when."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from _timing import record

TIMINGS = Path(__file__).resolve().parent.parent / "test-artifacts" / "dashboard-timings.json"
LOADED = {"first_chart": "page load to first chart", "shown": "page load to its links shown"}
# no target: solves, whole sequences (a move and the machines' moves after it), counts
NO_TARGET = ("optimal_", "_and_", "watch_", "game_moves", "_mean")


def duration(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def shown(key: str, value: float) -> str:
    return f"{key} {value:g}" if key == "game_moves" else f"{key} {duration(value)}"


def report(page: str, values: dict[str, float]) -> None:
    """Record the page's load (target <= 3 s), its controls' redraws (target <= 300 ms: the
    slowest first) and what has no target."""
    for key, what in LOADED.items():
        if key in values:
            record(f"Dashboard {page}: {what}", duration(values[key]), "<= 3 s", values[key] <= 3)
    rest = {k: v for k, v in values.items() if k not in LOADED}
    other = {k: v for k, v in rest.items() if any(part in k for part in NO_TARGET)}
    controls = sorted((k for k in rest if k not in other), key=rest.__getitem__, reverse=True)
    if controls:
        measured = "slowest " + ", ".join(shown(k, rest[k]) for k in controls)
        met = rest[controls[0]] <= 0.3
        record(f"Dashboard {page}: control change to redrawn chart", measured, "<= 300 ms", met)
    if other:
        record(f"Dashboard {page}: other timings", ", ".join(shown(k, v) for k, v in other.items()))


def main() -> None:
    if not TIMINGS.exists():
        print(f"no timings yet: run the browser tests first ({TIMINGS} is written by them)")
        record(
            "Dashboard timings",
            "missing: run `python3 dev.py test` (or `.venv/bin/python -m pytest -m browser`), which saves "
            "test-artifacts/dashboard-timings.json, then `python3 dev.py bench`",
        )
        return
    timings = json.loads(TIMINGS.read_text())
    when = datetime.fromtimestamp(TIMINGS.stat().st_mtime).astimezone()
    print(f"measured by the browser tests, {when:%Y-%m-%d %H:%M %Z} ({len(timings)} pages)")
    record(
        "Dashboard timings: where from",
        f"the browser tests' last run in this checkout, {when:%Y-%m-%d %H:%M %Z}, not in this run "
        f"({len(timings)} pages: {', '.join(timings)}); `python3 dev.py test` refreshes them",
    )
    for page, values in timings.items():
        print(f"{page:10s} " + ", ".join(shown(k, v) for k, v in values.items()))
        report(page, values)


if __name__ == "__main__":
    main()
