"""tree.py: the start-up tricks' fallbacks, and how orphans are attributed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from forge_hookd.run import tree
from forge_hookd.events import TOKEN_VAR
from forge_hookd.run.tree import Orphanage

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

PR_GET_DUMPABLE = 3  # a prctl with no side effect: 1 for an ordinary process


def test_prctl_falls_back_to_ctypes_where_ctypes_internals_differ(monkeypatch: pytest.MonkeyPatch) -> None:
    import _ctypes

    assert tree._prctl(PR_GET_DUMPABLE, 0) == 1
    monkeypatch.delattr(_ctypes, "call_function")  # as on a CPython without it
    assert tree._prctl(PR_GET_DUMPABLE, 0) == 1


def test_prctl_is_minus_one_where_it_cannot_be_called(monkeypatch: pytest.MonkeyPatch) -> None:
    import _ctypes

    monkeypatch.delattr(_ctypes, "call_function")
    monkeypatch.setitem(sys.modules, "ctypes", None)  # no ctypes at all
    assert tree._prctl(PR_GET_DUMPABLE, 0) == -1


def spawn(tmp_path: Path, *, session: bool, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(["sleep", "300"], start_new_session=session, env=env, cwd=tmp_path)


def test_an_orphan_is_attributed_by_session_then_token_else_unknown(tmp_path: Path) -> None:
    shell = spawn(tmp_path, session=True, env={"PATH": os.environ["PATH"]})
    by_token = spawn(tmp_path, session=True, env={"PATH": os.environ["PATH"], TOKEN_VAR: "t1"})
    unknown = spawn(tmp_path, session=True, env={"PATH": os.environ["PATH"], TOKEN_VAR: "forged"})
    try:
        orphanage = Orphanage()
        orphanage.add_hook(shell.pid, "t1")
        assert orphanage.owner(shell.pid) == shell.pid  # its own session
        assert orphanage.owner(by_token.pid) == shell.pid
        assert orphanage.owner(unknown.pid) is None
        assert orphanage.belongs_to(unknown.pid, shell.pid, alone=True)
        assert not orphanage.belongs_to(unknown.pid, shell.pid, alone=False)
    finally:
        for proc in (shell, by_token, unknown):
            proc.kill()
            proc.wait()


def test_children_from_before_the_run_are_not_its_orphans(monkeypatch: pytest.MonkeyPatch) -> None:
    child = subprocess.Popen(["sleep", "300"])
    try:
        monkeypatch.setattr(tree, "_subreaper", True)
        assert child.pid not in Orphanage().orphans()
    finally:
        child.kill()
        child.wait()
