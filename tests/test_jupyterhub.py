"""Voila under JupyterHub (deploy/jupyterhub/): a hub on loopback, anonymous students in Chromium.

The hub runs deploy/jupyterhub/jupyterhub_config.py as it is, with its `simple` spawner (every
student's server as this user: no system users to create), on free loopback ports, its state in a
temporary folder, plus one thing of the test's own: a service token that may list the users and
read their servers' state (the process ids). configurable-http-proxy, which the hub needs, comes
from deploy/jupyterhub/install-proxy.sh (npm, installed once under ~/.cache/nessus/chp); without
npm these tests are skipped, unless NESSUS_REQUIRE_BROWSER is set (as in CI).

Three students arrive together, each a browser context of their own: each becomes a user of their
own, their own server starts, they land on Voila's list of the dashboards, open Le Palais and see
its first chart; their servers are read from the hub's API and /proc (whose each is, the memory of
each and of its kernel). Then the first student finds no JupyterLab, no terminal, no REST write and
no code to run, from their list's page and from the dashboard's. The hub, the proxy, the culler, the
students' servers and their kernels are all stopped at the end (none may outlive the hub).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browser import ARGS, ARTIFACTS, CHROMIUM, ERROR_TEXT, HARMLESS, browser_or_skip, free_port
from classload import cmdline, descendants, memory_mib

from nessus.paths import DASHBOARDS
from nessus.serving import dashboard_path

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy" / "jupyterhub"
STUDENTS = 3
DASHBOARD = "le-palais"
WAIT_MS = 180_000  # a student's server starting, or a dashboard's kernel running, on a busy machine
TOKEN = secrets.token_hex(24)
JUPYTER_PAGES = ("lab", "tree", "notebooks/le-palais.ipynb", "edit/le-palais.ipynb", "terminals/1", "api/terminals")
TIMES = """
window.__nessus = {loaded: null, chart: null};
addEventListener('DOMContentLoaded', () => { window.__nessus.loaded = Date.now(); });
const tick = setInterval(() => {
  if (document.querySelector('.widget-output svg.marks')) { window.__nessus.chart = Date.now(); clearInterval(tick); }
}, 50);
"""
"""Each page notes when its document was parsed and when its first chart was drawn (epoch ms)."""
RUN_CODE = """async ([url, code]) => {
  const ws = new WebSocket(url), seen = [];
  await new Promise((opened, failed) => { ws.onopen = opened; ws.onerror = failed; });
  ws.onmessage = (e) => { if (typeof e.data === 'string') seen.push(JSON.parse(e.data).header.msg_type); };
  const message = (msg_type, content) => JSON.stringify({
    header: {msg_id: String(Math.random()), msg_type, session: 'student', username: 's', version: '5.3', date: ''},
    parent_header: {}, metadata: {}, content, channel: 'shell', buffers: []});
  const run = {code, silent: false, store_history: false, user_expressions: {}, allow_stdin: false};
  ws.send(message('execute_request', run));
  ws.send(message('kernel_info_request', {}));
  const start = Date.now();
  while (!seen.includes('kernel_info_reply') && Date.now() - start < 30000) {
    await new Promise((r) => setTimeout(r, 100));
  }
  ws.close();
  return seen;
}"""
"""A page's script asks its kernel to run `code`, then for its info; the message types it got back."""


@dataclass
class Hub:
    """A JupyterHub on loopback: its address, process and log."""

    base: str
    proc: subprocess.Popen
    log: Path

    def api(self, path: str) -> Any:
        """The hub's REST API's answer (JSON) to a GET of `path`, with the test's token."""
        request = urllib.request.Request(f"{self.base}/hub/api{path}", headers={"Authorization": f"token {TOKEN}"})
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.load(r)

    def logged(self, text: str, seconds: float = 30) -> bool:
        """Whether the hub's log (its servers' too) says `text` within `seconds`."""
        deadline = time.monotonic() + seconds
        while text not in self.log.read_text(errors="replace"):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.5)
        return True


