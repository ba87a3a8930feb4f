"""Every native event of every agent runs the forge hooks that ask for it, and "do not
stop yet" is answered in each agent's own form (issue 21; issue 20 item 5), through the
installed forge-hook-run with the payloads recorded from the real CLIs (Cursor's from its
docs): tests/dialects/lifecycle/payloads/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import Project, Run, run_installed
from tests.realagents import codex_schema
from helpers import TESTS


def codex_schema_errors(name: str, instance: Any) -> list[str]:
    return codex_schema.errors(instance, codex_schema.schema(name))

PAYLOADS = TESTS / "dialects" / "lifecycle" / "payloads"

#: payload file -> the forge type it runs the hooks of, and its tool_name (agent:native's
#: is the native event); written out, not derived from the code under test
EXPECTED: dict[str, tuple[str, str | None]] = {
    "claude/Stop.json": ("agent:stop", None),
    "claude/Stop.stop_hook_active.json": ("agent:stop", None),
    "claude/SubagentStart.json": ("agent:subagent_start", None),
    "claude/SubagentStop.json": ("agent:subagent_stop", None),
    "claude/SubagentStop.stop_hook_active.json": ("agent:subagent_stop", None),
    "claude/SubagentStop.compaction.json": ("agent:native", "SubagentStop"),  # /compact's summary agent
    "claude/Notification.json": ("session:notification", None),
    "claude/PreCompact.json": ("session:pre_compact", None),
    "claude/PostCompact.json": ("session:post_compact", None),
    "claude/SessionStart.compact.json": ("session:start", None),
    "claude/Setup.init.json": ("agent:native", "Setup"),
    "claude/Setup.maintenance.json": ("agent:native", "Setup"),
    "claude/PostToolBatch.json": ("agent:native", "PostToolBatch"),
    "claude/MessageDisplay.json": ("agent:native", "MessageDisplay"),
    "claude/InstructionsLoaded.json": ("agent:native", "InstructionsLoaded"),
    "claude/UserPromptExpansion.json": ("agent:native", "UserPromptExpansion"),
    "claude/CwdChanged.json": ("agent:native", "CwdChanged"),
    "claude/WorktreeCreate.json": ("agent:native", "WorktreeCreate"),
    "codex/Stop.json": ("agent:stop", None),
    "codex/Stop.stop_hook_active.json": ("agent:stop", None),
    "codex/SubagentStop.stop_hook_active.json": ("agent:subagent_stop", None),
    "codex/SubagentStart.json": ("agent:subagent_start", None),
    "codex/SubagentStop.json": ("agent:subagent_stop", None),
    "codex/PreCompact.json": ("session:pre_compact", None),
    "codex/PostCompact.json": ("session:post_compact", None),
    "codex/PreModelRequest.json": ("agent:native", "PreModelRequest"),
    "codex/PostModelRequest.json": ("agent:native", "PostModelRequest"),
    "codex/SessionEnd.json": ("session:end", None),
    "gemini/AfterAgent.json": ("agent:stop", None),
    "gemini/AfterAgent.continuation.json": ("agent:stop", None),
    "gemini/PreCompress.json": ("session:pre_compact", None),
    "gemini/Notification.json": ("session:notification", None),
    "gemini/BeforeToolSelection.json": ("agent:native", "BeforeToolSelection"),
    "copilot/agentStop.recorded.json": ("agent:stop", None),
    "copilot/agentStop.continuation.recorded.json": ("agent:stop", None),
    "copilot/agentStop.in-subagent.recorded.json": ("agent:native", "agentStop"),  # the child's own stop
    "copilot/Stop.vscode.recorded.json": ("agent:stop", None),
    "copilot/subagentStart.recorded.json": ("agent:subagent_start", None),
    "copilot/SubagentStart.vscode.recorded.json": ("agent:subagent_start", None),
    "copilot/subagentStop.recorded.json": ("agent:subagent_stop", None),
    "copilot/subagentStop.continuation.recorded.json": ("agent:subagent_stop", None),
    "copilot/SubagentStop.vscode.recorded.json": ("agent:subagent_stop", None),
    "copilot/preCompact.recorded.json": ("session:pre_compact", None),
    "copilot/PreCompact.vscode.recorded.json": ("session:pre_compact", None),
    "copilot/notification.recorded.json": ("session:notification", None),
    "copilot/Notification.vscode.recorded.json": ("session:notification", None),
    "copilot/errorOccurred.recorded.json": ("agent:native", "errorOccurred"),
    "copilot/ErrorOccurred.vscode.recorded.json": ("agent:native", "ErrorOccurred"),
    "copilot/userPromptTransformed.recorded.json": ("agent:native", "userPromptTransformed"),
    "cursor/stop.json": ("agent:stop", None),
    "cursor/stop.followup.json": ("agent:stop", None),
    "cursor/subagentStart.json": ("agent:subagent_start", None),
    "cursor/subagentStop.json": ("agent:subagent_stop", None),
    "cursor/preCompact.json": ("session:pre_compact", None),
    "cursor/afterAgentThought.json": ("agent:native", "afterAgentThought"),
}


def payload_of(file: str, project: Project, **changes: Any) -> dict[str, Any]:
    """The recorded payload, moved into ``project`` (its cwd, Cursor's workspace)."""
    native: dict[str, Any] = json.loads((PAYLOADS / file).read_text())
    native["cwd"] = str(project.root)
    if "workspace_roots" in native:
        native["workspace_roots"] = [str(project.root)]
    native.update(changes)
    return native


def dialect_of(file: str) -> str:
    """``copilot:agentStop`` for a Copilot payload (the camelCase ones, and the PascalCase
    SubagentStart, name no event of their own)."""
    agent, name = file.split("/")
    return f"copilot:{name.split('.')[0]}" if agent == "copilot" else agent


def run(file: str, project: Project, tmp_path: Path, *args: str, env: dict[str, str] | None = None,
        **changes: Any) -> tuple[Run, dict[str, Any]]:
    """forge-hook-run --dialect on the payload; the answer and the forge report."""
    report = tmp_path / "report.json"
    report.unlink(missing_ok=True)
    done = run_installed(["--dialect", dialect_of(file), "--report", str(report), *args], cwd=project.root,
                         stdin=json.dumps(payload_of(file, project, **changes)), env=env)
    return done, json.loads(report.read_text())


def answer(done: Run) -> Any:
    return json.loads(done.stdout) if done.stdout.strip() else None


@pytest.mark.parametrize("file", sorted(EXPECTED))
def test_every_native_event_runs_the_hooks_that_ask_for_it(file: str, project: Project, tmp_path: Path) -> None:
    # On main these answered "no forge event type: no hook runs" (or, for Copilot's child
    # agentStop and Claude's compaction SubagentStop, would have run agent:stop hooks).
    forge_type, tool = EXPECTED[file]
    project.write_hooks([{"event": "*", "command": 'echo "$FORGE_EVENT:${FORGE_TOOL_NAME:-}"'}])
    done, report = run(file, project, tmp_path)
    assert done.exit_status == 0, done.stderr
    assert (report["event"]["type"], report["event"]["tool_name"]) == (forge_type, tool)
    assert [r["stdout"] for r in report["results"]] == [f"{forge_type}:{tool or ''}\n"]


def test_every_recorded_or_documented_lifecycle_payload_is_in_the_table() -> None:
    listed = {f"{p.parent.name}/{p.name}" for p in PAYLOADS.glob("*/*.json")}
    lifecycle = {f for f in listed if not f.split("/")[1].startswith(
        ("PreToolUse", "PostToolUse", "PermissionRequest", "PermissionDenied", "UserPromptSubmit", "SessionStart.json",
         "SessionStart.resume", "SessionEnd", "Interrupt", "BeforeTool.", "AfterTool", "BeforeAgent", "BeforeModel",
         "AfterModel", "SessionStart", "preToolUse", "postToolUse", "permissionRequest", "userPromptSubmitted",
         "sessionStart", "sessionEnd"))}
    assert lifecycle <= set(EXPECTED) | {"codex/SessionStart.compact.json"}


def test_the_lifecycle_data_the_agents_send_reaches_the_hooks(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "*", "command": 'echo "${FORGE_SOURCE:-}${FORGE_TRIGGER:-}'
                                                   '${FORGE_NOTIFICATION_TYPE:-}${FORGE_AGENT_TYPE:-}"'}])
    said = {file: run(file, project, tmp_path)[1]["results"][0]["stdout"].strip()
            for file in ("claude/SessionStart.compact.json", "claude/PreCompact.json", "claude/Notification.json",
                         "codex/SubagentStart.json", "cursor/subagentStart.json", "copilot/subagentStop.recorded.json")}
    assert said == {"claude/SessionStart.compact.json": "compact", "claude/PreCompact.json": "manual",
                    "claude/Notification.json": "permission_prompt", "codex/SubagentStart.json": "default",
                    "cursor/subagentStart.json": "generalPurpose", "copilot/subagentStop.recorded.json": "task"}


