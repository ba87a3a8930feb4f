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
import sys
import time
from typing import NoReturn

from forge_hookd.warm import client as wire
from forge_hookd.run.proctable import direct_children
from forge_hookd.run.tree import TreeEnd, become_subreaper, tree_members
from forge_hookd.warm.context import Context, context_of
from forge_hookd.warm.log import RunnerLog
from forge_hookd.warm.watch import CodeWatch
from forge_hookd.warm.worker import REFUSED, ColdEntry, Spare, default_signals, peer_of, stdio_key, use_entry

#: Seconds without a request after which the runner exits (FORGE_WARM_IDLE overrides);
#: the client starts it again on the next event while ``forge-hook warm on`` holds.
DEFAULT_IDLE = 3600.0
#: Spare workers kept forked and warmed up (warmworker.py): two, so that two events at
#: once (an agent running hooks in parallel) both find one ready.
SPARES = 2
_CONTROL_TIMEOUT = 2.0
_STEP = 0.05
_RESPAWN_PAUSE = 1.0  # after a spare died unused: a crash loop must not be a fork loop


def main(entry: ColdEntry) -> int:
    """Run the resident runner in the foreground, its workers running ``entry``'s cold
    run (``forge_hookd.__main__.serve_resident`` calls this: the client and ``forge-hook
    warm on`` start it detached); 0 when another one is up."""
    use_entry(entry)
    os.closerange(3, _fd_limit())  # nothing the starter held open lives on in us
    directory = os.fsdecode(wire.runtime_dir(os.environb))
    runner = Runner(directory)
    return runner.serve()


def _fd_limit() -> int:
    import resource

    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return 65536 if soft == resource.RLIM_INFINITY else min(soft, 1 << 20)


def preload() -> None:
    """Import every module of the package and its subpackages (whatever a run may import,
    under whatever name it has), psutil, and fill the caches a run would fill."""
    import importlib
    import re

    import psutil  # noqa: F401 - ending trees

    from forge_hookd.log import redact

    from forge_hookd.log import record as runrecord

    top = os.path.dirname(os.path.dirname(__file__))  # the package, not this wing
    for directory, subdirectories, files in os.walk(top):
        subdirectories[:] = sorted(d for d in subdirectories if os.path.exists(os.path.join(directory, d, "__init__.py")))
        relative = os.path.relpath(directory, top)
        prefix = ".".join(["forge_hookd", *([] if relative == "." else relative.split(os.sep))])
        for name in sorted(files):
            if name.endswith(".py") and name != "__main__.py":
                importlib.import_module(prefix if name == "__init__.py" else f"{prefix}.{name[:-3]}")
    runrecord.forge_version()
    for rule in getattr(redact, "_RULES", ()):  # compiled lazily per process; here once for every worker
        rule.compiled = re.compile(rule.pattern, re.VERBOSE | re.DOTALL)
    warm_guards()
    become_subreaper()  # also loads the prctl symbol


#: What every guard judges once in the runner: a command and a file edit that each lets
#: through (so every one judges it whole), under directories that do not exist. Not the
#: benches' events: the parse of the last few commands stays cached, and a worker must
#: not find the bench's own parse done for it.
_GUARD_SAMPLES = (("bash", {"command": "cd src && ls -la && git diff --stat && git log -1 && npm run lint "
                                       "&& python -m pytest -q"}),
                  ("write", {"file_path": "/nonexistent/forge-warm/src/a.py", "content": "x = 1\n"}))


def warm_guards() -> None:
    """Judge the samples with every guard, as a run judges them (run/guardhook.py), so
    that what the first judgement builds is built here, once, for every worker: the
    guard instances and the option checks of entries without options (guardhook's and
    guards.problems' caches: with the redaction's shortcut, a worker's run of a pack
    event took 13.2 -> 12.5 ms of CPU, bench/README.md,
    "Built-in guards in a resident runner's worker"), the patterns compiled on first use
    and the shell parser's tables. The whole pack judged
    the samples in 1.34 ms the first time in a process and 0.70 ms the second (other
    directories, new guard instances). The caches this fills hold guards, compiled
    patterns and the samples' parse, nothing of a project."""
    from forge_hookd.events import EventType, HookEvent
    from forge_hookd.guards import GUARDS
    from forge_hookd.registry import Hook
    from forge_hookd.run.guardhook import EventJudge

    env = {"HOME": "/nonexistent/forge-warm-home"}
    for tool, args in _GUARD_SAMPLES:
        judge = EventJudge(HookEvent(EventType.TOOL_PRE_EXECUTE, tool_name=tool, data={"tool_args": args}),
                           project_root="/nonexistent/forge-warm", env=env)
        for name in GUARDS:
            judge.answer(Hook("tool:pre_execute", guard=name))


