"""The exception family and exit statuses of forge_hookd.

Every error carries fields, not just a string, so that the CLI can turn it into the
JSON error document (``{"version": 1, "error": {"kind": ..., "message": ...}}``).
A hook that fails or times out is *not* an exception: it is a ``HookResult``.
"""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    """Exit codes of the executables (DESIGN.md, "Exit codes"), the one owner of them."""

    PROCEED = 0  # decision allow
    BLOCKED = 1  # decision deny: a hook said do not continue (forge-hook-run only)
    PROBLEMS_FOUND = 1  # forge-hook: check found problems, remove found nothing
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
