"""``--agent-limit N``: forge answers before the agent stops listening (issue 30, item 1).

The installed forge-hook-run with real hooks that outlast the limit: the run ends
max(2 s, 10% of N) before N, the hooks still running are ended as on a timeout (their
pid files say which processes, and those are gone), and the answer is forge's deny on an
event that can block, proceed with a warning on another.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from helpers import SUDO, ForgeRun, Project, gone, read_pids


def _sleepers(tmp_path: Path, *names: str) -> list[dict[str, object]]:
    return [{"event": "tool:*", "command": f"echo $$ > {name}.pid; sleep 100", "timeout": 75,
             "working_dir": str(tmp_path)} for name in names]


def test_a_run_that_would_outlast_the_agent_is_denied_before_it(project: Project, forge_run: ForgeRun,
                                                               tmp_path: Path) -> None:
    project.write_hooks([*_sleepers(tmp_path, "slow"), {"event": "tool:*", "command": "touch after",
                                                         "working_dir": str(tmp_path)}],
                        where="global")
    began = time.monotonic()
    run = forge_run(SUDO, "--agent-limit", "4")
    took = time.monotonic() - began
    assert run.exit_status == 1, run.stderr
    doc = run.json
    assert doc["blocked_by"]["source"] == "agent-limit"
    # the hook is named whether it was still running or (on a machine so slow that the
    # run reached the limit before it) never started; here it started: its pid file says so
    assert "global[0] (echo" in doc["reason"] and "sleep 100" in doc["reason"]
    assert "global[1]" in doc["reason"] and "not started" in doc["reason"]
    assert took < 3.9, f"forge answered after {took:.1f}s, past the agent's limit minus its start"
    pids = read_pids(tmp_path)
    assert "slow" in pids and "ended" in doc["reason"]
    assert gone(pids["slow"], within=5)
    assert not (tmp_path / "after").exists()
    assert doc["results"][0]["timed_out"] is True
    assert "agent's limit" in doc["results"][0]["error"]


def test_the_deny_is_the_agents_own_under_a_dialect(project: Project, forge_run: ForgeRun, tmp_path: Path) -> None:
    project.write_hooks(_sleepers(tmp_path, "slow"), where="global")
    payload = {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(project.root),
               "tool_input": {"command": "ls"}}
    began = time.monotonic()
    run = forge_run(payload, "--dialect", "claude", "--agent-limit", "4")
    assert time.monotonic() - began < 3.9
    answer = json.loads(run.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    assert "sleep 100" in answer["permissionDecisionReason"]
    assert gone(read_pids(tmp_path)["slow"], within=5)


def test_an_event_that_cannot_block_proceeds_with_a_warning(project: Project, forge_run: ForgeRun,
                                                            tmp_path: Path) -> None:
    project.write_hooks(_sleepers(tmp_path, "slow"), where="global")
    began = time.monotonic()
    run = forge_run({"type": "tool:post_execute", "tool_name": "bash", "session_id": "s1"}, "--agent-limit", "4")
    assert time.monotonic() - began < 3.9
    assert run.exit_status == 0, run.stdout
    doc = run.json
    assert (doc["decision"], doc["blocked"]) == ("allow", False)
    assert any("ran out of the agent's time" in w and "sleep 100" in w for w in doc["warnings"])
    assert "warning: forge ran out of the agent's time" in run.stderr
    assert gone(read_pids(tmp_path)["slow"], within=5)


def test_with_jobs_every_running_hook_is_ended_at_the_limit(project: Project, forge_run: ForgeRun,
                                                            tmp_path: Path) -> None:
    project.write_hooks(_sleepers(tmp_path, "one", "two"), where="global")
    began = time.monotonic()
    run = forge_run(SUDO, "--agent-limit", "4", "--jobs", "2")
    assert time.monotonic() - began < 3.9
    assert run.exit_status == 1
    doc = run.json
    assert doc["blocked_by"]["source"] == "agent-limit"
    assert "global[0]" in doc["reason"] and "global[1]" in doc["reason"]
    pids = read_pids(tmp_path)
    assert gone(*pids.values(), within=5)


def test_hooks_that_finish_in_time_are_not_touched(project: Project, forge_run: ForgeRun, tmp_path: Path) -> None:
    project.write_hooks([{"event": "tool:*", "command": "echo '{\"context\": \"fine\"}'"}], where="global")
    run = forge_run(SUDO, "--agent-limit", "30")
    assert (run.exit_status, run.json["context"], run.json["warnings"]) == (0, ["fine"], [])


def test_the_limit_must_be_positive(project: Project, forge_run: ForgeRun) -> None:
    run = forge_run(SUDO, "--agent-limit", "0")
    assert run.exit_status == 2
    assert "--agent-limit" in run.stdout + run.stderr
