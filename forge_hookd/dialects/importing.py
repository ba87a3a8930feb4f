"""``forge-hook import --from AGENT``: an agent's hook settings as forge hooks.

Claude Code, Codex and Gemini CLI share one shape: ``{"hooks": {EVENT: [{"matcher": M,
"hooks": [{"type": "command", "command": C, "timeout": T}]}]}}``; Cursor and Copilot
list the handlers themselves under each event. The dialect says how its entries group
(:meth:`Dialect.hook_groups`), where the command and timeout are, and which forge
patterns an event and matcher become (:meth:`Dialect.import_patterns`). Each command
becomes a forge hook with ``"format": AGENT`` (so it keeps reading the agent's payload and answering
by the agent's rules), its event and matcher a forge pattern. What has no forge form is
reported by name and skipped, never dropped in silence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..events import TOOL_EVENT_TYPES
from .base import Dialect

_NAME = re.compile(r"[A-Za-z0-9_.-]+")
_ALL = ("", "*", ".*", ".+")
#: keys of Gemini's "hooks" object that are settings, not events
_NOT_EVENTS = frozenset({"enabled", "disabled", "notifications"})


@dataclass
class Imported:
    """Forge hook entries, and what could not be converted, each with why."""

    hooks: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def default_files(dialect: Dialect, scope: str, project_root: str) -> list[str]:
    """The agent's own settings files for ``scope``: the project's (Claude's local one
    too) or the user's."""
    return dialect.settings_paths(scope, project_root)


def import_hooks(dialect: Dialect, doc: object, source: str) -> Imported:
    """Convert the ``hooks`` of an agent settings document."""
    imported = Imported()
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    if not isinstance(hooks, dict):
        imported.skipped.append(f"{source}: no \"hooks\" object")
        return imported
    for event, groups in hooks.items():
        if event in _NOT_EVENTS:
            continue
        forge_type = dialect.events.get(event)
        if forge_type is None:
            imported.skipped.append(f"{event}: no forge event type matches it")
            continue
        for matcher, handlers in dialect.hook_groups(groups):
            _import_group(dialect, event, forge_type, matcher, handlers, source, imported)
    return imported


def _import_group(dialect: Dialect, event: str, forge_type: str, matcher: object, handlers: object,
                  source: str, imported: Imported) -> None:
    if not isinstance(handlers, list):
        imported.skipped.append(f"{event}: an entry without a \"hooks\" list")
        return
    patterns = dialect.import_patterns(event, forge_type, matcher if isinstance(matcher, str) else "")
    if isinstance(patterns, str):
        imported.skipped.append(f"{event} matcher {matcher!r}: {patterns}")
        return
    for handler in handlers:
        entry = _hook_entry(dialect, event, handler, ",".join(patterns), source)
        if isinstance(entry, str):
            imported.skipped.append(f"{event} matcher {matcher!r}: {entry}")
        else:
            imported.hooks.append(entry)


def matcher_patterns(dialect: Dialect, forge_type: str, matcher: str) -> list[str] | str:
    """Forge patterns for an agent matcher, or why there are none. ``Edit|Write`` is two
    patterns; an exact tool name its canonical forge name; ``mcp__x__.*`` a glob."""
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
            pattern = f"{forge_type}:{dialect.canonical_tool(piece)}"
        else:
            return "a regular expression with no forge pattern form"
        if pattern not in patterns:
            patterns.append(pattern)
    return patterns


def _hook_entry(dialect: Dialect, event: str, handler: object, pattern: str, source: str) -> dict[str, Any] | str:
    if not isinstance(handler, dict):
        return "a hook that is not an object"
    kind = handler.get("type", "command")
    if kind != "command":
        return f"a {kind!r} hook (only command hooks can be imported)"
    command = dialect.hook_command(handler)
    if not isinstance(command, str) or not command.strip():
        return "a command hook without a command"
    entry: dict[str, Any] = {"event": pattern, "command": command, "format": dialect.name}
    timeout = handler.get(dialect.timeout_key)
    if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0:
        entry["timeout"] = float(timeout) * dialect.timeout_unit
    if isinstance(handler.get("cwd"), str) and handler["cwd"]:  # Copilot's handlers have one
        entry["working_dir"] = handler["cwd"]
    if isinstance(handler.get("env"), dict) and handler["env"]:
        entry["env"] = handler["env"]
    name = handler.get("name") or handler.get("description") or handler.get("comment")
    entry["description"] = f"{name} (imported from {source}, {event})" if isinstance(name, str) and name \
        else f"imported from {source} ({event})"
    return entry
