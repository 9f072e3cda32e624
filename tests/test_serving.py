"""Serving a class: the options, the cap, the gallery, and a real server's guarantees.

The server tests start their own `nessus serve` on a loopback port (tests/load/classload.py's
Server): plain GETs past the cap, the culling of kernels no page connected to, the kernel
websocket refusing code, the Jupyter APIs not served, and a real page rendering afterwards.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from nessus import classroom, cli
from nessus.apps import GALLERY
from nessus.apps.gallery import gallery_page, lessons
from nessus.serving import CULL_IDLE_TIMEOUT, CULL_INTERVAL, ServeOptions, dashboard_names, serve_command

sys.path.insert(0, str(Path(__file__).resolve().parent / "load"))
from classload import Server, kernel_pids, memory_mib, status


def test_every_dashboard_is_served_and_in_the_gallery():
    assert dashboard_names() == sorted(e.notebook.removesuffix(".ipynb") for e in GALLERY)


def test_lesson_mode_keeps_the_class_ready_and_the_rest_on_demand():
    opts = ServeOptions(students=30, lesson=("le-palais", "la-boue.ipynb"))
    pools = opts.pools()
    assert pools["le-palais.ipynb"] == pools["la-boue.ipynb"] == 30
    assert {n for nb, n in pools.items() if nb not in ("le-palais.ipynb", "la-boue.ipynb")} == {0}
    assert set(ServeOptions(pool_size=2).pools().values()) == {2}
    assert set(ServeOptions(preheat=False).pools().values()) == {0}
    assert opts.viewers() >= 30  # never fewer places than students


def test_the_cap_follows_the_memory():
    per = classroom.KERNEL_MIB
    free = classroom.RESERVE_MIB + 50 * per
    assert classroom.default_max_viewers(0, available=free) == 50
    assert classroom.default_max_viewers(20, available=free) == 30
    assert classroom.default_max_viewers(0, available=100) == classroom.MIN_VIEWERS
    assert classroom.default_max_viewers(0, available=10**9) == classroom.MAX_VIEWERS
    assert ServeOptions(max_viewers=7).viewers() == 7


def test_the_address_students_type():
    assert classroom.student_url("127.0.0.1", 8866) == "http://localhost:8866/"
    assert classroom.student_url("192.0.2.7", 80) == "http://192.0.2.7:80/"
    url = classroom.student_url("0.0.0.0", 8866)
    assert url.startswith("http://") and "0.0.0.0" not in url and "localhost" not in url
    for address in classroom.lan_addresses():
        assert not address.startswith("127.")


def test_serve_command_carries_the_options():
    cmd = serve_command(9000, ip="0.0.0.0", students=5, lesson=("le-renard",), max_viewers=12)
    assert "--Voila.ip=0.0.0.0" in cmd and "--NessusVoila.max_viewers=12" in cmd
    pools = next(a for a in cmd if a.startswith("--NessusVoila.pools="))
    assert "le-renard.ipynb=5" in pools and "la-boue.ipynb=0" in pools
    assert f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_TIMEOUT}" in cmd
    assert CULL_IDLE_TIMEOUT + CULL_INTERVAL <= 60  # unconnected kernels freed within a minute
    assert "--Voila.port_retries=0" in cmd  # a busy port is an error, not a silent other port


@pytest.mark.parametrize(
    "argv, says",
    [
        (["serve", "--students", "30"], "--students needs --dashboards"),
        (["serve", "--dashboards", "le-palais"], "--dashboards needs --students"),
        (["serve", "--students", "3", "--dashboards", "le-palas"], "le-palas"),
        (["serve", "--max-viewers", "0"], "max-viewers"),
    ],
)
def test_bad_serve_options_are_one_line(argv, says, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err


def test_gallery_page_links_every_dashboard_and_lesson():
    page = gallery_page(None, lessons=True)
    assert re.findall(r"class='nessus-card' href='voila/render/([^']+)'", page) == [e.notebook for e in GALLERY]
    assert [f"lessons/{stem}.html" for stem, _ in lessons()] == re.findall(r"href='(lessons/[^']+)'", page)
    assert "Start here" in page and "<svg" not in page  # no QR code when only this machine is served
    shown = gallery_page("http://192.0.2.7:8866/")
    assert "http://192.0.2.7:8866/" in shown and "<svg" in shown
    assert "dev.py publish" in gallery_page(None, lessons=False) and "dev.py publish" not in page


def test_qr_code_encodes_the_address():
    svg = classroom.qr_svg("http://192.0.2.7:8866/")
    assert svg.startswith("<svg") and svg.count("<path") >= 1
    assert classroom.qr_svg("http://192.0.2.7:8866/") != classroom.qr_svg("http://192.0.2.8:8866/")


def test_a_pooled_kernel_that_died_starting_is_never_handed_out():
    """Kernels started together can lose a port to one another and die at once; Voila keeps the
    dead one in its pool. A page must get a live pooled kernel, or a fresh one."""
    from nessus.voila_app import _hand_out_started_kernels_only

    def done(kernel_id: str) -> asyncio.Future:
        f = asyncio.get_event_loop_policy().new_event_loop().create_future()
        f.set_result({"kernel_id": kernel_id, "renderer": None})
        return f

    class Manager:
        def __init__(self) -> None:
            self._pools = {"a.ipynb": [done("dead"), done("alive")], "b.ipynb": [done("gone")]}
            self.get_rendered_notebook = None

        def __contains__(self, kernel_id: str) -> bool:
            return kernel_id == "alive"

    km = Manager()
    _hand_out_started_kernels_only(km)
    assert km.get_pool_size("a.ipynb") == 1 and km.get_pool_size("b.ipynb") == 0
    assert [f.result()["kernel_id"] for f in km._pools["a.ipynb"]] == ["alive"] and km._pools["b.ipynb"] == []


def test_class_full_page_says_so_and_retries():
    page = classroom.class_full_page(12)
    assert "class is full" in page.lower() and "12" in page and "http-equiv='refresh'" in page


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=120) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


CAP = 3


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    from browser import browser_or_skip

    browser_or_skip()
    log = tmp_path_factory.mktemp("serve") / "voila.log"
    with Server("--students", "1", "--dashboards", "le-renard", "--max-viewers", str(CAP), log=log) as server:
        server.wait_ready({"le-renard.ipynb": 1})
        yield server


@pytest.mark.browser
def test_jupyter_apis_are_not_served(capped):
    for path in ("/api/kernels", "/api/contents", "/tree", "/api/sessions", "/voila/api/contents/../../"):
        assert _get(capped.base + path)[0] in (403, 404), path
    code, body = _get(capped.base + "/")
    assert code == 200 and "Start here" in body
    assert _get(capped.base + "/voila/render/index.ipynb")[1] == body  # the old gallery address
    stem, title = lessons()[1]
    code, lesson = _get(f"{capped.base}/lessons/{stem}.html")  # published, or shown unexecuted
    assert code == 200 and title in lesson and "Traceback" not in lesson
    assert _get(capped.base + "/lessons/../nessus/serving.py")[0] in (403, 404)


@pytest.mark.browser
def test_a_visitor_cannot_run_code_on_a_kernel(capped):
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    code, page = _get(capped.base + "/voila/render/le-renard.ipynb")
    assert code == 200
    kernel = re.search(r'"kernelId": "([0-9a-f-]+)"', page).group(1)
    marker = Path(f"/tmp/nessus-visitor-{uuid.uuid4().hex}")

    def message(msg_type: str, content: dict) -> str:
        header = {
            "msg_id": uuid.uuid4().hex,
            "msg_type": msg_type,
            "session": "visitor",
            "username": "v",
            "version": "5.3",
            "date": "",
        }
        return json.dumps(
            {
                "header": header,
                "parent_header": {},
                "metadata": {},
                "content": content,
                "channel": "shell",
                "buffers": [],
            }
        )

    async def visit() -> list[str]:
        url = capped.base.replace("http", "ws") + f"/api/kernels/{kernel}/channels"
        ws = await websocket_connect(HTTPRequest(url))
        ws.write_message(
            message(
                "execute_request",
                {
                    "code": f"open({str(marker)!r}, 'w').write('ran')",
                    "silent": False,
                    "store_history": False,
                    "user_expressions": {},
                    "allow_stdin": False,
                },
            )
        )
        ws.write_message(message("kernel_info_request", {}))
        seen = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and "kernel_info_reply" not in seen:
            try:
                raw = await ws.read_message()
            except Exception:
                break
            if isinstance(raw, str):
                seen.append(json.loads(raw)["header"]["msg_type"])
        ws.close()
        return seen

    with ThreadPoolExecutor(1) as pool:  # its own event loop, apart from the session's Playwright
        seen = pool.submit(asyncio.run, asyncio.wait_for(visit(), 60)).result()
    time.sleep(2)
    assert "kernel_info_reply" in seen  # the socket worked: an allowed message was answered
    assert "execute_reply" not in seen and not marker.exists()


@pytest.mark.browser
def test_gets_past_the_cap_start_no_kernel_a_page_renders_afterwards_and_is_freed_when_closed(capped, browser):
    server = capped
    codes = [_get(server.base + "/voila/render/le-renard.ipynb")[0] for _ in range(3 * CAP)]
    viewers = status(server.base)["viewers"]
    assert viewers <= CAP and codes.count(200) <= CAP and codes.count(503) >= 2 * CAP, codes
    kernels = kernel_pids(server.pid())
    assert len(kernels) <= CAP + 1  # the viewers and the lesson pool's one
    assert sum(memory_mib(k)[1] for k in kernels) < (CAP + 1) * 400
    code, full = _get(server.base + "/voila/render/le-renard.ipynb")
    assert code == 503 and "class is full" in full.lower()
    deadline = time.monotonic() + CULL_IDLE_TIMEOUT + 2 * CULL_INTERVAL + 15
    while status(server.base)["viewers"] and time.monotonic() < deadline:
        time.sleep(2)
    assert status(server.base)["viewers"] == 0, "kernels no page connected to were not freed within a minute"

    page = browser.new_context().new_page()
    page.goto(server.base + "/voila/render/le-renard.ipynb", timeout=120_000, wait_until="commit")
    page.wait_for_selector(".widget-output svg.marks", timeout=120_000)
    assert "class is full" not in page.locator("body").inner_text().lower()
    assert status(server.base)["viewers"] == 1
    page.close(run_before_unload=True)  # its kernel is freed: Voila shuts it down on unload, else the culler
    page.context.close()
    deadline = time.monotonic() + 60
    while status(server.base)["viewers"] and time.monotonic() < deadline:
        time.sleep(1)
    assert status(server.base)["viewers"] == 0, "a closed page's kernel lived on for over a minute"


def test_stopping_nessus_serve_stops_voila_too():
    """`nessus serve` stopped (SIGTERM, as a service manager or a test does) stops its Voila and
    the kernels with it, instead of leaving them running without a parent."""
    import subprocess

    from classload import ROOT, cmdline, descendants, free_port

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "nessus.cli", "serve", "--port", str(port), "--no-preheat"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not _up(port):
        assert proc.poll() is None and time.monotonic() < deadline, "nessus serve did not start"
        time.sleep(0.5)
    voila = [p for p in descendants(proc.pid) if "nessus.serving" in cmdline(p)]
    assert voila, "no Voila process under nessus serve"
    proc.terminate()
    proc.wait(30)
    deadline = time.monotonic() + 30
    while Path(f"/proc/{voila[0]}").exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not Path(f"/proc/{voila[0]}").exists(), "Voila outlived nessus serve"


def _up(port: int) -> bool:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
    except OSError:
        return False
    return True
