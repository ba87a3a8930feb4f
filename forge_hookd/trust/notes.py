"""Which sessions were told that their project's hooks are not trusted (DESIGN.md,
"Trust": the person is told on the first event that can block in each session).

A small JSON file, ``${XDG_STATE_HOME:-~/.local/state}/forge/trust-told.json``:
``{"version": 1, "told": {KEY: unix time}}``, KEY a hash of the dialect, session, project
root and trust state (so a session is told again when the state changes). Bounded: at
most MAX_ENTRIES, none older than MAX_AGE (cleaned on every write). Memory, not a
guarantee: a file that cannot be read or written means the person is told again, which
is the safe way to be wrong; two runs of one session at the same instant may both tell.
"""

from __future__ import annotations

import os
import time

import orjson

from forge_hookd.errors import ConfigError
from forge_hookd.readfile import read_regular
from forge_hookd.safefile import write_atomically  # loaded by every run's pipeline already
from forge_hookd.trust.store import digest
from forge_hookd.statedir import state_path

MAX_ENTRIES = 256
MAX_AGE = 7 * 24 * 3600.0
_LIMIT = 64 * 1024


def notes_path() -> str:
    return state_path("trust-told.json")


def first_time(dialect: str, session: str | None, root: str, state: str) -> bool:
    """True the first time this is asked for a session (and root and state), and for an
    event without a session (nothing to remember it by); remembers the answer."""
    if not session:
        return True
    key = digest(os.fsencode("\0".join((dialect, session, root, state))))[:32]
    path = notes_path()
    told = _read(path)
    if key in told:
        return False
    now = time.time()
    told[key] = now
    _write(path, _bounded(told, now))
    return True


def _read(path: str) -> dict[str, float]:
    try:
        doc = orjson.loads(read_regular(path, limit=_LIMIT) or b"{}")
    except (orjson.JSONDecodeError, ConfigError):
        return {}
    told = doc.get("told") if isinstance(doc, dict) else None
    if not isinstance(told, dict):
        return {}
    return {k: float(v) for k, v in told.items() if isinstance(v, (int, float))}


def _bounded(told: dict[str, float], now: float) -> dict[str, float]:
    """The newest MAX_ENTRIES of those younger than MAX_AGE."""
    fresh = sorted(((t, k) for k, t in told.items() if now - t < MAX_AGE), reverse=True)[:MAX_ENTRIES]
    return {k: t for t, k in fresh}


def _write(path: str, told: dict[str, float]) -> None:
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        write_atomically(path, orjson.dumps({"version": 1, "told": told}))
    except OSError:
        pass  # forgotten: the person is told again next time
