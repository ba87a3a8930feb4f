"""look.py: what /proc says about processes, and the fallbacks where it says less."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from forge_hookd.run import proctable as look
from helpers import gone
from forge_hookd.run.proctable import Look

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess


def test_direct_children_fall_back_to_psutil_without_proc_task(monkeypatch: pytest.MonkeyPatch) -> None:
    child = subprocess.Popen(["sleep", "300"])
    try:
        assert child.pid in look.direct_children()
        real_listdir = os.listdir

        def no_task(path: str) -> list[str]:
            if path == "/proc/self/task":
                raise PermissionError(path)
            return real_listdir(path)

        monkeypatch.setattr(os, "listdir", no_task)
        assert child.pid in look.direct_children()
    finally:
        child.kill()
        child.wait()


@pytest.fixture
def small_tree(tmp_path: Path) -> Iterator[tuple[int, set[int]]]:
    """A shell with two children, one of which has a child: (shell, its descendants)."""
    script = (f"sleep 300 & echo $! >> {tmp_path}/pids; "
              f"sh -c 'sleep 300 & echo $! >> {tmp_path}/pids; wait' & echo $! >> {tmp_path}/pids; "
              f"while [ $(wc -l < {tmp_path}/pids) -lt 3 ]; do sleep 0.01; done; echo ready; wait")
    shell = subprocess.Popen(["sh", "-c", script], stdout=subprocess.PIPE, start_new_session=True)
    assert shell.stdout is not None and shell.stdout.readline() == b"ready\n"
    below = {int(p) for p in (tmp_path / "pids").read_text().split()}
    try:
        yield shell.pid, below
    finally:
        os.killpg(shell.pid, 9)
        shell.wait()
        shell.stdout.close()
        assert gone(*below)  # dead: reparented to us if an earlier test made us a subreaper
        for pid in below:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def test_a_look_finds_every_descendant_once(small_tree: tuple[int, set[int]]) -> None:
    shell, below = small_tree
    found = Look().descendants([shell, shell])
    assert sorted(found) == sorted({shell} | below)
    assert set(Look().descendants([shell], leave_out=shell)) == below
    assert Look().ids(shell) == (shell, shell)  # it leads its own session and group


def test_without_children_files_a_look_falls_back_to_one_psutil_scan(small_tree: tuple[int, set[int]],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    shell, below = small_tree
    monkeypatch.setattr(look, "_CHILDREN", "no-such-file")  # as on a kernel without CONFIG_PROC_CHILDREN
    scans: list[int] = []
    real = look._parents_map

    def counted() -> dict[int, list[int]]:
        scans.append(1)
        return real()

    monkeypatch.setattr(look, "_parents_map", counted)
    assert set(Look().descendants([shell], leave_out=shell)) == below
    assert scans == [1]  # once per look, not once per process


def test_a_gone_process_has_no_children_and_no_ids() -> None:
    proc = subprocess.Popen(["true"])
    proc.wait()
    assert Look().children(proc.pid) == [] and Look().ids(proc.pid) == (0, 0)
