"""Serving a class: the options, the cap, the gallery, and a real server's guarantees.

The server tests start their own `nessus serve` on a loopback port (tests/load/classload.py's
Server): floods of simultaneous GETs past the cap (with and without preheated kernels), the
places coming back when pages close or their kernels are culled, a real page rendering
afterwards, the kernel websocket refusing code, and the Jupyter APIs not served.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from nessus import classroom, cli, games
from nessus.kit.gallery import gallery_page, lessons, qr_svg
from nessus.serving import CULL_IDLE_TIMEOUT, CULL_INTERVAL, ServeOptions, dashboard_names, serve_command

sys.path.insert(0, str(Path(__file__).resolve().parent / "load"))
from browser import ARGS, CHROMIUM
from classload import Server, kernel_pids, memory_mib, status

GALLERY = games.with_dashboards()


def test_every_dashboard_is_served_and_in_the_gallery():
    assert dashboard_names() == sorted(e.dashboard.removesuffix(".ipynb") for e in GALLERY)


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
    cmd = serve_command(9000, ip="0.0.0.0", students=5, lesson=("le-renard",), max_viewers=12, engine="voila")
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
    assert re.findall(r"class='nessus-card' href='voila/render/([^']+)'", page) == [e.dashboard for e in GALLERY]
    assert [f"lessons/{stem}.html" for stem, _ in lessons()] == re.findall(r"href='(lessons/[^']+)'", page)
    assert "Start here" in page and "<svg" not in page  # no QR code when only this machine is served
    shown = gallery_page("http://192.0.2.7:8866/")
    assert "http://192.0.2.7:8866/" in shown and "<svg" in shown
    assert "dev.py publish" in gallery_page(None, lessons=False) and "dev.py publish" not in page


def test_qr_code_encodes_the_address():
    svg = qr_svg("http://192.0.2.7:8866/")
    assert svg.startswith("<svg") and svg.count("<path") >= 1
    assert qr_svg("http://192.0.2.7:8866/") != qr_svg("http://192.0.2.8:8866/")


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


T = TypeVar("T")


def run_apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end in a thread of its own: the session's Playwright keeps an event
    loop running in this one, where asyncio.run refuses to start."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_failed_pool_kernels_are_replaced_a_few_times_at_most():
    """A pool's kernel whose page build ended (its kernel died starting) or that is gone is taken
    out, shut down if still listed, and the pool refilled; a healthy one stays. A dashboard whose
    kernels always fail is refilled FAILED_REFILLS times, no more."""
    from nessus.voila_app import FAILED_REFILLS, replace_failed_pool_kernels

    class Build:
        def __init__(self, ended: bool) -> None:
            self.ended = ended

        def done(self) -> bool:
            return self.ended

    def pooled(kernel_id: str, ended: bool) -> asyncio.Future:
        f = asyncio.get_event_loop_policy().new_event_loop().create_future()
        f.set_result({"kernel_id": kernel_id, "renderer": None, "task": Build(ended)})
        return f

    class Manager:
        def __init__(self) -> None:
            healthy, ended, gone = pooled("healthy", False), pooled("ended", True), pooled("gone", False)
            self._pools = {"a.ipynb": [healthy, ended, gone], "b.ipynb": [pooled("fine", False)]}
            self.shut: list[str] = []
            self.filled: list[str] = []

        def __contains__(self, kernel_id: str) -> bool:
            return kernel_id in ("healthy", "ended", "fine")

        async def shutdown_kernel(self, kernel_id: str) -> None:
            self.shut.append(kernel_id)

        def fill_if_needed(self, delay: float, notebook_name: str) -> None:
            self.filled.append(notebook_name)
            self._pools[notebook_name].append(pooled("ended", True))  # this dashboard's kernels keep failing

    km, replaced = Manager(), Counter()
    assert run_apart(replace_failed_pool_kernels(km, replaced)) == ["a.ipynb"]
    assert [f.result()["kernel_id"] for f in km._pools["a.ipynb"][:1]] == ["healthy"]
    assert km.shut == ["ended"] and len(km._pools["b.ipynb"]) == 1
    for _ in range(2 * FAILED_REFILLS):
        run_apart(replace_failed_pool_kernels(km, replaced))
    assert km.filled == ["a.ipynb"] * FAILED_REFILLS


def test_every_place_taken_is_given_back_once():
    """Places are taken synchronously up to the cap; one ends when its request ends without a
    kernel, or when its kernel leaves the kernel manager, never twice and never before."""
    from nessus.admission import Admission

    alive: set[str] = set()
    admission = Admission(3)
    first, second, third = (admission.take(alive) for _ in range(3))
    assert None not in (first, second, third) and admission.take(alive) is None  # all at once: 3, no more
    admission.bind(first, "k1")
    admission.bind(second, "k1")  # two pages on one kernel still take two places
    alive.add("k1")
    admission.settle(first)
    admission.settle(second)
    assert admission.taken(alive) == 3 and admission.starting() == 1  # bound places outlive their requests
    admission.settle(third)  # its request ended with no kernel: given back now
    admission.bind(third, "k2")  # and a late kernel cannot take it again
    assert admission.taken(alive) == 2 and admission.starting() == 0
    alive.clear()  # k1 shut down (page closed) or culled
    assert admission.taken(alive) == 0
    assert [admission.take(alive) is not None for _ in range(4)] == [True, True, True, False]


def test_an_admitted_page_ties_its_kernel_to_its_place():
    """The kernel manager a page's request sees binds the kernel it starts, or is handed from a
    pool, to the page's place; everything else is the manager's own."""
    from nessus.admission import Admission
    from nessus.voila_app import AdmittedKernels

    class Manager:
        async def start_kernel(self, **kwargs) -> str:
            return "fresh"

        async def get_rendered_notebook(self, name: str) -> tuple:
            return "task", ["cell"], "pooled"

        def get_pool_size(self, name: str) -> int:
            return 1

    km, admission = Manager(), Admission(2)
    fresh, pooled = admission.take(set()), admission.take(set())
    assert run_apart(AdmittedKernels(km, admission, fresh).start_kernel()) == "fresh"
    assert run_apart(AdmittedKernels(km, admission, pooled).get_rendered_notebook("n.ipynb"))[2] == "pooled"
    assert AdmittedKernels(km, admission, fresh).get_pool_size("n.ipynb") == 1
    admission.settle(fresh)
    admission.settle(pooled)
    assert admission.starting() == 0 and admission.taken({"fresh", "pooled"}) == 2  # held by their kernels
    assert admission.taken({"pooled"}) == 1  # the fresh kernel shut down: its place is back


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


@dataclass
class Flood:
    """What simultaneous GETs of one dashboard got, and the server as sampled meanwhile."""

    answers: list[tuple[int, str, dict[str, str]]]  # status, body, headers
    kernels: list[int] = field(default_factory=list)  # kernel processes under Voila
    admitted: list[int] = field(default_factory=list)  # places taken, as /nessus/status says
    rss_mib: list[float] = field(default_factory=list)  # RSS of Voila and its kernels together

    def sample(self, server: Server) -> None:
        """Read the server's kernel processes, places taken and memory now."""
        voila = server.pid()
        kernels = kernel_pids(voila)
        self.kernels.append(len(kernels))
        self.admitted.append(status(server.base)["admitted"])
        self.rss_mib.append(sum(memory_mib(p)[1] for p in [voila, *kernels]))

    def codes(self) -> list[int]:
        return [code for code, _, _ in self.answers]

    def close_pages(self, base: str) -> None:
        """Close the pages served, as a browser does on unload: Voila's shutdown request for each
        page's kernel, its XSRF token sent as cookie and header (a same-origin page can do both)."""
        xsrf = uuid.uuid4().hex
        for code, body, _ in self.answers:
            if code == 200:
                kernel = re.search(r'"kernelId": "([0-9a-f-]+)"', body).group(1)
                request = urllib.request.Request(
                    f"{base}/voila/api/shutdown/{kernel}",
                    method="POST",
                    headers={"Cookie": f"_xsrf={xsrf}", "X-XSRFToken": xsrf},
                )
                assert urllib.request.urlopen(request, timeout=30).status == 204