def proxy_or_skip() -> str:
    """configurable-http-proxy's path, installed by deploy/jupyterhub/install-proxy.sh if missing."""
    done = subprocess.run(
        ["bash", str(DEPLOY / "install-proxy.sh")], capture_output=True, text=True, timeout=600, check=False
    )
    if done.returncode == 3:  # no npm
        reason = f"configurable-http-proxy cannot be installed: {done.stderr.strip()}; JupyterHub tests skipped"
        if os.environ.get("NESSUS_REQUIRE_BROWSER"):
            pytest.fail(reason.replace("skipped", "required here (NESSUS_REQUIRE_BROWSER is set)"))
        pytest.skip(reason)
    assert done.returncode == 0, f"install-proxy.sh failed ({done.returncode}): {done.stderr[-2000:]}"
    return done.stdout.strip().splitlines()[-1]


def hub_config(state: Path) -> Path:
    """The repo's config, plus the test's service token (it may list the users and read their servers,
    their state included)."""
    config = state / "test_config.py"
    config.write_text(
        f"load_subconfig({str(DEPLOY / 'jupyterhub_config.py')!r})\n"
        "c = get_config()\n"
        f"c.JupyterHub.services.append({{'name': 'nessus-test', 'api_token': {TOKEN!r}}})\n"
        "c.JupyterHub.load_roles.append({'name': 'nessus-test', 'services': ['nessus-test'], "
        "'scopes': ['list:users', 'read:users', 'read:servers', 'admin:server_state']})\n"
    )
    return config


@pytest.fixture
def hub(tmp_path):
    browser_or_skip()
    proxy = proxy_or_skip()
    state = tmp_path
    port = free_port()
    env = {
        **os.environ,
        "NESSUS_HUB_IP": "127.0.0.1",
        "NESSUS_HUB_PORT": str(port),
        "NESSUS_HUB_API_PORT": str(free_port()),
        "NESSUS_PROXY_API_PORT": str(free_port()),
        "NESSUS_HUB_DIR": str(state),
        "NESSUS_HUB_SPAWNER": "simple",
        "NESSUS_CHP": proxy,
    }
    ARTIFACTS.mkdir(exist_ok=True)
    log = ARTIFACTS / "jupyterhub.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(hub_config(state))],
            cwd=state,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    hub = Hub(f"http://127.0.0.1:{port}", proc, log)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                hub.api("/")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"JupyterHub did not start; see {log}:\n{log.read_text()[-3000:]}")
                time.sleep(0.5)
        yield hub
    finally:
        stop(proc)


def stop(proc: subprocess.Popen) -> None:
    """Stop the hub as a service manager does (SIGTERM: it stops the students' servers, the proxy
    and the culler), then check that none of its processes outlived it (killing any that did)."""
    started = {pid: cmdline(pid) for pid in descendants(proc.pid)}
    proc.terminate()
    try:
        proc.wait(120)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
    deadline = time.monotonic() + 30
    while (left := [p for p, cmd in started.items() if cmd and cmdline(p) == cmd]) and time.monotonic() < deadline:
        time.sleep(0.5)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"still running after the hub stopped: {[started[p][:100] for p in left]}"


