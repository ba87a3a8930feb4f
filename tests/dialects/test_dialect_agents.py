"""forge-hook-run --dialect as the real agents' pre-tool hook, end to end.

The real Claude Code, Codex and Gemini CLIs (tests/realagents/harness.py: pinned versions from
npm, offline, a scripted model on 127.0.0.1) ask their shell tool to run one command;
their pre-tool hook is ``forge-hook-run --dialect NAME``, and forge's own hooks decide.
They skip only where npm is missing, and say so loudly.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from helpers import Project, installed, require_agent
from tests.realagents import harness
from tests.realagents.harness import AGENTS, PRE_TOOL, AgentRun, Workspace
from helpers import TESTS

pytestmark = [pytest.mark.agents, pytest.mark.slow]
VALIDATOR = TESTS / "dialects" / "bash_command_validator.py"


require = require_agent


@pytest.fixture(params=AGENTS)
def agent(request: pytest.FixtureRequest) -> str:
    return require(request.param)


def run_agent(agent: str, project: Project, command: str, report: Path, *options: str) -> AgentRun:
    """The agent runs ``command`` with forge-hook-run as its only pre-tool hook."""
    # NAME:EVENT works for every agent; Copilot's camelCase payloads need it.
    hook = (f"{shlex.quote(installed('forge-hook-run'))} --dialect {agent}:{PRE_TOOL[agent]} --trust-project "
            f"--report {shlex.quote(str(report))} {' '.join(options)}")
    ws = Workspace(project=project.root, home=project.home)
    return harness.run_agent(agent, ws, command=command, hooks={PRE_TOOL[agent]: hook})


def test_a_forge_hook_denies_and_the_model_reads_forges_reason(agent: str, project: Project, tmp_path: Path) -> None:
    target, reason = tmp_path / "created", "forge-e2e-9c1d: this file stays uncreated"
    project.write_hooks([{"event": "tool:pre_execute:bash",
                          "command": f"grep -q created && {{ echo '{reason}'; exit 1; }} || exit 0"}])
    run = run_agent(agent, project, f"touch {target}", tmp_path / "report.json")
    assert not run.timed_out, run.describe()
    assert not target.exists(), run.describe()
    assert json.loads((tmp_path / "report.json").read_text())["blocked"] is True
    assert reason in run.model_requests()[-1].text(), run.describe()


def test_no_objection_lets_the_command_run(agent: str, project: Project, tmp_path: Path) -> None:
    target = tmp_path / "created"
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "exit 0"}])
    run = run_agent(agent, project, f"touch {target}", tmp_path / "report.json")
    assert target.exists(), run.describe()
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["event"]["tool_name"] == "bash" and report["results"][0]["exit_code"] == 0


def test_a_forge_rewrite_runs_the_rewritten_command(agent: str, project: Project, tmp_path: Path) -> None:
    asked, rewritten = tmp_path / "asked", tmp_path / "rewritten"
    answer = json.dumps({"data": {"tool_args": {"command": f"touch {rewritten}"}}})
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": f"echo {shlex.quote(answer)}"}])
    run = run_agent(agent, project, f"touch {asked}", tmp_path / "report.json")
    assert rewritten.exists() and not asked.exists(), run.describe()


def test_claudes_example_hook_guards_the_agent(agent: str, project: Project, tmp_path: Path) -> None:
    target = tmp_path / "created"
    project.write_hooks([{"event": "tool:pre_execute:bash", "format": "claude",
                          "command": f"{shlex.quote(sys.executable)} {shlex.quote(str(VALIDATOR))}"}])
    run = run_agent(agent, project, f"find {tmp_path} -name nothing -exec touch {target} ;",
                    tmp_path / "report.json")
    assert not target.exists(), run.describe()
    assert "rg --files" in run.model_requests()[-1].text(), run.describe()


def test_ask_never_lets_the_command_run_unasked(agent: str, project: Project, tmp_path: Path) -> None:
    # Headless, nobody can be asked: Claude refuses the call itself; Codex has no ask, and
    # Gemini's `-p` waits for ever on one (issue 30 item 8): forge denies there, saying a
    # person must decide.
    target = tmp_path / "created"
    answer = json.dumps({"decision": "ask", "reason": "forge-e2e-ask-51b2: touches prod"})
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": f"echo {shlex.quote(answer)}"}])
    run = run_agent(agent, project, f"touch {target}", tmp_path / "report.json")
    assert not run.timed_out, run.describe()
    assert not target.exists(), run.describe()
    if agent in ("codex", "gemini"):
        assert "a person must decide" in run.model_requests()[-1].text(), run.describe()


def test_a_broken_config_under_strict_fails_closed(agent: str, project: Project, tmp_path: Path) -> None:
    target = tmp_path / "created"
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "exit 0", "comand": "typo"}])
    run = run_agent(agent, project, f"touch {target}", tmp_path / "report.json", "--strict")
    assert not target.exists(), run.describe()
    assert "comand" in run.model_requests()[-1].text(), run.describe()


# Gemini CLI reads no additionalContext on BeforeTool: forge reports it as dropped there.
@pytest.mark.parametrize("agent", ["claude", "codex", "copilot"])
def test_context_reaches_the_model(agent: str, project: Project, tmp_path: Path) -> None:
    require(agent)
    answer = json.dumps({"context": "forge-e2e-context-77e0: the repo is frozen"})
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": f"echo {shlex.quote(answer)}"}])
    run = run_agent(agent, project, f"touch {tmp_path / 'created'}", tmp_path / "report.json")
    assert "forge-e2e-context-77e0" in run.model_requests()[-1].text(), run.describe()


def test_forge_as_the_hook_of_every_event_print_config_names(agent: str, project: Project, tmp_path: Path) -> None:
    from forge_hookd.dialects import get

    from tests.realagents.model_server import FINAL_TEXT

    seen, target = tmp_path / "seen.txt", tmp_path / "created"
    project.write_hooks([{"event": "*", "command": f'echo "$FORGE_EVENT" >> {shlex.quote(str(seen))}'}])
    events = get(agent).settings.snippet("forge-hook-run")["hooks"]
    ws = Workspace(project=project.root, home=project.home)
    # NAME:EVENT, as Copilot's snippet writes it; the other agents' payloads name the event.
    hooks = {event: f"{shlex.quote(installed('forge-hook-run'))} --dialect {agent}:{event} --trust-project"
             for event in events}
    run = harness.run_agent(agent, ws, command=f"touch {target}", hooks=hooks)
    assert run.exit_status == 0 and target.exists() and FINAL_TEXT in run.stdout, run.describe()
    fired = set(seen.read_text().split())
    assert {"tool:pre_execute", "tool:post_execute", "user:prompt_submit"} <= fired, fired
