"""The ends of a run: a codec reads the caller's input and writes the run's answer in
the caller's protocol (STYLE 30). The forge protocol is codec zero (:class:`ForgeCodec`:
a forge event in, the JSON document out); each agent's dialect is another
(:class:`forge_hookd.run.dialectcodec.DialectCodec`). :mod:`forge_hookd.run.pipeline` runs
between them and knows neither.

Every codec has the same four verbs: :meth:`~Codec.read` the input, :meth:`~Codec.reply`
to a run's outcome (what the caller will read, and the exit status), :meth:`~Codec.send`
that reply, and :meth:`~Codec.fail`: answer a failure of the run itself (bad input, a
``--strict`` config error, a bug, a signal before any hook ran).
"""

from __future__ import annotations

import errno
import os
import stat
from typing import TYPE_CHECKING, Any, BinaryIO

import orjson

from forge_hookd.errors import EventError, ExitStatus, UsageError, error_document, interrupted_status
from forge_hookd.events import HookEvent
from forge_hookd.results import describe_hook
from forge_hookd.run.signals import settle
from forge_hookd.signalnames import signal_name
from forge_hookd.text import json_bytes, one_line

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    from forge_hookd.registry import Hook
    from forge_hookd.results import HookRun

    # For the type checker only: creating a Protocol class costs 0.3 M instructions of
    # every run's start-up (bench/README.md, "tricks.py").
    class Codec(Protocol):
        """The verbs every protocol speaks at the run's ends (see the module docstring)."""

        def read(self, stdin: BinaryIO) -> Request: ...

        def reply(self, outcome: Outcome) -> Reply: ...

        def send(self, reply: Reply) -> None: ...

        def fail(self, kind: str, message: str, status: int) -> int: ...


MAX_EVENT_BYTES = 64 * 1024 * 1024
_EXIT_STATUS = {"allow": ExitStatus.PROCEED, "deny": ExitStatus.BLOCKED, "ask": ExitStatus.ASK}


# Plain classes, not dataclasses: a dataclass costs about 0.45 ms at import (bench/README.md,
# "tricks.py"), and this module is on the path of every event.
class Request:
    """What a codec read: the forge event (an agent's event without a forge type of its
    own is ``agent:native``), where the project root is looked for (an agent's ``cwd``),
    and the dialect that read it (None: the forge protocol)."""

    __slots__ = ("event", "start_dir", "dialect", "native_event")

    def __init__(self, event: HookEvent, *, start_dir: str | None = None,
                 dialect: str | None = None, native_event: str | None = None) -> None:
        self.event, self.start_dir, self.dialect, self.native_event = event, start_dir, dialect, native_event


class Outcome:
    """What one run produced, for the codec to answer: the run (None when no hook ran
    because the dry run stopped at matching), the
    hooks a dry run would run, and the document that says it all (the run log's too)."""

    __slots__ = ("request", "run", "dry_run", "document")

    def __init__(self, request: Request, document: dict[str, Any], *, run: HookRun | None = None,
                 dry_run: list[Hook] | None = None) -> None:
        self.request, self.document, self.run, self.dry_run = request, document, run, dry_run


class Reply:
    """What the caller will read: stdout bytes, lines for stderr, the exit status, and
    what the caller's form could not carry (a dialect's report says it)."""

    __slots__ = ("stdout", "stderr", "status", "dropped")

    def __init__(self, stdout: bytes, stderr: list[str], status: int, *, dropped: list[str] | None = None) -> None:
        self.stdout, self.stderr, self.status = stdout, stderr, status
        self.dropped = dropped or []