class Runner:
    """The resident runner of one directory (its sockets, lock and workers)."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.runner_path = os.path.join(directory, os.fsdecode(wire.RUNNER_SOCKET))
        self.control_path = os.path.join(directory, os.fsdecode(wire.CONTROL_SOCKET))
        self.key = b""
        self.started = time.time()
        self.served = 0
        self.refused = 0  # runs a worker refused (stale, another context...): cold in their client
        self.pinged = 0  # clients that waited for a hello longer than ALIVE_WAIT_MS, and asked
        self.watch = CodeWatch()
        self.context: Context = {}  # ours, which every worker has: a client's must be the same
        self.workers: dict[int, socket.socket] = {}  # pid -> the client's connection
        self.spares: dict[int, socket.socket] = {}  # pid -> our end of its line to us
        self.retiring: set[int] = set()  # spares told to go, not reaped yet: we wait for them
        self.next_spare = 0.0
        self.unused_deaths = 0  # spares that died unused since one last took a run
        self.spared: set[int] = set()  # what clean workers' detach hooks left: theirs to keep
        self.shipper = 0  # the child shipping the export spool, 0 when none
        self.shipper_told = False  # whether the stopping runner has told it to end
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
        self.lock = -1

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
        self.lock = lock
        preload()
        self.key = wire.code_key()
        self.watch.start()
        self.context = context_of("self")
        self._listen()
        self._install_signals()
        gc.collect()
        gc.freeze()  # what the preload made is never collected: workers share its pages
        self.log.write(f"started: pid {os.getpid()}, version {_version()}, socket {self.runner_path}, "
                       f"idle exit after {self.idle:g} s")
        try:
            while not (self.stopping and not self.workers and not self.spares and not self.retiring
                       and not self.ending and not self.shipper):
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
        self.selector.register(self.control, selectors.EVENT_READ, self._accept_control)
        self.selector.register(self.wake_r, selectors.EVENT_READ, self._on_signal)
        if self.watch.fd >= 0:
            self.selector.register(self.watch.fd, selectors.EVENT_READ, self._code_changed)

    def _install_signals(self) -> None:
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, _nothing)
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, self._on_stop_signal)

    def _on_stop_signal(self, signum: int, frame: object) -> None:
        self.stopping = self.stopping or f"received {signal.Signals(signum).name}"

    def _turn(self) -> None:
        self._keep_spares()
        for key, _ in self.selector.select(self._timeout()):
            key.data()
        self._reap()
        self.ending = [end for end in self.ending if not end.step()]
        if self.stopping and self.listener is not None:
            self._close_listeners()
        if self.stopping and self.shipper and not self.shipper_told:  # what it did not send stays spooled
            self.shipper_told = True  # once: the reap that follows its exit clears the shipper
            try:
                os.kill(self.shipper, signal.SIGTERM)
            except ProcessLookupError:
                pass
        if not self.stopping and not self.workers and time.monotonic() - self.last_active > self.idle:
            self.stopping = f"idle for {self.idle:g} s"
        if not self.stopping and (wire.code_key() != self.key or self.watch.changed()):
            self._code_changed()

    def _code_changed(self) -> None:
        # Never read: the event stays queued, and every spare that checks sees it.
        if self.watch.fd >= 0 and self.watch.fd in self.selector.get_map():
            self.selector.unregister(self.watch.fd)
        self.stopping = self.stopping or "stale: the installed forge changed"

    def _timeout(self) -> float:
        if self.ending or self.stopping or len(self.spares) < SPARES:
            return _STEP
        return max(_STEP, self.idle - (time.monotonic() - self.last_active))

    def _close_listeners(self) -> None:
        for sock, path in ((self.listener, self.runner_path), (self.control, self.control_path)):
            if sock is None:
                continue
            if sock is self.control:  # the runner socket is the spares' to watch, not ours
                self.selector.unregister(sock)
            sock.close()
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        self.listener = self.control = None
        for pid in list(self.spares):  # end of file on their line: they exit
            self._drop_spare(pid)

    def _on_signal(self) -> None:
        try:
            while os.read(self.wake_r, 4096):
                pass
        except BlockingIOError:
            pass

    # -- spares and runs --------------------------------------------------------------
    def _keep_spares(self) -> None:
        while (len(self.spares) < SPARES and self.listener is not None and not self.stopping
               and time.monotonic() >= self.next_spare):
            if not self._fork_spare():
                self.next_spare = time.monotonic() + _RESPAWN_PAUSE
                return

    def _fork_spare(self) -> bool:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET | socket.SOCK_CLOEXEC)
        try:
            pid = os.fork()
        except OSError as exc:  # clients wait in the backlog until a spare is there
            self.log.write(f"cannot fork a worker: {exc.strerror}")
            ours.close()
            theirs.close()
            return False
        if pid == 0:
            ours.close()
            self._become_spare(theirs)
        theirs.close()
        self.spares[pid] = ours
        self.selector.register(ours, selectors.EVENT_READ, lambda: self._from_spare(pid, ours))
        return True

    def _become_spare(self, pair: socket.socket) -> NoReturn:
        status = REFUSED
        try:
            assert self.listener is not None
            listener = self.listener
            self.listener = None  # kept open: the spare accepts on it
            self._leave_the_runner()
            status = Spare(listener, pair, self.key, self.stdio, self.watch, self.context).serve()
        finally:
            os._exit(status)

    def _leave_the_runner(self) -> None:
        """In a new spare: drop every descriptor and handler that is the runner's."""
        signal.set_wakeup_fd(-1)
        default_signals()
        self.selector.close()
        for sock in (self.listener, self.control, *self.workers.values(), *self.spares.values()):
            if sock is not None:
                sock.close()
        os.close(self.wake_r)
        os.close(self.wake_w)
        # The lock is the runner's life: a worker that held it (a flock lives as long as
        # any descriptor of it) kept a killed runner from being started again until its
        # run ended (issue 33, item 2).
        os.close(self.lock)
        self.log.close()

    def _from_spare(self, pid: int, ours: socket.socket) -> None:
        """A spare's message: it took a connection (``T`` and the connection, which we
        keep to report how the run ended), or refused a peer of another uid."""
        try:
            message, ancillary, _, _ = ours.recvmsg(64, socket.CMSG_SPACE(4))
        except OSError:
            message, ancillary = b"", []
        fds = [int.from_bytes(blob[:4], sys.byteorder) for level, kind, blob in ancillary
               if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS and len(blob) >= 4]
        if message.startswith(b"R "):
            client, uid = message[2:].split()[:2]
            self.log.write(f"refused a connection from uid {int(uid)} (pid {int(client)}): "
                           f"this runner serves uid {os.getuid()} only")
        elif message == b"T" and fds:
            self.last_active = time.monotonic()
            self.unused_deaths = 0
            self.workers[pid] = socket.socket(fileno=fds.pop())
            self._drop_spare(pid, retire=False)
        else:  # it died unused (end of file): reaped below
            self._spare_died(pid)
        for fd in fds:
            os.close(fd)

    def _spare_died(self, pid: int) -> None:
        self._drop_spare(pid)
        if self.stopping:
            return
        # Another at once; a pause only when spares keep dying unused (a crash loop must
        # not be a fork loop), so no event waits on a pause for one that died by accident.
        self.unused_deaths += 1
        pause = _RESPAWN_PAUSE if self.unused_deaths > SPARES else 0.0
        self.log.write(f"a spare worker (pid {pid}) ended unused; another in {pause:g} s")
        self.next_spare = time.monotonic() + pause

    def _drop_spare(self, pid: int, *, retire: bool = True) -> None:
        """Close our line to a spare (it then exits); ``retire``: it is not a worker, and
        is waited for like one (an orphan of ours would be someone else's to reap)."""
        ours = self.spares.pop(pid, None)
        if ours is not None:
            self.selector.unregister(ours)
            ours.close()
            if retire:
                self.retiring.add(pid)

    def _reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            # A spare may have taken a run, served it and exited between our select and
            # this reap: what it said before it died is read first, so that a served run
            # is never taken for a spare that died unused (issue 33, item 5).
            while pid in self.spares:
                self._from_spare(pid, self.spares[pid])
            conn = self.workers.pop(pid, None)
            if conn is not None:
                self._report(pid, conn, os.waitstatus_to_exitcode(status))
            elif pid == self.shipper:
                self.shipper = 0
            else:
                self.retiring.discard(pid)

    def _report(self, pid: int, conn: socket.socket, code: int) -> None:
        """Tell the client how its worker ended; end what a worker that died left."""
        self.last_active = time.monotonic()
        if code != REFUSED:
            self.served += 1
        else:
            self.refused += 1
        try:  # a worker that finished said so itself: then this line is never read
            conn.sendall(b"X %d\n" % code if code >= 0 else b"S %d\n" % -code)
        except OSError:
            pass  # the client went away: nobody to tell
        conn.close()
        left = (direct_children() - self.workers.keys() - self.spares.keys() - self.retiring - self.spared
                - {self.shipper})
        if code >= 0:
            self.spared |= left  # a clean worker ended all but its detach hooks' processes
        elif left:
            self.log.write(f"worker {pid} was killed by signal {-code}; ending the "
                           f"{len(left)} process{'es' if len(left) != 1 else ''} it left")
            end = TreeEnd(lambda look: tree_members(sorted(left), look=look), None, 1.0)
            if not end.start():
                self.ending.append(end)
        self.spared &= direct_children()
        if code != REFUSED:
            self._ship_spool()

    def _ship_spool(self) -> None:
        """Ship the export spool after a run, in a child (issue 35, item 4): the client
        has its answer already, and a collector that does not answer holds only that
        child, for at most :data:`SHIP_LIMIT` seconds (what it did not send stays spooled)."""
        if self.shipper or self.stopping or not spooled():
            return
        try:
            pid = os.fork()
        except OSError as exc:
            self.log.write(f"cannot fork to ship the export spool: {exc.strerror}")
            return
        if pid == 0:
            status = 1
            try:
                self._leave_the_runner()
                signal.alarm(SHIP_LIMIT)  # SIGALRM's default action ends it
                status = ship_spool()
            finally:
                os._exit(status)
        self.shipper = pid

    # -- control -------------------------------------------------------------------
    def _accept_control(self) -> None:
        """Every connection waiting on the control socket, answered in this turn (up to
        :data:`_CONTROL_BATCH`): clients whose runs queue ping, and one answer a turn (a
        turn may fork a spare) left pings waiting past ALIVE_WAIT_MS, each sending its
        client cold (bench/README.md, "concurrency.py")."""
        assert self.control is not None
        for _ in range(_CONTROL_BATCH):
            try:
                conn, _ = self.control.accept()
            except (BlockingIOError, InterruptedError):
                return
            self._answer_control(conn)

    def _answer_control(self, conn: socket.socket) -> None:
        with conn:
            peer = peer_of(conn)
            if peer is None or peer[1] != os.getuid():
                self.log.write(f"refused a control connection from uid {peer[1] if peer else '?'}")
                return
            conn.settimeout(_CONTROL_TIMEOUT)
            try:
                verb = conn.recv(64).strip()
                conn.sendall(self._answer(verb))
            except OSError:
                return

    def _answer(self, verb: bytes) -> bytes:
        import orjson

        if verb == b"ping":  # a client's question while its hello is late (client._pong)
            self.pinged += 1
            return b"pong\n" if not self.stopping else b"stopping\n"
        if verb == b"stop":
            self.stopping = self.stopping or "asked to stop (forge-hook warm off)"
        return orjson.dumps(self.status()) + b"\n"

    def status(self) -> dict[str, object]:
        import resource

        # CPU seconds of the runner and of its reaped workers (with their hooks): what
        # the runs it served cost besides their clients (bench/warm.py reads it).
        cpu = {who: round(usage.ru_utime + usage.ru_stime, 6) for who, usage in
               (("runner", resource.getrusage(resource.RUSAGE_SELF)),
                ("workers", resource.getrusage(resource.RUSAGE_CHILDREN)))}
        return {"state": "stopping" if self.stopping else "up", "pid": os.getpid(),
                "since": self.started, "served": self.served, "refused": self.refused, "pinged": self.pinged, "running": len(self.workers),
                "version": _version(), "key": self.key.decode(errors="replace"),
                "socket": self.runner_path, "idle_exit": self.idle, "cpu": cpu}


