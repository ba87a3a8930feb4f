"""The one error boundary of the executables (STYLE 8): known errors become one line on
stderr (and, for forge-hook-run, a JSON error document on stdout) with a documented exit
status; an unexpected exception is exit 3, never a bare traceback."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click
import orjson

from .errors import ExitStatus, ForgeError, UsageError, interrupted_status
from .signals import Interrupted, SignalCatcher


def write_document(doc: dict[str, Any], *, pretty: bool = False) -> None:
    """The one JSON document on stdout, written whole."""
    option = orjson.OPT_INDENT_2 if pretty else 0
    out = sys.stdout.buffer
    view = memoryview(orjson.dumps(doc, option=option, default=str) + b"\n")
    while view:  # a signal during a large write returns a short count (found by soak.py)
        view = view[out.write(view):]
    out.flush()


#: The names of the two executables, as their messages start.
RUNNER_PROG = "forge-hook-run"
MANAGER_PROG = "forge-hook"


def print_json(value: Any) -> None:
    """``value`` as indented JSON on stdout (what ``--json`` of a listing prints)."""
    click.echo(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode())


def say(prog: str, message: str) -> None:
    """One line for people on stderr, control characters made visible."""
    click.echo(f"{prog}: {visible(message)}", err=True)


# C0 (but tab), DEL and C1: a hook's output must not drive the terminal, and a line for
# people stays one line (a newline in an event's key must not split the message).
_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if c != 0x09} | {0x0A: "\\n", 0x0D: "\\r"}


def visible(text: str) -> str:
    """``text`` with terminal control characters written out (ESC as ``\\x1b``)."""
    return text.translate(_CONTROL)


class ReaderClosed(Exception):
    """Whoever read our stdout went away (EPIPE). Not an OSError, so that click's own
    EPIPE handling (exit 1, which means "blocked") never sees it."""


def error_document(kind: str, message: str) -> dict[str, Any]:
    return {"version": 1, "error": {"kind": kind, "message": message}}


class BoundaryCommand(click.Command):
    """A click command whose every failure is one stderr line and a documented status.

    Usage errors exit 2; other known errors exit ``known_error_status``; what the machine
    refuses (``OSError``: a full disk, a read-only directory ...) exits 5; an unexpected
    exception exits 3 (with the traceback only when ``FORGE_DEBUG=1``); Ctrl-C exits
    130. With ``json_errors`` stdout also gets the JSON error document.
    """

    json_errors = False
    known_error_status = ExitStatus.BAD_INPUT  # 1 is a verdict (blocked, problems found)
    #: Filled by ``--dialect``: answers a failure in an agent's form instead of forge's
    #: JSON document (dialect_cli.py). A list, not a method: it takes no ``self``.
    failure_answer: list[Callable[[str, str], int]] = []

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,  # type: ignore[override]
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> int:
        """Run the command and return its exit status; with ``standalone_mode`` (click's
        contract, which CliRunner relies on) exit with it instead."""
        name = prog_name or self.name or RUNNER_PROG
        try:
            code = super().main(args, name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Exit as exc:  # --help, --version
            code = exc.exit_code
        except click.UsageError as exc:
            code = self._fail(name, "usage", exc.format_message(), ExitStatus.BAD_INPUT)
        except UsageError as exc:
            code = self._fail(name, exc.kind, str(exc), ExitStatus.BAD_INPUT)
        except ForgeError as exc:
            code = self._fail(name, exc.kind, str(exc), self.known_error_status)
        except (KeyboardInterrupt, click.Abort):
            code = self._fail(name, "interrupted", "interrupted by SIGINT", ExitStatus.SIGINT)
        except Interrupted as exc:  # a signal before any hook ran (signals.py)
            code = self._fail(name, "interrupted", f"interrupted by {exc}", interrupted_status(exc.signum))
        except ReaderClosed:  # nothing more is written, as a shell's SIGPIPE
            _silence_stdout()
            code = ExitStatus.READER_CLOSED
        except OSError as exc:  # the machine refused (issue 9): one line, not a bug
            code = self._fail(name, *system_error(exc))
        except Exception as exc:  # noqa: BLE001 - the one boundary (STYLE 8)
            code = self._fail(name, "internal", _unexpected(exc), ExitStatus.INTERNAL_ERROR)
        self.failure_answer.clear()  # set for one invocation (a dialect's); not the next
        if standalone_mode:
            sys.exit(int(code or 0))
        return int(code or 0)

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        with _reader_closed_is_ours():  # --help and --version print while parsing
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with _reader_closed_is_ours():
            return super().invoke(ctx)

    def _fail(self, prog: str, kind: str, message: str, status: int) -> int:
        if self.failure_answer:
            return self.failure_answer[-1](kind, message)
        say(prog, f"error: {message}")
        if self.json_errors:
            try:
                write_document(error_document(kind, message))
            except BrokenPipeError:
                _silence_stdout()
                return ExitStatus.READER_CLOSED
        return status


class JsonCommand(BoundaryCommand):
    """forge-hook-run's boundary: every failure is also a JSON document on stdout, bad
    input of any kind exits 2, and the runner's signals are caught while it runs
    (:class:`~forge_hookd.signals.SignalCatcher`, reached through :meth:`signals`)."""

    json_errors = True
    known_error_status = ExitStatus.BAD_INPUT

    ignore_late_signals = False

    def main(self, *args: Any, ignore_late_signals: bool = False, **kwargs: Any) -> int:  # type: ignore[override]
        """As :meth:`BoundaryCommand.main`; ``ignore_late_signals`` (the executable):
        once the command is done only the document is left to write, and a late signal
        must not cut it short. In-process callers keep their own handlers."""
        self.ignore_late_signals = ignore_late_signals
        return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with SignalCatcher().installed(then_ignore=self.ignore_late_signals) as catcher:
            ctx.meta["forge_hookd.signals"] = catcher
            return super().invoke(ctx)

    def _fail(self, prog: str, kind: str, message: str, status: int) -> int:
        from .runlog import RunContext, record  # runs that end in an error are logged too

        warning = record(error_document(kind, message), RunContext(exit_status=status))
        if warning is not None:
            say(prog, f"warning: {warning}")
        return super()._fail(prog, kind, message, status)

    @staticmethod
    def signals() -> SignalCatcher:
        """The catcher of the command being run."""
        catcher: SignalCatcher = click.get_current_context().meta["forge_hookd.signals"]
        return catcher


class BoundaryGroup(BoundaryCommand, click.Group):
    """A click group with the same boundary (forge-hook)."""


# What the machine may refuse us: not a bug of ours, but worth one clear line (exit 5).
_MACHINE_ERRNOS = frozenset(getattr(errno, name) for name in (
    "ENOSPC", "EDQUOT", "EFBIG", "EROFS", "ENAMETOOLONG", "EACCES", "EPERM", "ENOENT", "ENOTDIR",
    "EISDIR", "ELOOP", "EMFILE", "ENFILE", "ENOMEM", "EIO", "ESTALE", "ETIMEDOUT", "EBUSY",
    "ETXTBSY", "EXDEV", "EAGAIN", "EMLINK", "ENODEV", "ENXIO") if hasattr(errno, name))


def _unexpected(exc: BaseException) -> str:
    """The one line of a bug (exit 3); its traceback too with ``FORGE_DEBUG=1``."""
    _print_traceback_if_debugging()
    return f"unexpected error: {type(exc).__name__}: {exc} (FORGE_DEBUG=1 shows a traceback)"


def _print_traceback_if_debugging() -> None:
    if os.environ.get("FORGE_DEBUG") == "1":
        import traceback

        traceback.print_exc()


def system_error(exc: OSError) -> tuple[str, str, int]:
    """The kind, one-line message and exit status of an ``OSError`` that reached the
    boundary: SYSTEM_ERROR for what the machine refused, INTERNAL_ERROR for the rest
    (EBADF, EINVAL ...: our bug)."""
    if exc.errno not in _MACHINE_ERRNOS:
        return "internal", _unexpected(exc), ExitStatus.INTERNAL_ERROR
    _print_traceback_if_debugging()
    if exc.errno == errno.ENOENT and exc.filename is None and not _cwd_exists():
        return "system", ("the current directory no longer exists; cd to one that does, "
                          "or pass --project-root"), ExitStatus.SYSTEM_ERROR
    what = exc.strerror or str(exc)
    if exc.filename is not None:
        what = f"{_shortened(os.fsdecode(exc.filename))}: {what}"
    return "system", what, ExitStatus.SYSTEM_ERROR


def _cwd_exists() -> bool:
    try:
        os.getcwd()
    except OSError:
        return False
    return True


def _shortened(text: str, limit: int = 160) -> str:
    """A path short enough for one line (ENAMETOOLONG comes with a 5000-character one)."""
    return text if len(text) <= limit else f"{text[:100]}...{text[-40:]} ({len(text)} characters)"


@contextmanager
def _reader_closed_is_ours() -> Iterator[None]:
    try:
        yield
    except BrokenPipeError:
        raise ReaderClosed from None


def _silence_stdout() -> None:
    # Python would complain again at exit while flushing a broken stdout.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


