"""The circular-trigger guard: which event types runs up the process tree are handling.

A run that starts hooks sets ``FORGE_HOOK_CHAIN`` to ``PID.START:TYPE,...``: each run's
process id, its start time (clock ticks since boot, from ``/proc/PID/stat``) and the
event type it handles. An entry counts only while that process is an ancestor of the
reader: a variable copied into a shell, a CI job or an agent's environment names no
ancestor, so it cannot switch guards off. The start time makes a recycled pid no match.
Read only when the variable is set, so an ordinary run pays nothing.
"""

from __future__ import annotations

import os

from .events import CHAIN_VAR

_MAX_DEPTH = 4096  # a loop in a hostile /proc is not followed forever

#: The process whose ancestors are this run's: None for this process; the resident
#: runner's worker sets its client's pid (the worker's own parent is the runner, and a
#: nested run's client sits below the outer run's hook, where a cold run would).
origin_pid: int | None = None


def _stat(pid: int | str) -> tuple[int, str] | None:
    """``(ppid, start time)`` of a process, None when it is gone or /proc is absent."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after its last ")".
    fields = raw[raw.rfind(b")") + 2:].split()
    try:
        return int(fields[1]), fields[19].decode()
    except (IndexError, ValueError):
        return None


def _stamp(pid: int) -> str:
    stat = _stat(pid)
    return f"{pid}.{stat[1]}" if stat is not None else str(pid)


def _ancestors() -> set[str]:
    """The stamps (``PID.START``) of every process above this one."""
    found: set[str] = set()
    origin = _stat(origin_pid) if origin_pid is not None else None
    pid = os.getppid() if origin_pid is None else (origin[0] if origin is not None else 0)
    while pid > 0 and len(found) < _MAX_DEPTH:
        stat = _stat(pid)
        if stat is None:
            found.add(str(pid))  # no /proc: the parent, by pid alone
            break
        found.add(f"{pid}.{stat[1]}")
        pid = stat[0]
    return found


def _entries() -> list[tuple[str, str]]:
    value = os.environ.get(CHAIN_VAR, "")
    entries = []
    for item in value.split(","):
        stamp, sep, event_type = item.partition(":")
        if sep and stamp and event_type:
            entries.append((stamp, event_type))
    return entries


def _live_entries() -> list[tuple[str, str]]:
    entries = _entries()
    if not entries:
        return []
    ancestors = _ancestors()
    return [(stamp, t) for stamp, t in entries if stamp in ancestors]


def active_chain() -> list[str]:
    """Event types being handled by runs up this process's ancestry."""
    return [t for _, t in _live_entries()]


def chain_value(event_type: str) -> str:
    """``FORGE_HOOK_CHAIN`` for the hooks this process runs for ``event_type``."""
    entries = [*_live_entries(), (_stamp(os.getpid()), event_type)]
    return ",".join(f"{stamp}:{t}" for stamp, t in entries)