# -- "do not stop yet", in each agent's form ----------------------------------------------
REFUSE = {"decision": "deny", "reason": "run the tests first", "context": "pytest -q is the command"}
#: what each agent reads as "keep working", the reason its next instruction (research:
#: verified on Claude 2.1.328, Codex 0.169.0, Gemini 0.61.0, Copilot 1.0.102; Cursor's docs)
KEEP_WORKING = {
    "claude/Stop.json": {"decision": "block", "reason": "run the tests first\npytest -q is the command"},
    "claude/SubagentStop.json": {"decision": "block", "reason": "run the tests first\npytest -q is the command"},
    "codex/Stop.json": {"decision": "block", "reason": "run the tests first\npytest -q is the command"},
    "codex/SubagentStop.json": {"decision": "block", "reason": "run the tests first\npytest -q is the command"},
    "gemini/AfterAgent.json": {"decision": "deny", "reason": "run the tests first\npytest -q is the command"},
    "copilot/agentStop.recorded.json": {"decision": "block", "reason": "run the tests first\npytest -q is the command"},
    "copilot/Stop.vscode.recorded.json": {"decision": "block", "reason": "run the tests first\npytest -q is the command"},
    "copilot/subagentStop.recorded.json": {"decision": "block",
                                           "reason": "run the tests first\npytest -q is the command"},
    "cursor/stop.json": {"followup_message": "run the tests first\npytest -q is the command"},
    "cursor/subagentStop.json": {"followup_message": "run the tests first\npytest -q is the command"},
}
CODEX_SCHEMA = {"codex/Stop.json": "stop", "codex/SubagentStop.json": "subagent-stop"}


