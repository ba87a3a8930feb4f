"""Project trust, the way direnv does it: a project's hooks file runs only after the
user has trusted that exact content. Any change makes it untrusted until trusted anew.

Records live in ``${XDG_DATA_HOME:-~/.local/share}/forge/trust.json`` as
``{"version": 1, "trusted": {"/abs/path/.forge/hooks.json": "<sha256>"}}``.
"""

from __future__ import annotations

import hashlib
import os
from enum import Enum
from pathlib import Path
from typing import Any

import orjson

from .errors import ConfigError
from .safefile import locked, write_atomically

OVERRIDE_VAR = "FORGE_TRUST_PROJECT"


class TrustState(str, Enum):
    TRUSTED = "trusted"
    UNTRUSTED = "untrusted"  # never trusted, or trust withdrawn
    CHANGED = "changed"  # trusted once, edited since


def trust_store_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "forge" / "trust.json"


def override_from_env() -> bool:
    """``FORGE_TRUST_PROJECT=1``: trust every project file (for CI and headless agents)."""
    return os.environ.get(OVERRIDE_VAR) == "1"


def digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def _key(path: Path) -> str:
    return str(Path(path).resolve())


def _records() -> dict[str, str]:
    store = trust_store_path()
    try:
        doc = orjson.loads(store.read_bytes())
    except FileNotFoundError:
        return {}
    except (OSError, orjson.JSONDecodeError) as exc:
        raise ConfigError(f"cannot read the trust records: {exc}", path=str(store)) from None
    trusted = doc.get("trusted") if isinstance(doc, dict) else None
    return {k: v for k, v in trusted.items() if isinstance(v, str)} if isinstance(trusted, dict) else {}


def state(path: Path, content: bytes) -> TrustState:
    """Whether ``content``, read from ``path``, is what the user trusted there."""
    recorded = _records().get(_key(path))
    if recorded is None:
        return TrustState.UNTRUSTED
    return TrustState.TRUSTED if recorded == digest(content) else TrustState.CHANGED


def is_trusted(path: Path, content: bytes) -> bool:
    return state(path, content) is TrustState.TRUSTED


def _update(change: Any) -> None:
    store = trust_store_path()
    with locked(store):
        try:
            doc = orjson.loads(store.read_bytes())
        except FileNotFoundError:
            doc = {}
        except (OSError, orjson.JSONDecodeError) as exc:  # never overwrite what we cannot read
            raise ConfigError(f"cannot read the trust records: {exc}", path=str(store)) from None
        if not isinstance(doc, dict) or not isinstance(doc.get("trusted", {}), dict):
            raise ConfigError("the trust records are not in the expected shape", path=str(store))
        doc.setdefault("version", 1)
        trusted = doc.setdefault("trusted", {})
        change(trusted)
        write_atomically(store, orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")


def trust(path: Path, content: bytes) -> None:
    """Record ``content`` as the trusted content of ``path``."""
    _update(lambda trusted: trusted.__setitem__(_key(path), digest(content)))


def untrust(path: Path) -> bool:
    """Forget ``path``; True if it had a record."""
    found: list[bool] = []
    _update(lambda trusted: found.append(trusted.pop(_key(path), None) is not None))
    return found[0]
