"""The conformance matrix (tests/realagents/matrix.py, issue 30 item 13): the committed
docs/conformance.md is what the generator makes from the committed results, no cell of
the last run failed, each "the agent cannot" is what docs/dialects.md says, every test
the matrix names exists, and a pytest run records its real-agent tests' outcomes."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.realagents import matrix
from tests.realagents.harness import PACKAGES

pytestmark = pytest.mark.inprocess  # starts no forge-hook-run


def test_the_committed_doc_is_what_the_generator_makes_from_the_committed_results() -> None:
    assert matrix.RESULTS.exists(), "run: .venv/bin/python -m tests.realagents.matrix"
    assert matrix.DOC.read_text() == matrix.render(matrix.load()), \
        "docs/conformance.md is stale: .venv/bin/python -m tests.realagents.matrix --docs"


def test_no_cell_of_the_last_run_failed() -> None:
    results = matrix.load()
    failed = [(row.key, agent, per_mode) for row in matrix.ROWS for agent in matrix.COLUMNS
              for category, per_mode in [matrix.verdict(row, agent, results)] if category == matrix.FAILED]
    assert failed == []


def test_what_the_agent_cannot_is_what_docs_dialects_says() -> None:
    dialects = (matrix.ROOT / "docs" / "dialects.md").read_text()
    for row in matrix.ROWS:
        for agent, cannot in row.cannot.items():
            assert cannot.doc in dialects, (row.key, agent)


def test_every_test_the_matrix_names_exists() -> None:
    defined: dict[str, set[str]] = {}
    for node in matrix.node_ids():
        path, _, name = node.partition("::")
        if path not in defined:
            tree = ast.parse((matrix.ROOT / path).read_text())
            defined[path] = {f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
        function, _, param = name.partition("[")
        assert function in defined[path], node
        assert param in ("",) or param.rstrip("]") in matrix.COLUMNS, node


def _results(tmp: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"versions": {}, "runs": tmp}


def test_a_cell_is_honoured_only_where_its_test_passed() -> None:
    row = matrix.ROWS[0]
    node = row.tests["claude"][0]
    passed = {"outcome": "passed", "seconds": 1.0, "when": "now"}
    assert matrix.verdict(row, "claude", _results({}))[0] == matrix.NOT_MEASURED
    assert matrix.verdict(row, "claude", _results({"cold": {node: passed}}))[0] == matrix.HONOURED
    assert matrix.verdict(row, "claude", _results({"cold": {node: {**passed, "outcome": "skipped"}}}))[0] \
        == matrix.NOT_MEASURED
    # warm, but the resident runner served none of its runs: no warm cell measured
    category, per_mode = matrix.verdict(row, "claude", _results({"warm": {node: {**passed, "served": 0}}}))
    assert (category, per_mode["warm"]) == (matrix.NOT_MEASURED, "ran cold")
    failed_warm = {"cold": {node: passed}, "warm": {node: {**passed, "outcome": "failed"}}}
    assert matrix.verdict(row, "claude", _results(failed_warm))[0] == matrix.FAILED
    ask = next(r for r in matrix.ROWS if r.key == "ask")
    assert matrix.verdict(ask, "codex", _results({}))[0] == matrix.CANNOT
    assert matrix.verdict(ask, "codex", _results({"cold": {ask.tests["codex"][0]: {**passed, "outcome": "failed"}}}))[0] \
        == matrix.FAILED


def test_a_failure_in_any_phase_fails_the_test() -> None:
    log: dict[str, dict[str, Any]] = {}
    matrix.record(log, "t", "setup", "passed", 0.5, "")
    matrix.record(log, "t", "call", "passed", 2.0, "")
    assert log["t"]["outcome"] == "passed"
    matrix.record(log, "t", "teardown", "failed", 0.1, "processes left behind")
    assert log["t"] == {"outcome": "failed", "seconds": 2.6, "why": "processes left behind"}


@pytest.mark.slow
def test_a_pytest_run_records_its_real_agent_tests(tmp_path: Path) -> None:
    """A real pytest run of one ``agents`` test that needs no agent CLI: its outcome,
    under its mode, merged into the results file with what was there."""
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"runs": {"cold": {"kept": {"outcome": "passed", "seconds": 1, "when": "x"}}}}))
    node = "tests/agents/test_agents_harness.py::test_the_model_server_listens_on_loopback_only"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", node],
                          cwd=matrix.ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, matrix.RESULTS_VAR: str(results)})
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(results.read_text())
    assert doc["runs"]["cold"][node]["outcome"] == "passed"
    assert "kept" in doc["runs"]["cold"]
    assert doc["versions"] == {agent: PACKAGES[agent].version for agent in matrix.COLUMNS}
