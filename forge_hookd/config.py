"""Hook config files: where they are, loading with warnings, merging, safe writes."""

from __future__ import annotations

import json  # loaded by orjson anyway; only its parser sees a key given twice
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import orjson

from forge_hookd.trust import store as trust
from forge_hookd.trust.decide import policy
from forge_hookd.errors import ConfigError
from forge_hookd.events import PROJECT_DIR_VAR, is_event_var
from forge_hookd.exportconf import parse_export
from forge_hookd.readfile import read_regular
from forge_hookd.registry import HOOK_KEYS, MANAGED_REFUSED, Hook, pattern_can_match, split_patterns, unknown_keys
from forge_hookd.safefile import StrPath, locked, write_atomically
from forge_hookd.text import did_you_mean

if TYPE_CHECKING:
    from pathlib import Path

    from collections.abc import Sequence
    from typing import Protocol

    from forge_hookd.exportconf import Export

    # What the merge reads of forge_hookd.managed's ManagedLayer (which imports this
    # module to read its files): each file's path and hooks, the refused ones' paths.
    class _ManagedFile(Protocol):
        @property
        def path(self) -> str: ...
        @property
        def loaded(self) -> LoadedConfig: ...

    class _Refused(Protocol):
        @property
        def path(self) -> str: ...
        @property
        def why(self) -> str: ...

    class ManagedLayer(Protocol):
        @property
        def files(self) -> Sequence[_ManagedFile]: ...
        @property
        def refused(self) -> Sequence[_Refused]: ...
        @property
        def managed_only(self) -> str | None: ...
        @property
        def export(self) -> Export | None: ...

CONFIG_NAME = "hooks.json"
PROJECT_DIR_NAME = ".forge"
TOP_LEVEL_KEYS = ("hooks",)
#: The global file may also say which FORGE_* variables a dialect run keeps (allow_env, read by
#: run/envgate.py) and where the run log is exported (never a project file).
GLOBAL_KEYS = ("hooks", "allow_env", "export")


class Lost:
    """A guard the user chose and lost (issue 30, item 3): a global or ``--config``
    file that exists but cannot be read or parsed (``patterns`` None: it may have guarded
    any event), or a malformed entry of one that parses (``entry`` its index, ``patterns``
    those its ``event`` names, None when it names none that can be read). What a run does
    with it is :mod:`forge_hookd.run.lost`'s."""

    __slots__ = ("path", "problem", "entry", "patterns")

    def __init__(self, path: str, problem: str, *, entry: int | None = None,
                 patterns: tuple[str, ...] | None = None) -> None:
        self.path, self.problem, self.entry, self.patterns = path, problem, entry, patterns


def lost_entry(entry: object, index: int, path: StrPath, problem: str) -> Lost | None:
    """The guard a malformed entry would have been; None for one that could never deny
    (``"enabled": false``, ``"blocking": false``)."""
    if isinstance(entry, dict) and (entry.get("enabled") is False or entry.get("blocking") is False):
        return None
    event = entry.get("event") if isinstance(entry, dict) else None
    patterns = split_patterns(event) if isinstance(event, str) and event.strip() else None
    return Lost(os.fspath(path), problem, entry=index, patterns=patterns or None)


class LoadedConfig:
    """Hooks in execution order plus the problems met while loading them.

    ``untrusted_path`` is the project file when it exists but is not trusted (its hooks were
    not loaded), ``untrusted_check`` why, and ``untrusted_hooks`` the hooks the file holds
    as it now reads (never run: what a changed project's deny is decided on), None when
    it cannot be parsed. ``lost`` are the guards of the user's own files (global,
    ``--config``) that could not be loaded (:class:`Lost`). A plain class: a dataclass
    would cost 0.45 ms of every run's start-up (bench/README.md, "tricks.py").
    """

    def __init__(self, hooks: list[Hook] | None = None, warnings: list[ConfigError] | None = None,
                 untrusted_path: str | None = None, untrusted_check: trust.TrustCheck | None = None,
                 untrusted_hooks: list[Hook] | None = None, lost: list[Lost] | None = None) -> None:
        self.hooks = hooks if hooks is not None else []
        self.warnings = warnings if warnings is not None else []
        self.lost = lost if lost is not None else []
        self.untrusted_path = untrusted_path
        self.untrusted_check = untrusted_check
        self.untrusted_hooks = untrusted_hooks
        self.managed: ManagedLayer | None = None  # the managed layer, when the run read it
        self.export: Export | None = None  # where the run log's records are shipped (exportconf)

    @property
    def untrusted_state(self) -> trust.TrustState | None:
        return None if self.untrusted_check is None else self.untrusted_check.state

    def extend(self, other: LoadedConfig) -> None:
        self.hooks.extend(other.hooks)
        self.warnings.extend(other.warnings)
        self.lost.extend(other.lost)


