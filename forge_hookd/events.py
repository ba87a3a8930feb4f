"""Events: the event types (the seed's sixteen and the agent's lifecycle), ``HookEvent``
and its strict JSON parser."""

from __future__ import annotations

import json  # loaded by orjson anyway: the fallback encoder for what orjson refuses
import math
import re
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import orjson

from forge_hookd.errors import EventError, json_type, optional_str
from forge_hookd.text import did_you_mean
from forge_hookd.tuples import NamedTuple


class EventType(str, Enum):
    """The event types an agent can fire, as their wire strings."""

    TOOL_PRE_EXECUTE = "tool:pre_execute"
    TOOL_POST_EXECUTE = "tool:post_execute"
    TOOL_ERROR = "tool:error"
    LLM_PRE_REQUEST = "llm:pre_request"
    LLM_POST_RESPONSE = "llm:post_response"
    LLM_STREAM_START = "llm:stream_start"
    LLM_STREAM_END = "llm:stream_end"
    SESSION_START = "session:start"
    SESSION_END = "session:end"
    SESSION_MESSAGE = "session:message"
    PERMISSION_CHECK = "permission:check"
    PERMISSION_PROMPT = "permission:prompt"
    PERMISSION_GRANTED = "permission:granted"
    PERMISSION_DENIED = "permission:denied"
    USER_PROMPT_SUBMIT = "user:prompt_submit"
    USER_INTERRUPT = "user:interrupt"
    # The agent's lifecycle, beyond the seed's sixteen (DESIGN.md, "Events").
    AGENT_STOP = "agent:stop"
    AGENT_SUBAGENT_START = "agent:subagent_start"
    AGENT_SUBAGENT_STOP = "agent:subagent_stop"
    SESSION_NOTIFICATION = "session:notification"
    SESSION_PRE_COMPACT = "session:pre_compact"
    SESSION_POST_COMPACT = "session:post_compact"
    #: any other native event of an agent; its ``tool_name`` is the native event's name
    AGENT_NATIVE = "agent:native"

    def __str__(self) -> str:
        return self.value


EVENT_TYPES: frozenset[str] = frozenset(t.value for t in EventType)

class EventInfo(NamedTuple):
    """What an event type means, the ``data`` keys its factory writes, and whether it
    names a tool (``tool_name``, ``FORGE_TOOL_NAME``)."""

    meaning: str
    data_keys: tuple[str, ...]
    has_tool: bool


#: What each event type means and carries.
EVENT_INFO: dict[EventType, EventInfo] = {k: EventInfo(*v) for k, v in {
    EventType.TOOL_PRE_EXECUTE: ("a tool is about to run; a hook can block it", ("tool_args",), True),
    EventType.TOOL_POST_EXECUTE: ("a tool ran", ("tool_args", "tool_result"), True),
    EventType.TOOL_ERROR: ("a tool failed", ("tool_args", "error"), True),
    EventType.LLM_PRE_REQUEST: ("a model request is about to be sent", ("llm_model",), False),
    EventType.LLM_POST_RESPONSE: ("a model response arrived", ("llm_model", "llm_tokens"), False),
    EventType.LLM_STREAM_START: ("a streamed response started", ("llm_model",), False),
    EventType.LLM_STREAM_END: ("a streamed response ended", ("llm_model", "llm_tokens"), False),
    EventType.SESSION_START: ("a session started (data.source: startup, resume, clear, compact ...)",
                              ("source",), False),
    EventType.SESSION_END: ("a session ended", ("message_count",), False),
    EventType.SESSION_MESSAGE: ("a message was added to the session", ("message_count",), False),
    EventType.PERMISSION_CHECK: ("a tool's permission is being checked", ("perm_level", "perm_rule"), True),
    EventType.PERMISSION_PROMPT: ("the user is asked for a permission", ("perm_level", "perm_rule"), True),
    EventType.PERMISSION_GRANTED: ("a permission was granted", ("perm_level", "perm_rule"), True),
    EventType.PERMISSION_DENIED: ("a permission was denied", ("perm_level", "perm_rule"), True),
    EventType.USER_PROMPT_SUBMIT: ("the user submitted a prompt", ("user_input",), False),
    EventType.USER_INTERRUPT: ("the user interrupted the agent", (), False),
    EventType.AGENT_STOP: ("the agent is about to end its turn; a deny keeps it working, its reason the "
                           "next instruction", ("stop_count",), False),
    EventType.AGENT_SUBAGENT_START: ("a subagent starts; a deny stops it where the agent allows (Cursor)",
                                     ("agent_type",), False),
    EventType.AGENT_SUBAGENT_STOP: ("a subagent is about to end; a deny keeps it working",
                                    ("agent_type", "stop_count"), False),
    EventType.SESSION_NOTIFICATION: ("the agent shows the person a notice (a permission prompt waiting, "
                                     "idle); observe only", ("message", "notification_type"), False),
    EventType.SESSION_PRE_COMPACT: ("the context is about to be compacted; a deny stops it where the agent "
                                    "allows (Claude)", ("trigger",), False),
    EventType.SESSION_POST_COMPACT: ("the context was compacted; observe only", ("trigger",), False),
    EventType.AGENT_NATIVE: ("any other native event of an agent; tool_name is its native name "
                             "(agent:native:Setup)", (), True),
}.items()}
#: The event types that name a tool (agent:native names a native event in ``tool_name``,
#: not a tool).
TOOL_EVENT_TYPES: frozenset[str] = frozenset(t.value for t, info in EVENT_INFO.items()
                                             if info.has_tool and t is not EventType.AGENT_NATIVE)
