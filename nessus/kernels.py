"""Waiting on a kernel's channels in short slices: a fix for a lost wake-up hang.

Voila executes each dashboard, and `nessus publish` each lesson, with nbclient. With widget
traffic on the wire, the asyncio poll on a kernel channel sometimes misses the wake-up of a
message that has already arrived (jupyter/nbclient#312; seen here with ipykernel 7.4, pyzmq 27,
nbclient 0.11): the page then stayed on "Running..." for good. Here every channel wait is cut
into short slices, so such a message is found within one slice.
"""

from __future__ import annotations

from queue import Empty
from time import monotonic
from typing import Any

POLL_SLICE = 0.2
"""Seconds of one slice of a channel wait."""


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


def install_channel_fix(executor_class: Any) -> None:
    """Make an nbclient NotebookClient subclass poll its shell and iopub channels in slices."""
    start = executor_class.async_start_new_kernel_client

    async def start_with_sliced_polls(self):
        kc = await start(self)
        poll_in_slices(kc.shell_channel)
        poll_in_slices(kc.iopub_channel)
        return kc

    executor_class.async_start_new_kernel_client = start_with_sliced_polls
