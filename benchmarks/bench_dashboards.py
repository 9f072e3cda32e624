"""Dashboard timings, measured by the browser tests (tests/apps/test_dashboards_browser.py) in a
real Voila with preheated kernels and headless Chromium: page load to first chart (target
<= 3 s) and control change to redrawn chart (target <= 300 ms). Run `python3 dev.py test`
first (or `python -m pytest tests/apps/test_dashboards_browser.py -s`); this prints what it measured."""

from __future__ import annotations

import json
from pathlib import Path

TIMINGS = Path(__file__).resolve().parent.parent / "test-artifacts" / "dashboard-timings.json"


def main() -> None:
    if not TIMINGS.exists():
        print(f"no timings yet: run the browser tests first ({TIMINGS} is written by them)")
        return
    for page, values in json.loads(TIMINGS.read_text()).items():
        print(
            f"{page:10s} "
            + ", ".join(f"{k} {v * 1000:.0f} ms" if v < 1 else f"{k} {v:.2f} s" for k, v in values.items())
        )


if __name__ == "__main__":
    main()
