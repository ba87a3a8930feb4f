"""Project trust, the way direnv does it: a project's hooks run only after the user has
trusted exactly what they would run. Any change makes the project "changed" until it is
trusted anew (pipeline.py decides what a changed project does to a run).

What a trust record covers (DESIGN.md, "Trust"): the hooks file, every file under
``.forge/`` (no exemptions: a file that comes and goes is a file a script can source),
and every file inside the project that a hook's command names: as a word, inside quotes,
``$(...)``, backticks, ``sh -c`` strings, after ``cd DIR &&`` (:func:`shell.scripts.trust_words`),
through the project variables of every agent (``$FORGE_PROJECT_DIR``,
``$CLAUDE_PROJECT_DIR``, ``$GEMINI_PROJECT_DIR`` ... as the dialects' hook variables say)
and through the hook's own ``env`` (``${CLAUDE_PLUGIN_ROOT}``), each by its SHA-256; and
what a hook runs through a runner (issue 31, item 8): ``make``'s makefile and, for
``npm run X`` (pnpm, yarn, bun run), the text of script X of the nearest ``package.json``
(:mod:`forge_hookd.trust.packages`, keyed ``package.json#scripts.X``) and the files it names.
Records are keyed by the real path of the project root that runs the hooks, so a
``.forge`` (or a hooks file) that is a symlink out of the project is never covered by
another project's trust. What trust cannot see: a file that a covered script runs in
turn, a path a command builds at run time, anything outside the project; a word it
cannot resolve is said (:func:`unresolved`), never silently dropped.

Records live in ``${XDG_DATA_HOME:-~/.local/share}/forge/trust.json``::

    {"version": 2, "projects": {"/abs/root": {"files": {".forge/hooks.json": "<sha256>",
                                                        "scripts/guard.sh": "<sha256>"},
                                              "named": [["", "./scripts/guard.sh"],
                                                        ["", "", "guard"], ...],
                                              "reader": "shell-2"}}}

``named`` holds every word the commands could run or read as a path (and its
``working_dir``), and each package script as ``[working_dir, directory, name]``, so that
a run whose hooks file is the trusted one looks for those files without parsing a
command again. A record of another reader is read again from the commands.

A path that is not UTF-8 (Linux paths are bytes) is keyed as a NUL followed by the hex
of its bytes: no path holds a NUL, so such a key never meets a real one (:func:`path_key`).
A version 1 record (``{"trusted": {"/abs/root/.forge/hooks.json": "<sha256>"}}``) covered
the hooks file only: it reads as "changed", to be trusted again.
"""

from __future__ import annotations

import functools
import importlib
import os
import stat
import sys
from collections.abc import Callable, Iterator
from enum import Enum
from typing import Any

import orjson

from forge_hookd.errors import ConfigError
from forge_hookd.readfile import read_regular
from forge_hookd.safefile import StrPath, locked, write_atomically

OVERRIDE_VAR = "FORGE_TRUST_PROJECT"
REQUIRE_VAR = "FORGE_REQUIRE_TRUST"
STORE_VERSION = 2
#: Bounds on what a project can make a run read: the store, each covered file, their
#: number, and how deep ``.forge/`` nests (a pull can add any tree; the walk is a loop,
#: so depth costs no stack, and past these the project reads as not trustable).
MAX_STORE_BYTES = 4 * 1024 * 1024
MAX_COVERED_BYTES = 16 * 1024 * 1024
MAX_COVERED_FILES = 1000
MAX_FORGE_DEPTH = 32
#: How deep a package script that runs another (``"check": "npm run lint"``) is read.
MAX_SCRIPT_DEPTH = 3
#: How many package scripts one hook's command is followed into, all depths together.
MAX_SCRIPTS = 64
#: Which reading of commands wrote a record's candidate words: a record of another
#: reading is read again from the commands (same verdict, the parser's cost).
READER = "shell-2"  # shell-2: runners' inputs (make, npm run, env -C) and loops


class TrustState(str, Enum):
    TRUSTED = "trusted"
    UNTRUSTED = "untrusted"  # never trusted, trust withdrawn, or not trustable
    CHANGED = "changed"  # trusted once, something it covers changed since


