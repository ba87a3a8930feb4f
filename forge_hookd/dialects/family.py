"""The Claude-compatible family: agents that copy Claude Code's hook protocol (its
settings shape, its snake_case payload, its answers) and name things their own way.

One table (:data:`FAMILY`), not five dialects: each row is a dialect alias of claude
(``--dialect qwen`` ...) that differs only where the agent does. Sources:
/tmp/research/agents.md sections 4 and 5, read from each agent's npm package:

- Qwen Code 0.24.4 (``@qwen-code/qwen-code``): tools ``run_shell_command``,
  ``write_file``, ``edit``, ``read_file`` ... (its matchers also take ``Bash``,
  ``Shell``, ``WriteFile``, ``ReadFile``); timeouts in seconds, but a value of 1000 or
  more is read as milliseconds; default 60 s; a PreToolUse ``updatedInput`` is not
  applied and its ``additionalContext`` is dropped (0.24.4's firePreToolUseHook returns
  the context, which no caller reads; observed with the real CLI: forge reports both as
  dropped; PostToolUse's context does reach the model); hooks run detached in their own process
  group, which Qwen kills on timeout; stdout and stderr capped at 1 MiB each.
- Factory Droid 0.215 (``droid``): ``Execute``, ``Create``, ``Edit``, ``ApplyPatch``,
  ``Read``; ``.factory/hooks.json``; default 60 s.
- Auggie 0.36 (``@augmentcode/auggie``): ``launch-process``, ``view``,
  ``str-replace-editor``, ``save-file``; ``conversation_id`` and ``workspace_roots``
  (no ``cwd``), ``tool_output``/``tool_error`` after a tool; timeouts in milliseconds,
  default 60000; only ``permissionDecision: "deny"`` is implemented (no ask, no allow).
- Crush (charmbracelet/crush): PreToolUse only; the payload says ``event``, not
  ``hook_event_name``; a flat list of ``{matcher, command, timeout}`` entries in
  ``crush.json``; default 30 s; reads Claude's ``hookSpecificOutput``; no ask.
- Continue's ``cn`` 1.5.47 (``@continuedev/cli``): Claude's tool names and events; it
  reads ``.continue/settings.json`` and Claude's own ``.claude/settings.json`` too
  (``doctor`` says so: forge must not run twice); default 600 s.
"""

from __future__ import annotations

from typing import Any

from forge_hookd.dialects.base import (Command, Dialect, Inbound, NativeAnswer, Verdict, Vocabulary, ask_reason)
from forge_hookd.dialects.claude import WORDS as CLAUDE
from forge_hookd.dialects.claude import ClaudeHooks, ClaudeReader, ClaudeSettings, ClaudeWriter
from forge_hookd.events import HookEvent

_TOOL_EVENTS = ("PreToolUse", "PostToolUse", "PostToolUseFailure")


class Alias:
    """One row of the family table: what the agent does differently from Claude."""

    __slots__ = ("name", "tools", "events", "native_events", "files", "local_files", "timeout", "timeout_unit",
                 "ms_from", "asks", "rewrites", "pre_context", "flat", "variable")

    def __init__(self, name: str, *, tools: dict[str, str], events: tuple[str, ...],
                 files: tuple[str, str], native_events: frozenset[str] = frozenset(),
                 local_files: tuple[str, ...] = (), timeout: float = 60.0, timeout_unit: float = 1.0,
                 ms_from: float | None = None, asks: bool = True, rewrites: bool = True, pre_context: bool = True,
                 flat: bool = False,
                 variable: str = "") -> None:
        self.name, self.tools, self.events, self.native_events = name, tools, events, native_events
        self.files, self.local_files = files, local_files
        #: the default timeout in seconds; the unit of a written one; the value from which
        #: a written one is milliseconds (Qwen's legacy rule)
        self.timeout, self.timeout_unit, self.ms_from = timeout, timeout_unit, ms_from
        #: whether a PreToolUse "ask" is obeyed (else forge denies: a person must decide)
        self.asks = asks
        #: whether a PreToolUse ``updatedInput`` is applied (Qwen 0.24.4 reads none there)
        self.rewrites = rewrites
        #: whether a PreToolUse ``additionalContext`` reaches the model (not in Qwen 0.24.4)
        self.pre_context = pre_context
        #: entries are handlers themselves (Crush), not Claude's matcher groups
        self.flat = flat
        #: the project variable the agent gives its hooks
        self.variable = variable


