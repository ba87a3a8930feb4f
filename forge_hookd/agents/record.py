"""What ``forge-hook install`` wrote into each agent file, so that ``--uninstall``
takes out exactly that.

One JSON file, ``${XDG_STATE_HOME:-~/.local/state}/forge/installs.json``: ``files``,
keyed by the real path of each file install changed, and ``named``, every agent an
install was asked for (and its scope; the project root for ``--project``), so that
``doctor`` can say when such an agent has forge in none of its settings. A record holds the exact insertions of each
install (so that a file nobody touched since goes back byte for byte) and, for a file
someone edited in between, what to look for instead: the entries and keys install
added, by value. No copy of the user's file is kept: settings files hold API keys and
tokens, and a second copy of them is one more place for a secret to leak from; the
hashes say whether the bytes are still the ones install wrote or started from.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import orjson

from forge_hookd.errors import ConfigError
from forge_hookd.readfile import read_regular
from forge_hookd.safefile import locked, write_atomically
from forge_hookd.statedir import state_path

STORE_VERSION = 1
#: A path inside a JSON document: object keys (what install adds lives under them).
JsonPath = list[str]


def store_path() -> str:
    return state_path("installs.json")


def digest(content: bytes) -> str:
    return "sha256:" + hashlib.sha256(content).hexdigest()


@dataclass
class FileRecord:
    """What install did to one file. ``rounds`` is None once the file changed between
    two installs (its insertions no longer say where they are)."""

    agent: str
    scope: str
    path: str  # as the user knows it (a symlink's own path); the store's key is the real one
    kind: str = "json"  # or "toml" (Codex's config.toml: trust for forge's hooks), "requirements" (codex_requirements.py)
    created: bool = False
    dirs: list[str] = field(default_factory=list)  # directories install made, outermost first
    before: str | None = None  # the digest of the bytes the first install started from
    after: str = ""  # the digest of the bytes the last install wrote
    rounds: list[list[list[Any]]] | None = field(default_factory=list)  # [[offset, text], ...] per install
    elements: list[list[Any]] = field(default_factory=list)  # [path, value]: entries appended to a list
    keys: list[list[Any]] = field(default_factory=list)  # [path, value]: members install added
    blocks: list[str] = field(default_factory=list)  # toml, requirements: the text install appended, per block

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FileRecord:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Named:
    """An agent ``forge-hook install`` was asked to wire: ``scope`` global or project,
    ``root`` the project root for a project install (empty for global)."""

    agent: str
    scope: str
    root: str = ""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Named:
        return cls(str(data.get("agent", "")), str(data.get("scope", "")), str(data.get("root", "")))

    def applies_to(self, project_root: str) -> bool:
        """Whether this install is one that should guard the agent in ``project_root``."""
        return self.scope == "global" or os.path.realpath(self.root) == os.path.realpath(project_root)


@dataclass
class Wiring:
    """What install or uninstall did to one file. ``action``: created, updated,
    unchanged (install); restored, removed, cleaned, nothing (uninstall)."""

    agent: str
    path: str
    action: str
    events: list[str] = field(default_factory=list)  # native events wired (or unwired) now
    kept: list[str] = field(default_factory=list)  # events forge-hook-run already ran on
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def load() -> dict[str, FileRecord]:
    """Every record, by real path; {} when install never wrote anything. A store that
    cannot be read is a ConfigError (it is never overwritten)."""
    return _read()[0]


def named() -> list[Named]:
    """Every agent an install named and no uninstall took back, in the order named."""
    return _read()[1]


def _read() -> tuple[dict[str, FileRecord], list[Named]]:
    path = store_path()
    try:
        raw = read_regular(path)
        doc = orjson.loads(raw) if raw and raw.strip() else {}
    except orjson.JSONDecodeError as exc:
        raise ConfigError(f"cannot read forge's install records: {exc}", path=path) from None
    files = doc.get("files", {}) if isinstance(doc, dict) else None
    if not isinstance(files, dict) or not all(isinstance(v, dict) for v in files.values()):
        raise ConfigError("forge's install records are not in the expected shape", path=path)
    listed = doc.get("named", [])
    if not isinstance(listed, list) or not all(isinstance(n, dict) for n in listed):
        raise ConfigError("forge's install records are not in the expected shape", path=path)
    return ({key: FileRecord.from_json(value) for key, value in files.items()},
            [Named.from_json(n) for n in listed])


def update(change: Callable[[dict[str, FileRecord]], object]) -> None:
    """Read-modify-write the records under their lock."""
    _update(lambda files, _named: change(files))


def update_named(change: Callable[[list[Named]], object]) -> None:
    """Read-modify-write the agents named, under the records' lock."""
    _update(lambda _files, listed: change(listed))


def _update(change: Callable[[dict[str, FileRecord], list[Named]], object]) -> None:
    path = store_path()
    with locked(path):
        records, listed = _read()
        change(records, listed)
        doc: dict[str, Any] = {"version": STORE_VERSION,
                               "files": {k: r.to_json() for k, r in sorted(records.items())}}
        if listed:
            doc["named"] = [asdict(n) for n in listed]
        write_atomically(path, orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")


def key_of(path: str) -> str:
    return os.path.realpath(path)


def missing_directories(directory: str) -> list[str]:
    """The directories that do not exist yet on the way to ``directory``, outermost first."""
    missing = []
    while not os.path.exists(directory):
        missing.append(directory)
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return missing[::-1]


def remove_directories(dirs: list[str]) -> None:
    """The directories install made, innermost first, as long as they are empty."""
    for directory in reversed(dirs):
        try:
            os.rmdir(directory)
        except OSError:
            return  # not empty (something else lives there now), or gone
