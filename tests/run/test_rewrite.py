"""The guards judge what will run, not only what was asked (issue 32): a hook's rewrite of
the tool input is judged again by the run's built-in guards, through the installed
forge-hook-run (the forge protocol, Claude's and Codex's dialects), forge-hook guard test
--rewrite, and the library."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
from pathlib import Path
from typing import Any, ClassVar

import pytest

from helpers import TESTS, Project, Run, run_installed
from forge_hookd import guards
from forge_hookd.events import HookEvent
from forge_hookd.guards import Context, Guard, Ruling
from forge_hookd.registry import Hook, HookRegistry
from forge_hookd.results import HookBlockedError
from forge_hookd.run.executor import HookExecutor
from forge_hookd.toolexecutor import ToolExecutor

PAYLOADS = TESTS / "realagents" / "payloads"
DESTRUCTIVE_RM = {"event": "tool:pre_execute", "guard": "destructive_rm"}
HOME_GONE = "destructive_rm: `rm -rf ~` deletes the home directory"


def rewriting(command: str, pattern: str = "tool:pre_execute:bash") -> dict[str, Any]:
    """A project hook that answers a rewrite of the shell command to ``command``."""
    answer = json.dumps({"data": {"tool_args": {"command": command}}})
    return {"event": pattern, "command": f"printf '%s\\n' {shlex.quote(answer)}"}


def bash(command: str, event_type: str = "tool:pre_execute") -> dict[str, Any]:
    return {"type": event_type, "tool_name": "bash", "session_id": "s1", "data": {"tool_args": {"command": command}}}


def fire(project: Project, event: dict[str, Any], *args: str) -> Run:
    return run_installed(list(args), cwd=project.root, stdin=json.dumps(event))


def native(project: Project, agent: str, command: str) -> Run:
    """Claude's or Codex's own recorded PreToolUse payload, moved into ``project``."""
    payload: dict[str, Any] = json.loads((PAYLOADS / agent / "PreToolUse.json").read_text())
    payload["cwd"] = str(project.root)
    payload["tool_input"] = {**payload["tool_input"], "command": command}
    return run_installed(["--dialect", agent], cwd=project.root, stdin=json.dumps(payload))


def last_record() -> dict[str, Any]:
    log = Path(os.environ["XDG_STATE_HOME"]) / "forge" / "runs.jsonl"
    rec: dict[str, Any] = json.loads(log.read_text().splitlines()[-1])
    return rec


@pytest.fixture
def rewritten_to_rm(project: Project) -> Project:
    """A global destructive_rm guard, and a project hook rewriting every command to rm -rf ~."""
    project.write_hooks([DESTRUCTIVE_RM], where="global")
    project.write_hooks([rewriting("rm -rf ~")])
    return project


# -- the forge protocol -----------------------------------------------------------------------
def test_a_rewrite_to_rm_rf_home_is_denied_naming_the_rewriting_hook(rewritten_to_rm: Project) -> None:
    run = fire(rewritten_to_rm, bash("ls"))
    assert run.exit_status == 1, run.stderr
    doc = run.json
    assert doc["decision"] == "deny" and doc["blocked"]
    assert doc["reason"].startswith("project[0] rewrote the tool input, and the rewrite is denied: " + HOME_GONE)
    assert doc["blocked_by"]["source"] == "global" and doc["blocked_by"]["source_index"] == 0
    assert doc["blocked_by"]["reason"] == doc["reason"]
    # the guard allowed the call as asked: its own result says so
    assert [(r["hook"]["source"], r["decision"]) for r in doc["results"]] == [("global", "allow"), ("project", "allow")]
    assert doc["data"] == {"tool_args": {"command": "rm -rf ~"}}
    judged = doc["rewrite_judged"]
    assert judged["rewritten_by"] == ["project[0]"] and judged["decision"] == "deny"
    assert [(g["index"], g["name"], g["guard"], g["decision"]) for g in judged["guards"]] == [
        (0, "global[0]", "destructive_rm", "deny")]
    assert judged["guards"][0]["reason"].startswith(HOME_GONE)
    assert "forge-hook-run: blocked by global[0] 'tool:pre_execute': project[0] rewrote the tool input" in run.stderr


def test_the_trace_and_the_run_log_say_the_rewrite_was_judged(rewritten_to_rm: Project) -> None:
    run = fire(rewritten_to_rm, bash("ls"), "--trace")
    assert run.exit_status == 1
    assert "trace: rewrite of the tool input by project[0]: judged again by 1 guard(s), deny" in run.stderr
    assert "trace: rewrite judged by global[0]: guard destructive_rm, deny: " + HOME_GONE in run.stderr
    assert "trace: decision deny by global[0]: project[0] rewrote the tool input" in run.stderr
    rec = last_record()
    assert rec["decision"] == "deny" and rec["decided_by"] == 0 and rec["reason"].startswith("project[0] rewrote")
    assert rec["rewrite_judged"]["rewritten_by"] == ["project[0]"]
    assert [(g["name"], g["guard"], g["decision"]) for g in rec["rewrite_judged"]["guards"]] == [
        ("global[0]", "destructive_rm", "deny")]
    table = run_installed(["log"], cwd=rewritten_to_rm.root, prog="forge-hook", env={"COLUMNS": "250"}).stdout
    assert "global[0]" in table.splitlines()[-1] and "project[0] rewrote the tool input" in table


def test_a_harmless_rewrite_travels_unchanged(project: Project) -> None:
    project.write_hooks([DESTRUCTIVE_RM], where="global")
    project.write_hooks([rewriting("ls --color=never")])
    run = fire(project, bash("ls"), "--trace")
    assert run.exit_status == 0, run.stderr
    doc = run.json
    assert (doc["decision"], doc["reason"], doc["blocked_by"]) == ("allow", None, None)
    assert doc["data"] == {"tool_args": {"command": "ls --color=never"}}
    assert doc["rewrite_judged"] == {"rewritten_by": ["project[0]"], "decision": "allow", "guards": [
        {"index": 0, "name": "global[0]", "guard": "destructive_rm", "decision": "allow", "reason": None}]}
    assert "trace: rewrite judged by global[0]: guard destructive_rm, allow" in run.stderr


def test_a_run_without_a_rewrite_or_without_a_guard_judges_nothing_again(project: Project) -> None:
    project.write_hooks([DESTRUCTIVE_RM], where="global")
    project.write_hooks([{"event": "tool:pre_execute", "command": "echo plain output"},
                         rewriting("ls", pattern="tool:pre_execute:bash")])  # a rewrite to what was asked
    doc = fire(project, bash("ls")).json
    assert doc["decision"] == "allow" and "rewrite_judged" not in doc
    project.write_hooks([], where="global")
    project.write_hooks([rewriting("rm -rf ~")])
    doc = fire(project, bash("ls")).json
    assert doc["decision"] == "allow" and doc["data"] == {"tool_args": {"command": "rm -rf ~"}}
    assert "rewrite_judged" not in doc  # no guard in the run: nothing to judge with


def test_a_rewrite_on_an_event_that_cannot_block_is_not_judged(project: Project) -> None:
    project.write_hooks([{"event": "tool:post_execute", "guard": "destructive_rm"}], where="global")
    project.write_hooks([rewriting("rm -rf ~", pattern="tool:post_execute")])
    doc = fire(project, bash("ls", "tool:post_execute")).json
    assert doc["decision"] == "allow" and "rewrite_judged" not in doc


def test_a_guard_that_asks_about_the_rewrite_makes_the_run_ask(project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute", "guard": "infra_destructive"}], where="global")
    project.write_hooks([{"event": "tool:pre_execute", "command": "true"}, rewriting("terraform destroy")])
    run = fire(project, bash("terraform plan"), "--trace")
    assert run.exit_status == 4, run.stderr
    doc = run.json
    assert doc["decision"] == "ask" and doc["blocked_by"] is None
    assert doc["reason"].startswith("project[1] rewrote the tool input, and the rewrite needs a person's decision: ")
    assert "terraform destroy" in doc["reason"] and doc["rewrite_judged"]["decision"] == "ask"
    assert "trace: decision ask by global[0]: project[1] rewrote the tool input" in run.stderr
    assert last_record()["decided_by"] == 0


def test_an_observer_guard_does_not_judge_the_rewrite(project: Project) -> None:
    project.write_hooks([{**DESTRUCTIVE_RM, "blocking": False}], where="global")
    project.write_hooks([rewriting("rm -rf ~")])
    doc = fire(project, bash("ls")).json
    assert doc["decision"] == "allow" and "rewrite_judged" not in doc


def test_the_rewrite_is_judged_by_every_source_and_a_denying_hook_wins(project: Project, tmp_path: Path) -> None:
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps({"hooks": [{"event": "tool:pre_execute", "guard": "secret_files"}]}))
    project.write_hooks([{"event": "tool:pre_execute", "guard": "privilege_escalation"}], where="global")
    project.write_hooks([rewriting("cat .env")])
    doc = fire(project, bash("ls"), "--config", str(extra)).json
    assert doc["decision"] == "deny" and doc["reason"].startswith(
        "project[0] rewrote the tool input, and the rewrite is denied: secret_files: ")
    assert [g["name"] for g in doc["rewrite_judged"]["guards"]] == ["global[0]", f"{extra}[0]"]
    assert [g["decision"] for g in doc["rewrite_judged"]["guards"]] == ["allow", "deny"]
    # a hook that denies the call as asked decides: its rewrite is not applied, nothing is judged again
    project.write_hooks([rewriting("cat .env"), {"event": "tool:pre_execute", "command": "echo no; exit 1"}])
    doc = fire(project, bash("ls"), "--config", str(extra)).json
    assert doc["reason"] == "no" and "rewrite_judged" not in doc


# -- the agents' dialects --------------------------------------------------------------------------
@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_through_the_dialect_the_agent_is_told_deny_naming_the_rewriting_hook(agent: str,
                                                                              rewritten_to_rm: Project) -> None:
    run = native(rewritten_to_rm, agent, "ls")
    assert run.exit_status == 0, run.stderr
    specific = json.loads(run.stdout)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny" and "updatedInput" not in specific
    assert specific["permissionDecisionReason"].startswith(
        "project[0] rewrote the tool input, and the rewrite is denied: " + HOME_GONE)
    rec = last_record()
    assert rec["dialect"] == agent and rec["rewrite_judged"]["rewritten_by"] == ["project[0]"]


@pytest.mark.parametrize(("agent", "decision"), [("claude", None), ("codex", "allow")])
def test_through_the_dialect_a_harmless_rewrite_travels_unchanged(agent: str, decision: str | None,
                                                                  project: Project) -> None:
    project.write_hooks([DESTRUCTIVE_RM], where="global")
    project.write_hooks([rewriting("ls --color=never")])
    run = native(project, agent, "ls")
    assert run.exit_status == 0, run.stderr
    specific = json.loads(run.stdout)["hookSpecificOutput"]
    assert specific.get("permissionDecision") == decision  # Codex carries a rewrite only with allow
    assert specific["updatedInput"]["command"] == "ls --color=never"


# -- forge-hook guard test --rewrite ------------------------------------------------------------------
def guard_test(project: Project, *args: str) -> Run:
    return run_installed(["guard", "test", *args], cwd=project.root, prog="forge-hook")


def test_guard_test_judges_a_rewrite(project: Project) -> None:
    run = guard_test(project, "destructive_rm", "--rewrite", '{"tool_args": {"command": "rm -rf ~"}}', "--", "ls")
    assert run.exit_status == 1, run.stderr
    lines = run.stdout.splitlines()
    assert lines[:2] == ["destructive_rm: allow", "  bash: ls"]
    assert "rewritten: deny" in lines and "  bash: rm -rf ~" in lines
    assert any(line.startswith("  reason: " + HOME_GONE) for line in lines)
    harmless = guard_test(project, "destructive_rm", "--json", "--rewrite",
                          '{"tool_args": {"command": "ls --color=never"}}', "--", "ls")
    assert harmless.exit_status == 0
    said = json.loads(harmless.stdout)
    assert (said["decision"], said["rewrite"]["decision"]) == ("allow", "allow")
    assert said["rewrite"]["tool_args"] == {"command": "ls --color=never"}
    assert "rewrite" not in json.loads(guard_test(project, "destructive_rm", "--json", "--", "ls").stdout)


@pytest.mark.parametrize(("rewrite", "says"), [
    ("{", "--rewrite is not valid JSON"),
    ("[1]", "--rewrite takes a hook's data answer, a JSON object"),
    ('{"tool_args": null}', "--rewrite leaves no tool input"),
])
def test_guard_test_refuses_a_rewrite_it_cannot_judge(project: Project, rewrite: str, says: str) -> None:
    run = guard_test(project, "destructive_rm", "--rewrite", rewrite, "--", "ls")
    assert run.exit_status == 2 and says in run.stderr and run.stdout == ""


# -- the library ------------------------------------------------------------------------------------
def test_the_tool_executor_never_runs_a_rewrite_a_guard_denies(tmp_path: Path) -> None:
    answer = json.dumps({"data": {"tool_args": {"command": "rm -rf ~"}}})
    hooks = [Hook("tool:pre_execute", guard="destructive_rm"), Hook("tool:pre_execute", f"echo {shlex.quote(answer)}")]
    ran: list[dict[str, Any]] = []

    async def run_bash(args: dict[str, Any]) -> str:
        ran.append(args)
        return "ok"

    tools = ToolExecutor({"bash": run_bash}, executor=HookExecutor(HookRegistry(hooks), working_dir=tmp_path))
    with pytest.raises(HookBlockedError, match=r"^hook 1 rewrote the tool input, and the rewrite is denied"):
        asyncio.run(tools.execute("bash", {"command": "ls"}))
    assert ran == []


def test_the_tool_executor_asks_about_a_rewrite_a_guard_asks_about(tmp_path: Path) -> None:
    answer = json.dumps({"data": {"tool_args": {"command": "terraform destroy"}}})
    hooks = [Hook("tool:pre_execute", guard="infra_destructive"),
             Hook("tool:pre_execute", f"echo {shlex.quote(answer)}")]
    asked: list[str | None] = []

    async def run_bash(args: dict[str, Any]) -> str:
        return f"ran {args['command']}"

    def on_ask(run: Any) -> bool:
        asked.append(run.asked_by.reason)
        return True

    executor = HookExecutor(HookRegistry(hooks), working_dir=tmp_path)
    with pytest.raises(HookBlockedError, match=r"^hook 1 rewrote the tool input, and the rewrite needs a person's"):
        asyncio.run(ToolExecutor({"bash": run_bash}, executor=executor).execute("bash", {"command": "terraform plan"}))
    ran = asyncio.run(ToolExecutor({"bash": run_bash}, executor=executor, on_ask=on_ask).execute(
        "bash", {"command": "terraform plan"}))
    assert ran == "ran terraform destroy" and len(asked) == 1 and asked[0] is not None
    assert asked[0].startswith("hook 1 rewrote the tool input, and the rewrite needs a person's decision: ")


class _BrokenOnRewrite(Guard):
    """A guard with a bug that shows only on the rewritten command."""

    name = "broken_on_rewrite"
    summary = "raises on rm"
    tools: ClassVar[frozenset[str]] = frozenset({"bash"})

    def judge_command(self, command: Any, context: Context) -> Ruling:
        if "rm" in command.argv:
            raise KeyError("a bug")
        return Ruling("allow")


def test_a_guard_that_fails_on_the_rewrite_denies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(guards.GUARDS, "broken_on_rewrite", _BrokenOnRewrite)
    answer = json.dumps({"data": {"tool_args": {"command": "rm x"}}})
    hooks = [Hook("tool:pre_execute", guard="broken_on_rewrite"), Hook("tool:pre_execute", f"echo {shlex.quote(answer)}")]
    run = HookExecutor(HookRegistry(hooks), working_dir=tmp_path).run(HookEvent.tool_pre_execute("bash", {"command": "ls"}))
    assert run.results[0].decision == "allow" and run.decision == "deny"
    assert run.reason is not None and run.reason.startswith("hook 1 rewrote the tool input, and the rewrite is denied: "
                                                            "the guard 'broken_on_rewrite' failed (KeyError: 'a bug')")
