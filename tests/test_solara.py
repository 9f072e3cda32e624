"""Solara, where one process serves every student: each page its own state, a slow solve for
one student leaving the others free, the viewer cap as an admission, and no code run for a
visitor. The pages themselves run on both engines in their games' test_page.py."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import Message
from pathlib import Path

import pytest
from browser import (
    ARTIFACTS,
    Served,
    browser_or_skip,
    chart_shows,
    free_port,
    open_dashboard,
    roll_dice,
    rolls_made,
)
from playwright.sync_api import expect

from nessus.serving import serve_command

pytestmark = pytest.mark.browser


@contextmanager
def solara_server(name: str, **options: object) -> Iterator[Served]:
    """`nessus serve --engine solara` of this module's own (a fresh process: nothing cached)."""
    browser_or_skip()
    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / f"solara-{name}.log", "w") as log:
        proc = subprocess.Popen(serve_command(port, engine="solara", **options), stdout=log, stderr=subprocess.STDOUT)
        base = Served(f"http://127.0.0.1:{port}")
        base.engine = "solara"
        try:
            deadline = time.monotonic() + 120
            while not _answers(base + "/"):
                assert proc.poll() is None and time.monotonic() < deadline, f"solara did not start ({log.name})"
                time.sleep(0.5)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()


def _answers(url: str) -> bool:
    try:
        urllib.request.urlopen(url, timeout=2)
        return True
    except OSError:
        return False


def _get(url: str) -> tuple[int, str, Message]:
    """The status, body and headers (their names in any case) of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.read().decode(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), e.headers


@pytest.fixture(scope="module")
def solo() -> Iterator[Served]:
    with solara_server("solo") as base:
        yield base


@pytest.fixture
def two(browser) -> Iterator[tuple]:
    """Two students: a page each, in browser contexts of their own."""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 1000}) for _ in range(2)]
    pages = [c.new_page() for c in contexts]
    yield tuple(pages)
    for c in contexts:
        c.close()


def test_each_student_has_a_page_of_their_own(solo, two):
    a, b = two
    open_dashboard(a, solo, "le-palais")
    open_dashboard(b, solo, "le-palais")
    roll_dice(a)
    roll_dice(a)
    assert rolls_made(a) == 2
    expect(b.locator(".roll-counter")).to_have_attribute("data-made", "0")
    b.locator(".number-format button", has_text="percentages").click()
    expect(b.locator(".nessus-dash")).to_contain_class("fmt-percent")
    roll_dice(b)
    assert rolls_made(b) == 1
    expect(a.locator(".roll-counter")).to_have_attribute("data-made", "2")
    expect(a.locator(".nessus-dash")).to_contain_class("fmt-fraction")


def test_a_slow_solve_for_one_student_leaves_the_others_free(solo, two):
    """La Boue's exact law for 9 dice takes seconds to solve (nothing is cached in this fresh
    server); a student pressing Roll on another page meanwhile is answered before it ends."""
    a, b = two
    open_dashboard(a, solo, "la-boue")
    open_dashboard(b, solo, "le-palais")
    field = a.get_by_label("dice", exact=True)
    field.fill("9")
    start = time.perf_counter()
    field.press("Enter")
    answered = roll_dice(b)
    chart_shows(a, "with 9 dice")
    solved = time.perf_counter() - start
    print(f"\n[solara] Roll answered in {answered:.2f} s while La Boue solved 9 dice for {solved:.2f} s")
    assert answered < solved, "the Roll waited for the other student's solve"


@pytest.fixture(scope="module")
def capped() -> Iterator[Served]:
    with solara_server("capped", max_viewers=2) as base:
        yield base


def _message(msg_type: str, content: dict) -> str:
    header = {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": "v", "username": "v", "version": "5.3"}
    return json.dumps(
        {"header": header, "parent_header": {}, "metadata": {}, "content": content, "channel": "shell", "buffers": []}
    )


def test_the_cap_is_an_admission_and_a_visitor_runs_no_code(capped):
    """Two places: two page requests take them, the third gets the 'class is full' page (503);
    the websockets of the two admitted pages' kernels are accepted, a third new kernel's refused.
    On an admitted kernel's socket, code sent to run is not run (no reply, no file), while an
    allowed message is answered."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    assert [_get(f"{capped}/le-palais")[0] for _ in range(2)] == [200, 200]
    code, body, headers = _get(f"{capped}/le-renard")
    assert code == 503 and "class is full" in body and headers.get("Retry-After") == "60"
    status = json.loads(_get(f"{capped}/nessus/status")[1])
    assert status["admitted"] == 2 and status["max_viewers"] == 2 and status["engine"] == "solara"

    ws_base = capped.replace("http", "ws") + "/jupyter/api/kernels"
    marker = Path(f"/tmp/nessus-visitor-{uuid.uuid4().hex}")
    run = {"code": f"open({str(marker)!r}, 'w').write('ran')", "silent": False, "store_history": False}
    seen: list[str] = []

    def read(ws, until: str | None) -> None:
        """Note the messages' types until `until` arrives, the socket closes, or 10 quiet seconds."""
        while until not in seen:
            try:
                raw = ws.recv(timeout=10)
            except (TimeoutError, ConnectionClosed):
                return
            if isinstance(raw, str):
                seen.append(json.loads(raw)["header"]["msg_type"])

    with connect(f"{ws_base}/{uuid.uuid4()}/channels?session_id=a") as first:
        first.send(_message("kernel_info_request", {}))
        read(first, "kernel_info_reply")
        assert "kernel_info_reply" in seen  # the socket works: an allowed message is answered
        with connect(f"{ws_base}/{uuid.uuid4()}/channels?session_id=b"):  # the second admitted page
            with pytest.raises(InvalidStatus) as refused:  # a third new kernel: refused at the handshake
                with connect(f"{ws_base}/{uuid.uuid4()}/channels?session_id=c"):
                    pass
        first.send(_message("execute_request", {**run, "user_expressions": {}, "allow_stdin": False}))
        read(first, None)
    assert refused.value.response.status_code == 403
    assert "execute_reply" not in seen and not marker.exists()
