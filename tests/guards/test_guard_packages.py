"""package_policy reads the project (issue 31 item 5), through the installed executables:
``npx tsc`` passes where the project depends on typescript (its package.json, its
node_modules/.bin) and asks elsewhere, naming the right package; a write that adds a
dependency to a manifest asks, naming it; one that adds none passes; ``pipx install``
and ``cargo install --git`` ask. What a cloned project plants (a symlink out of it, a
FIFO, broken JSON) is never followed, never a hang, never a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from helpers import Project, Run, run_installed

PACKAGE_JSON = {"name": "web", "scripts": {"build": "tsc -p ."},
                "dependencies": {"react": "^18.2.0"},
                "devDependencies": {"typescript": "^5.4.0", "jest": "^29.7.0", "prisma": "^5.10.0"}}


def guard_test(project: Project, *command: str, cwd: Path | None = None) -> Run:
    where = ["--cwd", str(cwd)] if cwd is not None else []
    return run_installed(["guard", "test", "package_policy", *where, "--", *command], cwd=project.root,
                         prog="forge-hook")


def reason_of(run: Run) -> str:
    return next((line.strip() for line in run.stdout.splitlines() if line.strip().startswith("reason:")), "")


def node_project(root: Path, *, installed: tuple[str, ...] = (), manifest: dict[str, Any] | None = None) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "package.json").write_text(json.dumps(manifest or PACKAGE_JSON, indent=2) + "\n")
    bin_dir = root / "node_modules" / ".bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    for name in installed:
        (bin_dir / name).write_text("#!/bin/sh\n")


# -- running a package: npx and its kin -----------------------------------------------------------
@pytest.mark.parametrize("command", ["npx tsc --noEmit", "npx jest --ci", "npx prisma generate",
                                     "pnpm dlx prisma generate", "yarn dlx jest", "bunx jest", "npm exec -- jest",
                                     "npx -p typescript tsc", "npx typescript@5 --version",
                                     "npx -c 'tsc --noEmit'"])
def test_a_package_the_project_depends_on_and_has_installed_runs(project: Project, command: str) -> None:
    node_project(project.root, installed=("tsc", "tsserver", "jest", "prisma"))
    run = guard_test(project, command)
    assert run.exit_status == 0 and run.stdout.startswith("package_policy: allow"), run.stdout + run.stderr


@pytest.mark.parametrize(("command", "package"), [("npx tsc", "typescript"), ("npx jest", "jest"),
                                                  ("npx prisma generate", "prisma"),
                                                  ("bunx biome check", "@biomejs/biome")])
def test_without_a_manifest_npx_asks_naming_the_package(project: Project, command: str, package: str) -> None:
    run = guard_test(project, command)
    assert run.exit_status == 4, run.stdout + run.stderr
    assert f"of the package {package}, which the project does not depend on" in reason_of(run)
    assert f"npm install -D {package}" in reason_of(run)


def test_a_declared_package_passes_before_it_is_installed_unless_npx_would_fetch_another(project: Project) -> None:
    node_project(project.root)  # declared, nothing installed
    assert guard_test(project, "npx jest").exit_status == 0  # npx fetches jest itself: the declared package
    run = guard_test(project, "npx tsc")  # would fetch the package "tsc", which is not typescript
    assert run.exit_status == 4
    assert "so npx would fetch the package tsc, not typescript" in reason_of(run)


def test_a_package_the_project_does_not_declare_asks(project: Project) -> None:
    node_project(project.root, installed=("tsc",))
    run = guard_test(project, "npx create-foo-app my-app")
    assert run.exit_status == 4 and "of the package create-foo-app, which the project does not" in reason_of(run)
    assert guard_test(project, "pnpm dlx create-vite").exit_status == 4


def test_npx_in_a_workspace_reads_its_own_manifest_and_the_ones_above(project: Project) -> None:
    web = project.root / "packages" / "web"
    web.mkdir(parents=True)
    node_project(web, manifest={"devDependencies": {"vitest": "^1"}})
    node_project(project.root, installed=("jest",), manifest={"devDependencies": {"jest": "^29"}})
    assert guard_test(project, "cd packages/web && npx vitest run").exit_status == 0
    assert guard_test(project, "npx jest", cwd=web).exit_status == 0  # the root's node_modules/.bin
    assert guard_test(project, "npx vitest run").exit_status == 4  # the root does not depend on vitest


def test_what_a_clone_plants_is_not_followed_nor_a_crash(project: Project, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    node_project(outside, installed=("tsc",))
    (project.root / "node_modules").mkdir()
    (project.root / "node_modules" / ".bin").symlink_to(outside / "node_modules" / ".bin")
    (project.root / "package.json").symlink_to(outside / "package.json")
    run = guard_test(project, "npx tsc")
    assert run.exit_status == 4 and "does not depend on" in reason_of(run), run.stdout + run.stderr

    (project.root / "package.json").unlink()
    (project.root / "package.json").write_text('{"devDependencies": {"typescript": ')  # broken JSON
    run = guard_test(project, "npx tsc")
    assert run.exit_status == 4 and "Traceback" not in run.stderr and "does not depend on" in reason_of(run)

    (project.root / "package.json").unlink()
    os.mkfifo(project.root / "package.json")  # no writer: a plain open would block for ever
    run = guard_test(project, "npx tsc")
    assert run.exit_status == 4 and "Traceback" not in run.stderr


@pytest.mark.parametrize(("command", "status"), [("uvx ruff check .", 0), ("uvx --from ruff ruff format", 0),
                                                 ("uvx mypy .", 0), ("uvx cowsay hi", 4)])
def test_uvx_of_a_package_the_python_manifests_declare_runs(project: Project, command: str, status: int) -> None:
    pyproject = '[project]\nname = "app"\n\n[dependency-groups]\ndev = ["Ruff>=0.4"]\n'
    (project.root / "pyproject.toml").write_text(pyproject)
    (project.root / "requirements-dev.txt").write_text("mypy==1.10\n")
    run = guard_test(project, command)
    assert run.exit_status == status, run.stdout + run.stderr


# -- installing a tool: pipx, cargo install ---------------------------------------------------------
@pytest.mark.parametrize(("command", "says"), [
    ("pipx install black", "adds the package black"),
    ("pipx inject black black-macchiato", "adds the packages black, black-macchiato"),
    ("cargo install --git https://github.com/x/ripgrep-fork", "adds the package https://github.com/x/ripgrep-fork"),
    ("cargo install --git https://github.com/x/tools tool", "adds the package tool (from https://github.com/x/tools)"),
    ("npm pkg set dependencies.left-pad=^1.3.0", "adds the package left-pad"),
])
def test_installing_a_tool_or_a_dependency_asks_naming_it(project: Project, command: str, says: str) -> None:
    run = guard_test(project, command)
    assert run.exit_status == 4 and says in reason_of(run), run.stdout


@pytest.mark.parametrize("command", ["cargo install --path .", "pipx install .", "pipx list"])
def test_installing_the_project_itself_passes(project: Project, command: str) -> None:
    assert guard_test(project, command).exit_status == 0


# -- writing a manifest: Claude's Edit, Write and MultiEdit, Codex's patch, the shell ---------------
PYPROJECT = """[project]
name = "app"
dependencies = ["requests>=2.31", "click"]

