"""The package and its tests are mypy-clean under --strict (pyproject [tool.mypy])."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_package_is_mypy_strict_clean() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_tests_are_mypy_strict_clean() -> None:
    # The same --strict as the package, no relaxation. The test files are top-level
    # modules, in the wings' folders (pyproject puts tests/ on sys.path, so they import
    # helpers and conftest by name): MYPYPATH says so, and tests/realagents is checked
    # through the imports of it.
    files = sorted(str(p.relative_to(ROOT)) for p in [*(ROOT / "tests").glob("*.py"),
                                                       *(ROOT / "tests").glob("*/test_*.py")])
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", *files], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "MYPYPATH": "tests"})
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_all_is_a_literal_naming_every_lazy_export() -> None:
    import forge_hookd

    # mypy reads __all__ statically: it must be spelt out, and name exactly what loads.
    source = (ROOT / "forge_hookd" / "__init__.py").read_text()
    assert "__all__ = [\n" in source and "*_EXPORTS" not in source
    assert sorted(forge_hookd.__all__) == sorted([*forge_hookd._EXPORTS, "__version__"])
    for name in forge_hookd.__all__:
        assert getattr(forge_hookd, name) is not None