def _get_answer(url: str, start: threading.Barrier) -> tuple[int, str, dict[str, str]]:
    """A GET sent once `start` releases it: its status, body and headers."""
    start.wait(30)
    try:
        with urllib.request.urlopen(url, timeout=120) as r:
            return r.status, r.read().decode(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), dict(e.headers)


def flood(server: Server, notebook: str, n: int, after: float = 3.0, longest: float = 300.0) -> Flood:
    """n GETs of a dashboard sent at once (released together by a barrier), the server sampled
    every 0.2 s from before the first until `after` seconds past the last answer."""
    url = f"{server.base}/voila/render/{notebook}"
    start, pool = threading.Barrier(n), ThreadPoolExecutor(n)
    futures = [pool.submit(_get_answer, url, start) for _ in range(n)]
    got, deadline = Flood([]), time.monotonic() + longest
    try:
        while not all(f.done() for f in futures) and time.monotonic() < deadline:
            got.sample(server)
            time.sleep(0.2)
        got.answers = [f.result(timeout=max(0.0, deadline - time.monotonic())) for f in futures]
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    end = time.monotonic() + after
    while time.monotonic() < end:
        got.sample(server)
        time.sleep(0.2)
    return got


KERNEL_RSS_MIB = 400
"""Memory allowed per process (Voila or a kernel) when bounding a server's RSS: kernels measured 130-212 MiB."""


