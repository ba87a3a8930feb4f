"""A built-in guard denies through every dialect (issue 22): the agent's own payload in
(recorded from the real CLIs: tests/realagents/payloads/; Cursor's from its docs), the
agent's own deny out, with the guard's reason, through the installed forge-hook-run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import Project, Run, run_installed
from helpers import TESTS

PAYLOADS = TESTS / "realagents" / "payloads"
PACK = [{"event": "tool:pre_execute", "guard": name}
        for name in ("destructive_rm", "force_push", "secret_files", "infra_destructive", "block_sudo")]

#: (--dialect, recorded payload): every shape of pre-tool payload forge reads
SHELL = {
    "claude": ("claude", "claude/PreToolUse"),
    "codex": ("codex", "codex/PreToolUse"),
    "gemini": ("gemini", "gemini/BeforeTool"),
    "cursor-shell": ("cursor", "cursor/beforeShellExecution"),
    "cursor-tool": ("cursor", "cursor/preToolUse"),
    "copilot-cli": ("copilot:preToolUse", "copilot/preToolUse.recorded"),
    "copilot-vscode": ("copilot", "copilot/PreToolUse.vscode.recorded"),
}


def payload(recorded: str, project: Project, *, command: str | None = None, cwd: Path | None = None,
            **changes: Any) -> dict[str, Any]:
    """A recorded payload moved into ``project`` (its cwd, Cursor's workspace), with
    the shell command ``command`` wherever this agent puts it."""
    data: dict[str, Any] = json.loads((PAYLOADS / f"{recorded}.json").read_text())
    data["cwd"] = str(cwd or project.root)
    if "workspace_roots" in data:
        data["workspace_roots"] = [str(project.root)]
    if command is not None:
        for key in ("tool_input", "toolArgs"):
            if key in data:
                data[key] = {k: v for k, v in data[key].items() if k != "working_directory"} | {"command": command}
        if "command" in data:
            data["command"] = command
    data.update(changes)
    return data


def fire(dialect: str, data: dict[str, Any], project: Project, *args: str) -> Run:
    return run_installed(["--dialect", dialect, *args], cwd=project.root, stdin=json.dumps(data))


def told(run: Run) -> tuple[str | None, str | None]:
    """The decision and reason the agent reads from forge's answer, in any agent's form."""
    assert run.exit_status == 0, run.stderr
    doc: dict[str, Any] = json.loads(run.stdout) if run.stdout.strip() else {}
    specific = doc.get("hookSpecificOutput") or {}
    for decision, reason in ((specific.get("permissionDecision"), specific.get("permissionDecisionReason")),
                             (doc.get("permissionDecision"), doc.get("permissionDecisionReason")),
                             (doc.get("permission"), doc.get("agent_message")),
                             (doc.get("decision"), doc.get("reason"))):
        if decision is not None:
            return decision, reason
    return None, None


@pytest.mark.parametrize("case", sorted(SHELL))
@pytest.mark.parametrize(("command", "reason"), [
    ("rm -rf ~", "destructive_rm: `rm -rf ~` deletes the home directory"),
    ("git push --force origin main", "force_push: `git push --force origin main`"),
    ("sudo ls", "Blocked: sudo not allowed. privilege_escalation"),
    ("bash -lc 'cat .env'", "secret_files: `cat .env`"),
])
def test_a_guard_denies_a_shell_call_in_the_agents_own_form(case: str, command: str, reason: str,
                                                            project: Project) -> None:
    project.write_hooks(PACK)
    dialect, recorded = SHELL[case]
    decision, said = told(fire(dialect, payload(recorded, project, command=command), project))
    assert decision == "deny" and said is not None and said.startswith(reason), said


@pytest.mark.parametrize("case", sorted(SHELL))
def test_the_look_alikes_pass_with_no_decision(case: str, project: Project) -> None:
    project.write_hooks(PACK)
    dialect, recorded = SHELL[case]
    for command in ("rm -rf ./build", 'echo "rm -rf /"', "grep sudo auth.log", 'git commit -m "drop the --force flag"'):
        run = fire(dialect, payload(recorded, project, command=command), project)
        assert told(run) == (None, None), (command, run.stdout)


@pytest.mark.parametrize("case", ["claude", "gemini", "copilot-cli"])
def test_a_guard_that_asks_asks_in_the_agents_form(case: str, project: Project) -> None:
    project.write_hooks(PACK)
    dialect, recorded = SHELL[case]
    decision, said = told(fire(dialect, payload(recorded, project, command="terraform destroy -auto-approve"),
                               project))
    if case == "gemini":  # no ask in Gemini: `gemini -p` hangs on one (issue 30 item 8)
        assert decision == "deny" and said is not None and said.startswith("a person must decide"), said
    else:
        assert decision == "ask" and said is not None, said
    assert "terraform destroy" in said


#: a file tool of each agent reading a secret file
FILE_TOOLS = {
    "claude": ("claude", "claude/PreToolUse", {"tool_name": "Read", "tool_input": {"file_path": "{root}/.env"}}),
    "codex": ("codex", "codex/PreToolUse", {"tool_name": "apply_patch", "tool_input": {
        "command": "*** Begin Patch\n*** Update File: .env\n@@\n-A=1\n+A=2\n*** End Patch\n"}}),
    "gemini": ("gemini", "gemini/BeforeTool", {"tool_name": "read_file", "tool_input": {
        "absolute_path": "{root}/.env"}}),
    "cursor": ("cursor", "cursor/beforeReadFile", {"file_path": "{root}/.env"}),
    "copilot": ("copilot:preToolUse", "copilot/preToolUse.recorded", {"toolName": "view", "toolArgs": {
        "path": "{root}/.env"}}),
}


@pytest.mark.parametrize("case", sorted(FILE_TOOLS))
def test_a_guard_denies_a_file_tool_in_the_agents_own_form(case: str, project: Project) -> None:
    project.write_hooks(PACK)
    dialect, recorded, changes = FILE_TOOLS[case]
    changes = json.loads(json.dumps(changes).replace("{root}", str(project.root)))
    decision, said = told(fire(dialect, payload(recorded, project, **changes), project))
    assert decision == "deny" and said is not None and said.startswith("secret_files: "), said


def test_the_agents_cwd_is_where_a_command_runs(project: Project) -> None:
    """Claude says where its shell is: `rm -rf ..` from project/a/b stays in the project;
    from the project root it leaves it (pytest's tmp is under /tmp: not allowed here)."""
    project.write_hooks([{"event": "tool:pre_execute", "guard": "destructive_rm", "with": {"allow_outside": []}}])
    deep = project.root / "a" / "b"
    deep.mkdir(parents=True)
    inside = fire("claude", payload("claude/PreToolUse", project, command="rm -rf ..", cwd=deep), project)
    assert told(inside) == (None, None)
    outside = fire("claude", payload("claude/PreToolUse", project, command="rm -rf .."), project)
    assert told(outside)[0] == "deny"


def test_the_report_holds_the_guards_result(project: Project, tmp_path: Path) -> None:
    project.write_hooks(PACK)
    report = tmp_path / "report.json"
    fire("codex", payload("codex/PreToolUse", project, command="rm -rf /"), project, "--report", str(report))
    result = json.loads(report.read_text())["results"][0]
    assert (result["hook"]["guard"], result["exit_code"], result["decision"]) == ("destructive_rm", 0, "deny")
    assert result["reason"].startswith("destructive_rm: `rm -rf /` deletes the filesystem root")


def test_claudes_notebook_edit_is_judged_as_an_edit(project: Project) -> None:
    """NotebookEdit was a tool no dialect mapped: judged by its shape, with a warning on
    every call. Its notebook_path and new_source are a path and the content written."""
    project.write_hooks([*PACK, {"event": "tool:pre_execute", "guard": "hardcoded_secrets"}])
    notebook = {"notebook_path": str(project.root / "a.ipynb"), "new_source": "key = 'AKIAIOSFODNN7EXAMPLQ'"}
    run = fire("claude", payload("claude/PreToolUse", project, tool_name="NotebookEdit", tool_input=notebook),
               project)
    decision, said = told(run)
    assert decision == "deny" and said is not None and said.startswith("hardcoded_secrets: "), said
    assert "judged by" not in run.stderr and "NotebookEdit" not in run.stderr
    clean = fire("claude", payload("claude/PreToolUse", project, tool_name="NotebookEdit",
                                   tool_input={**notebook, "new_source": "print(1)"}), project)
    assert told(clean) == (None, None) and clean.stderr == ""
