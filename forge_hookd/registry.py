"""Hooks and which of them an event runs. No I/O here."""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any, ClassVar

from forge_hookd.dialects import NAMES as DIALECTS
from forge_hookd.errors import ConfigError, optional_str
from forge_hookd.events import EVENT_TYPES, TOOL_EVENT_TYPES, HookEvent
from forge_hookd.text import did_you_mean, near_miss

DEFAULT_TIMEOUT = 10.0
MIN_TIMEOUT = 0.1
MAX_TIMEOUT = 600.0  # Claude's and Codex's own default: an imported hook keeps it (DESIGN, "Hook config")
HOOK_KEYS = ("id", "event", "command", "guard", "with", "timeout", "working_dir", "env", "enabled", "detach",
             "description", "blocking", "format", "matcher", "if", "fail_closed", "max_continues")
# An id is named on command lines and in FORGE_SKIP=id,id: no comma, space, colon or glob
# character (it can never read as a pattern), and never all digits (it can never read as
# an index: forge-hook disable 2).
_ID = re.compile(r"[A-Za-z0-9_.-]{1,100}")
_GLOB_CHARS = frozenset("*?[")
# The seed's 10.0 as the default of ``Hook.timeout``, as an object of its own: a hook
# given no timeout holds exactly this float, so "not set" stays distinguishable from an
# explicit 10 (the executor's default applies only to the former, and to_dict leaves it
# out) while ``hook.timeout`` reads as the plain 10.0 the seed promises (issue 20, item 13).
# ``+ 0.0`` makes a new float object at run time: a literal could be a shared constant.
_UNSET_TIMEOUT: float = DEFAULT_TIMEOUT + 0.0


def clamp_timeout(timeout: float) -> float:
    """Timeouts are kept within [0.1, 600] seconds (NaN means the default)."""
    timeout = float(timeout)
    if timeout != timeout:
        return DEFAULT_TIMEOUT
    return min(max(timeout, MIN_TIMEOUT), MAX_TIMEOUT)


def split_patterns(event_pattern: str) -> tuple[str, ...]:
    """``"tool:error, session:*"`` -> ``("tool:error", "session:*")``."""
    return tuple(p.strip() for p in event_pattern.split(",") if p.strip())


def pattern_matches(pattern: str, event_type: str, tool_name: str | None) -> bool:
    """One pattern against an event type and tool name (DESIGN.md, "Matching")."""
    if pattern == "*" or pattern == event_type:
        return True
    qualified = f"{event_type}:{tool_name}" if tool_name is not None else None
    if _GLOB_CHARS.isdisjoint(pattern):
        return pattern == qualified
    return fnmatchcase(event_type, pattern) or (
        qualified is not None and fnmatchcase(qualified, pattern)
    )


def native_tool(event: HookEvent) -> str | None:
    """The agent's own name for the event's tool when it came in through a dialect and
    differs from the canonical one (``data.agent.tool``: Claude's ``Bash``)."""
    agent = event.data.get("agent")
    tool = agent.get("tool") if isinstance(agent, dict) else None
    return tool if isinstance(tool, str) and tool and tool != event.tool_name else None


def _tool_part(pattern: str) -> str | None:
    """The tool name a pattern spells out (``tool:pre_execute:bsah`` -> ``bsah``,
    ``*:Bahs`` -> ``Bahs``); None when it names none or globs it."""
    head = max((t for t in TOOL_EVENT_TYPES if pattern.startswith(t + ":")), key=len, default=None)
    tool = pattern[len(head) + 1:] if head is not None else (
        pattern.rpartition(":")[2] if ":" in pattern and not _GLOB_CHARS.isdisjoint(pattern) else "")
    return tool if tool and _GLOB_CHARS.isdisjoint(tool) else None


