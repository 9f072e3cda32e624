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
from nessus.static_cache import StaticCache

PLACE_WAITS = 60.0
"""Seconds a page's place waits for its websocket before it is given back (a page that never loaded)."""
CHART_BUNDLE = "/nessus/vega-chart.js"
"""Where the charts' script (vega, offline) is served: each chart widget loads it from here."""
CACHED = {"Cache-Control": "max-age=86400"}
HELD = ("/_solara/cdn/", "/static/", "/jupyter/nbextensions/", CHART_BUNDLE)
"""The paths of the scripts, styles and fonts every page loads: held in memory, gzipped once."""
CULL_AFTER = "45s"
"""How long a page's virtual kernel outlives its closed websocket (as Voila's culler)."""


CHART_LOADER = """const chart = import(new URL(%r, location.origin).href);
export default { async render(view) { return (await chart).default.render(view); } };"""
"""Each chart widget's script: it loads vega's bundle once from the server (`use_chart_widgets`)."""


def use_chart_widgets(bundle_url: str) -> str:
    """Draw every chart pane made from now on as an altair JupyterChart, whose script loads vega
    from `bundle_url`; returns that bundle (vega offline, about 900 kB), for the server to serve.
    A chart widget thus sends a line of script, not the bundle, and the browser loads it once."""
    from altair.jupyter.jupyter_chart import JupyterChart

    from nessus.kit.common import ChartPane

    JupyterChart.enable_offline()
    bundle = JupyterChart._esm
    JupyterChart._esm = CHART_LOADER % bundle_url
    ChartPane.widget_charts = True
    return bundle


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

        # the page's widget as the child of a Div, as it is: `solara.display` would format the whole
        # widget tree into a mimebundle (a repr of every widget) and wrap it in an Output
        solara.Div(children=[solara.use_memo(build, [])])

    return Page


def _routes() -> list:
    import solara

    from nessus import games

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
        solara.Div(children=children or [], style={"max-width": "100%"})

    return Layout


@cache
def __getattr__(name: str) -> Any:
    """What Solara's server reads of its app module: the dashboards' `routes` (made on first use:
    importing this module needs no Solara)."""
    if name == "routes":
        return _routes()
    raise AttributeError(name)


class Places:
    """The viewer cap for Solara (`nessus.admission`): a dashboard page's request takes a place;
    the next new kernel's websocket carries it on, and it is bound to that virtual kernel once
    Solara has made it. A place not carried on within PLACE_WAITS seconds is given back."""

    def __init__(self, cap: int) -> None:
        self.admission = Admission(cap)
        self.waiting: deque[tuple[float, Place]] = deque()  # pages served, their websocket not yet come
        self.connecting: dict[str, tuple[float, Place]] = {}  # kernel id: its websocket came, no kernel yet

    def alive(self) -> set[str]:
        """The virtual kernels alive now, once places waiting too long are given back and those
        whose kernel now exists are bound to it."""
        from solara.server import kernel_context

        alive = set(kernel_context.contexts)
        now = time.monotonic()
        while self.waiting and now - self.waiting[0][0] > PLACE_WAITS:
            self.admission.settle(self.waiting.popleft()[1])
        for kernel_id, (since, place) in list(self.connecting.items()):
            if kernel_id in alive:
                self.admission.bind(place, kernel_id)
            elif now - since > PLACE_WAITS:
                self.admission.settle(place)
            else:
                continue
            del self.connecting[kernel_id]
        return alive

    def page(self) -> bool:
        """A page's request: whether it got a place."""
        place = self.admission.take(self.alive())
        if place is not None:
            self.waiting.append((time.monotonic(), place))
        return place is not None

    def socket(self, kernel_id: str) -> bool:
        """A kernel's websocket: whether it may connect (its kernel exists or has a place)."""
        alive = self.alive()
        if kernel_id in alive or kernel_id in self.connecting:
            return True
        place = self.waiting.popleft()[1] if self.waiting else self.admission.take(alive)
        if place is not None:
            self.connecting[kernel_id] = (time.monotonic(), place)
        return place is not None


class Admitting:
    """An ASGI middleware: dashboard pages and kernel websockets pass only with a place."""

    def __init__(self, app: Any, places: Places, pages: set[str]) -> None:
        self.app, self.places, self.pages = app, places, pages

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and path.strip("/") in self.pages and not self.places.page():
            await _class_full(self.places.admission.cap, send)
            return
        if scope["type"] == "websocket" and path.startswith("/jupyter/api/kernels/"):
            if not self.places.socket(path.split("/")[4]):
                await send({"type": "websocket.close", "code": 1013})  # refused at the handshake (403)
                return
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


def server_app(max_viewers: int, student_url: str, shows_network: bool, chart_bundle: str) -> Any:
    """Solara's Starlette app with the gallery at `/`, `/nessus/status`, `/lessons/`, the charts'
    script (`chart_bundle`, at CHART_BUNDLE), and the cap."""
    from solara.server.starlette import app
    from starlette.middleware.gzip import GZipMiddleware
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
    from starlette.routing import BaseRoute, Mount, Route
    from starlette.staticfiles import StaticFiles

    from nessus import serving
    from nessus.kit.gallery import gallery_page

    places = Places(max_viewers)
    pages = set(serving.dashboard_names())

    def gallery(request: Request) -> HTMLResponse:
        page = gallery_page(student_url if shows_network else None, lessons=SITE.exists(), engine="solara")
        return HTMLResponse(page, headers={"Cache-Control": "no-cache"})

    def status(request: Request) -> JSONResponse:
        alive = places.alive()
        taken = places.admission.taken(alive)
        return JSONResponse(
            {
                "engine": "solara",
                "viewers": len(alive),
                "admitted": taken,
                "starting": places.admission.starting(),
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
        Route(CHART_BUNDLE, lambda request: Response(chart_bundle, media_type="text/javascript", headers=CACHED)),
    ]
    if SITE.exists():
        ours.append(Mount("/lessons", StaticFiles(directory=SITE, html=True)))
    app.router.routes[0:0] = ours
    # Solara's gzip compresses every script for every page (a new student has nothing cached),
    # which was most of the server's CPU per page: the scripts are compressed once and held instead
    app.user_middleware = [m for m in app.user_middleware if m.cls is not GZipMiddleware]
    app.add_middleware(StaticCache, prefixes=HELD)
    app.add_middleware(Admitting, places=places, pages=pages)
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
    # a page's widget messages queued and sent by the event loop every 50 ms, not one blocking
    # cross-thread call each (a page opens ~160 widgets): a quarter of the server's CPU a page
    os.environ.setdefault("SOLARA_EXPERIMENTAL_PERFORMANCE", "True")
    os.environ["SERVER_NAME"], os.environ["SERVER_PORT"] = args.ip, str(args.port)
    import uvicorn
    from solara.server import settings

    from nessus import serving

    settings.main.mode = "production"
    settings.theme.show_banner = False  # its "runs on Solara" badge covered the page's foot on a phone
    for name in serving.dashboard_names():  # imported before the first student asks
        page_module(name)
    bundle = use_chart_widgets(CHART_BUNDLE)
    shows = args.ip not in ("localhost",) and not args.ip.startswith("127.")
    app = server_app(args.max_viewers, args.student_url, shows, bundle)
    uvicorn.run(  # websocket messages uncompressed too: deflating every widget message cost the server CPU
        app, host=args.ip, port=args.port, log_level="warning", ws_max_size=64 * 2**20, ws_per_message_deflate=False
    )


if __name__ == "__main__":
    main()
