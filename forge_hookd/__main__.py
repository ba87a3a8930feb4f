"""``python -m forge_hookd`` is ``forge-hook-run``; ``main`` is also its entry point."""

from __future__ import annotations

import os
import sys


def main() -> None:
    """Answer signals from the first moment, then load and run the command."""
    from forge_hookd.signals import answer_signals_during_startup

    answer_signals_during_startup()
    open_missing_standard_streams()
    from forge_hookd.cli import main as run

    run()


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
    main()
