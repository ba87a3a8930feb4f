"""``forge-hook-run --dialect NAME`` end to end, through the installed executable
(dialectcodec.py): native payloads in, native answers out, failures fail closed."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import Project, Run, run_installed
from helpers import TESTS

HERE = TESTS
PAYLOADS = HERE / "dialects" / "payloads"
VALIDATOR = HERE / "dialects" / "bash_command_validator.py"
PRE_TOOL = {"claude": "claude_pre_tool_use", "codex": "codex_pre_tool_use", "gemini": "gemini_before_tool"}


def native(name: str, project: Project, **changes: Any) -> dict[str, Any]:
    """A recorded-shape pre-tool payload of ``name``, run in ``project``."""
    payload: dict[str, Any] = json.loads((PAYLOADS / f"{PRE_TOOL[name]}.json").read_text())
    payload["cwd"] = str(project.root)
    command = changes.pop("command", None)
    if command is not None:
        payload["tool_input"] = {**payload["tool_input"], "command": command}
    payload.update(changes)
    return payload


def dialect_run(name: str, payload: dict[str, Any] | bytes, project: Project, *args: str,
                cwd: Path | None = None) -> Run:
    stdin = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return run_installed(["--dialect", name, *args], cwd=cwd or project.root, stdin=stdin)


def denial(name: str, run: Run) -> str | None:
    """The reason the agent reads from this answer, or None when it is no deny."""
    if name == "gemini":
        doc = json.loads(run.stdout) if run.stdout.strip() else {}
        return doc.get("reason") if doc.get("decision") == "deny" else None
    if run.exit_status == 2:
        return run.stderr
    doc = json.loads(run.stdout) if run.stdout.strip() else {}
    specific = doc.get("hookSpecificOutput", {})
    return specific.get("permissionDecisionReason") if specific.get("permissionDecision") == "deny" else None


GUARD = {"event": "tool:pre_execute:bash",
         "command": "grep -q 'rm -rf' && { echo 'forge says: no rm -rf'; exit 1; } || exit 0"}


@pytest.mark.parametrize("name", sorted(PRE_TOOL))
def test_a_forge_hook_denies_in_the_agents_form(name: str, project: Project) -> None:
    project.write_hooks([GUARD])
    run = dialect_run(name, native(name, project), project)
    assert run.exit_status == 0, run.stderr
    assert denial(name, run) == "forge says: no rm -rf"


@pytest.mark.parametrize("name", sorted(PRE_TOOL))
def test_no_objection_answers_no_decision(name: str, project: Project) -> None:
    project.write_hooks([GUARD])
    run = dialect_run(name, native(name, project, command="ls"), project)
    assert (run.exit_status, run.stdout) == (0, "")


def test_the_project_root_is_found_from_the_payloads_cwd(project: Project, tmp_path: Path) -> None:
    project.write_hooks([GUARD])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = dialect_run("claude", native("claude", project), project, cwd=elsewhere)
    assert denial("claude", run) == "forge says: no rm -rf"


def test_report_holds_the_forge_document_and_what_the_agent_was_told(project: Project, tmp_path: Path) -> None:
    project.write_hooks([GUARD])
    report = tmp_path / "report.json"
    run = dialect_run("codex", native("codex", project), project, "--report", str(report))
    doc = json.loads(report.read_text())
    assert doc["blocked"] is True and doc["event"]["tool_name"] == "bash"
    assert doc["event"]["data"]["agent"]["name"] == "codex"
    assert doc["dialect"]["event"] == "PreToolUse" and doc["dialect"]["stdout"] == run.stdout


@pytest.mark.parametrize("name", sorted(PRE_TOOL))
def test_an_unreadable_payload_denies(name: str, project: Project) -> None:
    run = dialect_run(name, b"{this is not json", project)
    assert run.exit_status == 2 and run.stdout == ""
    assert "not valid JSON" in run.stderr


@pytest.mark.parametrize("name", sorted(PRE_TOOL))
def test_a_strict_config_error_denies_a_tool_call(name: str, project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "true", "comand": "x"}])
    run = dialect_run(name, native(name, project, command="ls"), project, "--strict")
    assert "comand" in (denial(name, run) or ""), run


def test_a_strict_config_error_on_an_event_that_cannot_block_proceeds(project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "true", "comand": "x"}])
    payload = json.loads((PAYLOADS / "claude_post_tool_use.json").read_text())
    run = dialect_run("claude", {**payload, "cwd": str(project.root)}, project, "--strict")
    assert (run.exit_status, run.stdout) == (0, "")
    assert "comand" in run.stderr and "proceeds" in run.stderr


@pytest.mark.parametrize("name", sorted(PRE_TOOL))
def test_a_bad_option_beside_dialect_is_answered_as_a_deny_not_forge_json(name: str, project: Project,
                                                                          tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    run = dialect_run(name, native(name, project), project, f"--report={report}", "--no-such-option")
    assert run.exit_status == 2 and run.stdout == ""  # Gemini would read forge JSON as allow
    assert json.loads(report.read_text())["error"]["kind"] == "usage"


def test_every_native_event_runs_the_hooks_that_ask_for_it(project: Project) -> None:
    # issue 21: Claude's Stop is agent:stop (a forge hook's refusal keeps it working);
    # Setup, which forge has no type for, is agent:native:Setup (before: no hook ran)
    project.write_hooks([{"event": "agent:stop", "command": "echo run the tests first; exit 1"},
                         {"event": "agent:native:Setup", "command": "echo setup >&2"}])
    run = dialect_run("claude", {"hook_event_name": "Stop", "session_id": "s", "cwd": str(project.root)}, project)
    assert (run.exit_status, json.loads(run.stdout)) == (0, {"decision": "block", "reason": "run the tests first"})
    report = project.root / "setup.json"
    setup = dialect_run("claude", {"hook_event_name": "Setup", "session_id": "s", "trigger": "init",
                                   "cwd": str(project.root)}, project, "--report", str(report))
    assert (setup.exit_status, setup.stdout) == (0, "")
    doc = json.loads(report.read_text())
    assert (doc["event"]["type"], doc["event"]["tool_name"]) == ("agent:native", "Setup")
    assert [r["stderr"] for r in doc["results"]] == ["setup\n"]


def test_an_unknown_dialect_is_a_deny(project: Project) -> None:
    run = dialect_run("cursorx", b"{}", project)
    assert run.exit_status == 2 and run.stdout == "" and "unknown dialect" in run.stderr


@pytest.mark.parametrize("name", sorted(PRE_TOOL))
def test_print_config_prints_the_agents_snippet(name: str, project: Project) -> None:
    run = run_installed(["--dialect", name, "--print-config"], cwd=project.root)
    assert run.exit_status == 0
    snippet = json.loads(run.stdout)
    commands = {h["command"] for groups in snippet["hooks"].values() for g in groups for h in g["hooks"]}
    # what install writes into a project: it fails closed where forge-hook-run is missing
    # or cannot start (the bare command's 127 read as "proceed" by Claude and Codex)
    assert {c.rpartition("; ")[2] for c in commands} == {f"forge_run forge-hook-run --dialect {name}"}
    assert all(c.startswith("forge_run() {") for c in commands)
    # issue 21: the turn's end and the rest of the lifecycle are events forge handles
    lifecycle = {"claude": {"Stop", "SubagentStart", "SubagentStop", "Notification", "PreCompact", "PostCompact"},
                 "codex": {"Stop", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact"},
                 "gemini": {"AfterAgent", "PreCompress", "Notification"}}[name]
    assert lifecycle <= set(snippet["hooks"])


@pytest.mark.parametrize("name", sorted(PRE_TOOL))
def test_claudes_own_example_hook_guards_every_agent(name: str, project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "format": "claude",
                          "command": f"{sys.executable} {VALIDATOR}"}])
    run = dialect_run(name, native(name, project, command="grep -r foo ."), project)
    assert "Use 'rg' (ripgrep) instead of 'grep'" in (denial(name, run) or ""), run
    run = dialect_run(name, native(name, project, command="rg foo"), project)
    assert (run.exit_status, run.stdout) == (0, "")


def test_a_format_hook_gets_the_agents_variables(project: Project, tmp_path: Path) -> None:
    out = tmp_path / "env.txt"
    project.write_hooks([{"event": "tool:pre_execute:bash", "format": "gemini",
                          "command": f'echo "$GEMINI_PROJECT_DIR $CLAUDE_PROJECT_DIR" > {out}'}])
    dialect_run("claude", native("claude", project, command="ls"), project)
    assert out.read_text().split() == [str(project.root), str(project.root)]


def answering(answer: dict[str, Any]) -> dict[str, Any]:
    """A forge hook on bash that prints ``answer``."""
    return {"event": "tool:pre_execute:bash", "command": f"echo '{json.dumps(answer)}'"}


@pytest.mark.parametrize("name", sorted(PRE_TOOL))
def test_only_an_explicit_allow_becomes_the_agents_allow(name: str, project: Project) -> None:
    project.write_hooks([answering({"decision": "allow", "reason": "known safe"})])
    run = dialect_run(name, native(name, project, command="ls"), project)
    doc = json.loads(run.stdout) if run.stdout else None
    expected = {"claude": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                                  "permissionDecisionReason": "known safe"}},
                "codex": None,  # Codex has no allow without a rewrite: its own rules apply
                "gemini": {"decision": "allow", "reason": "known safe"}}[name]
    assert doc == expected


@pytest.mark.parametrize("name, expected", [
    ("claude", ("ask", "touches prod")),
    ("codex", ("deny", "a person must decide (this agent cannot ask here): touches prod")),
    ("gemini", ("deny", "a person must decide (this agent cannot ask here): touches prod")),  # gemini -p hangs
])
def test_ask_is_asked_where_the_agent_can_and_denied_where_it_cannot(name: str, expected: tuple[str, str],
                                                                      project: Project) -> None:
    project.write_hooks([answering({"decision": "ask", "reason": "touches prod"})])
    doc = json.loads(dialect_run(name, native(name, project, command="ls"), project).stdout)
    if name == "gemini":
        assert (doc["decision"], doc["reason"]) == expected
    else:
        specific = doc["hookSpecificOutput"]
        assert (specific["permissionDecision"], specific["permissionDecisionReason"]) == expected


@pytest.mark.parametrize("name", sorted(PRE_TOOL))
def test_a_rewrite_is_sent_as_the_whole_tool_input(name: str, project: Project) -> None:
    project.write_hooks([answering({"data": {"tool_args": {"command": "ls --color=never"}}})])
    payload = native(name, project, command="ls")
    doc = json.loads(dialect_run(name, payload, project).stdout)
    whole = {**payload["tool_input"], "command": "ls --color=never"}
    if name == "gemini":
        assert doc["hookSpecificOutput"]["tool_input"] == whole
    else:
        assert doc["hookSpecificOutput"]["updatedInput"] == whole
        assert doc["hookSpecificOutput"].get("permissionDecision") == ("allow" if name == "codex" else None)


def test_context_and_messages_reach_claude(project: Project) -> None:
    project.write_hooks([answering({"context": "repo is frozen", "message": "forge checked this"})])
    doc = json.loads(dialect_run("claude", native("claude", project, command="ls"), project).stdout)
    assert doc == {"systemMessage": "forge checked this",
                   "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "repo is frozen"}}


@pytest.mark.parametrize("name", sorted(PRE_TOOL))
def test_a_format_hook_that_cannot_start_denies(name: str, project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "format": "claude",
                          "command": "./hooks/deleted-guard.sh"}])
    reason = denial(name, dialect_run(name, native(name, project, command="ls"), project))
    assert reason is not None and "deleted-guard.sh" in reason


def test_a_format_hook_observer_that_cannot_start_does_not_deny(project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "format": "claude", "blocking": False,
                          "command": "./hooks/deleted-guard.sh"}])
    run = dialect_run("claude", native("claude", project, command="ls"), project)
    assert (run.exit_status, run.stdout) == (0, "")


def test_a_format_hook_that_times_out_denies(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "format": "gemini", "timeout": 0.2,
                          "command": "exec sleep 30"}])
    reason = denial("codex", dialect_run("codex", native("codex", project, command="ls"), project))
    assert reason is not None and "timed out" in reason


def test_a_claude_format_exit_1_is_a_non_blocking_error_as_in_claude(project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "format": "claude", "command": "echo oops >&2; exit 1"}])
    run = dialect_run("gemini", native("gemini", project, command="ls"), project)
    assert run.exit_status == 0
    assert json.loads(run.stdout) == {"systemMessage": "claude hook exited 1: oops"}  # no decision


def test_a_claude_format_json_answer_is_read_by_claudes_rules_under_another_dialect(project: Project) -> None:
    answer = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                     "permissionDecisionReason": "claude-style no"}}
    project.write_hooks([{"event": "tool:pre_execute:bash", "format": "claude",
                          "command": f"cat >/dev/null; echo '{json.dumps(answer)}'"}])
    assert denial("gemini", dialect_run("gemini", native("gemini", project, command="ls"), project)) == "claude-style no"


# -- in-process, through click's runner (STYLE 21) -------------------------------------
def invoke(args: list[str], stdin: bytes, project: Project) -> tuple[int, bytes, str]:
    from click.testing import CliRunner

    from forge_hookd.cli.run import forge_hook_run

    result = CliRunner().invoke(forge_hook_run, ["--project-root", str(project.root), *args], input=stdin)
    return result.exit_code, result.stdout_bytes, result.stderr


def test_in_process_deny_report_and_no_decision(project: Project, tmp_path: Path) -> None:
    project.write_hooks([GUARD])
    report = tmp_path / "r.json"
    code, out, _ = invoke(["--dialect", "gemini", "--report", str(report)],
                          json.dumps(native("gemini", project)).encode(), project)
    assert (code, json.loads(out)) == (0, {"decision": "deny", "reason": "forge says: no rm -rf"})
    assert json.loads(report.read_text())["dialect"]["name"] == "gemini"
    code, out, _ = invoke(["--dialect", "claude"], json.dumps(native("claude", project, command="ls")).encode(),
                          project)
    assert (code, out) == (0, b"")


def test_in_process_failures_answer_in_the_agents_form(project: Project, tmp_path: Path) -> None:
    code, out, err = invoke(["--dialect", "codex"], b'{"hook_event_name": "PreToolUse"}', project)
    doc = json.loads(out)
    assert code == 0 and doc["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "no 'tool_name'" in err
    code, out, err = invoke(["--dialect", "claude"], b'{"hook_event_name": "Notification", "session_id": "s"}',
                            project)
    assert (code, out) == (0, b"") and "no forge event type" not in err
    code, out, err = invoke(["--dialect", "nope"], b"{}", project)
    assert code == 2 and out == b"" and "unknown dialect" in err
    code, out, err = invoke(["--report", str(tmp_path / "r")], b"{}", project)
    assert code == 2 and "go with --dialect" in err
    code, out, err = invoke(["--dialect", "claude", "--pretty"], b"{}", project)
    assert code == 2 and "do not go with --dialect" in err


def test_in_process_print_config(project: Project) -> None:
    code, out, err = invoke(["--dialect", "codex", "--print-config"], b"", project)
    assert code == 0 and "PreToolUse" in json.loads(out)["hooks"] and ".codex/hooks.json" in err


def test_in_process_import(project: Project) -> None:
    from click.testing import CliRunner

    from forge_hookd.cli.manage import forge_hook

    settings = project.root / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"BeforeTool": [
        {"matcher": "write_file|replace", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 1500}]},
        {"matcher": "read_.*", "hooks": [{"type": "command", "command": "./r.sh"}]}],
        "AfterAgent": [{"hooks": [{"type": "command", "command": "./after.sh"}]}]}}))
    result = CliRunner().invoke(forge_hook, ["--project-root", str(project.root), "import", "--from", "gemini",
                                             "--project"])
    assert result.exit_code == 0, result.output
    # Gemini's matchers are unanchored regexes (issue 20 item 6): kept, read its way; its
    # AfterAgent is agent:stop (issue 21); a hook without a timeout gets Gemini's 60 s.
    check, read, after = json.loads(project.hooks_file.read_text())["hooks"]
    assert (check["event"], check["matcher"], check["timeout"]) == ("tool:pre_execute", "write_file|replace", 1.5)
    assert (read["matcher"], read["timeout"]) == ("read_.*", 60.0)
    assert (after["event"], after["timeout"]) == ("agent:stop", 60.0)


def test_in_process_format_hooks(project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "format": "claude",
                          "command": f"{sys.executable} {VALIDATOR}"},
                         {"event": "tool:pre_execute:bash", "format": "gemini", "blocking": False,
                          "command": "./gone.sh"}])
    code, out, _ = invoke(["--dialect", "codex", "--keep-going"],
                          json.dumps(native("codex", project, command="grep x y")).encode(), project)
    reason = json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"]
    assert code == 0 and "Use 'rg'" in reason


PROMPT_EXAMPLE = HERE / "dialects" / "user_prompt_submit_example.py"
PROMPTS = {"claude": "claude/UserPromptSubmit.json", "codex": "codex/UserPromptSubmit.json",
           "gemini": "gemini/BeforeAgent.json"}


def recorded_prompt(name: str, project: Project, prompt: str) -> dict[str, Any]:
    payload: dict[str, Any] = json.loads((HERE / "realagents" / "payloads" / PROMPTS[name]).read_text())
    return {**payload, "cwd": str(project.root), "prompt": prompt}


@pytest.mark.parametrize("name", sorted(PROMPTS))
def test_the_hooks_references_prompt_example_guards_every_agents_prompts(name: str, project: Project) -> None:
    project.write_hooks([{"event": "user:prompt_submit", "format": "claude",
                          "command": f"{sys.executable} {PROMPT_EXAMPLE}"}])
    run = dialect_run(name, recorded_prompt(name, project, "deploy with password: hunter2"), project)
    doc = json.loads(run.stdout)
    assert doc["decision"] == ("deny" if name == "gemini" else "block")
    assert doc["reason"].startswith("Security policy violation")
    run = dialect_run(name, recorded_prompt(name, project, "list the files"), project)
    context = json.loads(run.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("Current time: ")


def test_a_rewrite_the_agent_cannot_carry_is_reported(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "user:prompt_submit",
                          "command": "echo '{\"data\": {\"user_input\": \"something else\"}}'"}])
    report = tmp_path / "r.json"
    run = dialect_run("claude", recorded_prompt("claude", project, "hello"), project, "--report", str(report))
    assert (run.exit_status, run.stdout) == (0, "")
    assert "dropped data.user_input" in run.stderr
    assert json.loads(report.read_text())["dialect"]["dropped"] == [
        "data.user_input: claude's answer carries only a tool input rewrite"]


# -- Cursor and Copilot ------------------------------------------------------------------
AGENT_DOCS = HERE / "realagents" / "payloads"
BLOCK_GIT = HERE / "dialects" / "cursor_block_git.sh"
COPILOT_GUARD = HERE / "dialects" / "copilot_block_dangerous.sh"


def cursor_shell(project: Project, command: str) -> dict[str, Any]:
    payload: dict[str, Any] = json.loads((AGENT_DOCS / "cursor" / "beforeShellExecution.json").read_text())
    payload.update(command=command, cwd=str(project.root), workspace_roots=[str(project.root)])
    return payload


def copilot_pre_tool(project: Project, command: str) -> dict[str, Any]:
    payload: dict[str, Any] = json.loads((AGENT_DOCS / "copilot" / "preToolUse.json").read_text())
    payload.update(cwd=str(project.root), toolArgs=json.dumps({"command": command}))
    return payload


def test_cursor_shell_commands_are_bash_to_forge_and_denied_in_cursors_form(project: Project) -> None:
    project.write_hooks([answering({"decision": "deny", "reason": "no pushes"}) | {"event": "tool:pre_execute:bash"}])
    run = dialect_run("cursor", cursor_shell(project, "git push"), project)
    assert run.exit_status == 0, run
    assert json.loads(run.stdout) == {"permission": "deny", "user_message": "no pushes", "agent_message": "no pushes"}


def test_copilot_camel_case_payload_needs_the_event_in_the_command(project: Project) -> None:
    project.write_hooks([answering({"decision": "deny", "reason": "no rm"})])
    run = dialect_run("copilot:preToolUse", copilot_pre_tool(project, "rm -rf dist"), project)
    assert (run.exit_status, json.loads(run.stdout)) == (0, {"permissionDecision": "deny",
                                                             "permissionDecisionReason": "no rm"}), run
    run = dialect_run("copilot", copilot_pre_tool(project, "rm -rf dist"), project)
    assert run.exit_status == 2 and "copilot:preToolUse" in run.stderr  # exit 2: Copilot denies


def test_cursors_block_git_example_guards_a_claude_session(project: Project, tmp_path: Path) -> None:
    # The docs' script verbatim, but for its log, which goes to our tmp_path, not /tmp.
    script = tmp_path / "block-git.sh"
    script.write_text(BLOCK_GIT.read_text().replace("/tmp/hooks.log", str(tmp_path / "hooks.log")))
    project.write_hooks([{"event": "tool:pre_execute:bash", "format": "cursor", "command": f"bash {script}"}])
    run = dialect_run("claude", native("claude", project, command="git push origin main"), project)
    assert "has been blocked by a project hook" in (denial("claude", run) or ""), run
    run = dialect_run("claude", native("claude", project, command="gh pr create"), project)
    specific = json.loads(run.stdout)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "ask" and "GitHub CLI" in specific["permissionDecisionReason"]
    run = dialect_run("claude", native("claude", project, command="ls"), project)
    assert json.loads(run.stdout)["hookSpecificOutput"]["permissionDecision"] == "allow"
    assert "Parsed command: 'git push origin main'" in (tmp_path / "hooks.log").read_text()


def test_copilots_example_guard_guards_a_claude_session(project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute", "format": "copilot", "command": f"bash {COPILOT_GUARD}"}])
    run = dialect_run("claude", native("claude", project, command="rm -rf /"), project)
    assert denial("claude", run) == "Dangerous command detected", run
    run = dialect_run("claude", native("claude", project, command="ls"), project)
    assert json.loads(run.stdout)["hookSpecificOutput"]["permissionDecision"] == "allow"
    assert "Tool=bash Args=" in (project.root / "tool-usage.log").read_text()


def test_print_config_for_cursor_and_copilot(project: Project) -> None:
    run = run_installed(["--dialect", "cursor", "--print-config"], cwd=project.root)
    assert run.exit_status == 0 and ".cursor/hooks.json" in run.stderr
    [cursor] = json.loads(run.stdout)["hooks"]["beforeShellExecution"]
    assert cursor["command"].endswith("; forge_run forge-hook-run --dialect cursor")
    run = run_installed(["--dialect", "copilot", "--print-config"], cwd=project.root)
    assert run.exit_status == 0 and ".github/hooks/" in run.stderr
    assert json.loads(run.stdout)["hooks"]["preToolUse"][0]["bash"].endswith(
        "; forge_run forge-hook-run --dialect copilot:preToolUse")


# -- issue 20, item 7: the agent's own tool name in a pattern -----------------------------------
@pytest.mark.parametrize(("name", "pattern"), [("claude", "tool:pre_execute:Bash"), ("codex", "tool:pre_execute:Bash"),
                                               ("gemini", "tool:pre_execute:run_shell_command"),
                                               ("gemini", "*:run_shell_*"), ("cursor", "tool:pre_execute:Shell")])
def test_a_pattern_with_the_agents_own_tool_name_guards_that_agents_tool(name: str, pattern: str,
                                                                         project: Project) -> None:
    """The name a user copies from their agent's docs fires (before: never, silently)."""
    project.write_hooks([answering({"decision": "deny", "reason": "native name"}) | {"event": pattern}])
    payload = cursor_shell(project, "rm -rf /") if name == "cursor" else native(name, project)
    run = dialect_run(name, payload, project)
    if name == "cursor":
        assert json.loads(run.stdout)["permission"] == "deny", run
    else:
        assert denial(name, run) == "native name", run


