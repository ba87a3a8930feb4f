"""Reading a file that someone else may have planted: a regular file, of bounded size.

A cloned project decides what ``.forge/hooks.json`` is: a symlink to ``/dev/zero`` or
``/dev/urandom`` would grow a plain ``read()`` without end, a FIFO would block it
forever, a 1 GB file would cost gigabytes. So the file is opened without blocking
(``O_NONBLOCK``: a FIFO with no writer opens at once), ``fstat`` decides on the open
descriptor (no race with a swap of the path), and at most ``limit + 1`` bytes are read.
Symlinks are followed: a global hooks file linked from a dotfiles repository is normal.
"""

from __future__ import annotations

import os
import stat

from forge_hookd.errors import ConfigError

#: The largest hooks file read: about 100,000 hooks, far beyond any real config, and a
#: bound on what a planted file costs (bench/README.md has the figures).
MAX_CONFIG_BYTES = 4 * 1024 * 1024

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words: "a FIFO", "a directory" ..."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_regular(path: str | os.PathLike[str], *, limit: int = MAX_CONFIG_BYTES) -> bytes | None:
    """The bytes of the regular file at ``path``; None when nothing is there.

    Raises :class:`ConfigError` for anything else (a FIFO, a device, a directory, a file
    over ``limit`` bytes, an unreadable one), in bounded time and memory.
    """
    where = os.fspath(path)
    try:
        fd = os.open(where, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror}", path=where) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"not read: it is {kind_of(info.st_mode)}, not a regular file", path=where)
        if info.st_size > limit:
            raise ConfigError(f"not read: {info.st_size} bytes, over the limit of {limit}", path=where)
        return _read_at_most(fd, limit, where)
    finally:
        os.close(fd)


def _read_at_most(fd: int, limit: int, where: str) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        try:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
        except OSError as exc:
            raise ConfigError(f"cannot read: {exc.strerror}", path=where) from None
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:  # it grew since fstat
            raise ConfigError(f"not read: over the limit of {limit} bytes", path=where)
