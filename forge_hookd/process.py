"""Running hooks: spawning them, feeding and draining their pipes, timing them out.

Every hook runs as ``/bin/sh -c COMMAND``: the command is the user's own shell text from
a config file they wrote (or trusted), so the shell is the interface, exactly as for git
hooks and Makefiles. What we never trust is the event: it reaches the hook only through
the environment and stdin, never through the command text.

Process control lives here and in tree.py (finding and ending what a hook started);
the runner's own signal handlers are in signals.py.
"""

from __future__ import annotations

import errno
import os
import select
import subprocess
import time
from typing import IO, Any

from .results import signal_name
from .signals import Interrupted
from .tree import TOKEN_VAR, HookTree

DEFAULT_OUTPUT_LIMIT = 1024 * 1024
DEFAULT_KILL_GRACE = 1.0
_READ_SIZE = 64 * 1024
_WRITE_SIZE = 64 * 1024
_DRAIN_LIMIT = 0.5
_POLL_WITHOUT_PIDFD = 0.02


# Plain classes, not dataclasses: generating a dataclass costs ~0.3 ms of every
# run's start-up, and these records never leave the package (issue 5).
class Spec:
    """What to run: one hook's command with its environment and input."""

    __slots__ = ("command", "cwd", "env", "stdin", "timeout", "detach")

    def __init__(self, command: str, cwd: str, env: dict[bytes, bytes], stdin: bytes, timeout: float,
                 detach: bool = False) -> None:
        self.command, self.cwd, self.env, self.stdin = command, cwd, env, stdin
        self.timeout, self.detach = timeout, detach


class Outcome:
    """How one hook process ended. A timeout is an outcome, not an exception."""

    __slots__ = ("exit_code", "signal", "stdout", "stderr", "stdout_truncated", "stderr_truncated",
                 "timed_out", "error", "duration")

    def __init__(self, *, exit_code: int | None = None, stdout: bytes = b"", stderr: bytes = b"",
                 stdout_truncated: bool = False, stderr_truncated: bool = False,
                 timed_out: bool = False, error: str | None = None, duration: float = 0.0) -> None:
        self.exit_code, self.signal = exit_code, signal_name(exit_code)
        self.stdout, self.stderr = stdout, stderr
        self.stdout_truncated, self.stderr_truncated = stdout_truncated, stderr_truncated
        self.timed_out, self.error, self.duration = timed_out, error, duration


class _Child:
    """One running hook: its process, pipes, captured output and deadline."""

    def __init__(self, key: int, spec: Spec, token: str, limit: int) -> None:
        self.key = key
        self.spec = spec
        self.token = token
        self.limit = limit
        self.out = bytearray()
        self.err = bytearray()
        self.out_truncated = False
        self.err_truncated = False
        self.stdin_view = memoryview(spec.stdin)
        self.started = time.monotonic()
        self.deadline = self.started + spec.timeout
        self.pidfd: int | None = None
        spec.env[TOKEN_VAR.encode()] = token.encode()  # how its orphans are recognised
        self.popen = subprocess.Popen(
            ["/bin/sh", "-c", spec.command],
            cwd=spec.cwd,
            env=spec.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # own session and group: the tree can be signalled
            close_fds=True,
        )
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
        try:
            self.pidfd = os.pidfd_open(self.popen.pid)
        except (AttributeError, OSError):
            self.pidfd = None

    @property
    def pid(self) -> int:
        return self.popen.pid

    def capture(self, data: bytes, which: str) -> None:
        buf = self.out if which == "stdout" else self.err
        room = self.limit - len(buf)
        if len(data) > room:
            buf.extend(data[: max(room, 0)])
            if which == "stdout":
                self.out_truncated = True
            else:
                self.err_truncated = True
        else:
            buf.extend(data)