FAMILY: dict[str, Alias] = {a.name: a for a in (
    Alias("qwen",
          tools={"run_shell_command": "bash", "read_file": "read", "write_file": "write", "edit": "edit",
                 "glob": "glob", "grep_search": "grep", "web_fetch": "web_fetch", "web_search": "web_search",
                 # matcher aliases (TOOL_NAME_ALIASES): never in a payload
                 "Bash": "bash", "Shell": "bash", "ShellTool": "bash", "WriteFile": "write", "Write": "write",
                 "ReadFile": "read", "Read": "read", "Edit": "edit"},
          events=("PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied",
                  "UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop", "PreCompact", "Notification",
                  "SessionStart", "SessionEnd"),
          native_events=frozenset({"UserPromptExpansion", "StopFailure", "MessageDisplay"}),
          files=(".qwen/settings.json", "~/.qwen/settings.json"), ms_from=1000.0, rewrites=False,
          pre_context=False,
          variable="QWEN_PROJECT_DIR"),
    Alias("droid",
          tools={"Execute": "bash", "Read": "read", "Create": "write", "Edit": "edit", "ApplyPatch": "edit",
                 "Glob": "glob", "Grep": "grep", "FetchUrl": "web_fetch", "WebSearch": "web_search"},
          events=("PreToolUse", "PostToolUse", "UserPromptSubmit", "Notification", "Stop", "SubagentStop",
                  "PreCompact", "SessionStart", "SessionEnd"),
          files=(".factory/hooks.json", "~/.factory/hooks.json"), variable="FACTORY_PROJECT_DIR"),
    Alias("auggie",
          tools={"launch-process": "bash", "view": "read", "save-file": "write", "str-replace-editor": "edit",
                 "web-fetch": "web_fetch", "web-search": "web_search"},
          events=("PreToolUse", "PostToolUse", "Stop", "SessionStart", "SessionEnd"),
          files=(".augment/settings.json", "~/.augment/settings.json"), timeout_unit=0.001, asks=False,
          variable="AUGMENT_PROJECT_DIR"),
    Alias("crush",
          tools={"bash": "bash", "view": "read", "write": "write", "edit": "edit", "multiedit": "edit",
                 "glob": "glob", "grep": "grep", "fetch": "web_fetch"},
          events=("PreToolUse",), files=("crush.json", "~/.config/crush/crush.json"), local_files=(".crush.json",),
          timeout=30.0, asks=False, flat=True, variable="CRUSH_PROJECT_DIR"),
    Alias("continue",
          tools={"Bash": "bash", "Read": "read", "Write": "write", "Edit": "edit", "MultiEdit": "edit",
                 "Grep": "grep", "Fetch": "web_fetch"},
          events=("PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "UserPromptSubmit",
                  "SessionStart", "SessionEnd", "Stop", "SubagentStart", "SubagentStop", "Notification",
                  "PreCompact"),
          files=(".continue/settings.json", "~/.continue/settings.json"),
          local_files=(".continue/settings.local.json",), timeout=600.0, variable="CONTINUE_PROJECT_DIR"),
)}


def _words(alias: Alias) -> Vocabulary:
    return Vocabulary(alias.name, events={e: CLAUDE.events[e] for e in alias.events}, tools=alias.tools,
                      blocking_events=CLAUDE.blocking_events & frozenset(alias.events),
                      native_events=alias.native_events)


