"""Public hook scripts that showed issue 21's gaps, run under forge with their agent's own
verdict: imported with ``forge-hook import`` and run through ``forge-hook-run --dialect``,
all through the installed executables. The scripts are our reproductions of the originals
(tests/dialects/lifecycle/scripts/SOURCE.md), save Gemini's own example extension."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import Project, Run, run_installed
from helpers import TESTS

HERE = TESTS / "dialects" / "lifecycle"
SCRIPTS, PAYLOADS = HERE / "scripts", HERE / "payloads"


def forge_hook(project: Project, *args: str, env: dict[str, str] | None = None) -> Run:
    return run_installed(list(args), cwd=project.root, prog="forge-hook", env=env)


def imported(project: Project, agent: str, file: Path | None = None, *options: str) -> list[dict[str, Any]]:
    """``forge-hook import --from AGENT [FILE] --project``: the project's hooks after it (trusted)."""
    done = forge_hook(project, "import", "--from", agent, *([str(file)] if file else []), "--project", *options)
    assert done.exit_status == 0, done.stderr
    project.trust()
    hooks: list[dict[str, Any]] = json.loads(project.hooks_file.read_text())["hooks"]
    return hooks


def native(file: str, project: Project, **changes: Any) -> bytes:
    payload: dict[str, Any] = json.loads((PAYLOADS / file).read_text())
    payload["cwd"] = str(project.root)
    if "workspace_roots" in payload:
        payload["workspace_roots"] = [str(project.root)]
    payload.update(changes)
    return json.dumps(payload).encode()


def hook_run(project: Project, dialect: str, payload: bytes, tmp_path: Path,
             env: dict[str, str] | None = None) -> tuple[Any, dict[str, Any]]:
    report = tmp_path / "report.json"
    done = run_installed(["--dialect", dialect, "--report", str(report)], cwd=project.root, stdin=payload, env=env)
    assert done.exit_status in (0, 2), done.stderr
    return (json.loads(done.stdout) if done.stdout.strip() else None), json.loads(report.read_text())


def plugin(name: str, tmp_path: Path) -> Path:
    """A copy of the plugin fixture, as an agent's plugin directory would hold it."""
    return Path(shutil.copytree(SCRIPTS / name, tmp_path / "plugins" / name))


# -- Claude plugins: the variables the agent sets (gap 2), matchers, if, async (gap 4) ---------
def test_a_plugins_guard_imported_gets_the_plugin_root_and_guards(project: Project, tmp_path: Path) -> None:
    # karanb192's block-dangerous-commands: `node "${CLAUDE_PLUGIN_ROOT}/..."`. On main the
    # variable was unset under forge, node exited 1 and the rm ran; imported, the plugin's
    # root and data directory are set in the hook's env, as Claude sets them.
    root = plugin("block-dangerous-commands", tmp_path)
    [hook] = imported(project, "claude", root / "hooks" / "hooks.json")
    assert hook["event"] == "tool:pre_execute:bash" and hook["env"]["CLAUDE_PLUGIN_ROOT"] == str(root)
    data = Path(hook["env"]["CLAUDE_PLUGIN_DATA"])
    assert data.name == "block-dangerous-commands-inline" and data.is_dir()
    rm_home = native("claude/PreToolUse.json", project, tool_input={"command": "rm -rf ~/", "description": "x"})
    for dialect in ("claude", "codex"):
        answer, _ = hook_run(project, dialect, rm_home if dialect == "claude" else native(
            "codex/PreToolUse.json", project, tool_input={"command": "rm -rf ~/"}), tmp_path)
        assert answer["hookSpecificOutput"]["permissionDecision"] == "deny", dialect
        assert "[rm-home] rm targeting home directory" in answer["hookSpecificOutput"]["permissionDecisionReason"]


