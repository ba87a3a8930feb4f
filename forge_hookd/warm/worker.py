"""The resident runner's workers (:mod:`forge_hookd.warm.runner`): each one forked ahead of
its request as a spare, warmed up, then the one cold run of the client that connects.

A spare is forked before any client needs it and does one run of nothing (no config, no
log, output to /dev/null) while no one waits: a forked process shares its parent's
memory until it writes to it, and a run writes to most of it (every object it touches
has its reference count changed), so the copying and the lazily built caches are paid
here instead of while a client waits (bench/README.md, "warm.py": a one-hook run in a
fresh fork took 12.3 ms of CPU, 6.9 ms after such a warm-up, on the loaded machine).
Then it waits on the runner's socket; the spare that accepts a connection checks the
peer's uid, hands the connection to the runner (which will report how the worker ended)
and becomes :class:`Worker`: it takes the client's streams, directory, umask,
environment, argv, resource limits, nice value and CPU affinity, and calls what
``forge-hook-run`` calls, :func:`forge_hookd.__main__.run_cold`.
"""

from __future__ import annotations

import os
import resource
import selectors
import signal
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable, Mapping

from forge_hookd.run import signals

from forge_hookd.warm import client as wire
from forge_hookd.signalnames import RUNNER_SIGNALS
from forge_hookd.run.tree import become_subreaper
from forge_hookd.warm.context import Context, difference
from forge_hookd.warm.log import RunnerLog
from forge_hookd.warm.watch import CodeWatch

#: Exit status of a worker that refused a request (stale client, other settings) and of
#: a spare that ends unused: never one of a run's (0-5, 128+n), and not counted as served.
REFUSED = 254
#: The signals the runner handles itself, and those a run ignores once it is done (cli.main's
#: ignore_late_signals): its children put them back as a fresh Python has them.
HANDLED_SIGNALS = (signal.SIGCHLD, *RUNNER_SIGNALS)
_REQUEST_TIMEOUT = 60.0  # a client that connects and sends nothing does not hold a worker for ever
_GONE_CLIENT_BACKSTOP = 30.0
#: What decides Python's stdio encoding: a client whose settings would give another
#: one than the runner's is refused (it runs cold) instead of answered in the wrong one.
_STDIO_VARS = (b"LC_ALL", b"LC_CTYPE", b"LANG", b"PYTHONIOENCODING", b"PYTHONUTF8")
#: The resource limits a worker takes from its client: every one this system has, by
#: number, each under its first name (RLIMIT_OFILE is RLIMIT_NOFILE).
_LIMITS: dict[int, str] = {}
for _name in sorted(name for name in dir(resource) if name.startswith("RLIMIT_")):
    _LIMITS.setdefault(getattr(resource, _name), _name)
_WARM_UP_ARGV = ["forge-hook-run", "--event", "session:start", "--no-global", "--no-project"]


def stdio_key(environ: Mapping[bytes, bytes]) -> tuple[bytes, ...]:
    """What in ``environ`` decides Python's stdio encoding, normalised: every UTF-8
    locale (and C, POSIX or none, which Python coerces to UTF-8) is one."""
    for name in (b"LC_ALL", b"LC_CTYPE", b"LANG"):
        value = environ.get(name)
        if value:
            break
    else:
        value = b""
    utf8 = value in (b"", b"C", b"POSIX") or value.lower().replace(b"-", b"").endswith(b"utf8")
    extra = tuple(environ.get(n, b"") for n in _STDIO_VARS[3:])
    return (b"utf-8" if utf8 else value, *extra)


def default_signals() -> None:
    """The runner's signals as a fresh interpreter has them."""
    for signum in HANDLED_SIGNALS:
        try:
            signal.signal(signum, signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL)
        except OSError:  # one the runner could not catch either (valgrind keeps SIGRTMAX)
            pass


