"""A payload in another agent's shape (dialects/shapes.py; issue 30, items 6 and 9),
through the installed forge-hook-run: Codex's payload reaching a Cursor command (Codex
migrates Cursor's hooks) and VS Code's agent's reaching Claude's (it reads Claude's
settings) are read as their own agent's and answered in the form it reads; never an
allow because nothing matched, never a refusal of every event. Each test failed on the
code before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import Project, Run, run_installed
from helpers import TESTS

PAYLOADS = TESTS / "realagents" / "payloads"
VSCODE = PAYLOADS / "vscode"
#: VS Code's documented events and the forge type each is read as
VSCODE_EVENTS = {"PreToolUse": "tool:pre_execute", "PostToolUse": "tool:post_execute",
                 "UserPromptSubmit": "user:prompt_submit", "SessionStart": "session:start",
                 "Stop": "agent:stop", "SubagentStart": "agent:subagent_start",
                 "SubagentStop": "agent:subagent_stop", "PreCompact": "session:pre_compact"}
RM_GUARD = {"event": "tool:pre_execute:bash", "guard": "destructive_rm"}


def fixture(path: Path, project: Project, **fields: Any) -> dict[str, Any]:
    payload: dict[str, Any] = json.loads(path.read_text())
    return {**payload, "cwd": str(project.root), **fields}


def fire(value: str, project: Project, payload: dict[str, Any], tmp_path: Path) -> tuple[Run, dict[str, Any]]:
    report = tmp_path / "report.json"
    run = run_installed(["--dialect", value, "--report", str(report)], cwd=project.root, stdin=json.dumps(payload))
    return run, json.loads(report.read_text())


def answer(run: Run) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(run.stdout) if run.stdout.strip() else {}
    return doc


# -- item 9: VS Code's agent reading .claude/settings.json -----------------------------------
def test_the_fixtures_are_the_documented_events() -> None:
    assert {p.stem for p in VSCODE.glob("*.json")} == set(VSCODE_EVENTS)
    for path in VSCODE.glob("*.json"):
        assert "vscode-docs" in json.loads(path.read_text())["_source"]


@pytest.mark.parametrize("event", sorted(VSCODE_EVENTS))
def test_every_documented_vscode_payload_is_read_not_refused(event: str, project: Project, tmp_path: Path) -> None:
    run, report = fire("claude", project, fixture(VSCODE / f"{event}.json", project), tmp_path)
    assert run.exit_status == 0, run.stderr  # before: exit 2, "no 'hook_event_name'", on every event
    assert report["event"]["type"] == VSCODE_EVENTS[event]
    assert report["event"]["session_id"] == "session-identifier"
    assert "error" not in report


def test_vscodes_terminal_tool_is_bash_and_its_guards_deny(project: Project, tmp_path: Path) -> None:
    project.write_hooks([RM_GUARD])
    payload = fixture(VSCODE / "PreToolUse.json", project, tool_name="run_in_terminal",
                      tool_input={"command": "rm -rf ~", "explanation": "clean up", "isBackground": False})
    run, report = fire("claude", project, payload, tmp_path)
    assert report["event"]["tool_name"] == "bash"
    specific = answer(run)["hookSpecificOutput"]
    assert (specific["hookEventName"], specific["permissionDecision"]) == ("PreToolUse", "deny")
    assert "destructive_rm" in specific["permissionDecisionReason"]


def test_vscodes_edit_tools_are_edits(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "tool:pre_execute:edit", "command": "echo 'no edits here' >&2; exit 1"}])
    payload = fixture(VSCODE / "PreToolUse.json", project, tool_name="replace_string_in_file",
                      tool_input={"filePath": "src/main.ts", "oldString": "a", "newString": "b"})
    run, _ = fire("claude", project, payload, tmp_path)
    assert answer(run)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_stop_is_refused_where_vscode_reads_it(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "agent:stop", "command": "echo 'run the tests first' >&2; exit 1"}])
    run, _ = fire("claude", project, fixture(VSCODE / "Stop.json", project), tmp_path)
    doc = answer(run)
    assert doc["hookSpecificOutput"] == {"hookEventName": "Stop", "decision": "block", "reason": "run the tests first"}


def test_a_prompt_is_refused_in_vscodes_common_output(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "user:prompt_submit", "command": "echo 'not that' >&2; exit 1"}])
    run, _ = fire("claude", project, fixture(VSCODE / "UserPromptSubmit.json", project), tmp_path)
    doc = answer(run)
    assert (doc["continue"], doc["stopReason"]) == (False, "not that")


def test_vscode_reading_copilots_hooks_file_is_answered_as_vscode_reads(project: Project, tmp_path: Path) -> None:
    project.write_hooks([RM_GUARD])
    payload = fixture(VSCODE / "PreToolUse.json", project, tool_name="run_in_terminal",
                      tool_input={"command": "rm -rf ~"})
    run, report = fire("copilot:preToolUse", project, payload, tmp_path)
    assert answer(run)["hookSpecificOutput"]["permissionDecision"] == "deny", run.stderr
    assert report["dialect"]["name"] == "claude"


def test_a_claude_payload_stays_claudes(project: Project, tmp_path: Path) -> None:
    run, report = fire("claude", project, fixture(PAYLOADS / "claude" / "PreToolUse.json", project), tmp_path)
    assert report["dialect"]["name"] == "claude" and "reached --dialect" not in run.stderr


# -- item 6: Codex's payload reaching a Cursor command ------------------------------------------
def test_a_codex_payload_reaching_cursor_is_guarded_and_answered_as_codex(project: Project,
                                                                          tmp_path: Path) -> None:
    project.write_hooks([RM_GUARD])
    payload = fixture(PAYLOADS / "codex" / "PreToolUse.json", project, tool_input={"command": "rm -rf ~"})
    run, report = fire("cursor", project, payload, tmp_path)
    assert report["event"]["type"] == "tool:pre_execute"  # before: agent:native, nothing matched, allow
    assert report["dialect"]["name"] == "codex"
    specific = answer(run)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny" and "destructive_rm" in specific["permissionDecisionReason"]
    assert "a codex payload reached --dialect cursor" in run.stderr


def test_an_unreadable_codex_payload_reaching_cursor_is_denied(project: Project, tmp_path: Path) -> None:
    payload = fixture(PAYLOADS / "codex" / "PreToolUse.json", project)
    del payload["tool_input"]
    run = run_installed(["--dialect", "cursor"], cwd=project.root, stdin=json.dumps(payload))
    specific = answer(run)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny" and "tool_input" in specific["permissionDecisionReason"]


def test_a_codex_payload_reaching_claude_is_answered_as_codex(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "tool:pre_execute", "command": """echo '{"decision": "ask"}'"""}])
    run, report = fire("claude", project, fixture(PAYLOADS / "codex" / "PreToolUse.json", project), tmp_path)
    assert report["dialect"]["name"] == "codex"  # Codex has no ask: a deny a person must decide
    assert answer(run)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_cursor_payload_reaching_claude_is_read_as_cursors(project: Project, tmp_path: Path) -> None:
    project.write_hooks([RM_GUARD])
    payload = fixture(PAYLOADS / "cursor" / "beforeShellExecution.json", project, command="rm -rf ~",
                      workspace_roots=[str(project.root)])
    run, report = fire("claude", project, payload, tmp_path)
    assert report["dialect"]["name"] == "cursor"
    assert answer(run)["permission"] == "deny"


def test_an_event_no_agent_fires_stays_the_commanded_agents(project: Project, tmp_path: Path) -> None:
    payload = {"hook_event_name": "SomethingNew", "session_id": "s", "cwd": str(project.root)}
    run, report = fire("claude", project, payload, tmp_path)
    assert run.exit_status == 0 and report["dialect"]["name"] == "claude"
    assert report["event"]["type"] == "agent:native"


@pytest.mark.parametrize(("commanded", "tool", "sender"), [
    ("claude", "run_shell_command", "qwen"), ("claude", "Execute", "droid"), ("claude", "launch-process", "auggie"),
    ("qwen", "Execute", "droid"), ("continue", "run_shell_command", "qwen"),
])
def test_a_family_payload_reaching_another_command_is_told_by_its_tool(commanded: str, tool: str, sender: str,
                                                                       project: Project, tmp_path: Path) -> None:
    """A Claude-compatible agent's payload is Claude's in all but its tool names: read as
    the commanded agent's, its shell tool was a tool nobody mapped, so a hook written
    for bash (a script, not a guard) never matched, and the command ran."""
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "echo 'Blocked: not here'; exit 1"}])
    payload = {"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": tool,
               "tool_input": {"command": "make deploy"}, "cwd": str(project.root)}
    run, report = fire(commanded, project, payload, tmp_path)
    assert answer(run)["hookSpecificOutput"]["permissionDecision"] == "deny", run.stderr
    assert report["event"]["tool_name"] == "bash"
    assert f"a {sender} payload reached --dialect {commanded}" in run.stderr