class FamilyReader(ClaudeReader):
    """Claude's reading, with Crush's ``event``, Auggie's ``conversation_id``,
    ``workspace_roots`` and ``tool_output``/``tool_error``."""

    session_keys = ("session_id", "conversation_id")

    def named_event(self, payload: dict[str, Any]) -> str | None:
        named = super().named_event(payload)
        event = payload.get("event")  # Crush
        return named or (event if isinstance(event, str) and event else None)

    def start_dir(self, payload: dict[str, Any]) -> str | None:
        roots = payload.get("workspace_roots")  # Auggie: no cwd
        first = roots[0] if isinstance(roots, list) and roots else None
        return super().start_dir(payload) or (first if isinstance(first, str) and first else None)

    def event_data(self, payload: dict[str, Any], native_event: str, forge_type: str,
                   native_tool: str | None) -> dict[str, Any]:
        data = super().event_data(payload, native_event, forge_type, native_tool)
        if "tool_result" not in data and "tool_output" in payload:
            data["tool_result"] = payload["tool_output"]
        if "error" not in data and payload.get("tool_error") not in (None, ""):
            data["error"] = payload["tool_error"]
        return data


class FamilyWriter(ClaudeWriter):
    """Claude's answers; where the agent has no ask, an ask is a deny saying a person
    must decide."""

    def __init__(self, words: Vocabulary, alias: Alias) -> None:
        super().__init__(words)
        self.alias = alias
        if not alias.pre_context:
            self.context_events = self.context_events - {"PreToolUse"}

    def answer(self, inbound: Inbound, verdict: Verdict) -> NativeAnswer:
        pre = inbound.native_event == "PreToolUse"
        if verdict.decision == "ask" and not self.alias.asks and pre:
            verdict = Verdict("deny", ask_reason(verdict.reason), verdict.tool_args, verdict.context,
                              verdict.messages)
        if verdict.tool_args is not None and not self.alias.rewrites and pre and verdict.decision != "deny":
            answer = super().answer(inbound, Verdict(verdict.decision, verdict.reason, None, verdict.context,
                                                     verdict.messages))
            dropped = f"rewritten tool_args: {self.words.name} applies no updatedInput on PreToolUse"
            answer.dropped.append(dropped)
            answer.stderr = "\n".join(filter(None, [answer.stderr, f"forge-hook-run: warning: dropped {dropped}"]))
            return answer
        return super().answer(inbound, verdict)


class FamilyHooks(ClaudeHooks):
    def __init__(self, words: Vocabulary, alias: Alias) -> None:
        super().__init__(words)
        self.alias = alias
        self.variables = (alias.variable,)

    def env(self, event: HookEvent, project_dir: str) -> dict[str, str]:
        return {self.alias.variable: project_dir}


class FamilySettings(ClaudeSettings):
    session_end_timeout = None  # Claude's 1.5 s SessionEnd default is Claude's alone

    def __init__(self, words: Vocabulary, alias: Alias) -> None:
        super().__init__(words)
        self.alias = alias
        self.files, self.local_files = alias.files, alias.local_files
        self.agent_timeout, self.timeout_unit = alias.timeout, alias.timeout_unit

    def default_timeout(self, native_event: str) -> float | None:
        return self.agent_timeout

    def timeout(self, handler: dict[str, Any], native_event: str) -> float | None:
        value = handler.get("timeout")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 \
                and self.alias.ms_from is not None and value >= self.alias.ms_from:
            return float(value) / 1000.0  # Qwen: 1000 or more is milliseconds
        return super().timeout(handler, native_event)

    def groups(self, entries: object) -> list[tuple[object, object]]:
        if not self.alias.flat:
            return super().groups(entries)
        listed = entries if isinstance(entries, list) else [entries]
        return [(e.get("matcher"), [e]) if isinstance(e, dict) else (None, None) for e in listed]

    def snippet(self, command: Command, limit: float | None = None) -> dict[str, Any]:
        if self.alias.flat:
            entries = {event: self.limited(command, event, limit) for event in self.words.events}
            return {"hooks": {event: [{"command": text, **timeout}] for event, (text, timeout) in entries.items()}}
        return super().snippet(command, limit)


def dialect(name: str) -> Dialect:
    """The dialect alias ``name`` of the family."""
    alias = FAMILY[name]
    words = _words(alias)
    return Dialect(words, reader=FamilyReader(words), writer=FamilyWriter(words, alias),
                   hooks=FamilyHooks(words, alias), settings=FamilySettings(words, alias))


DIALECTS: dict[str, Dialect] = {name: dialect(name) for name in FAMILY}
