"""What /proc says about processes, for ending hook trees (tree.py): our own children,
and through a :class:`Look`, each process's children, session, group and hook token,
each read once per look.

psutil costs 16 ms to import (bench/README.md, "tricks.py"): only the fallbacks, for
machines without ``/proc/PID/task/*/children``, load it.
"""

from __future__ import annotations

import os

from forge_hookd.events import TOKEN_VAR

_CHILDREN = "children"  # /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN)


def direct_children() -> set[int]:
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


def session_and_group(pid: int) -> tuple[int, int]:
    """(session id, process group id) of ``pid``; (0, 0) when it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        return int(fields[3]), int(fields[2])
    except (OSError, IndexError, ValueError):
        return 0, 0


def token_of(pid: int) -> str | None:
    """The hook token in ``pid``'s environment; None when absent or unreadable (a
    process past our permissions, a zombie, one in the middle of execve)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            environ = fh.read()
    except OSError:
        return None
    prefix = TOKEN_VAR.encode() + b"="
    for entry in environ.split(b"\0"):
        if entry.startswith(prefix):
            return entry[len(prefix):].decode("ascii", "replace")
    return None


class Look:
    """One look at the processes, for one step of ending trees: each process's children,
    session, group and hook token, each read from /proc at most once per look.

    Every step of ending a tree takes one look, and a look reads only what the step
    concerns (the tree below its roots, and our orphans): a step costs reads in
    proportion to the processes it ends. (psutil's ``children(recursive=True)`` scans
    every process on the machine, and was called per orphan per step: a hook that left
    1000 children took 214 s to end, issue 20; bench/README.md, "tree.py".) Children
    come from ``/proc/PID/task/*/children``; where the kernel has no such file, from
    one psutil scan of every parent per look.
    """

    def __init__(self) -> None:
        self._children: dict[int, list[int]] = {}
        self._ids: dict[int, tuple[int, int]] = {}
        self._tokens: dict[int, str | None] = {}
        self._by_parent: dict[int, list[int]] | None = None

    def children(self, pid: int) -> list[int]:
        """The children of ``pid`` ([] when it is gone)."""
        kids = self._children.get(pid)
        if kids is None:
            kids = self._children[pid] = self._read_children(pid)
        return kids

    def _read_children(self, pid: int) -> list[int]:
        if self._by_parent is not None:
            return self._by_parent.get(pid, [])
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:  # gone
            return []
        kids: list[int] = []
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/{_CHILDREN}", "rb") as fh:
                    kids += [int(p) for p in fh.read().split()]
            except FileNotFoundError:
                if not os.path.isdir(f"/proc/{pid}/task/{tid}"):
                    continue  # the thread ended
                self._by_parent = _parents_map()  # a kernel without the file: psutil
                return self._by_parent.get(pid, [])
            except OSError:
                continue
        return kids

    def descendants(self, roots: list[int], *, leave_out: int | None = None) -> list[int]:
        """``roots`` and every process below them, each once, without ``leave_out``."""
        found: dict[int, None] = {}
        todo = list(roots)
        while todo:
            pid = todo.pop()
            if pid not in found:
                found[pid] = None
                todo += self.children(pid)
        found.pop(leave_out or 0, None)
        return list(found)

    def ids(self, pid: int) -> tuple[int, int]:
        """(session id, process group id) of ``pid``; (0, 0) when it cannot be read."""
        known = self._ids.get(pid)
        if known is None:
            known = self._ids[pid] = session_and_group(pid)
        return known

    def token(self, pid: int) -> str | None:
        """The hook token in ``pid``'s environment (see :func:`token_of`)."""
        if pid not in self._tokens:
            self._tokens[pid] = token_of(pid)
        return self._tokens[pid]


def _parents_map() -> dict[int, list[int]]:
    """Every process's children, from one psutil scan (where /proc has no children files)."""
    import psutil

    by_parent: dict[int, list[int]] = {}
    for proc in psutil.process_iter(["ppid"]):
        by_parent.setdefault(proc.info["ppid"], []).append(proc.pid)
    return by_parent
