"""``forge-hook import --from AGENT``: an agent's hook settings as forge hooks that behave
as they did under the agent (DESIGN.md, "Dialects"; issue 21 item 4).

Claude Code, Codex and Gemini CLI share one shape: ``{"hooks": {EVENT: [{"matcher": M,
"hooks": [{"type": "command", "command": C, "timeout": T}]}]}}``; Cursor and Copilot
list the handlers themselves under each event. The dialect's settings say how its entries
group, where the command and timeout are, and what its matchers match
(:meth:`~forge_hookd.dialects.base.Settings.filter`). Each command becomes a forge hook
with ``"format": AGENT`` (so it keeps reading the agent's payload and answering by the
agent's rules), on the forge type of its event (``agent:native:NAME`` for an event forge
has no type of its own for), with what the agent did kept:

- its timeout, or the agent's default where the entry gives none (Claude and Codex 600 s,
  Claude's SessionEnd 1.5 s, Gemini 60 s, Copilot 30 s);
- its matcher: a list of tool names becomes patterns, anything else (a regex, a session
  start's source, a compaction's trigger ...) stays the hook's ``matcher``, read by the
  agent's rules; Claude's ``if`` stays the hook's ``if``;
- ``async`` (and ``asyncRewake``) as an observer (``"blocking": false``); Claude's
  ``onFailure: block`` and Cursor's ``failClosed`` as ``fail_closed``; Cursor's
  ``loop_limit`` as ``max_continues``;
- the variables a plugin's or an extension's hooks get: a Claude (or Codex, Copilot)
  plugin's ``hooks/hooks.json`` sets ``CLAUDE_PLUGIN_ROOT`` and ``CLAUDE_PLUGIN_DATA`` in
  the hook's ``env`` (the agents set them as variables, they do not rewrite the command);
  a Gemini extension's ``${extensionPath}``, ``${/}`` and ``${workspacePath}`` are
  substituted, as Gemini does when it loads the file;
- a user-level Cursor file's commands run from ``~/.cursor``, which they are relative to.

What has no forge form (a handler kind forge cannot run: ``http``, ``prompt``, ``agent``,
``mcp_tool``; an event the agent does not have; WorktreeCreate, whose hook replaces git)
is named and skipped, never dropped in silence; what is kept differently is noted.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from forge_hookd.errors import ConfigError
from forge_hookd.dialects.base import Dialect

#: keys of Gemini's "hooks" object that are settings, not events
_NOT_EVENTS = frozenset({"enabled", "disabled", "notifications"})
#: events whose hook must print what only the agent can use (Claude's WorktreeCreate: the
#: new worktree's path; a hook there replaces git's worktree creation)
_NEVER = frozenset({"WorktreeCreate"})
#: where Claude ignores onFailure (its docs): a failure never keeps an agent working
_NO_ON_FAILURE = frozenset({"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"})
_PLUGIN_VARS = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")


@dataclass
class Imported:
    """Forge hook entries; what could not be converted, each with why; what was kept
    otherwise than the agent has it (notes); directories the hooks expect (a plugin's
    data directory, which the agent creates on demand)."""

    hooks: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    directories: list[str] = field(default_factory=list)


@dataclass
class _Origin:
    """Where the hooks come from: the file, and what the agent gives the hooks of such
    a file (a plugin's variables, a user-level file's base directory)."""

    source: str
    env: dict[str, str] = field(default_factory=dict)
    working_dir: str | None = None


def import_hooks(dialect: Dialect, doc: object, source: str) -> Imported:
    """Convert the ``hooks`` of an agent settings document read from ``source``."""
    imported = Imported()
    origin = _origin(dialect, source, imported)
    if dialect.name == "gemini":
        doc = _hydrated(doc, source)
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    if not isinstance(hooks, dict):
        imported.skipped.append(f"{source}: no \"hooks\" object")
        return imported
    for event, groups in hooks.items():
        if event in _NOT_EVENTS:
            continue
        if not dialect.words.known(event):
            imported.skipped.append(f"{event}: not an event {dialect.name} fires (its hooks never run)")
            continue
        if event in _NEVER:
            imported.skipped.append(f"{event}: its hook replaces what {dialect.name} does itself (it must print "
                                    "the new worktree's path): forge cannot stand in for it")
            continue
        forge_type = dialect.words.forge_type(event)
        for matcher, handlers in dialect.settings.groups(groups):
            _import_group(dialect, event, forge_type, matcher, handlers, origin, imported)
    return imported


def _import_group(dialect: Dialect, event: str, forge_type: str, matcher: object, handlers: object,
                  origin: _Origin, imported: Imported) -> None:
    if not isinstance(handlers, list):
        imported.skipped.append(f"{event}: an entry without a \"hooks\" list")
        return
    found = dialect.settings.filter(event, forge_type, matcher if isinstance(matcher, str) else "")
    if isinstance(found, str):
        imported.skipped.append(f"{event} matcher {matcher!r}: {found}")
        return
    patterns, kept = found
    for handler in handlers:
        entry = _hook_entry(dialect, event, handler, ",".join(patterns), origin, imported)
        if isinstance(entry, str):
            imported.skipped.append(f"{event} matcher {matcher!r}: {entry}")
            continue
        if kept is not None:
            entry["matcher"] = kept
        problem = _unusable(entry)
        if problem is not None:
            imported.skipped.append(f"{event} matcher {matcher!r}: {problem}")
            continue
        imported.hooks.append(entry)


def _hook_entry(dialect: Dialect, event: str, handler: object, pattern: str, origin: _Origin,
                imported: Imported) -> dict[str, Any] | str:
    if not isinstance(handler, dict):
        return "a hook that is not an object"
    kind = handler.get("type", "command")
    if kind != "command":
        return f"a {kind!r} hook: forge runs commands only ({dialect.name} itself runs http, prompt, agent " \
               "and mcp_tool hooks)"
    if handler.get("shell") == "powershell":
        return "a PowerShell hook (forge runs commands with sh)"
    command = _command(dialect, handler)
    if not isinstance(command, str) or not command.strip():
        only = [k for k in ("powershell", "windows") if k in handler]
        return f"a hook with only a {only[0]} command (forge runs commands with sh)" if only \
            else "a command hook without a command"
    entry: dict[str, Any] = {"event": pattern, "command": command, "format": dialect.name}
    timeout = dialect.settings.timeout(handler, event)
    if timeout is not None:
        entry["timeout"] = timeout
    where = handler.get("cwd")
    if isinstance(where, str) and where and where != ".":  # Copilot's handlers have one
        entry["working_dir"] = where
    elif origin.working_dir is not None:
        entry["working_dir"] = origin.working_dir
    env = {**origin.env, **(handler["env"] if isinstance(handler.get("env"), dict) else {})}
    if env:
        entry["env"] = env
    _behaviour(dialect, event, handler, entry, imported)
    name = handler.get("name") or handler.get("description") or handler.get("comment")
    entry["description"] = f"{name} (imported from {origin.source}, {event})" if isinstance(name, str) and name \
        else f"imported from {origin.source} ({event})"
    return entry


def _behaviour(dialect: Dialect, event: str, handler: dict[str, Any], entry: dict[str, Any],
               imported: Imported) -> None:
    """``if``, ``async``, ``onFailure``/``failClosed``, ``loop_limit``, ``once``: honoured
    as forge can, and noted where forge does it otherwise."""
    what = f"{event} {entry['command']!r}"
    rule = handler.get("if")
    if isinstance(rule, str) and rule.strip():
        if dialect.name == "claude":
            entry["if"] = rule
        else:
            imported.notes.append(f"{what}: {dialect.name} ignores 'if' {rule!r}, so the hook runs on every "
                                  "matching call, as it did under the agent")
    if handler.get("async") is True or handler.get("asyncRewake") is True:
        entry["blocking"] = False
        if handler.get("asyncRewake") is True:
            imported.notes.append(f"{what}: asyncRewake is an observer here: its answer is recorded, and a "
                                  "wake-up of the model on exit 2 is not carried")
    if (handler.get("onFailure") == "block" and event not in _NO_ON_FAILURE and entry.get("blocking", True)) \
            or handler.get("failClosed") is True:
        entry["fail_closed"] = True
    limit = handler.get("loop_limit")
    if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0:
        entry["max_continues"] = limit
    if handler.get("once") is True:
        imported.notes.append(f"{what}: 'once' is not kept: forge runs the hook on every such event")


def _unusable(entry: dict[str, Any]) -> str | None:
    """Why the entry would not load (an ``if`` forge cannot read, a matcher the agent
    itself could not use), or None."""
    from forge_hookd.registry import Hook

    try:
        Hook.from_dict(entry)
    except ConfigError as exc:
        return exc.message
    return None


def _command(dialect: Dialect, handler: dict[str, Any]) -> object:
    """The shell command; Claude's exec form (``command`` plus ``args``, no shell) as
    the shell command that runs the same argv, its variables still expanded."""
    command = dialect.settings.command(handler)
    args = handler.get("args")
    if not isinstance(command, str) or not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return command
    return " ".join(_exec_word(word) for word in [command, *args])


_VARIABLE = re.compile(r"\$\{(" + "|".join(_PLUGIN_VARS) + r")\}")


def _exec_word(word: str) -> str:
    """One exec-form word as shell text: quoted, with Claude's variables left for the
    shell to expand from the hook's environment (``'x'"${CLAUDE_PLUGIN_ROOT}"'/y'``)."""
    parts = _VARIABLE.split(word)
    out = [shlex.quote(p) if i % 2 == 0 else f'"${{{p}}}"' for i, p in enumerate(parts) if p or i % 2]
    return "".join(out) or "''"


