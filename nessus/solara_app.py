"""The dashboards under Solara: every student's page in one process, a virtual kernel each.

`python -m nessus.solara_app ARGS` serves what `nessus serve --engine solara` asks for. Each
dashboard runs the same page code as under Voila (the `page.app()` its notebook calls), at
`/<dashboard>` (`serving.dashboard_path`); the gallery, `/nessus/status` and the published lessons
are served beside them as under Voila, and the viewer cap is the same admission
(`nessus.admission`): a page's request takes a place before its virtual kernel exists, so pages
arriving together cannot pass the cap together; past it, the "class is full" page answers 503.

What keeps the students apart and safe:
- every page is built anew in its own virtual kernel (Solara's kernel context, carried into the
  threads a page starts), so one student's moves never reach another's page;
- Solara handles each page's widget messages in a thread of its own, and the pages run their long
  computations in their own threads (`kit.common.LatestJob`), so a slow solve for one student
  leaves the event loop, and the other pages, free;
- a visitor's websocket carries widget messages only: Solara's kernel answers no
  execute_request, and no notebook, terminal or file is served.
One process computes on one core: past a class per core, run several behind a proxy (deploy/).
"""

from __future__ import annotations

import argparse
import os
import re
import time
from collections import deque
from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import Any
from urllib.parse import parse_qs

from nessus import classroom
from nessus.admission import Admission, Place
from nessus.paths import DASHBOARDS, GALLERY, SITE

PLACE_WAITS = 60.0
"""Seconds a page's place waits for its websocket before it is given back (a page that never loaded)."""
CULL_AFTER = "45s"
"""How long a page's virtual kernel outlives its closed websocket (as Voila's culler)."""


@cache
def page_module(dashboard: str) -> Any:
    """The page module whose `app()` a dashboard notebook displays (`from nessus.games.X import page`)."""
    source = (DASHBOARDS / f"{dashboard}.ipynb").read_text()
    found = re.search(r"from (nessus\.games\.\w+) import page", source)
    if found is None:
        raise ValueError(f"dashboard {dashboard!r} has no `from nessus.games.<game> import page`")
    return import_module(f"{found.group(1)}.page")


def _dashboard_component(dashboard: str) -> Callable:
    import solara

    from nessus.kit import base

    @solara.component
    def Page() -> None:
        search = solara.use_router().search or ""

        def build() -> Any:
            asked = base.PAGE_QUERY.set({k: v[-1] for k, v in parse_qs(search).items()})
            try:
                return page_module(dashboard).app()
            finally:
                base.PAGE_QUERY.reset(asked)

        solara.display(solara.use_memo(build, []))

    return Page


def _routes() -> list:
    import solara

    from nessus import games
    from nessus.kit import common

    common.use_chart_widgets()
    layout = _layout()
    found = []
    for game in games.with_dashboards():
        stem = (game.dashboard or "").removesuffix(".ipynb")
        found.append(solara.Route(stem, component=_dashboard_component(stem), label=game.page_title, layout=layout))
    return found


def _layout() -> Callable:
    import solara

    @solara.component
    def Layout(children: list | None = None) -> None:
        """The page alone, without Solara's navigation."""
        solara.Column(children=children or [], style={"padding": "0 8px"})

    return Layout


@cache
def __getattr__(name: str) -> Any:
    """What Solara's server reads of its app module: the dashboards' `routes` (made on first use:
    importing this module needs no Solara)."""
    if name == "routes":
        return _routes()
    raise AttributeError(name)


