"""Managing hooks files: listing, checking and editing them (what ``forge-hook`` does)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import trust
from .config import (
    CONFIG_NAME,
    PROJECT_DIR_NAME,
    duplicate_keys,
    file_warnings,
    global_config_path,
    iter_entries,
    parse_document,
    read_raw,
    update_file,
)
from .errors import ConfigError
from .events import HookEvent
from .registry import MAX_TIMEOUT, MIN_TIMEOUT, Hook


@dataclass
class ListedHook:
    """A configured hook with where it lives and whether it may run."""

    hook: Hook
    scope: str  # "global" or "project"
    file: Path
    index: int  # its position in its file's "hooks" list
    trust: trust.TrustState
    trust_detail: str | None = None  # why it is not trusted: the file that changed ...

    def to_dict(self) -> dict[str, Any]:
        return {**self.hook.to_dict(), "timeout": self.hook.effective_timeout, "enabled": self.hook.enabled,
                "blocking": self.hook.blocking,
                "source": self.scope, "file": str(self.file), "index": self.index,
                "trusted": self.trust is trust.TrustState.TRUSTED, "trust": self.trust.value,
                "trust_detail": self.trust_detail}


def scope_path(scope: str, project_root: Path) -> Path:
    """The file ``--global`` or ``--project`` names."""
    return Path(global_config_path()) if scope == "global" else project_root / PROJECT_DIR_NAME / CONFIG_NAME


def root_for_new_project_file(start: Path) -> Path:
    """Where ``add --project`` creates ``.forge/hooks.json`` when none exists up the tree:
    the nearest directory upwards that already holds a ``.forge`` directory (the user
    made the project there), else the root of the git repository (the nearest ``.git``,
    a directory or a worktree's file), else ``start``."""
    chain = (start, *start.parents)
    for directory in chain:
        if (directory / PROJECT_DIR_NAME).is_dir():
            return directory
    for directory in chain:
        if (directory / ".git").exists():
            return directory
    return start


def list_hooks(project_root: Path, problems: list[ConfigError] | None = None) -> list[ListedHook]:
    """Every well-formed hook of the global and project files, in run order.

    A file that cannot be read or parsed raises ConfigError, unless ``problems`` is
    given: then it goes there and the other file's hooks are still listed (as
    forge-hook-run still runs them)."""
    listed = []
    for scope in ("global", "project"):
        path = scope_path(scope, project_root)
        try:
            raw = read_raw(path)
            doc = None if raw is None else parse_document(raw, path)
        except ConfigError as exc:
            if problems is None:
                raise
            problems.append(exc)
            continue
        if raw is None or doc is None:
            continue
        checked = trust.TrustCheck(trust.TrustState.TRUSTED) if scope == "global" else trust.check(path, raw, doc)
        listed += [ListedHook(hook, scope, path, index, checked.state, checked.detail)
                   for index, hook, _ in iter_entries(doc, path=path, source=scope,
                                                      duplicates=duplicate_keys(raw, doc)) if hook is not None]
    return listed


def would_run(listed: list[ListedHook], event: HookEvent, *, trust_project: bool) -> list[ListedHook]:
    """The listed hooks that ``event`` would run, in run order."""
    return [h for h in listed if h.hook.enabled and h.hook.matches(event)
            and (trust_project or h.trust is trust.TrustState.TRUSTED)]


# -- checking --------------------------------------------------------------------------
def check_file(path: Path, project_root: Path) -> list[ConfigError]:
    """Every problem of one hooks file; a missing file has none."""
    try:
        raw = read_raw(path)
        if raw is None:
            return []
        doc = parse_document(raw, path)
    except ConfigError as exc:
        return [exc]
    if not raw.strip():
        return []
    duplicates = duplicate_keys(raw, doc)
    problems = file_warnings(doc, path=path, duplicates=duplicates)
    for index, hook, warnings in iter_entries(doc, path=path, source="", duplicates=duplicates,
                                              project_root=project_root):
        problems += warnings
        if hook is not None:
            problems += [ConfigError(message, path=str(path), entry=index)
                         for message in _entry_doubts(doc["hooks"][index], hook)]
    return problems


def _entry_doubts(entry: dict[str, Any], hook: Hook) -> list[str]:
    """What is legal in an entry, runs, but is almost certainly not what its author meant
    (what makes a hook not run is a load warning, see :func:`config.iter_entries`)."""
    doubts = []
    timeout = entry.get("timeout")
    if timeout is not None and not MIN_TIMEOUT <= timeout <= MAX_TIMEOUT:
        doubts.append(f"timeout {timeout:g} is outside [{MIN_TIMEOUT:g}, {MAX_TIMEOUT:g}]; "
                      f"it is clamped to {hook.effective_timeout:g}")
    return doubts + _unset_variables(hook)


def _unset_variables(hook: Hook) -> list[str]:
    """A variable the command expands that nobody sets (issue 21: a plugin's
    ``${CLAUDE_PLUGIN_ROOT}`` outside the plugin expands to nothing)."""
    import os

    from . import cmdvars
    from .dialects import get

    if hook.guard is not None:
        return []
    agent = get(hook.format).hooks.variables if hook.format else ()
    known = {*os.environ, *hook.env, *agent}
    return [f"the command expands ${{{name}}}, which nothing sets (not the hook's env, forge"
            f"{f', {hook.format}' if hook.format else ''}, nor this environment): it expands to nothing; "
            f"{cmdvars.HINTS.get(name, 'set it in the hook' + chr(39) + 's env')}"
            for name in cmdvars.unset_variables(hook.command, known)]


# -- editing ----------------------------------------------------------------------------
def add_hook(path: Path, hook: Hook, *, retrust: bool) -> int:
    """Append ``hook`` to ``path``; its index there."""
    position: list[int] = []

    def append(doc: dict[str, Any]) -> None:
        doc["hooks"].append(hook.to_dict())
        position.append(len(doc["hooks"]) - 1)

    update_file(path, append, retrust=retrust)
    return position[0]


def remove_hooks(path: Path, pattern: str, *, retrust: bool) -> int:
    """Remove every entry whose ``event`` is exactly ``pattern``; how many went."""
    if read_raw(path) is None:
        return 0
    removed: list[int] = []

    def remove(doc: dict[str, Any]) -> None:
        kept = [e for e in doc["hooks"] if not (isinstance(e, dict) and e.get("event") == pattern)]
        removed.append(len(doc["hooks"]) - len(kept))
        doc["hooks"] = kept

    update_file(path, remove, retrust=retrust)
    return removed[0]


def remove_at(path: Path, index: int, *, retrust: bool) -> str:
    """Remove the entry at ``index``; its pattern. ConfigError when there is none."""
    if read_raw(path) is None:
        raise ConfigError("no such file", path=str(path))
    gone: list[str] = []

    def remove(doc: dict[str, Any]) -> None:
        hooks = doc["hooks"]
        if not 0 <= index < len(hooks):
            raise ConfigError(f"there is no hook {index} (the file has {len(hooks)})", path=str(path))
        entry = hooks.pop(index)
        gone.append(str(entry.get("event")) if isinstance(entry, dict) else "not an object")

    update_file(path, remove, retrust=retrust)
    return gone[0]


def new_hooks(doc: dict[str, Any], hooks: list[Hook], added: list[Hook]) -> list[Hook]:
    """The ``hooks`` that ``doc`` does not hold yet (an import run twice adds nothing; two
    alike in one import are two, as the agent ran them), also put into ``added``. Whether a hook is enabled, and its description, do not make
    it another hook."""
    def key(entry: dict[str, Any]) -> str:
        return json.dumps({k: v for k, v in entry.items() if k not in ("enabled", "description")}, sort_keys=True)

    seen = set()
    for entry in doc.get("hooks", []):
        try:
            seen.add(key(Hook.from_dict(entry).to_dict()))
        except ConfigError:
            continue
    added.extend(hook for hook in hooks if key(hook.to_dict()) not in seen)
    return list(added)


def set_enabled(path: Path, index: int, enabled: bool, *, retrust: bool) -> None:
    """Enable or disable the entry at ``index``. Raises ConfigError when there is none."""
    if read_raw(path) is None:
        raise ConfigError("no such file", path=str(path))

    def toggle(doc: dict[str, Any]) -> None:
        hooks = doc["hooks"]
        if not 0 <= index < len(hooks):
            raise ConfigError(f"there is no hook {index} (the file has {len(hooks)})", path=str(path))
        if not isinstance(hooks[index], dict):
            raise ConfigError(f"hook {index} is not an object; fix the file by hand", path=str(path))
        if enabled:
            hooks[index].pop("enabled", None)
        else:
            hooks[index]["enabled"] = False

    update_file(path, toggle, retrust=retrust)
