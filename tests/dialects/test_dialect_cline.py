"""Cline's hooks (dialects/cline.py, agents/cline_hooks.py), on the payloads of its CLI's
source and its extension's docs (tests/realagents/payloads/cline/README.md), through the
installed forge-hook-run and forge-hook: only {"cancel": true} stops, so every deny is
the cancel JSON, forge's own failures and a forge-hook-run that cannot start included."""

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
from forge_hookd.dialects.cline import CONTEXT_LIMIT
from helpers import TESTS

CLINE = get("cline")
DOCS = TESTS / "realagents" / "payloads" / "cline"
RM = [{"event": "tool:pre_execute", "guard": "destructive_rm"}]


def doc(name: str, project: Project | None = None) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DOCS / f"{name}.json").read_text())
    if project is not None:
        data.pop("workspacePath", None)
        data["workspaceRoots"] = [str(project.root)]
    return data


def fire(data: dict[str, Any] | str, project: Project, event: str = "PreToolUse") -> Run:
    return run_installed(["--dialect", f"cline:{event}"], cwd=project.root,
                         stdin=data if isinstance(data, str) else json.dumps(data))


@pytest.mark.parametrize("name, native_event, forge_type, tool, args", [
    ("PreToolUse.cli", "PreToolUse", "tool:pre_execute", "bash",
     {"commands": ["npm install express"], "command": "npm install express"}),
    ("PostToolUse.cli", "PostToolUse", "tool:post_execute", "bash",
     {"commands": ["npm install express"], "command": "npm install express"}),
    ("PreToolUse.extension", "PreToolUse", "tool:pre_execute", "bash",
     {"command": "npm install express", "requires_approval": "false"}),
    ("PreToolUse.older", "PreToolUse", "tool:pre_execute", "write", {"path": "src/a.ts", "content": "export {}"}),
    ("UserPromptSubmit.cli", "UserPromptSubmit", "user:prompt_submit", None, None),
    ("TaskStart.extension", "TaskStart", "session:start", None, None),
])
def test_every_payload_shape_reads(name: str, native_event: str, forge_type: str, tool: str | None,
                                   args: dict[str, Any] | None) -> None:
    inbound = CLINE.reader.read((DOCS / f"{name}.json").read_bytes(), native_event)
    assert inbound.native_event == native_event and inbound.cwd == "/project" and inbound.event is not None
    assert (inbound.event.type.value, inbound.event.tool_name) == (forge_type, tool)
    assert inbound.event.data.get("tool_args") == args
    assert inbound.event.session_id in ("task-1", "test-123")


def test_results_and_prompts_land_in_forge_data() -> None:
    post = CLINE.reader.read((DOCS / "PostToolUse.cli.json").read_bytes()).event
    prompt = CLINE.reader.read((DOCS / "UserPromptSubmit.cli.json").read_bytes()).event
    assert post is not None and post.data["tool_result"] == "added 64 packages in 2s"
    assert prompt is not None and prompt.data["user_input"] == "Fix the bug in main.ts"


def test_every_command_of_run_commands_is_seen_by_a_guard(project: Project) -> None:
    project.write_hooks(RM)
    data = doc("PreToolUse.cli", project)
    data["tool_call"]["input"] = {"commands": ["ls -la", {"command": "rm", "args": ["-rf", "~"]}]}
    run = fire(data, project)
    assert run.exit_status == 0 and run.json["cancel"] is True and "rm -rf ~" in run.json["errorMessage"]


@pytest.mark.parametrize("name", ["PreToolUse.cli", "PreToolUse.extension"])
def test_a_guard_denies_rm_rf_home_with_the_cancel_json(name: str, project: Project) -> None:
    project.write_hooks(RM)
    data = doc(name, project)
    if "tool_call" in data:
        data["tool_call"]["input"] = {"commands": ["rm -rf ~"]}
    else:
        data["preToolUse"]["parameters"]["command"] = "rm -rf ~"
    run = fire(data, project)
    assert run.exit_status == 0 and run.json["cancel"] is True and "destructive_rm" in run.json["errorMessage"]
    calm = fire(doc(name, project), project)
    assert (calm.exit_status, calm.stdout) == (0, "")


def test_forge_failing_prints_the_cancel_json_never_only_an_exit_status(project: Project) -> None:
    broken = fire("{not json", project)
    assert broken.exit_status == 0 and broken.json["cancel"] is True
    assert "forge-hook-run could not check this call" in broken.json["errorMessage"]
    nameless = run_installed(["--dialect", "cline"], cwd=project.root, stdin="{}")
    assert nameless.json["cancel"] is True
    no_tool = doc("PreToolUse.cli", project)
    del no_tool["tool_call"], no_tool["preToolUse"]
    assert fire(no_tool, project).json["cancel"] is True


def test_ask_rewrite_and_context_in_clines_form() -> None:
    pre = Inbound("cline", "PreToolUse", None, {}, None)
    asked = json.loads(CLINE.writer.answer(pre, Verdict("ask", "prod")).stdout)
    assert asked == {"cancel": True, "errorMessage": "a person must decide (this agent cannot ask here): prod"}
    inbound = CLINE.reader.read((DOCS / "PreToolUse.cli.json").read_bytes())
    assert inbound.event is not None
    rewritten = json.loads(CLINE.writer.answer(inbound, Verdict(None, None, {
        "commands": ["npm install express"], "command": "npm ci"}, ["x" * (CONTEXT_LIMIT + 5)])).stdout)
    assert rewritten["overrideInput"] == {"commands": ["npm ci"]}
    assert len(rewritten["contextModification"]) == CONTEXT_LIMIT
    answer = CLINE.writer.answer(inbound, Verdict(None, None, None, ["x" * (CONTEXT_LIMIT + 5)]))
    assert any("50000" in d for d in answer.dropped)


