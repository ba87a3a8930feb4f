"""What every dialect shares: the records that cross the boundary, and one small
interface per role (pre-commit's language interface has six members; these have at
most six each).

A :class:`Dialect` is an agent's :class:`Vocabulary` (its names for events and tools)
and four roles: its :class:`Reader` turns a native payload into an :class:`Inbound` (the
forge event plus what the agent called things); its :class:`Writer` turns the run's
:class:`Verdict` into a :class:`NativeAnswer`, or answers a failure; its
:class:`HookFormat` runs a hook written for the agent (the payload and variables it
gets, the result reader that reads its answer); its :class:`Settings` read and write the
agent's settings files (import, ``--print-config``). No I/O here.
"""

from __future__ import annotations

import functools
import os
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson

from forge_hookd.answers import ALLOW, DENY, Answer, Judgement
from forge_hookd.errors import ConfigError, EventError, optional_str
from forge_hookd.events import REFUSABLE_TYPES, STOP_TYPES, TOOL_EVENT_TYPES, EventType, HookEvent

#: The forge type of every native event that has none of its own (DESIGN.md, "Events").
NATIVE = EventType.AGENT_NATIVE.value

if TYPE_CHECKING:
    from forge_hookd.answers import Finished, ResultReader

#: Forge's canonical tool names (DESIGN.md, "Dialects").
CANONICAL_TOOLS = ("bash", "read", "write", "edit", "glob", "grep", "web_fetch", "web_search")
PERSON_MUST_DECIDE = "a person must decide (this agent cannot ask here)"
#: The reason a deny without one of its own carries.
DEFAULT_DENY = "blocked by a forge hook"


class PayloadError(EventError):
    """A native payload forge cannot use; ``native_event`` when it could tell which."""

    def __init__(self, message: str, native_event: str | None = None) -> None:
        super().__init__(message)
        self.native_event = native_event


# Plain classes, not dataclasses: a dataclass costs about 0.45 ms at import (bench/README.md,
# "tricks.py"), and this module is on the event path of every agent's hook call.
class Inbound:
    """A native payload read as a forge event (``agent:native`` for a native event with
    no forge type of its own; None only where a failure is answered before reading)."""

    __slots__ = ("dialect", "native_event", "native_tool", "payload", "event", "cwd")

    def __init__(self, dialect: str, native_event: str, native_tool: str | None,
                 payload: dict[str, Any], event: HookEvent | None, cwd: str | None = None) -> None:
        self.dialect = dialect
        self.native_event = native_event
        self.native_tool = native_tool
        self.payload = payload
        self.event = event
        #: where the project root is looked for (Dialect.start_dir)
        self.cwd = cwd


class Verdict:
    """A run's outcome in forge terms. ``decision`` is None when no hook objected and
    none explicitly allowed: "no objection is not approval". ``tool_args`` is the whole
    rewritten tool input, or None when no hook rewrote it. A blank reason is no reason:
    agents refuse or ignore a deny with one (Codex)."""

    __slots__ = ("decision", "reason", "tool_args", "context", "messages")

    def __init__(self, decision: str | None = None, reason: str | None = None,
                 tool_args: dict[str, Any] | None = None, context: list[str] | None = None,
                 messages: list[str] | None = None) -> None:
        self.decision = decision
        self.reason = (reason or "").strip() or None
        self.tool_args = tool_args
        self.context = list(context or [])
        self.messages = list(messages or [])

    def __repr__(self) -> str:
        return f"Verdict({', '.join(f'{k}={getattr(self, k)!r}' for k in self.__slots__)})"


class NativeAnswer:
    """What the agent reads: stdout bytes, stderr text, exit status, and what the
    agent's form could not carry (for the report)."""

    __slots__ = ("stdout", "stderr", "exit_code", "dropped")

    def __init__(self, stdout: bytes = b"", stderr: str = "", exit_code: int = 0,
                 dropped: list[str] | None = None) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.exit_code = exit_code
        self.dropped = list(dropped or [])


