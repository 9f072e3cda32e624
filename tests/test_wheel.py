"""nessus as a tool people install: the wheel built from this repository, installed into a fresh
virtual environment in a temporary folder, used from another folder with the repository off the
path, does what a checkout does.

Every command: `--version`, `games`, `report` of all 16 games (equal to the recorded baselines,
their stored tables read from the wheel), `simulate`, `data check`, `publish` (two lessons from
the wheel's copy: every lesson is shipped, checked file by file, and every lesson is executed and
published by tests/test_notebooks.py and tests/test_publish.py),
`lab` (the lessons copied where the user can edit them) and `serve` (the gallery and a dashboard
drawn in Chromium). Building and installing take a minute or two (the dependencies come from
pip's cache when the suite's own environment was installed on this machine).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from browser import free_port
from playwright.sync_api import expect
from test_baselines import assert_unchanged, recorded

import nessus
from nessus import games, paths
from nessus.paths import dashboard_path
from nessus.serving import DEFAULT_ENGINE

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 180  # seconds for a server of the installed tool to answer
WHERE = "import json, nessus.paths as p; print(json.dumps([p.INSTALLED, str(p.ROOT)]))"


@dataclass(frozen=True)
class Installed:
    """The tool installed from the wheel: its environment, and a folder of the user's, elsewhere."""

    venv: Path
    work: Path
    home: Path

    @property
    def env(self) -> dict[str, str]:
        """The environment its commands run in: no PYTHONPATH, no active virtualenv, the user's
        folder for what nessus writes."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
        return {**env, "NESSUS_HOME": str(self.home), "PYTHONNOUSERSITE": "1"}

    def bin(self, name: str) -> str:
        return str(self.venv / "bin" / name)

    def run(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """`nessus ARGS` in the user's folder; fails the test on a non-zero exit."""
        done = subprocess.run(
            [self.bin("nessus"), *args], cwd=self.work, env=self.env, capture_output=True, text=True, timeout=timeout
        )
        assert done.returncode == 0, f"nessus {' '.join(args)} exited {done.returncode}:\n{done.stderr[-3000:]}"
        return done

    def python(self, code: str) -> str:
        done = subprocess.run(
            [self.bin("python"), "-c", code], cwd=self.work, env=self.env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    def start(self, *args: str) -> subprocess.Popen:
        """`nessus ARGS` left running in its own process group (see `stop`)."""
        log = open(self.work / f"{args[0]}.log", "w")
        return subprocess.Popen(
            [self.bin("nessus"), *args],
            cwd=self.work,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop(proc: subprocess.Popen) -> None:
    """Stop a server started by `Installed.start` and everything it started."""
    try:
        os.killpg(proc.pid, 15)
        proc.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait(10)
    except ProcessLookupError:
        pass


def answering(url: str, proc: subprocess.Popen) -> None:
    """Wait until `url` answers (any HTTP status), or fail if the server died or took too long."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            urllib.request.urlopen(url, timeout=5)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            assert proc.poll() is None, f"the server exited with {proc.returncode}"
            assert time.monotonic() < deadline, f"{url} did not answer within {START_TIMEOUT} s"
            time.sleep(0.5)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Iterator[Installed]:
    """Build the wheel, install it into a fresh venv, and make an unrelated folder to work in."""
    tmp = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--quiet", "--wheel-dir", str(tmp / "dist")],
        check=True,
        timeout=600,
    )
    (wheel,) = (tmp / "dist").glob("nessus-*.whl")
    subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], check=True, timeout=300)
    subprocess.run(
        [str(tmp / "venv" / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)], check=True, timeout=900
    )
    (tmp / "work").mkdir()
    yield Installed(tmp / "venv", tmp / "work", tmp / "home")


def test_installed_from_the_wheel_not_the_checkout(installed):
    where = json.loads(
        installed.python("import json, nessus.paths as p; print(json.dumps([p.INSTALLED, str(p.ROOT)]))")
    )
    assert where[0] is True
    assert Path(where[1]).is_relative_to(installed.venv)
    shipped = {
        p.relative_to(ROOT).as_posix()
        for folder in (paths.DATA, paths.DASHBOARDS, paths.NOTEBOOKS)
        for p in folder.iterdir()
        if p.is_file()
    }
    inside = {p.relative_to(where[1]).as_posix() for p in Path(where[1]).rglob("*") if p.is_file()}
    assert shipped <= inside, f"missing from the wheel: {sorted(shipped - inside)}"


def test_version_is_the_package_version(installed):
    assert installed.run("--version").stdout.strip() == f"nessus {nessus.__version__}"


def test_games_lists_every_game(installed):
    listed = [line.split()[0] for line in installed.run("games").stdout.splitlines()]
    assert listed == list(games.NAMES)


@pytest.mark.parametrize("game", games.NAMES)
def test_report_equals_the_baseline(installed, game):
    now = json.loads(installed.run("report", game, "--json").stdout)
    assert_unchanged(recorded(game), now)


def test_stored_tables_are_read_from_the_wheel(installed):
    """Every stored table of data/ is found by the installed tool (so its reports read them
    instead of solving again), and equals a fresh computation (`nessus data check`, here for
    Le Légit, whose check takes a second)."""
    stored = sorted(p.stem for p in paths.DATA.glob("*.parquet"))
    found = installed.python(
        "from nessus import tables\n"
        f"for stem in {stored!r}:\n"
        "    game, name = stem.split('-', 1)\n"
        "    assert tables.load(game, name) is not None, stem\n"
        "    print(stem)"
    )
    assert found.split() == stored
    assert "equals a fresh computation" in installed.run("data", "check", "legit").stdout


def test_simulate(installed):
    doc = json.loads(installed.run("simulate", "renard", "--trials", "2000", "--seed", "1", "--json").stdout)
    assert doc["figures"]


PUBLISHED = ("00-who-starts", "01-le-renard-one-in-36")
"""The lessons the installed tool publishes here (running all 15 again would add minutes and
prove nothing more about the wheel: each is a file of the wheel, checked above)."""


@pytest.fixture(scope="module")
def site(installed) -> Path:
    """`nessus publish` of two lessons, into the user's folder (the default when installed)."""
    installed.run("publish", *PUBLISHED, timeout=900)
    return installed.home / "site"


def test_publish_writes_the_lessons_asked_for(site):
    assert sorted(p.stem for p in site.glob("[0-9][0-9]-*.html")) == list(PUBLISHED)
    index = (site / "index.html").read_text()
    assert all(f'href="{name}.html"' in index for name in PUBLISHED)


def test_lab_opens_a_copy_of_the_lessons(installed):
    port = free_port()
    lab = installed.start("lab", "--no-browser", f"--port={port}")
    try:
        answering(f"http://127.0.0.1:{port}/api", lab)
        copied = sorted(p.name for p in (installed.work / "nessus-lessons").glob("*.ipynb"))
        assert copied == sorted(p.name for p in paths.NOTEBOOKS.glob("*.ipynb"))
    finally:
        stop(lab)


@pytest.mark.browser
def test_serve_shows_the_gallery_a_lesson_and_a_dashboard(installed, site, browser):
    port = free_port()
    server = installed.start("serve", f"--port={port}", "--no-preheat")
    try:
        base = f"http://127.0.0.1:{port}"
        answering(base + "/", server)
        page = browser.new_page()
        page.goto(base + "/")
        for name in ("le-palais", "nessie", "entheos"):  # the default engine's addresses
            expect(page.locator(f'a[href="{dashboard_path(name, DEFAULT_ENGINE)}"]').first).to_be_visible()
        page.locator('a[href="lessons/00-who-starts.html"]').first.click()
        expect(page.locator("svg.marks").first).to_be_visible()
        page.goto(base + "/")
        page.goto(f"{base}/{dashboard_path('le-palais', DEFAULT_ENGINE)}")
        expect(page.locator(".widget-output svg.marks [aria-roledescription]").first).to_be_visible(
            timeout=START_TIMEOUT * 1000
        )
        page.locator(".roll-button").click()  # the dice tray's script (kit/tray.js) comes from the wheel too
        expect(page.locator(".nessus-tray .nessus-die")).to_have_count(5)
        expect(page.locator("body")).not_to_contain_text(re.compile(r"Traceback|Error:"))
        page.close()
    finally:
        stop(server)
