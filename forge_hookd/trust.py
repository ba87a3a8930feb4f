"""Project trust, the way direnv does it: a project's hooks file runs only after the
user has trusted that exact content. Any change makes it untrusted until trusted anew.

Records live in ``${XDG_DATA_HOME:-~/.local/share}/forge/trust.json`` as
``{"version": 1, "trusted": {"/abs/path/.forge/hooks.json": "<sha256>"}}``.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from enum import Enum
from typing import Any

import orjson

from .errors import ConfigError
from .safefile import StrPath, locked, write_atomically

OVERRIDE_VAR = "FORGE_TRUST_PROJECT"


class TrustState(str, Enum):
    TRUSTED = "trusted"
    UNTRUSTED = "untrusted"  # never trusted, or trust withdrawn
    CHANGED = "changed"  # trusted once, edited since


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


def _sha256() -> Any:
    # CPython's built-in SHA-256 (_sha2 from 3.12, _sha256 before): hashlib itself loads
    # OpenSSL, which costs ~3 ms of every event's start-up (issue 5). Same digest.
    for name in ("_sha2", "_sha256"):
        try:
            return importlib.import_module(name).sha256
        except ImportError:
            continue
    import hashlib  # pragma: no cover - a build without the built-in modules

    return hashlib.sha256  # pragma: no cover


def _key(path: StrPath) -> str:
    return os.path.realpath(path)


def _load_store(store: str) -> Any:
    """The parsed trust store, {} when there is none. Raises ConfigError when it cannot
    be read: a store we cannot read is never overwritten."""
    try:
        with open(store, "rb") as fh:
            return orjson.loads(fh.read())
    except FileNotFoundError:
        return {}
    except (OSError, orjson.JSONDecodeError) as exc:
        raise ConfigError(f"cannot read the trust records: {exc}", path=store) from None


def _records() -> dict[str, str]:
    doc = _load_store(trust_store_path())
    trusted = doc.get("trusted") if isinstance(doc, dict) else None
    return {k: v for k, v in trusted.items() if isinstance(v, str)} if isinstance(trusted, dict) else {}


def state(path: StrPath, content: bytes) -> TrustState:
    """Whether ``content``, read from ``path``, is what the user trusted there."""
    recorded = _records().get(_key(path))
    if recorded is None:
        return TrustState.UNTRUSTED
    return TrustState.TRUSTED if recorded == digest(content) else TrustState.CHANGED


def is_trusted(path: StrPath, content: bytes) -> bool:
    return state(path, content) is TrustState.TRUSTED


def _update(change: Callable[[dict[str, str]], object]) -> None:
    store = trust_store_path()
    with locked(store):
        doc = _load_store(store)
        if not isinstance(doc, dict) or not isinstance(doc.get("trusted", {}), dict):
            raise ConfigError("the trust records are not in the expected shape", path=store)
        doc.setdefault("version", 1)
        trusted = doc.setdefault("trusted", {})
        change(trusted)
        write_atomically(store, orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")


def trust(path: StrPath, content: bytes) -> None:
    """Record ``content`` as the trusted content of ``path``."""
    _update(lambda trusted: trusted.__setitem__(_key(path), digest(content)))


def untrust(path: StrPath) -> bool:
    """Forget ``path``; True if it had a record. Without a store there is nothing to
    forget: none is created."""
    if not os.path.exists(trust_store_path()):
        return False
    found: list[bool] = []
    _update(lambda trusted: found.append(trusted.pop(_key(path), None) is not None))
    return found[0]
