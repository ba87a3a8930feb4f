"""Process control: spawning hooks, feeding and draining their pipes, ending their trees.

Every hook runs as ``/bin/sh -c COMMAND``: the command is the user's own shell text from
a config file they wrote (or trusted), so the shell is the interface, exactly as for git
hooks and Makefiles. What we never trust is the event: it reaches the hook only through
the environment and stdin, never through the command text.

All subprocess and psutil use of the package lives in this module; the runner's own
signal handlers are in signals.py.
"""

from __future__ import annotations

import errno
import os
import select
import signal
import subprocess
import time
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # psutil costs ~10 ms to import: only the kill paths load it.
    import psutil

from .results import signal_name
from .signals import Interrupted

DEFAULT_OUTPUT_LIMIT = 1024 * 1024
DEFAULT_KILL_GRACE = 1.0
TOKEN_VAR = "FORGE_HOOK_TOKEN"
_READ_SIZE = 64 * 1024
_WRITE_SIZE = 64 * 1024
_DRAIN_LIMIT = 0.5
_SWEEPS = 5
_POLL_WITHOUT_PIDFD = 0.02
_PR_SET_CHILD_SUBREAPER = 36


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


# -- the process tree --------------------------------------------------------------
_subreaper = False


def become_subreaper() -> bool:
    """Make this process the reaper of orphans below it (Linux ``PR_SET_CHILD_SUBREAPER``).

    Then a double-forked or ``setsid`` daemon that a hook leaves behind reparents to us
    instead of init, and stays findable to be ended. Do this only in a process that
    runs hooks and nothing else (the forge-hook-run executable does): orphans of
    anything else it starts become its children too. Returns False where unsupported.
    """
    global _subreaper
    if not _subreaper:
        _subreaper = _prctl(_PR_SET_CHILD_SUBREAPER, 1) == 0
    return _subreaper


def _prctl(option: int, arg: int) -> int:
    """prctl(2), which the os module lacks; -1 where it cannot be called."""
    try:
        # _ctypes alone costs ~0.4 ms of start-up; the ctypes package ~2 ms (issue 5).
        import _ctypes

        function = _ctypes.dlsym(_ctypes.dlopen(None, os.RTLD_NOW), "prctl")  # type: ignore[arg-type]
        return int(_ctypes.call_function(function, (option, arg, 0, 0, 0)))
    except (ImportError, AttributeError, OSError):  # pragma: no cover - other CPythons
        try:
            import ctypes

            return int(ctypes.CDLL(None, use_errno=True).prctl(option, arg, 0, 0, 0))
        except (OSError, AttributeError):
            return -1


def _direct_children() -> set[int]:
    """Our children, from /proc/self/task/*/children (cheap), else psutil."""
    pids: set[int] = set()
    try:
        for tid in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{tid}/children") as fh:
                pids.update(int(p) for p in fh.read().split())
    except OSError:
        import psutil

        pids = {p.pid for p in psutil.Process().children()}
    return pids


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True  # or PermissionError: a member we may not signal is still a member


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
        except OSError as exc:
            return Outcome(error=f"cannot start hook: {exc.strerror or exc}")
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
        if (still_running or not child.spec.detach) and self.end_tree(child):
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

    def end_tree(self, child: _Child) -> bool:
        """End every process the hook started; True if there was anything to end.

        The tree is the hook's process group, every psutil descendant of its shell,
        and (when we are a subreaper) every orphan that reparented to us carrying the
        hook's token, with its descendants. SIGTERM, ``kill_grace``, then SIGKILL; the
        tree is looked up again each round because a dying tree can still fork.
        """
        if child.popen.poll() is not None and not self._orphans(child) and not _group_alive(child.pid):
            return False  # the common case: nothing left, and no psutil import
        import psutil

        for sig in (signal.SIGTERM, signal.SIGKILL):
            deadline = time.monotonic() + self.kill_grace
            procs = self._tree(child)
            _signal_group(child.pid, sig)
            _signal_all(procs, sig)
            # The shell itself is reaped through Popen only: psutil reaping it would
            # leave Popen with ECHILD and a made-up exit code 0.
            _, alive = psutil.wait_procs(procs, timeout=self.kill_grace)
            if _shell_exited(child.popen, deadline) and not alive and not _group_alive(child.pid):
                break
        # What the lookups missed (a fork in flight, a process mid-exec) and the zombies
        # of what we killed, which reparent to us: kill and reap until nothing is left.
        for _ in range(_SWEEPS):
            leftovers = self._tree(child)
            if not leftovers:
                break
            _signal_all(leftovers, signal.SIGKILL)
            psutil.wait_procs(leftovers, timeout=self.kill_grace)
        return True

    def _orphans(self, child: _Child) -> list[int]:
        """Orphans that reparented to us (as subreaper) and belong to ``child``."""
        if not _subreaper:
            return []
        live_shells = {c.pid for c in self.running.values()} | {child.pid}
        return [pid for pid in _direct_children() - live_shells if _belongs_to(pid, child.token)]

    def _tree(self, child: _Child) -> list[psutil.Process]:
        """The hook's shell's descendants and its orphans with theirs (not the shell)."""
        import psutil

        procs: dict[int, psutil.Process] = {}
        roots = [child.pid] if child.popen.poll() is None else []
        for pid in roots + self._orphans(child):
            try:
                root = psutil.Process(pid)
                for proc in [root, *root.children(recursive=True)]:
                    procs[proc.pid] = proc
            except psutil.Error:
                continue
        procs.pop(child.pid, None)  # signalled through its group, reaped through Popen
        return list(procs.values())

    def close(self) -> list[tuple[int, Outcome]]:
        """End every running hook tree and reap it; return their (partial) outcomes."""
        return [(child.key, self._finish(child, timed_out=False)) for child in list(self.running.values())]


def _shell_exited(popen: subprocess.Popen[bytes], deadline: float) -> bool:
    try:
        popen.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return False
    return True


def _belongs_to(pid: int, token: str) -> bool:
    """Whether an orphan carries the hook's token in its environment.

    An orphan whose environment cannot be read counts as the hook's: in a subreaper
    nothing else is ours. That covers a zombie (it only needs reaping), one past our
    permissions, and one in the middle of execve, whose environment reads as empty for a
    moment (seen in the soak test: a `setsid sleep &` escaped that way).
    """
    import psutil

    try:
        environ = psutil.Process(pid).environ()
    except psutil.Error:
        return True
    return not environ or environ.get(TOKEN_VAR) == token


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _signal_all(procs: list[psutil.Process], sig: int) -> None:
    import psutil

    for proc in procs:
        try:
            proc.send_signal(sig)
        except psutil.Error:
            pass


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
