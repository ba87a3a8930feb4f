"""The export spool (issue 35 item 4): write-behind for the run log's export. A run
appends its record (the run log's, redacted) with one write and starts nothing, so the
answer never waits for a collector and no process is left behind; ``forge-hook export``
ships the spool (forge_hookd.log.export). Bounded: past :data:`SPOOL_BYTES` a record is
dropped and counted (``export.dropped``), never a slower answer or a fuller disk.
"""

from __future__ import annotations

import errno
import os
import stat

from forge_hookd.readfile import kind_of
from forge_hookd.safefile import write_all
from forge_hookd.statedir import state_path

#: The most the spool holds; past it records are dropped, with a count.
SPOOL_BYTES = 4 * 1024 * 1024


def spool_path() -> str:
    """``${XDG_STATE_HOME:-~/.local/state}/forge/export.spool``."""
    return state_path("export.spool")


def spool(line: bytes, *, path: str | None = None, limit: int = SPOOL_BYTES) -> bool:
    """Append one record's line; False (and the drop counted) when the spool is full.
    Raises OSError."""
    path = path or spool_path()
    fd = _open(path)
    try:
        if os.fstat(fd).st_size + len(line) > limit:
            count_dropped(path, 1)
            return False
        write_all(lambda view: os.write(fd, view), line)  # O_APPEND, one write: never interleaved
        return True
    finally:
        os.close(fd)


def _open(path: str) -> int:
    """Append-only, without blocking or following a link; a regular file or OSError."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOFOLLOW
    try:
        fd = os.open(path, flags, 0o600)
    except FileNotFoundError:
        os.makedirs(os.path.dirname(path) or ".", mode=0o700, exist_ok=True)
        fd = os.open(path, flags, 0o600)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise OSError(errno.EINVAL, f"it is {kind_of(mode)}, not a regular file")
    return fd


def count_dropped(path: str, more: int) -> int:
    """Add ``more`` to the spool's drop count; the new count (``more=0`` reads it)."""
    counter = path + ".dropped"
    try:
        with open(counter, "rb") as fh:
            count = int(fh.read(32) or b"0")
    except (OSError, ValueError):
        count = 0
    if more:
        fd = os.open(counter, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, str(count + more).encode())
        finally:
            os.close(fd)
    return count + more


def reset_dropped(path: str) -> None:
    try:
        os.unlink(path + ".dropped")
    except FileNotFoundError:
        pass
