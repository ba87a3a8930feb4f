"""Whether any module the resident runner loaded has changed since it loaded it (issue 33,
item 6): the runner serves the code it imported, so a module replaced on disk (an
upgrade, ``git checkout`` in an editable install, an edit by write-then-rename or in
place) makes it stale, and the next run cold.

An inotify instance watches the directory of every module file the runner holds (30
directories for 262 files here): a change to any entry of one of them queues an event
in the kernel during the very system call that made it. Nobody ever reads the events:
the instance being readable *is* the answer, so a worker that checks it (one ``poll``,
a few microseconds) after it accepted a client sees every change its client could have
seen before it connected. Stat-ing the 262 files instead took 2.4 ms a request on this
machine at load 8, a third of a warm run. Where inotify is refused (no instances left),
the runner falls back to that list of (path, inode, mtime, size), checked in full.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

# <sys/inotify.h>: what changes a file in place or replaces one. Not a creation alone:
# an interpreter run with -I (the launcher, a runner started by warm on) makes the
# __pycache__ directories that PYTHONDONTWRITEBYTECODE kept out, and that must not make
# every runner of the install stale; a module created and written is a modification
# too, and a new wing changes the package directory's mtime, which is in the key.
_IN_MODIFY, _IN_ATTRIB, _IN_MOVED_FROM, _IN_MOVED_TO = 0x2, 0x4, 0x40, 0x80
_IN_DELETE, _IN_DELETE_SELF, _IN_MOVE_SELF = 0x200, 0x400, 0x800
_IN_CLOEXEC, _IN_NONBLOCK = 0o2000000, 0o4000
_MASK = _IN_MODIFY | _IN_ATTRIB | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_DELETE | _IN_DELETE_SELF | _IN_MOVE_SELF

Identity = tuple[int, int, int, int]  # device, inode, mtime_ns, size


def loaded_files() -> list[str]:
    """The file of every module loaded now (source or extension), absolute."""
    found = set()
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and os.path.isabs(path):
            found.add(path)
    return sorted(found)


def _identity(path: str) -> Identity | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size


class CodeWatch:
    """The loaded modules' files, watched: :meth:`changed` says whether any changed."""

    def __init__(self) -> None:
        self.fd = -1
        self.dirs: set[str] = set()
        self.files: dict[str, Identity | None] = {}
        self.why = ""

    def start(self, extra_dirs: Iterable[str] = ()) -> None:
        """Watch what is loaded now (and ``extra_dirs``); the files are recorded too,
        for :meth:`changed` where inotify is refused."""
        self.fd = _inotify_init()
        self.cover(extra_dirs)

    def cover(self, extra_dirs: Iterable[str] = ()) -> None:
        """Watch also what was loaded since (a spare's warm-up imports a few more)."""
        files = [path for path in loaded_files() if path not in self.files]
        for path in files:
            self.files[path] = _identity(path)
        for directory in sorted({os.path.dirname(path) for path in files} | set(extra_dirs)):
            if directory not in self.dirs and self.fd >= 0 and _add_watch(self.fd, directory) < 0:
                os.close(self.fd)  # a directory not watched: check every file instead
                self.fd = -1
            self.dirs.add(directory)

    def changed(self) -> bool:
        """Whether any loaded module's file (or a watched directory) changed."""
        if self.fd >= 0:
            import select

            poller = select.poll()
            poller.register(self.fd, select.POLLIN)
            return bool(poller.poll(0))
        return any(_identity(path) != known for path, known in self.files.items())

    def close(self) -> None:
        """In a worker that has checked: the run does not need it."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _libc_call(name: str, *args: object) -> int:
    import ctypes

    function = getattr(ctypes.CDLL(None, use_errno=True), name)
    return int(function(*args))


def _inotify_init() -> int:
    try:
        return _libc_call("inotify_init1", _IN_CLOEXEC | _IN_NONBLOCK)
    except (OSError, AttributeError):
        return -1


def _add_watch(fd: int, directory: str) -> int:
    try:
        return _libc_call("inotify_add_watch", fd, os.fsencode(directory), _MASK)
    except (OSError, AttributeError):
        return -1
