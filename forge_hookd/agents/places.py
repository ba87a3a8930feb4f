"""Where each coding agent lives on this machine, and how to read its hook settings.

The dialects own the protocol facts (their vocabulary's ``events`` and their ``settings``: ``snippet``,
``files``/``paths``, ``groups``, ``command``); this module
adds what only installing needs: the agent's CLI names, its home directory and the
variable that moves it, and whether its settings may hold comments. As each agent's
current CLI reads them (tests/agents/README.md, "Where each agent reads its hooks"):

- Claude Code: ``$CLAUDE_CONFIG_DIR`` (else ``~/.claude``)/settings.json; the project's
  .claude/settings.json and .claude/settings.local.json. Strict JSON.
- Codex 0.169: ``$CODEX_HOME`` (else ``~/.codex``)/hooks.json and the project's
  .codex/hooks.json (beside ``[hooks]`` in config.toml, which forge only reads).
- Gemini CLI 0.61: ``$GEMINI_CLI_HOME`` (else ``~``)/.gemini/settings.json and the
  project's .gemini/settings.json, read through strip-json-comments: comments allowed.
- Cursor: ~/.cursor/hooks.json and the project's .cursor/hooks.json.
- Copilot CLI 1.0.102: every ``*.json`` in ``$COPILOT_HOME`` (else ``~/.copilot``)/hooks
  and in the repository's .github/hooks.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forge_hookd.dialects import NAMES, get

#: The executable forge puts into an agent's settings.
RUNNER = "forge-hook-run"


@dataclass(frozen=True)
class Place:
    """One agent's footprint: CLI names, home (``home_var`` replaces ``home``), and
    whether its settings parser strips comments."""

    clis: tuple[str, ...]
    home: str
    home_var: str | None = None
    comments: bool = False


PLACES: dict[str, Place] = {
    "claude": Place(("claude",), "~/.claude", "CLAUDE_CONFIG_DIR"),
    "codex": Place(("codex",), "~/.codex", "CODEX_HOME"),
    # GEMINI_CLI_HOME stands for the home directory itself: $GEMINI_CLI_HOME/.gemini
    "gemini": Place(("gemini",), "~/.gemini", "GEMINI_CLI_HOME", comments=True),
    "cursor": Place(("cursor-agent", "cursor"), "~/.cursor"),
    "copilot": Place(("copilot",), "~/.copilot", "COPILOT_HOME"),
}
assert tuple(PLACES) == NAMES, "every dialect needs a place (and no place without a dialect)"


def home(name: str) -> str:
    """The agent's own directory under the user's home, as the agent finds it now."""
    place = PLACES[name]
    moved = os.environ.get(place.home_var) if place.home_var else None
    if moved and name == "gemini":
        return os.path.join(moved, ".gemini")
    return moved or os.path.expanduser(place.home)


def _homed(name: str, path: str) -> str:
    """A user-level path of the dialect with the agent's home as the agent finds it."""
    default = PLACES[name].home
    return home(name) + path[len(default):] if path.startswith(default + "/") else os.path.expanduser(path)


#: Each agent's own managed (system) file that forge writes with ``install --system``: the
#: agent reads it above the user's and project settings, and the user cannot drop it.
#: Claude Code: /etc/claude-code/managed-settings.json (its binary's Linux default);
#: Gemini CLI: its system settings file; Cursor: its enterprise hooks file (from a third
#: party's research, not Cursor's own docs). Codex's requirements.toml holds hooks in a
#: TOML form forge does not write, and Copilot's policy directory is not documented.
SYSTEM_FILES = {"claude": "/etc/claude-code/managed-settings.json", "gemini": "/etc/gemini-cli/settings.json",
                "cursor": "/etc/cursor/hooks.json"}
NO_SYSTEM_FILE = {"codex": "Codex's managed hooks live in /etc/codex/requirements.toml, in a TOML form forge "
                           "does not write",
                  "copilot": "Copilot CLI documents no managed hooks file forge could write"}


def system_file(name: str, system_root: str = "/") -> str | None:
    """The agent's managed file under ``system_root`` (as DESTDIR), None when it has none."""
    path = SYSTEM_FILES.get(name)
    return None if path is None else os.path.join(system_root, path.lstrip("/"))