class ForgeCodec:
    """Codec zero, the forge protocol: one JSON event on stdin (or built from
    ``--event``), one JSON document on stdout, the decision in the exit status, and one
    verdict line on stderr for people. ``say`` writes a line for people (stderr),
    ``out`` the document (stdout).

    ``quiet`` (``-q``, for git hooks, Makefiles and terminals): no document at all, not
    even an error document; the verdict or error line on stderr and the exit status are
    the whole answer. This class is the one place that writes the document.
    """

    def __init__(self, say: Callable[[str], None], out: Callable[[bytes], None], *,
                 event: HookEvent | None = None, pretty: bool = False, quiet: bool = False) -> None:
        self.say, self.out, self.event, self.pretty, self.quiet = say, out, event, pretty, quiet
        self._document: dict[str, Any] = {}

    def read(self, stdin: BinaryIO) -> Request:
        if self.event is not None:
            return Request(self.event)
        if stdin.isatty():
            raise UsageError("no event: pipe one JSON event on stdin, or use --event TYPE")
        return Request(read_event(stdin))

    def reply(self, outcome: Outcome) -> Reply:
        """The exit status and the verdict line; the document is encoded when sent (the
        run log may add a warning to it first)."""
        self._document = outcome.document
        run = outcome.run
        if run is None:
            return Reply(b"", [], ExitStatus.PROCEED)
        status = interrupted_status(run.interrupted) if run.interrupted is not None else _EXIT_STATUS[run.decision]
        verdict = verdict_line(run)
        return Reply(b"", [verdict] if verdict else [], status)

    def send(self, reply: Reply) -> None:
        for line in reply.stderr:
            self.say(line)
        if not self.quiet:
            self.out(self._encoded(self._document))

    def fail(self, kind: str, message: str, status: int) -> int:
        self.say(f"error: {message}")
        if not self.quiet:
            self.out(json_bytes(error_document(kind, message)) + b"\n")
        return status

    def _encoded(self, document: dict[str, Any]) -> bytes:
        option = orjson.OPT_INDENT_2 if self.pretty else 0
        return json_bytes(document, option=option) + b"\n"


def read_event(stream: BinaryIO, *, limit: int | None = None) -> HookEvent:
    """One event from ``stream``, reading at most ``limit`` (64 MiB) + 1 bytes, whatever
    stdin is (non-blocking, write-only: stdinread.py)."""
    limit = MAX_EVENT_BYTES if limit is None else limit
    return HookEvent.from_json(read_input(stream, limit=limit, what="event"))


# -- reading stdin --------------------------------------------------------------------------
# One bounded reader for both codecs (the forge event here, an agent's payload in
# dialectcodec.py), whatever stdin turns out to be (issue 20, item 11). sys.stdin.buffer's
# read(n) fails in ways a caller cannot read as bad input: on a descriptor with O_NONBLOCK
# (inherited from a Node parent, which sets it on its pipes) it returns None, or what had
# arrived so far, and a truncated event is refused as invalid; on a descriptor opened
# write-only (0>FILE) it raises EBADF, which would be "internal" (exit 3). So the
# descriptor is read with os.read; on EAGAIN we wait with poll (never clearing O_NONBLOCK:
# the flag belongs to the open file description, which the parent shares); every refusal
# is an EventError naming what stdin is: exit 2, or the dialect's deny on events that can
# block. A directory as stdin never reaches us: CPython refuses it while starting ("<stdin>
# is a directory, cannot continue", exit 1) before any code of ours runs; the check below
# is for library callers that hand in such a descriptor.
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
    settle()  # a signal sent before stdin ended wins over acting on it, warm as cold
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


def event_from_options(event_type: str, tool: str | None, session_id: str | None,
                       data: str | None) -> HookEvent:
    """The event that ``--event/--tool/--session-id/--data`` describe. An empty
    ``--tool`` or ``--session-id`` (``"$SESSION"`` unset) is no value: null."""
    obj: dict[str, Any] = {"type": event_type, "tool_name": tool or None, "session_id": session_id or None}
    if data is not None:
        try:
            obj["data"] = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise EventError(f"--data is not valid JSON: {exc}") from None
    return HookEvent.from_dict(obj)


def verdict_line(run: HookRun) -> str | None:
    """The one line for people that says why a run did not simply allow."""
    blocker = run.blocked_by
    if run.interrupted is not None:
        return f"interrupted by {signal_name(-run.interrupted)}: running hooks were ended"
    if run.imposed is not None and run.imposed.reason is not None:  # forge's own deny: no hook made it
        return f"blocked by forge ({run.imposed.source}): {one_line(run.imposed.reason)}"
    if blocker is not None:
        return (f"blocked by {describe_hook(blocker.hook, blocker.index)} '{blocker.hook.event_pattern}': "
                f"{one_line(blocker.reason) or 'no reason given'}")
    if run.decision == "ask":
        return f"ask (exit status 4): a person must decide: {one_line(run.reason or '') or 'no reason given'}"
    return None
