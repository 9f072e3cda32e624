"""Set up and run nessus with nothing but Python >= 3.11 (standard library only).

    python3 dev.py serve    # make .venv, install nessus, serve the dashboards gallery with Voila
    python3 dev.py test     # make .venv, install nessus with its test tools, run the whole suite
    python3 dev.py check    # lint and format (ruff), types (mypy on nessus/), doctests (nessus/, README, docs/)
    python3 dev.py lab      # make .venv, install nessus, open the lessons in JupyterLab
    python3 dev.py bench    # the benchmarks, printing measured ratios, then writing docs/performance.md
    python3 dev.py bench nessie pig     # only those benchmarks (bench_nessie.py, bench_pig.py): printed, not written
    python3 dev.py publish  # make .venv, install nessus, run the lessons into a static offline site in site/
    python3 dev.py load --students 30   # a class at once, on Solara and on Voila (lesson mode): one table
    python3 dev.py docs     # write docs/cli.md and the tables of games (README, docs/layout.md) from the code

The virtual environment is (re)installed when pyproject.toml changes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"


def ensure_venv(extras: str) -> None:
    """Create .venv and install nessus (with `extras`) unless already done for this pyproject."""
    stamp = VENV / f".installed-{extras or 'base'}"
    if stamp.exists() and stamp.stat().st_mtime >= (ROOT / "pyproject.toml").stat().st_mtime:
        return
    if not PYTHON.exists():
        print(f"dev.py: creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    target = f".[{extras}]" if extras else "."
    print(f"dev.py: installing nessus{('[' + extras + ']') if extras else ''} into {VENV}", flush=True)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "-e", target], cwd=ROOT, check=True)
    stamp.touch()


LINTED = ["nessus", "tests", "benchmarks", "deploy", "dev.py", "hatch_build.py"]
DOCTESTS = [
    "nessus/__init__.py",
    "nessus/dist.py",
    "nessus/solver.py",
    "nessus/rules.py",
    "nessus/game.py",
    "nessus/play.py",
    "nessus/openspiel.py",
    "nessus/dice.py",
    "nessus/lesson.py",
    "nessus/paths.py",
    "nessus/admission.py",
    "nessus/clidoc.py",
    "nessus/games",
    "README.md",
    "docs",
]


def check() -> int:
    """Run every check, each to the end; returns 0 only if all pass."""
    ensure_venv("test")
    steps = [
        ("ruff lint", [str(BIN / "ruff"), "check", *LINTED]),
        ("ruff format", [str(BIN / "ruff"), "format", "--check", *LINTED]),
        ("mypy", [str(BIN / "mypy")]),
        (
            "doctests",
            [
                str(PYTHON),
                "-m",
                "pytest",
                "-q",
                "--doctest-modules",
                "--doctest-glob=*.md",
                "-o",
                "testpaths=",
                *DOCTESTS,
            ],
        ),
        (
            "generated files",
            [str(PYTHON), "-m", "pytest", "-q", "-p", "no:xdist", "tests/test_catalog.py", "tests/test_docs.py"],
        ),
    ]
    failed = []
    for name, command in steps:
        print(f"\n== {name}: {' '.join(Path(c).name if i == 0 else c for i, c in enumerate(command))}", flush=True)
        if subprocess.call(command, cwd=ROOT) != 0:
            failed.append(name)
    print(f"\ndev.py check: {'failed: ' + ', '.join(failed) if failed else 'all passed'}", flush=True)
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs under any python3 to say so
        print(f"dev.py: nessus needs Python >= 3.11, this is {sys.version.split()[0]}", file=sys.stderr)
        return 2
    command, rest = (argv[0], argv[1:]) if argv else ("", [])
    if command == "serve":
        ensure_venv("")
        return subprocess.call([str(BIN / "nessus"), "serve", *rest], cwd=ROOT)
    if command == "test":
        ensure_venv("test")
        whole = ["-n", "2"] if not rest else []  # two workers: the browser tests wait on kernels
        return subprocess.call([str(PYTHON), "-m", "pytest", *whole, *rest], cwd=ROOT)
    if command == "check":
        return check()
    if command == "lab":
        ensure_venv("")
        return subprocess.call([str(BIN / "nessus"), "lab", *rest], cwd=ROOT)
    if command == "bench":
        ensure_venv("test")
        return subprocess.call([str(PYTHON), str(ROOT / "benchmarks" / "run.py"), *rest], cwd=ROOT)
    if command == "load":
        ensure_venv("test")
        return subprocess.call([str(PYTHON), str(ROOT / "tests" / "load" / "classload.py"), *rest], cwd=ROOT)
    if command == "publish":
        ensure_venv("")
        return subprocess.call([str(BIN / "nessus"), "publish", *rest], cwd=ROOT)
    if command == "docs":
        ensure_venv("test")
        return subprocess.call([str(PYTHON), "-m", "nessus.clidoc"], cwd=ROOT)
    print("usage: python3 dev.py serve | test | check | lab | bench | publish | load | docs", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