def test_check_names_a_plugin_variable_nobody_sets(project: Project, tmp_path: Path) -> None:
    # The same hook copied by hand into forge's file: check says the variable is unset.
    command = 'node "${CLAUDE_PLUGIN_ROOT}/block-dangerous-commands.js"'
    project.write_hooks([{"event": "tool:pre_execute:bash", "format": "claude", "command": command},
                         {"event": "session:start", "format": "gemini", "command": "node ${extensionPath}/x.js"},
                         {"event": "tool:pre_execute", "command": 'echo "$FORGE_TOOL_NAME ${UNSET_BUT_DEFAULTED:-x} $HOME"'},
                         {"event": "session:start", "format": "gemini", "command": "echo $GEMINI_PROJECT_DIR"}])
    done = forge_hook(project, "check")
    assert done.exit_status == 1
    lines = [line for line in done.stdout.splitlines() if "which nothing sets" in line]
    assert len(lines) == 2, done.stdout
    assert "project[0]" in lines[0] and "${CLAUDE_PLUGIN_ROOT}, which nothing sets" in lines[0]
    assert "import the plugin's hooks/hooks.json" in lines[0]
    assert "project[1]" in lines[1] and "${extensionPath}" in lines[1]
    # what trust cannot cover is its own finding (issue 19), for the same two words only
    assert [line.split(": ")[1] for line in done.stdout.splitlines() if "trust cannot see" in line] == [
        "project[0]", "project[1]"]


def test_ralph_wiggums_stop_loop_keeps_the_agent_working_until_its_promise(project: Project, tmp_path: Path) -> None:
    root = plugin("ralph-wiggum", tmp_path)
    [hook] = imported(project, "claude", root / "hooks" / "hooks.json")
    assert (hook["event"], hook["timeout"]) == ("agent:stop", 600.0)  # Claude's default, not forge's 10 s
    state = project.root / ".claude" / "ralph-loop.local.md"
    state.parent.mkdir()
    state.write_text("---\niteration: 1\nmax_iterations: 5\ncompletion_promise: \"DONE\"\n---\nFix the failing tests.\n")
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(json.dumps({"message": {"role": "assistant", "content": [{"type": "text",
                                                                                    "text": "Not yet."}]}},
                                     separators=(",", ":")).replace('"message":{', '"message":{"role":"assistant",', 1)
                          + "\n")
    stop = native("claude/Stop.json", project, transcript_path=str(transcript))
    answer, report = hook_run(project, "claude", stop, tmp_path)
    assert answer == {"decision": "block", "reason": "Fix the failing tests.",
                      "systemMessage": "🔄 Ralph iteration 2 | To stop: output <promise>DONE</promise>"}
    codex, _ = hook_run(project, "codex", native("codex/Stop.json", project, transcript_path=str(transcript)),
                        tmp_path)
    assert codex == {"decision": "block", "reason": "Fix the failing tests.",  # guards Codex too
                     "systemMessage": "🔄 Ralph iteration 3 | To stop: output <promise>DONE</promise>"}
    transcript.write_text(transcript.read_text().replace("Not yet.", "<promise>DONE</promise>"))
    done, _ = hook_run(project, "claude", stop, tmp_path)
    assert done is None or "decision" not in done  # the promise: the agent stops