def tool_typos(patterns: Iterable[str]) -> list[str]:
    """``forge-hook check``'s finding for each pattern whose tool part is no tool that
    forge or an agent names (canonical names and every dialect's native ones) but looks
    like a typo of one (``bsah``, ``Bahs``, ``BASH``): such a hook silently never runs.
    Other names are legitimate (MCP tools, a caller's own tools such as ``git``)."""
    known = _known_tools()
    findings = []
    for pattern in patterns:
        tool = _tool_part(pattern)
        if tool is None or tool in known or tool.startswith("mcp") or len(tool) > 64:
            continue
        near = near_miss(tool, known)
        if near is not None:
            findings.append(f"tool '{tool}' in '{pattern}' is no tool name forge or an agent uses and looks "
                            f"like a typo (did you mean '{near}'?): the hook never runs for it")
    return findings


def _known_tools() -> tuple[str, ...]:
    """Canonical tool names first, then every dialect's native ones (check time only:
    this imports every dialect)."""
    from forge_hookd import dialects
    from forge_hookd.dialects.base import CANONICAL_TOOLS

    names = dict.fromkeys(CANONICAL_TOOLS)
    for name in dialects.NAMES:
        names.update(dict.fromkeys(dialects.get(name).words.tools))
    return tuple(names)


@functools.lru_cache(maxsize=256)  # each call tries every type; a file repeats its patterns
def pattern_can_match(pattern: str) -> bool:
    """Whether some event (a type, or a type plus some tool name) matches ``pattern``."""
    if _GLOB_CHARS.isdisjoint(pattern):  # the common case, without 16 fnmatch calls
        return pattern in EVENT_TYPES or any(pattern.startswith(t + ":") for t in EVENT_TYPES)
    if any(fnmatchcase(t, pattern) for t in EVENT_TYPES):
        return True
    # T:tool where the part before some colon matches a type (tool names may hold colons).
    heads = [pattern[:i] for i, c in enumerate(pattern) if c == ":"]
    if any(fnmatchcase(t, head) for head in heads for t in EVENT_TYPES):
        return True
    # A glob such as tool*bash: try the literal words of the pattern as tool names.
    words = [w for w in re.split(r"[*?\[\]!:]", pattern) if w] or ["x"]
    return any(fnmatchcase(f"{t}:{w}", pattern) for t in EVENT_TYPES for w in words)


#: The ``source`` of the managed layer's hooks: ``managed``, or ``managed:NAME`` for a
#: file of ``managed.d`` (forge_hookd.managed).
MANAGED_SOURCE = "managed"
#: How the warning of a managed file that failed its checks begins.
MANAGED_REFUSED = "managed policy refused"


def is_managed(source: str | None) -> bool:
    """Whether a hook of ``source`` comes from the managed layer (no skip list, option or
    variable turns it off)."""
    return source is not None and (source == MANAGED_SOURCE or source.startswith(MANAGED_SOURCE + ":"))


def hook_name(source: str | None, source_index: int | None, hook_id: str | None = None, *,
              run_index: int | None = None) -> str:
    """How a hook is named for people, the one way everywhere (trace, verdict line, list,
    log, check): its source and its place in its own file, ``project[2]``, and its id
    when it has one, ``project[2] (lint)``. A hook not read from a file (a library
    caller's) is ``hook N``, its place in the run."""
    if source_index is None:
        name = f"hook {run_index if run_index is not None else '?'}"
    else:
        name = f"{source or '?'}[{source_index}]"
    return f"{name} ({hook_id})" if hook_id else name


