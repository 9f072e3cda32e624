"""Voila for a classroom: the static gallery, the cap on viewer kernels, lesson pools, status.

Imported only by the server process (`python -m nessus.serving`); see nessus/serving.py.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import tornado.ioloop
import tornado.web
from jupyter_core.utils import ensure_async
from traitlets import Float, Int, Unicode
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

from nessus import classroom
from nessus.admission import Admission, Place
from nessus.paths import GALLERY, NOTEBOOKS, SITE

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
FAILED_REFILLS = 5
"""Times at most a pool's failed kernels are replaced (a dashboard that cannot build its page
would otherwise start kernels for ever)."""
LOADING_PAGE_LONGEST = 300.0
"""Seconds at most that a saturated machine's culler spares a kernel whose page has not connected yet."""


def _pool_kernel_ids(km: Any) -> set[str]:
    """The kernels waiting in Voila's preheat pools (not yet given to a viewer)."""
    ids = set()
    for pool in getattr(km, "_pools", {}).values():
        for task in pool:
            if task.done() and not task.cancelled() and task.exception() is None:
                ids.add(task.result()["kernel_id"])
    return ids


def viewer_kernels(km: Any) -> int:
    """How many kernels serve viewers (every kernel but the preheated ones waiting in a pool)."""
    return len(set(km.list_kernel_ids()) - _pool_kernel_ids(km))


def pool_status(km: Any) -> dict[str, dict[str, int]]:
    """Per dashboard notebook: kernels kept in its pool, and how many have run their notebook
    up to the wait for a page (ready to be handed out at once)."""
    status = {}
    for name, pool in getattr(km, "_pools", {}).items():
        ready = 0
        for task in pool:
            if task.done() and not task.cancelled() and task.exception() is None:
                ready += _waiting(task.result()["renderer"])
        status[name] = {"kept": len(pool), "ready": ready}
    return status


def _waiting(renderer: Any) -> bool:
    """Whether a preheated kernel has built its page: the dashboard notebooks display their
    app before waiting for a page, so the page is ready once a widget view has been rendered."""
    return any(WIDGET_VIEW in snippet for snippet in renderer.rendered_cache)


def _hand_out_started_kernels_only(km: Any) -> None:
    """Give a page a pooled kernel only if one has started and is still alive (the most advanced
    first), else a fresh kernel: Voila would otherwise make the page wait for a refill that is
    still sleeping out its fill delay, or hand it a kernel that died starting."""

    def started(name: str) -> list:
        pool = km._pools.get(name, [])
        ready = [t for t in pool if t.done() and not t.cancelled() and t.exception() is None]
        for t in ready:
            if _failed(t, km):  # it died starting (a port taken under it): never hand it out
                pool.remove(t)
        return [t for t in ready if t in pool]

    def get_pool_size(name: str) -> int:
        return len(started(name))

    get_rendered = km.get_rendered_notebook

    async def get_rendered_notebook(notebook_name: str, *args: Any, **kwargs: Any) -> Any:
        pool = km._pools[notebook_name]
        best = sorted(started(notebook_name), key=lambda t: not _waiting(t.result()["renderer"]))
        pool[:] = best + [t for t in pool if t not in best]
        return await get_rendered(notebook_name, *args, **kwargs)

    km.get_pool_size = get_pool_size
    km.get_rendered_notebook = get_rendered_notebook


def _failed(item: Any, km: Any) -> bool:
    """Whether a pool's kernel failed: it never started, it is gone from the kernel manager, or
    its page's build has ended (a preheated kernel's build waits for a page, so a build that has
    ended in the pool has failed: its kernel died starting, a port taken under it, say)."""
    if not item.done():
        return False
    if item.cancelled() or item.exception() is not None:
        return True
    built = item.result()
    return built.get("kernel_id") not in km or (built.get("task") is not None and built["task"].done())