def spooled() -> bool:
    """Whether records wait in the export spool (one stat after each run)."""
    from forge_hookd.log.spool import spool_path

    try:
        return os.stat(spool_path()).st_size > 0
    except OSError:
        return False


def ship_spool() -> int:
    """In the shipping child: what ``forge-hook export`` does, its error into the runner log."""
    from forge_hookd.log import export

    setting, _ = export.configured(os.getcwd())
    if setting is None or (setting.syslog is None and setting.otlp is None):
        return 0  # spooled while an export was set, which is gone: forge-hook export says so
    shipped = export.ship(setting)
    if shipped.error is not None:
        RunnerLog().write(f"export: {shipped.error}; {shipped.left} records stay spooled")
        return 1
    return 0


#: The most control connections answered in one turn of the runner's loop: all that wait,
#: short of a flood that would keep it from its workers (the listen backlog is 128).
_CONTROL_BATCH = 64


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


#: The most a shipping child of the runner may take; then it is ended, and what it did not
#: send stays spooled for the next (each connection and request is bounded by 5 s too).
SHIP_LIMIT = 30


def _version() -> str:
    from forge_hookd.log.record import forge_version

    return forge_version()


def _nothing(signum: int, frame: object) -> None:
    """SIGCHLD: the wakeup descriptor wakes the loop, which reaps."""

