"""The managed layer (DESIGN.md, "Managed policy and audit export"; issue 35 item 1): the
hooks an organisation puts on a machine, which the person at the keyboard and the agent
cannot switch off.

- Where: ``/etc/forge/hooks.json``, then ``/etc/forge/managed.d/*.json`` by name.
  ``FORGE_MANAGED_DIR`` (tests, machines without a managed policy) is the layer only
  where ``/etc/forge`` does not exist; where it does, the variable's files are added
  after it and turn nothing off (``managed_only`` and ``export`` count only from
  ``/etc/forge``).
- Trusted by ownership: every directory from ``/`` down to the file, and the file, is
  owned by root and not writable by group or others, checked with ``lstat`` (a link is
  never followed; a file is opened with ``O_NOFOLLOW`` and judged on its descriptor).
  An ancestor that others may write is accepted only with the sticky bit (``/tmp``):
  then no one but root can rename the root-owned entry below it.
- A file that fails is refused, loudly (a warning on every run), and forge denies the
  events that can block which its hooks would judge (:func:`imposed`); a file that
  cannot be parsed, or a layer directory that cannot be listed, denies every event that
  can block.
- Its hooks run first, above the global and project hooks; ``--no-global``,
  ``--no-project``, ``FORGE_SKIP`` and ``FORGE_*`` variables do not reach them, and
  ``"managed_only": true`` leaves user and project hooks unread.

A hook's ``source`` is ``managed`` (``/etc/forge/hooks.json``) or ``managed:NAME`` (a
file of ``managed.d``, or of ``FORGE_MANAGED_DIR`` beside ``/etc/forge``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from forge_hookd.config import LoadedConfig, hooks_from_document, parse_document
from forge_hookd.errors import ConfigError
from forge_hookd.exportconf import Export, parse_export
from forge_hookd.readfile import MAX_CONFIG_BYTES, kind_of
from forge_hookd.registry import MANAGED_REFUSED, MANAGED_SOURCE, HookRegistry
from forge_hookd.results import Imposed
from forge_hookd.trust.store import digest

if TYPE_CHECKING:
    from forge_hookd.events import HookEvent
    from forge_hookd.registry import Hook

#: The managed layer of the machine. Never taken from the environment or the event.
SYSTEM_DIR = "/etc/forge"
MANAGED_DIR_VAR = "FORGE_MANAGED_DIR"
DROP_IN_DIR = "managed.d"
LAYER_FILE = "hooks.json"
#: What a managed file may hold besides hooks.
MANAGED_KEYS = ("hooks", "managed_only", "export", "on_failure")
ON_FAILURE = ("last-good", "refuse")
#: Beside a pulled policy whose last pull failed and whose ``on_failure`` is ``refuse``
#: (forge_hookd.policy.pull): every event that can block is denied until a good pull.
PULL_FAILED_SUFFIX = ".pull-failed"


class ManagedFile:
    """One file of the layer as read: its source name, path, bytes (None when it could
    not be read), what was loaded from it, and why it was refused (None: it was not)."""

    __slots__ = ("source", "path", "raw", "loaded", "refused", "authoritative")

    def __init__(self, source: str, path: str, raw: bytes | None, loaded: LoadedConfig,
                 refused: str | None, authoritative: bool) -> None:
        self.source, self.path, self.raw, self.loaded = source, path, raw, loaded
        self.refused, self.authoritative = refused, authoritative


class Refused:
    """A managed file that failed its checks: ``hooks`` are the hooks it holds (never
    run: what forge's deny is decided on), None when it could not be parsed (every event
    that can block is denied)."""

    __slots__ = ("path", "why", "hooks")

    def __init__(self, path: str, why: str, hooks: list[Hook] | None) -> None:
        self.path, self.why, self.hooks = path, why, hooks


class ManagedLayer:
    """The layer as loaded for one run: its hooks in run order, its warnings, the files
    refused, whether it ignores user and project hooks, and each file read."""

    __slots__ = ("dirs", "files", "refused", "managed_only", "export")

    def __init__(self) -> None:
        self.dirs: list[tuple[str, bool]] = []
        self.files: list[ManagedFile] = []
        self.refused: list[Refused] = []
        self.managed_only: str | None = None  # the file that set it
        self.export: Export | None = None  # from an authoritative file only

    @property
    def hooks(self) -> list[Hook]:
        return [h for f in self.files for h in f.loaded.hooks]

    def digest(self) -> str | None:
        """``sha256:HEX`` over every file's path and bytes, in order; None when the
        layer holds no file (for ``forge-hook doctor --json``)."""
        if not self.files and not self.refused:
            return None
        # trust's SHA-256: hashlib would load OpenSSL, 6.4 ms of every event (bench/README.md)
        parts = [f"{f.path}\0{digest(f.raw or b'')}\n" for f in self.files]
        parts += [f"{r.path}\0refused\n" for r in self.refused]
        return "sha256:" + digest("".join(parts).encode("utf-8", "surrogateescape"))


def layer_dirs(environ: Mapping[str, str] | None = None) -> list[tuple[str, bool]]:
    """The layer's directories, each with whether it is authoritative (``managed_only``
    and ``export`` count): ``/etc/forge`` when it exists, then ``FORGE_MANAGED_DIR``
    adding hooks; else the variable's directory, authoritative."""
    env = os.environ if environ is None else environ
    variable = env.get(MANAGED_DIR_VAR) or None
    if variable is not None:
        variable = os.path.abspath(variable)
    if os.path.lexists(SYSTEM_DIR):
        return [(SYSTEM_DIR, True)] + ([(variable, False)] if variable and variable != SYSTEM_DIR else [])
    return [(variable, True)] if variable else []


