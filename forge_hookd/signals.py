"""The runner's own SIGINT, SIGTERM and SIGHUP.

Until hooks start, a signal raises :class:`Interrupted` wherever the runner is (even
blocked reading stdin), and the error boundary prints the document and exits 128+n.
While hooks run, a signal is only recorded and wakes the poll loop: raising from a
handler could interrupt a half-done spawn and lose a child, so the pool ends every
tree itself and the partial results are printed.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

RUNNER_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def answer_signals_during_startup() -> None:
    """Until the command installs its :class:`SignalCatcher`, a signal ends the runner at
    once with the JSON error document and 128+n (Python's default would die silently).

    Called by the executable's entry point before it imports click: nothing has started
    yet, so there is nothing to clean up.
    """
    for sig in RUNNER_SIGNALS:
        signal.signal(sig, _exit_during_startup)


def _exit_during_startup(signum: int, frame: FrameType | None) -> None:
    name = signal.Signals(signum).name
    os.write(2, f"forge-hook-run: error: interrupted by {name}\n".encode())
    os.write(1, ('{"version":1,"error":{"kind":"interrupted","message":"interrupted by %s"}}\n'
                 % name).encode())
    os._exit(128 + signum)


class Interrupted(Exception):
    """The runner got SIGINT, SIGTERM or SIGHUP."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class SignalCatcher:
    """Handlers for the runner's signals; see the module docstring.

    ``received`` holds the first signal; ``read_fd`` becomes readable when one arrives
    (for a poll loop); ``deferred`` switches from raising to recording.
    """

    def __init__(self) -> None:
        self.received: list[int] = []
        self.read_fd = -1
        self.deferred = False

    @contextmanager
    def installed(self) -> Iterator[SignalCatcher]:
        read_fd, write_fd = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self.read_fd = read_fd
        previous_fd = signal.set_wakeup_fd(write_fd)
        previous = {s: signal.signal(s, self._handle) for s in RUNNER_SIGNALS}
        try:
            yield self
        finally:
            for sig, handler in previous.items():
                # After the command only the document is left to write: a late signal
                # must not cut it short, so the start-up handler is not put back.
                signal.signal(sig, signal.SIG_IGN if handler is _exit_during_startup else handler)
            signal.set_wakeup_fd(previous_fd)
            os.close(read_fd)
            os.close(write_fd)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if not self.received:
            self.received.append(signum)
        if not self.deferred:
            raise Interrupted(signum)