def json_answer(out: dict[str, Any], dropped: list[str]) -> NativeAnswer:
    """An answer as most agents read it: the JSON object ``out`` on stdout (nothing when
    it is empty), exit 0, and a warning on stderr for each thing the form could not carry."""
    stderr = "\n".join(f"forge-hook-run: warning: dropped {d}" for d in dropped)
    return NativeAnswer(stdout=orjson.dumps(out) + b"\n" if out else b"", stderr=stderr, dropped=dropped)


def replacement_patch(old: Any, new: Any) -> Any:
    """A JSON merge patch (RFC 7386) that turns ``old`` into exactly ``new``: how an
    agent's whole-input rewrite becomes a forge ``data`` patch."""
    if not isinstance(new, dict) or not isinstance(old, dict):
        return new
    patch: dict[str, Any] = {key: None for key in old if key not in new}
    for key, value in new.items():
        if key not in old:
            patch[key] = value
        elif old[key] != value:
            patch[key] = replacement_patch(old[key], value) if value is not None else None
    return patch


def json_object(text: str) -> dict[str, Any] | None:
    """``text`` as a JSON object, or None when it is not one."""
    text = text.strip()
    if not text.startswith("{"):
        return None
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def joined(parts: list[str]) -> str:
    return "\n".join(p for p in parts if p)


def ask_reason(reason: str | None) -> str:
    """The reason of the deny that stands in for an ask where the agent cannot ask."""
    return f"{PERSON_MUST_DECIDE}: {reason}" if reason else PERSON_MUST_DECIDE


def text_of(value: object) -> str | None:
    """A native answer's string field, stripped; None when empty or not a string."""
    return value.strip() or None if isinstance(value, str) else None


class Vocabulary:
    """An agent's names: its native events (-> forge types; ``native_events`` are the
    others it fires, which become ``agent:native``), its tools (-> canonical forge names;
    others keep their native name), the events where it waits for permission (a failure
    there denies), and ``aliases``: a second spelling of one event (Copilot's ``Stop``
    for ``agentStop``). Every role of a dialect reads these."""

    __slots__ = ("name", "events", "tools", "blocking_events", "native_events", "aliases")

    def __init__(self, name: str, *, events: dict[str, str], tools: dict[str, str],
                 blocking_events: frozenset[str], native_events: frozenset[str] = frozenset(),
                 aliases: dict[str, str] | None = None) -> None:
        self.name, self.events, self.tools, self.blocking_events = name, events, tools, blocking_events
        self.native_events, self.aliases = native_events, aliases or {}

    def forge_type(self, native_event: str) -> str:
        """The forge type of a native event: its own, else ``agent:native`` (every event
        the agent fires runs the hooks that ask for it, one it added yesterday too)."""
        return self.events.get(native_event, NATIVE)

    def known(self, native_event: str) -> bool:
        """Whether the agent fires ``native_event`` (as its settings spell it)."""
        return native_event in self.events or native_event in self.native_events

    def same_event(self, one: str, other: str) -> bool:
        """Whether two names are one event (``agentStop`` and ``Stop`` in Copilot)."""
        return self.aliases.get(one, one) == self.aliases.get(other, other)

    def canonical_tool(self, native: str) -> str:
        return self.tools.get(native, native)

    def tool_of(self, event: HookEvent) -> str | None:
        """The agent's name for the tool of ``event``: the native one when the event came
        from this agent, else the forge tool name mapped back."""
        agent = event.data.get("agent")
        if isinstance(agent, dict) and agent.get("name") == self.name and isinstance(agent.get("tool"), str):
            return str(agent["tool"])
        return self.native_tool(event.tool_name)

    def native_tool(self, canonical: str | None) -> str | None:
        """The agent's name for a forge tool name (``bash`` -> ``Bash``)."""
        if canonical is None:
            return None
        return next((n for n, c in self.tools.items() if c == canonical), canonical)

    def native_event(self, forge_type: str) -> str:
        """The agent's name for a forge event type (its own string when it has none)."""
        return next((n for n, t in self.events.items() if t == forge_type), forge_type)