def test_hookifys_require_tests_rule_keeps_the_agent_working(project: Project, tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("{}\n")
    project.write_hooks([{"event": "agent:stop", "format": "claude",
                          "command": f"{sys.executable} {SCRIPTS / 'hookify' / 'stop.py'}"}])
    for dialect, file in (("claude", "claude/Stop.json"), ("gemini", "gemini/AfterAgent.json"),
                          ("cursor", "cursor/stop.json")):
        answer, _ = hook_run(project, dialect, native(file, project, transcript_path=str(transcript)), tmp_path)
        text = json.dumps(answer)
        assert "require-tests-run" in text and ("block" in text or "deny" in text or "followup" in text), dialect


def test_a_notification_matcher_and_a_session_start_matcher_filter_as_claudes_do(
        project: Project, tmp_path: Path, isolated_home: Path) -> None:
    root = plugin("notify-permission", tmp_path)
    [hook] = imported(project, "claude", root / "hooks" / "hooks.json")
    assert (hook["event"], hook["matcher"]) == ("session:notification", "permission_prompt|idle_prompt|elicitation_dialog")
    log = isolated_home / ".claude" / "hooks-logs" / "notifications.jsonl"
    answer, _ = hook_run(project, "claude", native("claude/Notification.json", project), tmp_path)
    assert answer is None and json.loads(log.read_text())["type"] == "permission_prompt"
    log.unlink()
    hook_run(project, "claude", native("claude/Notification.json", project, notification_type="auth_success"), tmp_path)
    assert not log.exists()  # not one the matcher names


def test_an_if_rule_filters_and_async_rewake_is_an_observer(project: Project, tmp_path: Path) -> None:
    # security-guidance: `if: Bash(git commit:*)` + asyncRewake; on main `if` was dropped (the
    # hook ran after every Bash call) and asyncRewake ran inside the timeout, blocking.
    root = plugin("security-guidance", tmp_path)
    done = forge_hook(project, "import", "--from", "claude", str(root / "hooks" / "hooks.json"), "--project")
    assert done.exit_status == 0, done.stderr
    assert "asyncRewake is an observer here" in done.stderr
    project.trust()
    hooks = json.loads(project.hooks_file.read_text())["hooks"]
    by_if = {h.get("if"): h for h in hooks if h["event"] == "tool:post_execute:bash"}
    assert set(by_if) == {"Bash(git commit:*)", "Bash(git push:*)"}
    assert all(h["blocking"] is False for h in by_if.values())
    session = next(h for h in hooks if h["event"] == "session:start")
    assert session["timeout"] == 180
    record = tmp_path / "ran.txt"
    env = {"RECORD_TO": str(record)}
    for command in ("ls -la", "git commit -m 'x'", "cd repo && git push origin main"):
        hook_run(project, "claude", native("claude/PostToolUse.json", project,
                                           tool_input={"command": command, "description": "d"}), tmp_path, env)
    assert record.read_text().split() == ["commit", "push"]


def test_async_hooks_are_observers_and_on_failure_block_is_fail_closed(project: Project, tmp_path: Path) -> None:
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {
        "PreCompact": [{"hooks": [{"type": "command", "command": "exit 1", "async": True}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 1", "onFailure": "block"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "exit 1", "onFailure": "block"}]}]}}))
    hooks = imported(project, "claude")
    assert [(h["event"], h.get("blocking", True), h.get("fail_closed", False)) for h in hooks] == [
        ("session:pre_compact", False, False), ("tool:pre_execute:bash", True, True), ("agent:stop", True, False)]
    compact, _ = hook_run(project, "claude", native("claude/PreCompact.json", project), tmp_path)
    assert "decision" not in compact  # an observer's failure never blocks the compaction
    pre, _ = hook_run(project, "claude", native("claude/PreToolUse.json", project), tmp_path)
    assert pre["hookSpecificOutput"]["permissionDecision"] == "deny"  # exit 1 is a failure: fail closed
    stop, _ = hook_run(project, "claude", native("claude/Stop.json", project), tmp_path)
    assert "decision" not in stop  # Claude ignores onFailure on Stop; exit 1 there stops


def test_import_refuses_loudly_what_forge_cannot_run_and_is_idempotent(project: Project) -> None:
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "./check.sh"}, {"type": "prompt", "prompt": "done?"},
                            {"type": "agent", "prompt": "verify"}, {"type": "http", "url": "http://x"},
                            {"type": "mcp_tool", "server": "s", "tool": "t"}]}],
        "WorktreeCreate": [{"hooks": [{"type": "command", "command": "./wt.sh"}]}],
        "Setup": [{"matcher": "init", "hooks": [{"type": "command", "command": "./setup.sh"}]}],
        "SessionEnd": [{"hooks": [{"type": "command", "command": "./end.sh"}]}],
        "Stopp": [{"hooks": [{"type": "command", "command": "./typo.sh"}]}]}}))
    first = forge_hook(project, "import", "--from", "claude", "--project")
    assert first.exit_status == 0, first.stderr
    for kind in ("'prompt' hook", "'agent' hook", "'http' hook", "'mcp_tool' hook", "WorktreeCreate",
                 "Stopp: not an event claude fires"):
        assert kind in first.stderr, kind
    hooks = json.loads(project.hooks_file.read_text())["hooks"]
    assert [(h["event"], h.get("matcher"), h.get("timeout")) for h in hooks] == [
        ("agent:stop", None, 600.0), ("agent:native:Setup", "init", 600.0), ("session:end", None, 1.5)]
    second = forge_hook(project, "import", "--from", "claude", "--project")
    assert "imported 0 hooks" in second.stdout and "(3 already there)" in second.stdout
    assert json.loads(project.hooks_file.read_text())["hooks"] == hooks
    # remove takes an index (issue 21): the first of two hooks with one pattern, not both
    forge_hook(project, "add", "--project", "--event", "agent:stop", "--command", "./other.sh")
    removed = forge_hook(project, "remove", "--project", "0")
    assert removed.exit_status == 0 and "removed project[0] in" in removed.stdout
    assert [h["command"] for h in json.loads(project.hooks_file.read_text())["hooks"]] == [
        "./setup.sh", "./end.sh", "./other.sh"]


