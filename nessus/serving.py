"""Serving the dashboards to a class with Voila.

`python -m nessus.serving ARGS` is `voila ARGS` with four additions, and `nessus serve` runs it:

- **The gallery** at `/` is a static page made by the server itself (no kernel per visitor):
  the dashboards, the lessons, a "start here" for the teacher, and, when the class's network
  is served, the address to type, large, with a QR code. `/voila/render/index.ipynb` (the old
  gallery address) redirects there. Published lessons (`nessus publish`, in `site/`) are
  served under `/lessons/`.
- **A cap on viewer kernels** (`max_viewers`): a dashboard page takes a place before its kernel
  starts (nessus.admission), so requests arriving together cannot pass the cap together; past
  it, a page answers 503 with a plain "the class is full, retrying in a minute" page instead of
  starting one more kernel. A place comes back when its kernel is gone: the page closed, or,
  with no page connected, Jupyter's culler freed it (every 10 s, after 45 s idle; up to five
  minutes while the machine is saturated, as its page may still be loading).
- **Lesson pools**: `students` preheated kernels for each of today's lesson's dashboards, the
  others started on demand; a pool refills only once no page has taken one of its kernels for
  `refill_after` seconds, so a burst of arrivals is not slowed down by kernels starting beside
  it. `/nessus/status` reports pools and viewers (JSON).
- **A fix for a lost wake-up hang**: Voila executes each dashboard with nbclient. With widget
  traffic on the wire, the asyncio poll on a kernel channel sometimes misses the wake-up of a
  message that has already arrived (jupyter/nbclient#312; seen here with ipykernel 7.4, pyzmq
  27, nbclient 0.11): the page then stayed on "Running..." for good. Here every channel wait
  is cut into short slices, so such a message is found within one slice.

Voila itself keeps a visitor from running code: its kernel websocket passes only comm and
kernel-info messages, and `/api/kernels`, `/api/contents` and `/tree` are not served.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

from nessus import classroom
from nessus.kernels import install_channel_fix
from nessus.paths import DASHBOARDS, ENGINES, GALLERY, dashboard_path  # noqa: F401 - the engines' addresses, for the servers' callers

CULL_INTERVAL = 10
CULL_IDLE_TIMEOUT = 45
LESSON_REFILL_AFTER = 30
IOPUB_TIMEOUT = 60


DEFAULT_ENGINE = "solara"
"""`nessus serve`'s engine unless told: one process holds a class (docs/serving.md, the load test)."""
SOLARA_VIEWERS = 150
"""Solara's default cap on pages open at once: a page costs about 1 MiB but its clicks share one core."""


def dashboard_names() -> list[str]:
    """The dashboards' notebook names (without `.ipynb`), the gallery left out."""
    return sorted(p.stem for p in DASHBOARDS.glob("*.ipynb") if p.name != GALLERY)


@dataclass(frozen=True)
class ServeOptions:
    """How `nessus serve` serves: where, for how many students, which dashboards kept ready."""

    port: int = 8866
    ip: str = "127.0.0.1"
    preheat: bool = True
    pool_size: int = 1
    students: int = 0
    lesson: tuple[str, ...] = ()
    max_viewers: int | None = None
    dashboards: tuple[str, ...] = field(default_factory=lambda: tuple(dashboard_names()))
    engine: str = DEFAULT_ENGINE

    def pools(self) -> dict[str, int]:
        """Preheated kernels kept per dashboard notebook (all 0 without preheating)."""
        if not self.preheat:
            return {classroom.notebook(d): 0 for d in self.dashboards}
        return classroom.pools(self.students, self.lesson, self.dashboards, self.pool_size)

    def viewers(self) -> int:
        """The cap on viewer kernels: as given, or what the memory holds (at least `students`)."""
        if self.max_viewers is not None:
            return self.max_viewers
        if self.engine == "solara":
            return max(self.students, SOLARA_VIEWERS)
        return max(self.students, classroom.default_max_viewers(sum(self.pools().values())))

    def url(self) -> str:
        """The address the students type."""
        return classroom.student_url(self.ip, self.port)


def serve_command(port: int = 8866, preheat: bool = True, pool_size: int = 1, **options: Any) -> list[str]:
    """The command line that serves the dashboards, for these options (those of ServeOptions:
    ip, students, lesson, max_viewers, engine): with Solara (`nessus.solara_app`), or with Voila
    (fixed: this module run as a program)."""
    opts = ServeOptions(port=port, preheat=preheat, pool_size=pool_size, **options)
    if opts.engine == "solara":
        return [
            sys.executable,
            "-m",
            "nessus.solara_app",
            f"--port={port}",
            f"--ip={opts.ip}",
            f"--max-viewers={opts.viewers()}",
            f"--student-url={opts.url()}",
        ]
    cmd = [
        sys.executable,
        "-m",
        "nessus.serving",
        str(DASHBOARDS),
        "--no-browser",
        f"--port={port}",
        "--Voila.port_retries=0",
        f"--Voila.ip={opts.ip}",
        f"--MappingKernelManager.cull_interval={CULL_INTERVAL}",
        f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_TIMEOUT}",
        f"--VoilaExecutor.iopub_timeout={IOPUB_TIMEOUT}",
        f"--NessusVoila.pools={','.join(f'{nb}={n}' for nb, n in opts.pools().items())}",
        f"--NessusVoila.max_viewers={opts.viewers()}",
        f"--NessusVoila.student_url={opts.url()}",
    ]
    if preheat:
        cmd += ["--preheat_kernel=True", f"--pool_size={pool_size}"]
        if opts.students and opts.lesson:
            cmd.append(f"--NessusVoila.refill_after={LESSON_REFILL_AFTER}")
    return cmd


def main(argv: list[str] | None = None) -> None:
    """Run Voila with the gallery, the cap, the lesson pools and the channel fix."""
    from voila.execute import VoilaExecutor

    from nessus.voila_app import NessusVoila

    install_channel_fix(VoilaExecutor)
    NessusVoila.launch_instance(argv)


if __name__ == "__main__":
    main()