def test_install_writes_an_executable_per_event_that_cancels_when_forge_cannot_start(project: Project) -> None:
    run = run_installed(["install", "--agent", "cline", "--project"], cwd=project.root, prog="forge-hook")
    assert run.exit_status == 0, run.stderr
    hooks = project.root / ".clinerules" / "hooks"
    assert {p.name for p in hooks.iterdir()} == set(CLINE.words.events)
    pre = hooks / "PreToolUse"
    assert os.access(pre, os.X_OK)
    project.write_hooks(RM)
    data = doc("PreToolUse.cli", project)
    data["tool_call"]["input"] = {"commands": ["rm -rf ~"]}
    denied = subprocess.run([str(pre)], input=json.dumps(data).encode(), capture_output=True, cwd=project.root)
    assert json.loads(denied.stdout)["cancel"] is True
    text = pre.read_text()
    first = text.split("--dialect")[0].split("\n")[-1].strip()
    pre.write_text(text.replace(first, "/nonexistent/forge-hook-run", 1))
    gone = subprocess.run([str(pre)], input=json.dumps(data).encode(), capture_output=True, cwd=project.root)
    control = [line for line in gone.stdout.decode().splitlines() if line.startswith("HOOK_CONTROL\t")]
    assert json.loads(control[-1].partition("\t")[2])["cancel"] is True
    pre.write_text(text)
    (project.home / ".cline").mkdir()
    report = json.loads(run_installed(["doctor", "--json"], cwd=project.root, prog="forge-hook").stdout)
    cline = next(r for r in report["agents"] if r["agent"] == "cline")
    assert cline["wired"] == list(CLINE.words.events) and cline["findings"] == []
    (project.root / ".cline" / "hooks").mkdir(parents=True)
    (project.root / ".cline" / "hooks" / "PreToolUse.sh").write_text(text)
    report = json.loads(run_installed(["doctor", "--json"], cwd=project.root, prog="forge-hook").stdout)
    cline = next(r for r in report["agents"] if r["agent"] == "cline")
    assert any("2 times on cline's PreToolUse" in f for f in cline["findings"]), cline["findings"]
    (project.root / ".cline" / "hooks" / "PreToolUse.sh").unlink()
    out = run_installed(["install", "--agent", "cline", "--project", "--uninstall"], cwd=project.root,
                        prog="forge-hook")
    assert out.exit_status == 0 and not (project.root / ".clinerules").exists()


def test_install_leaves_the_users_own_hook_alone(project: Project) -> None:
    hooks = project.root / ".clinerules" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "PreToolUse.py").write_text("#!/usr/bin/env python3\nprint('{}')\n")
    run = run_installed(["install", "--agent", "cline", "--project"], cwd=project.root, prog="forge-hook")
    assert run.exit_status == 0 and "your own PreToolUse hook" in run.stderr + run.stdout
    assert not (hooks / "PreToolUse").exists() and (hooks / "TaskStart").exists()
    run_installed(["install", "--agent", "cline", "--project", "--uninstall"], cwd=project.root, prog="forge-hook")
    assert [p.name for p in hooks.iterdir()] == ["PreToolUse.py"]


def test_import_reads_a_hooks_directory_and_the_hooks_answer_by_clines_rules(project: Project) -> None:
    hooks = project.root / ".cline" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "PreToolUse.py").write_text(
        "import json, sys\n"
        "call = json.load(sys.stdin)['tool_call']\n"
        "if 'rm' in json.dumps(call['input']):\n"
        "    print(json.dumps({'cancel': True, 'errorMessage': 'no rm here (my own hook)'}))\n"
        "else:\n"
        "    print('HOOK_CONTROL\\t' + json.dumps({'contextModification': 'checked by my hook'}))\n")
    (hooks / "TaskStart").write_text("#!/bin/sh\necho started >> started.log\n")
    (hooks / "notes.md").write_text("not a hook")
    run = run_installed(["import", "--from", "cline", "--project"], cwd=project.root, prog="forge-hook")
    assert run.exit_status == 0, run.stderr
    imported = json.loads(project.hooks_file.read_text())["hooks"]
    assert [(h["event"], h["format"]) for h in imported] == [("tool:pre_execute", "cline"), ("session:start", "cline")]
    assert imported[0]["command"].startswith("python3 ") and imported[1]["blocking"] is False
    run_installed(["trust"], cwd=project.root, prog="forge-hook")
    data = doc("PreToolUse.cli", project)
    data["tool_call"]["input"] = {"commands": ["rm -rf build"]}
    denied = fire(data, project)
    assert denied.json == {"cancel": True, "errorMessage": "no rm here (my own hook)"}
    calm = fire(doc("PreToolUse.cli", project), project)
    assert calm.json == {"contextModification": "checked by my hook"}


def test_print_config_prints_an_executable_not_a_settings_snippet(project: Project) -> None:
    run = run_installed(["--dialect", "cline", "--print-config"], cwd=project.root)
    assert run.exit_status == 0 and run.stdout.startswith("#!/bin/sh\n")
    assert "forge-hook-run --dialect cline:PreToolUse" in run.stdout and "HOOK_CONTROL" in run.stdout