def test_a_hook_on_every_lifecycle_event_imports_whole(project: Project) -> None:
    # The settings shape of disler/claude-code-hooks-mastery (@052ad1cb; no licence, so only
    # its shape is reproduced): every lifecycle event hooked with "matcher": "" and
    # `uv run $CLAUDE_PROJECT_DIR/.claude/hooks/<event>.py`. On main all but SessionStart
    # were "no forge event type" and skipped.
    events = ["Notification", "Stop", "SubagentStop", "PreCompact", "SessionStart", "UserPromptSubmit"]
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {event: [{"matcher": "", "hooks": [
        {"type": "command", "command": f"uv run $CLAUDE_PROJECT_DIR/.claude/hooks/{event.lower()}.py"}]}]
        for event in events}}))
    hooks = imported(project, "claude")
    assert [h["event"] for h in hooks] == ["session:notification", "agent:stop", "agent:subagent_stop",
                                           "session:pre_compact", "session:start", "user:prompt_submit"]
    assert all("matcher" not in h for h in hooks)
    check = forge_hook(project, "check")  # $CLAUDE_PROJECT_DIR is Claude's: set for a claude hook
    assert "CLAUDE_PROJECT_DIR" not in check.stdout


def test_claudes_exec_form_runs_the_same_argv(project: Project, tmp_path: Path) -> None:
    root = plugin("notify-permission", tmp_path)
    (root / "hooks" / "hooks.json").write_text(json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "printf", "args": ["%s|", "${CLAUDE_PLUGIN_ROOT}/a b", "it's"]}]}]}}))
    [hook] = imported(project, "claude", root / "hooks" / "hooks.json")
    _, report = hook_run(project, "claude", native("claude/Stop.json", project), tmp_path)
    assert report["results"][0]["stdout"] == f"{root}/a b|it's|"


# -- Copilot: exit codes (gap 3) and keys (gap 4) -------------------------------------------
def test_copilots_tool_guardian_denies_every_call_as_copilot_does(project: Project, tmp_path: Path) -> None:
    # awesome-copilot's tool-guardian exits 1 on every preToolUse (its "toolInput" grep
    # fails under pipefail); Copilot 1.0.102 denies a preToolUse whose hook exits non-zero.
    # On main forge read exit 1 as "logged and skipped": the call went through.
    shutil.copytree(SCRIPTS / "tool-guardian", project.root / "tool-guardian")
    [hook] = imported(project, "copilot", project.root / "tool-guardian" / "hooks.json")
    assert (hook["timeout"], hook["env"]) == (10.0, {"GUARD_MODE": "block"}) and "working_dir" not in hook
    answer, _ = hook_run(project, "copilot:preToolUse", native("copilot/preToolUse.recorded.json", project), tmp_path)
    assert answer["permissionDecision"] == "deny" and "hook errored" in answer["permissionDecisionReason"]


