"""The real-agent harness (tests/agents/): each real CLI fires its pre-tool hook offline.

These run the real Claude Code, Codex and Gemini CLIs (installed by npm into a cache
the tests own) against the scripted model server on 127.0.0.1. Deselect them with
``-m 'not agents'``; they skip only where npm is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agents import harness
from tests.agents.harness import AGENTS, PRE_TOOL, AgentRun, Workspace
from tests.agents.hooks import recorded_calls, scripted_hook
from tests.agents.model_server import FINAL_TEXT, ModelServer, Script
from tests.conftest import Project

pytestmark = [pytest.mark.agents, pytest.mark.slow]

SHELL_TOOL = {"claude": "Bash", "codex": "Bash", "gemini": "run_shell_command"}


@pytest.fixture(params=AGENTS)
def agent(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    try:
        harness.ensure_installed(name)
    except harness.AgentUnavailable as exc:
        if "npm is not on PATH" in str(exc):
            pytest.skip(f"REAL-AGENT TESTS SKIPPED: {exc}")
        raise
    return name


@pytest.fixture
def workspace(project: Project) -> Workspace:
    return Workspace(project=project.root, home=project.home)


def run_with_pre_tool_hook(agent: str, ws: Workspace, hook: str, target: Path) -> AgentRun:
    return harness.run_agent(agent, ws, command=f"touch {target}", hooks={PRE_TOOL[agent]: hook})


def test_the_model_server_listens_on_loopback_only() -> None:
    with ModelServer(Script("true")) as server:
        assert server.httpd.server_address[0] == "127.0.0.1"
        assert server.base_url.startswith("http://127.0.0.1:")


def test_a_recording_hook_sees_the_real_shell_call(agent: str, workspace: Workspace, tmp_path: Path) -> None:
    calls, target = tmp_path / "calls", tmp_path / "created"
    run = run_with_pre_tool_hook(agent, workspace, scripted_hook(calls, "pre"), target)

    assert run.exit_status == 0 and not run.timed_out, run.describe()
    assert target.exists(), run.describe()
    [call] = recorded_calls(calls, "pre")
    payload = call["payload"]
    assert payload["hook_event_name"] == PRE_TOOL[agent]
    assert payload["tool_name"] == SHELL_TOOL[agent]
    assert payload["tool_input"]["command"] == f"touch {target}"
    assert payload["cwd"] == str(workspace.project)
    turns = run.model_requests()
    assert len(turns) == 2, run.describe()  # the tool call, then the turn with its result
    assert FINAL_TEXT in run.stdout, run.describe()


def test_an_exit_2_denial_stops_the_command_and_reaches_the_model(agent: str, workspace: Workspace,
                                                                  tmp_path: Path) -> None:
    reason = "forge-harness-denial-7f3a: not this command"
    target = tmp_path / "created"
    hook = scripted_hook(tmp_path / "calls", "deny", stderr=reason, exit_status=2)
    run = run_with_pre_tool_hook(agent, workspace, hook, target)

    assert not run.timed_out, run.describe()
    assert not target.exists(), run.describe()
    assert len(recorded_calls(tmp_path / "calls", "deny")) == 1
    last_turn = run.model_requests()[-1]
    assert reason in last_turn.text(), run.describe()