def assert_capped(got: Flood, room: int, kernels_allowed: int) -> None:
    """The flood's first `room` pages were served (200), every other got the class-full page (503
    with Retry-After); kernel processes never exceeded `kernels_allowed`, nor places taken CAP,
    nor memory KERNEL_RSS_MIB for Voila and each kernel allowed."""
    codes = got.codes()
    print(
        f"\n[flood] {len(codes)} GETs: {codes.count(200)} x 200, {codes.count(503)} x 503; kernel processes "
        f"sampled {len(got.kernels)} times, max {max(got.kernels)} (last {got.kernels[-1]}); places taken max "
        f"{max(got.admitted)}; RSS of Voila and kernels max {max(got.rss_mib):.0f} MiB"
    )
    assert codes.count(200) == room and codes.count(503) == len(codes) - room, codes
    for code, body, headers in got.answers:
        full = headers.get("Retry-After") == "60" and "class is full" in body.lower()
        assert code == 200 or full, (code, headers, body[:300])
    assert max(got.kernels) <= kernels_allowed, got.kernels
    assert max(got.admitted) <= CAP, got.admitted
    assert max(got.rss_mib) < KERNEL_RSS_MIB * (kernels_allowed + 1), got.rss_mib


def renders_in_chromium(url: str, while_open: Callable[[], None]) -> None:
    """A real page: headless Chromium opens `url`, its first chart is drawn (a Playwright
    `expect`), `while_open()` runs, and the page is closed as a reader closes it (unload)."""

    def visit() -> None:
        from playwright.sync_api import expect, sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                page = browser.new_page()
                page.goto(url, timeout=120_000, wait_until="commit")
                expect(page.locator(".widget-output svg.marks").first).to_be_visible(timeout=120_000)
                expect(page.locator("body")).not_to_contain_text("class is full")
                while_open()
                page.close(run_before_unload=True)  # unload beacon: Voila shuts the kernel down; else the culler
            finally:
                browser.close()

    with ThreadPoolExecutor(1) as pool:  # apart from any Playwright the session runs in this thread
        pool.submit(visit).result()


