"""What the machine refuses, through both installed executables (issue 9): one line on
stderr, exit 5 (SYSTEM_ERROR), never exit 3 or a traceback. The full disk and the
read-only directory are in test_safefile.py."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from helpers import Project, installed

SYSTEM_ERROR = 5
LONG = "d" * 5000


def run(prog: str, args: list[str], cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    return subprocess.run([installed(prog), *args], cwd=cwd, input=stdin.decode(), capture_output=True,
                          text=True, timeout=60)


def deleted_directory(tmp_path: Path) -> Path:
    gone = tmp_path / "gone"
    gone.mkdir()
    return gone


def test_a_deleted_current_directory_is_one_line_exit_5(tmp_path: Path) -> None:
    gone = deleted_directory(tmp_path)
    # The child starts in the directory, which is removed once it is its cwd: a shell
    # does what an agent's terminal does when a checkout is deleted under it.
    script = f'cd {gone} && rmdir {gone} && exec "$@"'
    message = "error: the current directory no longer exists; cd to one that does, or pass --project-root"
    listed = subprocess.run(["sh", "-c", script, "sh", installed("forge-hook"), "list"],
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == SYSTEM_ERROR and listed.stdout == ""
    assert listed.stderr == f"forge-hook: {message}\n"
    gone.mkdir()
    ran = subprocess.run(["sh", "-c", script, "sh", installed("forge-hook-run"), "--event", "session:start"],
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == SYSTEM_ERROR and ran.stderr == f"forge-hook-run: {message}\n"
    assert json.loads(ran.stdout) == {"version": 1, "error": {"kind": "system", "message": message[7:]}}


def test_a_deleted_current_directory_with_a_project_root_still_works(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "session:start", "command": "echo ran"}])
    gone = deleted_directory(tmp_path)
    script = f'cd {gone} && rmdir {gone} && exec "$@"'
    ran = subprocess.run(["sh", "-c", script, "sh", installed("forge-hook-run"), "--event", "session:start",
                          "--project-root", str(project.root)], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["results"][0]["stdout"] == "ran\n"


def test_a_5000_character_working_dir_is_a_finding_of_check(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": "x", "working_dir": LONG}])
    done = run("forge-hook", ["check"], project.root)
    assert done.returncode == 1 and done.stderr == ""  # 1: problems found
    assert done.stdout.splitlines()[0] == (f"{project.hooks_file}: project[0]: working_dir '{'d' * 60}... "
                                           "(5000 characters)' cannot be used: File name too long; the hook cannot start")


def test_a_5000_character_project_root_is_one_line_exit_5(project: Project) -> None:
    done = run("forge-hook", ["--project-root", str(project.root / LONG), "list"], project.root)
    assert done.returncode == SYSTEM_ERROR and done.stdout == ""
    line = done.stderr
    assert line.count("\n") == 1 and "Traceback" not in line
    assert line.startswith(f"forge-hook: error: {project.root}/ddd") and len(line) < 250
    assert line.endswith(f"dd ({len(str(project.root / LONG))} characters): File name too long\n")


def test_an_oserror_that_is_a_bug_stays_exit_3(capsys: pytest.CaptureFixture[str]) -> None:
    """EBADF is our mistake, not the machine's: it stays an internal error."""
    import click

    from forge_hookd.cli.boundary import BoundaryCommand

    @click.command(cls=BoundaryCommand)
    def broken() -> None:
        os.fstat(_closed_descriptor())

    assert broken.main([], prog_name="forge-hook", standalone_mode=False) == 3
    assert capsys.readouterr().err == ("forge-hook: error: unexpected error: OSError: [Errno 9] Bad file "
                                       "descriptor (FORGE_DEBUG=1 shows a traceback)\n")


def _closed_descriptor() -> int:
    fd = os.open(os.devnull, os.O_RDONLY)
    os.close(fd)
    return fd
