"""The decisions of the conformance matrix (tests/realagents/matrix.py) that no other
real-agent test measured: a forge hook that times out or crashes denies the tool call, a
forge hook refuses the prompt, forge's context reaches the model on session start,
prompt and post-tool, and a trusted project's changed hook script stops the tool.
Through the pinned CLIs (tests/realagents/harness.py: offline, a scripted model on
127.0.0.1); what the agent then did is the evidence: the file the
command would create, the requests the model received. The crash, prompt, context and
changed-project cells are ``matrix_only``: the matrix runs them, CI's ordinary run does
not (its time)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from helpers import Project, installed, require_agent, warm_prefix
from tests.realagents import harness
from tests.realagents.harness import AGENTS, POST_TOOL, PRE_TOOL, PROMPT_EVENT, AgentRun, Workspace

pytestmark = [pytest.mark.agents, pytest.mark.slow]

#: each agent's native name for the start of a session
SESSION_START = {"claude": "SessionStart", "codex": "SessionStart", "gemini": "SessionStart",
                 "copilot": "sessionStart"}


@pytest.fixture(params=AGENTS)
def agent(request: pytest.FixtureRequest) -> str:
    return require_agent(request.param)


def forge(agent: str, event: str, report: Path) -> str:
    """forge-hook-run as the agent's hook of ``event`` (through the warm session's runner
    when there is one: conftest.py, --warm)."""
    return (f"{warm_prefix()}{shlex.quote(installed('forge-hook-run'))} --dialect {agent}:{event} --trust-project "
            f"--report {shlex.quote(str(report))}")


def run_pre_tool(agent: str, project: Project, tmp_path: Path) -> tuple[AgentRun, Path, dict[str, object]]:
    """The agent asks to create a file; forge-hook-run is its pre-tool hook."""
    target, report = tmp_path / "created", tmp_path / "report.json"
    run = harness.run_agent(agent, Workspace(project=project.root, home=project.home), command=f"touch {target}",
                            hooks={PRE_TOOL[agent]: forge(agent, PRE_TOOL[agent], report)})
    assert not run.timed_out, run.describe()
    return run, target, json.loads(report.read_text())


def test_a_forge_hook_past_its_timeout_denies(agent: str, project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "sleep 60", "timeout": 1}])
    run, target, report = run_pre_tool(agent, project, tmp_path)
    assert not target.exists(), run.describe()
    assert report["blocked"] is True, report
    assert "timed out" in run.model_requests()[-1].text(), run.describe()


@pytest.mark.matrix_only
def test_a_forge_hook_that_crashes_denies(agent: str, project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "kill -KILL $$"}])
    run, target, report = run_pre_tool(agent, project, tmp_path)
    assert not target.exists(), run.describe()
    assert report["blocked"] is True, report


@pytest.mark.matrix_only
def test_a_forge_hook_refuses_the_prompt(agent: str, project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "user:prompt_submit",
                          "command": "echo 'forge-e2e-prompt-3f9a: not this prompt'; exit 1"}])
    target, report = tmp_path / "created", tmp_path / "report.json"
    run = harness.run_agent(agent, Workspace(project=project.root, home=project.home), command=f"touch {target}",
                            hooks={PROMPT_EVENT[agent]: forge(agent, PROMPT_EVENT[agent], report)})
    assert not run.timed_out, run.describe()
    assert json.loads(report.read_text())["blocked"] is True
    assert run.model_requests() == [], run.describe()  # the prompt never reached the model
    assert not target.exists(), run.describe()


# Copilot's: test_dialect_failclosed_agents.py (test_context_reaches_the_copilot_model_...)
@pytest.mark.matrix_only
@pytest.mark.parametrize("agent", [a for a in AGENTS if a != "copilot"])
def test_context_reaches_the_model_on_session_start_prompt_and_post_tool(agent: str, project: Project,
                                                                         tmp_path: Path) -> None:
    require_agent(agent)
    project.write_hooks([{"event": "*", "command": 'echo "{\\"context\\": \\"forge-ctx-4b2e-$FORGE_EVENT\\"}"'}])
    target = tmp_path / "created"
    events = (SESSION_START[agent], PROMPT_EVENT[agent], POST_TOOL[agent])
    hooks = {event: forge(agent, event, tmp_path / f"{event}.json") for event in events}
    run = harness.run_agent(agent, Workspace(project=project.root, home=project.home), command=f"touch {target}",
                            hooks=hooks)
    assert not run.timed_out and target.exists(), run.describe()
    requests = run.model_requests()
    assert requests, run.describe()
    first, last = requests[0].text(), requests[-1].text()
    assert "forge-ctx-4b2e-session:start" in first, run.describe()
    assert "forge-ctx-4b2e-user:prompt_submit" in first, run.describe()
    assert "forge-ctx-4b2e-tool:post_execute" in last, run.describe()


# Claude's: tests/trust/test_trustrun_agents.py (test_a_changed_projects_guard_still_stops_claude)
@pytest.mark.matrix_only
@pytest.mark.parametrize("agent", [a for a in AGENTS if a != "claude"])
def test_a_changed_projects_guard_still_stops_the_agent(agent: str, project: Project, tmp_path: Path) -> None:
    require_agent(agent)
    guard = project.root / "guard.sh"
    guard.write_text("#!/bin/sh\nexit 1\n")
    guard.chmod(0o755)
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "./guard.sh"}])
    guard.write_text("#!/bin/sh\nexit 0\n")  # a pull
    target = tmp_path / "created"
    hook = f"{warm_prefix()}{shlex.quote(installed('forge-hook-run'))} --dialect {agent}:{PRE_TOOL[agent]}"
    run = harness.run_agent(agent, Workspace(project=project.root, home=project.home), command=f"touch {target}",
                            hooks={PRE_TOOL[agent]: hook})
    assert not run.timed_out, run.describe()
    assert not target.exists(), run.describe()
    if agent != "copilot":  # Copilot's model is told only that the hook denied
        assert "guard.sh changed since the project was trusted" in run.model_requests()[-1].text(), run.describe()
