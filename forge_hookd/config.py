"""Hook config files: where they are, loading with warnings, merging, safe writes."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import orjson

from . import trust
from .errors import ConfigError
from .registry import Hook, unknown_keys
from .safefile import StrPath, locked, write_atomically

if TYPE_CHECKING:
    from pathlib import Path

CONFIG_NAME = "hooks.json"
PROJECT_DIR_NAME = ".forge"


class LoadedConfig:
    """Hooks in execution order plus the problems met while loading them.

    ``untrusted`` is the project file when it exists but is not trusted (its hooks were
    not loaded). A plain class: a dataclass costs ~0.2 ms of every run's start-up.
    """

    def __init__(self, hooks: list[Hook] | None = None, warnings: list[ConfigError] | None = None,
                 untrusted: str | None = None, untrusted_state: trust.TrustState | None = None) -> None:
        self.hooks = hooks if hooks is not None else []
        self.warnings = warnings if warnings is not None else []
        self.untrusted = untrusted
        self.untrusted_state = untrusted_state

    def extend(self, other: LoadedConfig) -> None:
        self.hooks.extend(other.hooks)
        self.warnings.extend(other.warnings)


# Paths are plain strings here: pathlib costs ~3 ms of start-up on every event (issue 5).
def global_config_path() -> str:
    """``$FORGE_CONFIG_DIR/hooks.json``, else ``${XDG_CONFIG_HOME:-~/.config}/forge/hooks.json``."""
    if os.environ.get("FORGE_CONFIG_DIR"):
        return os.path.join(os.environ["FORGE_CONFIG_DIR"], CONFIG_NAME)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "forge", CONFIG_NAME)


def find_project_root(explicit: StrPath | None = None, *, start: StrPath | None = None) -> str:
    """``explicit``, else ``$FORGE_PROJECT_DIR``, else the nearest directory upwards
    from ``start`` (default: the current one) holding ``.forge/hooks.json``, else
    ``start``. Always absolute."""
    if explicit:
        return os.path.realpath(explicit)
    if os.environ.get("FORGE_PROJECT_DIR"):
        return os.path.realpath(os.environ["FORGE_PROJECT_DIR"])
    cwd = directory = os.path.realpath(start) if start else os.getcwd()
    while True:
        if os.path.isfile(project_file(directory)):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return cwd
        directory = parent


def project_file(project_root: StrPath) -> str:
    """``<project_root>/.forge/hooks.json``."""
    return os.path.join(project_root, PROJECT_DIR_NAME, CONFIG_NAME)


def project_config_path(project_root: StrPath | None = None) -> str:
    return project_file(find_project_root(project_root))


def read_raw(path: StrPath) -> bytes | None:
    """The bytes of a config file, None when it does not exist. Raises ConfigError."""
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror}", path=os.fspath(path)) from None


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


def iter_entries(doc: dict[str, Any], *, path: StrPath, source: str
                 ) -> Iterator[tuple[int, Hook | None, list[ConfigError]]]:
    """Each entry of ``doc["hooks"]`` parsed once: its index, its Hook (None when it is
    malformed) and the warnings it earns."""
    for index, entry in enumerate(doc.get("hooks", [])):
        try:
            hook = Hook.from_dict(entry, source=source)
        except ConfigError as exc:
            yield index, None, [ConfigError(f"{exc.message}; hook skipped", path=str(path), entry=index)]
            continue
        yield index, hook, [ConfigError(f"unknown key '{key}' ignored", path=str(path), entry=index)
                            for key in unknown_keys(entry)]


def hooks_from_document(doc: dict[str, Any], *, path: StrPath, source: str) -> LoadedConfig:
    """Every well-formed entry as a Hook; each malformed one becomes a warning."""
    loaded = LoadedConfig()
    for _, hook, warnings in iter_entries(doc, path=path, source=source):
        if hook is not None:
            loaded.hooks.append(hook)
        loaded.warnings.extend(warnings)
    return loaded


def load_file(path: StrPath, *, source: str | None = None, raw: bytes | None = None) -> LoadedConfig:
    """Load one config file; a missing file is empty, a broken one is a warning."""
    try:
        raw = read_raw(path) if raw is None else raw
        doc = None if raw is None else parse_document(raw, path)
    except ConfigError as exc:
        return LoadedConfig(warnings=[exc])
    if doc is None:
        return LoadedConfig()
    return hooks_from_document(doc, path=path, source=source or os.fspath(path))


def load_project_file(path: StrPath, *, trust_project: bool | None = None) -> LoadedConfig:
    """The project hooks, only when the file is trusted (or trust is overridden).

    Trust is checked on the very bytes that are then parsed: a file swapped between
    the check and the read cannot slip in. ``trust_project=None`` reads
    ``FORGE_TRUST_PROJECT``.
    """
    try:
        raw = read_raw(path)
    except ConfigError as exc:
        return LoadedConfig(warnings=[exc])
    if raw is None:
        return LoadedConfig()
    override = trust.override_from_env() if trust_project is None else trust_project
    if not override:
        state = trust.state(path, raw)
        if state is not trust.TrustState.TRUSTED:
            return LoadedConfig(untrusted=os.fspath(path), untrusted_state=state)
    return load_file(path, source="project", raw=raw)


def load_sources(
    project_root: StrPath,
    *,
    include_global: bool = True,
    include_project: bool = True,
    extra: Iterable[str | os.PathLike[str]] = (),
    trust_project: bool | None = None,
) -> LoadedConfig:
    """Global hooks, then (trusted) project hooks, then each extra file: the run order.

    The global file and files named in ``extra`` are the caller's own: always trusted.
    """
    loaded = LoadedConfig()
    if include_global:
        loaded.extend(load_file(global_config_path(), source="global"))
    if include_project:
        project = load_project_file(project_file(project_root), trust_project=trust_project)
        loaded.extend(project)
        loaded.untrusted, loaded.untrusted_state = project.untrusted, project.untrusted_state
    for path in extra:
        if not os.path.exists(path):  # named on purpose: its absence is worth a word
            loaded.warnings.append(ConfigError("no such file", path=os.fspath(path)))
        loaded.extend(load_file(path))
    return loaded


def untrusted_warning(loaded: LoadedConfig, project_root: StrPath) -> str | None:
    """What to tell the user when the project's hooks did not run for lack of trust."""
    if loaded.untrusted is None:
        return None
    why = ("changed since it was trusted" if loaded.untrusted_state is trust.TrustState.CHANGED
           else "not trusted")
    return (f"project hooks in {loaded.untrusted} did not run: the file is {why}; "
            f"review it, then run: forge-hook trust {project_root}")


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
        was_trusted = retrust and raw is not None and trust.is_trusted(path, raw)
        doc.setdefault("hooks", [])
        change(doc)
        content = dump_document(doc)
        write_atomically(path, content)
        if was_trusted:
            trust.trust(path, content)
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
        from pathlib import Path

        return Path(global_config_path())

    @staticmethod
    def get_project_path(project_root: StrPath | None = None) -> Path:
        from pathlib import Path

        return Path(project_config_path(project_root))

    @staticmethod
    def load_global() -> list[Hook]:
        return _logged(load_file(global_config_path(), source="global"), None)

    @staticmethod
    def load_project(project_root: StrPath | None = None, *,
                     trust_project: bool | None = None) -> list[Hook]:
        """The project's hooks, when its file is trusted (see :mod:`forge_hookd.trust`)."""
        root = find_project_root(project_root)
        loaded = load_project_file(project_file(root), trust_project=trust_project)
        return _logged(loaded, root)

    @staticmethod
    def load_all(project_root: StrPath | None = None, *,
                 trust_project: bool | None = None) -> list[Hook]:
        """Global hooks first, then the (trusted) project hooks, each in file order."""
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
        import logging

        log = logging.getLogger("forge_hookd")
        for warning in [*map(str, loaded.warnings), *([notice] if notice else [])]:
            log.warning("%s", warning)
    return loaded.hooks
