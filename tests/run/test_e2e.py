"""End to end: the installed forge-hook-run with real hooks in a real project."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from helpers import SUDO, ForgeRun, Project, gone, installed, read_pids
from forge_hookd.trust import store as trust
from helpers import TESTS



def test_block_sudo_template_blocks_with_reason(project: Project, forge_run: ForgeRun) -> None:
    from forge_hookd.templates import HOOK_TEMPLATES

    project.write_hooks([HOOK_TEMPLATES["block_sudo"].to_dict()])
    run = forge_run(SUDO)
    assert run.exit_status == 1
    assert run.json["blocked_by"]["reason"].startswith("Blocked: sudo not allowed. ")
    assert run.json["results"][0]["hook"]["source"] == "project"
    allowed = forge_run({**SUDO, "data": {"tool_args": {"command": "pseudosudo ls"}}})
    assert allowed.exit_status == 0 and allowed.json["blocked"] is False


def test_merge_order_global_then_project_then_extra(project: Project, forge_run: ForgeRun, tmp_path: Path) -> None:
    project.write_hooks([{"event": "*", "command": "echo g1"}, {"event": "*", "command": "echo g2"}],
                        where="global")
    project.write_hooks([{"event": "*", "command": "echo p1"}])
    extra = tmp_path / "more.json"
    extra.write_text(json.dumps({"hooks": [{"event": "*", "command": "echo x1"}]}))
    run = forge_run({"type": "session:start"}, "--config", str(extra))
    assert [r["stdout"] for r in run.json["results"]] == ["g1\n", "g2\n", "p1\n", "x1\n"]
    assert [r["index"] for r in run.json["results"]] == [0, 1, 2, 3]


def test_project_root_is_found_upwards_and_hooks_run_there(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "*", "command": "pwd; echo $FORGE_PROJECT_DIR"}])
    deep = project.root / "src" / "deep"
    deep.mkdir(parents=True)
    run = forge_run({"type": "session:start"}, cwd=deep)
    assert run.json["results"][0]["stdout"] == f"{project.root}\n{project.root}\n"


def test_forge_config_dir_and_project_dir_variables(project: Project, forge_run: ForgeRun, tmp_path: Path) -> None:
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    (cfg / "hooks.json").write_text(json.dumps({"hooks": [{"event": "*", "command": "echo cfgdir"}]}))
    other = tmp_path / "other"
    (other / ".forge").mkdir(parents=True)
    (other / ".forge/hooks.json").write_text(json.dumps({"hooks": [{"event": "*", "command": "echo other"}]}))
    trust.trust(other / ".forge/hooks.json", (other / ".forge/hooks.json").read_bytes())
    run = forge_run({"type": "session:start"}, env={"FORGE_CONFIG_DIR": str(cfg), "FORGE_PROJECT_DIR": str(other)})
    assert [r["stdout"] for r in run.json["results"]] == ["cfgdir\n", "other\n"]


@pytest.mark.parametrize(
    ("pattern", "runs"),
    [("*", True), ("tool:pre_execute", True), ("tool:pre_execute:bash", True),
     ("tool:pre_execute:write", False), ("tool:*", True), ("tool:*:bash", True), ("*:bash", True),
     ("tool:post_execute", False), ("session:*", False), ("session:start, *:bash", True),
     ("TOOL:*", False)],
)
def test_every_matching_form(project: Project, forge_run: ForgeRun, pattern: str, runs: bool) -> None:
    project.write_hooks([{"event": pattern, "command": "echo ran"}])
    assert len(forge_run(SUDO).json["results"]) == (1 if runs else 0)


def test_every_environment_variable_and_stdin(project: Project, forge_run: ForgeRun) -> None:
    (project.root / "work").mkdir()
    project.write_hooks([{"event": "*", "command": "env; printf 'STDIN=%s\\n' \"$(cat)\"", "working_dir": "work",
                          "env": {"MODE": "strict"}}])
    event = {**SUDO, "timestamp": 1763700000.5,
             "data": {"tool_args": {"command": "ls"}, "tool_result": "r", "error": "e", "llm_model": "m",
                      "llm_tokens": 5, "perm_level": "ask", "perm_rule": "bash(*)", "user_input": "hi\nthere",
                      "event": "forged"}}
    out = forge_run(event).json["results"][0]["stdout"]
    env = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    expected = {
        "FORGE_EVENT": "tool:pre_execute", "FORGE_TIMESTAMP": "1763700000.5",
        "FORGE_SESSION_ID": "sess_abc123", "FORGE_TOOL_NAME": "bash",
        "FORGE_TOOL_ARGS": '{"command":"ls"}', "FORGE_TOOL_RESULT": "r", "FORGE_ERROR": "e",
        "FORGE_LLM_MODEL": "m", "FORGE_LLM_TOKENS": "5", "FORGE_PERM_LEVEL": "ask",
        "FORGE_PERM_RULE": "bash(*)", "FORGE_USER_INPUT": "hi there",
        "FORGE_WORKING_DIR": str(project.root / "work"), "FORGE_PROJECT_DIR": str(project.root),
        "MODE": "strict",
    }
    assert {k: env.get(k) for k in expected} == expected
    assert json.loads(env["STDIN"]) == event


def test_stop_on_failure_and_keep_going(project: Project, forge_run: ForgeRun, tmp_path: Path) -> None:
    project.write_hooks([{"event": "*", "command": "exit 2"}, {"event": "*", "command": f"touch {tmp_path}/second"}])
    stopped = forge_run({"type": "session:start"})
    assert (stopped.exit_status, stopped.json["skipped"]) == (1, [1])
    assert not (tmp_path / "second").exists()
    kept = forge_run({"type": "session:start"}, "--keep-going")
    assert (kept.exit_status, kept.json["skipped"]) == (1, [])
    assert (tmp_path / "second").exists()


@pytest.mark.parametrize("stdin", [b"", b"{", b"[]", b'{"type":"x"}', b'{"type":"session:start","tool":"b"}',
                                   b'{"type":"session:start","data":"s"}', b"\xff\xfe",
                                   b'{"type":"session:start"}{"type":"session:start"}'])
def test_bad_inputs_exit_2_with_json(project: Project, forge_run: ForgeRun, stdin: bytes, tmp_path: Path) -> None:
    project.write_hooks([{"event": "*", "command": f"touch {tmp_path}/ran"}])
    run = forge_run(stdin)
    assert run.exit_status == 2
    assert run.json["error"]["kind"] == "invalid_event"
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert not (tmp_path / "ran").exists()


def test_corrupt_config_is_a_warning_and_strict_an_error(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "*", "command": "echo g"}], where="global")
    project.hooks_file.parent.mkdir(parents=True, exist_ok=True)
    project.hooks_file.write_text('{"hooks": [\n  {"event": "*" "command": "x"}\n]}')
    project.trust()
    run = forge_run({"type": "session:start"})
    assert run.exit_status == 0
    assert [r["stdout"] for r in run.json["results"]] == ["g\n"]
    assert run.json["warnings"][0].startswith(f"{project.hooks_file}:2:")
    strict = forge_run({"type": "session:start"}, "--strict")
    assert strict.exit_status == 2 and strict.json["error"]["kind"] == "invalid_config"


def test_dry_run(project: Project, forge_run: ForgeRun, tmp_path: Path) -> None:
    project.write_hooks([{"event": "*", "command": f"touch {tmp_path}/ran"}])
    run = forge_run({"type": "session:start"}, "--dry-run")
    assert run.exit_status == 0 and run.json["hooks"][0]["hook"]["command"] == f"touch {tmp_path}/ran"
    assert not (tmp_path / "ran").exists()


def test_non_utf8_output(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "*", "command": r"printf 'a\377b'; printf '\300' >&2"}])
    result = forge_run({"type": "session:start"}).json["results"][0]
    assert (result["stdout"], result["stderr"]) == ("a\ufffdb", "\ufffd")


def test_circular_guard_with_a_real_nested_call(project: Project, forge_run: ForgeRun) -> None:
    # The status on stderr: a nested run's document on stdout is the hook's answer, and an
    # answer must be all of stdout (issue 20, items 1 and 2).
    nested = "forge-hook-run --event session:start; echo nested-exit=$? >&2"
    project.write_hooks([{"event": "session:start", "command": nested}])
    run = forge_run({"type": "session:start"}, env={"PATH": f"{TESTS}:{_bin_path()}"})
    assert run.exit_status == 0
    inner = json.loads(run.json["results"][0]["stdout"])
    assert inner["results"] == [] and "circular trigger" in inner["warnings"][0]
    assert run.json["results"][0]["stderr"].splitlines()[-1] == "nested-exit=0"


def test_nested_call_of_another_type_runs(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "session:start", "command": "forge-hook-run --event session:end"},
                         {"event": "session:end", "command": "echo $FORGE_HOOK_CHAIN"}])
    run = forge_run({"type": "session:start"}, env={"PATH": _bin_path()})
    inner = json.loads(run.json["results"][0]["stdout"])
    assert re.fullmatch(r"\d+\.\d+:session:start,\d+\.\d+:session:end\n", inner["results"][0]["stdout"])


@pytest.mark.parametrize(("sub_session", "guarded"), [("sub-agent-7f3", True), ("main-session", False)])
def test_an_agent_started_by_a_hook_is_guarded(project: Project, forge_run: ForgeRun, tmp_path: Path,
                                               sub_session: str, guarded: bool) -> None:
    """Issue 20, item 4, the "LLM judge": a tool:pre_execute hook starts an agent, whose own
    PreToolUse hook runs forge-hook-run --dialect claude with the sub-agent's session id.
    That run is another agent's: the global guard judges its rm -rf / (before: "circular
    trigger", no hook ran, and the sub-agent's call proceeded). The same session up the
    chain is still a circular trigger."""
    payload = {"session_id": sub_session, "transcript_path": None, "cwd": str(project.root),
               "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}
    (tmp_path / "payload.json").write_text(json.dumps(payload))
    answer = tmp_path / "sub-agent-answer.json"
    sub_agent = f"{installed('forge-hook-run')} --dialect claude < {tmp_path}/payload.json > {answer}"
    project.write_hooks([{"event": "tool:pre_execute:bash",
                          "command": "grep -q 'rm -rf' && { echo 'global guard: no rm -rf'; exit 1; } || exit 0"},
                         {"event": "tool:pre_execute:llm_judge", "command": sub_agent}], where="global")
    run = forge_run({"type": "tool:pre_execute", "tool_name": "llm_judge", "session_id": "main-session",
                     "data": {"tool_args": {"question": "is this safe?"}}})
    assert run.exit_status == 0, run
    judge = run.json["results"][0]
    if guarded:
        specific = json.loads(answer.read_text())["hookSpecificOutput"]
        assert specific["permissionDecision"] == "deny", judge
        assert specific["permissionDecisionReason"] == "global guard: no rm -rf"
    else:
        assert answer.read_text() == "" and "circular trigger" in judge["stderr"]


def test_python_dash_m_is_the_same_command(project: Project) -> None:
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "forge_hookd", "--event", "session:start"],
                          cwd=project.root, capture_output=True, text=True)
    assert proc.returncode == 0 and json.loads(proc.stdout)["version"] == 1


def _bin_path() -> str:
    import os
    import sys

    return f"{Path(sys.executable).parent}:{os.environ['PATH']}"


def test_closed_stdin_is_empty_input_not_a_crash(project: Project) -> None:
    import subprocess

    from helpers import installed

    proc = subprocess.run(f"exec {installed('forge-hook-run')} <&-", shell=True, cwd=project.root,
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["error"]["message"] == "empty input: expected one JSON event object"


def test_closed_stdout_still_gives_the_verdict(project: Project, tmp_path: Path) -> None:
    import subprocess

    from helpers import installed

    # The hook's own 0-2 must be its pipes: none of the runner's fds landed on 1.
    check = "for fd in 0 1 2; do case $(readlink /proc/$$/fd/$fd) in pipe:*) ;; *) exit 3;; esac; done"
    project.write_hooks([{"event": "*", "command": f"{check}; touch {tmp_path}/pipes_ok; exit 1"}])
    proc = subprocess.run(f"exec {installed('forge-hook-run')} --event session:start >&-", shell=True,
                          cwd=project.root, capture_output=True, text=True)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert (tmp_path / "pipes_ok").exists()


def test_a_project_root_that_is_not_a_directory_is_a_usage_error(project: Project, forge_run: ForgeRun, tmp_path: Path) -> None:
    run = forge_run(None, "--project-root", str(tmp_path / "typo"), "--event", "session:start")
    assert run.exit_status == 2
    assert run.json["error"] == {"kind": "usage", "message": f"the project root is not a directory: {tmp_path / 'typo'}"}
    from helpers import run_installed

    listed = run_installed(["--project-root", str(tmp_path / "typo"), "list"], cwd=project.root, prog="forge-hook")
    assert listed.exit_status == 2 and "the project root is not a directory" in listed.stderr


def test_a_nul_byte_in_a_command_is_a_config_warning(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "*", "command": "echo a\u0000b"}, {"event": "*", "command": "echo ok"}])
    run = forge_run({"type": "session:start"})
    assert run.exit_status == 0 and [r["stdout"] for r in run.json["results"]] == ["ok\n"]
    assert run.json["warnings"] == [f"{project.hooks_file}: hooks[0]: 'command' must not contain a NUL byte; hook skipped"]


def test_an_event_without_matching_hooks_loads_no_process_machinery(project: Project) -> None:
    # The start-up tricks (bench/README.md, "tricks.py") through the installed executable:
    # psutil (16 ms), subprocess and asyncio are loaded only when a hook runs.
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1", "FORGE_WARM": "0"}  # the cold start, also under --warm
    proc = subprocess.run([installed("forge-hook-run"), "--event", "session:start"], cwd=project.root,
                          capture_output=True, env=env, timeout=30)
    imported = {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines() if "|" in line}
    assert proc.returncode == 0 and "forge_hookd.cli.run" in imported
    assert not imported & {"psutil", "subprocess", "asyncio", "ctypes", "_ctypes", "forge_hookd.run.process"}