@dataclass
class Student:
    """One student's browser context, page and what they met."""

    context: Any
    page: Any
    arrived: float  # epoch seconds
    problems: list[str] = field(default_factory=list)
    dashboard: Any = None
    name: str = ""

    @classmethod
    def arrive(cls, browser: Any, base: str) -> Student:
        """A new visitor types the hub's address (the page goes on loading in the background)."""
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_init_script(TIMES)
        student = cls(context, context.new_page(), time.time())
        student.page.goto(base + "/", wait_until="commit", timeout=WAIT_MS)
        return student

    def lands(self) -> float:
        """Wait until the student is on Voila's list of the dashboards on their own server; the
        seconds from typing the address to that page."""
        from playwright.sync_api import expect

        expect(self.page).to_have_url(re.compile(r"/user/[0-9a-f-]{36}/voila/tree"), timeout=WAIT_MS)
        self.name = re.search(r"/user/([0-9a-f-]{36})/", self.page.url).group(1)
        expect(self.page.locator(".jp-DirListing-item", has_text=f"{DASHBOARD}.ipynb")).to_be_visible(timeout=WAIT_MS)
        return self.page.evaluate("window.__nessus.loaded") / 1000 - self.arrived

    def opens_dashboard(self) -> float:
        """Click the dashboard in the list (Voila opens it in a new tab); the click's epoch seconds."""
        clicked = time.time()
        with self.context.expect_page(timeout=WAIT_MS) as tab:
            self.page.locator(".jp-DirListing-item", has_text=f"{DASHBOARD}.ipynb").click()
        self.dashboard = tab.value
        self.dashboard.on("pageerror", lambda e: self.problems.append(f"pageerror: {e}"))
        self.dashboard.on(
            "console",
            lambda m: (
                self.problems.append(f"console: {m.text}")
                if m.type == "error" and not any(h.lower() in m.text.lower() for h in HARMLESS)
                else None
            ),
        )
        return clicked

    def sees_chart(self, clicked: float) -> float:
        """Wait for the dashboard's first chart, with no error on the page; the seconds from the click."""
        from playwright.sync_api import expect

        path = f"/user/{self.name}/{dashboard_path(DASHBOARD, 'voila')}"
        expect(self.dashboard).to_have_url(re.compile(re.escape(path)), timeout=WAIT_MS)
        expect(self.dashboard.locator(".widget-output svg.marks").first).to_be_visible(timeout=WAIT_MS)
        self.dashboard.wait_for_function("window.__nessus.chart")
        text = self.dashboard.locator("body").inner_text()
        assert not any(e in text for e in ERROR_TEXT), text[:2000]
        assert not self.problems, self.problems
        return self.dashboard.evaluate("window.__nessus.chart") / 1000 - clicked


def in_chromium(visit: Any) -> Any:
    """Run `visit(browser)` with a headless Chromium of its own, in a thread apart from any
    Playwright the session runs in this one; what it returns."""

    def run() -> Any:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                return visit(browser)
            finally:
                browser.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def server_memory(pid: int) -> dict[str, float]:
    """PSS and RSS (MiB) of a student's server process and of its kernels."""
    kernels = [p for p in descendants(pid) if "ipykernel_launcher" in cmdline(p)]
    server_pss, server_rss = memory_mib(pid)
    kernel = [memory_mib(p) for p in kernels]
    return {
        "server_pss": server_pss,
        "server_rss": server_rss,
        "kernels": len(kernels),
        "kernel_pss": sum(pss for pss, _ in kernel),
        "kernel_rss": sum(rss for _, rss in kernel),
    }


def server_facts(hub: Hub, name: str) -> dict[str, Any]:
    """A student's server as the hub's API says (ready, its address, its process) and as /proc
    shows it (whose it is, its memory and its kernels')."""
    server = hub.api(f"/users/{name}")["servers"][""]
    pid = server["state"]["pid"]
    return {
        "ready": server["ready"],
        "url": server["url"],
        "pid": pid,
        "command": cmdline(pid),
        "user": "".join(v for v in environ(pid) if v.startswith("JUPYTERHUB_USER=")),
        **server_memory(pid),
    }