def test_copilots_command_and_timeout_keys_are_read(project: Project, tmp_path: Path) -> None:
    # code-simplifier-stop writes agentStop the CLI way (bash, timeoutSec) and Stop the VS Code
    # way (command, timeout): on main the second imported as nothing.
    shutil.copytree(SCRIPTS / "code-simplifier-stop", project.root / "simplifier")
    hooks = imported(project, "copilot", project.root / "simplifier" / "hooks.json")
    assert [(h["event"], h["command"], h["timeout"]) for h in hooks] == [
        ("agent:stop", "scripts/run-code-simplifier.sh", 600.0), ("agent:stop", "scripts/run-code-simplifier.sh", 600.0)]


def test_copilots_agent_stop_takes_only_its_own_block(project: Project, tmp_path: Path) -> None:
    # planning-with-files answers Claude's additionalContext on agentStop: Copilot 1.0.102
    # ignores it and stops; so does forge for a "format": "copilot" hook.
    shutil.copytree(SCRIPTS / "planning-with-files" / ".github", project.root / ".github")
    (project.root / "task_plan.md").write_text("Phase 2: in_progress\n")
    hooks = imported(project, "copilot")
    assert [(h["event"], h["timeout"]) for h in hooks] == [("agent:stop", 10.0), ("agent:native:errorOccurred", 5.0)]
    answer, report = hook_run(project, "copilot:agentStop", native("copilot/agentStop.recorded.json", project), tmp_path)
    assert answer is None and report["results"][0]["decision"] == "allow"


# -- Cursor: user-level base directory, failClosed, loop_limit, followup (gaps 3, 4) -----------
def test_a_user_level_cursor_hook_runs_from_dot_cursor(project: Project, tmp_path: Path, isolated_home: Path) -> None:
    # ai-agent-ecosystem: ~/.cursor/hooks.json runs ./hooks/automation/auto-continue.sh,
    # relative to ~/.cursor; imported --global on main it ran from the project: 127.
    shutil.copytree(SCRIPTS / "auto-continue", isolated_home / ".cursor")
    done = forge_hook(project, "import", "--from", "cursor", "--global")
    assert done.exit_status == 0, done.stderr
    [hook] = json.loads(project.global_file.read_text())["hooks"]
    assert hook["working_dir"] == str(isolated_home / ".cursor")
    progress = project.root / "workspaces" / "SHARED_PROGRESS.md"
    progress.parent.mkdir()
    progress.write_text("Status: Pending\n")
    answer, _ = hook_run(project, "cursor", native("cursor/stop.json", project), tmp_path)
    assert answer["followup_message"].startswith("🔄 Auto-continuing execution")
    done_answer, _ = hook_run(project, "cursor", native("cursor/stop.json", project, loop_count=4), tmp_path)
    assert done_answer is None  # its own limit: an empty followup, the agent stops


