"""The resident runner's own log (:mod:`forge_hookd.warm.runner`): its starts and stops, never
a hook's output. A module of its own so that the runner and its workers both write it
without importing each other."""

from __future__ import annotations

import os
import time
from forge_hookd.statedir import state_path

_LOG_LIMIT = 1024 * 1024


class RunnerLog:
    """The runner's own log of starts and stops (never hook output): ``warm.log`` in
    ``${XDG_STATE_HOME:-~/.local/state}/forge``, one line each, kept under 1 MiB (the
    older half moves to ``warm.log.1``)."""

    def __init__(self) -> None:
        self.path = state_path("warm.log")
        self.closed = False

    def write(self, message: str) -> None:
        if self.closed:
            return
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        line = f"{stamp} [{os.getpid()}] {message}\n".encode("utf-8", "replace")
        try:
            os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
            if os.path.exists(self.path) and os.path.getsize(self.path) > _LOG_LIMIT:
                os.replace(self.path, self.path + ".1")
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                os.write(fd, line)
            finally:
                os.close(fd)
        except OSError:
            pass  # a log that cannot be written never costs the runner

    def close(self) -> None:
        """In a worker: the runner's log is not the run's to write."""
        self.closed = True