# -- where the hooks come from ------------------------------------------------------------
def _origin(dialect: Dialect, source: str, imported: Imported) -> _Origin:
    origin = _Origin(source)
    path = os.path.abspath(source)
    if dialect.name == "cursor" and _same(os.path.dirname(path), os.path.expanduser("~/.cursor")):
        origin.working_dir = os.path.dirname(path)  # user-level: relative to ~/.cursor
    plugin = _plugin_root(path)
    if plugin is not None and dialect.name in ("claude", "codex", "copilot"):
        data = _plugin_data(plugin)
        origin.env = {"CLAUDE_PLUGIN_ROOT": plugin, "CLAUDE_PLUGIN_DATA": data}
        if dialect.name == "codex":
            origin.env.update(PLUGIN_ROOT=plugin, PLUGIN_DATA=data)
        if dialect.name == "copilot":
            origin.env.update(PLUGIN_ROOT=plugin, COPILOT_PLUGIN_ROOT=plugin)
        imported.directories.append(data)
    return origin


def _same(one: str, other: str) -> bool:
    return os.path.realpath(one) == os.path.realpath(other)


def _plugin_root(path: str) -> str | None:
    """The plugin a ``<plugin>/hooks/hooks.json`` belongs to (its manifest beside)."""
    hooks_dir = os.path.dirname(path)
    root = os.path.dirname(hooks_dir)
    if os.path.basename(hooks_dir) != "hooks":
        return None
    manifests = (".claude-plugin/plugin.json", ".codex-plugin/plugin.json", "plugin.json")
    return root if any(os.path.isfile(os.path.join(root, m)) for m in manifests) else None