def test_a_native_name_of_another_agent_does_not_match(project: Project) -> None:
    project.write_hooks([answering({"decision": "deny", "reason": "gemini's name"})
                         | {"event": "tool:pre_execute:run_shell_command"}])
    run = dialect_run("claude", native("claude", project), project)
    assert (run.exit_status, run.stdout) == (0, ""), run


# -- Copilot through the installed forge-hook-run (issue 30, items 7 and 10) ------------------------
def copilot_run(event: str, project: Project, payload: dict[str, Any], *args: str) -> Run:
    return run_installed(["--dialect", f"copilot:{event}", *args], cwd=project.root,
                         stdin=json.dumps({**payload, "cwd": str(project.root)}))


def docs_payload(name: str) -> dict[str, Any]:
    payload: dict[str, Any] = json.loads((AGENT_DOCS / "copilot" / f"{name}.json").read_text())
    return payload


def test_forges_own_failure_refuses_the_prompt(project: Project) -> None:
    project.write_hooks([{"event": "user:prompt_submit", "command": "exit 0", "comand": "typo"}])
    run = copilot_run("userPromptSubmitted", project, docs_payload("userPromptSubmitted"), "--strict")
    doc = json.loads(run.stdout)  # before: no answer, the prompt went through
    assert doc["decision"] == "block" and "comand" in doc["reason"], run.stderr
    broken = copilot_run("userPromptSubmitted", project, {"timestamp": 1})  # no prompt: unreadable
    assert json.loads(broken.stdout)["decision"] == "block"


@pytest.mark.parametrize("event", ["sessionStart", "userPromptSubmitted", "postToolUse"])
def test_context_reaches_copilot_as_top_level_additional_context(event: str, project: Project) -> None:
    answer = json.dumps({"context": "forge-ctx-41aa"})
    project.write_hooks([{"event": "*", "command": f"echo '{answer}'"}])
    run = copilot_run(event, project, docs_payload(event))
    assert json.loads(run.stdout) == {"additionalContext": "forge-ctx-41aa"}, run.stderr