def global_config_path() -> str:
    """``$FORGE_CONFIG_DIR/hooks.json``, else ``${XDG_CONFIG_HOME:-~/.config}/forge/hooks.json``."""
    if config_dir := os.environ.get("FORGE_CONFIG_DIR"):
        return os.path.join(config_dir, CONFIG_NAME)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "forge", CONFIG_NAME)


def find_project_root(explicit: StrPath | None = None, *, start: StrPath | None = None) -> str:
    """``explicit``, else ``$FORGE_PROJECT_DIR``, else the nearest directory upwards
    from ``start`` (default: the current one) holding ``.forge/hooks.json``, else
    ``start``. Always absolute. (forge-hook's commands: the file a person edits; a
    run's search is :func:`locate_project_root`.)"""
    return locate_project_root(explicit, start=start, trusted_first=False).root


class ProjectRoot:
    """Where a run's project is, and the untrusted hooks files the search went past. A
    plain class: a NamedTuple costs 0.9 M instructions at import (bench/README.md)."""

    __slots__ = ("root", "passed")

    def __init__(self, root: str, passed: tuple[str, ...] = ()) -> None:
        self.root, self.passed = root, passed


def locate_project_root(explicit: StrPath | None = None, *, start: StrPath | None = None,
                        trusted_first: bool = True) -> ProjectRoot:
    """As :func:`find_project_root`, but a directory below the project cannot switch its
    guards off (issue 19 item 8): with ``trusted_first``, a hooks file the user never
    trusted (a dependency under node_modules, a vendored library) does not end the search
    upwards; the nearest root with a trust record wins, and those passed are returned to
    be reported. When none up the tree was ever trusted, the nearest hooks file is the
    project, as before."""
    if explicit:
        return ProjectRoot(os.path.realpath(explicit))
    if os.environ.get(PROJECT_DIR_VAR):
        return ProjectRoot(os.path.realpath(os.environ[PROJECT_DIR_VAR]))
    cwd = directory = os.path.realpath(start) if start else os.getcwd()
    passed: list[str] = []
    while True:
        if os.path.isfile(project_file(directory)):
            if not trusted_first or trust.has_record(directory):
                return ProjectRoot(directory, tuple(passed))
            passed.append(directory)
        parent = os.path.dirname(directory)
        if parent == directory:
            return ProjectRoot(passed[0]) if passed else ProjectRoot(cwd)
        directory = parent


def project_file(project_root: StrPath) -> str:
    """``<project_root>/.forge/hooks.json``."""
    return os.path.join(project_root, PROJECT_DIR_NAME, CONFIG_NAME)


def project_config_path(project_root: StrPath | None = None) -> str:
    return project_file(find_project_root(project_root))


def read_raw(path: StrPath) -> bytes | None:
    """The bytes of a config file, None when it does not exist. Raises ConfigError, also
    for anything but a regular file of at most 4 MiB (see :mod:`forge_hookd.readfile`)."""
    return read_regular(path)


def parse_document(raw: bytes, path: StrPath) -> dict[str, Any]:
    """A config file's bytes as its JSON object. Raises ConfigError (line and column)."""
    try:
        doc = orjson.loads(raw) if raw.strip() else {}
    except orjson.JSONDecodeError as exc:
        raise ConfigError(f"invalid JSON: {exc.msg}", path=os.fspath(path),
                          line=exc.lineno, column=exc.colno) from None
    if not isinstance(doc, dict):
        raise ConfigError('the file must hold a JSON object {"hooks": [...]}', path=os.fspath(path))
    if not isinstance(doc.get("hooks", []), list):
        raise ConfigError("'hooks' must be a list", path=os.fspath(path))
    return doc


# -- duplicate keys ----------------------------------------------------------------------
# orjson keeps the last of two equal keys without a word, while a reviewer reads the first:
# {"command": "echo SAFE", "command": "echo EVIL"}. Counting the keys in the text against
# those parsed costs a regex pass (100 us for a 100-hook file: bench/README.md, "guards.py");
# only when the counts differ is the file parsed again by the json module, which can see
# every pair.
_KEY_END = re.compile(rb'"\s*:')  # the end of every key; also of some strings, never fewer