def test_cursor_fail_closed_and_loop_limit_are_kept(project: Project, tmp_path: Path) -> None:
    hooks_file = project.root / ".cursor" / "hooks.json"
    hooks_file.parent.mkdir()
    hooks_file.write_text(json.dumps({"version": 1, "hooks": {
        "beforeShellExecution": [{"command": "exit 1", "failClosed": True}, {"command": "exit 3"}],
        "stop": [{"command": "echo '{\"followup_message\": \"again\"}'", "loop_limit": 1}]}}))
    hooks = imported(project, "cursor")
    assert [(h.get("fail_closed"), h.get("max_continues")) for h in hooks] == [(True, None), (None, None), (None, 1)]
    shell = native("cursor/stop.json", project, hook_event_name="beforeShellExecution", command="ls")
    answer, report = hook_run(project, "cursor", shell, tmp_path)
    assert answer["permission"] == "deny" and "fail_closed" in answer["agent_message"]
    # without failClosed, exit 3 fails open, as Cursor does
    project.write_hooks([hooks[1]])
    assert "permission" not in hook_run(project, "cursor", shell, tmp_path)[0]
    project.write_hooks([hooks[2]])
    stops = [hook_run(project, "cursor", native("cursor/stop.json", project), tmp_path)[0] for _ in range(3)]
    assert [s and s.get("followup_message") for s in stops] == ["again", None, "again"]


def test_gitbutlers_continue_false_on_stop_is_not_a_refusal(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "agent:stop", "format": "cursor", "command": str(SCRIPTS / "gitbutler" / "stop.sh")}])
    for dialect, file in (("cursor", "cursor/stop.json"), ("claude", "claude/Stop.json")):
        answer, _ = hook_run(project, dialect, native(file, project), tmp_path)
        assert answer is None, dialect


def test_planning_with_files_cursor_stop_is_kept_with_its_loop_limit(project: Project, tmp_path: Path) -> None:
    shutil.copytree(SCRIPTS / "planning-with-files" / ".cursor", project.root / ".cursor")
    done = forge_hook(project, "import", "--from", "cursor", "--project")
    assert "userPromptSubmit: not an event cursor fires" in done.stderr  # its config's own slip, said
    project.trust()
    hooks = json.loads(project.hooks_file.read_text())["hooks"]
    stop = next(h for h in hooks if h["event"] == "agent:stop")
    assert (stop["max_continues"], stop["timeout"]) == (3, 10.0)
    (project.root / "task_plan.md").write_text("Phase 1: in_progress\n")
    answer, _ = hook_run(project, "cursor", native("cursor/stop.json", project), tmp_path)
    assert answer["followup_message"].startswith("[planning-with-files] Task incomplete")


# -- Gemini: AfterAgent, extensions, regex matchers (issue 20 item 6) ---------------------
def test_geminis_own_extension_hook_runs_with_its_extension_path(project: Project, tmp_path: Path) -> None:
    extension = Path(shutil.copytree(SCRIPTS / "gemini-hooks-example", tmp_path / "extensions" / "hooks-example"))
    [hook] = imported(project, "gemini", extension / "hooks" / "hooks.json")
    assert hook["command"] == f"node {extension}/scripts/on-start.js" and hook["timeout"] == 60.0
    answer, _ = hook_run(project, "gemini", native("gemini/SessionStart.json", project), tmp_path)
    assert answer == {"systemMessage": "Session Started! This is running from a script in the hooks-example extension."}


def test_maestros_continue_false_on_after_agent_lets_the_session_stop(project: Project, tmp_path: Path) -> None:
    # Gemini reads continue:false on AfterAgent as "stop the session", never "keep working";
    # on main forge's gemini reader turned it into a deny: under forge, "keep working".
    extension = Path(shutil.copytree(SCRIPTS / "maestro", tmp_path / "extensions" / "maestro"))
    [hook] = imported(project, "gemini", extension / "hooks" / "hooks.json")
    assert hook["timeout"] == 10.0 and str(extension) in hook["command"]
    stop = native("gemini/AfterAgent.json", project, prompt="agent: coder\nRun it.", prompt_response="done")
    answer, report = hook_run(project, "gemini", stop, tmp_path)
    assert answer == {"systemMessage": "Handoff report validation failed: missing ## Task Report"}
    assert report["decision"] == "allow"


