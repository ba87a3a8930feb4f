"""``forge-hook-run --dialect NAME``: an agent's own hook protocol as a codec at the ends
of the one run (codec.py, pipeline.py).

Read the agent's payload as a forge event; answer the run's outcome in the agent's form.
stdout belongs to the agent: the forge document goes to ``--report FILE``. Whatever
fails on the way (a broken payload, a ``--strict`` config error, a bug, a signal) is
answered by :meth:`DialectCodec.fail`: deny where the agent waits for permission,
proceed with a word on stderr elsewhere (DESIGN.md, "Dialects").
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO


from forge_hookd.run.codec import Outcome, Reply, Request, read_input
from forge_hookd.events import EventType, HookEvent
from forge_hookd.errors import UsageError, error_document
from forge_hookd.signalnames import signal_name
from forge_hookd.text import json_bytes
from forge_hookd.dialects import NAMES, get
from forge_hookd.dialects.base import Inbound, NativeAnswer, PayloadError, Verdict

if TYPE_CHECKING:
    from forge_hookd.results import HookRun
    from forge_hookd.dialects.base import Dialect

MAX_PAYLOAD_BYTES = 64 * 1024 * 1024
_PROBE_EVENT = HookEvent(EventType.SESSION_START, timestamp=0.0)


def split_dialect(value: str) -> tuple[str, str | None]:
    """``NAME`` or ``NAME:EVENT``: the event for agents whose payload may not name it
    (Copilot's camelCase payloads), so each event's hook command names it instead."""
    name, _, event = value.partition(":")
    return name, event or None


def dialect_named(name: str) -> Dialect:
    """The dialect called ``name``; a UsageError listing them for any other name."""
    if name not in NAMES:
        raise UsageError(f"unknown dialect '{name}': one of {', '.join(NAMES)}")
    return get(name)


class DialectCodec:
    """The codec of ``--dialect VALUE``. ``err`` writes the agent's stderr text as it is
    (its lines may be the reason an agent shows), ``out`` its stdout bytes; ``report`` is
    where the forge document goes. What a failure answer needs (the native event) is
    learnt as the payload is read."""

    def __init__(self, value: str, *, err: Callable[[str], None], out: Callable[[bytes], None],
                 report: str | None = None) -> None:
        self.name, self.native_event = split_dialect(value)
        self.err, self.out, self.report = err, out, report
        self.inbound: Inbound | None = None
        self._report_doc: dict[str, Any] | None = None

    # -- the four verbs ---------------------------------------------------------------
    def read(self, stdin: BinaryIO) -> Request:
        dialect = dialect_named(self.name)
        if stdin.isatty():
            raise UsageError(f"no payload: {dialect.name} pipes its hook payload on stdin")
        try:
            raw = read_input(stdin, limit=MAX_PAYLOAD_BYTES, what=f"{dialect.name} payload")
            if not raw.strip():
                raise PayloadError(f"no {dialect.name} payload: stdin was empty (or closed)")
            inbound = dialect.reader.read(raw, self.native_event)
        except PayloadError as exc:
            self.native_event = exc.native_event or self.native_event
            raise
        self.inbound, self.native_event = inbound, inbound.native_event
        if inbound.event is None:  # a reader always makes one (agent:native at least)
            raise PayloadError(f"the {dialect.name} payload makes no event", inbound.native_event)
        start = agent_project_dir(dialect) or inbound.cwd
        return Request(inbound.event, start_dir=start, dialect=self.name, native_event=inbound.native_event)

    def reply(self, outcome: Outcome) -> Reply:
        run = outcome.run
        if run is not None and run.interrupted is not None:
            message = f"interrupted by {signal_name(-run.interrupted)}"
            answer = self._failure(message)
            self._report_doc = error_document("interrupted", message)
        else:
            answer = NativeAnswer() if run is None else self._answer(run)
            self._report_doc = outcome.document
        return Reply(answer.stdout, [answer.stderr] if answer.stderr else [], answer.exit_code,
                     dropped=answer.dropped)

    def send(self, reply: Reply) -> None:
        """The report first (the run log has added its word to the document by now), then
        the agent's answer."""
        if self._report_doc is not None:
            self._write_report(self._report_doc, reply)
        for text in reply.stderr:
            self.err(text.strip("\n"))
        self.out(reply.stdout)

    def fail(self, kind: str, message: str, status: int) -> int:
        answer = self._failure(message)
        reply = Reply(answer.stdout, [answer.stderr] if answer.stderr else [], answer.exit_code)
        self._report_doc = error_document(kind, message)
        self.send(reply)
        return answer.exit_code

    # -- the agent's form ---------------------------------------------------------------
    def _answer(self, run: HookRun) -> NativeAnswer:
        assert self.inbound is not None
        answer = get(self.name).writer.answer(self.inbound, verdict_of(run))
        for key in _rewritten_beyond_tool_args(run):  # no agent takes a rewrite of these
            answer.dropped.append(f"data.{key}: {self.name}'s answer carries only a tool input rewrite")
            answer.stderr += f"\nforge-hook-run: warning: dropped {answer.dropped[-1]}"
        return answer

    def _failure(self, message: str) -> NativeAnswer:
        if self.name not in NAMES:
            return NativeAnswer(stderr=f"forge-hook-run could not check this call: {message}", exit_code=2)
        return get(self.name).writer.failure(self.native_event, message)

    def _write_report(self, doc: dict[str, Any], reply: Reply) -> None:
        """The forge document, plus what the agent was told, to ``--report FILE``. A report
        that cannot be written costs a warning, never the answer."""
        if not self.report:
            return
        doc["dialect"] = {"name": self.name, "event": self.native_event,
                          "tool": None if self.inbound is None else self.inbound.native_tool,
                          "exit_code": reply.status, "stdout": reply.stdout.decode("utf-8", "replace"),
                          "dropped": reply.dropped}
        try:
            with open(self.report, "wb") as out:
                out.write(json_bytes(doc) + b"\n")
        except OSError as exc:
            self.err(f"forge-hook-run: warning: could not write the report {self.report}: {exc.strerror or exc}")


def agent_project_dir(dialect: Dialect) -> str | None:
    """The project directory the agent names in its hook's environment (Claude's
    ``CLAUDE_PROJECT_DIR``, Gemini's ``GEMINI_PROJECT_DIR`` ...), where the search for the
    project root starts: a ``cd`` moves the payload's ``cwd``, and a directory below the
    project must not become the project (issue 19 item 8). The variables are the ones the
    dialect gives its own hooks for the project directory, in its order."""
    probe = "/\0project"
    for name, value in dialect.hooks.env(_PROBE_EVENT, probe).items():
        found = os.environ.get(name) if value == probe else None
        if found and os.path.isabs(found):
            return found
    return None


def verdict_of(run: HookRun) -> Verdict:
    """The run's outcome in forge terms, for a dialect to write.

    No objection is not approval: a run that allows becomes the agent's allow only when
    a blocking hook said ``"decision": "allow"``; otherwise it is no decision, and the
    agent's own permission rules still apply. A rewrite is the whole new ``tool_args``.
    """
    decision: str | None = run.decision
    reason = run.reason
    if decision == "allow":
        allowing = [r.answer for r in run.results
                    if r.hook.blocking and r.answer is not None and r.answer.decision == "allow"]
        decision = "allow" if allowing else None
        reason = "\n".join(a.reason for a in allowing if a is not None and a.reason) or None
    tool_args = None
    if run.data is not None and run.data.get("tool_args") != run.event.data.get("tool_args"):
        rewritten = run.data.get("tool_args")
        tool_args = rewritten if isinstance(rewritten, dict) else {}
    return Verdict(decision=decision, reason=reason, tool_args=tool_args,
                   context=list(run.context), messages=list(run.messages))


def _rewritten_beyond_tool_args(run: HookRun) -> list[str]:
    if run.data is None:
        return []
    keys = dict.fromkeys([*run.event.data, *run.data])
    return [k for k in keys if k != "tool_args" and run.data.get(k) != run.event.data.get(k)]