def _plugin_data(root: str) -> str:
    """Where Claude keeps the plugin's data: ``~/.claude/plugins/data/<id>``, the id
    ``NAME@MARKETPLACE`` for an installed plugin (under ``plugins/cache/MARKETPLACE/NAME``)
    and ``NAME-inline`` for one loaded from a directory, every character but letters,
    digits, ``-`` and ``_`` as ``-`` (Claude Code 2.1.328, research)."""
    name = os.path.basename(root)
    for manifest in (".claude-plugin/plugin.json", ".codex-plugin/plugin.json", "plugin.json"):
        try:
            with open(os.path.join(root, manifest), encoding="utf-8") as file:
                declared = json.load(file).get("name")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(declared, str) and declared:
            name = declared
            break
    parts = os.path.abspath(root).split(os.sep)
    cache = os.path.join(os.path.expanduser("~"), ".claude", "plugins", "cache").split(os.sep)
    plugin_id = f"{name}@{parts[len(cache)]}" if parts[:len(cache)] == cache and len(parts) > len(cache) \
        else f"{name}-inline"
    return os.path.join(os.path.expanduser("~"), ".claude", "plugins", "data", re.sub(r"[^A-Za-z0-9_-]", "-", plugin_id))


def _hydrated(doc: object, source: str) -> object:
    """A Gemini extension's hooks file as Gemini loads it: ``${extensionPath}``, ``${/}``,
    ``${pathSeparator}`` and ``${workspacePath}`` replaced in every string (the
    workspace as the project's variable, which the shell expands); others stay as they
    are. Any other settings file is returned unchanged."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(source)))
    if not os.path.isfile(os.path.join(root, "gemini-extension.json")):
        return doc
    values = {"extensionPath": root, "/": "/", "pathSeparator": "/", "workspacePath": "${GEMINI_PROJECT_DIR}"}

    def hydrate(value: object) -> object:
        if isinstance(value, str):
            return re.sub(r"\$\{([^}]+)\}", lambda m: values.get(m.group(1), m.group(0)), value)
        if isinstance(value, dict):
            return {k: hydrate(v) for k, v in value.items()}
        if isinstance(value, list):
            return [hydrate(v) for v in value]
        return value

    return hydrate(doc)

