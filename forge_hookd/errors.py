"""The exception family and exit statuses of forge_hookd.

Every error carries fields, not just a string, so that the CLI can turn it into the
JSON error document (``{"version": 1, "error": {"kind": ..., "message": ...}}``).
A hook that fails or times out is *not* an exception: it is a ``HookResult``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import IntEnum, unique
from typing import Any


@unique  # two names for one status read as two meanings (httpie does the same)
class ExitStatus(IntEnum):
    """Exit codes of the executables (DESIGN.md, "Exit codes"), the one owner of them."""

    PROCEED = 0  # decision allow
    BLOCKED = 1  # decision deny: a hook said do not continue (forge-hook-run only)
    BAD_INPUT = 2
    INTERNAL_ERROR = 3  # a bug
    ASK = 4  # decision ask: a person must decide
    SYSTEM_ERROR = 5  # the machine refused: full disk, read-only, deleted directory, ...
    SIGHUP = 129
    SIGINT = 130
    READER_CLOSED = 141  # whoever read our stdout went away (as a shell's SIGPIPE)
    SIGTERM = 143


def interrupted_status(signum: int) -> int:
    """128 + n, as a shell reports a command that signal n ended: the runner's exit
    status when one of its signals interrupted it (SIGHUP 129, SIGINT 130, SIGQUIT 131,
    SIGTERM 143 ...; the named ones above are those the documentation lists)."""
    return 128 + signum


@unique
class ManagerStatus(IntEnum):
    """forge-hook's own statuses beside the shared ones (BAD_INPUT ...): its word for 1,
    which forge-hook-run spends on "blocked"."""

    OK = 0
    PROBLEMS = 1  # check or doctor found problems; remove found no such hook


def error_document(kind: str, message: str) -> dict[str, object]:
    """forge-hook-run's document for a run that failed before any hook ran: the JSON
    form of an error of ``kind`` (a :attr:`ForgeError.kind`, ``interrupted``, ``internal``,
    ``system``)."""
    return {"version": 1, "error": {"kind": kind, "message": message}}


class ForgeError(Exception):
    """Base class of the errors this package raises on bad input."""

    kind = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class EventError(ForgeError):
    """An event that is not exactly the documented shape."""

    kind = "invalid_event"


class ConfigError(ForgeError):
    """A hook config file or entry that cannot be used.

    ``path`` is the file (None for an entry not read from a file), ``entry`` the index
    of the hook in its file's ``hooks`` list when the problem is one entry.
    """

    kind = "invalid_config"

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        entry: int | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.entry = entry
        self.line = line
        self.column = column

    def __str__(self) -> str:
        """``FILE:LINE:COL: message`` or ``FILE: hooks[N]: message`` (as far as known)."""
        where = self.path or ""
        if self.line is not None:
            where = f"{where}:{self.line}:{self.column}"
        if self.entry is not None:
            where = f"{where}: hooks[{self.entry}]" if where else f"hooks[{self.entry}]"
        return f"{where}: {self.message}" if where else self.message


class UsageError(ForgeError):
    """A bad command line: an unknown option, a bad option value."""

    kind = "usage"


def json_type(value: object) -> str:
    """What a JSON value is, in the words an error message uses (``a number``)."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def optional_str(obj: Mapping[str, Any], key: str, error: Callable[[str], Exception], *, where: str = "") -> str | None:
    """``obj[key]`` when it is a string, or None when missing or null; any other value
    raises ``error(message)`` (an EventError, a ConfigError, a dialect's PayloadError),
    the message naming the key, ``where`` it was and what it was instead."""
    value = obj.get(key)
    if value is None or isinstance(value, str):
        return value
    raise error(f"'{key}'{where} must be a string or null, not {json_type(value)}")