class Spare:
    """A worker waiting for its request: ``listener`` is the runner's socket, ``pair``
    its line to the runner (end of file: the runner is gone, and so is the spare)."""

    def __init__(self, listener: socket.socket, pair: socket.socket, key: bytes, stdio: tuple[bytes, ...],
                 watch: CodeWatch, context: Context) -> None:
        self.listener, self.pair, self.key, self.stdio, self.watch = listener, pair, key, stdio, watch
        self.context = context

    def serve(self) -> int:
        warm_up()
        self.watch.cover()  # what the warm-up imported is served too
        taken = self._accept()
        if taken is None:
            return REFUSED
        return Worker(*taken, self.key, self.stdio, self.watch, self.context).serve()

    def _accept(self) -> tuple[socket.socket, int] | None:
        """The next connection of our own user, handed to the runner too; None when the
        runner went away first."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.listener, selectors.EVENT_READ)
            selector.register(self.pair, selectors.EVENT_READ)
            while True:
                ready = {key.fileobj for key, _ in selector.select()}
                if self.pair in ready:
                    return None  # the runner stops, or died: no request will come
                try:
                    conn, _ = self.listener.accept()
                except (BlockingIOError, InterruptedError):
                    continue  # another spare took it
                peer = peer_of(conn)
                if peer is None or peer[1] != os.getuid():
                    self._tell(b"R %d %d" % (peer or (0, -1)))
                    conn.close()
                    continue
                self._tell(b"T", conn.fileno())
                self.listener.close()
                self.pair.close()
                return conn, peer[0]

    def _tell(self, message: bytes, fd: int | None = None) -> None:
        """A message to the runner: ``T`` with the connection it will report to, or ``R
        PID UID`` for a peer refused."""
        rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fd.to_bytes(4, sys.byteorder))] if fd is not None else []
        try:
            self.pair.sendmsg([message], rights)
        except OSError:
            pass


def warm_up() -> None:
    """One run of nothing to /dev/null, no config read, no log written: the pages a run
    writes are copied and its lazy caches built before a client waits (module docstring)."""
    saved = [os.dup(1), os.dup(2)]
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)
    os.environ["FORGE_LOG"] = "0"
    sys.argv = list(_WARM_UP_ARGV)
    try:
        _run()
    finally:
        del os.environ["FORGE_LOG"]
        for target, fd in enumerate(saved, start=1):
            os.dup2(fd, target)
            os.close(fd)
        default_signals()  # the run ends ignoring them (cli.main's ignore_late_signals)


class Worker:
    """One request, in a forked child of the runner: take the run over, run it cold."""

    def __init__(self, conn: socket.socket, client_pid: int, key: bytes, stdio: tuple[bytes, ...],
                 watch: CodeWatch, context: Context) -> None:
        self.conn, self.client_pid, self.key, self.stdio, self.watch = conn, client_pid, key, stdio, watch
        self.context = context

    def serve(self) -> int:
        # A client confined more (or otherwise) than the runner runs cold, in its own
        # confinement: refused before its hello, so it passes no descriptor at all.
        why = difference(self.client_pid, self.context)
        if why is not None:
            self._send(b"R " + why.encode() + b"\n")
            _log_refusal(why)
            return REFUSED
        try:  # at once: no client passes its descriptors before this (issue 33, item 4)
            self.conn.sendall(wire.HELLO + b"\n")
        except OSError:  # it went cold meanwhile, and away
            return REFUSED
        self.conn.settimeout(_REQUEST_TIMEOUT)
        fds, payload = receive(self.conn)
        try:
            why = self._refusal(fds, payload) or take_limits(self.client_pid)
        except ValueError as exc:
            why = f"a malformed request ({exc})"
        if why is not None:
            for fd in fds:
                os.close(fd)
            self._send(b"R " + why.encode() + b"\n")
            _log_refusal(why)
            return REFUSED
        self.watch.close()
        _, _, _, umask, argv, environ = wire.decode_request(payload)
        self._take_over(fds, umask, argv, environ)
        self.conn.settimeout(None)
        self._send(b"A %d\n" % os.getpid())  # from here on stdin is ours: no going back
        client = _ClientLine(self.conn)
        client.watch()
        signals.set_barrier(client.barrier)
        status = _run()
        # Said here, the client is released as soon as the run is done, not after this
        # process is gone and the runner has reaped it (two wake-ups fewer on a busy
        # machine); the runner's report of the exit that follows is then one line too many,
        # which the client never reads. A worker that dies instead says nothing: the
        # runner's report is the client's answer.
        self._send(b"X %d\n" % status)
        return status

    def _refusal(self, fds: list[int], payload: bytes) -> str | None:
        protocol, key, verb, _, argv, environ = wire.decode_request(payload)
        if verb != b"run" or len(fds) != wire.PASSED_FDS:
            return "not a run request"
        if key != self.key:
            return "stale: the resident runner is another version of forge (forge-hook warm on restarts it)"
        # After the accept: a change its client saw made before it connected is queued by now.
        if self.watch.changed():
            return "stale: a module the resident runner loaded changed on disk (it restarts)"
        if stdio_key(environ) != self.stdio:
            return "the locale or PYTHONIOENCODING differs from the resident runner's"
        return names_the_clients_own(argv, environ)

    def _send(self, line: bytes) -> None:
        try:
            self.conn.sendall(line)
        except OSError:
            pass

    def _take_over(self, fds: list[int], umask: int, argv: list[str], environ: dict[bytes, bytes]) -> None:
        """Become the client's run: its streams, directory, umask, environment, argv;
        and put back what the runner's own state would leak into the run."""
        for target, fd in enumerate(fds[:3]):
            os.dup2(fd, target)
        os.fchdir(fds[3])
        for fd in fds:
            os.close(fd)
        os.umask(umask)
        os.environb.clear()
        os.environb.update(environ)
        sys.argv = argv
        _fresh_standard_streams()
        _fresh_caches(self.client_pid)
        become_subreaper()
        # From the moment the client relays signals (once it reads "A"), they are answered
        # as a cold run answers them before its command starts: the document and 128+n.
        _ENTRY.answer_signals()


