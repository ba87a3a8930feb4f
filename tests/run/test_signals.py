"""The runner's own signal handling: at start-up, before hooks, while hooks run."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from forge_hookd.__main__ import _exit_during_startup, answer_signals_during_startup
from forge_hookd.run.signals import RUNNER_SIGNALS, Interrupted, SignalCatcher, name_of
from forge_hookd.signalnames import signal_name
from helpers import installed

STARTUP = [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGQUIT, 131),
           (signal.SIGUSR1, 138), (signal.SIGUSR2, 140), (signal.SIGALRM, 142), (signal.SIGVTALRM, 154),
           (signal.SIGPROF, 155), (signal.SIGIO, 157), (signal.SIGXCPU, 152), (signal.SIGRTMAX, 128 + signal.SIGRTMAX)]


@pytest.mark.parametrize(("sig", "code"), STARTUP, ids=[name_of(s) for s, _ in STARTUP])
def test_a_signal_during_startup_still_answers_with_the_document(sig: int, code: int) -> None:
    program = ("from forge_hookd.__main__ import answer_signals_during_startup\n"
               "answer_signals_during_startup()\n"
               f"import os; os.kill(os.getpid(), {int(sig)})\n"
               "import time; time.sleep(5)")
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, timeout=30)
    name = name_of(sig)
    assert proc.returncode == code
    assert json.loads(proc.stdout) == {"version": 1, "error": {"kind": "interrupted",
                                                               "message": f"interrupted by {name}"}}
    assert proc.stderr.decode() == f"forge-hook-run: error: interrupted by {name}\n"


def test_catcher_raises_until_deferred_then_records() -> None:
    before = signal.getsignal(signal.SIGHUP)  # ignored under nohup: what the catcher must hand back
    with SignalCatcher().installed() as catcher:
        with pytest.raises(Interrupted) as exc:
            os.kill(os.getpid(), signal.SIGHUP)
        assert exc.value.signum == signal.SIGHUP and str(exc.value) == "SIGHUP"
        catcher.deferred = True
        os.kill(os.getpid(), signal.SIGTERM)
        assert catcher.received == [signal.SIGHUP]  # the first signal is the one reported
        assert os.read(catcher.read_fd, 16)  # and the poll loop is woken
    assert signal.getsignal(signal.SIGHUP) == before


def test_the_catcher_hands_back_what_it_found_under_nohup() -> None:
    """Run as ``nohup`` runs a command (SIGHUP ignored): the catcher puts that back, and
    the suite itself does not assume SIGHUP starts at its default."""
    program = ("import signal\n"
               "from forge_hookd.run.signals import SignalCatcher\n"
               "assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN\n"
               "with SignalCatcher().installed():\n"
               "    assert signal.getsignal(signal.SIGHUP) != signal.SIG_IGN\n"
               "print(signal.getsignal(signal.SIGHUP) == signal.SIG_IGN)")
    proc = subprocess.run(["nohup", sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (0, "True\n"), proc.stderr


def test_catcher_hands_back_default_handling_after_the_startup_handler() -> None:
    previous = {s: signal.getsignal(s) for s in RUNNER_SIGNALS}
    try:
        answer_signals_during_startup()
        with SignalCatcher().installed(then_ignore=True):
            assert signal.getsignal(signal.SIGTERM) is not _exit_during_startup
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN  # nothing may cut the document short
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def test_signal_name_of_exit_codes() -> None:
    assert [signal_name(c) for c in (None, 0, 1, -15, -9, -200)] == [None, None, None, "SIGTERM", "SIGKILL", "SIG200"]
    assert [name_of(n) for n in (signal.SIGRTMIN, signal.SIGRTMIN + 3, signal.SIGRTMAX)] == [
        "SIGRTMIN", "SIGRTMIN+3", "SIGRTMAX"]


def test_which_signals_the_runner_answers() -> None:
    """Every signal that would end it, but those Python ignores for the runner's EPIPE
    and EFBIG handling and those a faulting instruction raises (signals.py says why)."""
    answered = set(RUNNER_SIGNALS)
    assert {signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2,
            signal.SIGALRM, signal.SIGXCPU, signal.SIGRTMIN, signal.SIGRTMAX} <= answered
    assert not answered & {signal.SIGPIPE, signal.SIGXFSZ, signal.SIGSEGV, signal.SIGBUS, signal.SIGILL,
                           signal.SIGFPE, signal.SIGABRT, signal.SIGSYS, signal.SIGCHLD, signal.SIGWINCH}


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_a_signal_the_process_may_not_catch_is_left_as_it_is(tmp_path: Path) -> None:
    """Under valgrind, which keeps SIGRTMAX for itself, installing a handler for it fails
    with EINVAL: forge-hook-run ended with a traceback and exit 1 before reading a byte."""
    proc = subprocess.run(["valgrind", "--tool=none", "-q", installed("forge-hook-run"), "--event", "session:start",
                           "--no-global", "--no-project"], cwd=tmp_path, input=b"{}", capture_output=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["decision"] == "allow"
    assert b"Traceback" not in proc.stderr
