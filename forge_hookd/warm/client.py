"""The warm client: forge-hook-run's first step, which hands the run to the resident
runner (:mod:`forge_hookd.warm.runner`, DESIGN.md "Warm runner") when one is up.

The whole point is to cost less than the run it saves, so this module imports only
modules built into the interpreter (``_socket``, ``_signal``, ``posix``, ``sys``): under
the installer's ``python -I -S`` launcher even ``os`` is not loaded yet, and importing
it costs 1.7 ms; ``from __future__ import annotations`` alone costs 0.25 ms, so the
annotations here name builtins only (bench/README.md, "warm.py").

It also owns the wire format, which both ends import from here: first the worker's
hello (``H forge-warm/2``, said as soon as a worker accepted the connection: no
descriptor is passed to a runner that has not said it is alive, issue 33 item 4), then
one request (fields joined by NUL, after a 4-byte length) with the client's stdin,
stdout, stderr and working directory as descriptors (SCM_RIGHTS), so that a tty check,
EPIPE and the working directory are exactly the client's; then lines: ``A PID`` (the worker took the
run, and stdin with it), ``R WHY`` (refused: run cold), ``K SIGNUM`` (the client relays a
signal), ``Q`` (the worker's barrier: relay every signal you got so far, then say ``G``),
``X STATUS`` or ``S SIGNUM`` (how the worker ended, from the worker itself or from the
runner, which reaped it).
"""

import _socket
import posix
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy knows this name; _signal has no stubs, and is signal's core
    import signal as _signal
    from collections.abc import Mapping
else:
    import _signal

# The signals a cold run answers (its document and 128+n), relayed to the worker so that
# the run answers them as a cold run would: one list, built from _signal too.
from forge_hookd.signalnames import catch_runner_signals, name_of

PROTOCOL = b"forge-warm/2"
#: The worker's first line, as soon as it accepted the connection.
HELLO = b"H " + PROTOCOL
#: How long a client waits for a sign of life: the hello, else the runner's answer to
#: ``ping`` on its control socket (then it waits for the hello again: a run queued
#: behind others on a busy machine is not a reason to go cold). A runner that gives
#: neither within it (stopped, stuck, a stale socket that listens) costs a cold run, and
#: no signal is held longer. Tens of milliseconds: a runner's loop that is alive answers
#: within one scheduling round even at load; build.py gives the native client this one.
ALIVE_WAIT_MS = 50
#: A runner that misses a ping but is runnable (R) or in the disk's hands (D) is busy,
#: not dead: on a loaded machine (load 11 on 2 cores) its loop missed 50 ms a few times in
#: 100 concurrent events. Waited for, so long as it stays so, up to this many rounds
#: (2 s at least): a runner that spins without answering costs a cold run too.
BUSY_ROUNDS = 40
RUNNER_SOCKET = b"runner.sock"
CONTROL_SOCKET = b"control.sock"
LOCK_FILE = b"runner.lock"
#: Under the state directory: present while ``forge-hook warm on`` is in force.
ENABLED_MARK = b"forge/warm-%s.on"
#: The longest request accepted: argv and environment are bounded by ARG_MAX (2 MiB
#: here) when they reach us through exec; this leaves room for a generous one.
MAX_REQUEST = 16 * 1024 * 1024
#: The descriptors a run request carries: stdin, stdout, stderr, working directory.
PASSED_FDS = 4

_FS = sys.getfilesystemencoding()


# -- where -------------------------------------------------------------------------------
def install_tag(package_dir: bytes | None = None) -> bytes:
    """This installation's name among the user's (issue 33, item 3): each install has
    its own runner, socket directory and "warm on" mark, so that a second install (another
    prefix, a test run) neither finds the first's runner stale nor stops it. Ten hex
    digits of FNV-1a over the package directory's path: no hash module to import (a
    client of built-in modules only), and build.py gives the native client this one."""
    value = 0xCBF29CE484222325
    for byte in package_dir if package_dir is not None else _package_dir():
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return b"%010x" % (value >> 24)


