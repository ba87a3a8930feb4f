"""Fast CLI checks through click's CliRunner: exit codes, stdout JSON, stderr lines."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from helpers import SUDO, ForgeRun, Project, installed
from forge_hookd.run import codec
from forge_hookd.cli.run import forge_hook_run



def invoke(project: Project, args: list[str], stdin: Any = None) -> Result:
    data = json.dumps(stdin) if isinstance(stdin, dict) else stdin
    return CliRunner().invoke(forge_hook_run, ["--project-root", str(project.root), *args], input=data)


def doc(result: Result) -> Any:
    assert result.stdout.count("\n") == 1
    return json.loads(result.stdout)


def test_no_hooks_proceeds(project: Project) -> None:
    result = invoke(project, [], {"type": "session:start"})
    assert result.exit_code == 0
    out = doc(result)
    assert out["results"] == [] and out["blocked"] is False and out["blocked_by"] is None
    assert result.stderr == ""


def test_blocking_hook_exits_1_with_reason(project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "echo 'Blocked: no'; exit 1",
                          "description": "Block"}])
    result = invoke(project, [], SUDO)
    assert result.exit_code == 1
    assert doc(result)["blocked_by"] == {"index": 0, "event": "tool:pre_execute:bash", "source": "project",
                                         "source_index": 0, "description": "Block", "reason": "Blocked: no"}
    assert result.stderr == "forge-hook-run: blocked by project[0] 'tool:pre_execute:bash': Blocked: no\n"


def test_event_from_options_does_not_read_stdin(project: Project) -> None:
    project.write_hooks([{"event": "tool:error:bash", "command": "echo $FORGE_ERROR $FORGE_SESSION_ID"}])
    result = invoke(project, ["--event", "tool:error", "--tool", "bash", "--session-id", "s9",
                              "--data", '{"error": "boom"}'], "garbage that is never read")
    assert result.exit_code == 0, result.output
    assert doc(result)["results"][0]["stdout"] == "boom s9\n"


def test_an_empty_session_id_or_tool_option_is_null(project: Project) -> None:
    # --session-id "$SESSION" with SESSION unset: no session, not the session "".
    result = invoke(project, ["--event", "session:start", "--session-id", "", "--tool", ""])
    assert result.exit_code == 0, result.output
    assert doc(result)["event"]["session_id"] is None and doc(result)["event"]["tool_name"] is None


@pytest.mark.parametrize(
    ("args", "stdin", "kind", "message"),
    [
        ([], "", "invalid_event", "empty input"),
        ([], "{", "invalid_event", "invalid event JSON"),
        ([], '{"type": "nope"}', "invalid_event", "unknown event type 'nope'"),
        ([], '{"type": "tool:pre_execute", "tool": "bash"}', "invalid_event", "did you mean 'tool_name'"),
        (["--event", "session:start", "--data", "[1]"], None, "invalid_event", "'data' must be an object"),
        (["--event", "session:start", "--data", "{"], None, "invalid_event", "--data is not valid JSON"),
        (["--tool", "bash"], "{}", "usage", "--tool, --session-id and --data go with --event"),
        (["--bogus"], None, "usage", "No such option '--bogus'"),
    ],
)
def test_bad_input_is_exit_2_with_json_and_one_line(project: Project, args: list[str], stdin: str | None,
                                                     kind: str, message: str) -> None:
    result = invoke(project, args, stdin)
    assert result.exit_code == 2
    error = doc(result)
    assert error["version"] == 1 and error["error"]["kind"] == kind
    assert message in error["error"]["message"]
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("forge-hook-run: error: ")
    assert "Traceback" not in result.output


def test_oversized_event_is_refused_without_reading_on(monkeypatch: pytest.MonkeyPatch, project: Project) -> None:
    monkeypatch.setattr(codec, "MAX_EVENT_BYTES", 100)
    result = invoke(project, [], json.dumps({"type": "session:start", "data": {"x": "y" * 200}}))
    assert result.exit_code == 2 and "larger than" in doc(result)["error"]["message"]


def test_corrupt_config_warns_and_other_hooks_run(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": "echo global"}], where="global")
    project.hooks_file.parent.mkdir()
    project.hooks_file.write_text('{"hooks": [}')
    project.trust()
    result = invoke(project, [], {"type": "session:start"})
    assert result.exit_code == 0
    out = doc(result)
    assert [r["stdout"] for r in out["results"]] == ["global\n"]
    assert out["warnings"][0].startswith(f"{project.hooks_file}:1:")
    assert result.stderr.startswith(f"forge-hook-run: warning: {project.hooks_file}:1:")


def test_strict_turns_warnings_into_exit_2_and_runs_nothing(project: Project, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    project.write_hooks([{"event": "*", "command": f"touch {marker}"}, {"event": "*"}, {"command": "x"}])
    result = invoke(project, ["--strict"], {"type": "session:start"})
    assert result.exit_code == 2
    assert doc(result)["error"]["kind"] == "invalid_config"
    assert "(and 1 more)" in doc(result)["error"]["message"]
    assert not marker.exists()


def test_dry_run_lists_hooks_in_order_and_runs_none(project: Project, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    project.write_hooks([{"event": "*", "command": "g"}], where="global")
    project.write_hooks([{"event": "session:*", "command": f"touch {marker}"},
                         {"event": "tool:*", "command": "no"}])
    result = invoke(project, ["--dry-run"], {"type": "session:start"})
    assert result.exit_code == 0
    out = doc(result)
    assert out["dry_run"] is True
    assert [(h["index"], h["hook"]["command"], h["hook"]["source"]) for h in out["hooks"]] == [
        (0, "g", "global"), (1, f"touch {marker}", "project")]
    assert not marker.exists()


def test_no_global_no_project_and_extra_config(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "*", "command": "echo g"}], where="global")
    project.write_hooks([{"event": "*", "command": "echo p"}])
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps({"hooks": [{"event": "*", "command": "echo x"}]}))
    ev = {"type": "session:start"}

    def outs(result: Result) -> list[str]:
        return [x["stdout"].strip() for x in doc(result)["results"]]

    assert outs(invoke(project, ["--config", str(extra)], ev)) == ["g", "p", "x"]
    assert outs(invoke(project, ["--no-global"], ev)) == ["p"]
    assert outs(invoke(project, ["--no-project"], ev)) == ["g"]
    sources = [x["hook"]["source"] for x in doc(invoke(project, ["--config", str(extra)], ev))["results"]]
    assert sources == ["global", "project", str(extra)]


def test_keep_going(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": "exit 1"}, {"event": "*", "command": "echo after"}])
    stopped = doc(invoke(project, [], {"type": "session:start"}))
    assert stopped["skipped"] == [1]
    kept = invoke(project, ["--keep-going"], {"type": "session:start"})
    assert kept.exit_code == 1
    assert doc(kept)["skipped"] == [] and doc(kept)["results"][1]["stdout"] == "after\n"


def test_pretty_indents(project: Project) -> None:
    result = invoke(project, ["--pretty"], {"type": "session:start"})
    assert result.stdout.startswith('{\n  "version": 1')
    assert json.loads(result.stdout)["blocked"] is False


def test_version_and_help(project: Project) -> None:
    version = CliRunner().invoke(forge_hook_run, ["--version"])
    assert version.exit_code == 0 and version.stdout.startswith("forge-hook-run ")
    help_ = CliRunner().invoke(forge_hook_run, ["--help"])
    assert help_.exit_code == 0
    for word in ("--event", "--keep-going", "Exit status", "tool:pre_execute", "FORGE_TOOL_NAME"):
        assert word in help_.stdout


def test_unexpected_error_is_exit_3_json(monkeypatch: pytest.MonkeyPatch, project: Project) -> None:
    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("kaput")

    monkeypatch.setattr("forge_hookd.run.pipeline.load_sources", boom)
    result = invoke(project, [], {"type": "session:start"})
    assert result.exit_code == 3
    assert doc(result)["error"] == {"kind": "internal", "message":
                                    "unexpected error: RuntimeError: kaput (FORGE_DEBUG=1 shows a traceback)"}
    assert "Traceback" not in result.stderr
    monkeypatch.setenv("FORGE_DEBUG", "1")
    assert "Traceback" in invoke(project, [], {"type": "session:start"}).stderr


def test_keyboard_interrupt_is_130(monkeypatch: pytest.MonkeyPatch, project: Project) -> None:
    def interrupt(*a: object, **k: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("forge_hookd.run.pipeline.load_sources", interrupt)
    result = invoke(project, [], {"type": "session:start"})
    assert result.exit_code == 130
    assert doc(result)["error"] == {"kind": "interrupted", "message": "interrupted by SIGINT"}


def test_circular_trigger_is_exit_0_with_warning(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    project.write_hooks([{"event": "*", "command": "exit 1"}])
    from forge_hookd.run import nesting as chain

    # as if the process that started the test were a forge-hook-run handling session:start
    monkeypatch.setenv("FORGE_HOOK_CHAIN", f"{chain._stamp(os.getppid())}:session:start")
    result = invoke(project, [], {"type": "session:start"})
    assert result.exit_code == 0
    assert "circular trigger" in doc(result)["warnings"][0]
    assert "circular trigger" in result.stderr


def test_terminal_stdin_without_event_is_a_usage_error(project: Project) -> None:
    # a real terminal (a pty), so the installed executable's own isatty() decides
    controller, terminal = os.openpty()
    try:
        proc = subprocess.run([installed("forge-hook-run")], cwd=project.root, stdin=terminal,
                              capture_output=True, timeout=60)
    finally:
        os.close(terminal)
        os.close(controller)
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith("forge-hook-run: error: no event: pipe one JSON event on stdin")
    assert "pipe one JSON event" in json.loads(proc.stdout)["error"]["message"]


def test_a_missing_config_file_named_on_purpose_is_an_error(project: Project, tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    result = invoke(project, ["--config", str(missing)], {"type": "session:start"})
    assert result.exit_code == 2
    assert doc(result)["error"]["message"] == f"{missing}: no such file (named with --config)"


# -- -q/--quiet: for git hooks, Makefiles and terminals (issue 23, item 2) ----------------------
def test_quiet_prints_no_document_only_the_verdict_line_and_the_same_status(project: Project,
                                                                           forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "echo 'Blocked: no'; exit 1"},
                         {"event": "session:*", "command": "echo fine"}])
    for flag in ("-q", "--quiet"):
        blocked = forge_run(SUDO, flag)
        assert (blocked.exit_status, blocked.stdout) == (1, "")
        assert blocked.stderr == "forge-hook-run: blocked by project[0] 'tool:pre_execute:bash': Blocked: no\n"
        allowed = forge_run({"type": "session:start"}, flag)
        assert (allowed.exit_status, allowed.stdout, allowed.stderr) == (0, "", "")  # an allow prints nothing
    # not even an error document: the error line on stderr and the status are the answer
    for args, stdin in ((["-q"], "not json"), (["-q", "--bogus"], "{}"), (["--bogus", "-q"], "{}")):
        failed = forge_run(stdin, *args)
        assert (failed.exit_status, failed.stdout) == (2, ""), args
        assert failed.stderr.startswith("forge-hook-run: error: ") and failed.stderr.count("\n") == 1, args
    assert forge_run(SUDO).stdout.startswith('{"version":1')  # without -q the document is there


def test_quiet_is_refused_with_a_dialect_and_with_a_dry_run(project: Project, forge_run: ForgeRun) -> None:
    """With --dialect stdout is the agent's answer, so -q could only be ignored or
    refused: refused, in the agent's form (on an event that can block that is a deny)."""
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},
               "session_id": "s", "cwd": str(project.root)}
    refused = forge_run(payload, "--dialect", "claude", "-q")
    assert refused.exit_status == 2 and "--quiet does not go with --dialect" in refused.stderr
    dry = forge_run(None, "-q", "--dry-run", "--event", "session:start")
    assert dry.exit_status == 2 and dry.stdout == ""
    assert dry.stderr == "forge-hook-run: error: --quiet does not go with --dry-run: a dry run's document is its answer\n"