async def replace_failed_pool_kernels(km: Any, replaced: Counter[str], log: Any = None) -> list[str]:
    """Take the failed kernels (see `_failed`) out of every pool, shut them down, and start others
    in their place, up to FAILED_REFILLS times per notebook (`replaced` counts them: a dashboard
    that cannot build its page would otherwise start kernels for ever); returns the notebooks refilled.
    Voila keeps a failed kernel in its pool for good: the pool is never full again, and in lesson
    mode its place is a student's."""
    refilled = []
    for name, pool in list(getattr(km, "_pools", {}).items()):
        failed = [item for item in pool if _failed(item, km)]
        if not failed or replaced[name] >= FAILED_REFILLS:
            continue
        pool[:] = [item for item in pool if item not in failed]
        for item in failed:
            kernel_id = None if item.cancelled() or item.exception() else item.result().get("kernel_id")
            if kernel_id is not None and kernel_id in km:
                try:
                    await km.shutdown_kernel(kernel_id)
                except Exception as e:  # a dead kernel may fail to shut down: the culler has it
                    if log is not None:
                        log.warning("nessus: shutting down failed kernel %s: %s", kernel_id, e)
        replaced[name] += 1
        if log is not None:
            log.warning("nessus: %d kernel(s) of the %s pool failed to start; starting others", len(failed), name)
        km.fill_if_needed(delay=0, notebook_name=name)
        refilled.append(name)
    return refilled


class CpuMeter:
    """The machine's idle CPU fraction since the previous reading (from /proc/stat; 1.0 where
    it cannot be read), read every few seconds by the server."""

    def __init__(self) -> None:
        self._last = self._sample()
        self.idle = 1.0

    @staticmethod
    def _sample() -> tuple[int, int] | None:
        try:
            fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        except OSError:
            return None
        return fields[3] + fields[4], sum(fields)

    def update(self) -> None:
        """Read /proc/stat again (a periodic callback)."""
        self.read()

    def read(self) -> float:
        now = self._sample()
        if now is not None and self._last is not None and now[1] > self._last[1]:
            self.idle = (now[0] - self._last[0]) / (now[1] - self._last[1])
        self._last = now
        return self.idle


def _spare_loading_pages(km: Any, cpu: CpuMeter, busy: float = 0.25, longest: float = LOADING_PAGE_LONGEST) -> None:
    """Make the culler spare a kernel whose page has not connected yet while the machine is
    saturated (idle CPU under `busy`), for `longest` seconds at most: its page is still loading
    its scripts, not abandoned. With CPU to spare, such a kernel is culled as any idle one."""
    ever_connected: set[str] = set()
    notify_connect, cull = km.notify_connect, km.cull_kernel_if_idle

    def notice(kernel_id: str) -> None:
        ever_connected.add(kernel_id)
        notify_connect(kernel_id)

    async def cull_kernel_if_idle(kernel_id: str) -> Any:
        kernel = km._kernels.get(kernel_id)
        if kernel is not None and kernel_id not in ever_connected and cpu.idle < busy:
            waited = (datetime.now(UTC) - kernel.last_activity).total_seconds()
            if waited < longest:
                return None
        return await cull(kernel_id)

    km.notify_connect = notice
    km.cull_kernel_if_idle = cull_kernel_if_idle


def _refill_after_the_burst(km: Any, quiet: float, cpu: CpuMeter, idle: float = 0.5, longest: float = 300.0) -> None:
    """Make Voila refill a pool only after the burst: `quiet` seconds since a page last took one
    of its kernels and the CPU at least `idle` free (or `longest` seconds at most). Kernels
    starting during a class's arrival would take the CPU the arriving pages need."""
    fill = km.fill_if_needed
    last_taken: dict[str | None, float] = {}
    waiting: set[str | None] = set()

    def fill_if_needed(delay: float | None = None, notebook_name: str | None = None, **kwargs: Any) -> None:
        if delay is not None:  # Voila's own first fill, at start
            fill(delay=delay, notebook_name=notebook_name, **kwargs)
            return
        last_taken[notebook_name] = time.monotonic()
        if notebook_name not in waiting:
            waiting.add(notebook_name)
            asyncio.ensure_future(refill_when_quiet(notebook_name, kwargs))

    async def refill_when_quiet(name: str | None, kwargs: dict) -> None:
        while (left := last_taken[name] + quiet - time.monotonic()) > 0:
            await asyncio.sleep(left)
        while time.monotonic() - last_taken[name] < longest and cpu.idle < idle:
            await asyncio.sleep(5)
        waiting.discard(name)
        fill(delay=0, notebook_name=name, **kwargs)

    km.fill_if_needed = fill_if_needed


