"""The resident runner (DESIGN.md, "Warm runner"): a per-user fork server.

It imports once everything a run may import, takes it out of the garbage collector's
reach (``gc.freeze``: forked workers share those pages instead of copying each one the
collector touches), and forks one worker per request. A worker is exactly a cold run:
it takes the client's stdin, stdout, stderr and working directory (descriptors passed
over the socket), environment, umask and argv, puts back what this process changed
(signal handlers, cached state), and calls what ``forge-hook-run`` calls,
:func:`forge_hookd.__main__.run_cold`. So config and trust are read on every event, and
every hook tree is ended on its own clock, by the same code as a cold run.

The runner reaps each worker and tells its client how it ended (``X STATUS`` or
``S SIGNUM``): whatever way a worker ends, its client learns the truth. A worker watches
its client: a signal the client relays is raised in the worker (the run answers it as a
cold run would); a client that goes away (an agent's own timeout killed it) ends the
run's trees at once. Workers are child subreapers of what they spawn; the runner is one
too, and ends what a worker that died left behind.

Only the user's own processes are served: the socket lives in a directory only the user
can enter, and the peer's uid is checked on every connection. The runner writes a log
of its starts and stops (``warm.log`` in the state directory), never hook output.
"""

from __future__ import annotations

import gc
import os
import selectors
import signal
import socket
import struct
import sys
import threading
import time
from collections.abc import Mapping
from typing import NoReturn

from . import warmclient as wire
from .tree import TreeEnd, _direct_children, become_subreaper, tree_members