class _Poller:
    """``select.poll`` keyed by file descriptor, with a payload per descriptor.

    (The selectors module would do; it costs ~1 ms more of start-up.)
    """

    def __init__(self) -> None:
        self._poll = select.poll()
        self._data: dict[int, Any] = {}

    def register(self, fd: int, data: Any, *, write: bool = False) -> None:
        self._poll.register(fd, select.POLLOUT if write else select.POLLIN)
        self._data[fd] = data

    def unregister(self, fd: int) -> None:
        if self._data.pop(fd, _MISSING) is not _MISSING:
            self._poll.unregister(fd)

    def poll(self, timeout: float) -> list[tuple[int, Any]]:
        ready = self._poll.poll(max(0, int(timeout * 1000 + 0.999)))
        return [(fd, self._data[fd]) for fd, _ in ready if fd in self._data]


_MISSING = object()


class ProcessPool:
    """Runs hook processes side by side in one poll loop.

    ``start`` spawns, ``wait`` blocks until at least one has finished and returns the
    finished ones. Output is read continuously and bounded; stdin is fed without ever
    blocking (a hook that never reads it, or closes it, is fine). When a hook's own
    process exits, whatever it left running is ended (SIGTERM to its group and every
    descendant, a grace, then SIGKILL) unless its spec says ``detach``; a background
    child holding the pipes never makes us wait. On timeout the same tree kill ends it.
    ``close()`` ends everything still running; it is always called (context manager).
    """

    def __init__(
        self,
        *,
        output_limit: int | None = None,
        kill_grace: float | None = None,
        wakeup_fd: int | None = None,
        pending_signal: list[int] | None = None,
    ) -> None:
        self.output_limit = DEFAULT_OUTPUT_LIMIT if output_limit is None else output_limit
        self.kill_grace = DEFAULT_KILL_GRACE if kill_grace is None else kill_grace
        self.running: dict[int, _Child] = {}
        self._poller = _Poller()
        self._pending_signal = pending_signal
        self._counter = 0
        self._prefix = f"{os.getpid()}.{time.monotonic_ns():x}"
        if wakeup_fd is not None:
            self._poller.register(wakeup_fd, None)

    def __enter__(self) -> ProcessPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- starting ------------------------------------------------------------------
    def start(self, key: int, spec: Spec) -> Outcome | None:
        """Spawn ``spec``; an Outcome right away when it cannot be started."""
        if not os.path.isdir(spec.cwd):
            return Outcome(error=f"working directory does not exist: {spec.cwd}")
        self._counter += 1
        token = f"{self._prefix}.{self._counter}"
        try:
            child = _Child(key, spec, token, self.output_limit)
        except (OSError, ValueError) as exc:  # ValueError: a NUL byte in a hook made in code
            return Outcome(error=f"cannot start hook: {getattr(exc, 'strerror', None) or exc}")
        self.running[key] = child
        assert child.popen.stdin and child.popen.stdout and child.popen.stderr
        if spec.stdin:
            self._poller.register(child.popen.stdin.fileno(), (child, "stdin"), write=True)
        else:
            child.popen.stdin.close()
        self._poller.register(child.popen.stdout.fileno(), (child, "stdout"))
        self._poller.register(child.popen.stderr.fileno(), (child, "stderr"))
        if child.pidfd is not None:
            self._poller.register(child.pidfd, (child, "exit"))
        return None

    # -- waiting -------------------------------------------------------------------
    def wait(self) -> list[tuple[int, Outcome]]:
        """Block until at least one running hook has finished; return the finished."""
        while self.running:
            self._check_signal()
            self._serve_io(self._select_timeout())
            self._check_signal()
            finished = [c for c in list(self.running.values()) if c.popen.poll() is not None]
            done = [(c.key, self._finish(c, timed_out=False)) for c in finished]
            now = time.monotonic()
            overdue = [c for c in self.running.values() if now >= c.deadline]
            done += [(c.key, self._finish(c, timed_out=True)) for c in overdue]
            if done:
                return done
        return []

    def _check_signal(self) -> None:
        if self._pending_signal:
            raise Interrupted(self._pending_signal[0])

    def _select_timeout(self) -> float:
        timeout = max(0.0, min(c.deadline for c in self.running.values()) - time.monotonic())
        if any(c.pidfd is None for c in self.running.values()):
            timeout = min(timeout, _POLL_WITHOUT_PIDFD)
        return timeout

    def _serve_io(self, timeout: float) -> None:
        for fd, data in self._poller.poll(timeout):
            if data is None:  # the signal wakeup fd: empty it
                _read_all_available(fd)
                continue
            child, which = data
            if which == "stdin":
                self._feed(child)
            elif which in ("stdout", "stderr"):
                self._read(child, child.popen.stdout if which == "stdout" else child.popen.stderr, which)
            # "exit": the pidfd is readable; poll() in wait() reaps the process.

    def _feed(self, child: _Child) -> None:
        stdin = child.popen.stdin
        assert stdin is not None
        try:
            written = os.write(stdin.fileno(), child.stdin_view[:_WRITE_SIZE])
        except BlockingIOError:
            return
        except OSError:  # EPIPE: the hook closed stdin or exited; it did not want it
            written = len(child.stdin_view)
        child.stdin_view = child.stdin_view[written:]
        if not child.stdin_view:
            self._unregister(stdin)
            stdin.close()

    def _read(self, child: _Child, stream: IO[bytes], which: str) -> bool:
        """Read once from a pipe; True if data came (at EOF the pipe is also closed)."""
        fd = stream.fileno()
        try:
            data = os.read(fd, _READ_SIZE)
        except BlockingIOError:
            return False
        except OSError:
            data = b""
        if data:
            child.capture(data, which)
            return True
        self._unregister(stream)
        stream.close()
        return False

    def _unregister(self, stream: IO[bytes] | int) -> None:
        self._poller.unregister(stream if isinstance(stream, int) else stream.fileno())

    # -- finishing -----------------------------------------------------------------
    def _finish(self, child: _Child, *, timed_out: bool) -> Outcome:
        """End the hook if it still runs, end what it left behind unless it is detached,
        reap it, collect its output."""
        still_running = child.popen.poll() is None
        del self.running[child.key]
        if child.popen.stdin and not child.popen.stdin.closed:
            self._unregister(child.popen.stdin)
            child.popen.stdin.close()
        if child.pidfd is not None:
            self._unregister(child.pidfd)
        if not still_running:  # what it wrote before it exited; a background writer may go on
            self._drain(child, until=time.monotonic() + _DRAIN_LIMIT, to_eof=False)
        if (still_running or not child.spec.detach) and self._tree_of(child).end(self.kill_grace):
            self._drain(child, until=time.monotonic() + _DRAIN_LIMIT, to_eof=True)
        child.popen.wait()
        self._close_child(child)
        return Outcome(
            exit_code=child.popen.returncode,
            stdout=bytes(child.out),
            stderr=bytes(child.err),
            stdout_truncated=child.out_truncated,
            stderr_truncated=child.err_truncated,
            timed_out=timed_out,
            # the timeout applied, which may be the executor's default, not hook.timeout
            error=f"timed out after {child.spec.timeout:g}s" if timed_out else None,
            duration=round(time.monotonic() - child.started, 6),
        )

    def _drain(self, child: _Child, *, until: float, to_eof: bool) -> None:
        """Read what the pipes hold now (``to_eof``: until every writer is gone),
        never past ``until``: a background writer may never stop."""
        for stream, which in ((child.popen.stdout, "stdout"), (child.popen.stderr, "stderr")):
            while stream is not None and not stream.closed and time.monotonic() < until:
                if self._read(child, stream, which):
                    continue
                wait = until - time.monotonic()
                if not to_eof or stream.closed or not _readable(stream.fileno(), wait):
                    break

    def _close_child(self, child: _Child) -> None:
        for stream in (child.popen.stdout, child.popen.stderr):
            if stream is not None and not stream.closed:
                self._unregister(stream)
                stream.close()
        if child.pidfd is not None:
            os.close(child.pidfd)
            child.pidfd = None

    def _tree_of(self, child: _Child) -> HookTree:
        return HookTree(child.popen, child.token, {c.pid for c in self.running.values()})

    def close(self) -> list[tuple[int, Outcome]]:
        """End every running hook tree and reap it; return their (partial) outcomes."""
        return [(child.key, self._finish(child, timed_out=False)) for child in list(self.running.values())]


def _readable(fd: int, timeout: float) -> bool:
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(max(0, int(timeout * 1000 + 0.999))))


def _read_all_available(fd: int) -> None:
    try:
        while os.read(fd, 4096):
            pass
    except OSError as exc:
        if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
            raise
