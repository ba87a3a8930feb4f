"""Built-in guard entries judged by the executor in-process (issue 22): a result like any
hook's, in config order, obeyed by the chain, in the library (HookExecutor, fire_event,
ToolExecutor) and through the installed forge-hook-run (document, trace, run log)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from helpers import SUDO, Project, run_installed
from forge_hookd import guards
from forge_hookd.events import HookEvent
from forge_hookd.run.executor import HookExecutor, fire_event
from forge_hookd.guards import Context, Guard, Ruling
from forge_hookd.registry import Hook, HookRegistry
from forge_hookd.results import HookBlockedError
from forge_hookd.toolexecutor import ToolExecutor

SUDO_LS = HookEvent.tool_pre_execute("bash", {"command": "sudo ls"}, "sess_1")


def guard(name: str, **entry: Any) -> Hook:
    return Hook.from_dict({"event": "tool:pre_execute", "guard": name, **entry})


PRIVILEGE = guard("privilege_escalation")


def touch(path: Path) -> Hook:
    return Hook("tool:pre_execute", f"touch {path}")


def executor(hooks: list[Hook], tmp: Path) -> HookExecutor:
    return HookExecutor(HookRegistry(hooks), working_dir=tmp)


# -- the result --------------------------------------------------------------------------------
def test_a_guard_result_reads_as_a_hooks_with_no_process_behind_it(tmp_path: Path) -> None:
    result = executor([PRIVILEGE], tmp_path).run(SUDO_LS).results[0]
    assert (result.exit_code, result.signal, result.stdout, result.stderr, result.timed_out, result.error) == (
        0, None, "", "", False, None)
    assert result.decision == "deny" and result.reason.startswith("Blocked: sudo not allowed. privilege_escalation")
    assert result.answer is not None and result.answer.reason == result.reason
    assert result.success and not result.should_continue and result.duration >= 0
    document = result.to_dict()
    assert document["hook"] == {"event": "tool:pre_execute", "guard": "privilege_escalation", "source": None,
                                "source_index": None}


def test_a_guard_that_finds_nothing_says_nothing(tmp_path: Path) -> None:
    result = executor([PRIVILEGE], tmp_path).run(HookEvent.tool_pre_execute("bash", {"command": "ls"})).results[0]
    assert (result.exit_code, result.decision, result.reason, result.answer) == (0, "allow", "", None)


def test_a_guard_that_asks_asks(tmp_path: Path) -> None:
    run = executor([guard("infra_destructive")], tmp_path).run(
        HookEvent.tool_pre_execute("bash", {"command": "terraform destroy"}))
    assert run.decision == "ask" and run.reason is not None and "terraform destroy" in run.reason


class _Broken(Guard):
    """A guard with a bug: it raises on every shell command."""

    name = "broken"
    summary = "raises"
    tools: ClassVar[frozenset[str]] = frozenset({"bash"})

    def judge_command(self, command: Any, context: Context) -> Ruling:
        raise KeyError("a bug")


def test_a_guard_that_crashes_denies_and_says_it_is_a_bug(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(guards.GUARDS, "broken", _Broken)
    run = executor([guard("broken"), touch(tmp_path / "after")], tmp_path).run(
        HookEvent.tool_pre_execute("bash", {"command": "ls"}))
    result = run.results[0]
    assert (result.exit_code, result.decision, run.decision) == (None, "deny", "deny")
    assert result.error is not None and "the guard 'broken' failed (KeyError: 'a bug')" in result.error
    assert "a bug in forge-hook-run" in result.reason and run.skipped == [1]
    assert not (tmp_path / "after").exists()


def test_an_observer_guard_is_recorded_never_obeyed(tmp_path: Path) -> None:
    run = executor([guard("privilege_escalation", blocking=False)], tmp_path).run(SUDO_LS)
    assert run.results[0].reason.startswith("Blocked: sudo") and run.decision == "allow" and not run.blocked


# -- the chain: config order, stop on the first deny, --jobs -----------------------------------------
def test_a_denying_guard_stops_the_chain_before_later_commands_start(tmp_path: Path) -> None:
    first, last = tmp_path / "first", tmp_path / "last"
    run = executor([touch(first), PRIVILEGE, touch(last)], tmp_path).run(SUDO_LS)
    assert [(r.index, r.decision) for r in run.results] == [(0, "allow"), (1, "deny")]
    assert run.skipped == [2] and first.exists() and not last.exists()
    assert run.blocked_by is run.results[1] and run.reason is not None and run.reason.startswith("Blocked: sudo")


def test_a_guard_first_means_no_command_hook_starts(tmp_path: Path) -> None:
    after = tmp_path / "after"
    run = executor([PRIVILEGE, touch(after)], tmp_path).run(SUDO_LS)
    assert run.skipped == [1] and not after.exists() and run.results[0].reason.startswith("Blocked: sudo")


@pytest.mark.parametrize("jobs", [1, 3])
def test_keep_going_and_jobs_run_every_hook_and_keep_config_order(tmp_path: Path, jobs: int) -> None:
    hooks = [touch(tmp_path / "a"), PRIVILEGE, Hook("tool:pre_execute", "echo c"),
             guard("destructive_rm")]
    run = executor(hooks, tmp_path).run(SUDO_LS, stop_on_failure=False, jobs=jobs)
    assert [r.index for r in run.results] == [0, 1, 2, 3] and run.skipped == []
    assert [r.decision for r in run.results] == ["allow", "deny", "allow", "allow"]
    assert run.results[2].stdout == "c\n" and run.blocked_by is run.results[1]


def test_a_guard_in_a_chain_is_never_spawned(tmp_path: Path) -> None:
    """No command hook can start here (its working directory does not exist); the guard,
    judged in-process, still judges."""
    gone = Hook("tool:pre_execute", "true", working_dir="gone")
    run = executor([gone, PRIVILEGE], tmp_path).run(SUDO_LS, stop_on_failure=False)
    assert run.results[0].error is not None and "working directory does not exist" in run.results[0].error
    assert (run.results[1].exit_code, run.results[1].error, run.results[1].decision) == (0, None, "deny")
    assert run.results[1].reason.startswith("Blocked: sudo not allowed")


def test_a_run_of_guards_only_loads_no_process_machinery(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from forge_hookd.run.executor import HookExecutor\n"
        "from forge_hookd.registry import Hook, HookRegistry\n"
        "from forge_hookd.events import HookEvent\n"
        "hooks = [Hook('tool:pre_execute', guard=name) for name in ('privilege_escalation', 'destructive_rm')]\n"
        "run = HookExecutor(HookRegistry(hooks), working_dir=sys.argv[1]).run("
        "HookEvent.tool_pre_execute('bash', {'command': 'rm -rf /'}), stop_on_failure=False)\n"
        "print(run.decision, sorted(m for m in ('forge_hookd.run.process', 'forge_hookd.run.tree', 'subprocess') "
        "if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert out.stdout == "deny []\n", out.stderr


# -- the library ------------------------------------------------------------------------------------------
def test_fire_event_and_the_tool_executor_obey_a_guard(tmp_path: Path) -> None:
    ran: list[dict[str, Any]] = []

    async def bash(args: dict[str, Any]) -> str:
        ran.append(args)
        return "ok"

    async def go() -> None:
        results = await fire_event(SUDO_LS, executor=executor([PRIVILEGE], tmp_path))
        assert [r.should_continue for r in results] == [False]
        tools = ToolExecutor({"bash": bash}, executor=executor([PRIVILEGE], tmp_path))
        assert await tools.execute("bash", {"command": "ls"}) == "ok"
        with pytest.raises(HookBlockedError, match="^Blocked: sudo not allowed"):
            await tools.execute("bash", {"command": "sudo ls"})

    asyncio.run(go())
    assert ran == [{"command": "ls"}]


def test_a_guard_reads_forges_directories_from_the_environment(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORGE_CONFIG_DIR", str(tmp_path / "conf"))
    edit = HookEvent.tool_pre_execute("write", {"file_path": str(tmp_path / "conf" / "hooks.json"), "content": "{}"})
    run = executor([guard("self_protection")], tmp_path).run(edit)
    assert run.decision == "deny" and run.reason is not None and run.reason.startswith("self_protection: ")


# -- through the installed forge-hook-run -------------------------------------------------------------------
def fire(project: Project, event: dict[str, Any], *args: str) -> Any:
    return run_installed(list(args), cwd=project.root, stdin=json.dumps(event))


def test_the_document_the_trace_and_the_run_log_show_the_guard(project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute", "guard": "block_sudo"},
                         {"event": "tool:pre_execute", "guard": "destructive_rm", "with": {"allow_outside": ["/srv"]}}])
    run = fire(project, SUDO, "--trace")
    assert run.exit_status == 1
    assert run.json["blocked_by"]["reason"].startswith("Blocked: sudo not allowed")
    assert run.json["results"][0]["hook"] == {"event": "tool:pre_execute", "guard": "block_sudo", "source": "project",
                                              "source_index": 0}
    assert run.json["skipped"] == [1]
    assert "match project[1] 'tool:pre_execute': guard destructive_rm with {\"allow_outside\": [\"/srv\"]}" in run.stderr
    assert "start project[0] 'tool:pre_execute': guard block_sudo" in run.stderr
    assert "end project[0]: guard block_sudo judged in-process, deny" in run.stderr
    log = Path(os.environ["XDG_STATE_HOME"]) / "forge" / "runs.jsonl"
    hook = json.loads(log.read_text().splitlines()[-1])["hooks"][0]
    assert (hook["guard"], hook["exit_code"], hook["decision"]) == ("block_sudo", 0, "deny")
    assert hook["reason"].startswith("Blocked: sudo not allowed")


def test_forge_hook_list_shows_the_guard(project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute", "guard": "force_push", "with": {"protected_branches": ["x"]}}])
    listed = run_installed(["list"], cwd=project.root, prog="forge-hook", env={"COLUMNS": "200"}).stdout
    assert listed.splitlines()[1].split()[5:] == ["-", "guard", "force_push", "with", '{"protected_branches":', '["x"]}']


def test_the_run_log_keeps_guard_names_and_redacts_a_name_that_is_no_guard(project: Project) -> None:
    """hardcoded_secrets holds SECRET: forge's own word, kept (and not run through the
    redaction rules); a name that is no guard's is the user's text, redacted as any."""
    token = "ghp_" + "a1B2c3D4" * 4 + "e5F6"
    project.write_hooks([{"event": "tool:pre_execute", "guard": "hardcoded_secrets"},
                         {"event": "tool:pre_execute", "guard": "secret_files"},
                         {"event": "tool:pre_execute", "guard": token}])
    assert fire(project, {**SUDO, "data": {"tool_args": {"command": "ls"}}}, "--keep-going").exit_status == 1
    log = Path(os.environ["XDG_STATE_HOME"]) / "forge" / "runs.jsonl"
    hooks = json.loads(log.read_text().splitlines()[-1])["hooks"]
    assert [h["guard"] for h in hooks] == ["hardcoded_secrets", "secret_files", "[REDACTED]"]
    assert token not in log.read_text()