#: Forge's event types that can block (DESIGN.md, "Events"): an agent's own list, where
#: the run came in through its dialect, is the dialect's ``blocking_events``.
BLOCKING_TYPES: frozenset[str] = frozenset(
    {"tool:pre_execute", "user:prompt_submit", "permission:check", "permission:prompt", "llm:pre_request"})
#: Where a deny means "do not stop yet" (or "do not compact"): a hook may refuse, forge's
#: own failures never do, and a refused stop is counted (:mod:`forge_hookd.run.stops`).
REFUSABLE_TYPES: frozenset[str] = frozenset(
    {"agent:stop", "agent:subagent_stop", "session:pre_compact"})
#: The stops forge counts per session: ``data.stop_count``, ``FORGE_MAX_CONTINUES``.
STOP_TYPES: frozenset[str] = frozenset({"agent:stop", "agent:subagent_stop"})
#: Observe-only events: through a dialect a deny is reported, never obeyed.
OBSERVE_ONLY_TYPES: frozenset[str] = frozenset({"session:notification", "session:post_compact"})

#: The variables every hook gets beside one ``FORGE_<KEY>`` per ``data`` key, in the order
#: DESIGN.md ("Environment variables") lists them. The one list: the executor, the
#: config check and ``forge-hook events`` import it.
EVENT_VARS: tuple[str, ...] = (
    EVENT_VAR := "FORGE_EVENT",
    TIMESTAMP_VAR := "FORGE_TIMESTAMP",
    SESSION_ID_VAR := "FORGE_SESSION_ID",
    TOOL_NAME_VAR := "FORGE_TOOL_NAME",
    WORKING_DIR_VAR := "FORGE_WORKING_DIR",
    PROJECT_DIR_VAR := "FORGE_PROJECT_DIR",
)
#: Event types being handled by runs up the process tree (see :mod:`forge_hookd.run.nesting`).
CHAIN_VAR = "FORGE_HOOK_CHAIN"
#: The ``FORGE_<KEY>`` data variables a run gave its hooks, comma-separated: a nested run
#: removes them, so that an inner event never sees the outer event's data.
DATA_VARS_VAR = "FORGE_HOOK_VARS"
#: Set in every hook's environment, unique to it: one way its orphans are recognised
#: (:mod:`forge_hookd.run.tree`).
TOKEN_VAR = "FORGE_HOOK_TOKEN"
#: The runner's own bookkeeping.
RUNNER_VARS: tuple[str, ...] = (CHAIN_VAR, DATA_VARS_VAR, TOKEN_VAR)

#: The ``data`` keys the factories write; when two keys map to one variable, the
#: conventional one wins.
CONVENTIONAL_KEYS: tuple[str, ...] = tuple(dict.fromkeys(k for info in EVENT_INFO.values() for k in info.data_keys))

#: The hooks a person asked this run to skip (skiplist.py): never set by event data nor
#: by a hook's ``env``, never inherited by a nested run.
SKIP_VAR = "FORGE_SKIP"

