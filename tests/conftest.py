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

# Imported here, before any fixture runs, so that the real-agent harness reads the user's
# environment (HOME, XDG_CACHE_HOME, FORGE_AGENT_CACHE: where ~1.1 GB of agent CLIs are
# cached) before isolated_home points HOME into tmp_path.
import tests.agents.harness  # noqa: F401
from helpers import (
    LEAK_VAR,
    ForgeRun,
    Project,
    Run,
    cmdline,
    installed,
    is_alive,
    is_zombie,
    kill_and_reap,
    marked_processes,
    run_installed,
)


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


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Config, data and state homes under tmp_path; no FORGE_* from the caller."""
    home = tmp_path / "home"
    home.mkdir()
    for name in list(os.environ):
        if name.startswith("FORGE_") and name != LEAK_VAR:
            monkeypatch.delenv(name)
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
