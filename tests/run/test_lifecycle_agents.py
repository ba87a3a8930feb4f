"""The turn's end with the real agents (issue 21): forge-hook-run as each CLI's own stop
hook, offline against the scripted model (tests/realagents/harness.py).

A forge ``agent:stop`` hook that refuses the first stop with "run the tests first" makes
the agent keep working (its next model request carries the reason) and the session then
ends; one that always refuses is let through after ``FORGE_MAX_CONTINUES`` refusals.
Claude Code and Copilot cap the loop themselves (8), Codex and Gemini do not (research):
forge's bound is the one that holds in all four. They skip only where npm is missing.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from helpers import Project, installed, require_agent
from tests.realagents import harness
from tests.realagents.harness import AGENTS, AgentRun, Workspace
from tests.realagents.model_server import FINAL_TEXT

pytestmark = [pytest.mark.agents, pytest.mark.slow]

#: each agent's native name for the end of its turn
STOP = {"claude": "Stop", "codex": "Stop", "gemini": "AfterAgent", "copilot": "agentStop"}


@pytest.fixture(params=AGENTS)
def agent(request: pytest.FixtureRequest) -> str:
    return require_agent(request.param)


def run_with_stop_hook(agent: str, project: Project, tmp_path: Path, env: dict[str, str] | None = None) -> AgentRun:
    """The agent runs one shell command; forge-hook-run is its stop hook."""
    hook = (f"{shlex.quote(installed('forge-hook-run'))} --dialect {agent}:{STOP[agent]} --trust-project "
            f"--report {shlex.quote(str(tmp_path / 'report.json'))}")
    ws = Workspace(project=project.root, home=project.home, extra_env=env or {})
    return harness.run_agent(agent, ws, command=f"touch {tmp_path / 'created'}", hooks={STOP[agent]: hook})


def calls(log: Path) -> list[str]:
    return log.read_text().split() if log.exists() else []


def test_a_refused_stop_makes_the_agent_keep_working_with_the_reason(agent: str, project: Project,
                                                                    tmp_path: Path) -> None:
    log = tmp_path / "stops.log"
    # Refuse while forge's count says this stop was never refused yet; then let it stop.
    project.write_hooks([{"event": "agent:stop", "command": (
        f'echo "$FORGE_STOP_COUNT" >> {shlex.quote(str(log))}; '
        'if [ "$FORGE_STOP_COUNT" = 0 ]; then echo "run the tests first"; exit 1; fi')}])
    run = run_with_stop_hook(agent, project, tmp_path)
    assert not run.timed_out and run.exit_status == 0, run.describe()
    assert calls(log) == ["0", "1"], run.describe()  # refused once, then let through
    turns = run.model_requests()
    assert "run the tests first" in turns[-1].text(), run.describe()
    assert not any("run the tests first" in t.text() for t in turns[:-1]), run.describe()
    assert FINAL_TEXT in run.stdout or agent == "copilot", run.describe()
    assert json.loads((tmp_path / "report.json").read_text())["decision"] == "allow"  # the last stop


def test_a_stop_hook_that_always_refuses_ends_after_forge_max_continues(agent: str, project: Project,
                                                                       tmp_path: Path) -> None:
    log = tmp_path / "stops.log"
    project.write_hooks([{"event": "agent:stop", "command": (
        f'echo "$FORGE_STOP_COUNT" >> {shlex.quote(str(log))}; echo "keep going"; exit 1')}])
    run = run_with_stop_hook(agent, project, tmp_path, env={"FORGE_MAX_CONTINUES": "2"})
    assert not run.timed_out and run.exit_status == 0, run.describe()
    # two refusals obeyed, the third stop let through (the hook still ran, and said no)
    assert calls(log) == ["0", "1", "2"], run.describe()
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["decision"] == "allow" and report["results"][0]["decision"] == "deny"
    assert any("forge let the agent stop" in m for m in report["messages"])
