"""What every dialect shares: the records that cross the boundary, and one small
interface per role (pre-commit's language interface has six members; these have at
most six each).

A :class:`Dialect` is an agent's :class:`Vocabulary` (its names for events and tools)
and four roles: its :class:`Reader` turns a native payload into an :class:`Inbound` (the
forge event plus what the agent called things); its :class:`Writer` turns the run's
:class:`Verdict` into a :class:`NativeAnswer`, or answers a failure; its
:class:`HookFormat` runs a hook written for the agent (the payload and variables it
gets, the judge that reads its answer); its :class:`Settings` read and write the
agent's settings files (import, ``--print-config``). No I/O here.
"""

from __future__ import annotations

import functools
import os
import re
import time
from typing import TYPE_CHECKING, Any

import orjson

from ..answers import ALLOW, Answer, Judgement
from ..errors import EventError, optional_str
from ..events import TOOL_EVENT_TYPES, EventType, HookEvent

if TYPE_CHECKING:
    from ..answers import Finished, Judge

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
    """A native payload read as a forge event. ``event`` is None for a native event
    that has no forge type (it runs no hook)."""

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
    """An agent's names: its native events (-> forge types), its tools (-> canonical
    forge names; others keep their native name), and the events where it waits for
    permission (a failure there denies). Every role of a dialect reads these."""

    __slots__ = ("name", "events", "tools", "blocking_events")

    def __init__(self, name: str, *, events: dict[str, str], tools: dict[str, str],
                 blocking_events: frozenset[str]) -> None:
        self.name, self.events, self.tools, self.blocking_events = name, events, tools, blocking_events

    def canonical_tool(self, native: str) -> str:
        return self.tools.get(native, native)

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
        name = self.words.name
        try:
            payload = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise PayloadError(f"the {name} payload is not valid JSON: {exc}") from None
        if not isinstance(payload, dict):
            raise PayloadError(f"the {name} payload must be a JSON object")
        native_event = self.event_name(payload, native_event)
        forge_type = self.words.events.get(native_event)
        native_tool = self.tool_name(payload, native_event, forge_type)
        event = None if forge_type is None else HookEvent(
            type=EventType(forge_type), timestamp=time.time(),
            data=self.event_data(payload, native_event, forge_type, native_tool),
            tool_name=None if native_tool is None else self.words.canonical_tool(native_tool),
            session_id=self.session_of(payload, native_event))
        return Inbound(name, native_event, native_tool, payload, event, self.start_dir(payload))

    def event_name(self, payload: dict[str, Any], given: str | None) -> str:
        """The native event of ``payload``: its ``hook_event_name``, else the one the
        command line named."""
        named = payload.get("hook_event_name")
        if isinstance(named, str) and named:
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
        data["agent"] = agent_data(self.words.name, native_event, native_tool, payload)
        return data


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


class HookFormat:
    """A hook written for this agent (``"format": NAME``): the payload and variables it
    gets, and the judge that reads its exit status and output by the agent's rules."""

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

    def judge(self, event: HookEvent) -> Judge:
        """The judge (answers.py) of a hook handling ``event``.

        Stricter than the agents in one way: a hook that timed out, died by a signal or
        could not start (126, 127) is left to forge's rule, which denies (unless it is
        an observer): a policy hook whose script was deleted is not silently off. A
        whole replacement tool input becomes the ``data`` patch that produces it.
        """
        native_event = self.native_event_of(event)

        def judged(result: Finished) -> Judgement:
            code = result.exit_code
            if result.error is not None or result.timed_out or code is None or code < 0 or code in (126, 127):
                return Judgement(None)
            parts = self.read_answer(native_event, code, result.stdout, result.stderr)
            updated = parts.pop("updated_input", None)
            if isinstance(updated, dict):
                old = event.data.get("tool_args")
                parts["data"] = {"tool_args": replacement_patch(old if isinstance(old, dict) else {}, updated)}
            return Judgement(Answer(**parts) if parts else None, None, parts.get("decision") or ALLOW)

        return judged

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


def exit_problem(name: str, exit_code: int, stderr: str) -> str:
    """``claude hook exited 1: what it said``: a format hook's failing status."""
    return f"{name} hook exited {exit_code}: {stderr.strip()}".rstrip(": ")


class Settings:
    """The agent's own settings files: where it reads its hooks, how its entries group,
    which forge patterns its matchers become (``forge-hook import``), and the snippet
    that makes forge-hook-run its hook command (``--print-config``). Claude's shape:
    ``{"hooks": {EVENT: [{"matcher": M, "hooks": [{"type": "command", "command": C}]}]}}``."""

    #: where the agent reads its hooks: the project's file, then the user's
    files: tuple[str, ...] = ()
    #: more project files the agent reads hooks from (Claude's uncommitted local settings)
    local_files: tuple[str, ...] = ()
    #: the key of a hook's timeout in the agent's settings, and its unit in seconds
    timeout_key = "timeout"
    timeout_unit = 1.0

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

    def patterns(self, native_event: str, forge_type: str, matcher: str) -> list[str] | str:
        """Forge patterns for a hook the agent runs on ``native_event`` with ``matcher``,
        or why there are none. ``Edit|Write`` is two patterns; an exact tool name its
        canonical forge name; ``mcp__x__.*`` a glob."""
        matcher = matcher.strip()
        if matcher in _ALL:
            return [forge_type]
        if forge_type not in TOOL_EVENT_TYPES:
            return f"{forge_type} cannot be filtered by a matcher in forge"
        patterns: list[str] = []
        for piece in matcher.removeprefix("^").removesuffix("$").removeprefix("(").removesuffix(")").split("|"):
            piece = piece.strip().removeprefix("^").removesuffix("$")
            if piece in _ALL:
                return [forge_type]
            if piece.startswith("mcp") and piece.endswith(".*") and _NAME.fullmatch(piece[:-2].replace("_", "")):
                pattern = f"{forge_type}:{piece[:-2]}*"  # MCP tools keep their native names
            elif _NAME.fullmatch(piece) and "." not in piece:
                pattern = f"{forge_type}:{self.words.canonical_tool(piece)}"
            else:
                return "a regular expression with no forge pattern form"
            if pattern not in patterns:
                patterns.append(pattern)
        return patterns

    def snippet(self, command: str) -> dict[str, Any]:
        """The hooks block of the agent's settings that makes ``command`` its hook."""
        raise NotImplementedError


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
