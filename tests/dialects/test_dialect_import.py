"""``forge-hook import --from AGENT`` (dialects/importing.py), through the installed command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import Project, run_installed
from forge_hookd.dialects import get


@pytest.mark.parametrize("name, matcher, expected", [
    ("claude", "", (["tool:pre_execute"], None)),
    ("claude", "*", (["tool:pre_execute"], None)),
    ("claude", "Bash", (["tool:pre_execute:bash"], None)),
    ("claude", "Edit|Write|MultiEdit", (["tool:pre_execute:edit", "tool:pre_execute:write"], None)),
    ("claude", "^Bash$", (["tool:pre_execute:bash"], None)),
    ("claude", "mcp__github__.*", (["tool:pre_execute:mcp__github__*"], None)),
    ("codex", "Bash", (["tool:pre_execute:bash"], None)),
    # Gemini's matchers are unanchored regexes (issue 20 item 6): kept, read its way
    ("gemini", "run_shell_command|write_file", (["tool:pre_execute"], "run_shell_command|write_file")),
    ("gemini", "shell", (["tool:pre_execute"], "shell")),
    ("claude", "Notebook.*", (["tool:pre_execute"], "Notebook.*")),
    ("copilot", "bash|view", (["tool:pre_execute:bash", "tool:pre_execute:read"], None)),
    ("copilot", "ba.*", (["tool:pre_execute"], "ba.*")),
])
def test_matchers_become_patterns_or_stay_the_agents(name: str, matcher: str,
                                                     expected: tuple[list[str], str | None]) -> None:
    assert get(name).settings.filter("", "tool:pre_execute", matcher) == expected


def test_a_lifecycle_matcher_stays_where_the_agent_reads_it_and_goes_where_it_does_not() -> None:
    assert get("claude").settings.filter("SessionStart", "session:start", "startup|resume") == \
        (["session:start"], "startup|resume")
    assert get("gemini").settings.filter("SessionStart", "session:start", "startup") == (["session:start"], "startup")
    assert get("claude").settings.filter("Stop", "agent:stop", "anything") == (["agent:stop"], None)  # ignored
    assert get("claude").settings.filter("Setup", "agent:native", "init") == (["agent:native:Setup"], "init")


CLAUDE_SETTINGS = {"permissions": {"allow": ["Bash"]}, "hooks": {
    "PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 $CLAUDE_PROJECT_DIR/guard.py",
                                       "timeout": 30}]},
        {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "./fmt-check.sh"}]},
        {"matcher": "Notebook.*", "hooks": [{"type": "command", "command": "./nb.sh"}]},
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}],
    "UserPromptSubmit": [{"hooks": [{"type": "prompt", "prompt": "is this ok?"}]}],
}}


def test_import_claude_project_settings(project: Project) -> None:
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(CLAUDE_SETTINGS))
    (project.root / ".claude" / "settings.local.json").write_text(json.dumps({"hooks": {"SessionStart": [
        {"hooks": [{"type": "command", "command": "./mine.sh"}]}]}}))
    run = run_installed(["import", "--from", "claude", "--project"], cwd=project.root, prog="forge-hook")
    assert run.exit_status == 0, run.stderr
    hooks = json.loads(project.hooks_file.read_text())["hooks"]
    assert [(h["event"], h["command"], h["format"], h.get("matcher")) for h in hooks] == [
        ("tool:pre_execute:bash", "python3 $CLAUDE_PROJECT_DIR/guard.py", "claude", None),
        ("tool:pre_execute:edit,tool:pre_execute:write", "./fmt-check.sh", "claude", None),
        ("tool:pre_execute", "./nb.sh", "claude", "Notebook.*"),  # a regex: kept, read Claude's way
        ("agent:stop", "./stop.sh", "claude", None),  # issue 21: the turn's end
        ("session:start", "./mine.sh", "claude", None),  # from settings.local.json
    ]
    assert hooks[0]["timeout"] == 30 and hooks[1]["timeout"] == 600  # Claude's own default
    assert "'prompt' hook" in run.stderr


def test_import_gemini_timeouts_are_milliseconds_and_dry_run_writes_nothing(project: Project, tmp_path: Path) -> None:
    settings = tmp_path / "gemini.json"
    settings.write_text(json.dumps({"hooksConfig": {"enabled": True}, "hooks": {"BeforeTool": [
        {"matcher": "run_shell_command", "hooks": [{"name": "guard", "type": "command", "command": "g.sh",
                                                    "timeout": 5000}]}]}}))
    run = run_installed(["import", "--from", "gemini", str(settings), "--project", "--dry-run"],
                        cwd=project.root, prog="forge-hook")
    assert run.exit_status == 0, run.stderr
    [hook] = json.loads(run.stdout)["hooks"]
    assert (hook["event"], hook["matcher"]) == ("tool:pre_execute", "run_shell_command")
    assert hook["timeout"] == 5.0 and hook["format"] == "gemini"
    assert not project.hooks_file.exists()


def test_import_refuses_an_unknown_agent_and_a_missing_file(project: Project) -> None:
    run = run_installed(["import", "--from", "opencode", "--project"], cwd=project.root, prog="forge-hook")
    assert run.exit_status == 2 and "--from takes one of" in run.stderr
    run = run_installed(["import", "--from", "codex", "--project"], cwd=project.root, prog="forge-hook")
    assert run.exit_status == 2 and "no such file" in run.stderr and ".codex/hooks.json" in run.stderr


def test_import_from_cursor_maps_each_event_and_names_what_has_no_form(project: Project) -> None:
    hooks = project.root / ".cursor" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(json.dumps({"version": 1, "hooks": {
        "beforeShellExecution": [{"command": "./hooks/audit.sh"}, {"command": "./hooks/block-git.sh", "timeout": 5},
                                 {"command": "./approve-network.sh", "matcher": "curl|wget|nc "}],
        "preToolUse": [{"command": "./hooks/validate-tool.sh", "matcher": "Shell|Read|Write"}],
        "beforeMCPExecution": [{"command": "./hooks/audit.sh"}],
        "beforeReadFile": [{"command": "./hooks/redact.sh"}],
        "beforeSubmitPrompt": [{"type": "prompt", "prompt": "Is this safe?"}],
        "stop": [{"command": "./hooks/audit.sh"}]}}))
    run = run_installed(["import", "--from", "cursor", "--project", "--dry-run"], cwd=project.root, prog="forge-hook")
    assert run.exit_status == 0, run.stderr
    result = json.loads(run.stdout)
    assert [(h["event"], h["command"]) for h in result["hooks"]] == [
        ("tool:pre_execute:bash", "./hooks/audit.sh"), ("tool:pre_execute:bash", "./hooks/block-git.sh"),
        ("tool:pre_execute:bash,tool:pre_execute:read,tool:pre_execute:write", "./hooks/validate-tool.sh"),
        ("tool:pre_execute:MCP:*", "./hooks/audit.sh"), ("tool:pre_execute:read", "./hooks/redact.sh"),
        ("agent:stop", "./hooks/audit.sh")]  # issue 21: the turn's end
    assert all(h["format"] == "cursor" for h in result["hooks"]) and result["hooks"][1]["timeout"] == 5.0
    skipped = "\n".join(result["skipped"])
    assert "filters the command text" in skipped and "'prompt' hook" in skipped


def test_import_from_copilot_takes_bash_timeout_sec_cwd_and_env_from_every_file(project: Project) -> None:
    hooks = project.root / ".github" / "hooks" / "security.json"
    hooks.parent.mkdir(parents=True)
    (hooks.parent / "zz-audit.json").write_text(json.dumps({"version": 1, "hooks": {
        "sessionEnd": [{"type": "command", "bash": "./log-end.sh"}]}}))
    hooks.write_text(json.dumps({"version": 1, "hooks": {
        "preToolUse": [{"type": "command", "bash": "./scripts/security-check.sh", "powershell": "./s.ps1",
                        "cwd": "scripts", "env": {"MODE": "strict"}, "timeoutSec": 15,
                        "comment": "Security validation - runs first"}],
        "PostToolUse": [{"type": "command", "bash": "./audit.sh"}],
        "agentStop": [{"type": "command", "bash": "./audit.sh"}]}}))
    run = run_installed(["import", "--from", "copilot", "--project"], cwd=project.root, prog="forge-hook")
    assert run.exit_status == 0, run.stderr
    written = json.loads(project.hooks_file.read_text())["hooks"]
    assert [(h["event"], h["command"]) for h in written] == [("tool:pre_execute", "./scripts/security-check.sh"),
                                                             ("tool:post_execute", "./audit.sh"),
                                                             ("agent:stop", "./audit.sh"),
                                                             ("session:end", "./log-end.sh")]
    first = written[0]
    assert (first["format"], first["timeout"], first["working_dir"], first["env"]) == \
        ("copilot", 15.0, "scripts", {"MODE": "strict"})
    assert written[1]["timeout"] == 30.0  # Copilot's own default
    assert first["description"].startswith("Security validation")