class TrustCheck:
    """A trust state and, when it is not "trusted", why: the file that changed, the
    symlink that leaves the project, the store that cannot be read. ``trustable`` is
    False when ``forge-hook trust`` would refuse the project as it is; ``changed`` names
    the covered file that differs (relative to the project root), when one does."""

    __slots__ = ("state", "detail", "trustable", "changed")

    def __init__(self, state: TrustState, detail: str | None = None, *, trustable: bool = True,
                 changed: str | None = None) -> None:
        self.state, self.detail, self.trustable, self.changed = state, detail, trustable, changed


def trust_store_path() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "forge", "trust.json")


def digest(content: bytes) -> str:
    """The SHA-256 of ``content``, in hex."""
    return str(_sha256()(content).hexdigest())


@functools.cache  # a failed import would be searched for anew on every call
def _sha256() -> Any:
    # CPython's built-in SHA-256 (_sha2 from 3.12, _sha256 before): hashlib itself loads
    # OpenSSL, which costs 6.4 ms of every event's start-up (bench/README.md, "tricks.py").
    # Same digest. Named by version: a failed import of _sha2 first searched all of
    # sys.path on every event under 3.11.
    try:
        return importlib.import_module("_sha2" if sys.version_info >= (3, 12) else "_sha256").sha256
    except ImportError:  # pragma: no cover - a build without the built-in modules
        pass
    import hashlib  # pragma: no cover - a build without the built-in modules

    return hashlib.sha256  # pragma: no cover


def path_key(path: str) -> str:
    """``path`` as JSON can hold it: itself when it is UTF-8, else a NUL and the hex of
    its bytes (a path read with surrogateescape; no path holds a NUL, so the key never
    names another path, and orjson refuses lone surrogates)."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return "\0" + os.fsencode(path).hex()
    return path


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
    the real project root (:func:`path_key`), with its SHA-256 (the hooks file first).

    ``doc`` is ``content`` parsed (parsed here when None). Raises ConfigError when the
    project cannot be trusted as it is (a symlink out of it, a covered file that is too
    large or not readable, a ``.forge/`` too deep or too large).
    """
    real_root = os.path.realpath(project_root_of(hooks_file))
    hooks_real = _refuse_escapes(hooks_file, real_root)
    return _coverage(hooks_file, real_root, hooks_real, content, candidates(_parsed(content, doc), real_root))


def _coverage(hooks_file: StrPath, real_root: str, hooks_real: str, content: bytes,
              named: list[list[str]]) -> dict[str, str]:
    covered = {path_key(os.path.relpath(hooks_real, real_root)): digest(content)}
    forge_files = _forge_files(os.path.dirname(hooks_real), os.fspath(hooks_file))
    for path in [*forge_files, *_named_files(named, real_root)]:
        rel = path_key(os.path.relpath(path, real_root))
        if rel not in covered:
            if len(covered) >= MAX_COVERED_FILES:
                raise ConfigError(f"more than {MAX_COVERED_FILES} files to cover", path=os.fspath(hooks_file))
            covered[rel] = _file_digest(path)
    for key, sha in _package_scripts(named, real_root):
        if key not in covered and len(covered) >= MAX_COVERED_FILES:
            raise ConfigError(f"more than {MAX_COVERED_FILES} files to cover", path=os.fspath(hooks_file))
        covered.setdefault(key, sha)
    return covered


def _package_scripts(named: list[list[str]], real_root: str) -> Iterator[tuple[str, str]]:
    """The package scripts the commands run (``npm run guard``: a ``[base, directory,
    name]`` entry), each as its key and the SHA-256 of its text."""
    reader = None
    for entry in named:
        if len(entry) == 3:
            if reader is None:
                from forge_hookd.trust import packages  # only for a project whose hooks run one

                reader = packages.Reader(limit=MAX_COVERED_BYTES)
            start = os.path.normpath(os.path.join(real_root, entry[0], entry[1]))
            if _inside(start, real_root):
                key, text = reader.covered(start, entry[2], real_root)
                yield path_key(key), digest(text)


def _parsed(content: bytes, doc: Any) -> Any:
    if doc is not None:
        return doc
    try:
        return orjson.loads(content)
    except orjson.JSONDecodeError:
        return {}