def environ(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace").split("\0")


def tries_what_a_student_may_not(student: Student, other: str, probe: Path, marker: Path) -> dict[str, Any]:
    """From a student's pages: JupyterLab's and Jupyter's pages and terminals (HTTP status each),
    the `other` student's list of dashboards (status), a kernel started and a file written through
    the REST API (status), and the code sent from the dashboard's page to its kernel to write
    `marker` (the message types the kernel answered)."""
    page = student.page
    hub, base = page.url.split("/user/")[0], page.url.split("/voila/")[0]
    got: dict[str, Any] = {path: page.request.get(f"{base}/{path}").status for path in JUPYTER_PAGES}
    got["another's server"] = page.request.get(f"{hub}/user/{other}/voila/tree").status
    xsrf = {c["name"]: c["value"] for c in student.context.cookies(base + "/")}["_xsrf"]
    headers = {"X-XSRFToken": xsrf}
    got["start a kernel"] = page.request.post(f"{base}/api/kernels", headers=headers, data={}).status
    file = {"type": "file", "format": "text", "content": "x"}
    got["write a file"] = page.request.put(f"{base}/api/contents/{probe.name}", headers=headers, data=file).status
    kernel = json.loads(student.dashboard.locator("#jupyter-config-data").text_content())["kernelId"]
    socket = f"{base.replace('http', 'ws')}/api/kernels/{kernel}/channels?session_id={uuid.uuid4().hex}"
    got["messages"] = student.dashboard.evaluate(RUN_CODE, [socket, f"open({str(marker)!r}, 'w').write('ran')"])
    return got


def a_class(hub: Hub) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Three students arrive together: each lands on the list of dashboards, opens Le Palais and sees
    its first chart; their servers are read while their pages are open; then the first student
    tries what a student may not do. What they met: (the students, the first one's tries)."""
    probe = DASHBOARDS / f"nessus-hub-probe-{uuid.uuid4().hex}.txt"
    marker = Path(f"/tmp/nessus-hub-ran-{uuid.uuid4().hex}")

    def visit(browser: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        students = [Student.arrive(browser, hub.base) for _ in range(STUDENTS)]
        landed = [s.lands() for s in students]
        clicks = [s.opens_dashboard() for s in students]
        charts = [s.sees_chart(clicked) for s, clicked in zip(students, clicks, strict=True)]
        seen = [
            {"name": s.name, "landed_s": round(a, 2), "chart_s": round(b, 2), **server_facts(hub, s.name)}
            for s, a, b in zip(students, landed, charts, strict=True)
        ]
        return seen, tries_what_a_student_may_not(students[0], students[1].name, probe, marker)

    try:
        seen, tries = in_chromium(visit)
        time.sleep(2)  # any code that did run would have written its file by now
        tries["marker written"], tries["probe written"] = marker.exists(), probe.exists()
    finally:
        marker.unlink(missing_ok=True)
        probe.unlink(missing_ok=True)
    (ARTIFACTS / "jupyterhub.json").write_text(json.dumps({"students": seen, "tries": tries}, indent=2))
    return seen, tries


@pytest.mark.browser
def test_three_students_each_get_a_server_of_their_own_the_dashboard_and_no_code(hub):
    """One test (two would be split between pytest-xdist's workers, each starting a hub and a class)."""
    seen, tries = a_class(hub)
    for i, s in enumerate(seen, 1):
        print(
            f"\n[jupyterhub] student {i}: on the dashboards' list {s['landed_s']:.1f} s after typing the address, "
            f"first chart {s['chart_s']:.1f} s after the click; server PSS {s['server_pss']:.0f} MiB "
            f"(RSS {s['server_rss']:.0f}), {s['kernels']} kernel(s) PSS {s['kernel_pss']:.0f} MiB "
            f"(RSS {s['kernel_rss']:.0f}): {s['server_pss'] + s['kernel_pss']:.0f} MiB in all"
        )
    print(f"\n[jupyterhub] what a student met: {tries}")
    names = [s["name"] for s in seen]
    assert len(set(names)) == STUDENTS, names  # each visitor a user of their own
    assert set(names) <= {u["name"] for u in hub.api("/users")}
    assert len({s["pid"] for s in seen}) == STUDENTS, seen  # each a server process of their own
    for s in seen:
        assert s["ready"] and s["url"] == f"/user/{s['name']}/", s
        assert s["user"] == f"JUPYTERHUB_USER={s['name']}", s  # the process started for that student
        assert "jupyterhub.singleuser" in s["command"] and s["kernels"] >= 1, s

    for path in JUPYTER_PAGES:
        assert tries[path] == 404, (path, tries[path])
    assert tries["another's server"] == 403, tries
    assert tries["start a kernel"] == 403 and tries["write a file"] == 403, tries
    assert hub.logged("User is not authorized to write on resource: kernels")  # refused, not a missing XSRF
    assert hub.logged("User is not authorized to write on resource: contents")
    assert "kernel_info_reply" in tries["messages"], tries  # the socket worked: an allowed message was answered
    assert hub.logged('Received message of type "execute_request", which is not allowed')
    assert not {"execute_input", "execute_reply", "stream", "error"} & set(tries["messages"]), tries
    assert not tries["marker written"] and not tries["probe written"], tries
