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
                                     "npx -p typescript tsc", "npx typescript@5 --version"])
def test_a_package_the_project_depends_on_and_has_installed_runs(project: Project, command: str) -> None:
    node_project(project.root, installed=("tsc", "tsserver", "jest", "prisma"))
    run = guard_test(project, command)
    assert run.exit_status == 0 and run.stdout.startswith("package_policy: allow"), run.stdout + run.stderr


@pytest.mark.parametrize(("command", "package"), [("npx tsc", "typescript"), ("npx jest", "jest"),
                                                  ("npx prisma generate", "prisma"), ("bunx biome check", "@biomejs/biome")])
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
