"""Cline's hooks are executables, one per event, named for it (dialects/cline.py): so
``forge-hook install --agent cline`` writes a small script per event into a hooks
directory (the project's ``.clinerules/hooks/`` or the user's ``~/Documents/Cline/Hooks/``,
both read by the CLI and by the VS Code extension), ``--uninstall`` removes the ones it
wrote, and ``doctor`` reads all four directories Cline reads.

A script runs ``forge-hook-run --dialect cline:EVENT``. Cline lets a task go on when a
hook fails and reads no exit status, so on the events that can stop, a script whose
forge-hook-run cannot be started (or fails without answering) prints the cancel JSON
itself, on a ``HOOK_CONTROL`` line (the one Cline reads over anything else printed).
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field

from forge_hookd.agents.places import RUNNER, home
from forge_hookd.agents.record import Wiring
from forge_hookd.dialects import get
from forge_hookd.safefile import write_atomically

#: the line that marks a script as forge-hook install's
MARK = "# Written by forge-hook install --agent cline; forge-hook install --agent cline --uninstall removes it."
_CANCEL = ('printf \'HOOK_CONTROL\\t{"cancel": true, "errorMessage": "forge-hook-run could not be started or '
           'failed (exit %s): blocked until it runs"}\\n\' "$status"')


def directory(scope: str, project_root: str) -> str:
    """Where install writes: a directory both the CLI and the extension read."""
    if scope == "project":
        return os.path.join(project_root, ".clinerules", "hooks")
    return os.path.join(os.path.expanduser("~"), "Documents", "Cline", "Hooks")


def read_directories(project_root: str) -> list[tuple[str, str]]:
    """Every ``(scope, directory)`` Cline reads hooks from (``$CLINE_DIR`` moves ~/.cline)."""
    return [("project", os.path.join(project_root, ".clinerules", "hooks")),
            ("project", os.path.join(project_root, ".cline", "hooks")),
            ("global", directory("global", project_root)),
            ("global", os.path.join(home("cline"), "hooks"))]


def script(command: str, event: str) -> str:
    """The executable for ``event``."""
    run = f"{command} --dialect cline:{event}"
    if event not in get("cline").words.blocking_events:
        return f"#!/bin/sh\n{MARK}\nexec {run}\n"
    return (f"#!/bin/sh\n{MARK}\n# Cline reads only the JSON on stdout: when {RUNNER} cannot be started or fails,\n"
            f"# this script cancels the call itself (fail closed).\n{run} && exit 0\nstatus=$?\n{_CANCEL}\nexit 0\n")


def events() -> list[str]:
    return list(get("cline").words.events)


def install(scope: str, project_root: str, command: str) -> Wiring:
    where = directory(scope, project_root)
    created = not os.path.isdir(where)
    os.makedirs(where, exist_ok=True)
    written, kept, notes = [], [], []
    for event in events():
        path = os.path.join(where, event)
        existing = _event_files(where).get(event.lower())
        if existing is not None and not _ours(existing):
            notes.append(f"{existing} is your own {event} hook: left as it is, and forge-hook-run is not wired "
                         f"on {event} here (Cline runs one file per event name and directory)")
            continue
        content = script(command, event)
        if existing is not None and _text(existing) == content:
            kept.append(event)
            continue
        write_atomically(path, content.encode())
        os.chmod(path, 0o755)
        written.append(event)
    action = "unchanged" if not written else "created" if created else "updated"
    return Wiring("cline", where, action, written, kept, notes)


def uninstall(scope: str, project_root: str) -> Wiring:
    where = directory(scope, project_root)
    removed: list[str] = []
    notes: list[str] = []
    for name, path in sorted(_event_files(where).items()):
        if _ours(path):
            os.unlink(path)
            removed.append(os.path.basename(path))
    if removed and os.path.isdir(where) and not os.listdir(where):
        os.rmdir(where)
        parent = os.path.dirname(where)
        if os.path.basename(parent) == ".clinerules" and not os.listdir(parent):
            os.rmdir(parent)
    return Wiring("cline", where, "cleaned" if removed else "nothing", removed, notes=notes)


@dataclass
class DirectoryState:
    scope: str
    path: str
    exists: bool
    wired: list[str] = field(default_factory=list)
    own_hooks: int = 0
    problem: str | None = None


def states(project_root: str) -> list[DirectoryState]:
    """What each directory Cline reads holds: forge's events, the user's own hooks."""
    found = []
    for scope, where in read_directories(project_root):
        state = DirectoryState(scope, where, os.path.isdir(where))
        by_event = {e.lower(): e for e in (*events(), *get("cline").words.native_events)}
        for key, path in sorted(_event_files(where).items()):
            if key in by_event and runs_forge(path):
                state.wired.append(by_event[key])
            else:
                state.own_hooks += 1
        found.append(state)
    return found


def runs_forge(path: str) -> bool:
    """Whether the executable at ``path`` runs forge-hook-run speaking Cline."""
    for line in _text(path).splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        if words and words[0] == "exec":
            words = words[1:]
        if words and os.path.basename(words[0]) == RUNNER and any(w.startswith("cline") for w in words[1:]):
            return True
    return False


_EXTENSIONS = ("", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".ps1")


def _event_files(where: str) -> dict[str, str]:
    """The hook files of a directory, by their event's lower-case name (Cline's reading:
    the basename without one of its extensions, case-insensitive)."""
    try:
        names = sorted(os.listdir(where))
    except OSError:
        return {}
    files: dict[str, str] = {}
    for name in names:
        stem, ext = os.path.splitext(name)
        if ext.lower() in _EXTENSIONS and os.path.isfile(os.path.join(where, name)):
            files.setdefault(stem.lower(), os.path.join(where, name))
    return files


def _ours(path: str) -> bool:
    return MARK in _text(path)


def _text(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(65536).decode("utf-8", "replace")
    except OSError:
        return ""


# -- import: a hooks directory as forge hooks ("format": "cline") ----------------------
_BY_EXTENSION = {".sh": "bash", ".bash": "bash", ".zsh": "zsh", ".js": "node", ".mjs": "node", ".cjs": "node",
                 ".ts": "bun run", ".mts": "bun run", ".cts": "bun run", ".py": "python3", ".ps1": "pwsh -File"}
#: the events Cline runs detached, fire and forget: observers under forge
_DETACHED = frozenset({"TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "TaskError", "SessionShutdown"})


def run_command(path: str) -> str:
    """How Cline runs the hook file at ``path`` (its shebang, unwrapped from env, else its
    extension's interpreter, else bash), as a shell command."""
    first = (_text(path) or "").split("\n", 1)[0]
    if first.startswith("#!"):
        words = first[2:].split()
        if words and os.path.basename(words[0]) == "env":
            words = [w for w in words[1:] if w != "-S"]
        if words:
            return " ".join([*map(shlex.quote, words), shlex.quote(path)])
    interpreter = _BY_EXTENSION.get(os.path.splitext(path)[1].lower(), "bash")
    return f"{interpreter} {shlex.quote(path)}"


def import_directory(where: str) -> tuple[list[dict[str, object]], list[str]]:
    """The hooks of a Cline hooks directory as forge hook entries, and what was skipped."""
    words = get("cline").words
    by_event = {e.lower(): e for e in (*words.events, *words.native_events)}
    hooks: list[dict[str, object]] = []
    skipped: list[str] = []
    for key, path in sorted(_event_files(where).items()):
        event = by_event.get(key)
        if event is None:
            skipped.append(f"{path}: Cline runs no hook of that name")
            continue
        if runs_forge(path):
            skipped.append(f"{path}: forge-hook-run itself (forge-hook install's)")
            continue
        forge_type = words.forge_type(event)
        entry: dict[str, object] = {"event": forge_type if forge_type != "agent:native" else f"agent:native:{event}",
                                    "command": run_command(path), "format": "cline",
                                    "description": f"imported from {path} ({event})"}
        if event in _DETACHED:
            entry["blocking"] = False  # Cline runs it detached and reads no answer
        else:
            entry["timeout"] = 120.0  # Cline's, for tool hooks
        hooks.append(entry)
    return hooks, skipped
