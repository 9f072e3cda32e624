"""A page's long computations, off the thread that handles its widgets (Voila's kernel, or
Solara's thread for the page): one worker thread per kind of job, always on the newest request."""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable


class LatestJob:
    """One daemon thread running submitted jobs one at a time; a job still waiting when a newer
    one is submitted is dropped. Jobs report their own failures (anything escaping is printed)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._waiting = threading.Condition()
        self._job: Callable[[], None] | None = None
        self._thread: threading.Thread | None = None

    def submit(self, job: Callable[[], None]) -> None:
        """Run `job` next (replacing a job not started yet); starts the thread on first use."""
        with self._waiting:
            self._job = job
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
            self._waiting.notify()

    def _run(self) -> None:
        while True:
            with self._waiting:
                while self._job is None:
                    self._waiting.wait()
                job, self._job = self._job, None
            try:
                job()
            except Exception:
                traceback.print_exc()
