"""The run log: one JSON line per forge-hook-run run, so that "why was my ``git push``
blocked an hour ago?" has an answer (DESIGN.md, "Run log").

The record (:mod:`forge_hookd.log.record`) is encoded in at most :data:`RECORD_LIMIT`
bytes and appended with one ``write`` on an ``O_APPEND`` descriptor. The file is rotated
at :data:`ROTATE_BYTES`, :data:`KEEP_FILES` files kept. Writing never raises for the
machine's refusals: :func:`record` returns the warning to show instead, so that a log
that cannot be written never costs the run.

Reading (``forge-hook log``) is in :mod:`forge_hookd.log.view`.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from typing import Any


from forge_hookd.readfile import kind_of
from forge_hookd.log import spool
from forge_hookd.log.record import RunContext, build_record, shortened
from forge_hookd.safefile import write_all
from forge_hookd.text import json_bytes
from forge_hookd.statedir import state_path

__all__ = ["RunContext", "append", "encode", "log_files", "log_path", "record"]

ROTATE_BYTES = 10 * 1024 * 1024
KEEP_FILES = 3  # runs.jsonl, runs.jsonl.1, runs.jsonl.2
RECORD_LIMIT = 64 * 1024
# Appends up to this size are one write that no other append can split (PIPE_BUF is the
# guarantee POSIX gives pipes; Linux gives regular files more). Larger ones take the lock.
ATOMIC_APPEND = 4096
_LOCK_WAIT = 2.0


# -- where ---------------------------------------------------------------------------
def log_path() -> str | None:
    """``$FORGE_LOG_FILE``, else ``${XDG_STATE_HOME:-~/.local/state}/forge/runs.jsonl``;
    None when ``FORGE_LOG=0`` turns the log off."""
    if os.environ.get("FORGE_LOG") == "0":
        return None
    if named := os.environ.get("FORGE_LOG_FILE"):
        return named
    return state_path("runs.jsonl")


def log_files(path: str) -> list[str]:
    """The log's files that exist, oldest first."""
    names = [f"{path}.{i}" for i in range(KEEP_FILES - 1, 0, -1)] + [path]
    return [name for name in names if os.path.isfile(name)]


# -- writing -------------------------------------------------------------------------
def record(document: dict[str, Any], context: RunContext) -> str | None:
    """Append the record of one run; the warning to show when the log cannot be
    written (None when it was, or when the log is off)."""
    path = log_path()
    export = context.export
    if export is not None and path is None and not export.managed:
        export = None  # FORGE_LOG=0 stops the user's own export, never a managed one
    if path is None and export is None:
        return None
    line = encode(build_record(document, context))
    if export is not None:
        warning = _spooled(line)
        if warning is not None:
            return warning
    if path is None:
        return None
    try:
        append(path, line)
    except OSError as exc:
        return f"the run log {path} cannot be written: {exc.strerror or exc}"
    return None


def _spooled(line: bytes) -> str | None:
    """The record into the export spool (write-behind: forge-hook export ships it)."""
    try:
        spool.spool(line)
    except OSError as exc:
        return f"the export spool {spool.spool_path()} cannot be written: {exc.strerror or exc}"
    return None


def encode(rec: dict[str, Any]) -> bytes:
    """One line, at most :data:`RECORD_LIMIT` bytes: output, then data, then hooks, then
    the length of every text go; what is left then is a summary that always fits."""
    line = json_bytes(rec) + b"\n"
    for shrink in (_drop_output, _drop_data, _drop_hooks, _cut_texts, _summary):
        if len(line) <= RECORD_LIMIT:
            break
        shrink(rec)
        line = json_bytes(rec) + b"\n"
    return line


def _drop_output(rec: dict[str, Any]) -> None:
    for hook in rec.get("hooks", []):
        hook["stdout"] = hook["stderr"] = "[omitted: record too large]"
        hook.pop("answer", None)
        hook.pop("env", None)


def _drop_data(rec: dict[str, Any]) -> None:
    rec["event"]["data"] = "[omitted: record too large]"
    rec["warnings"] = rec["warnings"][:5]