@dataclass(frozen=True)
class Hook:
    """A shell command, or a built-in guard, attached to the events its ``event_pattern``
    matches.

    A hook has either a ``command`` or a ``guard`` (a built-in guard's name, judged
    in-process by the executor, never run as a shell command, with its options in
    ``with_``, the config key ``with``); a guard hook's ``command`` is empty and never
    part of :meth:`to_dict`: ``Hook("tool:pre_execute", guard="destructive_rm")``.

    ``id`` is an optional name, unique in its file (``forge-hook check`` reports
    duplicates), that ``forge-hook enable/disable/remove`` and ``FORGE_SKIP`` take: an
    index shifts with every add and remove, an id does not.

    ``timeout`` is clamped to [0.1, 600] s (600: Claude's and Codex's own default, which an
    imported hook keeps). A hook given none reads 10.0, the seed's default, and is "not
    set": the executor's ``default_timeout`` applies to it (10 s unless the executor says
    otherwise) and :meth:`to_dict` writes no timeout back; a hook configured with an
    explicit ``"timeout": 10`` keeps its 10 (:attr:`timeout_set` tells the two apart).
    ``source`` says where the hook was loaded
    from (``global``, ``project`` or a file path) and ``source_index`` its place in that
    file's ``hooks`` list (the number ``forge-hook enable/disable`` take); neither is part
    of :meth:`to_dict`.
    """

    event_pattern: str
    command: str = ""
    timeout: float = _UNSET_TIMEOUT
    working_dir: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    enabled: bool = True
    detach: bool = False
    description: str | None = None
    blocking: bool = True  # False: an observer, recorded but never obeyed (answers.py)
    format: str | None = None  # an agent's hook protocol it speaks (dialects/)
    guard: str | None = None  # a built-in guard's name (guards/): judged without a process
    with_: dict[str, Any] = field(default_factory=dict)  # the guard's options, config key "with"
    matcher: str | None = None  # the agent's own matcher, read by the format's rules
    if_: str | None = None  # Claude's "if" rule, config key "if"
    fail_closed: bool = False  # a format hook's plain failure denies
    max_continues: int | None = None  # at most this many refused stops in a row are obeyed
    id: str | None = None  # its name for people and FORGE_SKIP, unique in its file
    source: str | None = field(default=None, compare=False)
    source_index: int | None = field(default=None, compare=False)
    _patterns: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _timeout_set: bool = field(init=False, repr=False, compare=False)
    _native: Callable[[HookEvent], bool] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.guard is not None and self.command:  # which would run? neither guess is safe
            raise ValueError("a hook has a command or a guard, not both")
        # None was the library's "not set" before issue 20: still read as such.
        given = self.timeout is not _UNSET_TIMEOUT and self.timeout is not None
        object.__setattr__(self, "_timeout_set", given)
        object.__setattr__(self, "timeout", clamp_timeout(self.timeout) if given else _UNSET_TIMEOUT)
        object.__setattr__(self, "_patterns", split_patterns(self.event_pattern))
        native = None
        if self.matcher is not None or self.if_ is not None:
            from forge_hookd.dialects.matching import native_filter  # 3 ms at import (-X importtime): only a kept filter pays

            native = native_filter(self.format, self.matcher, self.if_)
        object.__setattr__(self, "_native", native)

    @property
    def timeout_set(self) -> bool:
        """Whether the hook was given a timeout (a config entry's ``timeout``)."""
        return self._timeout_set

    @property
    def effective_timeout(self) -> float:
        """The timeout this hook runs with when the executor keeps the 10 s default."""
        return self.timeout

    @property
    def action(self) -> str:
        """What the hook does, for tables and traces: its command, or ``guard NAME``
        and the guard's options."""
        if self.guard is None:
            return self.command
        import json  # 2 ms of forge-hook's start-up, where nothing else loads it (python -X importtime)

        options = " with " + json.dumps(self.with_, sort_keys=True, ensure_ascii=False) if self.with_ else ""
        return f"guard {self.guard}{options}"

    @property
    def patterns(self) -> tuple[str, ...]:
        return self._patterns

    def matches(self, event: HookEvent) -> bool:
        """True when any of the comma-separated patterns matches the event: by the
        canonical tool name and, for an event that came in through a dialect, by the
        agent's own (``tool:pre_execute:Bash`` guards Claude's Bash); and the agent's own
        filter the hook kept (``matcher``, ``if``: dialects/matching.py) must pass too."""
        event_type = event.type.value
        if not any(pattern_matches(p, event_type, event.tool_name) for p in self._patterns):
            native = native_tool(event)
            if native is None or not any(pattern_matches(p, event_type, native) for p in self._patterns):
                return False
        return self._native is None or self._native(event)

    def to_dict(self) -> dict[str, Any]:
        """The config entry for this hook; keys left at their default are omitted."""
        out: dict[str, Any] = {} if self.id is None else {"id": self.id}
        out["event"] = self.event_pattern
        if self.guard is None:
            out["command"] = self.command
        else:
            out["guard"] = self.guard
            if self.with_:
                out["with"] = dict(self.with_)
        if self._timeout_set:
            out["timeout"] = self.timeout
        if self.working_dir is not None:
            out["working_dir"] = self.working_dir
        if self.env:
            out["env"] = dict(self.env)
        if not self.enabled:
            out["enabled"] = False
        if self.detach:
            out["detach"] = True
        if self.description:
            out["description"] = self.description
        if not self.blocking:
            out["blocking"] = False
        if self.format is not None:
            out["format"] = self.format
        if self.matcher is not None:
            out["matcher"] = self.matcher
        if self.if_ is not None:
            out["if"] = self.if_
        if self.fail_closed:
            out["fail_closed"] = True
        if self.max_continues is not None:
            out["max_continues"] = self.max_continues
        return out

    @classmethod
    def from_dict(cls, data: object, *, source: str | None = None,
                  source_index: int | None = None) -> Hook:
        """Build a hook from a config entry, defaults applied.

        Raises :class:`ConfigError` naming the key when the entry is malformed. Keys
        this version does not know are ignored here; see :func:`unknown_keys`.
        """
        if not isinstance(data, dict):
            raise ConfigError(f"a hook must be an object, not {type(data).__name__}")
        event_pattern = _required_str(data, "event")
        guard = _guard(data)
        return cls(
            event_pattern=event_pattern,
            command=_required_str(data, "command") if guard is None else "",
            guard=guard,
            with_=_with(data.get("with")),
            timeout=_timeout(data["timeout"]) if "timeout" in data else _UNSET_TIMEOUT,
            working_dir=_optional_str(data, "working_dir"),
            env=_env(data.get("env")),
            enabled=_bool(data, "enabled", True),
            detach=_bool(data, "detach", False),
            description=_optional_str(data, "description"),
            blocking=_bool(data, "blocking", True),
            format=_format(data.get("format")),
            matcher=_optional_str(data, "matcher"),
            if_=_optional_str(data, "if"),
            fail_closed=_bool(data, "fail_closed", False),
            max_continues=_max_continues(data.get("max_continues")),
            id=_hook_id(data.get("id")),
            source=source,
            source_index=source_index,
        )