class Reader:
    """In: a native payload as a forge event. Lenient about what it does not need
    (agents add fields in every release: they stay in ``data.agent.payload``), strict
    about what the event needs. An agent overrides the steps its payload differs in."""

    #: the payload key holding the prompt of a prompt submission
    prompt_key = "prompt"
    #: the payload keys that may hold the agent's session id, the first present counts
    session_keys: tuple[str, ...] = ("session_id",)

    def __init__(self, words: Vocabulary) -> None:
        self.words = words

    def read(self, raw: bytes, native_event: str | None = None) -> Inbound:
        """The payload as a forge event; :class:`PayloadError` when it cannot be one.
        ``native_event`` is the event named on the command line (``--dialect
        NAME:EVENT``), for an agent whose payload may not say which event it is."""
        return self.read_payload(self.parse(raw), native_event)

    def parse(self, raw: bytes) -> dict[str, Any]:
        """The payload's JSON object; :class:`PayloadError` when it is not one."""
        name = self.words.name
        try:
            payload = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise PayloadError(f"the {name} payload is not valid JSON: {exc}") from None
        if not isinstance(payload, dict):
            raise PayloadError(f"the {name} payload must be a JSON object")
        return payload

    def read_payload(self, payload: dict[str, Any], native_event: str | None = None) -> Inbound:
        """:meth:`read`, of a payload parsed already."""
        name = self.words.name
        native_event = self.event_name(payload, native_event)
        forge_type = self.forge_type(payload, native_event)
        native_tool = self.tool_name(payload, native_event, forge_type)
        tool_name = self.words.canonical_tool(native_tool) if native_tool is not None else \
            native_event if forge_type == NATIVE else None  # agent:native:Setup names its event
        event = HookEvent(type=EventType(forge_type), timestamp=time.time(),
                          data=self.event_data(payload, native_event, forge_type, native_tool),
                          tool_name=tool_name, session_id=self.session_of(payload, native_event))
        return Inbound(name, native_event, native_tool, payload, event, self.start_dir(payload))

    def forge_type(self, payload: dict[str, Any], native_event: str) -> str:
        """The forge type of this payload's event (an agent may tell two of one name apart)."""
        return self.words.forge_type(native_event)

    def named_event(self, payload: dict[str, Any]) -> str | None:
        """The event the payload names itself, if it does."""
        named = payload.get("hook_event_name")
        return named if isinstance(named, str) and named else None

    def event_name(self, payload: dict[str, Any], given: str | None) -> str:
        """The native event of ``payload``: its own name, else the one the command line
        named. Two names of two events are a broken payload or a miswired hook: refused
        (issue 20), failing as the one of the two that waits for permission, if any."""
        named = self.named_event(payload)
        if named and given and not self.words.same_event(named, given):
            blocking = [e for e in (given, named) if e in self.words.blocking_events]
            raise PayloadError(f"the {self.words.name} payload says it is {named} but the hook command names "
                               f"{given}: which event this is cannot be told", (blocking or [given])[0])
        if named:
            return named
        if given:
            return given
        raise PayloadError(f"the {self.words.name} payload has no 'hook_event_name'")

    def session_of(self, payload: dict[str, Any], native_event: str) -> str | None:
        key = next((k for k in self.session_keys if k in payload), self.session_keys[0])
        error = functools.partial(PayloadError, native_event=native_event)
        return optional_str(payload, key, error, where=f" in the {self.words.name} {native_event} payload") or None

    def start_dir(self, payload: dict[str, Any]) -> str | None:
        """Where the agent says it works: the project root is looked for from here."""
        cwd = payload.get("cwd")
        return cwd if isinstance(cwd, str) and cwd else None

    def tool_name(self, payload: dict[str, Any], native_event: str, forge_type: str | None) -> str | None:
        """The native tool of a tool event (None for other events)."""
        if forge_type not in TOOL_EVENT_TYPES:
            return None
        name = payload.get("tool_name")
        if not isinstance(name, str) or not name:
            raise PayloadError(f"the {self.words.name} {native_event} payload has no 'tool_name'", native_event)
        if payload.get("tool_input") is None:  # an object for every built-in tool
            raise PayloadError(f"the {self.words.name} {native_event} payload has no 'tool_input'",
                               native_event)
        return name

    def event_data(self, payload: dict[str, Any], native_event: str, forge_type: str,
                   native_tool: str | None) -> dict[str, Any]:
        """The forge event's ``data``: the conventional keys, and ``agent``."""
        data: dict[str, Any] = {}
        if forge_type in TOOL_EVENT_TYPES:
            data["tool_args"] = payload["tool_input"]
        if "tool_response" in payload:
            data["tool_result"] = payload["tool_response"]
        if "error" in payload:
            data["error"] = payload["error"]
        if forge_type == "user:prompt_submit":
            prompt = payload.get(self.prompt_key)
            if not isinstance(prompt, str):
                raise PayloadError(f"the {self.words.name} {native_event} payload has no "
                                   f"'{self.prompt_key}' string", native_event)
            data["user_input"] = prompt
        lifecycle_data(data, payload, forge_type)
        data["agent"] = agent_data(self.words.name, native_event, native_tool, payload)
        return data