def target_file(name: str, scope: str, project_root: str, *, system_root: str = "/") -> str:
    """The file ``forge-hook install`` writes: the project's own settings file, the
    user's (for Copilot, forge's own file in the hooks directory), or with scope
    ``system`` the agent's managed file under ``system_root`` (ValueError when it has none)."""
    if scope == "system":
        path = system_file(name, system_root)
        if path is None:
            raise ValueError(NO_SYSTEM_FILE[name])
        return path
    project_file, user_file = get(name).settings.files
    return os.path.join(project_root, project_file) if scope == "project" else _homed(name, user_file)


def read_files(name: str, project_root: str) -> list[tuple[str, str]]:
    """Every ``(scope, path)`` the agent reads hooks from for this project."""
    dialect = get(name)
    found = [("project", p) for p in dialect.settings.paths("project", project_root)]
    user_file = _homed(name, dialect.settings.files[1])
    if name == "copilot":  # every *.json of the directory
        directory = os.path.dirname(user_file)
        names = sorted(n for n in _listdir(directory) if n.endswith(".json")) or [os.path.basename(user_file)]
        return found + [("global", os.path.join(directory, n)) for n in names]
    return found + [("global", user_file)]


def _listdir(directory: str) -> list[str]:
    try:
        return os.listdir(directory)
    except OSError:
        return []


def found(name: str, path: str | None = None) -> list[str]:
    """Why the agent counts as found on this machine (its CLI on ``path``, default
    $PATH; its home directory present); empty when it is not."""
    why = [f"{cli} on PATH" for cli in PLACES[name].clis if shutil.which(cli, path=path)]
    if os.path.isdir(home(name)):
        why.append(f"{home(name)} exists")
    return why


# -- reading an agent's hook entries ---------------------------------------------------------
@dataclass(frozen=True)
class Handler:
    """One hook command in an agent's settings: under ``event``, in group ``group`` of
    that event's list, at ``index`` in the group."""

    event: str
    group: int
    index: int
    matcher: object
    command: str
    handler: dict[str, Any]


def handlers(name: str, doc: object) -> Iterator[Handler]:
    """Every command handler under ``doc["hooks"]``, in file order (the dialect says how
    its entries group)."""
    dialect = get(name)
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    if not isinstance(hooks, dict):
        return
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            continue
        for group, (matcher, listed) in enumerate(dialect.settings.groups(entries)):
            for index, handler in enumerate(listed if isinstance(listed, list) else []):
                command = dialect.settings.command(handler) if isinstance(handler, dict) else None
                if isinstance(command, str) and isinstance(handler, dict):
                    yield Handler(event, group, index, matcher, command, handler)


def forge_dialect(command: str) -> str | None:
    """The ``--dialect`` value of a forge-hook-run command (``claude``,
    ``copilot:preToolUse``), or None when the command is not forge-hook-run's."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if not words or os.path.basename(words[0]) != RUNNER:
        return None
    for i, word in enumerate(words):
        if word == "--dialect" and i + 1 < len(words):
            return words[i + 1]
        if word.startswith("--dialect="):
            return word.partition("=")[2]
    return None


def runs_forge(command: str, name: str) -> bool:
    """Whether ``command`` is forge-hook-run speaking ``name``'s dialect."""
    value = forge_dialect(command)
    return value is not None and value.partition(":")[0] == name


#: What stands beside this Python as forge-hook-run, the fastest first: install.sh's
#: native client and Python launcher in front of pip's script (docs/warm.md); an agent
#: wired to pip's script would pay 2 x the native client's warm run on every event.
_RUNNER_FRONTS = (f"{RUNNER}-native", f"{RUNNER}-launcher", RUNNER)


def runner_command() -> tuple[str, str | None]:
    """How settings name forge-hook-run: its bare name when that is what $PATH finds,
    else the absolute path of the fastest one installed beside this Python (agents start
    hooks with their own $PATH, and a hook that is not found is, for most agents, a hook
    that silently does not run); and a note saying why, for the second case."""
    here = os.path.dirname(sys.executable)
    ours = next(filter(None, (shutil.which(name, path=here) for name in _RUNNER_FRONTS)), None)
    on_path = shutil.which(RUNNER)
    if ours is None or (on_path is not None and Path(on_path).resolve() == Path(ours).resolve()):
        return RUNNER, None
    return shlex.quote(ours), (f"{RUNNER} is not on PATH here (or PATH finds another one): "
                               f"the settings name {ours}")
