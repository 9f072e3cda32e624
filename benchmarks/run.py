"""Run the benchmarks, all of them or those named (`python3 dev.py bench nessie pig` runs
bench_nessie.py and bench_pig.py), each in its own process, as each prints; then, after a
whole run, write docs/performance.md: the machine, then one table of the rows the scripts
recorded with `_timing.record` (what, measured, target, met). A partial run prints its table
and leaves the file alone, so that every row there comes from one run under one header."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from importlib import metadata
from pathlib import Path

from _timing import ROWS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = ROOT / "docs" / "performance.md"
PACKAGES = ("numpy", "scipy", "polars", "voila")
MET = {True: "yes", False: "**no**", None: "—"}


def scripts(names: list[str]) -> list[Path]:
    """The benchmark scripts named (bench_NAME.py), or every one, the dashboards' last (their rows
    were not measured in this run); exits on an unknown name."""
    every = sorted(HERE.glob("bench_*.py"), key=lambda p: (p.stem == "bench_dashboards", p.stem))
    known = {p.stem.removeprefix("bench_"): p for p in every}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"no benchmark {', '.join(unknown)}; there are: {' '.join(known)}")
    return [p for n, p in known.items() if n in names] if names else list(known.values())


def cpu_model() -> str:
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        lines = []
    names = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
    return names[0] if names else platform.processor() or platform.machine()


def memory() -> str:
    try:
        return f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB memory"
    except (AttributeError, ValueError, OSError):
        return "memory unknown"


def load() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except (AttributeError, OSError):
        return "unknown"


def versions() -> str:
    found = []
    for name in PACKAGES:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} absent")
    return ", ".join([f"Python {platform.python_version()}", *found])


def table(rows: list[dict]) -> str:
    lines = ["| what | measured | target | met |", "|---|---|---|---|"]
    for row in rows:
        cells = [row["what"], row["measured"], row["target"], MET[row["met"]]]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


def page(rows: list[dict], started: datetime, loads: tuple[str, str], minutes: float, failed: list[str]) -> str:
    """docs/performance.md: how it was made, the machine, the table."""
    missing = f"\n\n**Failed, their rows missing:** {', '.join(failed)}." if failed else ""
    return f"""# Performance

Written by `python3 dev.py bench` (benchmarks/run.py), which ran every `benchmarks/bench_*.py`
once, starting {started:%Y-%m-%d %H:%M %Z} and taking {minutes:.0f} min; run it again to replace
this page (no history is kept here: git has it). `python3 dev.py bench nessie pig` runs only
those and prints their rows without writing this page.

Machine: {os.cpu_count()} cores ({cpu_model()}), {memory()}; load average (1 / 5 / 15 min)
{loads[0]} at the start, {loads[1]} at the end.
Software: {versions()}.

Every ratio is measured within this one run, both its sides by the same script; the dashboard
rows come from the browser tests instead, as the first of them says. "met": whether this run
met the row's target.{missing}

{table(rows)}"""


def main(names: list[str]) -> int:
    chosen = scripts(names)
    started, load_at_start, start = datetime.now().astimezone(), load(), time.perf_counter()
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        recorded = Path(tmp) / "rows.jsonl"
        recorded.touch()
        for script in chosen:
            print(f"\n== {script.name}", flush=True)
            took = time.perf_counter()
            code = subprocess.call([sys.executable, str(script)], cwd=ROOT, env={**os.environ, ROWS: str(recorded)})
            print(f"== {script.name}: {time.perf_counter() - took:.0f} s", flush=True)
            if code:
                failed.append(f"{script.name} (exit {code})")
        rows = [json.loads(line) for line in recorded.read_text(encoding="utf-8").splitlines()]
    minutes = (time.perf_counter() - start) / 60
    if names:
        print(f"\n{table(rows)}\n{minutes:.1f} min; a partial run does not write {OUT.relative_to(ROOT)}")
    else:
        OUT.parent.mkdir(exist_ok=True)
        OUT.write_text(page(rows, started, (load_at_start, load()), minutes, failed), encoding="utf-8")
        print(f"\n{minutes:.1f} min; wrote {OUT.relative_to(ROOT)} ({len(rows)} rows)")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