def unknown_keys(data: dict[str, Any]) -> list[str]:
    """Keys of a config entry that no version of the format defines."""
    return [k for k in data if k not in HOOK_KEYS]


def _required_str(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if value is None:
        raise ConfigError(f"missing required key '{key}'{_misspelt(data, (key,))}")
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"'{key}' must be a non-empty string")
    return _no_nul(value, key)


def _misspelt(data: dict[str, Any], wanted: tuple[str, ...]) -> str:
    """``; 'comand' is no key (did you mean 'command'?)`` when an unknown key of the
    entry looks like a typo of a missing required one: the typo is the news, not the gap."""
    for key in unknown_keys(data):
        hint = did_you_mean(str(key), wanted)
        if hint:
            return f"; '{key}' is no key{hint}"
    return ""


def _guard(data: dict[str, Any]) -> str | None:
    """The guard's name; exactly one of ``command`` and ``guard`` is given."""
    if "guard" not in data:
        if "command" not in data:
            raise ConfigError("missing required key 'command' (or 'guard', a built-in guard)"
                              + _misspelt(data, ("command", "guard")))
        if "with" in data:
            raise ConfigError("'with' holds a guard's options: this hook has a 'command', not a 'guard'")
        return None
    if "command" in data:
        raise ConfigError("a hook has a 'command' or a 'guard', not both")
    return _required_str(data, "guard")