#: The ``data`` keys of the lifecycle types, and the payload keys the agents spell them
#: with (Claude and Codex snake_case, Copilot's camelCase, Cursor's ``subagent_type``).
_LIFECYCLE: dict[str, tuple[str, ...]] = {
    "session:start": ("source",), "session:pre_compact": ("trigger",), "session:post_compact": ("trigger",),
    "session:notification": ("message", "notification_type", "title"),
    "agent:subagent_start": ("agent_type", "agent_id"), "agent:subagent_stop": ("agent_type", "agent_id"),
}
_SPELLINGS = {"agent_type": ("agent_type", "agentType", "subagent_type"),
              "agent_id": ("agent_id", "agentId", "subagent_id"),
              "notification_type": ("notification_type", "notificationType")}


def lifecycle_data(data: dict[str, Any], payload: dict[str, Any], forge_type: str) -> None:
    """The conventional keys of a lifecycle event (``data.source`` of a session start,
    ``data.trigger`` of a compaction ...), where the payload has them as strings."""
    for key in _LIFECYCLE.get(forge_type, ()):
        value = next((payload[k] for k in _SPELLINGS.get(key, (key,)) if isinstance(payload.get(k), str)), None)
        if value is not None:
            data[key] = value


def agent_data(name: str, native_event: str, native_tool: str | None, payload: dict[str, Any]) -> dict[str, Any]:
    """``data.agent``: the dialect, the native event and tool names, the whole payload."""
    return {"name": name, "event": native_event, "tool": native_tool, "payload": payload}


class Writer:
    """Out: the run's verdict as the agent reads it, and forge's own failure."""

    def __init__(self, words: Vocabulary) -> None:
        self.words = words

    def answer(self, inbound: Inbound, verdict: Verdict) -> NativeAnswer:
        """The verdict in the agent's form. Each agent implements."""
        raise NotImplementedError

    def failure(self, native_event: str | None, problem: str) -> NativeAnswer:
        """forge-hook-run could not do its job: deny where the agent waits for
        permission (or cannot be told which event this was), else proceed and say why."""
        reason = f"forge-hook-run could not check this call: {problem}"
        if native_event is None:
            return self.deny_unknown(reason)
        if native_event in self.words.blocking_events:
            inbound = Inbound(self.words.name, native_event, None, {}, None)
            answer = self.answer(inbound, Verdict(decision="deny", reason=reason))
            answer.stderr = answer.stderr or f"forge-hook-run: error: {problem}"
            return answer
        return NativeAnswer(stderr=f"forge-hook-run: error: {problem} (the agent proceeds: "
                                   f"{native_event} cannot be blocked)")

    def deny_unknown(self, reason: str) -> NativeAnswer:
        """A deny every event of the agent reads, for a payload too broken to name its
        event. Exit 2 with the reason on stderr and nothing on stdout blocks in all three."""
        return NativeAnswer(stderr=reason, exit_code=2)

    def forge_type(self, inbound: Inbound) -> str:
        """The forge type of the event being answered."""
        return inbound.event.type.value if inbound.event is not None else self.words.forge_type(inbound.native_event)


