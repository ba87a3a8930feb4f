"""The package and its tests are mypy-clean under --strict (pyproject [tool.mypy])."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_package_and_tests_are_mypy_strict_clean() -> None:
    # `mypy` alone reads pyproject's [tool.mypy]: --strict, the package and the tests, no
    # relaxation for either
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues found in" in proc.stdout


def test_mypy_named_folders_is_the_same_check() -> None:
    # what a contributor types: naming the two folders crawls tests/realagents only through
    # the imports of it (it was once found twice, as realagents and tests.realagents, and
    # mypy stopped before checking anything)
    proc = subprocess.run([sys.executable, "-m", "mypy", "forge_hookd", "tests"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    checked = int(proc.stdout.split("no issues found in ")[1].split()[0])
    assert checked >= len([*(ROOT / "forge_hookd").rglob("*.py"), *(ROOT / "tests").glob("*/test_*.py")])


def test_all_is_a_literal_naming_every_lazy_export() -> None:
    import forge_hookd

    # mypy reads __all__ statically: it must be spelt out, and name exactly what loads.
    source = (ROOT / "forge_hookd" / "__init__.py").read_text()
    assert "__all__ = [\n" in source and "*_EXPORTS" not in source
    assert sorted(forge_hookd.__all__) == sorted([*forge_hookd._EXPORTS, "__version__"])
    for name in forge_hookd.__all__:
        assert getattr(forge_hookd, name) is not None