def test_a_gemini_regex_matcher_guards_what_gemini_guards(project: Project, tmp_path: Path) -> None:
    # planning-with-files' BeforeTool matcher "...|shell" guards run_shell_command in Gemini
    # (an unanchored regex); on main import made it tool:pre_execute:shell, which never fired.
    shutil.copytree(SCRIPTS / "planning-with-files" / ".gemini", project.root / ".gemini")
    hooks = imported(project, "gemini")
    before_tool = next(h for h in hooks if h["event"] == "tool:pre_execute")
    assert before_tool["matcher"].endswith("|shell")
    shell = native("gemini/BeforeTool.json", project)
    answer, report = hook_run(project, "gemini", shell, tmp_path)
    assert [r["hook"]["command"] for r in report["results"]] == [before_tool["command"]]
    # the script lacks its exec bit: 126, which Gemini reads as a deny (its own verdict)
    assert answer["decision"] == "deny"
    web = native("gemini/BeforeTool.json", project, tool_name="web_fetch", tool_input={"url": "u"})
    assert hook_run(project, "gemini", web, tmp_path)[1]["results"] == []


def test_a_broken_hook_on_after_agent_lets_the_agent_stop(project: Project, tmp_path: Path) -> None:
    # A script that cannot start denies elsewhere (Gemini's rule and forge's stricter one);
    # at the turn's end a broken hook never keeps the agent working.
    project.write_hooks([{"event": "agent:stop", "format": "gemini", "command": str(tmp_path / "gone.sh")},
                         {"event": "agent:stop", "format": "claude", "command": "sleep 5", "timeout": 0.2}])
    answer, report = hook_run(project, "gemini", native("gemini/AfterAgent.json", project), tmp_path)
    assert answer is not None and "decision" not in answer
    assert [r["decision"] for r in report["results"]] == ["allow", "allow"]
    assert "does not keep the agent working" in answer["systemMessage"]


def test_a_format_hooks_missing_script_on_a_stop_lets_the_agent_stop(project: Project, tmp_path: Path) -> None:
    # python3 exits 2 for a script that is gone: Claude reads exit 2 on Stop as "keep
    # working". The missing-script rule (issue 20) finds it; on a stop a broken format hook
    # lets the agent stop and says why; on a tool call the same hook still denies.
    command = "python3 .claude/hooks/gone.py"
    project.write_hooks([{"event": "agent:stop,tool:pre_execute", "format": "claude", "command": command}])
    answer, report = hook_run(project, "claude", native("claude/Stop.json", project), tmp_path)
    assert answer is not None and "decision" not in answer
    assert "script missing: .claude/hooks/gone.py" in answer["systemMessage"]
    assert "does not keep the agent working" in answer["systemMessage"]
    assert report["decision"] == "allow"
    answer, _ = hook_run(project, "claude", native("claude/PreToolUse.json", project), tmp_path)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "script missing" in answer["hookSpecificOutput"]["permissionDecisionReason"]


def test_forge_says_where_it_is_stricter_than_the_agent(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "tool:pre_execute", "format": "copilot", "command": "sleep 5", "timeout": 0.2}])
    answer, report = hook_run(project, "copilot:preToolUse", native("copilot/preToolUse.recorded.json", project),
                              tmp_path)
    assert answer["permissionDecision"] == "deny"
    [said] = [w for w in report["warnings"] if "forge is stricter than copilot here" in w]
    assert said.startswith("project[0] 'tool:pre_execute' (format copilot) denies because it timed out")


def test_the_fixtures_keep_their_sources_and_licences() -> None:
    source = (SCRIPTS / "SOURCE.md").read_text()
    for directory in (p for p in SCRIPTS.iterdir() if p.is_dir()):
        assert f"`{directory.name}/" in source, directory.name
    assert "SPDX-License-Identifier: Apache-2.0" in (SCRIPTS / "gemini-hooks-example" / "scripts" /
                                                     "on-start.js").read_text()
    assert (SCRIPTS / "gemini-hooks-example" / "LICENSE").read_text().lstrip().startswith("Apache License")
    assert not os.access(SCRIPTS / "planning-with-files" / ".gemini" / "hooks" / "before-tool.sh", os.X_OK)
