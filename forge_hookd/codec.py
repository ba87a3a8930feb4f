"""The ends of a run: a codec reads the caller's input and writes the run's answer in
the caller's protocol (STYLE 30). The forge protocol is codec zero (:class:`ForgeCodec`:
a forge event in, the JSON document out); each agent's dialect is another
(:class:`forge_hookd.dialects.codec.DialectCodec`). :mod:`forge_hookd.pipeline` runs
between them and knows neither.

Every codec has the same four verbs: :meth:`~Codec.read` the input, :meth:`~Codec.reply`
to a run's outcome (what the caller will read, and the exit status), :meth:`~Codec.send`
that reply, and :meth:`~Codec.fail`: answer a failure of the run itself (bad input, a
``--strict`` config error, a bug, a signal before any hook ran).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, BinaryIO

import orjson

from .errors import EventError, ExitStatus, UsageError, error_document
from .events import HookEvent
from .results import describe_hook
from .signals import signal_name
from .text import json_bytes, one_line

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    from .registry import Hook
    from .results import HookRun

    # For the type checker only: creating a Protocol class costs 0.3 M instructions of
    # every run's start-up (bench/README.md, "Start-up tricks").
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
        status = ExitStatus(128 + run.interrupted) if run.interrupted is not None else _EXIT_STATUS[run.decision]
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
    """One event from ``stream``, reading at most ``limit`` (64 MiB) + 1 bytes."""
    limit = MAX_EVENT_BYTES if limit is None else limit
    raw = stream.read(limit + 1)
    if len(raw) > limit:
        raise EventError(f"event larger than the limit of {limit} bytes")
    return HookEvent.from_json(raw)


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