def _key_count(value: Any) -> int:
    if isinstance(value, dict):
        return len(value) + sum(_key_count(v) for v in value.values())
    if isinstance(value, list):
        return sum(_key_count(v) for v in value)
    return 0


class _Pairs(dict[str, Any]):
    """A JSON object that remembers the keys it met more than once."""

    duplicates: list[str]


def _pairs(pairs: list[tuple[str, Any]]) -> _Pairs:
    obj = _Pairs()
    obj.duplicates = []
    for key, value in pairs:
        if key in obj:
            obj.duplicates.append(key)
        obj[key] = value
    return obj


def _repeated(value: Any, prefix: str = "") -> list[str]:
    """Every repeated key in ``value``, dotted (``env.MODE``)."""
    found = [prefix + k for k in getattr(value, "duplicates", [])]
    if isinstance(value, dict):
        found += [d for k, v in value.items() for d in _repeated(v, f"{prefix}{k}.")]
    elif isinstance(value, list):
        found += [d for v in value for d in _repeated(v, prefix)]
    return found


def duplicate_keys(raw: bytes, doc: dict[str, Any]) -> dict[int | None, list[str]]:
    """The repeated keys of a parsed file: per entry index, and at None those outside the
    entries. Empty (and cheap) for a file without any."""
    if len(_KEY_END.findall(raw)) == _key_count(doc):
        return {}
    try:
        pairs = json.loads(raw, object_pairs_hook=_pairs)
    except ValueError:  # pragma: no cover - orjson accepted it
        return {}
    found: dict[int | None, list[str]] = {}
    outside = list(pairs.duplicates) + [d for k, v in pairs.items() if k != "hooks" for d in _repeated(v, f"{k}.")]
    if outside:
        found[None] = outside
    hooks = pairs.get("hooks")
    for index, entry in enumerate(hooks if isinstance(hooks, list) else []):
        if _repeated(entry):
            found[index] = _repeated(entry)
    return found


# -- what makes a written hook not run ------------------------------------------------------
def file_warnings(doc: dict[str, Any], *, path: StrPath, duplicates: dict[int | None, list[str]],
                  top_level_keys: tuple[str, ...] = TOP_LEVEL_KEYS) -> list[ConfigError]:
    """What is wrong outside the entries: a misspelt top-level key, no ``hooks`` at all."""
    where = os.fspath(path)
    warnings = [ConfigError(f"unknown top-level key '{key}' ignored{did_you_mean(key, top_level_keys)}", path=where)
                for key in doc if key not in top_level_keys]
    warnings += [ConfigError(f"duplicate key '{key}'; the last one counts", path=where)
                 for key in duplicates.get(None, [])]
    if "hooks" not in doc:
        warnings.append(ConfigError("no 'hooks' list: this file defines no hook", path=where))
    return warnings


def _entry_warnings(entry: dict[str, Any], hook: Hook, project_root: StrPath | None) -> list[str]:
    """What makes a well-formed entry run otherwise than it reads."""
    problems = [f"unknown key '{key}' ignored{did_you_mean(key, HOOK_KEYS)}" for key in unknown_keys(entry)]
    problems += [f"pattern '{p}' can match no event type"
                 for p in hook.patterns or [hook.event_pattern] if not pattern_can_match(p)]
    problems += [f"env.{name} is an event variable; a hook cannot set it (ignored)"
                 for name in hook.env if is_event_var(name)]
    if hook.working_dir is not None and project_root is not None:
        problems += _working_dir_problems(hook.working_dir, project_root)
    if hook.guard is not None:
        problems += _guard_problems(hook)
    return problems


def _guard_problems(hook: Hook) -> list[str]:
    """An unknown guard or a bad option: the hook still loads and, judged, denies saying
    why (a typo never switches a guard off); the warning says what to fix."""
    # Imported here: the guards and the shell parser they load cost a file with no guard
    # entry nothing (bench/README.md, "Built-in guards: cost").
    from forge_hookd import guards

    return [f"{problem}; the guard denies until this is fixed"
            for problem in guards.problems(hook.guard or "", guards.options_key(hook.with_))]


