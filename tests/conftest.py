"""Shared fixtures: isolated config homes, the installed executable, the leak check.

Plain helpers live in helpers.py, and tests import them from there.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

import helpers

# Imported here, before any fixture runs, so that the real-agent harness reads the user's
# environment (HOME, XDG_CACHE_HOME, FORGE_AGENT_CACHE: where ~1.1 GB of agent CLIs are
# cached) before isolated_home points HOME into tmp_path.
import tests.realagents.harness  # noqa: F401
from tests.realagents import matrix
from helpers import (
    LEAK_VAR,
    WARM_VARS,
    ForgeRun,
    Project,
    Run,
    WarmRunner,
    cmdline,
    installed,
    is_alive,
    is_zombie,
    kill_and_reap,
    marked_processes,
    reap_agent_leftovers,
    run_installed,
    short_private_dir,
)

#: Set to 1 (or pass --warm) to run every test's forge-hook-run through one resident
#: runner started for the session (DESIGN.md, "Warm runner"). Each run then requires it
#: (FORGE_WARM_REQUIRED=1): a run that falls back to cold fails with exit 3 instead of
#: passing for warm; at the end the runner must still be the one started, having served.
WARM_VAR = "FORGE_TEST_WARM"
#: What the warm session keeps in every test's environment (isolated_home drops FORGE_*).
_WARM_KEPT = WARM_VARS


#: Set to 1 (or pass --native) to run every test's forge-hook-run through the native warm
#: client (forge_hookd/warm/client.c) built for the session, in front of pip's script.
NATIVE_VAR = "FORGE_TEST_NATIVE"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--warm", action="store_true",
                     help=f"run every forge-hook-run through a resident runner (also {WARM_VAR}=1)")
    parser.addoption("--native", action="store_true",
                     help=f"run every forge-hook-run through the native warm client (also {NATIVE_VAR}=1)")


@pytest.fixture(scope="session")
def native_client(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The native warm client, built once for the session."""
    return helpers.build_native_client(tmp_path_factory.mktemp("native-client"))


@pytest.fixture(scope="session", autouse=True)
def native_session(request: pytest.FixtureRequest) -> Iterator[None]:
    """With --native or FORGE_TEST_NATIVE=1: the native client in front of every run."""
    if request.config.getoption("--native") or os.environ.get(NATIVE_VAR) == "1":
        helpers.native_client = request.getfixturevalue("native_client")
    yield
    helpers.native_client = None


@pytest.fixture(scope="session", autouse=True)
def warm_session(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[WarmRunner | None]:
    """With --warm or FORGE_TEST_WARM=1: one resident runner for the whole session."""
    if not (request.config.getoption("--warm") or os.environ.get(WARM_VAR) == "1"):
        yield None
        return
    directory = short_private_dir("fw-session-")
    state = tmp_path_factory.mktemp("warm-state")
    runner = WarmRunner.start(directory, {"XDG_STATE_HOME": str(state)})
    pid = runner.proc.pid
    os.environ.update({"FORGE_WARM_DIR": str(directory), "FORGE_WARM_REQUIRED": "1"})
    try:
        yield runner
        status = runner.status()
        assert status is not None and status["pid"] == pid, \
            f"the session's resident runner (pid {pid}) died; its log: {state}/forge/warm.log"
        assert status["served"] > 0, "the resident runner served no run: the suite ran cold"
        print(f"\nwarm: the resident runner served {status['served']} runs")
    finally:
        for name in _WARM_KEPT:
            os.environ.pop(name, None)
        runner.stop()
        for leftover in directory.iterdir():
            leftover.unlink()
        directory.rmdir()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under --warm, leave out the tests marked ``inprocess``: they start no forge-hook-run,
    so a resident runner cannot change what they see (issue 29 item 5). Unless the
    conformance matrix records (tests/realagents/matrix.py), leave out its cells marked
    ``matrix_only``, which no guard depends on: deselected, not skipped, and counted in
    pytest's summary line."""
    leave_out = [marker for marker, out in (
        ("inprocess", config.getoption("--warm") or os.environ.get(WARM_VAR) == "1"),
        ("matrix_only", not os.environ.get(matrix.RESULTS_VAR))) if out]
    left_out = [item for item in items if any(item.get_closest_marker(m) is not None for m in leave_out)]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in left_out]


