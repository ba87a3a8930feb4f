"""The circular-trigger guard: which event types, for which sessions, runs up the
process tree are handling.

A run that starts hooks sets ``FORGE_HOOK_CHAIN`` to ``PID.START:TYPE=SESSION,...``: each
run's process id, its start time (clock ticks since boot, from ``/proc/PID/stat``), the
event type it handles and the session it handles it for (escaped: ``%XX`` for every byte
but letters, digits and ``-_.~``; a long id by its hash; nothing after ``=`` for none).
A nested run is circular only for the same type *and* the same session (issue 20, item
4): an "LLM judge" hook that starts ``claude -p`` starts another agent, whose own hook
runs forge-hook-run with another session id, and that run is guarded like any other.

An entry counts only while that process is an ancestor of the reader: a variable copied
into a shell, a CI job or an agent's environment names no ancestor, so it cannot switch
guards off. The start time makes a recycled pid no match. Read only when the variable
is set, so an ordinary run pays nothing. The value is bounded: at most
:data:`MAX_ENTRIES` entries (the nearest runs), each of a bounded length.
"""

from __future__ import annotations

import os

from forge_hookd.events import CHAIN_VAR

_MAX_DEPTH = 4096  # a loop in a hostile /proc is not followed forever
#: Entries kept: nested runs deeper than this are the nearest ones (a loop of agents each
#: starting the next is ended by the outermost hook's timeout, not by the chain).
MAX_ENTRIES = 64
_MAX_KEY = 64  # characters of an escaped session id; a longer one is recorded by its hash
_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~")

#: The process whose ancestors are this run's: None for this process; the resident
#: runner's worker sets its client's pid (the worker's own parent is the runner, and a
#: nested run's client sits below the outer run's hook, where a cold run would).
origin_pid: int | None = None


def set_origin(pid: int | None) -> None:
    """Walk the ancestry of ``pid`` instead of this process's parent (the resident
    runner's worker walks its client's: the worker's parent is the runner)."""
    global origin_pid
    origin_pid = pid


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


def session_key(session_id: str | None) -> str:
    """How a chain entry records a session: escaped so that no ``,`` or ``=`` ends it and
    no control character reaches a terminal, and bounded (a 3 MB id must not make a 3 MB
    variable, which the next exec would refuse)."""
    if not session_id:
        return ""
    raw = session_id.encode("utf-8", "surrogatepass")
    key = "".join(chr(b) if b < 0x80 and chr(b) in _SAFE else f"%{b:02X}" for b in raw[:_MAX_KEY + 1])
    if len(key) <= _MAX_KEY:
        return key
    import hashlib  # only for an id too long to keep

    return "sha256-" + hashlib.sha256(raw).hexdigest()[:32]


def _entries() -> list[tuple[str, str, str]]:
    value = os.environ.get(CHAIN_VAR, "")
    entries = []
    for item in value.split(","):
        stamp, sep, rest = item.partition(":")
        event_type, _, session = rest.partition("=")
        if sep and stamp and event_type:
            entries.append((stamp, event_type, session))
    return entries


def _live_entries() -> list[tuple[str, str, str]]:
    entries = _entries()
    if not entries:
        return []
    ancestors = _ancestors()
    return [entry for entry in entries if entry[0] in ancestors]


def active_chain() -> list[str]:
    """Event types being handled by runs up this process's ancestry (any session)."""
    return [t for _, t, _ in _live_entries()]


def circular(event_type: str, session_id: str | None) -> bool:
    """Whether a run up this process's ancestry handles ``event_type`` for this session."""
    key = session_key(session_id)
    return any(t == event_type and s == key for _, t, s in _live_entries())


def chain_value(event_type: str, session_id: str | None = None) -> str:
    """``FORGE_HOOK_CHAIN`` for the hooks this process runs for ``event_type`` in this
    session: the live entries above, this run's last, at most MAX_ENTRIES of them."""
    return _joined([*_live_entries(), (_stamp(os.getpid()), event_type, session_key(session_id))])


def live_value() -> str:
    """The entries of ``FORGE_HOOK_CHAIN`` that count, as a message quotes them (a stray
    or hostile variable around them is not repeated)."""
    return _joined(_live_entries())


def _joined(entries: list[tuple[str, str, str]]) -> str:
    return ",".join(f"{stamp}:{t}={s}" if s else f"{stamp}:{t}" for stamp, t, s in entries[-MAX_ENTRIES:])
