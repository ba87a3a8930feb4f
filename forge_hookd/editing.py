"""Managing hooks files: listing, checking and editing them (what ``forge-hook`` does)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from . import trust
from .config import (
    CONFIG_NAME,
    PROJECT_DIR_NAME,
    global_config_path,
    iter_entries,
    parse_document,
    read_raw,
    update_file,
)
from .errors import ConfigError
from .events import EVENT_TYPES, HookEvent
from .registry import MAX_TIMEOUT, MIN_TIMEOUT, Hook, split_patterns


@dataclass
class ListedHook:
    """A configured hook with where it lives and whether it may run."""

    hook: Hook
    scope: str  # "global" or "project"
    file: Path
    index: int  # its position in its file's "hooks" list
    trust: trust.TrustState

    def to_dict(self) -> dict[str, Any]:
        return {**self.hook.to_dict(), "timeout": self.hook.timeout, "enabled": self.hook.enabled,
                "blocking": self.hook.blocking,
                "source": self.scope, "file": str(self.file), "index": self.index,
                "trusted": self.trust is trust.TrustState.TRUSTED, "trust": self.trust.value}


def scope_path(scope: str, project_root: Path) -> Path:
    """The file ``--global`` or ``--project`` names."""
    return Path(global_config_path()) if scope == "global" else project_root / PROJECT_DIR_NAME / CONFIG_NAME


def list_hooks(project_root: Path) -> list[ListedHook]:
    """Every well-formed hook of the global and project files, in run order."""
    listed = []
    for scope in ("global", "project"):
        path = scope_path(scope, project_root)
        raw = read_raw(path)
        if raw is None:
            continue
        state = trust.TrustState.TRUSTED if scope == "global" else trust.state(path, raw)
        doc = parse_document(raw, path)
        listed += [ListedHook(hook, scope, path, index, state)
                   for index, hook, _ in iter_entries(doc, path=path, source=scope) if hook is not None]
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
    problems = []
    for index, hook, warnings in iter_entries(doc, path=path, source=""):
        problems += warnings
        if hook is not None:
            problems += [ConfigError(message, path=str(path), entry=index)
                         for message in _entry_doubts(doc["hooks"][index], hook, project_root)]
    return problems


def _entry_doubts(entry: dict[str, Any], hook: Hook, project_root: Path) -> list[str]:
    """What is legal in an entry but almost certainly not what its author meant."""
    doubts = []
    timeout = entry.get("timeout")
    if timeout is not None and not MIN_TIMEOUT <= timeout <= MAX_TIMEOUT:
        doubts.append(f"timeout {timeout:g} is outside [{MIN_TIMEOUT:g}, {MAX_TIMEOUT:g}]; "
                      f"it is clamped to {hook.timeout:g}")
    for pattern in split_patterns(hook.event_pattern) or [hook.event_pattern]:
        if not pattern_can_match(pattern):
            doubts.append(f"pattern '{pattern}' can match no event type")
    if hook.working_dir is not None:
        doubts += _working_dir_doubts(hook.working_dir, project_root)
    return doubts


def _working_dir_doubts(working_dir: str, project_root: Path) -> list[str]:
    try:
        if (project_root / working_dir).is_dir():
            return []
    except OSError as exc:  # a 5000-character name, a directory we may not enter (issue 9)
        shown = working_dir if len(working_dir) <= 80 else f"{working_dir[:60]}... ({len(working_dir)} characters)"
        return [f"working_dir '{shown}' cannot be used: {exc.strerror}"]
    return [f"working_dir '{working_dir}' does not exist in {project_root}"]


def pattern_can_match(pattern: str) -> bool:
    """Whether some event (a type, or a type plus some tool name) matches ``pattern``."""
    if any(fnmatchcase(t, pattern) for t in EVENT_TYPES):
        return True
    # T:tool where the part before some colon matches a type (tool names may hold colons).
    heads = [pattern[:i] for i, c in enumerate(pattern) if c == ":"]
    if any(fnmatchcase(t, head) for head in heads for t in EVENT_TYPES):
        return True
    # A glob such as tool*bash: try the literal words of the pattern as tool names.
    words = [w for w in re.split(r"[*?\[\]!:]", pattern) if w] or ["x"]
    return any(fnmatchcase(f"{t}:{w}", pattern) for t in EVENT_TYPES for w in words)


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