def refusal(verdict: Verdict, messages: list[str], dropped: list[str]) -> str | None:
    """What keeps an agent working at a stop: the deny's reason, with any context after
    it (context on a stop travels only with a deny: Claude reads context alone on a Stop
    as "keep working"), or None to let it stop. An ask lets it stop and tells the person
    (nobody can be asked at a stop: the person has the turn anyway)."""
    if verdict.decision == "deny":
        return joined([verdict.reason or DEFAULT_DENY, *verdict.context])
    if verdict.decision == "ask":
        messages.append(verdict.reason or PERSON_MUST_DECIDE)
        dropped.append("decision ask: the agent stops and the person decides (nobody can be asked at a stop)")
    if verdict.context:
        dropped.append("context: on a stop, context travels only with a deny, as part of its reason")
    return None


def dropped_decision(verdict: Verdict, event: str, dropped: list[str], why: str = "cannot be blocked") -> None:
    """Say that a deny or ask on ``event`` is not the agent's to obey."""
    if verdict.decision in ("deny", "ask"):
        dropped.append(f"decision {verdict.decision}: {event} {why}")


class HookFormat:
    """A hook written for this agent (``"format": NAME``): the payload and variables it
    gets, and the result reader that reads its exit status and output by the agent's rules."""

    def __init__(self, words: Vocabulary) -> None:
        self.words = words

    def stdin(self, event: HookEvent, project_dir: str) -> bytes:
        """What the hook reads: the native payload verbatim when the run came in through
        this dialect, else one built from the forge event."""
        agent = event.data.get("agent")
        if isinstance(agent, dict) and agent.get("name") == self.words.name and isinstance(agent.get("payload"), dict):
            return orjson.dumps(agent["payload"])  # verbatim: what the agent itself sent
        return orjson.dumps(self.payload(event, project_dir))

    def env(self, event: HookEvent, project_dir: str) -> dict[str, str]:
        """The variables this agent gives its hooks."""
        return {}

    def result_reader(self, event: HookEvent, *, fail_closed: bool = False) -> ResultReader:
        """The result reader (answers.py) of a hook handling ``event``.

        Stricter than the agents in one way: a hook that timed out, died by a signal or
        could not start (126, 127) is left to forge's rule, which denies (unless it is
        an observer): a policy hook whose script was deleted is not silently off. Not on
        a stop or a compaction, where a deny keeps the agent working: a broken hook there
        lets the agent stop, as the agents do, and says so. ``fail_closed`` (the entry's
        ``fail_closed``: Cursor's ``failClosed``, Claude's ``onFailure: block``) makes a
        plain failure deny too: an exit status other than 0 and 2, or JSON that is not an
        object. A whole replacement tool input becomes the ``data`` patch that produces it.
        """
        native_event = self.native_event_of(event)
        refusable = event.type.value in REFUSABLE_TYPES

        def read(result: Finished) -> Judgement:
            code = result.exit_code
            if result.error is not None or result.timed_out or code is None or code < 0 or code in (126, 127):
                if refusable:
                    return Judgement(Answer(message=f"a {self.words.name} hook on {native_event} failed "
                                                    f"({broken(result)}): it does not keep the agent working"),
                                     None, ALLOW)
                return Judgement(None)
            failure = plain_failure(self.words.name, code, result.stdout, result.stderr) \
                if fail_closed and not refusable else None
            if failure is not None:
                return Judgement(Answer(decision=DENY, reason=f"{failure} (fail_closed)"), None, DENY)
            parts = self.read_answer(native_event, code, result.stdout, result.stderr)
            updated = parts.pop("updated_input", None)
            if isinstance(updated, dict):
                old = event.data.get("tool_args")
                parts["data"] = {"tool_args": replacement_patch(old if isinstance(old, dict) else {}, updated)}
            return Judgement(Answer(**parts) if parts else None, None, parts.get("decision") or ALLOW)

        return read

    def stricter(self, exit_code: int | None, stderr: str) -> bool:
        """Whether the agent itself would let an action through where this hook broke
        (timed out, died, could not start): then forge, denying, is stricter, and says so."""
        return True

    #: the variables this agent sets for its hooks (``forge-hook check`` knows them)
    variables: tuple[str, ...] = ()

    def payload(self, event: HookEvent, project_dir: str) -> dict[str, Any]:
        """The native payload for a forge event that did not come from this agent."""
        native_event = self.native_event_of(event)
        payload: dict[str, Any] = {"session_id": event.session_id or "", "transcript_path": None,
                                   "cwd": project_dir, "hook_event_name": native_event}
        data = event.data
        if event.type.value in TOOL_EVENT_TYPES:
            payload["tool_name"] = self.words.native_tool(event.tool_name) or ""
            payload["tool_input"] = data.get("tool_args") if isinstance(data.get("tool_args"), dict) else {}
        if "tool_result" in data:
            payload["tool_response"] = data["tool_result"]
        if "error" in data:
            payload["error"] = data["error"]
        if "user_input" in data:
            payload["prompt"] = data["user_input"]
        payload.update(lifecycle_fields(event))
        return payload

    def read_answer(self, native_event: str, exit_code: int, stdout: str, stderr: str) -> dict[str, Any]:
        """The agent's reading of a hook that exited by itself, as a forge answer object
        (``decision``, ``reason``, ``context``, ``message``; a rewrite as
        ``updated_input``, the whole new tool input). Each agent implements."""
        raise NotImplementedError

    def native_event_of(self, event: HookEvent) -> str:
        """The native event a hook is told it handles."""
        agent = event.data.get("agent")
        if isinstance(agent, dict) and agent.get("name") == self.words.name and isinstance(agent.get("event"), str):
            return str(agent["event"])
        return self.words.native_event(event.type.value)


