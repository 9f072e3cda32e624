"""Serving the dashboards with Voila, and a fix for a lost-wake-up hang.

Voila executes each dashboard with nbclient. With widget traffic on the wire, the asyncio poll
on a kernel channel sometimes misses the wake-up of a message that has already arrived
(jupyter/nbclient#312; seen here with ipykernel 7.4, pyzmq 27, nbclient 0.11): with no
timeout, the page then stays on "Running..." for good although the kernel is idle. Here every
channel wait is cut into short slices, so such a message is found within one slice.
`python -m nessus.serving ARGS` is `voila ARGS` with that fix; `nessus serve` runs it.

Dashboards are served from Voila's preheated kernels by default: each dashboard keeps
`pool_size` kernels that have already imported everything and wait at
`voila.utils.wait_for_request()` for a page to ask for them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from queue import Empty
from time import monotonic
from typing import Any

DASHBOARDS = Path(__file__).resolve().parent.parent / "dashboards"
GALLERY = "index.ipynb"
POLL_SLICE = 0.2


def poll_in_slices(channel: Any, slice_seconds: float = POLL_SLICE) -> None:
    """Make an async kernel channel's `get_msg(timeout)` wait in short slices, same semantics."""
    get_msg = channel.get_msg

    async def sliced(timeout: float | None = None):
        deadline = None if timeout is None else monotonic() + timeout
        while True:
            left = None if deadline is None else deadline - monotonic()
            try:
                return await get_msg(timeout=slice_seconds if left is None else max(0.0, min(slice_seconds, left)))
            except Empty:
                if left is not None and left <= slice_seconds:
                    raise

    channel.get_msg = sliced


def install_channel_fix(executor_class: type) -> None:
    """Make an nbclient NotebookClient subclass poll its shell and iopub channels in slices."""
    start = executor_class.async_start_new_kernel_client

    async def start_with_sliced_polls(self):
        kc = await start(self)
        poll_in_slices(kc.shell_channel)
        poll_in_slices(kc.iopub_channel)
        return kc

    executor_class.async_start_new_kernel_client = start_with_sliced_polls


def serve_command(port: int = 8866, preheat: bool = True, pool_size: int = 1) -> list[str]:
    """The command line that serves the dashboards directory on localhost with Voila (fixed)."""
    cmd = [
        sys.executable, "-m", "nessus.serving", str(DASHBOARDS),
        "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
        "--MappingKernelManager.cull_interval=60", "--MappingKernelManager.cull_idle_timeout=300",
    ]
    if preheat:
        cmd += ["--preheat_kernel=True", f"--pool_size={pool_size}"]
    return cmd


def main() -> None:
    """Run Voila with the channel fix installed."""
    from voila.app import main as voila_main
    from voila.execute import VoilaExecutor

    install_channel_fix(VoilaExecutor)
    voila_main()


if __name__ == "__main__":
    main()
