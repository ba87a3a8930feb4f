"""Writing files so that nothing is ever lost: a lock beside the file, a temporary file
in the same directory, fsync, rename. Readers see the old bytes or the new, never half."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

StrPath = str | os.PathLike[str]


@contextmanager
def locked(path: StrPath) -> Iterator[None]:
    """An exclusive lock on ``path``, held through ``path.lock`` beside it."""
    import fcntl

    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fd = os.open(f"{os.fspath(path)}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def write_atomically(path: StrPath, content: bytes) -> None:
    """Write a temporary file beside ``path``, fsync it, rename it over ``path``.

    The file keeps its permission bits; the directory is fsynced so that the rename
    survives a crash.
    """
    import tempfile

    directory, name = os.path.split(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(content)
            fh.flush()
            os.fsync(fh.fileno())
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    dir_fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
