"""Under --dialect, a FORGE_* variable that weakens a guard is ignored and said where the
person sees it, unless the user's global hooks file allows it (issue 30 item 5b; DESIGN.md,
"Dialects": the agent's environment is not forge's switchboard). Agents pass variables
from a cloned repository's own files to their hooks (Claude's settings env, Gemini's
.env), so these reach forge-hook-run as if the person had set them. Through the installed
forge-hook-run, with Claude's payloads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import Project, Run, run_installed


def claude(project: Project, env: dict[str, str], *, tool: str = "Bash", command: str = "ls",
           report: Path | None = None) -> Run:
    payload = {"session_id": "s1", "cwd": str(project.root), "hook_event_name": "PreToolUse",
               "tool_name": tool, "tool_input": {"command": command}}
    args = ["--dialect", "claude", *(["--report", str(report)] if report else [])]
    run = run_installed(args, cwd=project.root, stdin=json.dumps(payload), env=env)
    assert "Traceback" not in run.stderr, run.stderr
    return run


def answer(run: Run) -> dict[str, Any]:
    return json.loads(run.stdout) if run.stdout.strip() else {}


def denied(run: Run) -> bool:
    return bool(answer(run).get("hookSpecificOutput", {}).get("permissionDecision") == "deny")


def allow_env(project: Project, *names: str, hooks: list[dict[str, Any]] | None = None) -> None:
    project.global_file.parent.mkdir(parents=True, exist_ok=True)
    project.global_file.write_text(json.dumps({"allow_env": list(names), "hooks": hooks or []}))


def test_an_untrusted_project_stays_untrusted_whatever_the_environment_says(project: Project,
                                                                             tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": f"touch {marker}; exit 2"}], trusted=False)
    report = tmp_path / "report.json"
    run = claude(project, {"FORGE_TRUST_PROJECT": "1"}, report=report)
    assert run.exit_status == 0 and not denied(run) and not marker.exists()  # the clone's hook did not run
    message = answer(run)["systemMessage"]
    assert "FORGE_TRUST_PROJECT='1' is ignored under --dialect: it trusts every project's hooks" in message
    assert f'allow it in {project.global_file}: "allow_env": ["FORGE_TRUST_PROJECT"]' in message
    assert "the project is not trusted" in message  # and trust says so too, as without the variable
    assert any("FORGE_TRUST_PROJECT='1' is ignored" in w for w in json.loads(report.read_text())["warnings"])
    assert "warning: FORGE_TRUST_PROJECT='1' is ignored" in run.stderr
    # The person allows it in the global hooks file: then it trusts, as it says.
    allow_env(project, "FORGE_TRUST_PROJECT")
    run = claude(project, {"FORGE_TRUST_PROJECT": "1"})
    assert denied(run) and marker.exists() and "is ignored" not in run.stdout + run.stderr


def test_the_forge_protocol_still_honours_the_variable(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "exit 2"}], trusted=False)
    run = run_installed(["--event", "tool:pre_execute", "--tool", "bash"], cwd=project.root,
                        env={"FORGE_TRUST_PROJECT": "1"})
    assert run.exit_status == 1 and "is ignored" not in run.stderr


GUARD = {"id": "no-rm", "event": "tool:pre_execute:bash", "command": "echo no rm here >&2; exit 2"}


@pytest.mark.parametrize("name", ["FORGE_SKIP", "FORGE_CONFIG_DIR", "FORGE_PROJECT_DIR"])
def test_a_variable_cannot_take_a_guard_away(project: Project, tmp_path: Path, name: str) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if name == "FORGE_PROJECT_DIR":
        project.write_hooks([GUARD])  # trusted: the person's own project guard
    else:
        allow_env(project, hooks=[GUARD])  # the person's global guard
    # FORGE_CONFIG_DIR's own file cannot allow the variable that chose it.
    (elsewhere / "hooks.json").write_text(json.dumps({"allow_env": ["FORGE_CONFIG_DIR"], "hooks": []}))
    value = {"FORGE_SKIP": "no-rm", "FORGE_CONFIG_DIR": str(elsewhere), "FORGE_PROJECT_DIR": str(elsewhere)}[name]
    run = claude(project, {name: value})
    assert denied(run), run.stdout + run.stderr
    assert f"{name}={value!r} is ignored under --dialect" in answer(run)["systemMessage"]
    allow_env(project, name, hooks=[] if name == "FORGE_PROJECT_DIR" else [GUARD])
    run = claude(project, {name: value})
    assert not denied(run) and "is ignored" not in run.stdout + run.stderr


def test_a_variable_cannot_hide_the_run_from_the_log(project: Project, tmp_path: Path) -> None:
    log = project.home / ".local/state/forge/runs.jsonl"
    elsewhere = tmp_path / "not-the-log"
    run = claude(project, {"FORGE_LOG": "0", "FORGE_LOG_FILE": str(elsewhere)})
    message = answer(run)["systemMessage"]
    assert "FORGE_LOG='0' is ignored" in message and f"FORGE_LOG_FILE={str(elsewhere)!r} is ignored" in message
    assert log.exists() and not elsewhere.exists()


def test_a_variable_that_weakens_nothing_passes_in_silence(project: Project) -> None:
    run = claude(project, {"FORGE_TRUST_PROJECT": "0", "FORGE_SKIP": " , ", "FORGE_LOG": "1",
                           "FORGE_REQUIRE_TRUST": "1"})
    assert run.exit_status == 0 and run.stdout == "" and "is ignored" not in run.stderr
