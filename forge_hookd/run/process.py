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
import resource
import selectors
import subprocess
import time
from collections.abc import Callable
from typing import IO, TYPE_CHECKING

from forge_hookd.results import HookResult
from forge_hookd.run.signals import Interrupted, SignalCatcher
from forge_hookd.events import TOKEN_VAR
from forge_hookd.run.proctable import Look
from forge_hookd.run.tree import Orphanage, TreeEnd, tree_members

if TYPE_CHECKING:
    from forge_hookd.registry import Hook

DEFAULT_OUTPUT_LIMIT = 1024 * 1024
#: Output kept across all the hooks of a run: what bounds the document and our memory.
DEFAULT_TOTAL_OUTPUT_LIMIT = 16 * 1024 * 1024
DEFAULT_KILL_GRACE = 1.0
#: Descriptors one running hook holds: the parent ends of its three pipes, its pidfd,
#: and one for the /proc and psutil reads that end its tree.
FDS_PER_HOOK = 5
# Spawning briefly holds the child's pipe ends and Popen's error pipe on top.
_FDS_RESERVED = 16
_READ_SIZE = 64 * 1024
_WRITE_SIZE = 64 * 1024
_DRAIN_LIMIT = 0.5
_POLL_WITHOUT_PIDFD = 0.02
_STEP = 0.02  # how often a tree being ended is looked at again


# A plain class, not a dataclass: generating it and the record it replaced cost 0.9 ms
# of every run that starts a hook (bench/README.md, "tricks.py"); it never leaves the package.
class Spec:
    """What to run: one hook's command (``hook.command``, ``hook.detach``) with its
    environment, input and the timeout that applies to it (maybe the executor's default)."""

    __slots__ = ("hook", "cwd", "env", "stdin", "timeout")

    def __init__(self, hook: Hook, cwd: str, env: dict[bytes, bytes], stdin: bytes, timeout: float) -> None:
        self.hook, self.cwd, self.env, self.stdin, self.timeout = hook, cwd, env, stdin, timeout


class _Budget:
    """Bytes of output the run may still keep, shared by every captured stream."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


class _Capture:
    """One captured stream: what is kept of it, up to its own limit and the run's budget."""

    __slots__ = ("limit", "buffer", "truncated", "budget")

    def __init__(self, limit: int, budget: _Budget) -> None:
        self.limit, self.budget = limit, budget
        self.buffer = bytearray()
        self.truncated = False

    def take(self, data: bytes) -> None:
        room = max(0, min(self.limit - len(self.buffer), self.budget.left))
        kept = data[:room]
        self.buffer += kept
        self.budget.left -= len(kept)
        self.truncated = self.truncated or len(kept) < len(data)


class _Child:
    """One running hook: its process, pipes, captured output, deadline, and the end of
    its tree once it exited or timed out."""

    def __init__(self, key: int, spec: Spec, token: str, limit: int, budget: _Budget,
                 run_deadline: float | None = None) -> None:
        self.key = key
        self.spec = spec
        self.token = token
        self.out = _Capture(limit, budget)
        self.err = _Capture(limit, budget)
        self.stdin_view = memoryview(spec.stdin)
        self.started = time.monotonic()
        self.deadline = self.started + spec.timeout
        #: the run's deadline (the agent's limit) comes before the hook's own timeout
        self.cut_short = run_deadline is not None and run_deadline < self.deadline
        if run_deadline is not None:
            self.deadline = min(self.deadline, run_deadline)
        self.timed_out = False
        self.ending: TreeEnd | None = None
        self.popen = subprocess.Popen(
            ["/bin/sh", "-c", spec.hook.command],
            cwd=spec.cwd,
            env={**spec.env, TOKEN_VAR.encode(): token.encode()},  # how its orphans are recognised
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # own session and group: the tree can be signalled
            close_fds=True,
        )
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
        self.pidfd: int | None
        try:
            self.pidfd = os.pidfd_open(self.popen.pid)
        except (AttributeError, OSError):
            self.pidfd = None

    @property
    def pid(self) -> int:
        return self.popen.pid


