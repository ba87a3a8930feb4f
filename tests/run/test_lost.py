"""Guards the user chose and lost (issue 30, item 3): a global or --config hooks file
that cannot be read or parsed denies every event that can block, naming the file and
the error; one malformed entry of a file that parses denies only the events its pattern
matches; elsewhere a warning the person sees. Through the installed forge-hook-run, in
the forge protocol and in the agents' dialects. Each test failed on the code before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers import ForgeRun, Project, Run, run_installed

PUSH = {"type": "tool:pre_execute", "tool_name": "bash", "data": {"tool_args": {"command": "git push --force"}}}
POST = {"type": "tool:post_execute", "tool_name": "bash", "data": {"tool_args": {"command": "ls"}}}
TRAILING_COMMA = '{"hooks": [\n  {"event": "tool:pre_execute:bash", "guard": "git"},\n]}\n'


def broken_global(project: Project, text: str = TRAILING_COMMA) -> Path:
    path = project.global_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def dialect(name: str, project: Project, payload: dict[str, Any], *args: str) -> Run:
    return run_installed(["--dialect", name, *args], cwd=project.root, stdin=json.dumps(payload))


def claude_pre(project: Project, tool: str = "Bash", tool_input: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": str(project.root), "tool_name": tool,
            "tool_input": tool_input or {"command": "git push --force"}}


# -- a file that cannot be parsed ------------------------------------------------------------
def test_a_trailing_comma_in_the_global_file_denies_a_tool_call_naming_the_file_and_the_error(
        project: Project, forge_run: ForgeRun) -> None:
    path = broken_global(project)
    run = forge_run(PUSH)
    assert run.exit_status == 1, run.stderr  # before: exit 0, git push --force ran
    assert run.json["decision"] == "deny"
    assert run.json["blocked_by"]["source"] == "config"
    reason = run.json["blocked_by"]["reason"]
    assert str(path) in reason and "trailing comma" in reason and "(line " in reason
    assert "fix the file" in reason


def test_the_quiet_forge_protocol_of_a_git_hook_blocks_too(project: Project, forge_run: ForgeRun) -> None:
    broken_global(project)
    run = forge_run(PUSH, "-q")
    assert run.exit_status == 1
    assert run.stdout == ""
    assert "blocked by forge (config)" in run.stderr


def test_an_event_that_cannot_block_proceeds_with_a_message_for_the_person(project: Project,
                                                                          forge_run: ForgeRun) -> None:
    path = broken_global(project)
    run = forge_run(POST)
    assert run.exit_status == 0, run.stderr
    assert run.json["decision"] == "allow"
    assert any(str(path) in m and "trailing comma" in m for m in run.json["messages"])


def test_a_config_file_that_cannot_be_parsed_denies(project: Project, forge_run: ForgeRun, tmp_path: Path) -> None:
    extra = tmp_path / "ci-hooks.json"
    extra.write_text(TRAILING_COMMA)
    run = forge_run(PUSH, "--config", str(extra))
    assert run.exit_status == 1, run.stderr
    assert str(extra) in run.json["reason"]


def test_a_global_file_that_cannot_be_read_denies(project: Project, forge_run: ForgeRun) -> None:
    project.global_file.mkdir(parents=True)  # a directory where the file should be
    run = forge_run(PUSH)
    assert run.exit_status == 1, run.stderr
    assert run.json["blocked_by"]["source"] == "config"
    assert str(project.global_file) in run.json["reason"]


def test_a_missing_or_empty_global_file_loses_nothing(project: Project, forge_run: ForgeRun) -> None:
    assert forge_run(PUSH).exit_status == 0
    broken_global(project, "")
    assert forge_run(PUSH).exit_status == 0


def test_no_global_leaves_the_broken_file_out(project: Project, forge_run: ForgeRun) -> None:
    broken_global(project)
    assert forge_run(PUSH, "--no-global").exit_status == 0


# -- one malformed entry ---------------------------------------------------------------------
def test_one_malformed_entry_denies_only_the_events_its_pattern_matches(project: Project,
                                                                        forge_run: ForgeRun) -> None:
    path = broken_global(project, json.dumps({"hooks": [
        {"event": "tool:pre_execute:bash", "comand": "exit 1"},
        {"event": "tool:pre_execute:read", "command": "exit 0"}]}))
    run = forge_run(PUSH)
    assert run.exit_status == 1, run.stderr
    assert "hooks[0]" in run.json["reason"] and str(path) in run.json["reason"]
    assert "'command'" in run.json["reason"]
    read = forge_run({"type": "tool:pre_execute", "tool_name": "read", "data": {"tool_args": {"file_path": "x"}}})
    assert read.exit_status == 0, read.stderr
    assert any("hooks[0]" in m for m in read.json["messages"])


def test_a_malformed_entry_that_could_never_deny_loses_nothing(project: Project, forge_run: ForgeRun) -> None:
    broken_global(project, json.dumps({"hooks": [{"event": "tool:pre_execute", "comand": "x", "blocking": False}]}))
    assert forge_run(PUSH).exit_status == 0


def test_a_malformed_entry_is_matched_by_the_agents_tool_name_too(project: Project) -> None:
    broken_global(project, json.dumps({"hooks": [{"event": "tool:pre_execute:Bash", "timeout": "soon",
                                                  "command": "exit 1"}]}))
    run = dialect("claude", project, claude_pre(project))
    out = json.loads(run.stdout)["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny"
    assert "hooks[0]" in out["permissionDecisionReason"]
    read = dialect("claude", project, claude_pre(project, "Read", {"file_path": "x"}))
    assert "permissionDecision" not in read.stdout


# -- through the agents' dialects ------------------------------------------------------------
def test_claude_gets_a_deny_on_pre_tool_use_and_a_system_message_after_it(project: Project) -> None:
    path = broken_global(project)
    run = dialect("claude", project, claude_pre(project))
    assert run.exit_status == 0, run.stderr
    out = json.loads(run.stdout)["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny"
    assert str(path) in out["permissionDecisionReason"]
    post = dialect("claude", project, {**claude_pre(project), "hook_event_name": "PostToolUse",
                                       "tool_response": {"stdout": ""}})
    assert "trailing comma" in json.loads(post.stdout)["systemMessage"]


def test_copilot_and_codex_deny_too(project: Project) -> None:
    broken_global(project)
    copilot = dialect("copilot:preToolUse", project, {"sessionId": "s", "cwd": str(project.root), "timestamp": 1,
                                                      "toolName": "bash", "toolArgs": {"command": "ls"}})
    assert json.loads(copilot.stdout)["permissionDecision"] == "deny"
    codex = dialect("codex", project, claude_pre(project))
    assert json.loads(codex.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
