"""The process trees of hooks: what each started, and how all of it is ended.

A hook's tree is its shell's process group, every descendant found below the shell
and, when this process is a child subreaper, the orphans that reparented to us and
belong to the hook (with their descendants): that is how double-forked and ``setsid``
leftovers are found. Whatever reparents to a subreaper that only runs hooks
was started by its hooks, so an orphan is attributed by ancestry, not by a mark the
hook could drop: its session or group (a hook's shell leads its own session, and only
``setsid`` leaves it), else the hook's token in its environment, else, when exactly one
hook runs, that hook. An orphan no rule attributes is ended when the run ends.

A ``detach`` hook's orphans are spared, also at the end of the run: those present when
its shell exits (including any no rule attributes: a detach hook could own them) and
any orphan later found in their sessions or groups.

Ending a tree (:class:`TreeEnd`) is SIGTERM, a grace, SIGKILL, stepped by the caller's
poll loop so that many trees end at once, each on its own clock; each step takes one
:class:`Look` at the processes, so it costs time linear in what it ends.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable

from forge_hookd.run.proctable import Look, direct_children

_PR_SET_CHILD_SUBREAPER = 36
_subreaper = False


def become_subreaper() -> bool:
    """Make this process the reaper of orphans below it (Linux ``PR_SET_CHILD_SUBREAPER``).

    Then a double-forked or ``setsid`` daemon that a hook leaves behind reparents to us
    instead of init, and stays findable to be ended. Do this only in a process that
    runs hooks and nothing else (the forge-hook-run executable does): orphans of
    anything else it starts become its children too, and what appears as a child while
    hooks run (also a child another thread starts) is ended with the run.
    Returns False where unsupported.
    """
    global _subreaper
    if not _subreaper:
        _subreaper = _prctl(_PR_SET_CHILD_SUBREAPER, 1) == 0
    return _subreaper


def forget_subreaper() -> None:
    """After a fork: the child is no subreaper (the flag is not inherited), whatever the
    parent became (the resident runner's workers)."""
    global _subreaper
    _subreaper = False


def _prctl(option: int, arg: int) -> int:
    """prctl(2), which the os module lacks; -1 where it cannot be called."""
    try:
        # _ctypes alone instead of the ctypes package: 1.2 ms less start-up on the hook
        # path (bench/README.md, "tricks.py").
        import _ctypes

        function = _ctypes.dlsym(_ctypes.dlopen(None, os.RTLD_NOW), "prctl")  # type: ignore[arg-type]
        return int(_ctypes.call_function(function, (option, arg, 0, 0, 0)))
    except (ImportError, AttributeError, OSError):  # other CPythons: the public ctypes
        return _prctl_by_ctypes(option, arg)


def _prctl_by_ctypes(option: int, arg: int) -> int:
    try:
        import ctypes

        return int(ctypes.CDLL(None, use_errno=True).prctl(option, arg, 0, 0, 0))
    except (ImportError, OSError, AttributeError):
        return -1


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True  # or PermissionError: a member we may not signal is still a member


class Orphanage:
    """The orphans that reparented to us during one run, and whose each is.

    ``hooks`` maps each hook shell's pid (also its session and group id) to its token.
    Children this process had before the run are not orphans of the run. Each method
    takes the step's :class:`Look` (a new one when none is given).
    """

    def __init__(self) -> None:
        self._before = direct_children() if _subreaper else set()
        self.hooks: dict[int, str] = {}
        self._by_token: dict[str, int] = {}
        self._detached_shells: set[int] = set()
        self._spared: set[int] = set()

    def add_hook(self, shell: int, token: str) -> None:
        self.hooks[shell] = token
        self._by_token[token] = shell

    def orphans(self, look: Look | None = None) -> list[int]:
        """Our children that are not hook shells and not spared; [] unless subreaper."""
        if not _subreaper:
            return []
        look = look or Look()
        return [pid for pid in direct_children() - self.hooks.keys() - self._spared - self._before
                if not self._is_detached(pid, look)]

    def owner(self, pid: int, look: Look | None = None) -> int | None:
        """The shell pid of the hook ``pid`` descends from, or None if unknown."""
        look = look or Look()
        for shell in look.ids(pid):
            if shell in self.hooks:
                return shell
        return self._by_token.get(look.token(pid) or "")

    def belongs_to(self, pid: int, shell: int, *, alone: bool, look: Look | None = None) -> bool:
        """Whether orphan ``pid`` is to be ended with the tree of hook ``shell``;
        ``alone``: that hook is the only one running, so an unknown orphan is its."""
        owner = self.owner(pid, look)
        return owner == shell or (owner is None and alone)

    def spare_detached(self, shell: int) -> None:
        """The detach hook ``shell`` exited: spare its orphans and their descendants,
        and any orphan no rule attributes (a detach hook could own it)."""
        self._detached_shells.add(shell)
        look = Look()
        mine = [pid for pid in self.orphans(look) if self.owner(pid, look) in (shell, None)]
        self._spared.update(look.descendants(mine))

    def _is_detached(self, pid: int, look: Look) -> bool:
        if set(look.ids(pid)) & self._spared:  # started later by a spared process
            return True
        owner = self.owner(pid, look)
        return owner is not None and owner in self._detached_shells


class TreeEnd:
    """Ending one set of processes: SIGTERM, ``grace``, SIGKILL, ``grace``.

    ``members(look)`` lists the pids to end (looked up again each step, with one
    :class:`Look`: a dying tree can still fork); ``popen`` is a hook's shell, signalled
    through its group ``popen.pid`` and reaped only through Popen (reaping it here would
    leave Popen with ECHILD and a made-up exit code 0). The caller calls :meth:`step`
    from its loop until it returns True; each newly found process gets the current
    signal once.
    """

    def __init__(self, members: Callable[[Look], list[int]],
                 popen: subprocess.Popen[bytes] | None, grace: float) -> None:
        self.members = members
        self.popen = popen
        self.grace = grace
        self.signal = signal.SIGTERM
        self.until = 0.0
        self.anything = False  # whether there was anything to end
        self._sent: set[int] = set()

    def start(self) -> bool:
        """Send SIGTERM to everything; True when done already (nothing was left, the
        common case)."""
        if self._shell_gone() and not self._group_alive() and not self.members(Look()):
            return True
        self.anything = True
        self.until = time.monotonic() + self.grace
        return self.step()

    def step(self) -> bool:
        """Signal what is new, reap what died; True when nothing is left (or nothing
        more can be done: what survives SIGKILL for ``grace`` is in the kernel's hands)."""
        pids = self.members(Look())
        reaped = _reap_our_children(pids)
        shell_gone = self._shell_gone()
        if shell_gone and not self._group_alive() and not [p for p in pids if p not in reaped and _exists(p)]:
            return True
        if time.monotonic() >= self.until:
            if self.signal == signal.SIGKILL:
                return True
            self.signal, self.until, self._sent = signal.SIGKILL, time.monotonic() + self.grace, set()
        if self.popen is not None and self.popen.pid not in self._sent:
            self._sent.add(self.popen.pid)
            _signal_group(self.popen.pid, self.signal)
        for pid in pids:
            if pid not in self._sent and pid not in reaped:
                self._sent.add(pid)
                _signal(pid, self.signal)
        return False

    def _shell_gone(self) -> bool:
        return self.popen is None or self.popen.poll() is not None

    def _group_alive(self) -> bool:
        return self.popen is not None and _group_alive(self.popen.pid)


def tree_members(roots: list[int], *, look: Look, leave_out: int | None = None) -> list[int]:
    """``roots`` and every descendant of each, without ``leave_out``."""
    return look.descendants(roots, leave_out=leave_out) if roots else []


def _reap_our_children(pids: list[int]) -> set[int]:
    """Reap those of ``pids`` that died as our children (orphans that reparented);
    the pids reaped."""
    ours = direct_children() if pids else set()
    reaped = set()
    for pid in pids:
        if pid in ours:
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    reaped.add(pid)
            except ChildProcessError:
                pass
    return reaped


def _exists(pid: int) -> bool:
    """Alive, or a zombie nobody has reaped yet (its parent will, or it reparents to us)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass
