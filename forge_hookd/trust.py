"""Project trust, the way direnv does it: a project's hooks run only after the user has
trusted exactly what they would run. Any change makes the project untrusted until it is
trusted anew.

What a trust record covers (DESIGN.md, "Trust"): the hooks file, every file under
``.forge/``, and every file inside the project that a hook's command names as a word
(``./scripts/guard.sh``, ``python3 tools/check.py``), each by its SHA-256. Records are
keyed by the real path of the project root that runs the hooks, so a ``.forge`` (or a
hooks file) that is a symlink out of the project is never covered by another project's
trust. What trust cannot see: a file that a covered script runs in turn, a path a
command builds at run time (``$DIR/x.sh``), anything outside the project.

Records live in ``${XDG_DATA_HOME:-~/.local/share}/forge/trust.json``::

    {"version": 2, "projects": {"/abs/root": {"files": {".forge/hooks.json": "<sha256>",
                                                        "scripts/guard.sh": "<sha256>"}}}}

A version 1 record (``{"trusted": {"/abs/root/.forge/hooks.json": "<sha256>"}}``) covered
the hooks file only: it reads as "changed", to be trusted again.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import stat
from collections.abc import Callable, Iterator
from enum import Enum
from typing import Any

import orjson

from .errors import ConfigError
from .readfile import read_regular
from .safefile import StrPath, locked, write_atomically

OVERRIDE_VAR = "FORGE_TRUST_PROJECT"
STORE_VERSION = 2
#: Bounds on what a project can make a run read: the store, each covered file, their number.
MAX_STORE_BYTES = 4 * 1024 * 1024
MAX_COVERED_BYTES = 16 * 1024 * 1024
MAX_COVERED_FILES = 1000


class TrustState(str, Enum):
    TRUSTED = "trusted"
    UNTRUSTED = "untrusted"  # never trusted, trust withdrawn, or not trustable
    CHANGED = "changed"  # trusted once, something it covers changed since


class TrustCheck:
    """A trust state and, when it is not "trusted", why: the file that changed, the
    symlink that leaves the project, the store that cannot be read. ``trustable`` is
    False when ``forge-hook trust`` would refuse the project as it is."""

    __slots__ = ("state", "detail", "trustable")

    def __init__(self, state: TrustState, detail: str | None = None, *, trustable: bool = True) -> None:
        self.state, self.detail, self.trustable = state, detail, trustable


def trust_store_path() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "forge", "trust.json")


# The words people use for yes and no in environment variables, in any case.
_YES = frozenset({"1", "true", "yes", "on"})
_NO = frozenset({"", "0", "false", "no", "off"})


def override_from_env() -> bool:
    """``FORGE_TRUST_PROJECT=1`` (or true, yes, on, any case): trust every project file
    (for CI and headless agents)."""
    return os.environ.get(OVERRIDE_VAR, "").strip().lower() in _YES


def override_warning() -> str | None:
    """What to tell the user when ``FORGE_TRUST_PROJECT`` is neither a yes nor a no word:
    a typo must not pass unnoticed, in either direction."""
    value = os.environ.get(OVERRIDE_VAR, "")
    if value.strip().lower() in _YES | _NO:
        return None
    return (f"{OVERRIDE_VAR}={value!r} is not understood, so it trusts nothing: "
            "use 1, true, yes or on (or 0, false, no, off)")


def digest(content: bytes) -> str:
    """The SHA-256 of ``content``, in hex."""
    return str(_sha256()(content).hexdigest())


@functools.cache  # a failed import would be searched for anew on every call
def _sha256() -> Any:
    # CPython's built-in SHA-256 (_sha2 from 3.12, _sha256 before): hashlib itself loads
    # OpenSSL, which costs 6.4 ms of every event's start-up (bench/README.md, "tricks.py").
    # Same digest.
    for name in ("_sha2", "_sha256"):
        try:
            return importlib.import_module(name).sha256
        except ImportError:
            continue
    import hashlib  # pragma: no cover - a build without the built-in modules

    return hashlib.sha256  # pragma: no cover


# -- what a record covers --------------------------------------------------------------
def project_root_of(hooks_file: StrPath) -> str:
    """``<root>/.forge/hooks.json`` -> ``<root>`` (absolute, symlinks not resolved)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(hooks_file)))


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _refuse_escapes(hooks_file: StrPath, real_root: str) -> str:
    """The real path of ``hooks_file``. A ``.forge`` or hooks file that resolves outside
    the project is not this project's to trust: ConfigError."""
    forge_dir = os.path.dirname(os.path.abspath(hooks_file))
    real = ""
    for path in (forge_dir, os.path.abspath(hooks_file)):
        real = os.path.realpath(path)
        if not _inside(real, real_root):
            raise ConfigError(f"{path} is a symlink to {real}, outside the project root {real_root}; "
                              "trust belongs to the project that runs the hooks", path=os.fspath(hooks_file))
    return real


def coverage(hooks_file: StrPath, content: bytes, doc: Any = None) -> dict[str, str]:
    """What trusting ``content`` at ``hooks_file`` covers: each file's path relative to
    the real project root, with its SHA-256 (the hooks file first).

    ``doc`` is ``content`` parsed (parsed here when None). Raises ConfigError when the
    project cannot be trusted as it is (a symlink out of it, a covered file that is too
    large or not readable).
    """
    real_root = os.path.realpath(project_root_of(hooks_file))
    return _coverage(hooks_file, real_root, _refuse_escapes(hooks_file, real_root), content, doc)


def _coverage(hooks_file: StrPath, real_root: str, hooks_real: str, content: bytes, doc: Any) -> dict[str, str]:
    covered = {os.path.relpath(hooks_real, real_root): digest(content)}
    forge_files = _forge_files(os.path.dirname(hooks_real), _own_files(hooks_real))
    for path in [*forge_files, *_named_files(_parsed(content, doc), real_root)]:
        rel = os.path.relpath(path, real_root)
        if rel not in covered:
            if len(covered) >= MAX_COVERED_FILES:
                raise ConfigError(f"more than {MAX_COVERED_FILES} files to cover", path=os.fspath(hooks_file))
            covered[rel] = _file_digest(path)
    return covered


def _parsed(content: bytes, doc: Any) -> Any:
    if doc is not None:
        return doc
    try:
        return orjson.loads(content)
    except orjson.JSONDecodeError:
        return {}


def _own_files(hooks_real: str) -> Callable[[str], bool]:
    """Whether a path is the lock or a temporary file of a forge-hook edit in progress
    (see :mod:`forge_hookd.safefile`): they come and go, and nothing runs them."""
    directory, name = os.path.split(hooks_real)
    lock = os.path.join(directory, name + ".lock")

    def own(path: str) -> bool:
        base = os.path.basename(path)
        return path == lock or (os.path.dirname(path) == directory and base.startswith(f".{name}.")
                                and base.endswith(".tmp"))

    return own


def _forge_files(directory: str, skip: Callable[[str], bool]) -> Iterator[str]:
    """Everything under ``.forge/``, depth first, symlinks not followed (a symlink is
    covered by its target text; a file it names in the project is covered by itself)."""
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            yield from _forge_files(entry.path, skip)
        elif not skip(entry.path):
            yield entry.path


def _file_digest(path: str) -> str:
    """The SHA-256 of a covered file; a symlink by its target, anything not a regular
    file by its kind (never opened: a FIFO would block)."""
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        return "symlink:" + os.readlink(path)
    if not stat.S_ISREG(info.st_mode):
        return f"special:{stat.S_IFMT(info.st_mode):o}"
    content = read_regular(path, limit=MAX_COVERED_BYTES)
    return digest(content or b"")


_ROOT_VARS = ("$FORGE_PROJECT_DIR", "${FORGE_PROJECT_DIR}")


_PLAIN_WORDS = re.compile(r"[^\s();<>|&]+")


def command_words(command: str) -> list[str]:
    """The words of a shell command as the shell would split them (operators such as
    ``&&`` and ``;`` apart), or on whitespace when it does not parse."""
    if not any(c in command for c in "'\"\\"):
        # Without quotes or escapes shlex would split here too; a regex is ~20x faster.
        return _PLAIN_WORDS.findall(command)
    import shlex

    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:  # an unbalanced quote: the shell will refuse it anyway
        return command.split()