class GalleryHandler(tornado.web.RequestHandler):
    """The gallery: a static page made here, no kernel per visitor."""

    def get(self) -> None:
        from nessus.kit.gallery import gallery_page

        app: NessusVoila = self.settings["nessus_app"]
        self.set_header("Cache-Control", "no-cache")
        self.write(gallery_page(app.student_url if app.shows_network() else None, lessons=SITE.exists()))


class LessonHandler(tornado.web.StaticFileHandler):
    """`/lessons/…`: the published site (`nessus publish`); a lesson not yet published is shown
    unexecuted (text, maths and code, no figures), with a line saying how to publish it."""

    async def get(self, path: str, include_body: bool = True) -> None:
        stem = path.removesuffix(".html")
        if (SITE / path).is_file() or not path.endswith(".html") or not (NOTEBOOKS / f"{stem}.ipynb").is_file():
            await super().get(path, include_body)
            return
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(unpublished_lesson(stem, (NOTEBOOKS / f"{stem}.ipynb").stat().st_mtime))

    def compute_etag(self) -> str | None:
        return super().compute_etag() if getattr(self, "absolute_path", None) else None


@functools.lru_cache(maxsize=32)
def unpublished_lesson(stem: str, mtime: float = 0.0) -> str:
    """A lesson notebook as a page without running it: its figures come with `nessus publish`
    (made once per version of the notebook, `mtime`)."""
    import nbformat

    from nessus import publish

    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    note = nbformat.v4.new_markdown_cell(
        "*This lesson has not been published on this server yet, so its figures are missing: "
        "`python3 dev.py publish` runs the lessons and draws them (about two minutes).*"
    )
    nb.cells.insert(1, note)
    return publish.render_html(publish.make_static(nb, stem, log=lambda _: None))


class StatusHandler(tornado.web.RequestHandler):
    """`/nessus/status`, as JSON (for teachers and the load test): `viewers` (kernels outside the
    pools), `admitted` (places taken: pages whose kernel is alive or still `starting`), the cap
    (`max_viewers`), every kernel and the pools."""

    def get(self) -> None:
        app: NessusVoila = self.settings["nessus_app"]
        km = app.kernel_manager
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-cache")
        self.write(
            json.dumps(
                {
                    "viewers": viewer_kernels(km),
                    "admitted": app.admission.taken(km),
                    "starting": app.admission.starting(),
                    "max_viewers": app.max_viewers,
                    "kernels": len(km.list_kernel_ids()),
                    "pools": pool_status(km),
                    "student_url": app.student_url,
                }
            )
        )


class AdmittedKernels:
    """The kernel manager as one admitted page's request sees it: the kernel started for the page,
    or handed to it from a pool, takes the page's place."""

    def __init__(self, km: Any, admission: Admission, place: Place) -> None:
        self._km, self._admission, self._place = km, admission, place

    def __getattr__(self, name: str) -> Any:
        return getattr(self._km, name)

    async def start_kernel(self, **kwargs: Any) -> str:
        """The new kernel's id."""
        kernel_id = await ensure_async(self._km.start_kernel(**kwargs))
        self._admission.bind(self._place, kernel_id)
        return kernel_id

    async def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> tuple[Any, list[str], str]:
        """A preheated kernel's render task, what it has rendered so far, and its id."""
        render_task, rendered, kernel_id = await self._km.get_rendered_notebook(*args, **kwargs)
        self._admission.bind(self._place, kernel_id)
        return render_task, rendered, kernel_id


