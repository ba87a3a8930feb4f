"""Managing hooks files: listing, checking and editing them (what ``forge-hook`` does)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from forge_hookd.trust import store as trust
from forge_hookd.config import (
    CONFIG_NAME,
    GLOBAL_KEYS,
    TOP_LEVEL_KEYS,
    PROJECT_DIR_NAME,
    duplicate_keys,
    file_warnings,
    global_config_path,
    iter_entries,
    parse_document,
    read_raw,
    update_file,
)
from forge_hookd import managed
from forge_hookd.dialects import get
from forge_hookd.errors import ConfigError
from forge_hookd.events import HookEvent
from forge_hookd.text import did_you_mean
from forge_hookd.registry import MANAGED_REFUSED, MANAGED_SOURCE, MAX_TIMEOUT, MIN_TIMEOUT, Hook, hook_name, tool_typos


@dataclass
class ListedHook:
    """A configured hook with where it lives and whether it may run."""

    hook: Hook
    scope: str  # "global", "project", or the managed layer's source ("managed", "managed:NAME")
    file: Path
    index: int  # its position in its file's "hooks" list
    trust: trust.TrustState
    trust_detail: str | None = None  # why it is not trusted: the file that changed ...

    @property
    def name(self) -> str:
        """Its one name for people: ``project[2]``, ``global[0] (lint)``."""
        return hook_name(self.scope, self.index, self.hook.id)

    def to_dict(self) -> dict[str, Any]:
        return {**self.hook.to_dict(), "timeout": self.hook.effective_timeout, "enabled": self.hook.enabled,
                "blocking": self.hook.blocking, "name": self.name,
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
    forge-hook-run still runs them). The managed layer comes first; a managed file that
    is refused is a problem (its events are denied); with ``managed_only`` the global and
    project files are not listed, and that is a problem too."""
    layer = managed.load_layer(project_root=str(project_root))
    listed = [ListedHook(hook, file.source, Path(file.path), hook.source_index or 0, trust.TrustState.TRUSTED)
              for file in layer.files if file.refused is None for hook in file.loaded.hooks]
    if problems is not None:
        problems += [ConfigError(f"managed policy refused: {r.why}; forge denies the events its hooks would judge",
                                 path=r.path) for r in layer.refused]
    if layer.managed_only is not None:
        if problems is not None:
            problems.append(ConfigError(f"the global and project hooks do not run: {layer.managed_only} sets "
                                        "managed_only"))
        return listed
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
def check_file(path: Path, project_root: Path, *,
               top_level_keys: tuple[str, ...] = TOP_LEVEL_KEYS) -> list[ConfigError]:
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
    if path == scope_path("global", project_root) and top_level_keys == TOP_LEVEL_KEYS:
        top_level_keys = GLOBAL_KEYS  # the global file may say where the run log is exported
    problems = file_warnings(doc, path=path, duplicates=duplicates, top_level_keys=top_level_keys)
    first_with_id: dict[str, int] = {}
    for index, hook, warnings in iter_entries(doc, path=path, source="", duplicates=duplicates,
                                              project_root=project_root):
        problems += warnings
        if hook is not None:
            problems += [ConfigError(message, path=str(path), entry=index)
                         for message in _entry_doubts(doc["hooks"][index], hook)]
        if hook is not None and hook.id is not None:
            first = first_with_id.setdefault(hook.id, index)
            if first != index:
                problems.append(ConfigError(f"id '{hook.id}' is hooks[{first}]'s too: an id names one hook of "
                                            "its file (enable, disable, remove and FORGE_SKIP take it)",
                                            path=str(path), entry=index))
    if path == scope_path("project", project_root):  # trust covers the project's file only
        problems += [ConfigError(f"trust cannot see what '{word}' names (a variable it does not know, a glob, a "
                                 "module, a runner's input): a change there is not a change of the trusted project", path=str(path),
                                 entry=index) for index, word in trust.unresolved(doc, project_root)]
    return problems


