"""``forge-hook import --from AGENT``: an agent's hook settings as forge hooks.

Claude Code, Codex and Gemini CLI share one shape: ``{"hooks": {EVENT: [{"matcher": M,
"hooks": [{"type": "command", "command": C, "timeout": T}]}]}}``; Cursor and Copilot
list the handlers themselves under each event. The dialect's settings say how its entries
group (:meth:`~forge_hookd.dialects.base.Settings.groups`), where the command and timeout
are, and which forge patterns an event and matcher become
(:meth:`~forge_hookd.dialects.base.Settings.patterns`). Each command
becomes a forge hook with ``"format": AGENT`` (so it keeps reading the agent's payload and answering
by the agent's rules), its event and matcher a forge pattern. What has no forge form is
reported by name and skipped, never dropped in silence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .base import Dialect
#: keys of Gemini's "hooks" object that are settings, not events
_NOT_EVENTS = frozenset({"enabled", "disabled", "notifications"})


@dataclass
class Imported:
    """Forge hook entries, and what could not be converted, each with why."""

    hooks: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


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
        forge_type = dialect.words.events.get(event)
        if forge_type is None:
            imported.skipped.append(f"{event}: no forge event type matches it")
            continue
        for matcher, handlers in dialect.settings.groups(groups):
            _import_group(dialect, event, forge_type, matcher, handlers, source, imported)
    return imported


def _import_group(dialect: Dialect, event: str, forge_type: str, matcher: object, handlers: object,
                  source: str, imported: Imported) -> None:
    if not isinstance(handlers, list):
        imported.skipped.append(f"{event}: an entry without a \"hooks\" list")
        return
    patterns = dialect.settings.patterns(event, forge_type, matcher if isinstance(matcher, str) else "")
    if isinstance(patterns, str):
        imported.skipped.append(f"{event} matcher {matcher!r}: {patterns}")
        return
    for handler in handlers:
        entry = _hook_entry(dialect, event, handler, ",".join(patterns), source)
        if isinstance(entry, str):
            imported.skipped.append(f"{event} matcher {matcher!r}: {entry}")
        else:
            imported.hooks.append(entry)


def _hook_entry(dialect: Dialect, event: str, handler: object, pattern: str, source: str) -> dict[str, Any] | str:
    if not isinstance(handler, dict):
        return "a hook that is not an object"
    kind = handler.get("type", "command")
    if kind != "command":
        return f"a {kind!r} hook (only command hooks can be imported)"
    command = dialect.settings.command(handler)
    if not isinstance(command, str) or not command.strip():
        return "a command hook without a command"
    entry: dict[str, Any] = {"event": pattern, "command": command, "format": dialect.name}
    timeout = handler.get(dialect.settings.timeout_key)
    if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0:
        entry["timeout"] = float(timeout) * dialect.settings.timeout_unit
    if isinstance(handler.get("cwd"), str) and handler["cwd"]:  # Copilot's handlers have one
        entry["working_dir"] = handler["cwd"]
    if isinstance(handler.get("env"), dict) and handler["env"]:
        entry["env"] = handler["env"]
    name = handler.get("name") or handler.get("description") or handler.get("comment")
    entry["description"] = f"{name} (imported from {source}, {event})" if isinstance(name, str) and name \
        else f"imported from {source} ({event})"
    return entry
