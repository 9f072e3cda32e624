"""Scripts, styles and fonts held in memory, compressed once: an ASGI middleware.

Every student's first page fetches the same few megabytes (Solara's app, vue, vuetify, vega),
and a new student has nothing cached. Read from disk and sent raw, these files were a fifth of
the server's CPU per page and about 7 MB of the classroom's network per student; compressed at
each request, they cost more CPU still. `StaticCache` asks the app behind it once per file,
keeps the answer and its gzip, and serves both from memory.
"""

from __future__ import annotations

import asyncio
import gzip
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml", "font/ttf")
LARGEST = 16 * 2**20
"""Bytes: a larger file is passed through, not held."""


@dataclass(frozen=True)
class Held:
    """A file's answer: its headers, its bytes and, when smaller, its gzip."""

    headers: list[tuple[bytes, bytes]]
    body: bytes
    gzipped: bytes | None
    etag: bytes | None


class StaticCache:
    """Holds in memory the 200 answers of GET requests under `prefixes` and serves them again,
    gzipped to browsers that accept it, with `cache_control` and the app's ETag (304 when the
    browser has it). Every other request goes to `app` untouched."""

    def __init__(self, app: Any, prefixes: tuple[str, ...], cache_control: str = "max-age=86400") -> None:
        self.app, self.prefixes, self.cache_control = app, prefixes, cache_control.encode()
        self.held: dict[str, asyncio.Future[Held | None]] = {}

    def holds(self, scope: dict) -> bool:
        return scope["type"] == "http" and scope.get("method") == "GET" and scope["path"].startswith(self.prefixes)

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if not self.holds(scope):
            await self.app(scope, receive, send)
            return
        key = scope["path"] + "?" + scope.get("query_string", b"").decode("latin-1")
        future = self.held.get(key)
        if future is None:  # the first request for this file asks the app; those arriving meanwhile wait
            future = self.held[key] = asyncio.get_running_loop().create_future()
            try:
                start, body = await self.fetch(scope)
                future.set_result(await asyncio.to_thread(self.hold, start, body))
            except BaseException:
                future.set_result(None)
                raise
            if future.result() is None:  # not held (a 404, a large file): its answer as it came
                self.held.pop(key, None)
                await send(start)
                await send({"type": "http.response.body", "body": body})
                return
        held = await future
        if held is None:  # the first request's answer was not held: ask the app
            await self.app(scope, receive, send)
            return
        await self.answer(held, dict(scope["headers"]), send)

    async def fetch(self, scope: dict) -> tuple[dict, bytes]:
        """The app's whole answer to an unconditional GET: its start message and its body."""
        asked = {**scope, "headers": [(k, v) for k, v in scope["headers"] if not k.startswith(b"if-")]}
        start: dict = {}
        chunks: list[bytes] = []
        requests = [{"type": "http.request", "body": b"", "more_body": False}]

        async def receive() -> dict:
            if requests:
                return requests.pop()
            await asyncio.get_running_loop().create_future()  # no disconnect: the app answers whole
            return {"type": "http.disconnect"}

        async def keep(message: dict) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(asked, receive, keep)
        return start, b"".join(chunks)

    @staticmethod
    def hold(start: dict, body: bytes) -> Held | None:
        """What to hold of an answer (with its gzip when that is smaller), or None if it is not a
        200 worth holding."""
        if start.get("status") != 200 or len(body) > LARGEST:
            return None
        headers = [(k.lower(), v) for k, v in start.get("headers", []) if k.lower() not in DROPPED]
        kind = dict(headers).get(b"content-type", b"").decode("latin-1")
        gzipped = None
        if kind.startswith(COMPRESSIBLE) and len(body) > 1024:
            small = gzip.compress(body, 6)
            gzipped = small if len(small) < 0.9 * len(body) else None
        return Held(headers, body, gzipped, dict(start.get("headers", [])).get(b"etag"))

    async def answer(self, held: Held, asked: dict[bytes, bytes], send: Callable) -> None:
        headers = [*held.headers, (b"cache-control", self.cache_control), (b"vary", b"accept-encoding")]
        if held.etag is not None:
            headers.append((b"etag", held.etag))
            if asked.get(b"if-none-match") == held.etag:
                await send({"type": "http.response.start", "status": 304, "headers": headers})
                await send({"type": "http.response.body", "body": b""})
                return
        body = held.body
        if held.gzipped is not None and b"gzip" in asked.get(b"accept-encoding", b""):
            body = held.gzipped
            headers.append((b"content-encoding", b"gzip"))
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})


DROPPED = {b"content-length", b"content-encoding", b"cache-control", b"vary", b"etag", b"transfer-encoding"}
"""Headers of the app's answer that StaticCache sets itself."""