class SolaraAdmission:
    """The viewer cap for Solara, as an ASGI middleware: a dashboard page's request takes a place
    (or gets the "class is full" page), and the next new virtual kernel's websocket binds it."""

    def __init__(self, app: Any, admission: Admission, pages: set[str]) -> None:
        self.app, self.admission, self.pages = app, admission, pages
        self.waiting: deque[tuple[float, Place]] = deque()

    def alive(self) -> set[str]:
        """The virtual kernels alive now (the places they hold stay taken)."""
        from solara.server import kernel_context

        now = time.monotonic()
        while self.waiting and now - self.waiting[0][0] > PLACE_WAITS:
            self.admission.settle(self.waiting.popleft()[1])
        return set(kernel_context.contexts)

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and path.strip("/") in self.pages:
            place = self.admission.take(self.alive())
            if place is None:
                await _class_full(self.admission.cap, send)
                return
            self.waiting.append((time.monotonic(), place))
        elif scope["type"] == "websocket" and path.startswith("/jupyter/api/kernels/"):
            kernel_id = path.split("/")[4]
            alive = self.alive()
            if kernel_id not in alive:
                place = self.waiting.popleft()[1] if self.waiting else self.admission.take(alive)
                if place is None:
                    await send({"type": "websocket.close", "code": 1013})
                    return
                self.admission.bind(place, kernel_id)
        await self.app(scope, receive, send)


async def _class_full(cap: int, send: Callable) -> None:
    body = classroom.class_full_page(cap).encode()
    headers = [
        (b"content-type", b"text/html; charset=utf-8"),
        (b"retry-after", b"60"),
        (b"cache-control", b"no-cache"),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def server_app(max_viewers: int, student_url: str, shows_network: bool) -> Any:
    """Solara's Starlette app with the gallery at `/`, `/nessus/status`, `/lessons/`, and the cap."""
    from solara.server import kernel_context
    from solara.server.starlette import app
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse
    from starlette.routing import BaseRoute, Mount, Route
    from starlette.staticfiles import StaticFiles

    from nessus import serving
    from nessus.kit.gallery import gallery_page

    admission = Admission(max_viewers)
    pages = {name for name in serving.dashboard_names()}

    def gallery(request: Request) -> HTMLResponse:
        page = gallery_page(student_url if shows_network else None, lessons=SITE.exists(), engine="solara")
        return HTMLResponse(page, headers={"Cache-Control": "no-cache"})

    def status(request: Request) -> JSONResponse:
        alive = set(kernel_context.contexts)
        taken = admission.taken(alive)
        return JSONResponse(
            {
                "engine": "solara",
                "viewers": len(alive),
                "admitted": taken,
                "starting": admission.starting(),
                "max_viewers": max_viewers,
                "kernels": len(alive),
                "pools": {},
                "student_url": student_url,
            },
            headers={"Cache-Control": "no-cache"},
        )

    ours: list[BaseRoute] = [
        Route("/", gallery),
        Route(f"/{GALLERY}", lambda request: RedirectResponse("/")),
        Route("/nessus/status", status),
    ]
    if SITE.exists():
        ours.append(Mount("/lessons", StaticFiles(directory=SITE, html=True)))
    app.router.routes[0:0] = ours
    app.add_middleware(SolaraAdmission, admission=admission, pages=pages)
    return app


def main(argv: list[str] | None = None) -> None:
    """Serve the dashboards with Solara (the options `nessus serve` passes)."""
    parser = argparse.ArgumentParser(prog="python -m nessus.solara_app")
    parser.add_argument("--port", type=int, default=8866)
    parser.add_argument("--ip", default="127.0.0.1")
    parser.add_argument("--max-viewers", type=int, default=40)
    parser.add_argument("--student-url", default="")
    args = parser.parse_args(argv)
    os.environ["SOLARA_APP"] = "nessus.solara_app"  # imported anew by Solara, even when run as __main__
    os.environ.setdefault("SOLARA_KERNEL_CULL_TIMEOUT", CULL_AFTER)
    os.environ.setdefault("SOLARA_TELEMETRY_MIXPANEL_ENABLE", "False")
    os.environ.setdefault("SOLARA_CHECK_VERSION", "False")
    os.environ["SERVER_NAME"], os.environ["SERVER_PORT"] = args.ip, str(args.port)
    import uvicorn
    from solara.server import settings

    from nessus import serving
    from nessus.kit import common

    settings.main.mode = "production"
    for name in serving.dashboard_names():  # imported before the first student asks
        page_module(name)
    common.use_chart_widgets()
    shows = args.ip not in ("localhost",) and not args.ip.startswith("127.")
    app = server_app(args.max_viewers, args.student_url, shows)
    uvicorn.run(app, host=args.ip, port=args.port, log_level="warning", ws_max_size=64 * 2**20)


if __name__ == "__main__":
    main()