def _package_dir() -> bytes:
    return __file__.rsplit("/", 2)[0].encode(_FS, "surrogateescape")  # forge_hookd/, not warm/


def runtime_dir(environ: "Mapping[bytes, bytes]") -> bytes:
    """``$FORGE_WARM_DIR``, else ``$XDG_RUNTIME_DIR/forge-TAG``, else ``forge-UID-TAG``
    in the system's temporary directory (``$TMPDIR``, else ``/tmp``), TAG this install's
    (:func:`install_tag`); each only when absolute (a relative one would name another
    directory for each working directory)."""
    named = environ.get(b"FORGE_WARM_DIR")
    if named and named.startswith(b"/"):
        return named
    run = environ.get(b"XDG_RUNTIME_DIR")
    if run and run.startswith(b"/"):
        return run + b"/forge-" + install_tag()
    tmp = environ.get(b"TMPDIR")
    return (tmp if tmp and tmp.startswith(b"/") else b"/tmp") + b"/forge-%d-" % posix.getuid() + install_tag()


def enabled_mark(environ: "Mapping[bytes, bytes]") -> bytes:
    """The file whose presence says ``forge-hook warm on`` is in force for this install."""
    state = environ.get(b"XDG_STATE_HOME")
    if not state:
        home = environ.get(b"HOME") or b"/"
        state = home + b"/.local/state"
    return state + b"/" + ENABLED_MARK % install_tag()


def private_dir_problem(path: bytes) -> str | None:
    """Why ``path`` is not a directory only this user can enter (None when it is): the
    runner's socket is trusted with whole runs, so it must be nobody else's to plant."""
    try:
        st = posix.lstat(path)
    except OSError as exc:
        return f"{path.decode(_FS, 'replace')}: {exc.strerror}"
    if st.st_mode & 0o170000 != 0o040000:
        return f"{path.decode(_FS, 'replace')} is not a directory"
    if st.st_uid != posix.getuid():
        return f"{path.decode(_FS, 'replace')} belongs to uid {st.st_uid}, not to us ({posix.getuid()})"
    if st.st_mode & 0o077:
        return f"{path.decode(_FS, 'replace')} is open to others (mode {st.st_mode & 0o777:o}, not 700)"
    return None


def code_key() -> bytes:
    """What makes a runner able to serve this client: the same package directory, as it
    is now (a reinstall or an edit that renames a file changes its inode or mtime), and
    the same interpreter. A runner whose key differs is stale (another version)."""
    here = _package_dir()
    st = posix.stat(here)
    return b"%s:%d:%d:%d" % (here, st.st_ino, st.st_mtime_ns, sys.hexversion)


# -- the request -------------------------------------------------------------------------
def encode_request(verb: bytes, key: bytes, argv: list[str], environ: "Mapping[bytes, bytes]", umask: int) -> bytes:
    """One request: length, then PROTOCOL, key, verb, umask, argc, argv..., KEY=VALUE..."""
    fields = [PROTOCOL, key, verb, b"%d" % umask, b"%d" % len(argv)]
    fields += [arg.encode(_FS, "surrogateescape") for arg in argv]
    fields += [name + b"=" + value for name, value in environ.items()]
    payload = b"\0".join(fields)
    return len(payload).to_bytes(4, "big") + payload


def decode_request(payload: bytes) -> tuple[bytes, bytes, bytes, int, list[str], dict[bytes, bytes]]:
    """``(protocol, key, verb, umask, argv, environ)`` of a request's payload; ValueError
    when it is not one."""
    fields = payload.split(b"\0")
    if len(fields) < 5 or fields[0] != PROTOCOL:
        raise ValueError("not a forge-warm/2 request")
    argc = int(fields[4])
    if argc < 0 or 5 + argc > len(fields):
        raise ValueError("bad argument count")
    argv = [arg.decode(_FS, "surrogateescape") for arg in fields[5:5 + argc]]
    environ: dict[bytes, bytes] = {}
    for entry in fields[5 + argc:]:
        name, sep, value = entry.partition(b"=")
        if sep and name:  # the first of a name, as the interpreter builds os.environ
            environ.setdefault(name, value)
    return fields[0], fields[1], fields[2], int(fields[3], 10), argv, environ