def _named_files(doc: Any, real_root: str) -> Iterator[str]:
    """The regular files inside the project that a hook's command names as a word
    (``./x.sh``, ``tools/check.py``, ``--config=ci/x.json``), resolved."""
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    seen: set[tuple[str, str]] = set()  # a file may hold the same command many times
    for entry in hooks if isinstance(hooks, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
            continue
        working_dir = entry.get("working_dir")
        base = os.path.join(real_root, working_dir) if isinstance(working_dir, str) else real_root
        for word in command_words(entry["command"]):
            for candidate in (word, word.partition("=")[2]):
                if (candidate, base) in seen:
                    continue
                seen.add((candidate, base))
                path = _project_file(candidate, base, real_root)
                if path is not None:
                    yield path


def _project_file(word: str, base: str, real_root: str) -> str | None:
    if not word or "\0" in word or len(word) > 4096:
        return None
    for var in _ROOT_VARS:
        if word.startswith(var + "/"):
            word = real_root + word[len(var):]
    try:  # one stat first: most words (echo, -la, $HOME) name nothing, and realpath costs more
        if not stat.S_ISREG(os.stat(os.path.join(base, word)).st_mode):
            return None
    except (OSError, ValueError):
        return None
    real = os.path.realpath(os.path.join(base, word))
    return real if _inside(real, real_root) and real != real_root else None


# -- the store --------------------------------------------------------------------------
def _load_store(store: str) -> dict[str, Any]:
    """The parsed trust store, {} when there is none (or it is empty). Raises ConfigError
    when it cannot be read: a store we cannot read is never overwritten."""
    try:
        raw = read_regular(store, limit=MAX_STORE_BYTES)
        doc = orjson.loads(raw) if raw is not None and raw.strip() else {}
    except ConfigError as exc:
        raise ConfigError(f"cannot read the trust records: {exc.message}", path=store) from None
    except orjson.JSONDecodeError as exc:
        raise ConfigError(f"cannot read the trust records: {exc}", path=store) from None
    if not isinstance(doc, dict) or not all(isinstance(doc.get(k, {}), dict) for k in ("projects", "trusted")):
        raise ConfigError("the trust records are not in the expected shape", path=store)
    return doc


def _recorded(doc: dict[str, Any], real_root: str) -> dict[str, str] | None:
    record = doc.get("projects", {}).get(real_root)
    files = record.get("files") if isinstance(record, dict) else None
    return {k: v for k, v in files.items() if isinstance(v, str)} if isinstance(files, dict) else None


def _difference(recorded: dict[str, str], current: dict[str, str]) -> str | None:
    """The first covered file that differs, in words, or None."""
    for rel, sha in recorded.items():
        if rel not in current:
            return f"{rel} is gone since the project was trusted"
        if current[rel] != sha:
            return f"{rel} changed since the project was trusted"
    new = next((rel for rel in current if rel not in recorded), None)
    return None if new is None else f"{new} is new since the project was trusted"


def check(hooks_file: StrPath, content: bytes, doc: Any = None) -> TrustCheck:
    """Whether ``content``, read from ``hooks_file``, and everything its hooks run in the
    project are what the user trusted. Never raises: a store that cannot be read makes
    the project untrusted, with the reason in ``detail``."""
    real_root = os.path.realpath(project_root_of(hooks_file))
    try:
        hooks_real = _refuse_escapes(hooks_file, real_root)
        store = _load_store(trust_store_path())
    except ConfigError as exc:
        return TrustCheck(TrustState.UNTRUSTED, str(exc), trustable=False)
    recorded = _recorded(store, real_root)
    if recorded is None:
        if hooks_real in store.get("trusted", {}):
            return TrustCheck(TrustState.CHANGED, "it was trusted by an older forge-hook, whose trust covered "
                                               "the hooks file only")
        return TrustCheck(TrustState.UNTRUSTED)
    try:
        current = _coverage(hooks_file, real_root, hooks_real, content, doc)
    except (ConfigError, OSError) as exc:
        return TrustCheck(TrustState.UNTRUSTED, str(exc), trustable=False)
    difference = _difference(recorded, current)
    return TrustCheck(TrustState.TRUSTED) if difference is None else TrustCheck(TrustState.CHANGED, difference)


def _v1_key(hooks_file: StrPath) -> str:
    return os.path.realpath(hooks_file)


def state(hooks_file: StrPath, content: bytes, doc: Any = None) -> TrustState:
    return check(hooks_file, content, doc).state


def is_trusted(hooks_file: StrPath, content: bytes, doc: Any = None) -> bool:
    return state(hooks_file, content, doc) is TrustState.TRUSTED


def _update(change: Callable[[dict[str, Any]], object]) -> None:
    store = trust_store_path()
    with locked(store):
        doc = _load_store(store)
        doc["version"] = STORE_VERSION
        doc.setdefault("projects", {})
        change(doc)
        write_atomically(store, orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")


def trust(hooks_file: StrPath, content: bytes, doc: Any = None) -> dict[str, str]:
    """Trust ``content`` at ``hooks_file`` and what its hooks run; what it covers.
    Raises ConfigError when the project cannot be trusted as it is."""
    real_root = os.path.realpath(project_root_of(hooks_file))
    covered = coverage(hooks_file, content, doc)

    def record(store: dict[str, Any]) -> None:
        store["projects"][real_root] = {"files": covered}
        store.get("trusted", {}).pop(_v1_key(hooks_file), None)

    _update(record)
    return covered


def untrust(hooks_file: StrPath) -> bool:
    """Forget the project of ``hooks_file``; True if it had a record. Without
    a store there is nothing to forget: none is created."""
    if not os.path.exists(trust_store_path()):
        return False
    real_root = os.path.realpath(project_root_of(hooks_file))
    found: list[bool] = []

    def forget(store: dict[str, Any]) -> None:
        v1 = store.get("trusted", {}).pop(_v1_key(hooks_file), None)
        found.append(store["projects"].pop(real_root, None) is not None or v1 is not None)

    _update(forget)
    return found[0]
