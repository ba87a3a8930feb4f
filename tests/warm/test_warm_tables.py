"""The two warm clients share their tables: the native client's signal tables and its
start-up answer are tied to the Python side's for every signal number (issue 29 item 3),
by compiling the shipped client.c into a harness (tests/warm/warm_signal_table.c)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from forge_hookd.errors import error_document
from forge_hookd.signalnames import RUNNER_SIGNALS, name_of
from forge_hookd.warm.build import SOURCE, compiler
from helpers import TESTS

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

HERE = TESTS


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory) -> Path:
    command = compiler()
    if command is None:
        pytest.fail("NOT TESTED: no C compiler (cc or $CC) to build the native client's table harness")
    out = tmp_path_factory.mktemp("tables") / "harness"
    subprocess.run([*command, "-O0", "-Wall", "-Werror", "-Wno-unused-function", '-DFORGE_COLD="/nonexistent"',
                    '-DFORGE_KEY_DIR="/nonexistent"', "-DFORGE_HEXVERSION=0", '-DFORGE_DENIALS=""',
                    "-DFORGE_ALIVE_WAIT_MS=50", "-DFORGE_BUSY_ROUNDS=40", '-DFORGE_INSTALL_TAG="tables"',
                    f"-I{SOURCE.parent}", "-o", str(out),
                    str(HERE / "warm" / "warm_signal_table.c")], check=True, capture_output=True, text=True)
    return out


def test_every_signal_has_one_name_and_one_role_in_both_clients(harness: Path) -> None:
    lines = subprocess.run([str(harness)], capture_output=True, text=True, check=True).stdout.splitlines()
    native = {int(num): (name, role == "1") for num, name, role in (line.split() for line in lines)}
    python = {num: (name_of(num), num in RUNNER_SIGNALS) for num in native}
    assert len(native) >= 64  # every number up to SIGRTMAX, not a sample
    assert native == python


def test_the_start_up_answer_is_one_text_in_all_three_places(harness: Path) -> None:
    # the native client's, the entry point's (forge_hookd/__main__.py) and the boundary's
    # error document (the cold run's, once the command's catcher is in place)
    for signum in RUNNER_SIGNALS:
        native = subprocess.run([str(harness), "answer", str(signum)], capture_output=True)
        entry = subprocess.run([sys.executable, "-c", "import sys; from forge_hookd.__main__ import "
                                f"_exit_during_startup as answer; answer({signum}, None)"],
                               capture_output=True, env={**os.environ, "PYTHONPATH": str(HERE.parent)})
        message = f"interrupted by {name_of(signum)}"
        document = orjson.dumps(error_document("interrupted", message)) + b"\n"
        assert (native.returncode, native.stdout, native.stderr) == (
            entry.returncode, entry.stdout, entry.stderr), signum
        assert native.stdout == document and native.returncode == 128 + signum, signum
        assert native.stderr == f"forge-hook-run: error: {message}\n".encode(), signum


def test_the_start_up_answer_under_a_dialect_is_one_deny_in_both_clients(harness: Path) -> None:
    """Issue 30, item 4: under --dialect, exit 2 and the reason on stderr (a deny every
    agent reads), from the native client and the entry point alike."""
    for signum in RUNNER_SIGNALS:
        native = subprocess.run([str(harness), "answer", str(signum), "--dialect", "claude"], capture_output=True)
        entry = subprocess.run([sys.executable, "-c", "import sys; sys.argv[1:] = ['--dialect', 'claude']; "
                                "from forge_hookd.__main__ import _exit_during_startup as answer; "
                                f"answer({signum}, None)"],
                               capture_output=True, env={**os.environ, "PYTHONPATH": str(HERE.parent)})
        assert (native.returncode, native.stdout, native.stderr) == (
            entry.returncode, entry.stdout, entry.stderr), signum
        assert (native.returncode, native.stdout) == (2, b""), signum
        assert native.stderr == f"forge-hook-run could not check this call: interrupted by {name_of(signum)}\n".encode()