# -- the client --------------------------------------------------------------------------
class _Cold(Exception):
    """The run is to be cold, and why (said under --trace)."""


class Broken(Exception):
    """The runner took the run (and stdin) and then failed to finish it."""


def serve_warm(argv: list[str]) -> int | None:
    """The exit status of this run, served by the resident runner; None when the run
    is to be cold (no runner, a stale or refusing one, one that broke before it took
    stdin: a note says why under --trace). Raises :class:`Broken` when the runner broke
    after it took stdin, which cannot be read twice (the caller answers the failure).
    Never leaves a descriptor open."""
    environ = posix.environ
    native_why = take_native_note(COLD_NOTE)  # first: never left for the run's hooks
    if environ.get(b"FORGE_WARM") == b"0":
        return None
    directory = runtime_dir(environ)
    try:
        if native_why is not None:  # the native client tried already (warm/client.c)
            raise _Cold(native_why)
        return _Client(directory, argv, environ).run()
    except _Cold as why:
        if environ.get(b"FORGE_WARM_REQUIRED") == b"1":
            raise Broken(f"a resident runner is required (FORGE_WARM_REQUIRED=1) but: {why}") from None
        _start_if_enabled(environ, directory)
        if "--trace" in argv or environ.get(b"FORGE_TRACE") == b"1":
            _note(f"warm: {why}; running cold")
        return None


#: What the native client (warm/client.c) says when it execs the Python launcher: the
#: run is cold, and why; or the runner broke after it took the run, and how.
COLD_NOTE = b"_FORGE_WARM_COLD"
BROKEN_NOTE = b"_FORGE_WARM_BROKEN"


def take_native_note(name: bytes) -> str | None:
    """The native client's note ``name``, removed from the environment (the run's and
    its hooks' is the caller's, as the native client was given it); None when absent."""
    value = posix.environ.pop(name, None)
    if value is None:
        return None
    posix.unsetenv(name)
    loaded_os = sys.modules.get("os")  # pip's script loaded os, whose environ is a copy
    if loaded_os is not None:
        loaded_os.environ.pop(name.decode(_FS, "surrogateescape"), None)
    return value.decode(_FS, "surrogateescape")


def _note(text: str) -> None:
    line = f"forge-hook-run: {text}\n".encode("utf-8", "replace")
    try:
        posix.write(2, line)
    except OSError:
        pass