def loop_count(event: HookEvent) -> int:
    """How many times in a row this stop was refused already: forge's count, else the
    flag of the agent the event came from (``stop_hook_active``, Cursor's ``loop_count``)."""
    count = event.data.get("stop_count")
    if isinstance(count, int) and not isinstance(count, bool):
        return count
    agent = event.data.get("agent")
    payload: Any = agent.get("payload") if isinstance(agent, dict) else None
    if not isinstance(payload, dict):
        return 0
    flag = payload.get("loop_count", payload.get("stop_hook_active", payload.get("stopHookActive")))
    return int(flag) if isinstance(flag, (bool, int)) else 0


def lifecycle_fields(event: HookEvent) -> dict[str, Any]:
    """What a Claude-shaped payload of a lifecycle event carries, from the forge event:
    its ``source``, ``trigger``, notification, subagent, a stop's loop flag and last
    answer, and the transcript of the agent the event came from (a stop hook reads it)."""
    fields: dict[str, Any] = {key: event.data[key] for key in ("source", "trigger", "message", "notification_type",
                                                                "agent_type", "agent_id")
                              if isinstance(event.data.get(key), str)}
    agent = event.data.get("agent")
    foreign: Any = agent.get("payload") if isinstance(agent, dict) else None
    foreign = foreign if isinstance(foreign, dict) else {}
    transcript = foreign.get("transcript_path", foreign.get("transcriptPath"))
    if isinstance(transcript, str):
        fields["transcript_path"] = transcript
    if event.type.value in STOP_TYPES:
        fields["stop_hook_active"] = loop_count(event) > 0
        last = foreign.get("last_assistant_message", foreign.get("prompt_response"))
        if isinstance(last, str):
            fields["last_assistant_message"] = last
    return fields


def exit_problem(name: str, exit_code: int, stderr: str) -> str:
    """``claude hook exited 1: what it said``: a format hook's failing status."""
    return f"{name} hook exited {exit_code}: {stderr.strip()}".rstrip(": ")