def _forge_files(directory: str, where: str) -> Iterator[str]:
    """Everything under ``.forge/`` in a stable order, symlinks not followed (a symlink is
    covered by its target text; a file it names in the project is covered by itself).
    A loop over a stack, not recursion: a 1200-level chain costs no stack. More than
    MAX_FORGE_DEPTH levels or MAX_COVERED_FILES entries: ConfigError."""
    stack: list[tuple[str, int]] = [(directory, 0)]
    seen = 0
    while stack:
        current, depth = stack.pop()
        if depth > MAX_FORGE_DEPTH:
            raise ConfigError(f".forge/ nests deeper than {MAX_FORGE_DEPTH} levels ({current}): too deep "
                              "to check, so it cannot be trusted", path=where)
        try:
            entries = sorted(os.scandir(current), key=lambda e: e.name, reverse=True)
        except OSError:
            continue
        seen += len(entries)
        if seen > MAX_COVERED_FILES:
            raise ConfigError(f".forge/ holds more than {MAX_COVERED_FILES} entries: too large to check, so it "
                              "cannot be trusted", path=where)
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                stack.append((entry.path, depth + 1))
        yield from sorted(e.path for e in entries if not e.is_dir(follow_symlinks=False))


def _file_digest(path: str) -> str:
    """The SHA-256 of a covered file; a symlink by its target, anything not a regular
    file by its kind (never opened: a FIFO would block)."""
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        return "symlink:" + path_key(os.readlink(path))
    if not stat.S_ISREG(info.st_mode):
        return f"special:{stat.S_IFMT(info.st_mode):o}"
    content = read_regular(path, limit=MAX_COVERED_BYTES)
    return digest(content or b"")


@functools.cache
def _agent_variables() -> tuple[tuple[str, str], ...]:
    """Every agent's project variables, as each dialect's hooks get them: the name and
    what follows the project root in its value (``("COPILOT_HOOK_DIR",
    "/.github/hooks")``). Read from the dialects (one owner per fact), once."""
    from forge_hookd import dialects
    from forge_hookd.events import PROJECT_DIR_VAR, EventType, HookEvent

    probe, event = "/\0root", HookEvent(EventType.SESSION_START)
    found: dict[str, str] = {PROJECT_DIR_VAR: ""}
    for name in dialects.NAMES:
        for var, value in dialects.get(name).hooks.env(event, probe).items():
            if value == probe or value.startswith(probe + "/"):
                found.setdefault(var, value[len(probe):])
    return tuple(found.items())


def project_variables(root: str) -> dict[str, str]:
    """The variables that name the project root (or a place in it) in a hook's command."""
    return {name: root + rest for name, rest in _agent_variables()}


def _command_words(entry: dict[str, Any], real_root: str) -> Any:
    """:func:`scripts.trust_words` of an entry's command, its variables known: the agents'
    project variables, and the entry's own ``env`` (a plugin's ``CLAUDE_PLUGIN_ROOT``)."""
    from forge_hookd.shell import scripts  # the parser, only for a project that has commands to read

    command = entry["command"]
    variables: dict[str, str] = {}
    if "$" in command:
        variables = project_variables(real_root)
        env = entry.get("env")
        if isinstance(env, dict):
            variables.update((k, v) for k, v in env.items() if isinstance(k, str) and isinstance(v, str))
    return scripts.trust_words(command, variables=variables)


def _commands(doc: Any) -> Iterator[tuple[int, dict[str, Any]]]:
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    for index, entry in enumerate(hooks if isinstance(hooks, list) else []):
        if isinstance(entry, dict) and isinstance(entry.get("command"), str):
            yield index, entry


def candidates(doc: Any, real_root: str) -> list[list[str]]:
    """Every word the hooks' commands could run or read as a path, with the directory it
    is relative to (the entry's ``working_dir``, "" for the root), and each package
    script they run as ``[base, directory, name]``: what the check looks for in the
    project. Kept in the trust record, so that a run whose hooks file is the trusted one
    never parses a command (bench/README.md, "trust.py")."""
    found: dict[tuple[str, ...], None] = {}  # a file may hold the same command many times
    for _, entry in _commands(doc):
        for named in _entry_words(entry, real_root)[0]:
            found[named] = None
    return [list(named) for named in found]