#: Seconds without a request after which the runner exits (FORGE_WARM_IDLE overrides);
#: the client starts it again on the next event while ``forge-hook warm on`` holds.
DEFAULT_IDLE = 3600.0
#: Exit status of a worker that refused a request (stale client, other settings): never
#: one of a run's (0-5, 128+n), and not counted as served.
REFUSED = 254
_REQUEST_TIMEOUT = 10.0  # a client that connects and sends nothing does not hold a worker
_CONTROL_TIMEOUT = 2.0
_STEP = 0.05
_LOG_LIMIT = 1024 * 1024
_GONE_CLIENT_BACKSTOP = 30.0
#: The signals this process handles itself; a worker puts them back as a fresh Python has them.
_OWN_SIGNALS = (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
#: What decides Python's stdio encoding: a client whose settings would give another
#: one than the runner's is refused (it runs cold) instead of answered in the wrong one.
_STDIO_VARS = (b"LC_ALL", b"LC_CTYPE", b"LANG", b"PYTHONIOENCODING", b"PYTHONUTF8")


def main() -> int:
    """``python -m forge_hookd.warmd``: run the resident runner in the foreground (the
    client and ``forge-hook warm on`` start it detached); 0 when another one is up."""
    os.closerange(3, _fd_limit())  # nothing the starter held open lives on in us
    directory = os.fsdecode(wire.runtime_dir(os.environb))
    runner = Runner(directory)
    return runner.serve()


def _fd_limit() -> int:
    import resource

    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return 65536 if soft == resource.RLIM_INFINITY else min(soft, 1 << 20)


def preload() -> None:
    """Import everything a run may import, and fill the caches a run would fill."""
    import psutil  # noqa: F401 - ending trees
    import re

    from . import cli, dialect_cli, executor, observer, process, redact, runlog, runrecord, trace, trust  # noqa: F401
    from .dialects import NAMES, get

    for name in NAMES:
        get(name)
    runrecord.forge_version()
    for rule in redact._RULES:  # compiled lazily per process; here once for every worker
        rule.compiled = re.compile(rule.pattern, re.VERBOSE | re.DOTALL)
    become_subreaper()  # also loads the prctl symbol


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


class Runner:
    """The resident runner of one directory (its sockets, lock and workers)."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.runner_path = os.path.join(directory, os.fsdecode(wire.RUNNER_SOCKET))
        self.control_path = os.path.join(directory, os.fsdecode(wire.CONTROL_SOCKET))
        self.key = b""
        self.started = time.time()
        self.served = 0
        self.workers: dict[int, socket.socket] = {}
        self.spared: set[int] = set()  # what clean workers' detach hooks left: theirs to keep
        self.ending: list[TreeEnd] = []
        self.stopping = ""
        self.idle = _idle_seconds()
        self.last_active = time.monotonic()
        self.log = RunnerLog()
        self.stdio = stdio_key(os.environb)
        self.selector = selectors.DefaultSelector()
        self.listener: socket.socket | None = None
        self.control: socket.socket | None = None
        self.wake_r, self.wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    # -- life ----------------------------------------------------------------------
    def serve(self) -> int:
        problem = prepare_dir(self.directory)
        if problem is not None:
            self.log.write(f"not started: {problem}")
            print(f"forge-hook warm: not started: {problem}", file=sys.stderr)
            return 2
        lock = _lock(os.path.join(self.directory, os.fsdecode(wire.LOCK_FILE)))
        if lock is None:
            return 0  # another runner is up: it serves
        preload()
        self.key = wire.code_key()
        self._listen()
        self._install_signals()
        gc.collect()
        gc.freeze()  # what the preload made is never collected: workers share its pages
        self.log.write(f"started: pid {os.getpid()}, version {_version()}, socket {self.runner_path}, "
                       f"idle exit after {self.idle:g} s")
        try:
            while not (self.stopping and not self.workers and not self.ending):
                self._turn()
        finally:
            self._close_listeners()
            os.close(lock)
        self.log.write(f"stopped: {self.stopping}; served {self.served} run{'s' if self.served != 1 else ''}")
        return 0

    def _listen(self) -> None:
        for path in (self.runner_path, self.control_path):
            try:
                os.unlink(path)  # we hold the lock: what is there is a dead runner's
            except FileNotFoundError:
                pass
        self.listener = _bound(self.runner_path)
        self.control = _bound(self.control_path)
        self.selector.register(self.listener, selectors.EVENT_READ, self._accept_runs)
        self.selector.register(self.control, selectors.EVENT_READ, self._accept_control)
        self.selector.register(self.wake_r, selectors.EVENT_READ, self._on_signal)

    def _install_signals(self) -> None:
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, _nothing)
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, self._on_stop_signal)

    def _on_stop_signal(self, signum: int, frame: object) -> None:
        self.stopping = self.stopping or f"received {signal.Signals(signum).name}"

    def _turn(self) -> None:
        for key, _ in self.selector.select(self._timeout()):
            key.data()
        self._reap()
        self.ending = [end for end in self.ending if not end.step()]
        if self.stopping and self.listener is not None:
            self._close_listeners()
        if not self.stopping and not self.workers and time.monotonic() - self.last_active > self.idle:
            self.stopping = f"idle for {self.idle:g} s"
        if not self.stopping and wire.code_key() != self.key:
            self.stopping = "stale: the installed forge changed"

    def _timeout(self) -> float:
        if self.ending or self.stopping:
            return _STEP
        return max(_STEP, self.idle - (time.monotonic() - self.last_active))

    def _close_listeners(self) -> None:
        for sock, path in ((self.listener, self.runner_path), (self.control, self.control_path)):
            if sock is None:
                continue
            self.selector.unregister(sock)
            sock.close()
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        self.listener = self.control = None

    def _on_signal(self) -> None:
        try:
            while os.read(self.wake_r, 4096):
                pass
        except BlockingIOError:
            pass

    # -- runs ----------------------------------------------------------------------
    def _accept_runs(self) -> None:
        assert self.listener is not None
        try:
            conn, _ = self.listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        self.last_active = time.monotonic()
        peer = _peer(conn)
        if peer is None or peer[1] != os.getuid():
            self._refuse_peer(conn, peer)
            return
        try:
            pid = os.fork()
        except OSError as exc:  # the client sees the connection close and runs cold
            self.log.write(f"cannot fork a worker: {exc.strerror}")
            conn.close()
            return
        if pid == 0:
            self._become_worker(conn, peer[0])
        self.workers[pid] = conn

    def _refuse_peer(self, conn: socket.socket, peer: tuple[int, int] | None) -> None:
        who = f"uid {peer[1]} (pid {peer[0]})" if peer else "an unknown peer"
        self.log.write(f"refused a connection from {who}: this runner serves uid {os.getuid()} only")
        conn.close()

    def _become_worker(self, conn: socket.socket, client_pid: int) -> NoReturn:
        status = REFUSED
        try:
            self._leave_the_runner(conn)
            status = Worker(conn, client_pid, self.key, self.stdio).serve()
        finally:
            os._exit(status)

    def _leave_the_runner(self, conn: socket.socket) -> None:
        """In a new worker: drop every descriptor and handler that is the runner's."""
        signal.set_wakeup_fd(-1)
        for signum in _OWN_SIGNALS:
            signal.signal(signum, signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL)
        self.selector.close()
        for sock in (self.listener, self.control, *self.workers.values()):
            if sock is not None:
                sock.close()
        os.close(self.wake_r)
        os.close(self.wake_w)
        self.log.close()

    def _reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = self.workers.pop(pid, None)
            if conn is not None:
                self._report(pid, conn, os.waitstatus_to_exitcode(status))

    def _report(self, pid: int, conn: socket.socket, code: int) -> None:
        """Tell the client how its worker ended; end what a worker that died left."""
        self.last_active = time.monotonic()
        if code != REFUSED:
            self.served += 1
        try:
            conn.sendall(b"X %d\n" % code if code >= 0 else b"S %d\n" % -code)
        except OSError:
            pass  # the client went away: nobody to tell
        conn.close()
        left = _direct_children() - self.workers.keys() - self.spared
        if code >= 0:
            self.spared |= left  # a clean worker ended all but its detach hooks' processes
        elif left:
            self.log.write(f"worker {pid} was killed by signal {-code}; ending the "
                           f"{len(left)} process{'es' if len(left) != 1 else ''} it left")
            end = TreeEnd(lambda: tree_members(sorted(left)), None, 1.0)
            if not end.start():
                self.ending.append(end)
        self.spared &= _direct_children()

    # -- control -------------------------------------------------------------------
    def _accept_control(self) -> None:
        assert self.control is not None
        try:
            conn, _ = self.control.accept()
        except (BlockingIOError, InterruptedError):
            return
        with conn:
            peer = _peer(conn)
            if peer is None or peer[1] != os.getuid():
                self._refuse_peer(conn, peer)
                return
            conn.settimeout(_CONTROL_TIMEOUT)
            try:
                verb = conn.recv(64).strip()
                conn.sendall(self._answer(verb))
            except OSError:
                return

    def _answer(self, verb: bytes) -> bytes:
        import orjson

        if verb == b"stop":
            self.stopping = self.stopping or "asked to stop (forge-hook warm off)"
        return orjson.dumps(self.status()) + b"\n"

    def status(self) -> dict[str, object]:
        return {"state": "stopping" if self.stopping else "up", "pid": os.getpid(),
                "since": self.started, "served": self.served, "running": len(self.workers),
                "version": _version(), "key": self.key.decode(errors="replace"),
                "socket": self.runner_path, "idle_exit": self.idle}


class Worker:
    """One request, in a forked child of the runner: take the run over, run it cold."""

    def __init__(self, conn: socket.socket, client_pid: int, key: bytes, stdio: tuple[bytes, ...]) -> None:
        self.conn, self.client_pid, self.key, self.stdio = conn, client_pid, key, stdio

    def serve(self) -> int:
        self.conn.settimeout(_REQUEST_TIMEOUT)
        fds, payload = _receive(self.conn)
        try:
            why = self._refusal(fds, payload)
        except ValueError as exc:
            why = f"a malformed request ({exc})"
        if why is not None:
            for fd in fds:
                os.close(fd)
            self._send(b"R " + why.encode() + b"\n")
            return REFUSED
        _, _, _, umask, argv, environ = wire.decode_request(payload)
        self._take_over(fds, umask, argv, environ)
        self.conn.settimeout(None)
        self._send(b"A %d\n" % os.getpid())  # from here on stdin is ours: no going back
        _watch_client(self.conn)
        return _run()

    def _refusal(self, fds: list[int], payload: bytes) -> str | None:
        protocol, key, verb, _, _, environ = wire.decode_request(payload)
        if verb != b"run" or len(fds) != wire.PASSED_FDS:
            return "not a run request"
        if key != self.key:
            return "stale: the resident runner is another version of forge (forge-hook warm on restarts it)"
        if stdio_key(environ) != self.stdio:
            return "the locale or PYTHONIOENCODING differs from the resident runner's"
        return None

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


def _run() -> int:
    """The cold run's entry point, here; the status it returns, its streams flushed."""
    from .__main__ import run_cold

    try:
        status = run_cold()
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
    import tempfile

    from . import chain, tree

    tempfile.tempdir = None
    tree._subreaper = False
    chain.origin_pid = client_pid


def _watch_client(conn: socket.socket) -> None:
    """Relay the client's signals into this worker; when the client goes away, end the
    run at once (nobody reads its answer): as SIGTERM would, its output to /dev/null."""

    def watch() -> None:
        buffer = b""
        while True:
            try:
                data = conn.recv(64)
            except OSError:
                data = b""
            if not data:
                _client_gone()
                return
            buffer += data
            while b"\n" in buffer:
                line, _, buffer = buffer.partition(b"\n")
                signum = int(line[2:]) if line.startswith(b"K ") and line[2:].isdigit() else 0
                if signum in wire.RELAYED:
                    os.kill(os.getpid(), signum)

    threading.Thread(target=watch, name="forge-warm-client", daemon=True).start()


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


# -- helpers ---------------------------------------------------------------------------
def _receive(conn: socket.socket) -> tuple[list[int], bytes]:
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


def _peer(conn: socket.socket) -> tuple[int, int] | None:
    """(pid, uid) of the process at the other end, from the kernel (SO_PEERCRED)."""
    try:
        pid, uid, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
    except OSError:
        return None
    return pid, uid


def _bound(path: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC | socket.SOCK_NONBLOCK)
    old = os.umask(0o177)  # the socket file 0600, from the start
    try:
        sock.bind(path)
    finally:
        os.umask(old)
    sock.listen(128)
    return sock


def prepare_dir(directory: str) -> str | None:
    """Make the runner's directory (0700) if missing; why it cannot be used, else None."""
    try:
        os.mkdir(directory, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        return f"cannot make {directory}: {exc.strerror}"
    problem = wire.private_dir_problem(os.fsencode(directory))
    if problem is None and len(os.fsencode(directory)) + 1 + len(wire.CONTROL_SOCKET) > 107:
        problem = f"{directory} is too long a path for a socket (at most 94 bytes)"
    return problem


def _lock(path: str, wait: float = 5.0) -> int | None:
    """The runner's lock, held for its life; None when another runner holds it still
    after ``wait`` seconds (one that is retiring lets go within them)."""
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                return None
            time.sleep(_STEP)


def _idle_seconds() -> float:
    try:
        return max(float(os.environ.get("FORGE_WARM_IDLE", "")), 1.0)
    except ValueError:
        return DEFAULT_IDLE


def _version() -> str:
    from .runrecord import forge_version

    return forge_version()


def _nothing(signum: int, frame: object) -> None:
    """SIGCHLD: the wakeup descriptor wakes the loop, which reaps."""


class RunnerLog:
    """The runner's own log of starts and stops (never hook output): ``warm.log`` in
    ``${XDG_STATE_HOME:-~/.local/state}/forge``, one line each, kept under 1 MiB (the
    older half moves to ``warm.log.1``)."""

    def __init__(self) -> None:
        base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
        self.path = os.path.join(base, "forge", "warm.log")
        self.closed = False

    def write(self, message: str) -> None:
        if self.closed:
            return
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        line = f"{stamp} [{os.getpid()}] {message}\n".encode("utf-8", "replace")
        try:
            os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
            if os.path.exists(self.path) and os.path.getsize(self.path) > _LOG_LIMIT:
                os.replace(self.path, self.path + ".1")
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                os.write(fd, line)
            finally:
                os.close(fd)
        except OSError:
            pass  # a log that cannot be written never costs the runner

    def close(self) -> None:
        """In a worker: the runner's log is not the run's to write."""
        self.closed = True


if __name__ == "__main__":
    sys.exit(main())