class _Client:
    """One run handed to the runner: connect, send, wait, relay signals."""

    def __init__(self, directory: bytes, argv: list[str], environ: "Mapping[bytes, bytes]") -> None:
        self.directory, self.argv, self.environ = directory, argv, environ
        self.sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM | _socket.SOCK_CLOEXEC)
        self.buffer = b""
        self.relayed = 0
        self.accepted = False  # the worker took the run: signals go to it
        self.held: list[int] = []  # signals that came before it did
        self.runner_pid = 0  # who listens on the socket (SO_PEERCRED)

    def run(self) -> int:
        problem = private_dir_problem(self.directory)
        if problem is not None:
            raise _Cold(f"no resident runner ({problem})")
        try:
            return self._run()
        finally:
            self.sock.close()

    def _run(self) -> int:
        self._connect()
        self._await_hello()
        # From the request on, a signal is the worker's to answer once it took the run
        # (and stdin): never answered here as well, which would put two documents on
        # stdout. Until the worker says it took the run, a signal is only held.
        previous = catch_runner_signals(self._relay)
        try:
            self._send()
            line = self._line()
            if line.startswith(b"R "):
                raise _Cold(f"the resident runner refused: {line[2:].decode('utf-8', 'replace')}")
            if not line.startswith(b"A "):
                raise _Cold("the resident runner closed the connection before taking the run")
        except _Cold:
            # The run will be cold: a signal held meanwhile is answered as before the
            # request, by the handler it came to (the start-up's: the document, 128+n).
            for signum, handler in previous.items():
                _signal.signal(signum, handler)
            for signum in self.held:
                posix.kill(posix.getpid(), signum)
            raise
        self.accepted = True
        for signum in self.held:
            self._tell(b"K %d\n" % signum)
        return self._wait_status()

    def _connect(self) -> None:
        self.sock.settimeout(ALIVE_WAIT_MS / 1000)  # a full backlog is not waited on
        try:
            self.sock.connect(self.directory + b"/" + RUNNER_SOCKET)
        except BlockingIOError:
            raise _Cold("the resident runner's queue is full") from None
        except (OSError, ValueError) as exc:  # ValueError: no such socket; path too long
            raise _Cold(f"no resident runner ({getattr(exc, 'strerror', None) or exc})") from None
        # The runner checks our uid; we check its (SO_PEERCRED: pid, uid, gid of who listens).
        cred = self.sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
        self.runner_pid = int.from_bytes(cred[0:4], sys.byteorder, signed=True)
        uid = int.from_bytes(cred[4:8], sys.byteorder, signed=True)
        if uid != posix.getuid():
            raise _Cold(f"the resident runner's socket is another user's (uid {uid}), not ours ({posix.getuid()})")

    def _await_hello(self) -> None:
        """Until a worker says hello: ALIVE_WAIT_MS at a time, each wait renewed only by
        the runner's own answer to ``ping`` (it is alive: the run is queued)."""
        busy = 0
        while b"\n" not in self.buffer:
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                if _pong(self.directory):
                    continue
                busy += 1
                if busy > BUSY_ROUNDS or _state(self.runner_pid) not in (b"R", b"D"):
                    raise _Cold(f"the resident runner did not answer within {ALIVE_WAIT_MS} ms") from None
                continue
            except OSError:
                data = b""
            if not data:
                break
            self.buffer += data
        self.sock.settimeout(None)
        line = self._line()
        if line != HELLO:
            if line.startswith(b"R "):
                raise _Cold(f"the resident runner refused: {line[2:].decode('utf-8', 'replace')}")
            raise _Cold("the resident runner closed the connection before it said hello")

    def _send(self) -> None:
        umask = posix.umask(0o022)
        posix.umask(umask)
        request = encode_request(b"run", code_key(), self.argv, self.environ, umask)
        try:  # O_PATH: a working directory we may not read is still one to run in
            cwd = posix.open(".", posix.O_PATH | posix.O_DIRECTORY | posix.O_CLOEXEC)
        except OSError as exc:
            raise _Cold(f"cannot open the working directory ({exc.strerror})") from None
        try:
            fds = b"".join(fd.to_bytes(4, sys.byteorder) for fd in (0, 1, 2, cwd))
            sent = self.sock.sendmsg([request], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fds)])
            if sent < len(request):
                # Only then: sending nothing to a peer that closed is EPIPE too, and a worker
                # may take a small request, run it and close before we get here: that run
                # must not be taken for a refusal and run again cold (found by 36 clients at
                # once, test_runlog).
                self.sock.sendall(request[sent:])
        except OSError as exc:  # it may have said why before it closed
            said = self._line()
            if said.startswith(b"A "):  # it took the run all the same: never run it twice
                self.buffer = said + b"\n" + self.buffer
                return
            why = said[2:].decode("utf-8", "replace") if said.startswith(b"R ") else exc.strerror or str(exc)
            raise _Cold(f"the resident runner went away ({why})") from None
        finally:
            posix.close(cwd)

    def _line(self) -> bytes:
        """The runner's next line; b"" at end of file."""
        while b"\n" not in self.buffer:
            try:
                data = self.sock.recv(4096)
            except OSError:
                data = b""
            if not data:
                return b""
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def _wait_status(self) -> int:
        line = self._line()
        while line == b"Q":  # the worker's barrier: every signal so far, then "G"
            self._answer_barrier()
            line = self._line()
        number = int(line[2:]) if line[2:].isdigit() and len(line) <= 5 else -1  # 0-255, else not a runner's
        if line.startswith(b"X ") and number >= 0:
            return number
        if line.startswith(b"S ") and number > 0:
            signum = number
            if signum == self.relayed:  # it died of the signal we were sent: so do we
                _signal.signal(signum, _signal.SIG_DFL)
                posix.kill(posix.getpid(), signum)
            raise Broken(f"the resident runner's worker was killed by {name_of(signum)} in the middle of the run")
        raise Broken("the resident runner ended in the middle of the run")

    def _answer_barrier(self) -> None:
        # A method call of its own on purpose: Python runs a pending signal's handler as a
        # function starts, so a signal that came with the "Q" is relayed (K) before the G.
        self._tell(b"G\n")

    def _relay(self, signum: int, frame: object) -> None:
        self.relayed = signum
        if self.accepted:
            self._tell(b"K %d\n" % signum)
        elif signum not in self.held:
            self.held.append(signum)

    def _tell(self, line: bytes) -> None:
        try:
            self.sock.sendall(line)
        except OSError:
            pass


