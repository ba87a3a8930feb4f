"""``python -m forge_hookd`` is ``forge-hook-run``; ``main`` is also its entry point.

When the resident runner is up (``forge-hook warm on``), ``main`` hands the run to it
before importing anything heavy (:mod:`forge_hookd.warm.client`); otherwise, or when the
runner cannot take the run, it runs cold: :func:`run_cold`, which is also what the
runner's worker calls. Built-in modules only until then, and no ``from __future__``
import (0.25 ms): the annotations here are builtins, evaluated or not.
"""

import posix
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # what type checkers see (mypy knows this name); nothing at run time
    from collections.abc import Callable
    from types import FrameType
    from typing import NoReturn

# The one list of the runner's signals and their names, from a module of built-in
# imports only (the warm client's path: signals.py itself imports signal, and enum).
from forge_hookd.signalnames import catch_runner_signals, name_of


def main() -> int:
    """Answer signals from the first moment, then run the command warm or cold; returns
    the exit status (a run the resident runner served ends the process instead)."""
    answer_signals_during_startup()
    open_missing_standard_streams()
    from forge_hookd.warm import client as warmclient

    broken = warmclient.take_native_note(warmclient.BROKEN_NOTE)
    if broken is not None:  # the native client's run broke after the runner took it
        return answer_broken_run(broken)
    try:
        status = warmclient.serve_warm(sys.argv)
    except warmclient.Broken as exc:
        return answer_broken_run(str(exc))
    if status is not None:
        exit_served(status)
    return run_cold()


def exit_served(status: int) -> "NoReturn":
    """End a run the resident runner served, now: the worker wrote the answer to our
    descriptors and nothing of ours is buffered, so the interpreter's finalization is
    1.2 ms of nothing (``python -I -S`` ending by ``posix._exit`` against its own end,
    medians of 80 starts). Through ``os._exit`` when ``os`` is loaded (pip's script
    loads it; whoever wrapped it, as coverage does, gets its turn), else
    ``posix._exit``: importing ``os`` costs 1.7 ms."""
    exit_now: "Callable[[int], NoReturn]" = getattr(sys.modules.get("os"), "_exit", posix._exit)
    exit_now(status)


def run_cold() -> int:
    """The command, run in this process (the cold run, and the runner's worker)."""
    answer_signals_during_startup()
    open_missing_standard_streams()
    from forge_hookd.cli.run import main as run

    return run()


def serve_resident() -> int:
    """Run the resident runner (``forge-hook warm on``, a client's start), its workers
    running :func:`run_cold`: the runner is handed the cold run, it never imports this
    script (STYLE 36)."""
    from forge_hookd.warm.runner import main as serve
    from forge_hookd.warm.worker import ColdEntry

    return serve(ColdEntry(run_cold, answer_signals_during_startup))


def answer_broken_run(message: str) -> int:
    """The resident runner took the run (and stdin, which cannot be read twice) and
    did not finish it: answer as a cold run answers an internal error, through the codec
    the command line chooses (the agent's failure answer under --dialect, a deny where
    the agent waits for permission; forge's error document otherwise), and log it as a
    failed run. Hooks are not run again: they may have run already, and their effects
    with them."""
    from forge_hookd.cli.boundary import RUNNER_PROG, Invocation, JsonCommand
    from forge_hookd.cli.run import codec_for
    from forge_hookd.errors import ExitStatus

    invocation = Invocation(codec_for(sys.argv[1:]))
    return JsonCommand(RUNNER_PROG)._fail(invocation, RUNNER_PROG, "internal", message, ExitStatus.INTERNAL_ERROR)


def answer_signals_during_startup() -> None:
    """Until the command installs its :class:`~forge_hookd.run.signals.SignalCatcher`, a
    signal ends the runner at once with the JSON error document and 128+n (Python's
    default would die silently). Nothing has started yet: nothing to clean up."""
    catch_runner_signals(_exit_during_startup)


def _exit_during_startup(signum: int, frame: "FrameType | None") -> None:
    # Formatted by hand and written with posix.write: the handler may run before click,
    # orjson or the boundary are imported, or in the middle of importing them, so it
    # may use nothing that is not loaded already; posix._exit, because unwinding could
    # land in a half-imported module's error handling.
    name = name_of(signum)
    if under_dialect(sys.argv):  # the agent's own deny, as every agent reads it (issue 30, item 4)
        posix.write(2, f"forge-hook-run could not check this call: interrupted by {name}\n".encode())
        posix._exit(2)
    posix.write(2, f"forge-hook-run: error: interrupted by {name}\n".encode())
    posix.write(1, ('{"version":1,"error":{"kind":"interrupted","message":"interrupted by %s"}}\n'
                    % name).encode())
    posix._exit(128 + signum)


def under_dialect(argv: "list[str]") -> bool:
    """Whether the command line answers an agent (``--dialect``): before the payload is
    read, a failure is then a deny every agent reads, exit 2 with the reason on stderr
    (the dialects' answer to a payload that names no event; the native client's too)."""
    for arg in argv[1:]:
        if arg == "--":
            return False
        if arg == "--dialect" or arg.startswith("--dialect="):
            return True
    return False


def open_missing_standard_streams() -> None:
    """Give a closed stdin, stdout or stderr /dev/null, as daemons do.

    A caller may start us with one closed (``<&-``): Python then sets it to None, and
    the next pipe we open would land on that number. A closed stdin reads as empty
    input; with stdout closed the verdict is still in the exit status.
    """
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        try:
            posix.fstat(fd)
        except OSError:
            posix.open("/dev/null", posix.O_RDWR)  # the lowest free descriptor: this one
            setattr(sys, name, open(fd, mode, closefd=False))  # noqa: SIM115 - lives as long as we do


if __name__ == "__main__":
    raise SystemExit(main())