@pytest.mark.parametrize("file", sorted(KEEP_WORKING))
def test_a_refused_stop_keeps_the_agent_working_in_its_own_form(file: str, project: Project, tmp_path: Path) -> None:
    forge_type = EXPECTED[file][0]
    project.write_hooks([{"event": forge_type, "command": f"echo '{json.dumps(REFUSE)}'"}])
    done, report = run(file, project, tmp_path)
    assert (done.exit_status, answer(done)) == (0, KEEP_WORKING[file]), done.stderr
    assert report["event"]["data"]["stop_count"] == 0
    if file in CODEX_SCHEMA:  # every answer forge writes for Codex is valid against its schema
        assert codex_schema_errors(f"{CODEX_SCHEMA[file]}.command.output", answer(done)) == []


@pytest.mark.parametrize("file", sorted(KEEP_WORKING))
def test_context_alone_on_a_stop_is_never_sent(file: str, project: Project, tmp_path: Path) -> None:
    # Claude reads additionalContext alone on a Stop as "keep working" (research): context
    # on a stop travels only inside a deny's reason.
    project.write_hooks([{"event": EXPECTED[file][0], "command": 'echo \'{"context": "c"}\''}])
    done, report = run(file, project, tmp_path)
    assert (done.exit_status, answer(done)) == (0, None)
    assert any("context" in d for d in report["dialect"]["dropped"])


@pytest.mark.parametrize("file", ["claude/Stop.json", "codex/Stop.json", "gemini/AfterAgent.json",
                                  "copilot/agentStop.recorded.json", "cursor/stop.json"])
def test_forges_own_failure_never_blocks_a_stop(file: str, project: Project, tmp_path: Path) -> None:
    # --strict with a broken config: forge cannot do its job; on a stop it lets the agent
    # stop (a broken forge must not trap an agent in a loop).
    project.write_hooks([{"event": "agent:stop", "command": "exit 1", "comand": "typo"}])
    done = run_installed(["--dialect", dialect_of(file), "--strict"], cwd=project.root,
                         stdin=json.dumps(payload_of(file, project)))
    assert (done.exit_status, done.stdout) == (0, "") and "comand" in done.stderr


def test_a_stop_refused_for_ever_ends_after_forge_max_continues(project: Project, tmp_path: Path) -> None:
    # Codex has no cap of its own (779 refusals in 300 s, research): forge's is the bound.
    project.write_hooks([{"event": "agent:stop", "command": "echo run the tests first; exit 1"}])
    answers = [answer(run("codex/Stop.json", project, tmp_path, env={"FORGE_MAX_CONTINUES": "3"})[0])
               for _ in range(5)]
    assert [a and a.get("decision") for a in answers] == ["block", "block", "block", None, "block"]
    assert "forge let the agent stop" in answers[3]["systemMessage"]
    assert codex_schema_errors("stop.command.output", answers[3]) == []


def test_an_ask_at_a_stop_lets_the_agent_stop_and_tells_the_person(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "agent:stop", "command": 'echo \'{"decision": "ask", "reason": "review it"}\''}])
    done, _ = run("claude/Stop.json", project, tmp_path)
    assert answer(done) == {"systemMessage": "review it"}