def _entry_words(entry: dict[str, Any], real_root: str) -> tuple[list[tuple[str, ...]], list[str]]:
    """What one hook's command names (``(base, word)`` and ``(base, directory, name)``)
    and what trust cannot resolve in it; a package script's own text is read in turn
    (``"guard": "sh scripts/guard.sh"`` names scripts/guard.sh), to a bounded depth."""
    working_dir = entry.get("working_dir")
    base = working_dir if isinstance(working_dir, str) else ""
    words = _command_words(entry, real_root)
    named: list[tuple[str, ...]] = [(base, word) for word in words.paths]
    unseen = list(words.unresolved)
    todo = [(base, directory, name, 1) for directory, name in words.scripts]
    seen: set[tuple[str, str]] = set()
    from forge_hookd.trust import packages  # the parser is loaded already: this costs nothing more

    reader = packages.Reader(limit=MAX_COVERED_BYTES)
    while todo:
        base, directory, name, depth = todo.pop(0)
        start = os.path.normpath(os.path.join(real_root, base, directory))
        if (start, name) in seen:
            continue
        if len(seen) >= MAX_SCRIPTS:
            unseen.append(f"script {name} (more than {MAX_SCRIPTS} package scripts: the rest are not read)")
            break
        seen.add((start, name))
        named.append((base, directory, name))
        if depth > MAX_SCRIPT_DEPTH or not _inside(start, real_root):
            continue
        path = packages.nearest(start, real_root)
        if path is None:  # the runner looks above the project, where trust does not reach
            unseen.append(f"script {name} (no package.json in the project: one outside it is not covered)")
        texts = reader.scripts(path, name) if path is not None else None
        inner = os.path.relpath(os.path.dirname(path), real_root) if path is not None else ""
        for text in texts or ():
            if text is not None:
                found = _command_words({**entry, "command": text}, real_root)
                named += [(inner, word) for word in found.paths]
                where = os.path.relpath(str(path), real_root)
                unseen += [f"{word} (in {name} of {where})" for word in found.unresolved]
                todo += [(inner, d, n, depth + 1) for d, n in found.scripts]
    return named, unseen


def _named_files(named: list[list[str]], real_root: str) -> Iterator[str]:
    """The regular files inside the project that the candidate words name, resolved."""
    for base, word in (entry for entry in named if len(entry) == 2):
        path = _project_file(word, os.path.join(real_root, base), real_root)
        if path is not None:
            yield path


def unresolved(doc: Any, root: StrPath) -> list[tuple[int, str]]:
    """What the hooks' commands name that trust cannot resolve (an unknown variable, a
    glob, ``python -m pkg``): each hook's index and the word, so that trust never claims
    more than it sees (``forge-hook trust`` says them, ``forge-hook check`` reports them)."""
    real_root = os.path.realpath(root)
    return [(index, word) for index, entry in _commands(doc) for word in _entry_words(entry, real_root)[1]]


def _project_file(word: str, base: str, real_root: str) -> str | None:
    if not word or "\0" in word or len(word) > 4096:
        return None
    try:  # one stat first: most words (echo, -la) name nothing, and realpath costs more
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


#: The store as the last check read it, by its file's identity: a run looks twice (the
#: search for the project root, then the check), and read and parsed it twice.
_last_read: tuple[str, tuple[int, int, int, int], dict[str, Any]] | None = None


def _store_to_check(store: str) -> dict[str, Any]:
    """:func:`_load_store` for a look that changes nothing: read again only when the file
    changed (its inode, size, modification or change time), else the last look's."""
    global _last_read
    try:
        st = os.stat(store)
    except OSError:
        return _load_store(store)  # none (an empty store), or an error it says
    identity = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if _last_read is not None and _last_read[:2] == (store, identity):
        return _last_read[2]
    doc = _load_store(store)
    _last_read = (store, identity, doc)
    return doc


def _record(doc: dict[str, Any], real_root: str) -> dict[str, Any] | None:
    record = doc.get("projects", {}).get(path_key(real_root))
    return record if isinstance(record, dict) else None


def _recorded(doc: dict[str, Any], real_root: str) -> dict[str, str] | None:
    record = _record(doc, real_root)
    files = record.get("files") if record is not None else None
    return {k: v for k, v in files.items() if isinstance(v, str)} if isinstance(files, dict) else None


def _recorded_candidates(record: dict[str, Any] | None) -> list[list[str]] | None:
    """The candidate words a record holds, when this forge's reader wrote them."""
    named = record.get("named") if record is not None and record.get("reader") == READER else None
    if not isinstance(named, list) or not all(isinstance(n, list) and len(n) in (2, 3) and
                                              all(isinstance(p, str) for p in n) for n in named):
        return None
    return named


def has_record(root: StrPath) -> bool:
    """Whether the user trusted the project at ``root`` once (whatever it holds now): a
    cheap look at the store for the search of the project root. False when the store
    cannot be read."""
    try:
        return _recorded(_store_to_check(trust_store_path()), os.path.realpath(root)) is not None
    except ConfigError:
        return False


