"""``python -m forge_hookd`` is ``forge-hook-run``; ``main`` is also its entry point."""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

# The one list of the runner's signals and their names: a small module the run loads
# anyway (its own imports are loaded at interpreter start), so loading it first costs
# nothing, and the handler below finds it whole.
from forge_hookd.signals import RUNNER_SIGNALS, name_of


def main() -> int:
    """Answer signals from the first moment, then load and run the command; returns
    the exit status."""
    answer_signals_during_startup()
    open_missing_standard_streams()
    from forge_hookd.cli import main as run

    return run()


def answer_signals_during_startup() -> None:
    """Until the command installs its :class:`~forge_hookd.signals.SignalCatcher`, a
    signal ends the runner at once with the JSON error document and 128+n (Python's
    default would die silently). Nothing has started yet: nothing to clean up."""
    for sig in RUNNER_SIGNALS:
        signal.signal(sig, _exit_during_startup)


def _exit_during_startup(signum: int, frame: FrameType | None) -> None:
    # Formatted by hand and written with os.write: the handler may run before click,
    # orjson or the boundary are imported, or in the middle of importing them, so it
    # may use nothing that is not loaded already; os._exit, because unwinding could
    # land in a half-imported module's error handling.
    name = name_of(signum)
    os.write(2, f"forge-hook-run: error: interrupted by {name}\n".encode())
    os.write(1, ('{"version":1,"error":{"kind":"interrupted","message":"interrupted by %s"}}\n'
                 % name).encode())
    os._exit(128 + signum)


def open_missing_standard_streams() -> None:
    """Give a closed stdin, stdout or stderr /dev/null, as daemons do.

    A caller may start us with one closed (``<&-``): Python then sets it to None, and
    the next pipe we open would land on that number. A closed stdin reads as empty
    input; with stdout closed the verdict is still in the exit status.
    """
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        try:
            os.fstat(fd)
        except OSError:
            os.open(os.devnull, os.O_RDWR)  # the lowest free descriptor: this one
            setattr(sys, name, open(fd, mode, closefd=False))  # noqa: SIM115 - lives as long as we do


if __name__ == "__main__":
    raise SystemExit(main())