#: Names neither a ``data`` key nor a hook's own ``env`` can set.
RESERVED_ENV: frozenset[str] = frozenset((*EVENT_VARS, *RUNNER_VARS, SKIP_VAR))
#: The variables that steer forge itself (a nested forge-hook-run reads them): event data
#: is the caller's content and never configures a nested run, so no ``data`` key sets one
#: (issue 19 item 9). Names under FORGE_HOOK_ and FORGE_WARM are the runner's own too.
STEERING_VARS: frozenset[str] = frozenset({
    "FORGE_TRUST_PROJECT", "FORGE_REQUIRE_TRUST", "FORGE_CONFIG_DIR", "FORGE_LOG", "FORGE_LOG_FILE",
    "FORGE_TRACE", "FORGE_MAX_CONTINUES", "FORGE_DEBUG", "FORGE_LOCK_TIMEOUT", SKIP_VAR})
_STEERING_PREFIXES = ("FORGE_HOOK_", "FORGE_WARM")


def steers_forge(name: str) -> bool:
    """Whether the variable ``name`` configures forge-hook-run or forge-hook."""
    return name in STEERING_VARS or name.startswith(_STEERING_PREFIXES)

ENV_VALUE_LIMIT = 8 * 1024
TRUNCATED_MARKER = "...[truncated]"
# Linux refuses an execve whose strings exceed ARG_MAX (E2BIG): keep all data variables
# together well under it, whatever the event holds (issue 3, guarantee 5).
ENV_DATA_BUDGET = 256 * 1024
_ENV_NAME_LIMIT = 200
_KEYS = ("type", "timestamp", "data", "tool_name", "session_id")
#: How deep ``data`` may nest. The JSON writer stops at 255 levels and the documents we
#: write hold ``data`` a few levels down (hooks' answers may nest it further): deeper
#: events are refused here rather than crashing the output after the hooks ran.
MAX_DATA_DEPTH = 128
_KEY_HINTS = {"tool": "tool_name", "session": "session_id", "event": "type", "time": "timestamp"}
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")


def env_name(key: str) -> str:
    """``FORGE_<KEY>``: upper-cased, every non-alphanumeric as ``_``."""
    return "FORGE_" + _NOT_ALNUM.sub("_", key).upper()


#: The variables of the conventional ``data`` keys (``FORGE_TOOL_ARGS`` ...).
CONVENTIONAL_VARS: frozenset[str] = frozenset(env_name(k) for k in CONVENTIONAL_KEYS)


def is_event_var(name: str) -> bool:
    """Whether ``name`` is a variable the runner sets for an event (one of the fixed
    ones, the runner's own, or a conventional ``data`` key's): a hook's ``env`` cannot
    set it, and a nested run does not inherit it."""
    return name in RESERVED_ENV or name in CONVENTIONAL_VARS


def sanitize_env_value(value: str) -> str:
    """NULs removed, newlines as spaces, cut at 8 KiB with a ``...[truncated]`` marker."""
    value = value.replace("\0", "").replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    if len(value) > ENV_VALUE_LIMIT:
        value = value[: ENV_VALUE_LIMIT - len(TRUNCATED_MARKER)] + TRUNCATED_MARKER
    return value


def dumps(value: Any) -> bytes:
    """Compact JSON for anything a library caller may put in an event.

    orjson does not call ``default`` for integers beyond 64 bits or for lone
    surrogates in strings; the standard library (with ASCII escapes) takes those.
    """
    try:
        return orjson.dumps(value, default=str)
    except TypeError:
        return json.dumps(value, default=str, separators=(",", ":")).encode()


#: The runner's own control variables (nesting, the data variables, the token, the skip
#: list): a ``data`` key that names one is left out with a warning, not in silence.
_CONTROL_VARS: frozenset[str] = frozenset((*RUNNER_VARS, SKIP_VAR))


def _whose(name: str) -> str:
    return "a control variable forge sets itself" if name in _CONTROL_VARS else "which steers forge"


def _data_names(data: dict[str, Any]) -> tuple[dict[Any, str], list[tuple[str, str, str]]]:
    """Each ``data`` key that gets a variable, with its name, and the (lost, kept, name)
    triples of keys that collided (``kept`` empty: the name steers forge, see
    :data:`STEERING_VARS`). Conventional keys claim their names first, so that a
    decoy ``tool-args`` never replaces ``tool_args``; among the rest the first wins."""
    names: dict[Any, str] = {}
    owner: dict[str, Any] = {}
    lost: list[tuple[str, str, str]] = []
    conventional = [k for k in data if k in CONVENTIONAL_KEYS]
    for key in [*conventional, *(k for k in data if k not in CONVENTIONAL_KEYS)]:
        name = env_name(str(key))
        if name in _CONTROL_VARS:
            lost.append((str(key), "", name))  # said: a key that names forge's control is never silent
            continue
        if name in RESERVED_ENV or len(name) > _ENV_NAME_LIMIT:
            continue
        if steers_forge(name):
            lost.append((str(key), "", name))
            continue
        if name in owner:
            lost.append((str(key), str(owner[name]), name))
            continue
        owner[name] = key
        names[key] = name
    return {k: names[k] for k in data if k in names}, lost