# -- compaction, subagents, notifications ---------------------------------------------------
def test_a_compaction_refused_where_the_agent_allows_it_and_reported_elsewhere(project: Project,
                                                                              tmp_path: Path) -> None:
    project.write_hooks([{"event": "session:pre_compact", "command": "echo keep the context; exit 1"}])
    claude, _ = run("claude/PreCompact.json", project, tmp_path)
    assert answer(claude) == {"decision": "block", "reason": "keep the context"}
    # Codex cannot refuse a compaction (continue:false would abort the whole turn)
    for file in ("codex/PreCompact.json", "gemini/PreCompress.json", "copilot/preCompact.recorded.json",
                 "cursor/preCompact.json"):
        done, report = run(file, project, tmp_path)
        assert (done.exit_status, answer(done)) == (0, None), file
        assert any("decision deny" in d for d in report["dialect"]["dropped"]), file


def test_a_subagent_is_refused_where_the_agent_allows_it(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "agent:subagent_start", "command": "echo not now; exit 1"}])
    cursor, _ = run("cursor/subagentStart.json", project, tmp_path)
    assert answer(cursor) == {"permission": "deny", "user_message": "not now", "agent_message": "not now"}
    for file in ("claude/SubagentStart.json", "codex/SubagentStart.json", "copilot/subagentStart.recorded.json"):
        done, report = run(file, project, tmp_path)
        assert answer(done) is None and report["dialect"]["dropped"], file


def test_context_reaches_a_starting_subagent(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "agent:subagent_start", "command": 'echo \'{"context": "use rg"}\''}])
    assert answer(run("claude/SubagentStart.json", project, tmp_path)[0]) == {
        "hookSpecificOutput": {"hookEventName": "SubagentStart", "additionalContext": "use rg"}}
    codex = answer(run("codex/SubagentStart.json", project, tmp_path)[0])
    assert codex_schema_errors("subagent-start.command.output", codex) == []
    assert answer(run("copilot/subagentStart.recorded.json", project, tmp_path)[0]) == {"additionalContext": "use rg"}


@pytest.mark.parametrize("file", ["claude/Notification.json", "gemini/Notification.json",
                                  "copilot/notification.recorded.json", "claude/PostCompact.json",
                                  "claude/Setup.init.json", "codex/PreModelRequest.json"])
def test_observe_only_and_native_events_report_a_deny_and_never_stop_the_agent(
        file: str, project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "*", "command": "echo no; exit 1"}])
    done, report = run(file, project, tmp_path)
    assert (done.exit_status, answer(done)) == (0, None)
    assert report["decision"] == "deny" and report["dialect"]["dropped"]


def test_worktree_create_gets_no_answer_from_forge(project: Project, tmp_path: Path) -> None:
    # WorktreeCreate's stdout must be the new worktree's path: forge never writes there.
    project.write_hooks([{"event": "*", "command": 'echo \'{"message": "m", "context": "c"}\''}])
    done, _ = run("claude/WorktreeCreate.json", project, tmp_path)
    assert (done.exit_status, done.stdout) == (0, "")


def test_a_session_start_matcher_filters_the_source(project: Project, tmp_path: Path) -> None:
    # issue 21 item 4: "startup|resume|clear|compact" is a filter of the source, not refused.
    project.write_hooks([{"event": "session:start", "format": "claude", "matcher": "compact",
                          "command": 'echo \'{"hookSpecificOutput": {"hookEventName": "SessionStart", '
                                     '"additionalContext": "the rules again"}}\''}])
    compact, _ = run("claude/SessionStart.compact.json", project, tmp_path)
    assert answer(compact)["hookSpecificOutput"]["additionalContext"] == "the rules again"
    resume, report = run("claude/SessionStart.resume.json", project, tmp_path)
    assert answer(resume) is None and report["results"] == []


# -- issue 20 item 5: the event named twice ------------------------------------------------
@pytest.mark.parametrize("named, payload_event", [("preToolUse", "agentStop"), ("preToolUse", "postToolUse")])
def test_an_event_named_otherwise_on_the_command_line_fails_closed(
        named: str, payload_event: str, project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "*", "command": "echo ran >&2"}])
    native = json.loads((PAYLOADS / "copilot" / "agentStop.recorded.json").read_text())
    native.update(hookName=payload_event, cwd=str(project.root))
    done = run_installed([f"--dialect=copilot:{named}"], cwd=project.root, stdin=json.dumps(native))
    assert done.exit_status == 0 and answer(done)["permissionDecision"] == "deny"
    assert "ran" not in done.stderr and payload_event in answer(done)["permissionDecisionReason"]


def test_two_spellings_of_one_event_are_one_event(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "session:notification", "command": "echo seen"}])
    done, report = run("copilot/notification.recorded.json", project, tmp_path)  # names itself Notification
    assert done.exit_status == 0 and report["results"][0]["stdout"] == "seen\n"
