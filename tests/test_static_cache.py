"""nessus.static_cache: files asked once of the app behind, served again from memory, gzipped."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.testclient import TestClient

from nessus.static_cache import StaticCache


class Counting:
    """An ASGI app that counts the requests it answers."""

    def __init__(self, app: object) -> None:
        self.app, self.asked = app, 0

    async def __call__(self, scope: dict, receive: object, send: object) -> None:
        if scope["type"] == "http":
            self.asked += 1
        await self.app(scope, receive, send)  # type: ignore[operator]


@pytest.fixture
def site(tmp_path: Path) -> tuple[TestClient, Counting, bytes]:
    script = b"function roll() { return 1 + Math.floor(6 * Math.random()); }\n" * 200
    (tmp_path / "app.js").write_bytes(script)
    (tmp_path / "die.png").write_bytes(bytes(range(256)) * 8)
    app = Counting(Starlette(routes=[Mount("/static", StaticFiles(directory=tmp_path))]))
    return TestClient(StaticCache(app, prefixes=("/static/",))), app, script


def test_a_file_is_asked_of_the_app_once_and_served_gzipped(site: tuple[TestClient, Counting, bytes]) -> None:
    client, app, script = site
    answers = [client.get("/static/app.js?v=1", headers={"Accept-Encoding": "gzip"}) for _ in range(3)]
    assert app.asked == 1
    for answer in answers:
        assert answer.status_code == 200
        assert answer.headers["content-encoding"] == "gzip"
        assert answer.content == script  # the client undid the gzip
        assert int(answer.headers["content-length"]) == len(gzip.compress(script, 6))
        assert "max-age" in answer.headers["cache-control"]


def test_a_browser_without_gzip_gets_the_bytes_as_they_are(site: tuple[TestClient, Counting, bytes]) -> None:
    client, _, script = site
    answer = client.get("/static/app.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in answer.headers
    assert answer.content == script and int(answer.headers["content-length"]) == len(script)


def test_an_image_is_not_gzipped(site: tuple[TestClient, Counting, bytes]) -> None:
    client, _, _ = site
    answer = client.get("/static/die.png", headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and "content-encoding" not in answer.headers


def test_a_browser_that_has_the_file_gets_304(site: tuple[TestClient, Counting, bytes]) -> None:
    client, _, _ = site
    etag = client.get("/static/app.js").headers["etag"]
    again = client.get("/static/app.js", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""


def test_what_is_missing_or_elsewhere_goes_to_the_app_each_time(site: tuple[TestClient, Counting, bytes]) -> None:
    client, app, _ = site
    assert client.get("/static/nowhere.js").status_code == 404
    assert client.get("/static/nowhere.js").status_code == 404
    assert client.get("/elsewhere").status_code == 404
    assert app.asked == 3
