"""The package scripts trust covers (issue 31, item 8): a hook that runs ``npm run guard``
(``pnpm``, ``yarn``, ``bun run``: :mod:`forge_hookd.shell.runners`) runs the ``guard``
script of the ``package.json`` the runner finds, the nearest one going up from where it
starts. Trust covers that script's text (and its ``pre``/``post`` scripts, which npm runs
around it), not the whole file: adding a dependency does not make the project changed,
editing the script does. The covered entry reads ``package.json#scripts.guard``.
"""

from __future__ import annotations

import os
from typing import Any

import orjson

from forge_hookd.errors import ConfigError
from forge_hookd.readfile import read_regular

PACKAGE = "package.json"


def nearest(start: str, real_root: str) -> str | None:
    """The ``package.json`` a runner that starts in ``start`` reads: the nearest one,
    going up no further than the project root; None when there is none in the project."""
    current = os.path.normpath(start)
    while current == real_root or current.startswith(real_root.rstrip(os.sep) + os.sep):
        candidate = os.path.join(current, PACKAGE)
        if os.path.isfile(candidate):
            return candidate
        if current == real_root:
            break
        current = os.path.dirname(current)
    return None


class Reader:
    """Reads each ``package.json`` once for one coverage (a hook may run many of its
    scripts): its bytes, or why it cannot be read, and what it parses to."""

    __slots__ = ("limit", "_read")

    def __init__(self, *, limit: int) -> None:
        self.limit = limit
        self._read: dict[str, tuple[bytes | str, Any]] = {}

    def _load(self, path: str) -> tuple[bytes | str, Any]:
        if path not in self._read:
            try:
                raw: bytes | str = read_regular(path, limit=self.limit) or b""
            except (ConfigError, OSError) as exc:
                raw = str(exc)
            try:
                doc = orjson.loads(raw) if isinstance(raw, bytes) else None
            except orjson.JSONDecodeError:
                doc = None
            self._read[path] = (raw, doc)
        return self._read[path]

    def scripts(self, path: str, name: str) -> tuple[str | None, str | None, str | None] | None:
        """The texts of the scripts ``pre<name>``, ``<name>`` and ``post<name>`` of the
        ``package.json`` at ``path`` (None where one is absent); None when the file
        cannot be read or parsed (the runner would fail too)."""
        doc = self._load(path)[1]
        if doc is None:
            return None
        found = doc.get("scripts") if isinstance(doc, dict) else None
        if not isinstance(found, dict):
            return None, None, None
        pre, main, post = (found.get(key) for key in (f"pre{name}", name, f"post{name}"))
        return (pre if isinstance(pre, str) else None, main if isinstance(main, str) else None,
                post if isinstance(post, str) else None)

    def covered(self, start: str, name: str, real_root: str) -> tuple[str, bytes]:
        """The covered entry of script ``name`` run from ``start``: its key (the
        ``package.json``'s path relative to the root, ``#scripts.`` and the name) and the
        bytes to hash: the three scripts' texts, the whole file when it does not parse,
        a marker when there is no ``package.json`` (one that appears later is a change)."""
        path = nearest(start, real_root)
        if path is None:
            return f"{os.path.relpath(os.path.join(start, PACKAGE), real_root)}#scripts.{name}", b"absent"
        real = os.path.realpath(path)
        key = f"{os.path.relpath(path, real_root)}#scripts.{name}"
        if not (real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)):
            return key, b"outside the project:" + os.fsencode(real)
        texts = self.scripts(path, name)
        if texts is not None:
            return key, orjson.dumps(texts)
        raw = self._load(path)[0]
        return key, (b"unparsed:" + raw) if isinstance(raw, bytes) else b"unreadable:" + raw.encode("utf-8", "replace")