def descriptor_capacity() -> int:
    """How many more hooks the descriptor limit (RLIMIT_NOFILE) lets run at once; >= 1."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 1 << 20
    try:
        in_use = len(os.listdir("/proc/self/fd"))
    except OSError:
        in_use = 3
    return max(1, (soft - in_use - _FDS_RESERVED) // FDS_PER_HOOK)


class HookProcesses:
    """The hook processes of one run, side by side in one selector loop.

    ``start`` spawns, ``wait`` blocks until at least one has finished and returns the
    finished ones. Output is read continuously and bounded (per stream, and across the
    run); stdin is fed without ever blocking (a hook that never reads it, or closes it,
    is fine). When a hook's own process exits, whatever it left running is ended
    (SIGTERM to its group and every descendant, a grace, then SIGKILL) unless its spec
    says ``detach``; a background child holding the pipes never makes us wait. On
    timeout the same tree end ends it. Trees end side by side, each on its own clock.
    ``close()`` ends everything still running, then every orphan of the run not spared
    for a detach hook; it is always called (context manager). ``capacity`` is how many
    hooks the descriptor limit lets run at once. ``deadline`` (monotonic) is the run's
    own end, the agent's limit (deadline.py): a hook still running then is ended as on
    its timeout, and its key is in ``cut``.
    """

    def __init__(
        self,
        *,
        output_limit: int | None = None,
        total_output_limit: int | None = None,
        kill_grace: float | None = None,
        catcher: SignalCatcher | None = None,
        deadline: float | None = None,
    ) -> None:
        self.deadline = deadline
        self.cut: set[int] = set()
        self.output_limit = DEFAULT_OUTPUT_LIMIT if output_limit is None else output_limit
        self.kill_grace = DEFAULT_KILL_GRACE if kill_grace is None else kill_grace
        self.running: dict[int, _Child] = {}
        self.orphanage = Orphanage()
        self._budget = _Budget(DEFAULT_TOTAL_OUTPUT_LIMIT if total_output_limit is None
                               else total_output_limit)
        self._selector = selectors.DefaultSelector()
        self._catcher = catcher
        self._counter = 0
        self._prefix = f"{os.getpid()}.{time.monotonic_ns():x}"
        if catcher is not None and catcher.read_fd >= 0:  # installed: wake us on a signal
            self._selector.register(catcher.read_fd, selectors.EVENT_READ, _empty_wakeup_fd(catcher))
        self.capacity = descriptor_capacity()

    def __enter__(self) -> HookProcesses:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- starting ------------------------------------------------------------------
    def start(self, key: int, spec: Spec) -> HookResult | None:
        """Spawn ``spec`` as the hook of index ``key``; its result right away when it
        cannot be started."""
        if not os.path.isdir(spec.cwd):
            return HookResult(spec.hook, None, index=key, error=f"working directory does not exist: {spec.cwd}")
        self._counter += 1
        token = f"{self._prefix}.{self._counter}"
        try:
            child = _Child(key, spec, token, self.output_limit, self._budget, self.deadline)
        except (OSError, ValueError) as exc:  # ValueError: a NUL byte in a hook made in code
            return HookResult(spec.hook, None, index=key,
                              error=f"cannot start hook: {getattr(exc, 'strerror', None) or exc}")
        self.running[key] = child
        self.orphanage.add_hook(child.pid, token)
        assert child.popen.stdin and child.popen.stdout and child.popen.stderr
        if spec.stdin:
            self._selector.register(child.popen.stdin, selectors.EVENT_WRITE, lambda: self._feed(child))
        else:
            child.popen.stdin.close()
        self._watch(child.popen.stdout, child.out)
        self._watch(child.popen.stderr, child.err)
        if child.pidfd is not None:  # readable when the shell exits: wakes the loop
            self._selector.register(child.pidfd, selectors.EVENT_READ, _nothing)
        return None

    def _watch(self, stream: IO[bytes], capture: _Capture) -> None:
        self._selector.register(stream, selectors.EVENT_READ, lambda: self._read(stream, capture))

    # -- waiting -------------------------------------------------------------------
    def wait(self) -> list[HookResult]:
        """Block until at least one running hook has finished; return the finished."""
        while self.running:
            self._check_signal()
            self._serve_io(self._select_timeout())
            self._check_signal()
            done = [self._finish(c) for c in list(self.running.values()) if self._advance(c)]
            if done:
                return done
        return []

    def _check_signal(self) -> None:
        if self._catcher is not None and self._catcher.received:
            raise Interrupted(self._catcher.received[0])

    def _select_timeout(self) -> float:
        children = self.running.values()
        if any(c.ending is not None or c.pidfd is None for c in children):
            return min(_STEP, _POLL_WITHOUT_PIDFD)
        return max(0.0, min(c.deadline for c in children) - time.monotonic())

    def _serve_io(self, timeout: float) -> None:
        for key, _ in self._selector.select(timeout):
            key.data()

    def _advance(self, child: _Child) -> bool:
        """Move one hook on: begin ending its tree once its shell exited or it timed
        out; True when it is finished."""
        if child.ending is None:
            exited = child.popen.poll() is not None
            if not exited and time.monotonic() < child.deadline:
                return False
            child.timed_out = not exited
            if child.timed_out and child.cut_short:
                self.cut.add(child.key)
            if exited:  # what it wrote before it exited; a background writer may go on
                self._drain(child, until=time.monotonic() + _DRAIN_LIMIT, to_eof=False)
            if exited and child.spec.hook.detach:
                self.orphanage.spare_detached(child.pid)
                return True
            return self._begin_end(child)
        return child.ending.step()

    def _begin_end(self, child: _Child) -> bool:
        child.ending = TreeEnd(lambda look: self._members(child, look), child.popen, self.kill_grace)
        return child.ending.start()

    def _members(self, child: _Child, look: Look) -> list[int]:
        """The hook's shell's descendants and its orphans with theirs (not the shell)."""
        alone = len(self.running) == 1
        roots = [child.pid] if child.popen.poll() is None else []
        roots += [pid for pid in self.orphanage.orphans(look)
                  if self.orphanage.belongs_to(pid, child.pid, alone=alone, look=look)]
        return tree_members(roots, look=look, leave_out=child.pid)

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
            self._close(stdin)

    def _read(self, stream: IO[bytes], capture: _Capture) -> bool:
        """Read once from a pipe; True if data came (at EOF the pipe is also closed)."""
        try:
            data = os.read(stream.fileno(), _READ_SIZE)
        except BlockingIOError:
            return False
        except OSError:
            data = b""
        if data:
            capture.take(data)
            return True
        self._close(stream)
        return False

    def _close(self, stream: IO[bytes]) -> None:
        """Stop watching a pipe and close it."""
        if not stream.closed:
            try:
                self._selector.unregister(stream)
            except KeyError:  # stdin with nothing to feed was never watched
                pass
            stream.close()

    # -- finishing -----------------------------------------------------------------
    def _finish(self, child: _Child) -> HookResult:
        """Reap the hook (its tree is ended or spared), collect its output, decoded
        once, here."""
        del self.running[child.key]
        if child.ending is not None and child.ending.anything:
            self._drain(child, until=time.monotonic() + _DRAIN_LIMIT, to_eof=True)
        child.popen.wait()
        self._close_child(child)
        return HookResult(
            child.spec.hook,
            child.popen.returncode,
            index=child.key,
            stdout=child.out.buffer.decode("utf-8", errors="replace"),
            stderr=child.err.buffer.decode("utf-8", errors="replace"),
            stdout_truncated=child.out.truncated,
            stderr_truncated=child.err.truncated,
            timed_out=child.timed_out,
            # the timeout applied, which may be the executor's default, not hook.timeout
            error=(None if not child.timed_out else
                   f"ended after {time.monotonic() - child.started:.1f}s: the agent's limit was near"
                   if child.key in self.cut else f"timed out after {child.spec.timeout:g}s"),
            duration=round(time.monotonic() - child.started, 6),
        )

    def _drain(self, child: _Child, *, until: float, to_eof: bool) -> None:
        """Read what the pipes hold now (``to_eof``: until every writer is gone),
        never past ``until``: a background writer may never stop."""
        assert child.popen.stdout is not None and child.popen.stderr is not None
        for stream, capture in ((child.popen.stdout, child.out), (child.popen.stderr, child.err)):
            while time.monotonic() < until and not stream.closed:
                if self._read(stream, capture):
                    continue
                wait = until - time.monotonic()
                if not to_eof or stream.closed or not _readable(stream.fileno(), wait):
                    break

    def _close_child(self, child: _Child) -> None:
        for stream in (child.popen.stdin, child.popen.stdout, child.popen.stderr):
            if stream is not None:
                self._close(stream)
        if child.pidfd is not None:
            self._selector.unregister(child.pidfd)
            os.close(child.pidfd)
            child.pidfd = None

    def close(self) -> list[HookResult]:
        """End every running hook tree side by side and reap it; then every orphan of
        the run not spared for a detach hook. Returns the hooks' (partial) results."""
        done: list[HookResult] = []
        for child in list(self.running.values()):
            if child.ending is None and self._begin_end(child):
                done.append(self._finish(child))
        while self.running:
            self._serve_io(_STEP)
            done += [self._finish(c) for c in list(self.running.values()) if c.ending.step()]  # type: ignore[union-attr]
        self._end_the_rest()
        return done

    def _end_the_rest(self) -> None:
        ending = TreeEnd(lambda look: tree_members(self.orphanage.orphans(look), look=look), None, self.kill_grace)
        finished = ending.start()
        while not finished:
            time.sleep(_STEP)
            finished = ending.step()


def _nothing() -> None:
    """A pidfd became readable: the shell exited; ``_advance`` reaps it."""


def _empty_wakeup_fd(catcher: SignalCatcher) -> Callable[[], None]:
    def empty() -> None:
        try:
            while os.read(catcher.read_fd, 4096):
                pass
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
                raise
    return empty


def _readable(fd: int, timeout: float) -> bool:
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        return bool(selector.select(max(0.0, timeout)))
