"""Serving the dashboards with Voila.

By default every page view starts its own kernel (about 7-8 s to the first chart on 2 cores).
Voila 0.5's preheated kernels (`preheat=True`) give the first chart in about 2 s, but on these
machines about one page in six then stayed on "Running..." for good: the kernel finished the
notebook and the server never completed the page. So preheating is opt-in.
"""

from __future__ import annotations

import sys
from pathlib import Path

DASHBOARDS = Path(__file__).resolve().parent.parent / "dashboards"
GALLERY = "index.ipynb"


def serve_command(port: int = 8866, preheat: bool = False, pool_size: int = 1) -> list[str]:
    """The voila command line that serves the dashboards directory on localhost."""
    cmd = [
        sys.executable, "-m", "voila", str(DASHBOARDS),
        "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
        "--MappingKernelManager.cull_interval=60", "--MappingKernelManager.cull_idle_timeout=300",
    ]
    if preheat:
        cmd += ["--preheat_kernel=True", f"--pool_size={pool_size}"]
    return cmd