def _env_text(value: Any) -> str:
    return value if isinstance(value, str) else dumps(value).decode()


@dataclass
class HookEvent:
    """One agent event: what happened, when, with what data."""

    type: EventType
    timestamp: float = field(default_factory=time.time)
    data: dict[str, Any] = field(default_factory=dict)
    tool_name: str | None = None
    session_id: str | None = None

    def __post_init__(self) -> None:
        # Callers write HookEvent(type="session:start"): take the wire string, and refuse
        # an unknown one now, not later with an AttributeError in to_json() or a registry.
        if not isinstance(self.type, EventType):
            try:
                self.type = EventType(self.type)
            except ValueError:
                raise ValueError(f"unknown event type {self.type!r}; EventType lists them") from None

    # -- factories ---------------------------------------------------------------
    @classmethod
    def tool_pre_execute(
        cls, tool_name: str, tool_args: dict[str, Any] | None = None, session_id: str | None = None
    ) -> HookEvent:
        return cls(EventType.TOOL_PRE_EXECUTE, data={"tool_args": tool_args or {}},
                   tool_name=tool_name, session_id=session_id)

    @classmethod
    def tool_post_execute(
        cls, tool_name: str, tool_args: dict[str, Any] | None = None, tool_result: Any = None,
        session_id: str | None = None,
    ) -> HookEvent:
        data = {"tool_args": tool_args or {}, "tool_result": tool_result}
        return cls(EventType.TOOL_POST_EXECUTE, data=data, tool_name=tool_name, session_id=session_id)

    @classmethod
    def tool_error(
        cls, tool_name: str, tool_args: dict[str, Any] | None = None, error: str = "",
        session_id: str | None = None,
    ) -> HookEvent:
        data = {"tool_args": tool_args or {}, "error": error}
        return cls(EventType.TOOL_ERROR, data=data, tool_name=tool_name, session_id=session_id)

    @classmethod
    def llm_pre_request(cls, llm_model: str, session_id: str | None = None) -> HookEvent:
        return cls(EventType.LLM_PRE_REQUEST, data={"llm_model": llm_model}, session_id=session_id)

    @classmethod
    def llm_post_response(
        cls, llm_model: str, llm_tokens: int | None = None, session_id: str | None = None
    ) -> HookEvent:
        data = {"llm_model": llm_model, "llm_tokens": llm_tokens}
        return cls(EventType.LLM_POST_RESPONSE, data=data, session_id=session_id)

    @classmethod
    def llm_stream_start(cls, llm_model: str, session_id: str | None = None) -> HookEvent:
        return cls(EventType.LLM_STREAM_START, data={"llm_model": llm_model}, session_id=session_id)

    @classmethod
    def llm_stream_end(
        cls, llm_model: str, llm_tokens: int | None = None, session_id: str | None = None
    ) -> HookEvent:
        data = {"llm_model": llm_model, "llm_tokens": llm_tokens}
        return cls(EventType.LLM_STREAM_END, data=data, session_id=session_id)

    @classmethod
    def session_start(cls, session_id: str, source: str | None = None) -> HookEvent:
        """``source``: how the session started (``startup``, ``resume``, ``clear``,
        ``compact``: after a compaction, where rules are re-injected)."""
        data = {} if source is None else {"source": source}
        return cls(EventType.SESSION_START, data=data, session_id=session_id)

    @classmethod
    def session_end(cls, session_id: str, message_count: int | None = None) -> HookEvent:
        data = {} if message_count is None else {"message_count": message_count}
        return cls(EventType.SESSION_END, data=data, session_id=session_id)

    @classmethod
    def session_message(cls, session_id: str, message_count: int | None = None) -> HookEvent:
        data = {} if message_count is None else {"message_count": message_count}
        return cls(EventType.SESSION_MESSAGE, data=data, session_id=session_id)

    @classmethod
    def permission_check(
        cls, tool_name: str, perm_level: str | None = None, perm_rule: str | None = None,
        session_id: str | None = None,
    ) -> HookEvent:
        return cls._permission(EventType.PERMISSION_CHECK, tool_name, perm_level, perm_rule, session_id)

    @classmethod
    def permission_prompt(
        cls, tool_name: str, perm_level: str | None = None, perm_rule: str | None = None,
        session_id: str | None = None,
    ) -> HookEvent:
        return cls._permission(EventType.PERMISSION_PROMPT, tool_name, perm_level, perm_rule, session_id)

    @classmethod
    def permission_granted(
        cls, tool_name: str, perm_level: str | None = None, perm_rule: str | None = None,
        session_id: str | None = None,
    ) -> HookEvent:
        return cls._permission(EventType.PERMISSION_GRANTED, tool_name, perm_level, perm_rule, session_id)

    @classmethod
    def permission_denied(
        cls, tool_name: str, perm_level: str | None = None, perm_rule: str | None = None,
        session_id: str | None = None,
    ) -> HookEvent:
        return cls._permission(EventType.PERMISSION_DENIED, tool_name, perm_level, perm_rule, session_id)

    @classmethod
    def _permission(
        cls, type_: EventType, tool_name: str, perm_level: str | None, perm_rule: str | None,
        session_id: str | None,
    ) -> HookEvent:
        data = {k: v for k, v in (("perm_level", perm_level), ("perm_rule", perm_rule)) if v is not None}
        return cls(type_, data=data, tool_name=tool_name, session_id=session_id)

    @classmethod
    def user_prompt_submit(cls, user_input: str, session_id: str | None = None) -> HookEvent:
        return cls(EventType.USER_PROMPT_SUBMIT, data={"user_input": user_input}, session_id=session_id)

    @classmethod
    def user_interrupt(cls, session_id: str | None = None) -> HookEvent:
        return cls(EventType.USER_INTERRUPT, session_id=session_id)

    @classmethod
    def agent_stop(cls, session_id: str | None = None) -> HookEvent:
        """The agent is about to end its turn (a run adds ``data.stop_count``)."""
        return cls(EventType.AGENT_STOP, session_id=session_id)

    @classmethod
    def agent_subagent_start(cls, agent_type: str | None = None, session_id: str | None = None) -> HookEvent:
        data = {} if agent_type is None else {"agent_type": agent_type}
        return cls(EventType.AGENT_SUBAGENT_START, data=data, session_id=session_id)

    @classmethod
    def agent_subagent_stop(cls, agent_type: str | None = None, session_id: str | None = None) -> HookEvent:
        data = {} if agent_type is None else {"agent_type": agent_type}
        return cls(EventType.AGENT_SUBAGENT_STOP, data=data, session_id=session_id)

    @classmethod
    def session_notification(cls, message: str, notification_type: str | None = None,
                             session_id: str | None = None) -> HookEvent:
        data: dict[str, Any] = {"message": message}
        if notification_type is not None:
            data["notification_type"] = notification_type
        return cls(EventType.SESSION_NOTIFICATION, data=data, session_id=session_id)

    @classmethod
    def session_pre_compact(cls, trigger: str | None = None, session_id: str | None = None) -> HookEvent:
        data = {} if trigger is None else {"trigger": trigger}
        return cls(EventType.SESSION_PRE_COMPACT, data=data, session_id=session_id)

    @classmethod
    def session_post_compact(cls, trigger: str | None = None, session_id: str | None = None) -> HookEvent:
        data = {} if trigger is None else {"trigger": trigger}
        return cls(EventType.SESSION_POST_COMPACT, data=data, session_id=session_id)

    @classmethod
    def agent_native(cls, name: str, session_id: str | None = None) -> HookEvent:
        """Another native event of an agent, named as the agent names it (``Setup``)."""
        return cls(EventType.AGENT_NATIVE, tool_name=name, session_id=session_id)

    # -- serialization -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type.value,
            "timestamp": self.timestamp,
            "data": self.data,
            "tool_name": self.tool_name,
            "session_id": self.session_id,
        }

    def to_json(self) -> str:
        """The event as one compact JSON object: what hooks read on stdin."""
        return self.to_json_bytes().decode()

    def to_json_bytes(self) -> bytes:
        return dumps(self.to_dict())

    def to_env(self) -> dict[str, str]:
        """The ``FORGE_*`` variables a hook gets for this event.

        ``data`` keys become ``FORGE_<KEY>`` (objects and lists as JSON); they can never
        overwrite the reserved names, every value is sanitized (see
        :func:`sanitize_env_value`), and all data variables together stay under
        ``ENV_DATA_BUDGET`` characters: keys past it are left out (they are on stdin).
        When two keys map to one name, the conventional key wins, else the first
        (:meth:`env_conflicts` says which lost).
        """
        env = {EVENT_VAR: self.type.value, TIMESTAMP_VAR: repr(self.timestamp)}
        if self.session_id is not None:
            env[SESSION_ID_VAR] = sanitize_env_value(self.session_id)
        if self.tool_name is not None:
            env[TOOL_NAME_VAR] = sanitize_env_value(self.tool_name)
        budget = ENV_DATA_BUDGET
        for key, name in _data_names(self.data)[0].items():
            text = sanitize_env_value(_env_text(self.data[key]))
            budget -= len(name) + len(text)
            if budget < 0:
                break
            env[name] = text
        return env

    def env_conflicts(self) -> list[str]:
        """One warning per ``data`` key whose variable another key took, or that would
        set a variable that steers forge or one of forge's control variables
        (``hook_chain``: left out of the environment; it is on stdin)."""
        return [f"data key '{lost}' maps to {name} like '{kept}'; {name} holds '{kept}'" if kept else
                f"data key '{lost}' would set {name}, {_whose(name)}: left out of the hooks' environment (it is "
                "on stdin); event data never configures a nested run"
                for lost, kept, name in _data_names(self.data)[1]]

    # -- parsing -----------------------------------------------------------------
    @classmethod
    def from_json(cls, raw: bytes | str) -> HookEvent:
        """Parse exactly one event object; anything else raises :class:`EventError`.

        Refused: empty input, invalid UTF-8 or JSON, more than one document, a value
        that is not an object, an unknown key, a wrong type, an unknown event type.
        """
        if not raw.strip():
            raise EventError("empty input: expected one JSON event object")
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise EventError(f"invalid event JSON: {exc}") from None
        return cls.from_dict(obj)

    @classmethod
    def from_dict(cls, obj: object) -> HookEvent:
        """Validate a decoded JSON value as an event (see :meth:`from_json`)."""
        if not isinstance(obj, dict):
            raise EventError(f"event must be a JSON object, not {json_type(obj)}")
        _refuse_unknown_keys(obj)
        return cls(
            type=_event_type(obj.get("type")),
            timestamp=_timestamp(obj.get("timestamp")),
            data=_data(obj.get("data")),
            tool_name=optional_str(obj, "tool_name", EventError),
            session_id=optional_str(obj, "session_id", EventError),
        )


