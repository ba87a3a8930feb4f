"""install.sh, the README's first command, for real: into a prefix under tmp_path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def install(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    return subprocess.run([str(ROOT / "install.sh"), "--python", sys.executable, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, env=env)


def test_install_is_idempotent_and_uninstalls(tmp_path: Path, isolated_home: Path) -> None:
    prefix = tmp_path / "prefix"
    first = install("--prefix", str(prefix), home=isolated_home)
    assert first.returncode == 0, first.stderr
    assert f"uninstall:   ./install.sh --uninstall --prefix {prefix}" in first.stdout
    assert f"note: {prefix}/bin is not on your PATH" in first.stdout
    for name in ("forge-hook-run", "forge-hook"):
        assert (prefix / "bin" / name).is_symlink()
        assert (prefix / "share/man/man1" / f"{name}.1").read_text() == (ROOT / "man" / f"{name}.1").read_text()
    run = subprocess.run([str(prefix / "bin/forge-hook-run"), "--event", "session:start"], capture_output=True,
                         text=True, cwd=tmp_path)
    assert run.returncode == 0 and json.loads(run.stdout)["version"] == 1
    assert install("--prefix", str(prefix), home=isolated_home).returncode == 0  # again: an upgrade
    gone = install("--prefix", str(prefix), "--uninstall", home=isolated_home)
    assert gone.returncode == 0
    assert not (prefix / "bin/forge-hook-run").exists() and not (prefix / "lib/forge-hook-run").exists()
    assert not (prefix / "share/man/man1/forge-hook.1").exists()


def test_install_refuses_bad_options_and_old_python(tmp_path: Path, isolated_home: Path) -> None:
    bad = install("--frobnicate", home=isolated_home)
    assert bad.returncode == 2 and "unknown option: --frobnicate" in bad.stderr
    fake = tmp_path / "python3.9"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    old = subprocess.run([str(ROOT / "install.sh"), "--python", str(fake), "--prefix", str(tmp_path / "p")],
                         capture_output=True, text=True)
    assert old.returncode == 1 and "needs Python 3.11 or newer" in old.stderr
    assert "usage: ./install.sh" in install("--help", home=isolated_home).stdout