#: Paths that name the process that opens them: in a worker they would be the worker's
#: (``--report /dev/fd/3`` wrote the document to the worker's descriptor 3: lost, exit 0).
_SELF_PATHS = ("/dev/fd/", "/proc/self/", "/proc/thread-self/")


def names_the_clients_own(argv: list[str], environ: Mapping[bytes, bytes]) -> str | None:
    """Why the run is the client's to do (an argument or a FORGE_ variable names its own
    descriptors or process, which only a cold run opens as its own); None when none does.
    /dev/fd/0-2 are the client's in the worker too (passed), and stay warm."""
    values = [*argv[1:], *(value.decode(errors="replace") for name, value in environ.items()
                           if name.startswith(b"FORGE_"))]
    joined = "\0".join(values)
    if not any(prefix in joined for prefix in _SELF_PATHS):  # the usual answer, at once
        return None
    for value in values:
        for prefix in _SELF_PATHS:
            at = value.find(prefix)
            rest = value[at + len(prefix):] if at >= 0 else ""
            if at >= 0 and rest not in ("0", "1", "2"):
                return f"{value!r} names the client's own descriptors or process"
    return None


def take_limits(client_pid: int) -> str | None:
    """Make this worker's bounds the client's, as a cold run inherits them: its resource
    limits (a file size limit, the open files an agent raised its own to...), nice value
    and CPU affinity. None when done, else why not: a bound only privilege could give
    (a limit above ours, a lower nice value), or a client gone; the run is then cold, in
    the client, within its own."""
    for which, name in _LIMITS.items():
        try:
            theirs = resource.prlimit(client_pid, which)
        except OSError as exc:
            return f"cannot read the client's {name} ({exc.strerror})"
        if theirs == resource.getrlimit(which):
            continue
        try:
            resource.setrlimit(which, theirs)
        except (OSError, ValueError):
            return f"the client's {name} {theirs} is beyond what the resident runner may set"
    try:
        nice = os.getpriority(os.PRIO_PROCESS, client_pid)
        if nice != os.getpriority(os.PRIO_PROCESS, 0):
            os.setpriority(os.PRIO_PROCESS, 0, nice)
        cpus = os.sched_getaffinity(client_pid)
        if cpus != os.sched_getaffinity(0):
            os.sched_setaffinity(0, cpus)
    except OSError as exc:
        return f"cannot take the client's nice value or CPU affinity ({exc.strerror})"
    return None


class ColdEntry:
    """The entry point's two steps of a cold run, handed down by the entry point that
    started the runner (``forge_hookd.__main__.serve_resident``): a daemon imports the
    run, never the entry script (STYLE 36). ``run`` is the cold run, its exit status;
    ``answer_signals`` answers signals as a cold run does before its command starts."""

    __slots__ = ("run", "answer_signals")

    def __init__(self, run: Callable[[], int], answer_signals: Callable[[], None]) -> None:
        self.run, self.answer_signals = run, answer_signals


def _no_entry() -> int:
    raise RuntimeError("the resident runner was started without the cold run (use forge_hookd.__main__.serve_resident)")


_ENTRY = ColdEntry(_no_entry, lambda: None)


def use_entry(entry: ColdEntry) -> None:
    """Set the cold run every worker of this runner runs (once, before the first fork)."""
    global _ENTRY
    _ENTRY = entry


def _run() -> int:
    """The cold run's entry point, here; the status it returns, its streams flushed."""
    try:
        status = _ENTRY.run()
    except SystemExit as exc:  # as the interpreter would turn it into a status
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    return status


