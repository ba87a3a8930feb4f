"""Reading the run log for ``forge-hook log``: the records of every kept file, oldest
first, filtered; following new ones; the table for people. No printing here."""

from __future__ import annotations

import os
import re
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from fnmatch import fnmatchcase
from typing import Any, BinaryIO

import orjson

from forge_hookd.errors import UsageError
from forge_hookd.registry import hook_name
from forge_hookd.log.runlog import log_files
from forge_hookd.text import visible

_SPAN = re.compile(r"^(\d+(?:\.\d+)?)\s*([smhdw])$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


@dataclass(frozen=True)
class Filter:
    """Which records ``forge-hook log`` shows; None lets everything through."""

    event: str | None = None  # a type or a glob: tool:*
    tool: str | None = None
    session: str | None = None
    decision: str | None = None
    since: str | None = None  # an ISO time in UTC, as records hold it
    project: str | None = None  # a directory: runs in it or below it

    def __call__(self, rec: dict[str, Any]) -> bool:
        event = rec.get("event")
        event = event if isinstance(event, dict) else {}  # a record of another shape (readable())
        return all((
            self.event is None or fnmatchcase(str(event.get("type")), self.event),
            self.tool is None or str(event.get("tool")).lower() == self.tool.lower(),
            self.session is None or event.get("session") == self.session,
            self.decision is None or rec.get("decision") == self.decision,
            self.since is None or str(rec.get("time", "")) >= self.since,
            self.project is None or _under(rec.get("project"), self.project),
        ))


def _under(path: object, directory: str) -> bool:
    return isinstance(path, str) and (path == directory or path.startswith(directory.rstrip("/") + "/"))


def parse_since(text: str, *, now: float | None = None) -> str:
    """``10m``, ``2h``, ``1d``, ``30s``, ``1w`` ago, or an ISO date or time (local time
    unless it says otherwise), as the UTC ISO time records hold. Raises UsageError."""
    now = time.time() if now is None else now
    span = _SPAN.match(text.strip())
    if span:
        moment = now - float(span.group(1)) * _UNITS[span.group(2)]
        return datetime.fromtimestamp(moment, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--since takes 10m, 2h, 1d or an ISO date, not '{text}'") from None
    if when.tzinfo is None:
        when = when.astimezone()  # a bare date or time is the user's local time
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def read(path: str) -> Iterator[dict[str, Any]]:
    """Every record of the log at ``path``, its rotated files first; a line that is
    not a JSON object (a log written by hand, a disk that filled up) is skipped."""
    for name in log_files(path):
        yield from _records(name)


def _records(name: str) -> Iterator[dict[str, Any]]:
    try:
        with open(name, "rb") as fh:
            for line in fh:
                rec = _parse(line)
                if rec is not None:
                    yield rec
    except FileNotFoundError:  # rotated away while we read
        return


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        rec = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    return rec if isinstance(rec, dict) else None


def last(path: str, keep: Callable[[dict[str, Any]], bool], count: int | None) -> list[dict[str, Any]]:
    """The last ``count`` records that ``keep`` lets through (all when None), oldest first."""
    return list(deque((r for r in read(path) if keep(r)), maxlen=count))


def follow(path: str, keep: Callable[[dict[str, Any]], bool], *, history: int | None,
           poll: float = 0.2) -> Iterator[dict[str, Any]]:
    """The last ``history`` records (all when None), then each record appended from
    then on, as it comes, across rotations; endless. The current file is opened before
    the history is read, so that no run falls between the two."""
    handle = _open(path)
    inode = os.fstat(handle.fileno()).st_ino if handle is not None else None
    older = [r for name in log_files(path) if name != path for r in _records(name)]
    pending = b""
    if handle is not None:
        *lines, pending = handle.read().split(b"\n")
        older += [r for r in map(_parse, lines) if r is not None]
    yield from deque((r for r in older if keep(r)), maxlen=history)
    while True:
        current = _inode(path)
        if current is not None and current != inode:  # created, or rotated: finish the old one
            if handle is not None:
                yield from _complete(handle.read(), pending, keep)
                handle.close()
            handle, inode, pending = _open(path), current, b""
        chunk = handle.read() if handle is not None else b""
        if not chunk:
            time.sleep(poll)
            continue
        *lines, pending = (pending + chunk).split(b"\n")
        yield from (r for r in map(_parse, lines) if r is not None and keep(r))


def _open(path: str) -> BinaryIO | None:
    try:
        return open(path, "rb")  # noqa: SIM115 - follow() closes it when the file rotates
    except FileNotFoundError:
        return None


def _inode(path: str) -> int | None:
    try:
        return os.stat(path).st_ino
    except FileNotFoundError:
        return None


def _complete(chunk: bytes, pending: bytes, keep: Callable[[dict[str, Any]], bool]) -> Iterator[dict[str, Any]]:
    for line in (pending + chunk).split(b"\n"):
        rec = _parse(line)
        if rec is not None and keep(rec):
            yield rec


# -- records of another shape ------------------------------------------------------------
# A log is a file anyone can write (by hand, a script, another version): a record whose
# fields are not what forge-hook-run writes is shown as far as it can be, and said, never
# a crash (issue 31, item 10). The fields the table, the filters and replay read, and
# what each must be (absent or null is always fine):
_NUMBER = (float, int)  # said as "a number"
_FIELDS: dict[str, tuple[type, ...]] = {
    "event": (dict,), "hooks": (list,), "decided_by": (int,), "decision": (str,), "reason": (str,),
    "time": (str,), "duration": _NUMBER, "project": (str,), "dialect": (str,), "error": (dict,), "skipped": (list,)}
_EVENT_FIELDS: dict[str, tuple[type, ...]] = {
    "type": (str,), "tool": (str,), "session": (str,), "data": (dict,), "agent": (dict,)}
_HOOK_FIELDS: dict[str, tuple[type, ...]] = {
    "index": (int,), "source": (str,), "source_index": (int,), "id": (str,), "pattern": (str,), "guard": (str,),
    "with": (dict,), "command": (str,), "decision": (str,)}
_KINDS = {dict: "an object", list: "a list", str: "a string", int: "a whole number", float: "a number"}


def readable(rec: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``rec`` as far as it has the shape forge-hook-run writes (a field of another
    shape left out: an ``event`` that is a string, ``hooks`` entries that are not
    objects, an ``event.data`` that is no object), and what was left out, in words."""
    said: list[str] = []
    kept = _fitting(rec, _FIELDS, "", said)
    if "event" in kept:
        kept["event"] = _fitting(kept["event"], _EVENT_FIELDS, "event.", said)
    if "hooks" in kept:
        entries = [h for h in kept["hooks"] if isinstance(h, dict)]
        if len(entries) < len(kept["hooks"]):
            said.append(f"'hooks' holds {len(kept['hooks']) - len(entries)} entries that are not objects")
        kept["hooks"] = [_fitting(h, _HOOK_FIELDS, f"hooks[{k}].", said) for k, h in enumerate(entries)]
    return kept, said


def _fitting(obj: dict[str, Any], fields: dict[str, tuple[type, ...]], prefix: str,
             said: list[str]) -> dict[str, Any]:
    kept = dict(obj)
    for key, kinds in fields.items():
        value = kept.get(key)
        if value is None or (isinstance(value, kinds) and not isinstance(value, bool)):
            continue
        del kept[key]
        said.append(f"'{prefix}{key}' is {_kind(value)}, not {_KINDS[kinds[0]]}")
    return kept


def _kind(value: object) -> str:
    return "true or false" if isinstance(value, bool) else _KINDS.get(type(value), type(value).__name__)


# -- for people -----------------------------------------------------------------------
HEADER = ("#", "TIME", "EVENT", "TOOL", "DECISION", "BY", "DURATION", "REASON")


def row(number: str, rec: dict[str, Any]) -> tuple[str, ...]:
    """One table row: number (1 = the latest), local time, event, tool, decision, the
    deciding hook (``project[0] in ~/src/app``), duration, reason (or the error). Every
    cell has its control characters written out: a logged command or reason must never
    drive the terminal. A field of another shape is left out (:func:`readable`)."""
    rec = readable(rec)[0]
    event = rec.get("event") or {}
    error = rec.get("error") or {}
    native: dict[str, Any] = event["agent"] if isinstance(event.get("agent"), dict) else {}
    untyped = event.get("type") is None and native.get("event") is not None  # an agent's event forge has no type for
    reason = rec.get("reason") or error.get("message") or ("no forge event type: no hook ran" if untyped else "")
    duration = rec.get("duration")
    kind = f"{native['event']} ({native.get('name') or '?'})" if untyped else event.get("type") or error.get("kind")
    cells = (number, _local(str(rec.get("time", ""))), str(kind or "-"), str(event.get("tool") or "-"),
             str(rec.get("decision") or "-"), _decider(rec),
             f"{duration * 1000:.0f} ms" if isinstance(duration, (int, float)) else "-", " ".join(str(reason).split()))
    return tuple(map(visible, cells))


def _decider(rec: dict[str, Any]) -> str:
    """The deciding hook by its one name, and for a project's hook which project."""
    index = rec.get("decided_by")
    hook = next((h for h in rec.get("hooks") or [] if h.get("index") == index), None)
    if index is None or hook is None:
        return "-"
    name = hook_name(hook.get("source"), hook.get("source_index"), hook.get("id"), run_index=index)
    project = rec.get("project")
    return f"{name} in {_short_path(project)}" if hook.get("source") == "project" and project else name


def _short_path(path: str, limit: int = 40) -> str:
    """``~/src/app`` for a path in the home directory; the tail of a long one."""
    home = os.path.expanduser("~")
    if home != "/" and (path == home or path.startswith(home + "/")):
        path = "~" + path[len(home):]
    return path if len(path) <= limit else "..." + path[-(limit - 3):]


def _local(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return iso or "-"


def table(rows: list[tuple[str, ...]], width: int) -> list[str]:
    """Rows under :data:`HEADER`, columns aligned, the reason cut to the width."""
    rows = [HEADER, *rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER) - 1)]
    lines = []
    for r in rows:
        left = "  ".join(cell.ljust(w) for cell, w in zip(r[:-1], widths, strict=True))
        room = max(width - len(left) - 2, 20)
        reason = r[-1] if len(r[-1]) <= room else r[-1][: room - 3] + "..."
        lines.append(f"{left}  {reason}".rstrip())
    return lines