def _drop_hooks(rec: dict[str, Any]) -> None:
    hooks = rec["hooks"]
    keep = [h for i, h in enumerate(hooks) if i < 20 or h["index"] == rec.get("decided_by")]
    rec["hooks_omitted"] = rec.get("hooks_omitted", 0) + len(hooks) - len(keep)
    rec["hooks"] = keep
    rec["files"] = rec["files"][:10]


def _cut_texts(rec: dict[str, Any]) -> None:
    """Every text at most 64 characters (each may take six bytes in JSON: ``\\u0001``)."""
    rec.update(shortened(rec, 64))
    rec["warnings"] = rec["warnings"][:1]


def _summary(rec: dict[str, Any]) -> None:
    """What always fits: a few fields of at most 64 characters, a number or two."""
    event = rec["event"]
    kept = {k: rec.get(k) for k in ("v", "time", "duration", "forge", "pid", "project", "dialect", "decision",
                                    "decided_by", "reason", "exit_status", "interrupted", "error")}
    parent = rec.get("traceparent")  # 55 characters: the exported spans keep their parent
    rec.clear()
    rec.update(kept, event={k: event.get(k) for k in ("type", "tool", "session")},
               omitted="record too large")
    if parent is not None:
        rec["traceparent"] = parent


def append(path: str, line: bytes, *, rotate_bytes: int = ROTATE_BYTES) -> None:
    """Append ``line`` to ``path`` with one write; rotate first when it would pass
    ``rotate_bytes``. Raises OSError."""
    fd = _open_for_append(path)
    try:
        if os.fstat(fd).st_size + len(line) > rotate_bytes:
            os.close(fd)
            fd = -1
            _rotate(path, len(line), rotate_bytes)
            fd = _open_for_append(path)
        if len(line) <= ATOMIC_APPEND:
            write_all(lambda view: os.write(fd, view), line)
        else:
            with _Locked(path):
                write_all(lambda view: os.write(fd, view), line)
    finally:
        if fd >= 0:
            os.close(fd)


def _open_for_append(path: str) -> int:
    """A descriptor to append to the regular file ``path`` (made if missing). Opened
    without blocking, as readfile.py opens configs: a FIFO with no reader would block
    the open for ever (with one it would take the record); anything but a regular file
    is refused with an OSError that says what it is."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK
    try:
        fd = os.open(path, flags, 0o600)
    except FileNotFoundError:
        os.makedirs(os.path.dirname(path) or ".", mode=0o700, exist_ok=True)
        fd = os.open(path, flags, 0o600)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO (or a socket) with no reader
            _refuse_unless_regular(os.stat(path).st_mode)
        raise
    try:
        _refuse_unless_regular(os.fstat(fd).st_mode)
    except OSError:
        os.close(fd)
        raise
    return fd


def _refuse_unless_regular(mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, f"it is {kind_of(mode)}, not a regular file")


def _rotate(path: str, pending: int, rotate_bytes: int) -> None:
    """Shift the files under the lock; another run may have rotated already."""
    with _Locked(path):
        try:
            if os.stat(path).st_size + pending <= rotate_bytes:
                return
        except FileNotFoundError:
            return
        for i in range(KEEP_FILES - 1, 0, -1):
            older = f"{path}.{i - 1}" if i > 1 else path
            if os.path.exists(older):
                os.replace(older, f"{path}.{i}")


class _Locked:
    """An exclusive ``flock`` on ``PATH.lock``, waited for at most two seconds: a
    stopped process holding it must not stop every agent's hooks."""

    def __init__(self, path: str) -> None:
        self.path = path + ".lock"
        self.fd = -1

    def __enter__(self) -> None:
        import fcntl  # 0.25 ms, only for a record too long for one atomic write (bench/README.md)

        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK, 0o600)
        deadline = time.monotonic() + _LOCK_WAIT
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(self.fd)
                    raise OSError(f"{self.path} is held by another process") from None
                time.sleep(0.005)

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)  # closing releases the lock