def _state(pid: int) -> bytes:
    """The kernel's one-letter state of ``pid`` (R running or runnable, S sleeping, T
    stopped...); b"" when it is gone or cannot be read."""
    try:
        fd = posix.open(b"/proc/%d/stat" % pid, posix.O_RDONLY | posix.O_CLOEXEC)
    except OSError:
        return b""
    try:
        fields = posix.read(fd, 4096).rpartition(b")")[2].split()
    except OSError:
        fields = []
    finally:
        posix.close(fd)
    return fields[0] if fields else b""


def _pong(directory: bytes) -> bool:
    """Whether the runner's own loop answers ``ping`` on its control socket within
    ALIVE_WAIT_MS: it is alive and not stopping (its workers are only busy)."""
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM | _socket.SOCK_CLOEXEC)
    sock.settimeout(ALIVE_WAIT_MS / 1000)
    try:
        sock.connect(directory + b"/" + CONTROL_SOCKET)
        sock.sendall(b"ping\n")
        return sock.recv(16) == b"pong\n"
    except OSError:  # TimeoutError too
        return False
    finally:
        sock.close()


# -- starting the runner again -----------------------------------------------------------
_BOOT = "import sys; sys.path[:0] = sys.argv[1:]; import forge_hookd.__main__ as m; sys.exit(m.serve_resident())"


def _start_if_enabled(environ: "Mapping[bytes, bytes]", directory: bytes) -> None:
    """When ``forge-hook warm on`` is in force, start the runner in the background for
    the next event (this one runs cold: it never waits for the start). A runner that
    finds another one up exits at once, so many clients at once start one runner."""
    try:
        posix.stat(enabled_mark(environ))
    except OSError:
        return
    if private_dir_problem(directory) is not None and not _make_private_dir(directory):
        return
    try:
        spawn_runner(environ)
    except OSError:
        return


def spawn_runner(environ: "Mapping[bytes, bytes]") -> int:
    """Start the resident runner in the background, in its own session, its standard
    streams /dev/null; its pid. It outlives the caller, which never waits for it."""
    package_parent = __file__.rsplit("/", 3)[0]  # above forge_hookd/warm/client.py
    return posix.posix_spawn(
        sys.executable, [sys.executable, "-I", "-S", "-c", _BOOT, package_parent, *sys.path],
        environ, setsid=True,
        file_actions=[(posix.POSIX_SPAWN_OPEN, 0, "/dev/null", posix.O_RDWR, 0),
                      (posix.POSIX_SPAWN_DUP2, 0, 1), (posix.POSIX_SPAWN_DUP2, 0, 2)])


def _make_private_dir(directory: bytes) -> bool:
    try:
        posix.mkdir(directory, 0o700)
    except OSError:
        return False
    return private_dir_problem(directory) is None
