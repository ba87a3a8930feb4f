"""Trust covers what a hook runs through a runner (issue 31, item 8), through the
installed forge-hook and forge-hook-run: the makefile of ``make guard``, the script of
``env -C scripts sh guard.sh``, the package script of ``npm run guard``; edited after
``forge-hook trust``, the project is changed. What trust cannot know is said (a loop over
a glob as the glob). Each test failed on the code before."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from helpers import ForgeRun, Project, Run, run_installed

BASH = {"type": "tool:pre_execute", "tool_name": "bash", "data": {"tool_args": {"command": "ls"}}}
MAKEFILE = "guard:\n\t@echo 'guard: no'; exit 1\n"


def forge_hook(project: Project, *args: str) -> Run:
    return run_installed(list(args), cwd=project.root, prog="forge-hook")


def package(root: Path, scripts: dict[str, str], **more: object) -> Path:
    path = root / "package.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"name": "p", "version": "1.0.0", "scripts": scripts, **more}))
    return path


def _make(root: Path) -> tuple[Path, str, str]:
    return _write(root / "Makefile", MAKEFILE), "make guard", "Makefile"


def _make_in(root: Path) -> tuple[Path, str, str]:
    return _write(root / "ci" / "GNUmakefile", MAKEFILE), "make -C ci guard", "ci/GNUmakefile"


def _env_chdir(root: Path) -> tuple[Path, str, str]:
    return _write(root / "scripts" / "guard.sh", "echo 'guard: no'; exit 1\n"), "env -C scripts sh guard.sh", \
        "scripts/guard.sh"


def _npm(root: Path) -> tuple[Path, str, str]:
    return package(root, {"guard": "echo 'guard: no'; exit 1"}), "npm --silent run guard", \
        "package.json#scripts.guard"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


RUNNERS = {"make": _make, "make -C": _make_in, "env -C": _env_chdir, "npm run": _npm}


@pytest.mark.parametrize("runner", list(RUNNERS))
def test_a_runners_input_edited_after_trust_makes_the_project_changed(project: Project, forge_run: ForgeRun,
                                                                     runner: str) -> None:
    if runner.startswith("npm") and shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    edited, command, covered = RUNNERS[runner](project.root)
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": command}], trusted=False)
    trusted = forge_hook(project, "trust")
    assert trusted.exit_status == 0 and f"  {covered}  " in trusted.stdout, trusted.stdout  # before: not covered
    run = forge_run(BASH)
    assert run.exit_status == 1 and [r["hook"]["source"] for r in run.json["results"]] == ["project"], run.stdout
    edited.write_text(edited.read_text().replace("exit 1", "exit 0"))  # a pull switches the guard off
    run = forge_run(BASH)
    assert run.exit_status == 1 and run.json["blocked_by"]["source"] == "trust", run.stdout  # before: 0, allow
    assert f"{covered} changed since the project was trusted" in run.json["reason"]
    assert run.json["results"] == []


def test_a_makefile_that_make_would_pick_first_is_a_change_when_it_appears(project: Project,
                                                                          forge_run: ForgeRun) -> None:
    _make(project.root)
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "make guard"}], trusted=False)
    assert forge_hook(project, "trust").exit_status == 0
    _write(project.root / "GNUmakefile", "guard:\n\t@true\n")  # make reads it before Makefile
    run = forge_run(BASH)
    assert run.exit_status == 1 and "GNUmakefile is new since the project was trusted" in run.json["reason"]


def test_a_package_script_is_covered_by_its_text_and_what_it_names(project: Project, forge_run: ForgeRun) -> None:
    guard = _write(project.root / "scripts" / "guard.sh", "echo 'guard: no'; exit 1\n")
    manifest = package(project.root, {"guard": "sh scripts/guard.sh"})
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "npm run guard"}], trusted=False)
    trusted = forge_hook(project, "trust").stdout
    assert "  package.json#scripts.guard  " in trusted and "  scripts/guard.sh  " in trusted, trusted
    package(project.root, {"guard": "sh scripts/guard.sh"}, dependencies={"left-pad": "1.3.0"})
    run = forge_run(BASH)  # a new dependency is no change: the trusted hook runs
    assert run.exit_status == 1 and [r["hook"]["source"] for r in run.json["results"]] == ["project"], run.stdout
    guard.write_text("exit 0\n")
    run = forge_run(BASH)
    assert run.exit_status == 1 and "scripts/guard.sh changed since" in run.json["reason"]
    guard.write_text("echo 'guard: no'; exit 1\n")
    manifest.write_text(manifest.read_text().replace('"guard"', '"preguard": "exit 0", "guard"'))
    run = forge_run(BASH)  # npm runs preguard before guard
    assert run.exit_status == 1 and "package.json#scripts.guard changed since" in run.json["reason"]


def test_trust_says_what_a_runner_reads_that_it_cannot_know(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": 'make -C "$BUILD" guard'},
                         {"event": "*", "command": 'npm run "$TASK"'},
                         {"event": "*", "command": 'for f in scripts/*.sh; do sh "$f" || exit 2; done'},
                         {"event": "*", "command": 'env -C "$WHERE" sh guard.sh'},
                         {"event": "*", "command": "npm -w api run guard"},
                         {"event": "*", "command": "for f in a.sh b.sh; do sh \"$f\"; done"},
                         {"event": "*", "command": "yarn lint"}], trusted=False)
    said = forge_hook(project, "trust").stdout
    assert "trust cannot see" in said
    for line in ("hooks[0]: make -C $BUILD", "hooks[1]: npm run $TASK", "hooks[2]: scripts/*.sh\n",
                 "hooks[3]: env -C $WHERE", "hooks[4]: npm -w api run guard",
                 "hooks[6]: script lint (no package.json in the project"):
        assert line in said, (line, said)
    assert "$f" not in said and "hooks[5]" not in said  # before: "$f", the loop's variable
    check = forge_hook(project, "check")
    assert check.exit_status == 1 and "'scripts/*.sh'" in check.stdout


def test_a_loop_over_listed_scripts_covers_them(project: Project, forge_run: ForgeRun) -> None:
    second = _write(project.root / "b.sh", "exit 1\n")
    _write(project.root / "a.sh", "exit 0\n")
    loop = 'for f in a.sh b.sh; do sh "$f" || exit 1; done'
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": loop}], trusted=False)
    assert "  b.sh  " in forge_hook(project, "trust").stdout
    second.write_text("exit 0\n")
    run = forge_run(BASH)
    assert run.exit_status == 1 and "b.sh changed since" in run.json["reason"]


def test_a_script_that_runs_scripts_is_followed_and_bounded(project: Project) -> None:
    many = {f"s{i}": " && ".join(f"npm run s{j}" for j in range(100)) for i in range(100)}
    package(project.root, {"check": "npm run guard", "guard": "sh scripts/guard.sh", **many})
    _write(project.root / "scripts" / "guard.sh", "exit 1\n")
    project.write_hooks([{"event": "*", "command": "npm run check"}, {"event": "*", "command": "npm run s0"}],
                        trusted=False)
    said = forge_hook(project, "trust")
    assert said.exit_status == 0, said.stderr
    for covered in ("package.json#scripts.check", "package.json#scripts.guard", "scripts/guard.sh",
                    "package.json#scripts.s63"):
        assert f"  {covered}  " in said.stdout, (covered, said.stdout)
    assert "hooks[1]: script s64 (more than 64 package scripts: the rest are not read)" in said.stdout
    assert "package.json#scripts.s64 " not in said.stdout  # bounded: not 100 x 100 x 100 reads