class CappedVoilaHandler(TornadoVoilaHandler):
    """A dashboard page, if it gets a place (see nessus.admission): else a plain 'class is full' page."""

    place: Place | None = None

    @property
    def kernel_manager(self) -> Any:
        """Voila's kernel manager; for an admitted page, one that ties the page's kernel to its place."""
        km = self.settings["kernel_manager"]
        return km if self.place is None else AdmittedKernels(km, self.settings["nessus_app"].admission, self.place)

    async def get(self, path: str | None = None) -> None:
        app: NessusVoila = self.settings["nessus_app"]
        if path == GALLERY:
            self.redirect(self.base_url)
            return
        place = app.admission.take(self.settings["kernel_manager"])
        if place is None:
            self.log.warning("nessus: class full (%d places taken), refusing %s", app.max_viewers, path)
            self.set_status(503)
            self.set_header("Retry-After", "60")
            self.set_header("Cache-Control", "no-cache")
            self.finish(classroom.class_full_page(app.max_viewers))
            return
        self.place = place
        try:
            await super().get(path)
        finally:
            app.admission.settle(place)


class NessusVoila(Voila):
    """Voila with the classroom additions (see nessus.serving)."""

    pools = Unicode("", config=True, help="Preheated kernels kept per notebook: le-palais.ipynb=30,la-boue.ipynb=0")
    max_viewers = Int(
        40, config=True, help="Viewer places (a page's kernel each) at once; past it pages say the class is full."
    )
    student_url = Unicode("", config=True, help="The address students type, shown on the gallery.")
    refill_after = Float(
        0,
        config=True,
        help="Refill a pool only once no page has taken one of its kernels for this "
        "many seconds (0: Voila's own refill, after fill_delay).",
    )

    def initialize(self, argv: list[str] | None = None) -> None:
        super().initialize(argv)
        if self.pools:
            kept = (item.partition("=") for item in self.pools.split(","))
            self.config.VoilaKernelManager.kernel_pools_config = {
                "default": {"pool_size": 0},
                **{nb: {"pool_size": int(n)} for nb, _, n in kept},
            }
        if self.ip not in ("", "0.0.0.0", "localhost") and not self.ip.startswith("127."):
            os.environ["VOILA_APP_IP"] = self.ip  # preheated kernels call back the server here

    def shows_network(self) -> bool:
        """Whether students on other machines can reach this server."""
        return self.ip not in ("localhost",) and not self.ip.startswith("127.")

    def init_settings(self) -> dict:
        settings = super().init_settings()
        settings["nessus_app"] = self
        self.admission = Admission(self.max_viewers)
        self.cpu = CpuMeter()
        tornado.ioloop.PeriodicCallback(self.cpu.update, 5000).start()
        _spare_loading_pages(self.kernel_manager, self.cpu)
        if hasattr(self.kernel_manager, "_pools"):
            _hand_out_started_kernels_only(self.kernel_manager)
            replaced: Counter[str] = Counter()
            tornado.ioloop.PeriodicCallback(
                lambda: replace_failed_pool_kernels(self.kernel_manager, replaced, self.log), 5000
            ).start()
            if self.refill_after > 0:
                _refill_after_the_burst(self.kernel_manager, self.refill_after, self.cpu)
        return settings

    def init_handlers(self) -> list:
        handlers = [
            (h[0], CappedVoilaHandler, *h[2:]) if h[1] is TornadoVoilaHandler else h for h in super().init_handlers()
        ]
        ours = [
            (self.server_url, GalleryHandler),
            (self.server_url.rstrip("/") + "/nessus/status", StatusHandler),
            (
                self.server_url.rstrip("/") + "/lessons/(.*)",
                LessonHandler,
                {"path": str(SITE), "default_filename": "index.html"},
            ),
        ]
        return ours + [h for h in handlers if h[0] != self.server_url]
