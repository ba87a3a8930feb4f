"""A built-in guard in front of the real agents (issue 22): Claude Code, Codex, Gemini
CLI and Copilot CLI (tests/realagents/harness.py: pinned versions from npm, offline, a
scripted model on 127.0.0.1) ask their shell tool to delete a directory outside the
project; their pre-tool hook is ``forge-hook-run --dialect NAME``, whose only hook is the
built-in destructive_rm guard. The directory survives and the model's next request
holds the guard's reason. They skip only where npm is missing, and say so loudly. CI runs
them a second time through the native client and a resident runner (--warm --native),
which each run must reach: the real agents in front of the warm path."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import Project, installed, reap_agent_leftovers, require_agent, warm_prefix
from tests.realagents import harness
from tests.realagents.harness import AGENTS, PRE_TOOL, Workspace

pytestmark = [pytest.mark.agents, pytest.mark.slow]


@pytest.fixture(autouse=True)
def reap_what_the_agent_left_to_us() -> Iterator[None]:
    yield
    reap_agent_leftovers()


@pytest.fixture(params=AGENTS)
def agent(request: pytest.FixtureRequest) -> str:
    return require_agent(request.param)


def test_a_built_in_guard_denies_and_the_model_reads_why(agent: str, project: Project, tmp_path: Path) -> None:
    victim = tmp_path / "outside-the-project"
    (victim / "keep").mkdir(parents=True)
    # pytest's tmp_path is under /tmp, which the guard lets go by default: not here
    project.write_hooks([{"event": "tool:pre_execute", "guard": "destructive_rm", "with": {"allow_outside": []}}])
    report = tmp_path / "report.json"
    hook = (f"{warm_prefix()}{shlex.quote(installed('forge-hook-run'))} --dialect {agent}:{PRE_TOOL[agent]} --trust-project "
            f"--report {shlex.quote(str(report))}")
    run = harness.run_agent(agent, Workspace(project=project.root, home=project.home),
                            command=f"rm -rf {shlex.quote(str(victim))}", hooks={PRE_TOOL[agent]: hook})
    assert not run.timed_out, run.describe()
    assert (victim / "keep").is_dir(), run.describe()
    result = json.loads(report.read_text())["results"][0]
    assert (result["hook"]["guard"], result["exit_code"], result["decision"]) == ("destructive_rm", 0, "deny")
    told = f"destructive_rm: `rm -rf {victim}` deletes {victim}, outside the project"
    assert told in result["reason"], result["reason"]
    assert told in run.model_requests()[-1].text(), run.describe()
