"""The one error boundary of the executables (STYLE 8): known errors become one line on
stderr (and, for forge-hook-run, a JSON error document on stdout) with a documented exit
status; an unexpected exception is exit 3, never a bare traceback."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click
import orjson

from forge_hookd.errors import ExitStatus, ForgeError, UsageError, error_document, interrupted_status
from forge_hookd.log.runlog import RunContext, record
from forge_hookd.safefile import write_all
from forge_hookd.run.signals import Interrupted, SignalCatcher
from forge_hookd.text import json_bytes, visible

if TYPE_CHECKING:
    from typing import Protocol

    class Failing(Protocol):  # for the type checker only (see codec.Codec)
        """Whatever answers an invocation's failure in the caller's protocol (a codec)."""

        def fail(self, kind: str, message: str, status: int) -> int: ...


def write_stdout(data: bytes) -> None:
    """``data`` on stdout, whole (a signal during a large write returns a short count)."""
    out = sys.stdout.buffer
    write_all(out.write, data)
    out.flush()


def write_stderr(text: str) -> None:
    """``text`` on stderr as it is, for a protocol that owns stderr (an agent's)."""
    click.echo(text, err=True)


#: The names of the two executables, as their messages start.
RUNNER_PROG = "forge-hook-run"
MANAGER_PROG = "forge-hook"


def print_json(value: Any) -> None:
    """``value`` as indented JSON on stdout (what ``--json`` of a listing prints)."""
    click.echo(json_bytes(value, option=orjson.OPT_INDENT_2).decode())


def say(prog: str, message: str) -> None:
    """One line for people on stderr, control characters made visible."""
    click.echo(f"{prog}: {visible(message)}", err=True)


class ReaderClosed(Exception):
    """Whoever read our stdout went away (EPIPE). Not an OSError, so that click's own
    EPIPE handling (exit 1, which means "blocked") never sees it."""


class Invocation:
    """One call of an executable: made by the boundary for each call and handed down as
    click's ``obj``, never kept in a global. ``codec`` answers a failure (None: one line
    on stderr is the whole answer); the command may choose another while the command
    line is parsed (forge-hook-run's ``--dialect``). ``catcher`` holds the runner's
    signal handlers while the command runs."""

    def __init__(self, codec: Failing | None = None) -> None:
        self.codec = codec
        self.catcher: SignalCatcher | None = None


class BoundaryCommand(click.Command):
    """A click command whose every failure is one stderr line and a documented status.

    Usage errors exit 2; other known errors exit ``known_error_status``; what the machine
    refuses (``OSError``: a full disk, a read-only directory ...) exits 5; an unexpected
    exception exits 3 (with the traceback only when ``FORGE_DEBUG=1``); Ctrl-C exits
    130. The invocation's codec, when it has one, answers in the caller's protocol.
    """

    known_error_status = ExitStatus.BAD_INPUT  # 1 is a verdict (blocked, problems found)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,  # type: ignore[override]
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> int:
        """Run the command and return its exit status; with ``standalone_mode`` (click's
        contract, which CliRunner relies on) exit with it instead. ``obj`` may be the
        :class:`Invocation` (its codec answers failures); one is made otherwise."""
        name = prog_name or self.name or RUNNER_PROG
        invocation: Invocation = extra.setdefault("obj", self.new_invocation())
        try:
            code = super().main(args, name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Exit as exc:  # --help, --version
            code = exc.exit_code
        except click.UsageError as exc:
            code = self._fail(invocation, name, "usage", exc.format_message(), ExitStatus.BAD_INPUT)
        except UsageError as exc:
            code = self._fail(invocation, name, exc.kind, str(exc), ExitStatus.BAD_INPUT)
        except ForgeError as exc:
            code = self._fail(invocation, name, exc.kind, str(exc), self.known_error_status)
        except (KeyboardInterrupt, click.Abort):
            code = self._fail(invocation, name, "interrupted", "interrupted by SIGINT", ExitStatus.SIGINT)
        except Interrupted as exc:  # a signal before any hook ran (signals.py)
            code = self._fail(invocation, name, "interrupted", f"interrupted by {exc}", interrupted_status(exc.signum))
        except ReaderClosed:  # nothing more is written, as a shell's SIGPIPE
            _silence_stdout()
            code = ExitStatus.READER_CLOSED
        except OSError as exc:  # the machine refused (issue 9): one line, not a bug
            code = self._fail(invocation, name, *system_error(exc))
        except Exception as exc:  # noqa: BLE001 - the one boundary (STYLE 8)
            code = self._fail(invocation, name, "internal", _unexpected(exc), ExitStatus.INTERNAL_ERROR)
        if standalone_mode:
            sys.exit(int(code or 0))
        return int(code or 0)

    def new_invocation(self) -> Invocation:
        """The state of one call (subclasses give it their protocol's codec)."""
        return Invocation()

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        with _reader_closed_is_ours():  # --help and --version print while parsing
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with _reader_closed_is_ours():
            return super().invoke(ctx)

    def _fail(self, invocation: Invocation, prog: str, kind: str, message: str, status: int) -> int:
        if invocation.codec is None:
            say(prog, f"error: {message}")
            return status
        try:
            return invocation.codec.fail(kind, message, status)
        except BrokenPipeError:
            _silence_stdout()
            return ExitStatus.READER_CLOSED


class JsonCommand(BoundaryCommand):
    """forge-hook-run's boundary: the invocation's codec answers every failure in the
    caller's protocol (forge's JSON error document, or an agent's answer), a failed run
    is logged, and the runner's signals are caught while it runs (the
    :class:`~forge_hookd.run.signals.SignalCatcher` is the invocation's ``catcher``)."""

    ignore_late_signals = False

    def main(self, *args: Any, ignore_late_signals: bool = False, **kwargs: Any) -> int:  # type: ignore[override]
        """As :meth:`BoundaryCommand.main`; ``ignore_late_signals`` (the executable):
        once the command is done only the document is left to write, and a late signal
        must not cut it short. In-process callers keep their own handlers."""
        self.ignore_late_signals = ignore_late_signals
        return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with SignalCatcher().installed(then_ignore=self.ignore_late_signals) as catcher:
            ctx.obj.catcher = catcher
            return super().invoke(ctx)

    def _fail(self, invocation: Invocation, prog: str, kind: str, message: str, status: int) -> int:
        # runs that end in an error are logged too
        warning = record(error_document(kind, message), RunContext(exit_status=status))
        if warning is not None:
            say(prog, f"warning: {warning}")
        return super()._fail(invocation, prog, kind, message, status)


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
        import traceback  # 1.9 ms, paid only with FORGE_DEBUG=1 (bench/README.md, "tricks.py")

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


