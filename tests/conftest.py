"""Test configuration: hypothesis runs the same examples every time (a red CI must mean a real
regression, not an unlucky draw). `HYPOTHESIS_PROFILE=explore` draws new examples each run.

The dashboard tests' fixtures live here so that the browser tests share one server per engine
and one browser for the whole session (helpers in browser.py): a test taking `server` runs once
on each engine (Solara and Voila), one taking `voila_server` on Voila only.

`python3 dev.py test` runs the suite on two pytest-xdist workers, each with its own servers
when it runs a browser test (`--dist loadgroup` cannot keep them on one worker: pytest-xdist 3.8
names a group by rewriting `item._nodeid`, which pytest 9 no longer reads)."""

import json
import os
import subprocess
import time
import urllib.request

import pytest
from browser import (
    ARGS,
    ARTIFACTS,
    CHROMIUM,
    HARMLESS,
    TIMINGS,
    WAIT_MS,
    Served,
    browser_or_skip,
    free_port,
    wait_for_pools,
)
from hypothesis import settings

from nessus.serving import ENGINES, serve_command

settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False, max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


SERVERS: dict[str, tuple[Served, subprocess.Popen, object]] = {}


def serve(engine: str) -> Served:
    """`nessus serve --engine ENGINE` on a free port, once per test session: Voila once its
    preheated kernels are ready, Solara once it answers (it builds each page when asked)."""
    if engine in SERVERS:
        return SERVERS[engine][0]
    browser_or_skip()
    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    name = "voila.log" if engine == "voila" else f"{engine}.log"
    log = open(ARTIFACTS / name, "w")
    proc = subprocess.Popen(serve_command(port, engine=engine), stdout=log, stderr=subprocess.STDOUT)
    base = Served(f"http://127.0.0.1:{port}")
    base.engine = engine
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(base + "/", timeout=2)
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"{engine} did not start; see {ARTIFACTS / name}")
            time.sleep(0.5)
    if engine == "voila":
        wait_for_pools(proc, ARTIFACTS / name, deadline)
    SERVERS[engine] = (base, proc, log)
    return base


@pytest.fixture(scope="session", autouse=True)
def _stop_servers():
    """Stop the session's servers at its end, and save the pages' timings."""
    yield
    for _, proc, log in SERVERS.values():
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
    if TIMINGS:
        (ARTIFACTS / "dashboard-timings.json").write_text(json.dumps(TIMINGS, indent=2))


@pytest.fixture(scope="session", params=ENGINES)
def server(request) -> Served:
    """The dashboards served by each engine in turn: every page test runs on both."""
    return serve(request.param)


@pytest.fixture(scope="session")
def voila_server() -> Served:
    """The dashboards served by Voila (the tests of layout, themes and the gallery)."""
    return serve("voila")


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session; every `expect(...)` on its pages waits up to WAIT_MS."""
    from playwright.sync_api import expect, sync_playwright

    browser_or_skip()
    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    pg = context.new_page()
    problems: list[str] = []
    pg.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    pg.on(
        "console",
        lambda m: (
            problems.append(f"console: {m.text}")
            if m.type == "error" and not any(h.lower() in m.text.lower() for h in HARMLESS)
            else None
        ),
    )
    pg.problems = problems
    failed_before = request.session.testsfailed
    yield pg
    if request.session.testsfailed > failed_before:
        pg.screenshot(path=str(ARTIFACTS / f"FAILED-{request.node.name}.png"), full_page=True)
    context.close()
