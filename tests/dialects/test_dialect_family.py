"""The Claude-compatible family (dialects/family.py): Qwen Code, Factory Droid, Auggie,
Crush and Continue's cn, each a dialect alias of claude, on the payloads of their
packages and docs (tests/realagents/payloads/NAME/README.md says where each is from),
through the installed forge-hook-run and forge-hook."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from helpers import Project, Run, run_installed
from forge_hookd.dialects import get
from forge_hookd.dialects.base import Inbound, Verdict
from helpers import TESTS

PAYLOADS = TESTS / "realagents" / "payloads"
FAMILY = ("qwen", "droid", "auggie", "crush", "continue")
RM = [{"event": "tool:pre_execute", "guard": "destructive_rm"}]


def payload(name: str, project: Project, event: str = "PreToolUse", **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((PAYLOADS / name / f"{event}.json").read_text())
    if "cwd" in data:
        data["cwd"] = str(project.root)
    if "workspace_roots" in data:
        data["workspace_roots"] = [str(project.root)]
    data.update(changes)
    return data


def fire(name: str, data: dict[str, Any], project: Project) -> Run:
    return run_installed(["--dialect", name], cwd=project.root, stdin=json.dumps(data))


def forge_hook(project: Project, *args: str) -> Run:
    return run_installed(list(args), cwd=project.root, prog="forge-hook")


@pytest.mark.parametrize("name", FAMILY)
def test_each_reads_its_own_shell_tool_as_bash_and_a_guard_denies_rm_rf_home(name: str, project: Project) -> None:
    project.write_hooks(RM)
    data = payload(name, project)
    data["tool_input"] = {**data["tool_input"], "command": "rm -rf ~"}
    run = fire(name, data, project)
    assert run.exit_status == 0, run.stderr
    specific = run.json["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny" and "rm" in specific["permissionDecisionReason"]
    calm = fire(name, payload(name, project), project)
    assert (calm.exit_status, calm.stdout) == (0, "")


@pytest.mark.parametrize("name, tool, canonical", [
    ("qwen", "run_shell_command", "bash"), ("qwen", "write_file", "write"), ("droid", "Execute", "bash"),
    ("droid", "Create", "write"), ("auggie", "launch-process", "bash"), ("auggie", "save-file", "write"),
    ("crush", "bash", "bash"), ("crush", "view", "read"), ("continue", "Bash", "bash")])
def test_tool_names_become_forge_canonical_names(name: str, tool: str, canonical: str) -> None:
    data = json.loads((PAYLOADS / name / "PreToolUse.json").read_text()) | {"tool_name": tool}
    inbound = get(name).reader.read(json.dumps(data).encode())
    assert inbound.event is not None and inbound.event.tool_name == canonical
    assert inbound.event.data["agent"]["name"] == name and inbound.event.data["agent"]["tool"] == tool


def test_auggie_has_no_cwd_its_workspace_root_and_conversation_stand_in() -> None:
    inbound = get("auggie").reader.read((PAYLOADS / "auggie" / "PreToolUse.json").read_bytes())
    assert inbound.cwd == "/project" and inbound.event is not None and inbound.event.session_id == "conv-123"
    after = get("auggie").reader.read((PAYLOADS / "auggie" / "PostToolUse.json").read_bytes()).event
    assert after is not None and after.type.value == "tool:post_execute"
    assert after.data["tool_result"] == "added 64 packages in 2s" and "error" not in after.data


def test_crush_names_its_event_in_event_not_hook_event_name() -> None:
    inbound = get("crush").reader.read((PAYLOADS / "crush" / "PreToolUse.json").read_bytes())
    assert inbound.native_event == "PreToolUse" and inbound.cwd == "/project"


@pytest.mark.parametrize("name, asks", [("qwen", True), ("droid", True), ("continue", True),
                                        ("auggie", False), ("crush", False)])
def test_an_ask_is_a_deny_saying_a_person_must_decide_where_the_agent_has_no_ask(name: str, asks: bool) -> None:
    inbound = Inbound(name, "PreToolUse", None, {}, None)
    out = json.loads(get(name).writer.answer(inbound, Verdict("ask", "prod database")).stdout)
    specific = out["hookSpecificOutput"]
    if asks:
        assert specific["permissionDecision"] == "ask"
    else:
        assert specific["permissionDecision"] == "deny"
        assert specific["permissionDecisionReason"] == "a person must decide (this agent cannot ask here): prod database"


@pytest.mark.parametrize("name, written, seconds", [
    ("qwen", None, 60.0), ("qwen", 30, 30.0), ("qwen", 5000, 5.0),  # Qwen: 1000 or more is milliseconds
    ("droid", None, 60.0), ("auggie", None, 60.0), ("auggie", 5000, 5.0),  # Auggie: milliseconds
    ("crush", None, 30.0), ("crush", 10, 10.0), ("continue", None, 600.0)])
def test_timeouts_in_each_agents_unit_and_default(name: str, written: int | None, seconds: float) -> None:
    handler: dict[str, Any] = {"type": "command", "command": "x"} | ({"timeout": written} if written else {})
    assert get(name).settings.timeout(handler, "PreToolUse") == seconds


@pytest.mark.parametrize("name", ["qwen", "auggie", "crush"])
def test_forge_failing_denies_in_claudes_form(name: str, project: Project) -> None:
    data = payload(name, project)
    del data["tool_input"]  # forge cannot check the call
    run = fire(name, data, project)
    assert run.exit_status == 0, run.stderr
    specific = run.json["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "forge-hook-run could not check this call" in specific["permissionDecisionReason"]


@pytest.mark.parametrize("name, file", [("qwen", ".qwen/settings.json"), ("droid", ".factory/hooks.json"),
                                        ("auggie", ".augment/settings.json"), ("continue", ".continue/settings.json")])
def test_install_writes_the_agents_own_file_with_its_alias_and_uninstall_removes_it(
        name: str, file: str, project: Project) -> None:
    run = forge_hook(project, "install", "--agent", name, "--project")
    assert run.exit_status == 0, run.stderr
    doc = json.loads((project.root / file).read_text())
    entry = doc["hooks"]["PreToolUse"][0]
    assert entry["matcher"] == "*" and f"--dialect {name} " in entry["hooks"][0]["command"] + " "
    assert set(doc["hooks"]) == set(get(name).words.events)
    assert forge_hook(project, "install", "--agent", name, "--project", "--uninstall").exit_status == 0
    assert not (project.root / file).exists()


def test_crush_install_writes_its_flat_list_beside_the_users_config(project: Project) -> None:
    (project.root / "crush.json").write_text('{\n  // mine\n  "options": {"debug": true}\n}\n')
    assert forge_hook(project, "install", "--agent", "crush", "--project").exit_status == 0
    text = (project.root / "crush.json").read_text()
    assert "// mine" in text and '"debug": true' in text
    assert '"PreToolUse"' in text and "--dialect crush" in text and '"matcher"' not in text
    assert forge_hook(project, "install", "--agent", "crush", "--project", "--uninstall").exit_status == 0
    assert (project.root / "crush.json").read_text() == '{\n  // mine\n  "options": {"debug": true}\n}\n'


def report_of(project: Project, agent: str) -> dict[str, Any]:
    run = forge_hook(project, "doctor", "--json")
    found: dict[str, Any] = next(r for r in json.loads(run.stdout)["agents"] if r["agent"] == agent)
    return found


def test_doctor_says_cn_reads_claudes_file_too_and_where_forge_would_run_twice(project: Project) -> None:
    (project.home / ".continue").mkdir()  # cn is here
    assert forge_hook(project, "install", "--agent", "claude", "--project").exit_status == 0
    assert report_of(project, "continue")["findings"] == []  # said, not a finding: forge runs once
    [cn] = [r for r in report_of(project, "claude")["also_read_by"] if r["program"] == "Continue's cn"]
    assert cn["agent"] == "continue" and cn["forge"] == [str(project.root / ".claude/settings.json")]
    assert forge_hook(project, "install", "--agent", "continue", "--project").exit_status == 0
    findings = report_of(project, "continue")["findings"]
    assert any("runs 2 times on Continue's cn's PreToolUse" in f for f in findings), findings


def _forge_commands(doc: object, event: str, inside: bool = False) -> list[str]:
    """The forge-hook-run commands a settings document runs on ``event`` (any nesting:
    Claude's groups, Crush's flat list)."""
    if isinstance(doc, dict):
        return [c for key, value in doc.items() for c in _forge_commands(value, event, inside or key == event)]
    if isinstance(doc, list):
        return [c for value in doc for c in _forge_commands(value, event, inside)]
    return [doc] if inside and isinstance(doc, str) and "forge-hook-run" in doc else []


@pytest.mark.parametrize("name", FAMILY)
def test_the_readmes_one_line_install_denies_rm_rf_home_in_the_agents_own_shell(name: str, project: Project) -> None:
    """README's `forge-hook add --global --guards recommended && forge-hook install
    --agent X --global`, then the command it wrote, run by sh as the agent runs it."""
    from forge_hookd.agents.places import target_file

    assert forge_hook(project, "add", "--global", "--guards", "recommended").exit_status == 0
    assert forge_hook(project, "install", "--agent", name, "--global").exit_status == 0
    written = Path(target_file(name, "global", str(project.root)))
    [command] = _forge_commands(json.loads(written.read_text()), "PreToolUse")
    data = payload(name, project)
    data["tool_input"] = {**data["tool_input"], "command": "rm -rf ~"}
    done = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(data).encode(), capture_output=True,
                          cwd=project.root, timeout=60)
    assert done.returncode == 0, done.stderr
    specific = json.loads(done.stdout)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"].startswith("destructive_rm: `rm -rf ~`"), specific