def _working_dir_problems(working_dir: str, project_root: StrPath) -> list[str]:
    """Why the hook could not start in ``working_dir``, if it could not."""
    directory = os.path.join(project_root, working_dir)
    try:
        if stat.S_ISDIR(os.stat(directory).st_mode):
            return []
        why = "is not a directory"
    except FileNotFoundError:
        why = "does not exist"
    except OSError as exc:  # a 5000-character name, a directory we may not enter (issue 9)
        why = f"cannot be used: {exc.strerror}"
    shown = working_dir if len(working_dir) <= 80 else f"{working_dir[:60]}... ({len(working_dir)} characters)"
    where = f" ({directory})" if len(directory) <= 200 else ""
    return [f"working_dir '{shown}' {why}{where}; the hook cannot start"]


def iter_entries(doc: dict[str, Any], *, path: StrPath, source: str,
                 duplicates: dict[int | None, list[str]] | None = None,
                 project_root: StrPath | None = None,
                 ) -> Iterator[tuple[int, Hook | None, list[ConfigError]]]:
    """Each entry of ``doc["hooks"]`` parsed once: its index, its Hook (None when it is
    malformed or holds a key twice) and the warnings it earns. With ``project_root``,
    a ``working_dir`` that does not exist there is one of them."""
    duplicates = duplicates or {}
    for index, entry in enumerate(doc.get("hooks", [])):
        repeated = duplicates.get(index)
        if repeated:
            keys = ", ".join(f"'{k}'" for k in repeated)
            yield index, None, [ConfigError(f"duplicate key {keys} (a reader sees the first value, the runner "
                                            "would take the last); hook skipped", path=str(path), entry=index)]
            continue
        try:
            hook = Hook.from_dict(entry, source=source, source_index=index)
        except ConfigError as exc:
            yield index, None, [ConfigError(f"{exc.message}; hook skipped", path=str(path), entry=index)]
            continue
        yield index, hook, [ConfigError(problem, path=str(path), entry=index)
                            for problem in _entry_warnings(entry, hook, project_root)]


def hooks_from_document(doc: dict[str, Any], *, path: StrPath, source: str, raw: bytes | None = None,
                        project_root: StrPath | None = None, chosen: bool = False,
                        top_level_keys: tuple[str, ...] = TOP_LEVEL_KEYS) -> LoadedConfig:
    """Every well-formed entry as a Hook; each problem becomes a warning. In a file of
    the user's own (``chosen``: global, ``--config``) a malformed entry is also lost."""
    duplicates = duplicate_keys(raw, doc) if raw is not None else {}
    loaded = LoadedConfig(warnings=file_warnings(doc, path=path, duplicates=duplicates,
                                                 top_level_keys=top_level_keys))
    entries = doc.get("hooks", [])
    for index, hook, warnings in iter_entries(doc, path=path, source=source, duplicates=duplicates,
                                              project_root=project_root):
        if hook is not None:
            loaded.hooks.append(hook)
        elif chosen and (lost := lost_entry(entries[index], index, path,
                                             warnings[0].message.removesuffix("; hook skipped"))) is not None:
            loaded.lost.append(lost)
        loaded.warnings.extend(warnings)
    return loaded


def load_file(path: StrPath, *, source: str | None = None, raw: bytes | None = None,
              project_root: StrPath | None = None, top_level_keys: tuple[str, ...] = TOP_LEVEL_KEYS) -> LoadedConfig:
    """Load one of the user's own config files (global, ``--config``); a missing file is
    empty, a broken one is a warning and its guards are lost (:class:`Lost`). With
    ``export`` among ``top_level_keys`` (the global file), its setting is read too."""
    try:
        raw = read_raw(path) if raw is None else raw
        doc = None if raw is None else parse_document(raw, path)
    except ConfigError as exc:
        return LoadedConfig(warnings=[exc], lost=[Lost(os.fspath(path), _problem(exc))])
    if doc is None or raw is None:
        return LoadedConfig()
    if not raw.strip():
        return LoadedConfig()  # an empty file: nothing written, nothing to warn about
    loaded = hooks_from_document(doc, path=path, source=source or os.fspath(path), raw=raw,
                                 project_root=project_root, chosen=True, top_level_keys=top_level_keys)
    if "export" in top_level_keys and "export" in doc:
        loaded.export, problems = parse_export(doc["export"], origin=os.fspath(path), managed=False)
        loaded.warnings += [ConfigError(problem, path=os.fspath(path)) for problem in problems]
    return loaded


def _problem(exc: ConfigError) -> str:
    """The error of a file without its path (the reason names the file once)."""
    where = f" (line {exc.line}, column {exc.column})" if exc.line is not None else ""
    return f"{exc.message}{where}"


