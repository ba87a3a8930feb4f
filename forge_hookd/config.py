"""Hook config files: where they are, loading with warnings, merging, safe writes."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from .errors import ConfigError
from .registry import Hook, unknown_keys

CONFIG_NAME = "hooks.json"
PROJECT_DIR_NAME = ".forge"


@dataclass
class LoadedConfig:
    """Hooks in execution order plus the problems met while loading them."""

    hooks: list[Hook] = field(default_factory=list)
    warnings: list[ConfigError] = field(default_factory=list)

    def extend(self, other: LoadedConfig) -> None:
        self.hooks.extend(other.hooks)
        self.warnings.extend(other.warnings)


def global_config_path() -> Path:
    """``$FORGE_CONFIG_DIR/hooks.json``, else ``${XDG_CONFIG_HOME:-~/.config}/forge/hooks.json``."""
    if os.environ.get("FORGE_CONFIG_DIR"):
        return Path(os.environ["FORGE_CONFIG_DIR"]) / CONFIG_NAME
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "forge" / CONFIG_NAME


def find_project_root(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``explicit``, else ``$FORGE_PROJECT_DIR``, else the nearest directory upwards
    holding ``.forge/hooks.json``, else the current directory. Always absolute."""
    if explicit:
        return Path(explicit).resolve()
    if os.environ.get("FORGE_PROJECT_DIR"):
        return Path(os.environ["FORGE_PROJECT_DIR"]).resolve()
    cwd = Path.cwd()
    for directory in (cwd, *cwd.parents):
        if (directory / PROJECT_DIR_NAME / CONFIG_NAME).is_file():
            return directory
    return cwd


def project_config_path(project_root: str | os.PathLike[str] | None = None) -> Path:
    return find_project_root(project_root) / PROJECT_DIR_NAME / CONFIG_NAME


def read_document(path: Path) -> dict[str, Any] | None:
    """The parsed config file, None when it does not exist. Raises ConfigError."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror}", path=str(path)) from None
    try:
        doc = orjson.loads(raw) if raw.strip() else {}
    except orjson.JSONDecodeError as exc:
        raise ConfigError(f"invalid JSON: {exc.msg}", path=str(path),
                          line=exc.lineno, column=exc.colno) from None
    if not isinstance(doc, dict):
        raise ConfigError('the file must hold a JSON object {"hooks": [...]}', path=str(path))
    if not isinstance(doc.get("hooks", []), list):
        raise ConfigError("'hooks' must be a list", path=str(path))
    return doc


def hooks_from_document(doc: dict[str, Any], *, path: Path, source: str) -> LoadedConfig:
    """Every well-formed entry as a Hook; each malformed one becomes a warning."""
    loaded = LoadedConfig()
    for index, entry in enumerate(doc.get("hooks", [])):
        try:
            loaded.hooks.append(Hook.from_dict(entry, source=source))
        except ConfigError as exc:
            loaded.warnings.append(ConfigError(f"{exc.message}; hook skipped",
                                               path=str(path), entry=index))
            continue
        for key in unknown_keys(entry):
            loaded.warnings.append(ConfigError(f"unknown key '{key}' ignored",
                                               path=str(path), entry=index))
    return loaded


def load_file(path: Path, *, source: str | None = None) -> LoadedConfig:
    """Load one config file; a missing file is empty, a broken one is a warning."""
    try:
        doc = read_document(path)
    except ConfigError as exc:
        return LoadedConfig(warnings=[exc])
    if doc is None:
        return LoadedConfig()
    return hooks_from_document(doc, path=path, source=source or str(path))


def load_sources(
    project_root: Path,
    *,
    include_global: bool = True,
    include_project: bool = True,
    extra: Iterable[str | os.PathLike[str]] = (),
) -> LoadedConfig:
    """Global hooks, then project hooks, then each extra file: the execution order."""
    loaded = LoadedConfig()
    if include_global:
        loaded.extend(load_file(global_config_path(), source="global"))
    if include_project:
        loaded.extend(load_file(project_root / PROJECT_DIR_NAME / CONFIG_NAME, source="project"))
    for path in extra:
        loaded.extend(load_file(Path(path)))
    return loaded


# -- writing ---------------------------------------------------------------------
@contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` held through a lock file beside it."""
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def write_atomically(path: Path, content: bytes) -> None:
    """Write a temporary file beside ``path``, fsync it, rename it over ``path``.

    A reader sees the old bytes or the new ones, never half a file, also after a crash.
    """
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(content)
            fh.flush()
            os.fsync(fh.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def dump_document(doc: dict[str, Any]) -> bytes:
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"


def update_file(path: Path, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """Read-modify-write ``path`` under its lock; unknown top-level keys survive.

    A file that cannot be parsed is never overwritten: ConfigError, bytes untouched.
    """
    with locked(path):
        doc = read_document(path) or {}
        doc.setdefault("hooks", [])
        change(doc)
        write_atomically(path, dump_document(doc))
        return doc


def save_hooks(path: Path, hooks: Iterable[Hook]) -> None:
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
        return global_config_path()

    @staticmethod
    def get_project_path(project_root: str | os.PathLike[str] | None = None) -> Path:
        return project_config_path(project_root)

    @staticmethod
    def load_global() -> list[Hook]:
        return _logged(load_file(global_config_path(), source="global"))

    @staticmethod
    def load_project(project_root: str | os.PathLike[str] | None = None) -> list[Hook]:
        return _logged(load_file(project_config_path(project_root), source="project"))

    @staticmethod
    def load_all(project_root: str | os.PathLike[str] | None = None) -> list[Hook]:
        """Global hooks first, then project hooks, each in file order."""
        return _logged(load_sources(find_project_root(project_root)))

    @staticmethod
    def save_global(hooks: Iterable[Hook]) -> None:
        save_hooks(global_config_path(), hooks)

    @staticmethod
    def save_project(hooks: Iterable[Hook], project_root: str | os.PathLike[str] | None = None) -> None:
        save_hooks(project_config_path(project_root), hooks)


def _logged(loaded: LoadedConfig) -> list[Hook]:
    if loaded.warnings:
        import logging

        log = logging.getLogger("forge_hookd")
        for warning in loaded.warnings:
            log.warning("%s", warning)
    return loaded.hooks
