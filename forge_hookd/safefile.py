"""Writing files so that nothing is ever lost and nothing is left behind.

- Through symlinks: the file written is the real file a link points to (a dotfiles-style
  ``hooks.json -> dotfiles/hooks.json`` stays a link, and the dotfiles copy changes).
- The lock is an ``flock`` on the real file's *directory*: nothing is created for it, so
  nothing lies beside a project's hooks file for ``git add -A`` to pick up, no lock file
  outlives its holder (the kernel drops the lock when the holder dies, even by SIGKILL),
  and every path to the same directory (links, bind mounts) meets the same lock. Where a
  directory cannot be flocked (NFS), a lock file in ``$XDG_RUNTIME_DIR/forge-hook-UID``.
- A lock held by another process is waited for a bounded time (``FORGE_LOCK_TIMEOUT``
  seconds, 10 by default), said once on the ``forge_hookd`` logger, then
  :class:`LockTimeout`.
- New content goes to ``.NAME.PID.RANDOM.tmp`` beside the real file, is fsynced and
  renamed over it; the directory is fsynced. Readers see the old bytes or the new.
  Temporaries of that naming whose writer is gone (killed mid-write) are removed by the
  next write.
- A write the machine refuses (a full disk, a read-only directory) raises ``OSError``
  naming the file and saying it is unchanged; no temporary file is left.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

StrPath = str | os.PathLike[str]

LOCK_TIMEOUT_VAR = "FORGE_LOCK_TIMEOUT"
DEFAULT_LOCK_TIMEOUT = 10.0
_LOCK_POLL = 0.05
_LEGACY_TEMP_AGE = 60.0  # seconds; temporaries of old versions carry no writer pid
# Locks this process holds: (st_dev, st_ino, thread) -> depth. flock locks belong to an
# open file description, so a second open of the same directory in the same thread would
# wait for itself (update_file locks, then write_atomically locks again).
_held: dict[tuple[int, int, int], int] = {}


def write_all(write: Callable[[memoryview], int], data: bytes) -> None:
    """Every byte of ``data`` through ``write`` (``os.write`` on a descriptor, a binary
    stream's ``write``): a signal during a large write, or a disk filling up mid-line,
    returns a short count, and the rest must still go (found by soak.py)."""
    view = memoryview(data)
    while view:
        view = view[write(view):]


class LockTimeout(TimeoutError):
    """Another process held the lock on ``filename`` for longer than we wait."""


def real_path(path: StrPath) -> str:
    """The file that writing ``path`` must change: symlinks resolved, absolute."""
    return os.path.realpath(path)


def lock_timeout() -> float:
    """``$FORGE_LOCK_TIMEOUT`` seconds (not negative), else 10."""
    try:
        return max(float(os.environ.get(LOCK_TIMEOUT_VAR, "")), 0.0)
    except ValueError:
        return DEFAULT_LOCK_TIMEOUT


@contextmanager
def locked(path: StrPath) -> Iterator[None]:
    """An exclusive lock for writing ``path``: an flock on its real directory, reentrant
    within a thread. Raises :class:`LockTimeout` after :func:`lock_timeout` seconds."""

    target = real_path(path)
    directory = os.path.dirname(target)
    _make_directory(directory, target)
    st = os.stat(directory)
    key = (st.st_dev, st.st_ino, threading.get_ident())
    if key in _held:
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    fd = _lock_descriptor(directory)
    try:
        _flock_bounded(fd, target)
        _held[key] = 1
        try:
            yield
        finally:
            del _held[key]
    finally:
        os.close(fd)  # releases the flock


def _lock_descriptor(directory: str) -> int:
    """The directory, opened to be flocked; where the file system cannot flock a
    directory (NFS emulates flock with fcntl locks, which need a file open for writing),
    a lock file in our own runtime directory instead, keyed by the directory: it keeps
    out writers on this machine, and still leaves nothing beside the file."""
    import fcntl  # 0.25 ms, only when a file is written (bench/README.md, "tricks.py")

    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return fd
    except BlockingIOError:
        return fd  # it can be locked: someone holds it
    except OSError:
        os.close(fd)
    return os.open(_fallback_lock_path(directory), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)


def _fallback_lock_path(directory: str) -> str:
    # Paid only where a directory cannot be flocked (NFS): hashlib loads OpenSSL (6.4 ms),
    # tempfile 9 ms (bench/README.md, "tricks.py").
    import hashlib
    import tempfile

    base = os.path.join(os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir(), f"forge-hook-{os.getuid()}")
    try:
        os.mkdir(base, 0o700)
    except FileExistsError:
        pass
    st = os.lstat(base)  # in a shared /tmp it must be ours and private, not someone's trap
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise PermissionError(errno.EACCES, "not a private directory of ours; cannot lock there", base)
    return os.path.join(base, hashlib.sha256(os.fsencode(directory)).hexdigest()[:32] + ".lock")


def _flock_bounded(fd: int, target: str) -> None:
    import fcntl  # as in _lock_descriptor

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pass
    timeout = lock_timeout()
    _say_waiting(fd, target, timeout)
    deadline = time.monotonic() + timeout
    while True:
        # Polling, not a blocking flock: a blocking one could only be bounded by SIGALRM,
        # and the library does not own the process's signals.
        time.sleep(min(_LOCK_POLL, max(deadline - time.monotonic(), 0.0)))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise LockTimeout(errno.ETIMEDOUT, f"gave up after {timeout:g} s waiting for the lock, "
                                  f"held by {_holder_name(fd)} (the file is unchanged)", target) from None


def _say_waiting(fd: int, target: str, timeout: float) -> None:
    import logging  # 12 ms, only while waiting for a lock (bench/README.md, "tricks.py")

    logging.getLogger("forge_hookd").warning(
        "waiting for the lock on %s, held by %s (giving up in %g s)", target, _holder_name(fd), timeout)


def _holder_name(fd: int) -> str:
    """``another forge-hook (pid N)`` as far as /proc/locks tells."""
    st = os.fstat(fd)
    where = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open("/proc/locks") as fh:
            pids = [fields[4] for fields in map(str.split, fh)
                    if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == where]
    except OSError:
        pids = []
    return f"another process (pid {pids[0]})" if pids and pids[0].isdigit() else "another process"


def write_atomically(path: StrPath, content: bytes, *, shared: bool = False) -> None:
    """Replace the real file behind ``path`` by ``content``, under its lock.

    A temporary file beside it, fsynced, renamed over it; the file keeps its permission
    bits; the directory is fsynced so that the rename survives a crash. Stale
    temporaries of ours are removed first. A file that does not exist yet is created
    0600 (a trust record, a state file), or with ``shared`` as any new file of the user
    is (0666 less the umask: a project's hooks file or an agent's settings, which may be
    committed and read by the user's other tools).
    """
    import tempfile  # 9 ms, only when a file is written (bench/README.md, "tricks.py")

    target = real_path(path)
    directory, name = os.path.split(target)
    with locked(target):
        _remove_stale_temporaries(directory, name)
        try:
            fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.{os.getpid()}.", suffix=".tmp")
        except OSError as exc:
            raise _unchanged(exc, target) from exc
        try:
            _fill(fd, tmp, content, target, shared=shared)
            os.replace(tmp, target)
        except BaseException as exc:
            _unlink_quietly(tmp)
            if isinstance(exc, OSError):
                raise _unchanged(exc, target) from exc
            raise
        _fsync_directory(directory)


def _fill(fd: int, tmp: str, content: bytes, target: str, *, shared: bool) -> None:
    try:
        write_all(lambda view: os.write(fd, view), content)
        os.fsync(fd)
        if os.path.exists(target):
            os.fchmod(fd, os.stat(target).st_mode & 0o7777)
        elif shared:  # set before the rename: the file never exists with other bits
            os.fchmod(fd, 0o666 & ~umask())
    finally:
        os.close(fd)


def umask() -> int:
    """The process's umask, read without changing it (``os.umask`` can only be read by
    setting it, which another thread of a library caller could meet half-way)."""
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # pragma: no cover - a kernel before 4.7, or no /proc
    os.umask(mask)  # pragma: no cover
    return mask  # pragma: no cover


def _fsync_directory(directory: str) -> None:
    dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _make_directory(directory: str, target: str) -> None:
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise _unchanged(exc, target) from exc


def _unchanged(exc: OSError, target: str) -> OSError:
    """``exc`` (same errno, same subclass) naming the file and saying it is unchanged."""
    return OSError(exc.errno, f"cannot write: {exc.strerror} (the file is unchanged)", target)


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _remove_stale_temporaries(directory: str, name: str) -> None:
    """Remove ``.NAME.PID.RANDOM.tmp`` files whose writer is gone (killed mid-write).

    Called under the lock, which every writer holds as long as its temporary exists, so
    a temporary seen here is already stale; the pid check is a second safeguard. Old
    versions named them ``.NAME.RANDOM.tmp`` (no pid): those go once a minute old.
    """

    pattern = re.compile(rf"\.{re.escape(name)}\.(?:(\d+)\.)?[a-z0-9_]{{8}}\.tmp")
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return  # best effort: the write that follows says what is wrong
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match is None or not entry.is_file(follow_symlinks=False):
            continue
        pid = match.group(1)
        stale = (not _process_alive(int(pid)) if pid is not None
                 else time.time() - entry.stat(follow_symlinks=False).st_mtime > _LEGACY_TEMP_AGE)
        if stale:
            _unlink_quietly(entry.path)


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    # A zombie still answers kill(0) but writes nothing any more.
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rpartition(b")")[2].split()[0] != b"Z"
    except (OSError, IndexError):
        return True