def load_project_file(path: StrPath, *, trust_project: bool | None = None) -> LoadedConfig:
    """The project hooks, only when the project is trusted (or trust is overridden).

    Trust is checked on the very bytes that are then parsed: a file swapped between
    the check and the read cannot slip in. ``trust_project=None`` (the library's
    ``HookConfig.load_project``) asks trust's policy, which reads ``FORGE_TRUST_PROJECT``.
    """
    try:
        raw = read_raw(path)
    except ConfigError as exc:
        return LoadedConfig(warnings=[exc])
    if raw is None:
        return LoadedConfig()
    try:
        doc: dict[str, Any] | None = parse_document(raw, path)
    except ConfigError as exc:
        doc, problem = None, exc
    if trust_project is None:
        settled = policy()
        trust_project, warnings = settled.override, [ConfigError(settled.unclear)] if settled.unclear else []
    else:
        warnings = []
    if not trust_project:
        check = trust.check(path, raw, doc if doc is not None else {})
        if check.state is not trust.TrustState.TRUSTED:
            return LoadedConfig(warnings=warnings, untrusted_path=os.fspath(path), untrusted_check=check,
                                untrusted_hooks=None if doc is None else _unrun(doc, path))
    if doc is None:
        return LoadedConfig(warnings=[*warnings, problem])
    root = trust.project_root_of(path)
    loaded = hooks_from_document(doc, path=path, source="project", raw=raw, project_root=root)
    loaded.warnings[:0] = warnings
    return loaded


def _unrun(doc: dict[str, Any], path: StrPath) -> list[Hook]:
    """The well-formed hooks of an untrusted file, to match against (never to run)."""
    return [hook for _, hook, _ in iter_entries(doc, path=path, source="project") if hook is not None]


def load_sources(
    project_root: StrPath,
    *,
    include_global: bool = True,
    include_project: bool = True,
    extra: Iterable[str | os.PathLike[str]] = (),
    trust_project: bool | None = None,
    on_file: Callable[[str, str, LoadedConfig], None] | None = None,
    managed: ManagedLayer | None = None,
) -> LoadedConfig:
    """The managed layer's hooks (``managed``, read by :func:`forge_hookd.managed.load_layer`),
    then global hooks, then (trusted) project hooks, then each extra file: the run order.

    The global file and files named in ``extra`` are the caller's own: always trusted.
    An ``extra`` file that does not exist raises ConfigError: it was named on purpose.
    ``on_file(scope, path, loaded)`` hears of each file read (the run log, ``--trace``).
    A layer with ``managed_only`` leaves the others unread, each one that exists a warning.
    """
    missing = [os.fspath(p) for p in extra if not os.path.lexists(p)]
    if missing:
        raise ConfigError("no such file (named with --config)", path=missing[0])
    note = on_file or (lambda scope, path, part: None)
    loaded = LoadedConfig()
    if managed is not None:
        loaded.managed, loaded.export = managed, managed.export  # a managed export wins
        for file in managed.files:
            loaded.extend(_noted(note, "managed", file.path, file.loaded))
        loaded.warnings += [ConfigError(f"{MANAGED_REFUSED}: {r.why}", path=r.path)
                            for r in managed.refused if not any(f.path == r.path for f in managed.files)]
        if managed.managed_only is not None:
            loaded.warnings += _unread_for_managed_only(managed.managed_only, project_root, include_global,
                                                        include_project, extra)
            return loaded
    if include_global:
        global_path = global_config_path()
        part = load_file(global_path, source="global", project_root=project_root, top_level_keys=GLOBAL_KEYS)
        loaded.extend(_noted(note, "global", global_path, part))
        loaded.export = loaded.export or part.export
    if include_project:
        project_path = project_file(project_root)
        project = load_project_file(project_path, trust_project=trust_project)
        loaded.extend(_noted(note, "project", project_path, project))
        loaded.untrusted_path, loaded.untrusted_check = project.untrusted_path, project.untrusted_check
        loaded.untrusted_hooks = project.untrusted_hooks
    for path in extra:
        loaded.extend(_noted(note, "extra", os.fspath(path), load_file(path, project_root=project_root)))
    return loaded


def _unread_for_managed_only(setter: str, project_root: StrPath, include_global: bool, include_project: bool,
                             extra: Iterable[str | os.PathLike[str]]) -> list[ConfigError]:
    """A warning for each user or project hooks file that ``managed_only`` leaves unread."""
    paths = [global_config_path()] if include_global else []
    paths += [project_file(project_root)] if include_project else []
    return [ConfigError(f"not read: the managed policy {setter} sets managed_only, so only managed hooks run",
                        path=path) for path in [*paths, *(os.fspath(p) for p in extra)] if os.path.lexists(path)]


