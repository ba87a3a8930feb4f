"""The process tree of a hook: what it started, and how all of it is ended.

A hook's tree is its shell's process group, every descendant psutil finds below the
shell, and, when this process is a child subreaper, every orphan that reparented to
us carrying the hook's token in its environment (with its descendants): that is how
double-forked and ``setsid`` leftovers are found. Ending a tree is SIGTERM, a grace,
SIGKILL, then a sweep until nothing of the hook is left.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # psutil costs ~10 ms to import: only the kill paths load it.
    import psutil

#: Set in every hook's environment; how its orphans are recognised.
TOKEN_VAR = "FORGE_HOOK_TOKEN"
_PR_SET_CHILD_SUBREAPER = 36
_SWEEPS = 5
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




class HookTree:
    """The processes one hook started: its shell ``popen`` (whose pid is also its
    process group), and the orphans carrying ``token``. ``others`` are the shells of
    hooks running beside it, never counted as its orphans."""

    def __init__(self, popen: subprocess.Popen[bytes], token: str, others: set[int]) -> None:
        self.popen = popen
        self.pid = popen.pid
        self.token = token
        self.others = others

    def end(self, grace: float) -> bool:
        """End every process of the tree; True if there was anything to end.

        SIGTERM, ``grace``, then SIGKILL; the tree is looked up again each round because
        a dying tree can still fork.
        """
        if self.popen.poll() is not None and not self._orphans() and not _group_alive(self.pid):
            return False  # the common case: nothing left, and no psutil import
        import psutil

        for sig in (signal.SIGTERM, signal.SIGKILL):
            deadline = time.monotonic() + grace
            procs = self._tree()
            _signal_group(self.pid, sig)
            _signal_all(procs, sig)
            # The shell itself is reaped through Popen only: psutil reaping it would
            # leave Popen with ECHILD and a made-up exit code 0.
            _, alive = psutil.wait_procs(procs, timeout=grace)
            if _shell_exited(self.popen, deadline) and not alive and not _group_alive(self.pid):
                break
        # What the lookups missed (a fork in flight, a process mid-exec) and the zombies
        # of what we killed, which reparent to us: kill and reap until nothing is left.
        for _ in range(_SWEEPS):
            leftovers = self._tree()
            if not leftovers:
                break
            _signal_all(leftovers, signal.SIGKILL)
            psutil.wait_procs(leftovers, timeout=grace)
        return True

    def _orphans(self) -> list[int]:
        """Orphans that reparented to us (as subreaper) and belong to this hook."""
        if not _subreaper:
            return []
        live_shells = self.others | {self.pid}
        return [pid for pid in _direct_children() - live_shells if _belongs_to(pid, self.token)]

    def _tree(self) -> list[psutil.Process]:
        """The hook's shell's descendants and its orphans with theirs (not the shell)."""
        import psutil

        procs: dict[int, psutil.Process] = {}
        roots = [self.pid] if self.popen.poll() is None else []
        for pid in roots + self._orphans():
            try:
                root = psutil.Process(pid)
                for proc in [root, *root.children(recursive=True)]:
                    procs[proc.pid] = proc
            except psutil.Error:
                continue
        procs.pop(self.pid, None)  # signalled through its group, reaped through Popen
        return list(procs.values())


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
