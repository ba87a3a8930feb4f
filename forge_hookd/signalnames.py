"""The runner's signals and the names of signals, one list for every end of a run: the
entry point (``__main__``, before the command's catcher is installed), the warm client
(which relays them to its worker) and :mod:`forge_hookd.run.signals` (the catcher, and why
these signals and not the others).

Built from ``_signal``, the interpreter's built-in core of ``signal`` (which imports
``enum``), and without ``from __future__``: the warm client loads this module before
anything else, where only built-in modules are loaded (bench/README.md, "warm.py").
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy knows this name; _signal has no stubs, and is signal's core
    import signal as _signal
else:
    import _signal

_ENDING = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGVTALRM",
           "SIGPROF", "SIGIO", "SIGPWR", "SIGSTKFLT", "SIGXCPU")
_REAL_TIME = range(_signal.SIGRTMIN, _signal.SIGRTMAX + 1) if hasattr(_signal, "SIGRTMIN") else range(0)
#: The signals handled as SIGTERM is (see forge_hookd.run.signals for those left alone).
RUNNER_SIGNALS = (*(getattr(_signal, name) for name in _ENDING if hasattr(_signal, name)), *_REAL_TIME)
#: Second names of one number, which signal.Signals names by its first.
_ALIASES = ("SIGIOT", "SIGCLD", "SIGPOLL")
_NAMES = {getattr(_signal, name): name for name in dir(_signal)
          if name.startswith("SIG") and not name.startswith("SIG_") and name not in _ALIASES}


def catch_runner_signals(handler: "_signal._HANDLER") -> "dict[int, _signal._HANDLER]":
    """Install ``handler`` for each of :data:`RUNNER_SIGNALS` this process may catch; the
    handlers it replaced. One it may not stays as it was: valgrind keeps SIGRTMAX for
    itself (EINVAL), which ended the runner with a traceback and exit 1."""
    previous = {}
    for signum in RUNNER_SIGNALS:
        try:
            previous[signum] = _signal.signal(signum, handler)
        except OSError:
            pass
    return previous


def name_of(signum: int) -> str:
    """``15`` -> ``"SIGTERM"``, ``signal.SIGRTMIN + 3`` -> ``"SIGRTMIN+3"``."""
    if signum in _REAL_TIME[1:-1]:
        return f"SIGRTMIN+{signum - _REAL_TIME.start}"
    return _NAMES.get(signum, f"SIG{signum}")


def signal_name(code: "int | None") -> "str | None":
    """``-15`` -> ``"SIGTERM"``: the name of the signal a negative exit code stands for."""
    if code is None or code >= 0:
        return None
    return name_of(-code)