def plain_failure(name: str, exit_code: int, stdout: str, stderr: str) -> str | None:
    """Why a hook that exited by itself failed, in the agents' sense (neither an answer
    nor a block): an exit status other than 0 and 2, or output that opens a JSON object
    and is not one. None when it did not fail."""
    if exit_code not in (0, 2):
        return exit_problem(name, exit_code, stderr)
    if exit_code == 0 and stdout.lstrip().startswith("{") and json_object(stdout) is None:
        return f"{name} hook answered with invalid JSON"
    return None


def broken(result: Finished) -> str:
    """How a hook broke: timed out, could not start, died by a signal."""
    if result.timed_out:
        return "timed out"
    if result.error is not None:
        return result.error
    code = result.exit_code
    if code is not None and code < 0:
        return f"killed by signal {-code}"
    return f"exit status {code}: it could not start"


class Settings:
    """The agent's own settings files: where it reads its hooks, how its entries group,
    what its matchers match and which forge patterns they become (``forge-hook import``,
    dialects/matching.py), and the snippet that makes forge-hook-run its hook command
    (``--print-config``). Claude's shape:
    ``{"hooks": {EVENT: [{"matcher": M, "hooks": [{"type": "command", "command": C}]}]}}``."""

    #: where the agent reads its hooks: the project's file, then the user's
    files: tuple[str, ...] = ()
    #: more project files the agent reads hooks from (Claude's uncommitted local settings)
    local_files: tuple[str, ...] = ()
    #: the keys of a hook's timeout in the agent's settings, and their unit in seconds
    timeout_keys: tuple[str, ...] = ("timeout",)
    timeout_unit = 1.0
    #: the timeout the agent gives a hook whose entry names none (its current docs)
    agent_timeout: float | None = None
    #: whether a matcher filters tool events, which other forge types' matcher the agent
    #: reads (matching.SUBJECTS says which field), and which ``agent:native`` events'
    #: (with the payload field it tests); elsewhere the agent ignores a matcher
    matched_tools = True
    matched_types: frozenset[str] = frozenset()
    native_subjects: dict[str, str] = {}

    def __init__(self, words: Vocabulary) -> None:
        self.words = words

    def paths(self, scope: str, project_root: str) -> list[str]:
        """The agent's own hook settings for ``scope`` ("project" or "global")."""
        project_file, user_file = self.files
        if scope == "global":
            return [os.path.expanduser(user_file)]
        return [os.path.join(project_root, f) for f in (project_file, *self.local_files)]

    def groups(self, entries: object) -> list[tuple[object, object]]:
        """An event's entries as ``(matcher, handlers)`` pairs."""
        groups = entries if isinstance(entries, list) else [entries]
        return [(g.get("matcher"), g.get("hooks")) if isinstance(g, dict) else (None, None)
                for g in groups]

    def command(self, handler: dict[str, Any]) -> object:
        """The shell command of one handler."""
        return handler.get("command")

    def timeout(self, handler: dict[str, Any], native_event: str) -> float | None:
        """The handler's timeout in seconds: its own, else the agent's default."""
        for key in self.timeout_keys:
            value = handler.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
                return float(value) * self.timeout_unit
        return self.default_timeout(native_event)

    def default_timeout(self, native_event: str) -> float | None:
        return self.agent_timeout

    # -- matchers ----------------------------------------------------------------------
    def filter(self, native_event: str, forge_type: str, matcher: str) -> tuple[list[str], str | None] | str:
        """The forge patterns of a hook the agent runs on ``native_event`` with
        ``matcher``, and the matcher the hook keeps (None when the patterns say it all,
        or the agent ignores a matcher on this event, as forge then does too); or why
        forge has no form for it.
        ``Edit|Write`` is two patterns; an exact tool name its canonical forge name;
        ``mcp__x__.*`` a glob; a regular expression stays the hook's ``matcher``."""
        base = forge_type if forge_type != NATIVE else f"{NATIVE}:{native_event}"
        if matcher.strip() in ("", "*"):
            return [base], None
        if forge_type in TOOL_EVENT_TYPES:
            if not self.matched_tools:
                return [base], None
            exact = self.exact_tools(forge_type, matcher)
            return (exact, None) if exact else ([base], matcher)
        if forge_type in self.matched_types or (forge_type == NATIVE and native_event in self.native_subjects):
            return [base], matcher
        return [base], None

    def exact_tools(self, forge_type: str, matcher: str) -> list[str] | None:
        """Patterns that say exactly what ``matcher`` matches (Claude's reading: a list of
        names), or None."""
        patterns: list[str] = []
        for piece in matcher.strip().removeprefix("^").removesuffix("$").removeprefix("(").removesuffix(")").split("|"):
            piece = piece.strip().removeprefix("^").removesuffix("$")
            if piece in _ALL:
                return [forge_type]
            if piece.startswith("mcp") and piece.endswith(".*") and _NAME.fullmatch(piece[:-2].replace("_", "")):
                pattern = f"{forge_type}:{piece[:-2]}*"  # MCP tools keep their native names
            elif _NAME.fullmatch(piece) and "." not in piece:
                pattern = f"{forge_type}:{self.words.canonical_tool(piece)}"
            else:
                return None
            if pattern not in patterns:
                patterns.append(pattern)
        return patterns

    def matcher_subject(self, event: HookEvent) -> tuple[str, bool] | None:
        """What the agent tests a matcher against on ``event``, and whether it is a tool
        name; None where the agent ignores a matcher (the hook runs)."""
        from forge_hookd.dialects.matching import SUBJECTS, subject_of  # 3 ms (-X importtime): a kept matcher's

        kind = event.type.value
        if kind in TOOL_EVENT_TYPES:
            return (self.words.tool_of(event) or "", True) if self.matched_tools else None
        key = self.native_subjects.get(event.tool_name or "") if kind == NATIVE else \
            SUBJECTS.get(kind) if kind in self.matched_types else None
        return None if key is None else (subject_of(event, key), False)

    def matches(self, matcher: str, subject: str, tool: bool) -> bool:
        from forge_hookd.dialects.matching import claude_matches  # 3 ms (-X importtime): a kept matcher's

        return claude_matches(matcher, subject)

    def matcher_problem(self, matcher: str) -> str | None:
        from forge_hookd.dialects.matching import regex_problem  # 3 ms (-X importtime): a kept matcher's

        return regex_problem(matcher, self.words.name)

    def if_rule(self, rule: str) -> Callable[[HookEvent], bool]:
        raise ConfigError(f"'if' is Claude Code's filter; {self.words.name} has none")

    #: the longest hook timeout the agent accepts, in seconds (None: it sets none, so
    #: forge's own ceiling applies: forge-hook install writes the smaller)
    max_timeout: float | None = None

    def snippet(self, command: Command, limit: float | None = None) -> dict[str, Any]:
        """The hooks block of the agent's settings that makes ``command`` its hook (a
        function of the native event: the command for that event); with ``limit``, each
        entry's timeout in the agent's unit and ``--agent-limit`` on its command."""
        raise NotImplementedError

    def limited(self, command: Command, event: str, limit: float | None,
                suffix: str = "") -> tuple[str, dict[str, Any]]:
        """The command of ``event``'s entry (``suffix`` after the base command: Copilot's
        ``:EVENT``) and the timeout member that go with ``limit`` (seconds)."""
        text = (command(event) if callable(command) else command) + suffix
        if limit is None:
            return text, {}
        value = limit / self.timeout_unit
        return f"{text} --agent-limit {limit:g}", {self.timeout_keys[0]: int(value) if value == int(value) else value}


#: a hook command in an agent's settings: one text, or one per native event
Command = str | Callable[[str], str]

_NAME = re.compile(r"[A-Za-z0-9_.-]+")
_ALL = ("", "*", ".*", ".+")


class Dialect:
    """One agent's hook protocol: its vocabulary and its four roles. The core asks the
    registry (``dialects.get``) and knows no agent by name."""

    __slots__ = ("name", "words", "reader", "writer", "hooks", "settings")

    def __init__(self, words: Vocabulary, *, reader: Reader, writer: Writer, hooks: HookFormat,
                 settings: Settings) -> None:
        self.name, self.words = words.name, words
        self.reader, self.writer, self.hooks, self.settings = reader, writer, hooks, settings