def check_managed(project_root: Path) -> list[tuple[str, ConfigError]]:
    """Every problem of the managed layer's files, each with its source: a refused file
    (its events are denied) or what :func:`check_file` finds in one that loads."""
    layer = managed.load_layer(project_root=str(project_root))
    found = [(MANAGED_SOURCE, ConfigError(f"{MANAGED_REFUSED}: {r.why}; forge denies the events its hooks would "
                                          "judge until an administrator fixes it", path=r.path))
             for r in layer.refused]
    for file in layer.files:
        if file.refused is None:
            found += [(file.source, p) for p in check_file(Path(file.path), project_root,
                                                           top_level_keys=managed.MANAGED_KEYS)]
            found += [(file.source, p) for p in file.loaded.warnings  # the layer's own settings
                      if p.message.startswith(("'managed_only'", "'export'", "export:", "'on_failure'"))]
    return found


def managed_files(project_root: Path) -> list[tuple[str, str, str]]:
    """Each file of the managed layer: its source, path, and what it holds, for check."""
    layer = managed.load_layer(project_root=str(project_root))
    rows = [(f.source, f.path, "refused" if f.refused else f"{len(f.loaded.hooks)} hook"
             f"{'s' if len(f.loaded.hooks) != 1 else ''} (root-owned)") for f in layer.files]
    return rows + [(MANAGED_SOURCE, r.path, "refused") for r in layer.refused
                   if not any(f.path == r.path for f in layer.files)]


def _entry_doubts(entry: dict[str, Any], hook: Hook) -> list[str]:
    """What is legal in an entry, runs, but is almost certainly not what its author meant
    (what makes a hook not run is a load warning, see :func:`config.iter_entries`)."""
    doubts = tool_typos(hook.patterns)  # bsah: legal (a caller's tool may be called so), never fires
    timeout = entry.get("timeout")
    if timeout is not None and not MIN_TIMEOUT <= timeout <= MAX_TIMEOUT:
        doubts.append(f"timeout {timeout:g} is outside [{MIN_TIMEOUT:g}, {MAX_TIMEOUT:g}]; "
                      f"it is clamped to {hook.effective_timeout:g}")
    return doubts + _unset_variables(hook)


def _unset_variables(hook: Hook) -> list[str]:
    """A variable the command expands that nobody sets (issue 21: a plugin's
    ``${CLAUDE_PLUGIN_ROOT}`` outside the plugin expands to nothing)."""
    from forge_hookd.policy import cmdvars  # 2 ms at import (python -X importtime): check's, not every forge-hook command's

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
    """Append ``hook`` to ``path``; its index there. An id another entry of the file
    holds already is refused (ConfigError): an id names one hook."""
    position: list[int] = []

    def append(doc: dict[str, Any]) -> None:
        taken = [i for i, e in enumerate(doc["hooks"]) if isinstance(e, dict) and hook.id and e.get("id") == hook.id]
        if taken:
            raise ConfigError(f"id '{hook.id}' is hooks[{taken[0]}]'s already: an id names one hook of its file",
                              path=str(path))
        doc["hooks"].append(hook.to_dict())
        position.append(len(doc["hooks"]) - 1)

    update_file(path, append, retrust=retrust)
    return position[0]


def add_guards(path: Path, hooks: list[Hook], *, retrust: bool) -> tuple[list[int], list[tuple[str, int]]]:
    """Append each guard hook of ``hooks`` that ``path`` does not hold yet, in one write:
    a guard counts as there when an entry names it (or its alias), whatever its pattern
    and options (the user's own settings are kept). The indexes of the entries added,
    and for each guard already there its name and index."""
    from forge_hookd.guards import ALIASES  # the parser and the guards: 7.2 ms of every other forge-hook command

    def canonical(name: object) -> object:
        return ALIASES.get(name, name) if isinstance(name, str) else name

    added: list[int] = []
    present: list[tuple[str, int]] = []

    def append(doc: dict[str, Any]) -> None:
        there: dict[object, int] = {}
        for k, e in enumerate(doc["hooks"]):
            if isinstance(e, dict) and e.get("guard") is not None:
                there.setdefault(canonical(e.get("guard")), k)
        for hook in hooks:
            key = canonical(hook.guard)
            if key in there:
                present.append((str(hook.guard), there[key]))
                continue
            doc["hooks"].append(hook.to_dict())
            there[key] = len(doc["hooks"]) - 1
            added.append(there[key])

    raw = read_raw(path)
    if raw is not None:  # every guard there already: the file is left byte for byte as it is
        hooks_now = parse_document(raw, path).get("hooks")
        append({"hooks": list(hooks_now) if isinstance(hooks_now, list) else []})
        if not added:
            return added, present
        added.clear()
        present.clear()
    update_file(path, append, retrust=retrust)  # checked again under the file's lock
    return added, present


