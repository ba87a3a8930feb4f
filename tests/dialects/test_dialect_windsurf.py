"""Windsurf's Cascade hooks (dialects/windsurf.py), on the payloads of its docs
(tests/realagents/payloads/windsurf/README.md), through the installed forge-hook-run: exit 2
with stderr is its only block."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from helpers import Project, Run, run_installed
from forge_hookd.dialects import get
from forge_hookd.dialects.base import Inbound, Verdict
from helpers import TESTS

WINDSURF = get("windsurf")
DOCS = TESTS / "realagents" / "payloads" / "windsurf"
EXPECTED = {
    "pre_run_command": ("tool:pre_execute", "bash"), "post_run_command": ("tool:post_execute", "bash"),
    "pre_write_code": ("tool:pre_execute", "edit"), "post_write_code": ("tool:post_execute", "edit"),
    "pre_read_code": ("tool:pre_execute", "read"), "post_read_code": ("tool:post_execute", "read"),
    "pre_mcp_tool_use": ("tool:pre_execute", "mcp__github__create_issue"),
    "post_mcp_tool_use": ("tool:post_execute", "mcp__github__list_commits"),
    "pre_user_prompt": ("user:prompt_submit", None), "post_cascade_response": ("llm:post_response", None),
}


def doc(event: str, project: Project | None = None, **info: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DOCS / f"{event}.json").read_text())
    if project is not None and "cwd" in data["tool_info"]:
        data["tool_info"]["cwd"] = str(project.root)
    data["tool_info"].update(info)
    return data


def fire(data: dict[str, Any], project: Project) -> Run:
    return run_installed(["--dialect", "windsurf"], cwd=project.root, stdin=json.dumps(data))


def test_every_documented_event_has_a_payload() -> None:
    assert {p.stem for p in DOCS.glob("*.json")} == set(EXPECTED)


@pytest.mark.parametrize("native_event", sorted(EXPECTED))
def test_every_documented_payload_reads_as_the_right_forge_event(native_event: str) -> None:
    forge_type, tool = EXPECTED[native_event]
    inbound = WINDSURF.reader.read((DOCS / f"{native_event}.json").read_bytes())
    assert inbound.native_event == native_event and inbound.event is not None
    assert (inbound.event.type.value, inbound.event.tool_name) == (forge_type, tool)
    assert inbound.event.session_id == "traj-1"


def test_the_action_lands_in_forge_data() -> None:
    def data(event: str) -> dict[str, Any]:
        read = WINDSURF.reader.read((DOCS / f"{event}.json").read_bytes()).event
        assert read is not None
        return read.data

    assert data("pre_run_command")["tool_args"] == {"command": "npm install package-name",
                                                    "cwd": "/Users/yourname/project"}
    assert data("pre_write_code")["tool_args"]["file_path"] == "/Users/yourname/project/file.py"
    assert data("pre_mcp_tool_use")["tool_args"]["title"] == "Bug report"
    assert data("post_mcp_tool_use")["tool_result"] == "..."
    assert data("pre_user_prompt")["user_input"] == "can you run the echo hello command"


def test_a_guard_denies_rm_rf_home_with_exit_2_and_the_reason_on_stderr(project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute", "guard": "destructive_rm"}])
    run = fire(doc("pre_run_command", project, command_line="rm -rf ~"), project)
    assert run.exit_status == 2 and run.stdout == ""
    assert "rm" in run.stderr.splitlines()[0]
    calm = fire(doc("pre_run_command", project), project)
    assert (calm.exit_status, calm.stdout) == (0, "")


def test_an_ask_is_a_deny_saying_a_person_must_decide() -> None:
    answer = WINDSURF.writer.answer(Inbound("windsurf", "pre_mcp_tool_use", None, {}, None),
                                    Verdict("ask", "writes to GitHub"))
    assert answer.exit_code == 2
    assert answer.stderr.splitlines()[0] == "a person must decide (this agent cannot ask here): writes to GitHub"


def test_a_rewrite_or_context_it_cannot_carry_is_reported_and_a_post_event_never_blocks() -> None:
    pre = WINDSURF.writer.answer(Inbound("windsurf", "pre_run_command", None, {}, None),
                                 Verdict(None, None, {"command": "ls"}, ["be careful"]))
    assert pre.exit_code == 0 and len(pre.dropped) == 2 and "dropped rewritten tool_args" in pre.stderr
    post = WINDSURF.writer.answer(Inbound("windsurf", "post_run_command", None, {}, None), Verdict("deny", "no"))
    assert post.exit_code == 0 and post.dropped == ["decision deny: post_run_command cannot be blocked"]


def test_forge_failing_blocks(project: Project) -> None:
    data = doc("pre_run_command", project)
    del data["tool_info"]["command_line"]
    run = fire(data, project)
    assert run.exit_status == 2 and "forge-hook-run could not check this call" in run.stderr
    broken = run_installed(["--dialect", "windsurf"], cwd=project.root, stdin="{not json")
    assert broken.exit_status == 2


def test_install_writes_both_files_and_the_command_blocks_when_forge_cannot_start(project: Project) -> None:
    run = run_installed(["install", "--agent", "windsurf", "--project"], cwd=project.root, prog="forge-hook")
    assert run.exit_status == 0, run.stderr
    written = json.loads((project.root / ".windsurf/hooks.json").read_text())["hooks"]
    assert set(written) == set(EXPECTED)
    command = written["pre_run_command"][0]["command"]
    assert "--dialect windsurf" in command
    # the agent's own shell, without forge-hook-run on PATH (a teammate's): the command blocks
    gone = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(doc("pre_run_command", project)).encode(),
                          capture_output=True, cwd=project.root, env={**os.environ, "PATH": "/usr/bin:/bin"})
    assert gone.returncode == 2 and b"forge-hook-run is not on PATH" in gone.stderr
    # and with it: the guard's deny passes through unchanged
    project.write_hooks([{"event": "tool:pre_execute", "guard": "destructive_rm"}])
    denied = subprocess.run(["/bin/sh", "-c", command], cwd=project.root, capture_output=True,
                            input=json.dumps(doc("pre_run_command", project, command_line="rm -rf ~")).encode())
    assert denied.returncode == 2 and b"could not be started" not in denied.stderr
    glob = run_installed(["install", "--agent", "windsurf", "--global"], cwd=project.root, prog="forge-hook")
    assert glob.exit_status == 0 and (project.home / ".codeium/windsurf/hooks.json").exists()
    assert run_installed(["install", "--agent", "windsurf", "--project", "--uninstall"], cwd=project.root,
                         prog="forge-hook").exit_status == 0
    assert not (project.root / ".windsurf/hooks.json").exists()


def test_import_names_each_events_tool_class(project: Project) -> None:
    settings = project.root / ".windsurf" / "hooks.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {
        "pre_run_command": [{"command": "python3 /abs/guard.py", "show_output": True}],
        "pre_mcp_tool_use": [{"command": "./mcp.sh"}], "pre_user_prompt": [{"command": "./prompt.sh"}]}}))
    run = run_installed(["import", "--from", "windsurf", "--project", "--dry-run"], cwd=project.root,
                        prog="forge-hook")
    assert run.exit_status == 0, run.stderr
    events = [(h["event"], h["format"]) for h in json.loads(run.stdout)["hooks"]]
    assert events == [("tool:pre_execute:bash", "windsurf"), ("tool:pre_execute:mcp__*", "windsurf"),
                      ("user:prompt_submit", "windsurf")]
