"""The runner's own signals (SIGINT, SIGTERM, SIGHUP and every other that would end
it), and the names of signals.

Until hooks start, a signal raises :class:`Interrupted` wherever the runner is (even
blocked reading stdin), and the error boundary prints the document and exits 128+n.
While hooks run, a signal is only recorded and wakes the poll loop: raising from a
handler could interrupt a half-done spawn and lose a child, so the hooks' loop ends
every tree itself and the partial results are printed. (Before the command installs its
catcher, the executable's entry point answers signals itself: see ``__main__``.)

Which signals (:data:`RUNNER_SIGNALS`): every one whose default action ends a process
and that someone sends to end it or to poke it: SIGINT, SIGTERM, SIGHUP, SIGQUIT
(Ctrl-\\), SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO (SIGPOLL), SIGPWR,
SIGSTKFLT, SIGXCPU (the soft CPU limit: the hard one is a SIGKILL nothing can answer)
and the real-time signals. Left alone, on purpose:

- SIGPIPE and SIGXFSZ: Python ignores them from the start, so a write to a closed pipe
  or past the file size limit fails with EPIPE or EFBIG, which the runner answers (exit
  141 when its reader went away, a warning for the run log). One sent by ``kill`` is
  ignored: it cannot end the run.
- SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGSYS, SIGTRAP, SIGABRT: raised by the faulting
  instruction (or abort(), or a debugger) itself. Python runs a handler only later,
  between bytecodes, so the instruction would fault again (or abort() end the process
  anyway): a handler would hang or lie, and only SIGKILL-like ends are honest.
- SIGKILL and SIGSTOP cannot be caught; SIGCHLD, SIGURG, SIGWINCH and SIGCONT do not
  end a process; SIGTSTP, SIGTTIN and SIGTTOU stop it, and a stopped runner resumes.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # _signal has no stubs: it is signal's core, which mypy knows
    import signal as _signal
else:
    import _signal

# One list and one naming for every end of a run, from a module the warm client can load
# before anything else (signalnames.py); re-exported here, where they are handled.
from forge_hookd.signalnames import RUNNER_SIGNALS as RUNNER_SIGNALS, catch_runner_signals, name_of as name_of


class Interrupted(Exception):
    """The runner got one of :data:`RUNNER_SIGNALS`."""

    def __init__(self, signum: int) -> None:
        super().__init__(name_of(signum))
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
        # _signal, not signal: signal's wrapper turns every number and handler into an
        # enum and back, 0.24 ms of the run's 1.4 ms for these 44 installs and restores.
        previous = catch_runner_signals(self._handle)
        try:
            yield self
        finally:
            for sig, handler in previous.items():
                _signal.signal(sig, _signal.SIG_IGN if then_ignore else handler)
            signal.set_wakeup_fd(previous_fd)
            os.close(read_fd)
            os.close(write_fd)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if not self.received:
            self.received.append(signum)
        if not self.deferred:
            raise Interrupted(signum)


# -- signals that arrive by another road -----------------------------------------------------
# A cold run gets its signals from the kernel: one sent before the agent closed stdin is
# pending before kill() returns, and its handler runs at the next bytecode, before the
# input is acted on. The warm runner's worker gets them relayed by its client over a
# socket, later than the end of stdin, which reaches it directly: without a barrier a
# SIGTERM sent while the runner waited on stdin lost the race to the end of file, and the
# run answered "invalid event" (exit 2) instead of interrupted (143). The worker sets
# the barrier (warmworker.py); input readers call :func:`settle` when the input ends.
_barrier: Callable[[], None] | None = None


def set_barrier(barrier: Callable[[], None] | None) -> None:
    """``barrier`` returns once every signal sent to this run before it was called has
    been delivered here (None: the kernel's delivery is the only road)."""
    global _barrier
    _barrier = barrier


def settle() -> None:
    """Before acting on an input that just ended: take every signal sent before it
    ended (a caught one raises :class:`Interrupted` here, as in a cold run)."""
    if _barrier is not None:
        _barrier()
        _handlers_run_here()


def _handlers_run_here() -> None:
    # Python runs a pending signal's handler when a function starts (RESUME): a relayed
    # signal that came in just before the barrier's answer raises here, inside settle,
    # not at some later bytecode in whatever code the caller runs next.
    return None