def _hook_id(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ConfigError(f"'id' must be a string, not {type(value).__name__}")
    if not _ID.fullmatch(value) or value.isdigit():
        shown = repr(value) if len(value) <= 40 else f"{value[:30]!r}... ({len(value)} characters)"
        raise ConfigError(f"'id' must be up to 100 letters, digits, '-', '_' and '.', not only digits "
                          f"(that reads as an index), not {shown}")
    return value


def _with(value: object) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ConfigError(f"'with' must be an object of the guard's options, not {type(value).__name__}")
    return dict(value)


def _optional_str(data: dict[str, Any], key: str) -> str | None:
    value = optional_str(data, key, ConfigError)
    return value if value is None else _no_nul(value, key)


def _no_nul(value: str, key: str) -> str:
    if "\0" in value:  # no command line or path can hold one
        raise ConfigError(f"'{key}' must not contain a NUL byte")
    return value


def _timeout(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise ConfigError("'timeout' must be a number of seconds")
    return float(value)


def _env(value: object) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ConfigError("'env' must be an object of strings")
    for key, item in value.items():
        if not isinstance(item, str):
            raise ConfigError(f"'env.{key}' must be a string")
        if not key or "=" in key or "\0" in key or "\0" in item:
            raise ConfigError(f"'env.{key}' is not a valid environment variable")
    return dict(value)


def _format(value: object) -> str | None:
    if value is None or (isinstance(value, str) and value in DIALECTS):
        return value
    raise ConfigError(f"'format' must be one of {', '.join(DIALECTS)}, not {value!r}")


def _max_continues(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError("'max_continues' must be a whole number of refused stops, 0 or more")
    return value


def _bool(data: dict[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise ConfigError(f"'{key}' must be true or false")
    return value


class HookRegistry:
    """The hooks an agent has registered, in registration order. Thread-safe.

    ``hooks`` is the seed's public list of them, in order: programs written against the
    seed read it (and append to it), so it is the registry's own list, never a copy, and
    every method changes it in place.

    ``get_instance()`` returns the process-wide registry; ``reset_instance()``
    replaces it with an empty one (for tests and for reloading a config).
    """

    _instance: ClassVar[HookRegistry | None] = None
    _instance_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, hooks: Iterable[Hook] = ()) -> None:
        self._lock = threading.RLock()
        self.hooks: list[Hook] = list(hooks)

    @classmethod
    def get_instance(cls) -> HookRegistry:
        with cls._instance_lock:
            if cls._instance is None:
                cls._instance = cls()
            return cls._instance

    @classmethod
    def reset_instance(cls) -> None:
        with cls._instance_lock:
            cls._instance = None

    def register(self, hook: Hook) -> None:
        with self._lock:
            self.hooks.append(hook)

    def unregister(self, event_pattern: str) -> bool:
        """Remove every hook whose pattern is exactly ``event_pattern``; True if any."""
        with self._lock:
            kept = [h for h in self.hooks if h.event_pattern != event_pattern]
            removed = len(kept) != len(self.hooks)
            self.hooks[:] = kept
            return removed

    def get_hooks(self, event: HookEvent) -> list[Hook]:
        """The enabled hooks that match ``event``, in registration order."""
        with self._lock:
            return [h for h in self.hooks if h.enabled and h.matches(event)]

    def load_hooks(self, hooks: Iterable[Hook]) -> None:
        """Register several hooks at once, in order."""
        with self._lock:
            self.hooks.extend(hooks)

    def clear(self) -> None:
        with self._lock:
            self.hooks.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self.hooks)

    def __iter__(self) -> Iterator[Hook]:
        with self._lock:
            return iter(list(self.hooks))