def _refuse_unknown_keys(obj: dict[str, Any]) -> None:
    unknown = [k for k in obj if k not in _KEYS]
    if not unknown:
        return
    key = unknown[0]
    hint = did_you_mean(key, (), aliases=_KEY_HINTS)
    allowed = ", ".join(_KEYS)
    raise EventError(f"unknown key '{key}' in event{hint}; allowed keys: {allowed}")


def _event_type(value: object) -> EventType:
    if value is None:
        raise EventError("event has no 'type'")
    if not isinstance(value, str):
        raise EventError(f"'type' must be a string, not {json_type(value)}")
    if value not in EVENT_TYPES:
        raise EventError(f"unknown event type '{value}'; run 'forge-hook-run --help' for the list")
    return EventType(value)


def _timestamp(value: object) -> float:
    if value is None:
        return time.time()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise EventError(f"'timestamp' must be a number, not {json_type(value)}")
    if not math.isfinite(value):
        raise EventError("'timestamp' must be a finite number")
    return float(value)


def _data(value: object) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise EventError(f"'data' must be an object, not {json_type(value)}")
    if _nested_deeper(value, MAX_DATA_DEPTH):
        raise EventError(f"'data' is nested deeper than {MAX_DATA_DEPTH} levels")
    return value


def _nested_deeper(value: dict[str, Any], limit: int) -> bool:
    """Whether containers nest more than ``limit`` levels (``value`` itself is level 1)."""
    level: list[Any] = [value]
    for _ in range(limit):
        level = [c for v in level for c in (v.values() if isinstance(v, dict) else v)
                 if isinstance(c, (dict, list))]
        if not level:
            return False
    return True