def load_layer(environ: Mapping[str, str] | None = None, *, project_root: str | None = None) -> ManagedLayer:
    """Every file of the managed layer, checked and loaded (never raises)."""
    layer = ManagedLayer()
    layer.dirs = layer_dirs(environ)
    for directory, authoritative in layer.dirs:
        _load_dir(layer, directory, authoritative, project_root)
    return layer


def _load_dir(layer: ManagedLayer, directory: str, authoritative: bool, project_root: str | None) -> None:
    problem = chain_problem(directory, sticky_ok=False)
    if problem == _MISSING:
        return
    if problem is not None and not os.path.isdir(directory):
        layer.refused.append(Refused(directory, problem, None))
        return
    main_source = MANAGED_SOURCE if authoritative else f"{MANAGED_SOURCE}:{LAYER_FILE[:-5]}"
    paths = [(main_source, os.path.join(directory, LAYER_FILE), problem)]
    drop_in = os.path.join(directory, DROP_IN_DIR)
    drop_problem = chain_problem(drop_in, sticky_ok=False)
    if drop_problem != _MISSING:
        drop_problem = problem or drop_problem
        try:
            names = sorted(n for n in os.listdir(drop_in) if n.endswith(".json") and not n.startswith("."))
        except OSError as exc:
            layer.refused.append(Refused(drop_in, f"cannot be listed: {exc.strerror}", None))
            names = []
        paths += [(f"{MANAGED_SOURCE}:{name[:-5]}", os.path.join(drop_in, name), drop_problem) for name in names]
        layer.refused += [_pull_failed(os.path.join(drop_in, name)) for name in _markers(drop_in)]
    for source, path, dir_problem in paths:
        file = _load_file(source, path, dir_problem, authoritative, project_root)
        if file is None:
            continue
        layer.files.append(file)
        if file.refused is not None:
            layer.refused.append(Refused(path, file.refused, file.loaded.untrusted_hooks))
        else:
            _settings(layer, file)


def _markers(drop_in: str) -> list[str]:
    try:
        return sorted(n for n in os.listdir(drop_in) if n.endswith(".json" + PULL_FAILED_SUFFIX))
    except OSError:
        return []  # the listing above said why


def _pull_failed(path: str) -> Refused:
    raw, _ = _read(path)
    said = (raw or b"").decode("utf-8", "replace").strip()[:500] if raw is not _UNREAD else "unknown"
    return Refused(path, f"the last pull of {os.path.basename(path)[:-len(PULL_FAILED_SUFFIX)]} failed ({said}) "
                         "and the policy says on_failure: refuse, so every event that can block is denied "
                         "until a pull succeeds (forge-hook policy pull)", None)


_MISSING = "missing"


def chain_problem(path: str, *, sticky_ok: bool) -> str | None:
    """Why ``path`` (a directory) cannot be trusted by its ownership, or None when every
    component from ``/`` down is a root-owned directory, not a link, and not writable by
    group or others (an ancestor may be, with the sticky bit). ``"missing"`` when the
    path itself does not exist."""
    path = os.path.abspath(path)
    if not os.path.lexists(path):
        return _MISSING
    parts = [p for p in path.split("/") if p]
    current = "/"
    for depth in range(len(parts) + 1):
        if depth:
            current = os.path.join(current, parts[depth - 1])
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            return _MISSING if depth == len(parts) else f"{current} does not exist"
        except OSError as exc:
            return f"{current} cannot be checked: {exc.strerror}"
        last = depth == len(parts)
        why = _not_trusted(current, info, allow_sticky=sticky_ok or not last)
        if why is None and not stat.S_ISDIR(info.st_mode):
            why = f"{current} is {kind_of(info.st_mode)}, not a directory"
        if why is not None:
            return why
    return None


def _not_trusted(path: str, info: os.stat_result, *, allow_sticky: bool) -> str | None:
    if stat.S_ISLNK(info.st_mode):
        return f"{path} is a symbolic link (the managed layer follows none)"
    if info.st_uid != 0:
        return f"{path} is owned by uid {info.st_uid}, not root"
    if info.st_mode & 0o022 and not (allow_sticky and info.st_mode & stat.S_ISVTX and stat.S_ISDIR(info.st_mode)):
        return f"{path} is writable by {'group' if info.st_mode & 0o020 else 'others'} (mode {stat.S_IMODE(info.st_mode):o})"
    return None


