"""The runner's own SIGINT, SIGTERM and SIGHUP, and the names of signals.

Until hooks start, a signal raises :class:`Interrupted` wherever the runner is (even
blocked reading stdin), and the error boundary prints the document and exits 128+n.
While hooks run, a signal is only recorded and wakes the poll loop: raising from a
handler could interrupt a half-done spawn and lose a child, so the hooks' loop ends
every tree itself and the partial results are printed. (Before the command installs its
catcher, the executable's entry point answers signals itself: see ``__main__``.)
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

RUNNER_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def signal_name(code: int | None) -> str | None:
    """``-15`` -> ``"SIGTERM"``: the name of the signal a negative exit code stands for."""
    if code is None or code >= 0:
        return None
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"SIG{-code}"


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
    def installed(self, *, then_ignore: bool = False) -> Iterator[SignalCatcher]:
        """Catch the runner's signals inside the block; after it, put the previous
        handlers back, or with ``then_ignore`` ignore the signals: when only the
        document is left to write, a late signal must not cut it short."""
        read_fd, write_fd = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self.read_fd = read_fd
        previous_fd = signal.set_wakeup_fd(write_fd)
        previous = {s: signal.signal(s, self._handle) for s in RUNNER_SIGNALS}
        try:
            yield self
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, signal.SIG_IGN if then_ignore else handler)
            signal.set_wakeup_fd(previous_fd)
            os.close(read_fd)
            os.close(write_fd)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if not self.received:
            self.received.append(signum)
        if not self.deferred:
            raise Interrupted(signum)