[project.optional-dependencies]
test = ["pytest"]

[tool.poetry.dependencies]
python = "^3.11"
"""
CARGO = """[package]
name = "app"

[dependencies]
serde = "1"
"""
GO_MOD = """module example.com/app

go 1.22

require (
\tgithub.com/pkg/errors v0.9.1
)
"""


def claude(project: Project, tool: str, tool_input: dict[str, Any]) -> tuple[str | None, str]:
    """The decision and reason Claude Code reads for a PreToolUse of ``tool`` in ``project``."""
    project.write_hooks([{"event": "tool:pre_execute", "guard": "package_policy"}])
    event = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": str(project.root), "tool_name": tool,
             "tool_input": tool_input}
    run = run_installed(["--dialect", "claude"], cwd=project.root, stdin=json.dumps(event))
    assert run.exit_status == 0 and "Traceback" not in run.stderr, run.stderr
    specific = json.loads(run.stdout).get("hookSpecificOutput", {}) if run.stdout.strip() else {}
    return specific.get("permissionDecision"), specific.get("permissionDecisionReason", "")


def edit(project: Project, name: str, text: str, old: str, new: str) -> tuple[str | None, str]:
    (project.root / name).write_text(text)
    return claude(project, "Edit", {"file_path": str(project.root / name), "old_string": old, "new_string": new})


@pytest.mark.parametrize(("name", "text", "old", "new", "added"), [
    ("package.json", json.dumps(PACKAGE_JSON, indent=2), '"react": "^18.2.0"',
     '"react": "^18.2.0",\n    "left-pad": "^1.3.0"', "left-pad"),
    ("requirements-dev.txt", "pytest==8.0\n", "pytest==8.0\n", "pytest==8.0\nHypothesis_Extra>=6\n",
     "hypothesis-extra"),
    ("pyproject.toml", PYPROJECT, '"click"]', '"click", "httpx[http2]>=0.27"]', "httpx"),
    ("pyproject.toml", PYPROJECT, 'python = "^3.11"\n', 'python = "^3.11"\nrich = "^13"\n', "rich"),
    ("Cargo.toml", CARGO, 'serde = "1"\n', 'serde = "1"\ntokio = { version = "1", features = ["full"] }\n',
     "tokio"),
    ("go.mod", GO_MOD, "\tgithub.com/pkg/errors v0.9.1\n",
     "\tgithub.com/pkg/errors v0.9.1\n\tgolang.org/x/sync v0.6.0 // indirect\n", "golang.org/x/sync"),
])
def test_an_edit_that_adds_a_dependency_asks_naming_it(project: Project, name: str, text: str, old: str, new: str,
                                                       added: str) -> None:
    decision, reason = edit(project, name, text, old, new)
    assert decision == "ask" and f"adds {added} to {name}" in reason, reason


@pytest.mark.parametrize(("name", "text", "old", "new"), [
    ("package.json", json.dumps(PACKAGE_JSON, indent=2), '"tsc -p ."', '"tsc -p . && jest"'),  # a script
    ("package.json", json.dumps(PACKAGE_JSON, indent=2), '"^18.2.0"', '"^18.3.1"'),  # a version bump
    ("requirements.txt", "requests==2.31\n", "requests==2.31", "requests==2.32  # security fix"),
    ("pyproject.toml", PYPROJECT, '"pytest"', '"pytest>=8"'),
    ("Cargo.toml", CARGO, 'name = "app"', 'name = "app2"'),
    ("go.mod", GO_MOD, "go 1.22", "go 1.23"),
    ("package.json", json.dumps(PACKAGE_JSON), '"no such text"', '"left-pad": "1"'),  # the edit fails: no effect
])
def test_an_edit_that_adds_no_dependency_passes(project: Project, name: str, text: str, old: str, new: str) -> None:
    assert edit(project, name, text, old, new) == (None, "")


def test_a_write_and_a_multi_edit_are_judged_on_the_file_they_leave(project: Project) -> None:
    target = str(project.root / "package.json")
    decision, reason = claude(project, "Write", {"file_path": target, "content": json.dumps(PACKAGE_JSON)})
    assert decision == "ask" and "adds jest, prisma, react, typescript to package.json" in reason  # a new manifest
    (project.root / "package.json").write_text(json.dumps(PACKAGE_JSON))
    unchanged = json.dumps({**PACKAGE_JSON, "version": "1.0.1"})
    assert claude(project, "Write", {"file_path": target, "content": unchanged}) == (None, "")
    decision, reason = claude(project, "MultiEdit", {"file_path": target, "edits": [
        {"old_string": '"react": "^18.2.0"', "new_string": '"react": "^18.2.0", "zod": "^3"'},
        {"old_string": '"zod": "^3"', "new_string": '"zod": "^3", "axios": "^1"'}]})
    assert decision == "ask" and "adds axios, zod to package.json" in reason


def test_a_manifest_that_cannot_be_read_asks_rather_than_guess(project: Project, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.json"
    outside.write_text(json.dumps(PACKAGE_JSON))
    (project.root / "package.json").symlink_to(outside)
    decision, reason = claude(project, "Edit", {"file_path": str(project.root / "package.json"),
                                                "old_string": "react", "new_string": "preact"})
    assert decision == "ask" and "leads outside the project" in reason and "cannot be seen" in reason


def test_a_codex_patch_that_adds_a_dependency_is_refused_naming_it(project: Project) -> None:
    (project.root / "requirements.txt").write_text("requests==2.31\n")
    project.write_hooks([{"event": "tool:pre_execute", "guard": "package_policy"}])
    patch = "*** Begin Patch\n*** Update File: requirements.txt\n@@\n requests==2.31\n+flask==3.0\n*** End Patch\n"
    event = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": str(project.root), "tool_name": "apply_patch",
             "tool_input": {"command": patch}}
    run = run_installed(["--dialect", "codex"], cwd=project.root, stdin=json.dumps(event))
    specific = json.loads(run.stdout)["hookSpecificOutput"]  # Codex cannot ask here: a person must decide
    assert specific["permissionDecision"] == "deny"
    assert "adds flask to requirements.txt" in specific["permissionDecisionReason"]


@pytest.mark.parametrize(("command", "says"), [
    ("echo 'flask==3.0' >> requirements.txt", "adds flask to requirements.txt"),
    ("cat > go.mod <<'EOF'\nmodule x\n\nrequire github.com/evil/mod v1.0.0\nEOF", "adds github.com/evil/mod to go.mod"),
    ('cd "$APP_DIR" && echo flask >> requirements.txt', "writes the manifest requirements.txt, and what it adds "
     "cannot be seen"),
    ("sed -i 's/\"jest\"/\"left-pad\": \"1\", \"jest\"/' package.json", "adds left-pad to package.json"),  # followed
    ("sed -i -f edit.sed package.json", "writes the manifest package.json, and what it adds cannot be seen"),
    ("perl -pi -e 's/jest/left-pad/' package.json", "writes the manifest package.json, and what it adds cannot be seen"),
    # the in-place switch in a bundle or abbreviated: one reading of it (sed.edits_in_place) for every guard
    ("sed -Ei 's/\"jest\"/\"left-pad\": \"1\", \"jest\"/' package.json", "adds left-pad to package.json"),
    ("gsed --in-plac -f edit.sed package.json", "writes the manifest package.json, and what it adds cannot be seen"),
    ("perl -lpi -e 's/jest/left-pad/' package.json", "writes the manifest package.json, and what it adds cannot be seen"),
])
def test_a_shell_write_of_a_manifest_is_judged_or_asks(project: Project, command: str, says: str) -> None:
    (project.root / "requirements.txt").write_text("requests==2.31\n")
    node_project(project.root)
    decision, reason = claude(project, "Bash", {"command": command})
    assert decision == "ask" and says in reason, reason


def test_a_shell_write_that_adds_nothing_passes(project: Project) -> None:
    (project.root / "requirements.txt").write_text("requests==2.31\n")
    assert claude(project, "Bash", {"command": "echo '# pinned for CVE-2024-0001' >> requirements.txt"}) == (None, "")
    assert claude(project, "Bash", {"command": "cp package.json package.json.bak"}) == (None, "")
    bump = "sed -Ei 's/\"version\": \"1.0.0\"/\"version\": \"1.1.0\"/' package.json"
    assert claude(project, "Bash", {"command": bump}) == (None, "")