_UNREAD = b"\0"  # what a file that was not read holds: its hooks are unknown (every blocking event is denied)


def _read(path: str) -> tuple[bytes | None, str | None]:
    """The file's bytes (None: missing; ``_UNREAD``: not read) and why it is not trusted
    (its own ownership and mode, judged on the open descriptor: no link is followed)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        if os.path.islink(path):
            return _UNREAD, f"{path} is a symbolic link (the managed layer follows none)"
        return _UNREAD, f"cannot be read: {exc.strerror}"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return _UNREAD, f"{path} is {kind_of(info.st_mode)}, not a regular file"
        if info.st_size > MAX_CONFIG_BYTES:
            return _UNREAD, f"{info.st_size} bytes, over the limit of {MAX_CONFIG_BYTES}"
        chunks, size = [], 0
        while chunk := os.read(fd, MAX_CONFIG_BYTES + 1 - size):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_CONFIG_BYTES:
                return _UNREAD, f"over the limit of {MAX_CONFIG_BYTES} bytes"
        return b"".join(chunks), _not_trusted(path, info, allow_sticky=False)
    except OSError as exc:
        return _UNREAD, f"cannot be read: {exc.strerror}"
    finally:
        os.close(fd)


def _load_file(source: str, path: str, dir_problem: str | None, authoritative: bool,
               project_root: str | None) -> ManagedFile | None:
    raw, own_problem = _read(path)
    if raw is None:
        return None
    problem = dir_problem if dir_problem not in (None, _MISSING) else own_problem
    doc: dict[str, Any] | None = None
    try:
        if raw is not _UNREAD:
            doc = parse_document(raw, path) if raw.strip() else {"hooks": []}
    except ConfigError as exc:
        problem = problem or str(exc.message) + (f" (line {exc.line}, column {exc.column})" if exc.line else "")
    if problem is not None:
        held = None if doc is None else [h for h in hooks_from_document(doc, path=path, source=source).hooks
                                         if h.enabled]
        loaded = LoadedConfig(warnings=[ConfigError(f"{MANAGED_REFUSED}: {problem}; forge denies the events "
                                                    "its hooks would judge until an administrator fixes it",
                                                    path=path)], untrusted_hooks=held)
        return ManagedFile(source, path, raw, loaded, problem, authoritative)
    assert doc is not None
    loaded = hooks_from_document(doc, path=path, source=source, raw=raw, project_root=project_root,
                                 top_level_keys=MANAGED_KEYS)
    return ManagedFile(source, path, raw, loaded, None, authoritative)


def _settings(layer: ManagedLayer, file: ManagedFile) -> None:
    """``managed_only`` and ``export`` of an authoritative file; elsewhere a warning."""
    doc = parse_document(file.raw or b"{}", file.path) if (file.raw or b"").strip() else {}
    for key in ("managed_only", "export"):
        if key not in doc:
            continue
        if not file.authoritative:
            file.loaded.warnings.append(ConfigError(f"'{key}' ignored: it counts only in {SYSTEM_DIR} "
                                                    f"({MANAGED_DIR_VAR} adds hooks, it turns nothing off)",
                                                    path=file.path))
        elif key == "managed_only" and not isinstance(doc[key], bool):
            file.loaded.warnings.append(ConfigError("'managed_only' must be true or false; ignored",
                                                    path=file.path))
        elif key == "managed_only" and doc[key]:
            layer.managed_only = layer.managed_only or file.path
        elif key == "export":
            export, problems = parse_export(doc[key], origin=file.path, managed=True)
            layer.export = layer.export or export
            file.loaded.warnings += [ConfigError(problem, path=file.path) for problem in problems]
    on_failure = doc.get("on_failure")
    if on_failure is not None and on_failure not in ON_FAILURE:
        file.loaded.warnings.append(ConfigError(f"'on_failure' must be one of {', '.join(ON_FAILURE)}; "
                                                "'refuse' is assumed", path=file.path))


def imposed(layer: ManagedLayer | None, event: HookEvent, *, can_block: bool) -> Imposed | None:
    """forge's deny for a refused managed file: on an event that can block, when the
    file's hooks match it or the file could not be parsed."""
    if layer is None or not layer.refused or not can_block:
        return None
    for refused in layer.refused:
        if refused.hooks is None or HookRegistry(refused.hooks).get_hooks(event):
            return Imposed(MANAGED_SOURCE, f"the managed policy {refused.path} is refused ({refused.why}), so forge "
                                           "denies what its guards would judge: an administrator must fix the "
                                           "file's ownership or content (root-owned, not writable by group or "
                                           "others, valid JSON)")
    return None
