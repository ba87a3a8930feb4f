"""Shared fixtures: isolated config homes, the installed executable, the leak check."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest

LEAK_VAR = "FORGE_TEST_LEAK_MARK"
BIN_DIR = Path(sys.executable).parent


def installed(name: str) -> str:
    """The console script installed beside this interpreter (the real executable)."""
    path = shutil.which(name, path=str(BIN_DIR))
    if path is None:
        pytest.fail(f"{name} is not installed in {BIN_DIR}: run pip install -e '.[test]'")
    return path


def marked_processes(mark: str) -> list[psutil.Process]:
    """Every process on the machine whose environment carries ``mark``."""
    found = []
    for proc in psutil.process_iter():
        if proc.pid == os.getpid():
            continue
        try:
            if proc.environ().get(LEAK_VAR) == mark:
                found.append(proc)
        except psutil.Error:
            continue
    return found


@pytest.fixture(autouse=True)
def no_process_left_behind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail a test that leaves a process alive or a zombie unreaped.

    Every process a test starts inherits a unique mark in its environment, so a
    double-forked or setsid escapee is found wherever it reparented to.
    """
    mark = f"{os.getpid()}:{request.node.nodeid}"
    monkeypatch.setenv(LEAK_VAR, mark)
    yield
    deadline = time.monotonic() + 2.0
    while True:
        leaked = [p for p in marked_processes(mark) if _alive(p)]
        zombies = [c for c in psutil.Process().children() if _is_zombie(c)]
        if not leaked and not zombies or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for proc in leaked:
        kill_and_reap(proc.pid)
    for zombie in zombies:
        kill_and_reap(zombie.pid)  # reaped here so that one failure does not spill over
    assert not leaked, f"processes left behind: {[(p.pid, _cmdline(p)) for p in leaked]}"
    assert not zombies, f"zombies left behind: {[c.pid for c in zombies]}"


def _alive(proc: psutil.Process) -> bool:
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _is_zombie(proc: psutil.Process) -> bool:
    try:
        return proc.status() == psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _cmdline(proc: psutil.Process) -> str:
    try:
        return " ".join(proc.cmdline())
    except psutil.Error:
        return "?"


def kill_and_reap(pid: int) -> None:
    """SIGKILL ``pid`` and, when it is our child (we may be a subreaper), reap it."""
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def pid_alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def read_pids(directory: Path) -> dict[str, int]:
    """The pid files hooks wrote (``NAME.pid``), waiting briefly for them to appear."""
    return {p.stem: int(p.read_text().split()[0]) for p in sorted(directory.glob("*.pid"))
            if p.read_text().strip()}


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


@dataclass
class Project:
    """A throwaway project with a .forge/hooks.json of our choosing."""

    root: Path
    home: Path

    @property
    def hooks_file(self) -> Path:
        return self.root / ".forge" / "hooks.json"

    @property
    def global_file(self) -> Path:
        return self.home / ".config" / "forge" / "hooks.json"

    def trust(self) -> None:
        from forge_hookd import trust

        trust.trust(self.hooks_file, self.hooks_file.read_bytes())

    def write_hooks(self, hooks: list[dict[str, Any]], *, where: str = "project", trusted: bool = True) -> Path:
        """Write a hooks file; a project file is also trusted unless ``trusted=False``."""
        from forge_hookd import trust

        path = self.hooks_file if where == "project" else self.global_file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"hooks": hooks}))
        if where == "project" and trusted:
            trust.trust(path, path.read_bytes())
        return path


@pytest.fixture
def project(tmp_path: Path, isolated_home: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root=root, home=isolated_home)


@dataclass
class Run:
    exit_status: int
    stdout: str
    stderr: str

    @property
    def json(self) -> Any:
        assert self.stdout.count("\n") == 1, f"expected one JSON line, got {self.stdout!r}"
        return json.loads(self.stdout)


def run_installed(args: list[str], *, cwd: Path, stdin: bytes | str | None = None,
                  env: dict[str, str] | None = None, timeout: float = 60,
                  prog: str = "forge-hook-run") -> Run:
    """Run the installed executable for real and capture its streams."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    proc = subprocess.run([installed(prog), *args], cwd=cwd, input=data if data is not None else b"",
                          capture_output=True, timeout=timeout, env={**os.environ, **(env or {})})
    return Run(proc.returncode, proc.stdout.decode("utf-8", "replace"),
               proc.stderr.decode("utf-8", "replace"))


@pytest.fixture
def forge_run(project: Project):  # type: ignore[no-untyped-def]
    """``forge_run(event, *args)``: the installed forge-hook-run in the project."""

    def run(event: dict[str, Any] | str | bytes | None, *args: str, **kw: Any) -> Run:
        stdin = json.dumps(event) if isinstance(event, dict) else event
        return run_installed(list(args), cwd=kw.pop("cwd", project.root), stdin=stdin, **kw)

    return run
