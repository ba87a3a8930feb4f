"""Reading the caller's input (the forge event, an agent's payload) whole and bounded,
whatever stdin turns out to be: one reader for both codecs (codec.py, dialectcodec.py).

``sys.stdin.buffer.read(n)`` fails in ways a caller cannot read as bad input (issue 20,
item 11): on a descriptor with ``O_NONBLOCK`` (inherited from a Node parent, which sets
it on its pipes) it returns None, or what had arrived so far, and a truncated event is
refused as invalid; on a descriptor opened write-only (``0>file``) it raises EBADF,
which would be "internal" (exit 3). Here the descriptor is read with ``os.read``; on
EAGAIN we wait with ``poll`` (never clearing ``O_NONBLOCK``: the flag belongs to the
open file description, which the parent shares), and every refusal is an
:class:`~forge_hookd.errors.EventError` naming what stdin is: exit 2, or the dialect's
deny on events that can block.

A directory as stdin never reaches us: CPython refuses it while starting ("<stdin> is a
directory, cannot continue", exit 1) before any code of ours runs. The check below is
for callers of the library that hand in such a descriptor.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO

from .errors import EventError

_CHUNK = 1 << 20  # what one read asks for: an event is usually a few hundred bytes


def read_input(stream: BinaryIO, *, limit: int, what: str) -> bytes:
    """All of ``stream``, at most ``limit`` bytes (reading ``limit + 1`` at most to tell).

    ``what`` names the input in messages (``event``, ``claude payload``). Raises
    :class:`EventError` for input over the limit and for a stdin that cannot be read.
    """
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation: an in-memory stream
        raw = stream.read(limit + 1) or b""
        return _bounded(raw, limit, what)
    return _read_fd(fd, limit, what)


def _read_fd(fd: int, limit: int, what: str) -> bytes:
    try:
        info = os.fstat(fd)
    except OSError as exc:
        raise _unreadable(exc, what) from None
    if stat.S_ISDIR(info.st_mode):
        raise EventError(f"stdin is a directory: pipe the {what} on stdin")
    if stat.S_ISREG(info.st_mode) and info.st_size > limit:  # refused before reading
        raise EventError(f"{what} larger than the limit of {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        try:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - size))
        except BlockingIOError:  # O_NONBLOCK and nothing yet: wait for data or end of file
            _wait_readable(fd)
            continue
        except OSError as exc:
            raise _unreadable(exc, what) from None
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return _bounded(b"".join(chunks), limit, what)


def _wait_readable(fd: int) -> None:
    import select  # only for the rare non-blocking stdin

    poller = select.poll()
    poller.register(fd, select.POLLIN)
    poller.poll()  # readable, or the writer closed (POLLHUP): the next read tells which


def _bounded(raw: bytes, limit: int, what: str) -> bytes:
    if len(raw) > limit:
        raise EventError(f"{what} larger than the limit of {limit} bytes")
    return raw


def _unreadable(exc: OSError, what: str) -> EventError:
    """Why stdin cannot be read, in words for the person who started us."""
    if exc.errno == errno.EBADF:
        why = "stdin is not open for reading (closed, or opened write-only as with 0>FILE)"
    elif exc.errno == errno.EISDIR:
        why = "stdin is a directory"
    else:
        why = f"stdin cannot be read: {exc.strerror or exc}"
    return EventError(f"{why}: pipe the {what} on stdin")
