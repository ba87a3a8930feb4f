"""A blocking hook whose script is gone fails, whatever its exit status (missing.py;
issue 20, item 3), in every format and natively, through the installed forge-hook-run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import ForgeRun, Project, run_installed
from forge_hookd.shell.scripts import script_words

FORMATS = [None, "claude", "codex", "gemini", "cursor", "copilot"]
BASH = {"type": "tool:pre_execute", "tool_name": "bash", "session_id": "s1",
        "data": {"tool_args": {"command": "rm -rf /"}}}
# The command, and the path its reason names. Each exits 1, 2 or 127 (or 0): a status
# that some agent reads as "proceed".
GONE = [("node .claude/hooks/guard.js", ".claude/hooks/guard.js"),
        ("python3 .forge/x.py", ".forge/x.py"),
        ("bash scripts/gone.sh", "scripts/gone.sh"),
        ('"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh', "{root}/.claude/hooks/x.sh"),
        ("python3 .forge/x.py || true", ".forge/x.py"),
        ("cd .claude/hooks && node guard.js", ".claude/hooks/guard.js"),
        ("python3 -m forge_missing_module_xyz", "python3 -m forge_missing_module_xyz")]


def entry(command: str, fmt: str | None, **extra: Any) -> dict[str, Any]:
    return {"event": "tool:pre_execute:bash", "command": command, **({"format": fmt} if fmt else {}), **extra}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(("command", "named"), GONE)
def test_a_blocking_hook_whose_script_is_gone_denies(project: Project, forge_run: ForgeRun, fmt: str | None,
                                                     command: str, named: str) -> None:
    """Before: a format hook's exit 1 was "proceed" in every agent's rules (and || true
    hid it from forge's): the guard was off."""
    project.write_hooks([entry(command, fmt), entry("echo never", None)])
    run = forge_run(BASH, env={"CLAUDE_PROJECT_DIR": str(project.root)})  # as Claude gives forge-hook-run
    first = run.json["results"][0]
    assert run.exit_status == 1 and run.json["decision"] == "deny" and run.json["skipped"] == [1], run
    assert first["error"].startswith(f"script missing: {named.format(root=project.root)}")
    assert run.json["reason"] == first["error"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_same_hooks_with_their_scripts_present_run_as_before(project: Project, forge_run: ForgeRun,
                                                                fmt: str | None) -> None:
    for path in (".claude/hooks/guard.js", ".forge/x.py", "scripts/gone.sh", ".claude/hooks/x.sh"):
        (project.root / path).parent.mkdir(parents=True, exist_ok=True)
        (project.root / path).write_text("")
    (project.root / ".claude/hooks/x.sh").chmod(0o755)
    project.write_hooks([entry(command, fmt) for command, _ in GONE[:-1]])
    run = forge_run(BASH, env={"CLAUDE_PROJECT_DIR": str(project.root)})
    assert run.exit_status == 0 and run.json["decision"] == "allow", run
    assert all(r["error"] is None for r in run.json["results"])


def test_what_the_rule_leaves_alone(project: Project, forge_run: ForgeRun, tmp_path: Path) -> None:
    """An observer, a script the command tests for first, a file outside the project, an
    unknown variable, a module the interpreter finds, arguments that are not scripts."""
    project.write_hooks([entry("node gone.js", "claude", blocking=False),
                         entry("[ -f .forge/opt.sh ] && sh .forge/opt.sh; exit 0", None),
                         entry(f"python3 {tmp_path}/elsewhere.py || true", None),
                         entry('"$SOMEWHERE"/x.sh || true', None),
                         entry("python3 -m json.tool < /dev/null > /dev/null || true", None),
                         entry("echo out/report.txt; jq --version >/dev/null 2>&1 || true", None)])
    run = forge_run(BASH)
    assert run.exit_status == 0 and run.json["decision"] == "allow", run
    assert "script missing" not in json.dumps(run.json["results"])  # an observer never blocks


def test_a_missing_script_denies_through_a_dialect(project: Project) -> None:
    project.write_hooks([entry("node .claude/hooks/guard.js", "claude")])
    payload = {"session_id": "s", "transcript_path": None, "cwd": str(project.root),
               "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}
    run = run_installed(["--dialect", "claude"], cwd=project.root, stdin=json.dumps(payload))
    specific = json.loads(run.stdout)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"].startswith("script missing: .claude/hooks/guard.js")


@pytest.mark.parametrize(("command", "files", "modules"), [
    ("node --require ./setup.js .claude/hooks/guard.js --fast", [("node", ".claude/hooks/guard.js")], []),
    ("python3 -W ignore -u x.py arg.txt", [("python3", "x.py")], []),
    ("bash -e scripts/a.sh", [("bash", "scripts/a.sh")], []),
    ("sh -c 'node gone.js'", [("node", "gone.js")], []),
    ("python3 -c 'print(1)' x.py", [], []),
    ("bash -ec 'ls'", [], []),
    ("env A=1 timeout 5 ./run.sh", [("", "./run.sh")], []),
    (". ./env.sh; source lib", [(".", "./env.sh")], []),
    ("python3 -m pkg.tool", [], [("python3", "pkg.tool")]),
    ("echo a/b.txt | jq .x; git commit -m a/b", [], []),
])
def test_script_words(command: str, files: list[tuple[str, str]], modules: list[tuple[str, str]]) -> None:
    found = script_words(command)
    assert (list(found.files), list(found.modules)) == (files, modules)


@pytest.mark.parametrize(("command", "parsed"), [("./ok.sh", False), ("node ok.js", False),
                                                  ("cd . && python3 ok.py", False), ("./ok.sh || true", True),
                                                  ("./ok.sh; exit 0", True), ("./gone.sh", True)])
def test_a_healthy_run_loads_no_parser(tmp_path: Path, command: str, parsed: bool) -> None:
    """The check costs a run nothing when the hook exited 0 and nothing in its command could
    hide a failing status: the one command ran its script (bench/README.md, "Missing scripts")."""
    for name, text in (("ok.sh", "#!/bin/sh\nexit 0\n"), ("ok.js", ""), ("ok.py", "")):
        (tmp_path / name).write_text(text)
    (tmp_path / "ok.sh").chmod(0o755)
    program = ("import sys; from forge_hookd.run.executor import HookExecutor; from forge_hookd.registry import Hook, "
               "HookRegistry; from forge_hookd.events import HookEvent; "
               f"run = HookExecutor(HookRegistry([Hook('*', {command!r})]), working_dir={str(tmp_path)!r})"
               ".run(HookEvent.session_start('s')); "
               "print(run.decision, 'forge_hookd.shell.commands' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.stdout.split() == ["deny" if command == "./gone.sh" else "allow", str(parsed)], proc.stderr


def test_a_built_in_guard_has_no_script_to_miss(project: Project, forge_run: ForgeRun) -> None:
    """A guard entry has no command (the executor judges it in-process): it is never a
    missing script, beside a command hook whose script is (which still denies)."""
    benign = {**BASH, "data": {"tool_args": {"command": "ls"}}}
    guard = {"event": "tool:pre_execute:bash", "guard": "destructive_rm"}
    project.write_hooks([guard, entry("true", None)])
    run = forge_run(benign)
    assert run.exit_status == 0 and run.json["decision"] == "allow", run
    assert [r["error"] for r in run.json["results"]] == [None, None]
    project.write_hooks([guard, entry("node .claude/hooks/guard.js", None)])
    run = forge_run(benign)
    assert run.exit_status == 1 and run.json["blocked_by"]["index"] == 1, run
    assert run.json["results"][0]["error"] is None
    assert run.json["results"][1]["error"].startswith("script missing: .claude/hooks/guard.js")


def test_a_script_behind_env_chdir_is_looked_for_where_env_moves(project: Project, forge_run: ForgeRun) -> None:
    """Before: ``env -C scripts sh guard.sh`` looked for guard.sh in the project root, so
    a guard that denied was reported as a missing script (issue 31, item 8)."""
    (project.root / "scripts").mkdir()
    (project.root / "scripts" / "guard.sh").write_text("echo 'guard: no' >&2; exit 2\n")
    project.write_hooks([entry("env -C scripts sh guard.sh", None)])
    run = forge_run(BASH)
    assert run.exit_status == 1 and run.json["results"][0]["error"] is None, run.stdout
    assert run.json["reason"] == "guard: no"
    assert script_words("env --chdir=scripts sh gone.sh").files == (("sh", "scripts/gone.sh"),)