def wait_for(what: Callable[[], bool], seconds: float, step: float = 1.0) -> bool:
    """Whether `what()` came true within `seconds` (polled every `step`)."""
    deadline = time.monotonic() + seconds
    while not what():
        if time.monotonic() > deadline:
            return False
        time.sleep(step)
    return True


def open_then_freed(server: Server, notebook: str, pool: int) -> None:
    """A page renders in Chromium and holds one place while open; closed, its place comes back
    and only the pool's kernels are left (within a minute)."""

    def holds_one_place() -> None:
        assert status(server.base)["admitted"] == 1

    renders_in_chromium(f"{server.base}/voila/render/{notebook}", holds_one_place)
    assert wait_for(lambda: status(server.base)["admitted"] == 0, 60), "a closed page's place was not given back"
    assert wait_for(lambda: len(kernel_pids(server.pid())) <= pool, 60), "a closed page's kernel lived on"


@pytest.mark.browser
def test_a_flood_past_the_cap_with_preheated_kernels_starts_no_more_and_unconnected_places_come_back(capped):
    """10x CAP GETs at once of a dashboard whose pool keeps 1 preheated kernel: one page gets it,
    the others with a place get fresh kernels, the rest the class-full page. Kernel processes
    stay within CAP + 1 (the pool's, refilled after the burst); no page connects, so the culler
    frees those kernels and gives their places back; a real page renders afterwards."""
    from nessus.voila_app import LOADING_PAGE_LONGEST

    server = capped
    assert status(server.base)["pools"]["le-renard.ipynb"]["ready"] == 1
    room = CAP - status(server.base)["admitted"]  # an earlier test's page may still hold one
    assert room >= 1
    got = flood(server, "le-renard.ipynb", 10 * CAP)
    assert_capped(got, room, kernels_allowed=CAP + 1)
    assert status(server.base)["pools"]["le-renard.ipynb"]["ready"] == 0  # handed out (refilled after 30 s quiet)
    assert _get(server.base + "/voila/render/le-renard.ipynb")[0] == 503  # still full after the flood
    # freed within a minute (CULL_IDLE_TIMEOUT + CULL_INTERVAL) with CPU to spare; a saturated machine
    # spares them as pages still loading, for LOADING_PAGE_LONGEST at most
    cull = max(CULL_IDLE_TIMEOUT, LOADING_PAGE_LONGEST) + 2 * CULL_INTERVAL + 15
    started = time.monotonic()
    assert wait_for(lambda: status(server.base)["admitted"] == 0, cull, 2), "unconnected kernels' places not back"
    print(f"[flood] the culler gave the places back {time.monotonic() - started:.0f} s after the flood")
    open_then_freed(server, "le-renard.ipynb", pool=1)


@pytest.mark.browser
def test_a_flood_past_the_cap_without_preheated_kernels_starts_no_more_and_closed_pages_give_places_back(tmp_path):
    """10x CAP GETs at once with no preheated kernel: CAP kernels start at once, never more; the
    rest get the class-full page. Closing those pages (Voila's unload request) gives their places
    back at once; a real page renders afterwards."""
    from browser import browser_or_skip

    browser_or_skip()
    with Server("--no-preheat", "--max-viewers", str(CAP), log=tmp_path / "voila.log") as server:
        server.wait_ready({})
        got = flood(server, "le-renard.ipynb", 10 * CAP)
        assert_capped(got, CAP, kernels_allowed=CAP)
        got.close_pages(server.base)
        assert wait_for(lambda: status(server.base)["admitted"] == 0, 30), "closed pages' places not back"
        open_then_freed(server, "le-renard.ipynb", pool=0)


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


def test_stopping_nessus_serve_stops_voila_too():
    """`nessus serve` stopped (SIGTERM, as a service manager or a test does) stops its Voila and
    the kernels with it, instead of leaving them running without a parent."""
    import subprocess

    from classload import ROOT, cmdline, descendants, free_port

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "nessus.cli", "serve", "--engine", "voila", "--port", str(port), "--no-preheat"],
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