def _fresh_standard_streams() -> None:
    """sys.stdin, stdout and stderr over the client's descriptors, made as Python makes
    them at start-up: stdout line-buffered only on a terminal (the runner's own are
    /dev/null); the encoding is the runner's, which the client's settings match."""
    import io

    def stream(fd: int, mode: str, errors: str | None, line_buffering: bool) -> io.TextIOWrapper:
        raw = io.FileIO(fd, mode, closefd=False)
        buffered = io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
        return io.TextIOWrapper(buffered, encoding=sys.stdout.encoding, errors=errors,
                                line_buffering=line_buffering)

    sys.stdin = stream(0, "r", sys.stdin.errors, False)
    sys.stdout = stream(1, "w", sys.stdout.errors, os.isatty(1))
    sys.stderr = stream(2, "w", "backslashreplace", True)


def _fresh_caches(client_pid: int) -> None:
    """What the runner's process cached that a cold run would compute from its own
    environment and place: the temporary directory, the subreaper flag (not inherited
    by fork), and whose ancestry the circular-trigger guard walks (the client's: the
    worker's parent is the runner)."""
    from forge_hookd.run import nesting as chain
    from forge_hookd.run import tree

    # Only when something imported it: importing it here cost every run 3 to 5 ms (a
    # third of a warm run's own time, measured in the worker); a run that imports it
    # later computes the directory from the client's environment itself.
    tempfile = sys.modules.get("tempfile")
    if tempfile is not None:
        tempfile.tempdir = None  # type: ignore[attr-defined]
    tree.forget_subreaper()
    chain.set_origin(client_pid)


class _ClientLine:
    """The worker's end of the connection while the run goes on: the client's relayed
    signals (``K SIGNUM``) are raised here; its end of file means it is gone (nobody
    reads the answer: the run ends at once, as on SIGTERM, its output to /dev/null); and
    :meth:`barrier` asks it (``Q``) for every signal it got before now, which it relays
    before it answers (``G``): the run's :func:`forge_hookd.run.signals.settle`."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        # Held until the client's "G" releases it. A plain lock, not an Event: a relayed
        # signal's handler raises out of the wait, and from inside Event.wait it would
        # leave the condition's lock half-released.
        self.answered = threading.Lock()
        self.answered.acquire()

    def watch(self) -> None:
        threading.Thread(target=self._read, name="forge-warm-client", daemon=True).start()

    def barrier(self) -> None:
        try:
            self.conn.sendall(b"Q\n")
        except OSError:
            return  # gone: the reader ends the run
        self.answered.acquire()

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                data = self.conn.recv(64)
            except OSError:
                data = b""
            if not data:
                self._release()
                _client_gone()
                return
            buffer += data
            while b"\n" in buffer:
                line, _, buffer = buffer.partition(b"\n")
                if line == b"G":
                    self._release()
                    continue
                signum = int(line[2:]) if line.startswith(b"K ") and line[2:].isdigit() else 0
                if signum in RUNNER_SIGNALS:
                    # To the process, so to its main thread (the kernel gives the leader
                    # first choice): its wait, for stdin or for "G", ends in the handler.
                    os.kill(os.getpid(), signum)

    def _release(self) -> None:
        try:
            self.answered.release()
        except RuntimeError:  # not held: no barrier waits
            pass


def _client_gone() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)
    os.kill(os.getpid(), signal.SIGTERM)
    # The run ends its trees (SIGTERM, a grace, SIGKILL: seconds) and exits; should it
    # hang anyway, this bounds it. A daemon thread: it dies with a run that ended.
    time.sleep(_GONE_CLIENT_BACKSTOP)
    os._exit(128 + signal.SIGTERM)


def receive(conn: socket.socket) -> tuple[list[int], bytes]:
    """The request's descriptors and payload ([] and b"" when the client sent none)."""
    fds: list[int] = []
    try:
        data, ancillary, flags, _ = conn.recvmsg(65536, socket.CMSG_SPACE(4 * wire.PASSED_FDS))
    except OSError:
        return fds, b""
    for level, kind, blob in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds += [int.from_bytes(blob[i:i + 4], sys.byteorder) for i in range(0, len(blob) - len(blob) % 4, 4)]
    if flags & socket.MSG_CTRUNC or len(data) < 4:
        return fds, b""
    size = int.from_bytes(data[:4], "big")
    if size > wire.MAX_REQUEST:
        return fds, b""
    payload = bytearray(data[4:])
    try:
        while len(payload) < size:
            chunk = conn.recv(min(1 << 20, size - len(payload)))
            if not chunk:
                return fds, b""
            payload += chunk
    except OSError:
        return fds, b""
    return fds, bytes(payload)


def peer_of(conn: socket.socket) -> tuple[int, int] | None:
    """(pid, uid) of the process at the other end, from the kernel (SO_PEERCRED)."""
    try:
        pid, uid, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
    except OSError:
        return None
    return pid, uid


def _log_refusal(why: str) -> None:
    RunnerLog().write(f"refused a run: {why}")