def _noted(note: Callable[[str, str, LoadedConfig], None], scope: str, path: str,
           part: LoadedConfig) -> LoadedConfig:
    note(scope, path, part)
    return part


def untrusted_warning(loaded: LoadedConfig, project_root: StrPath) -> str | None:
    """What to tell the user when the project's hooks did not run for lack of trust."""
    check = loaded.untrusted_check
    if loaded.untrusted_path is None or check is None:
        return None
    return trust.not_run_warning(loaded.untrusted_path, os.fspath(project_root), check)


# -- writing ---------------------------------------------------------------------
def dump_document(doc: dict[str, Any]) -> bytes:
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"


def update_file(path: StrPath, change: Callable[[dict[str, Any]], None], *,
                retrust: bool = False) -> dict[str, Any]:
    """Read-modify-write ``path`` under its lock; unknown keys and hook order survive.

    A file that cannot be parsed is never overwritten: ConfigError, bytes untouched.
    With ``retrust``, a file that was trusted before the change is trusted after it
    (the user made the change); an untrusted one stays untrusted.
    """
    with locked(path):
        raw = read_raw(path)
        doc = {} if raw is None else parse_document(raw, path)
        was_trusted = retrust and raw is not None and trust.is_trusted(path, raw, doc)
        doc.setdefault("hooks", [])
        change(doc)
        content = dump_document(doc)
        write_atomically(path, content, shared=True)  # a new hooks file follows the umask, as any file
        if was_trusted:
            trust.trust(path, content, doc)
        return doc


def save_hooks(path: StrPath, hooks: Iterable[Hook]) -> None:
    """Replace the hooks of ``path`` (safely, see :func:`update_file`)."""
    entries = [h.to_dict() for h in hooks]

    def replace(doc: dict[str, Any]) -> None:
        doc["hooks"] = entries

    update_file(path, replace)


class HookConfig:
    """The seed's config API over the functions of this module.

    Loading never raises: problems are logged as warnings on the ``forge_hookd``
    logger and the other hooks still load (use :func:`load_sources` to get them).
    """

    @staticmethod
    def get_global_path() -> Path:
        # pathlib (with urllib.parse and ipaddress) costs 22 M instructions, 9% of an event
        # that matches no hook: only this API of the seed's speaks Path (bench/README.md).
        from pathlib import Path

        return Path(global_config_path())

    @staticmethod
    def get_project_path(project_root: StrPath | None = None) -> Path:
        from pathlib import Path  # as in get_global_path

        return Path(project_config_path(project_root))

    @staticmethod
    def load_global() -> list[Hook]:
        return _logged(load_file(global_config_path(), source="global", top_level_keys=GLOBAL_KEYS), None)

    @staticmethod
    def load_project(project_root: StrPath | None = None, *,
                     trust_project: bool | None = None) -> list[Hook]:
        """The project's hooks, when its file is trusted (see :mod:`forge_hookd.trust.store`)."""
        root = find_project_root(project_root)
        loaded = load_project_file(project_file(root), trust_project=trust_project)
        return _logged(loaded, root)

    @staticmethod
    def load_all(project_root: StrPath | None = None, *,
                 trust_project: bool | None = None) -> list[Hook]:
        """Global hooks first, then the (trusted) project hooks, each in file order.

        Not the managed layer: this module sits below :mod:`forge_hookd.managed`, which
        reads it (pass its ``load_layer()`` to :func:`load_sources` for the run order)."""
        root = find_project_root(project_root)
        return _logged(load_sources(root, trust_project=trust_project), root)

    @staticmethod
    def save_global(hooks: Iterable[Hook]) -> None:
        save_hooks(global_config_path(), hooks)

    @staticmethod
    def save_project(hooks: Iterable[Hook], project_root: StrPath | None = None) -> None:
        save_hooks(project_config_path(project_root), hooks)


def _logged(loaded: LoadedConfig, project_root: StrPath | None) -> list[Hook]:
    notice = untrusted_warning(loaded, project_root) if project_root is not None else None
    if loaded.warnings or notice:
        import logging  # 12 ms, only when a library call has a warning to log (bench/README.md, "tricks.py")

        log = logging.getLogger("forge_hookd")
        for warning in [*map(str, loaded.warnings), *([notice] if notice else [])]:
            log.warning("%s", warning)
    return loaded.hooks