def remove_hooks(path: Path, selector: str, *, retrust: bool) -> list[int]:
    """Remove the hook ``selector`` names (an index, an id: see :func:`select`), else
    every entry whose ``event`` is exactly ``selector``; the indexes that went."""
    if read_raw(path) is None:
        return []
    removed: list[int] = []

    def remove(doc: dict[str, Any]) -> None:
        hooks = doc["hooks"]
        named = select(hooks, selector, path=path, patterns=True)
        removed.extend(named)
        doc["hooks"] = [e for i, e in enumerate(hooks) if i not in named]

    update_file(path, remove, retrust=retrust)
    return removed


def new_hooks(doc: dict[str, Any], hooks: list[Hook], added: list[Hook]) -> list[Hook]:
    """The ``hooks`` that ``doc`` does not hold yet (an import run twice adds nothing; two
    alike in one import are two, as the agent ran them), also put into ``added``. Whether
    a hook is enabled, its description and its id do not make it another hook."""
    def key(entry: dict[str, Any]) -> str:
        return json.dumps({k: v for k, v in entry.items() if k not in ("enabled", "description", "id")},
                          sort_keys=True)

    seen = set()
    for entry in doc.get("hooks", []):
        try:
            seen.add(key(Hook.from_dict(entry).to_dict()))
        except ConfigError:
            continue
    added.extend(hook for hook in hooks if key(hook.to_dict()) not in seen)
    return list(added)


def set_enabled(path: Path, selector: str, enabled: bool, *, retrust: bool) -> int:
    """Enable or disable the entry ``selector`` names (an index or an id); its index.
    Raises ConfigError when there is no such entry."""
    if read_raw(path) is None:
        raise ConfigError("no such file", path=str(path))
    found: list[int] = []

    def toggle(doc: dict[str, Any]) -> None:
        hooks = doc["hooks"]
        named = select(hooks, selector, path=path)
        if not named:
            _no_such_hook(hooks, selector, path)
        index = named[0]
        if not isinstance(hooks[index], dict):
            raise ConfigError(f"hook {index} is not an object; fix the file by hand", path=str(path))
        if enabled:
            hooks[index].pop("enabled", None)
        else:
            hooks[index]["enabled"] = False
        found.append(index)

    update_file(path, toggle, retrust=retrust)
    return found[0]


def select(hooks: list[Any], selector: str, *, path: Path, patterns: bool = False) -> list[int]:
    """The indexes of the entries ``selector`` names: digits are an index (refused when
    out of range), else an id (refused when two entries hold it), else, with
    ``patterns``, every entry whose ``event`` is exactly ``selector``."""
    if selector.isdigit():
        index = int(selector)
        if index >= len(hooks):
            _no_such_hook(hooks, selector, path)
        return [index]
    with_id = [i for i, e in enumerate(hooks) if isinstance(e, dict) and e.get("id") == selector]
    if len(with_id) > 1:
        raise ConfigError(f"id '{selector}' names hooks {', '.join(map(str, with_id))}: name one by its index "
                          "(forge-hook list), and give the others ids of their own (forge-hook check)", path=str(path))
    if with_id or not patterns:
        return with_id
    return [i for i, e in enumerate(hooks) if isinstance(e, dict) and e.get("event") == selector]


def _no_such_hook(hooks: list[Any], selector: str, path: Path) -> NoReturn:
    ids = [str(e["id"]) for e in hooks if isinstance(e, dict) and isinstance(e.get("id"), str)]
    hint = "" if selector.isdigit() else did_you_mean(selector, ids)
    what = f"there is no hook {selector}" if selector.isdigit() else f"no hook has the id '{selector}'{hint}"
    raise ConfigError(f"{what} (the file has {len(hooks)}; forge-hook list shows them)", path=str(path))