#: The real-agent tests' outcomes of this session, kept when matrix.RESULTS_VAR names a file
#: (tests/realagents/matrix.py: the conformance matrix); None otherwise.
_matrix_log: dict[str, dict[str, Any]] | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _matrix_log
    _matrix_log = {} if os.environ.get(matrix.RESULTS_VAR) else None


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if _matrix_log is not None and "agents" in report.keywords:
        why = report.longreprtext.strip().splitlines()[-1][:300] if report.longreprtext.strip() else ""
        matrix.record(_matrix_log, report.nodeid, report.when, report.outcome, report.duration, why)


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = os.environ.get(matrix.RESULTS_VAR)
    if _matrix_log is None or not path or not _matrix_log:
        return
    config = session.config
    warm = config.getoption("--warm") or os.environ.get(WARM_VAR) == "1"
    native = config.getoption("--native") or os.environ.get(NATIVE_VAR) == "1"
    matrix.save(Path(path), "warm" if warm and native else "warm-only" if warm else "native" if native else "cold",
                _matrix_log)


@pytest.fixture(autouse=True)
def matrix_served(request: pytest.FixtureRequest, warm_session: WarmRunner | None) -> Iterator[None]:
    """Under --warm, when the matrix records: how many runs the resident runner served
    during a real-agent test (none: the test ran cold, and measured no warm cell)."""
    if _matrix_log is None or warm_session is None or request.node.get_closest_marker("agents") is None:
        yield
        return
    before = warm_session.served
    yield
    served = warm_session.served - before
    _matrix_log.setdefault(request.node.nodeid, {"outcome": "passed", "seconds": 0.0})["served"] = served


@pytest.fixture(autouse=True)
def inprocess_starts_no_run(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test marked ``inprocess`` that starts forge-hook-run fails (helpers.installed)."""
    helpers.in_process_test = request.node.get_closest_marker("inprocess") is not None
    yield
    helpers.in_process_test = False


@pytest.fixture(autouse=True)
def no_process_left_behind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail a test that leaves a process alive or a zombie unreaped.

    Every process a test starts inherits a unique mark in its environment, so a
    double-forked or setsid escapee is found wherever it reparented to.
    """
    mark = f"{os.getpid()}:{request.node.nodeid}"
    monkeypatch.setenv(LEAK_VAR, mark)
    yield
    # What a run SIGKILLed dies when the kernel next schedules it (later under load):
    # wait for that, bounded, as helpers.gone() does.
    deadline = time.monotonic() + 30.0
    while True:
        leaked = [p for p in marked_processes(mark) if is_alive(p)]
        zombies = [c for c in psutil.Process().children() if is_zombie(c)]
        if not leaked and not zombies or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for proc in leaked:
        kill_and_reap(proc.pid)
    for zombie in zombies:
        kill_and_reap(zombie.pid)  # reaped here so that one failure does not spill over
    assert not leaked, f"processes left behind: {[(p.pid, cmdline(p)) for p in leaked]}"
    assert not zombies, f"zombies left behind: {[c.pid for c in zombies]}"


#: Where each agent looks for its settings unless told otherwise: forge-hook install must
#: find the agents at their default homes (under the test's HOME), whatever the caller set.
AGENT_HOME_VARS = ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "COPILOT_HOME")


@pytest.fixture
def agents_at_their_default_homes(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in AGENT_HOME_VARS:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def real_agent_test(request: pytest.FixtureRequest, no_process_left_behind: None) -> Iterator[None]:
    """A test marked ``agents`` (a real agent CLI, tests/realagents) finds the agents at
    their default homes, and afterwards what the agent's process group left is reaped
    before the leak check (no_process_left_behind) looks. One also marked ``matrix_only``
    (a cell no guard depends on, kept out of CI's time) is collected only when the
    conformance matrix records (pytest_collection_modifyitems)."""
    if request.node.get_closest_marker("agents") is None:
        yield
        return
    request.getfixturevalue("agents_at_their_default_homes")
    yield
    reap_agent_leftovers()


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, warm_session: WarmRunner | None) -> Path:
    """Config, data and state homes under tmp_path; no FORGE_* from the caller (but the
    warm session's, which points every run at the session's resident runner)."""
    home = tmp_path / "home"
    home.mkdir()
    kept = _WARM_KEPT if warm_session is not None else ()
    for name in list(os.environ):
        if name.startswith("FORGE_") and name != LEAK_VAR and name not in kept:
            monkeypatch.delenv(name)
    for name in ("COLUMNS", "LINES"):  # xdist's workers set them: tables are measured at the default width
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local/state"))
    return home


@pytest.fixture
def project(tmp_path: Path, isolated_home: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root=root, home=isolated_home)


@pytest.fixture
def forge_run(project: Project) -> ForgeRun:
    """``forge_run(event, *args)``: the installed forge-hook-run in the project."""

    def run(event: dict[str, Any] | str | bytes | None, *args: str, cwd: Path | None = None,
            env: dict[str, str] | None = None, timeout: float = 60) -> Run:
        stdin = json.dumps(event) if isinstance(event, dict) else event
        return run_installed(list(args), cwd=cwd or project.root, stdin=stdin, env=env, timeout=timeout)

    return run