def shown(rel: str) -> str:
    """A covered path as people read it (a NUL key as the path with escapes)."""
    if rel.startswith("\0"):
        return bytes.fromhex(rel[1:]).decode("utf-8", "backslashreplace")
    return rel


def _difference(recorded: dict[str, str], current: dict[str, str]) -> tuple[str, str] | None:
    """The first covered file that differs, and what happened to it, or None."""
    for rel, sha in recorded.items():
        if rel not in current:
            return rel, "is gone"
        if current[rel] != sha:
            return rel, "changed"
    new = next((rel for rel in current if rel not in recorded), None)
    return None if new is None else (new, "is new")


def check(hooks_file: StrPath, content: bytes, doc: Any = None) -> TrustCheck:
    """Whether ``content``, read from ``hooks_file``, and everything its hooks run in the
    project are what the user trusted. Never raises: a store that cannot be read makes
    the project untrusted, a trusted project that can no longer be checked (too deep,
    too large) changed, each with the reason in ``detail``."""
    real_root = os.path.realpath(project_root_of(hooks_file))
    try:
        store = _store_to_check(trust_store_path())
    except ConfigError as exc:
        return TrustCheck(TrustState.UNTRUSTED, str(exc), trustable=False)
    recorded = _recorded(store, real_root)
    try:
        hooks_real = _refuse_escapes(hooks_file, real_root)
    except ConfigError as exc:  # a pull that links .forge out of a trusted project changed it
        state = TrustState.UNTRUSTED if recorded is None else TrustState.CHANGED
        return TrustCheck(state, str(exc), trustable=False, changed=None if recorded is None else ".forge/")
    if recorded is None:
        if path_key(hooks_real) in store.get("trusted", {}):
            return TrustCheck(TrustState.CHANGED, "it was trusted by an older forge-hook, whose trust covered "
                                               "the hooks file only", changed=".forge/hooks.json")
        return TrustCheck(TrustState.UNTRUSTED)
    hooks_rel = path_key(os.path.relpath(hooks_real, real_root))
    if recorded.get(hooks_rel) != digest(content):  # the commands changed: nothing else to read
        what = "is new" if hooks_rel not in recorded else "changed"
        return TrustCheck(TrustState.CHANGED, f"{shown(hooks_rel)} {what} since the project was trusted",
                          changed=shown(hooks_rel))
    # The trusted hooks file: its commands name what they named then (the record's words,
    # when this forge wrote them; else they are read again).
    named = _recorded_candidates(_record(store, real_root))
    try:
        if named is None:
            named = candidates(_parsed(content, doc), real_root)
        current = _coverage(hooks_file, real_root, hooks_real, content, named)
    except (ConfigError, OSError) as exc:
        # Trusted once: what the user chose must not switch off because a pull made it
        # uncheckable. It is "changed" (a blocking event denies), and not trustable.
        return TrustCheck(TrustState.CHANGED, str(exc), trustable=False, changed=".forge/")
    difference = _difference(recorded, current)
    if difference is None:
        return TrustCheck(TrustState.TRUSTED)
    rel, what = difference
    return TrustCheck(TrustState.CHANGED, f"{shown(rel)} {what} since the project was trusted", changed=shown(rel))


def not_run_warning(path: str, root: str, check: TrustCheck) -> str:
    """What to say when the project's hooks at ``path`` did not run for lack of trust."""
    if not check.trustable and check.state is not TrustState.CHANGED:
        return f"project hooks in {path} did not run: {check.detail}"
    why = check.detail or ("it changed since it was trusted" if check.state is TrustState.CHANGED
                           else "the project is not trusted")
    return f"project hooks in {path} did not run: {why}; review it, then run: forge-hook trust {root}"


def _v1_key(hooks_file: StrPath) -> str:
    return path_key(os.path.realpath(hooks_file))


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
    named = candidates(_parsed(content, doc), real_root)
    covered = _coverage(hooks_file, real_root, _refuse_escapes(hooks_file, real_root), content, named)

    def record(store: dict[str, Any]) -> None:
        store["projects"][path_key(real_root)] = {"files": covered, "named": named, "reader": READER}
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
        found.append(store["projects"].pop(path_key(real_root), None) is not None or v1 is not None)

    _update(forget)
    return found[0]
