"""Fail closed as the real agent sees it (issue 30, items 1 and 2), with the real agent
CLIs (tests/realagents: pinned from npm, offline, a scripted model on 127.0.0.1).

- The agent's clock comes first: Claude, Codex, Gemini and Copilot wired with a hook
  timeout of 6 s and ``--agent-limit 6``, a forge hook that sleeps 100 s: forge's deny
  reaches the model (Claude would otherwise kill forge at 6 s and run the tool), the
  hook's tree is gone.
- forge-hook-run not on the agent's PATH: what ``forge-hook install --project`` writes
  denies in the agent's own form (exit 127 would be "proceed"), Claude's prompt and
  each agent's tool call.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import BIN_DIR, Project, gone, installed, read_pids, require_agent, run_installed
from forge_hookd.agents.places import MISSING
from tests.realagents import harness
from tests.realagents.harness import Workspace

pytestmark = [pytest.mark.agents, pytest.mark.slow]


#: where the harness writes each agent's pre-tool hook, and its timeout's unit (seconds)
SETTINGS = {"claude": (".claude/settings.json", "PreToolUse", 1),
            "codex": (".codex/hooks.json", "PreToolUse", 1),
            "gemini": (".gemini/settings.json", "BeforeTool", 1000),
            "copilot": (".github/hooks/forge.json", "preToolUse", 1)}


def _with_timeout(agent: str, seconds: int) -> Callable[[Workspace], None]:
    relative, event, unit = SETTINGS[agent]

    def adjust(ws: Workspace) -> None:
        path = ws.project / relative
        doc = json.loads(path.read_text())
        if agent == "copilot":  # its handlers sit right under the event
            for hook in doc["hooks"][event]:
                hook["timeoutSec"] = seconds
        for group in doc["hooks"][event] if agent != "copilot" else ():
            for hook in group["hooks"]:
                hook["timeout"] = seconds * unit
        path.write_text(json.dumps(doc, indent=2))
    return adjust


@pytest.mark.parametrize("agent", sorted(SETTINGS))
def test_the_agent_gets_forges_deny_before_its_own_timeout(agent: str, project: Project, tmp_path: Path) -> None:
    require_agent(agent)
    target, report, pids = tmp_path / "created", tmp_path / "report.json", tmp_path / "pids"
    pids.mkdir()
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "echo $$ > slow.pid; sleep 100",
                          "timeout": 75, "working_dir": str(pids)}])
    hook = (f"{shlex.quote(installed('forge-hook-run'))} --dialect {agent}:{SETTINGS[agent][1]} --trust-project "
            "--agent-limit 6 "
            f"--report {shlex.quote(str(report))}")
    ws = Workspace(project=project.root, home=project.home)
    run = harness.run_agent(agent, ws, command=f"touch {target}", hooks={SETTINGS[agent][1]: hook},
                            adjust=_with_timeout(agent, 6))
    assert not run.timed_out, run.describe()
    assert not target.exists(), f"{agent} ran the tool: forge did not answer before its 6 s\n" + run.describe()
    doc = json.loads(report.read_text())
    assert doc["blocked_by"]["source"] == "agent-limit" and "sleep 100" in doc["reason"]
    assert "ran out of the agent's time" in run.model_requests()[-1].text(), run.describe()
    assert gone(read_pids(pids)["slow"], within=5)


def test_claude_denies_where_forge_hook_run_is_not_on_its_path(project: Project, tmp_path: Path) -> None:
    require_agent("claude")
    target = tmp_path / "created"
    path = os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep)
                           if d and not os.path.exists(os.path.join(d, "forge-hook-run")))
    assert str(BIN_DIR) not in path.split(os.pathsep)

    def install(ws: Workspace) -> None:  # over the harness's settings: the project's form
        done = run_installed(["install", "--agent", "claude", "--project"], cwd=ws.project, prog="forge-hook")
        assert done.exit_status == 0, done.stderr

    ws = Workspace(project=project.root, home=project.home, extra_env={"PATH": path})
    run = harness.run_agent("claude", ws, command=f"touch {target}", hooks={}, adjust=install)
    assert not run.timed_out, run.describe()
    assert not target.exists(), "Claude ran the tool with forge-hook-run missing\n" + run.describe()
    # the prompt is an event that can block: Claude refuses it and says why
    assert run.model_requests() == [] and MISSING in run.stdout, run.describe()

    def install_but_the_prompt(ws: Workspace) -> None:  # so that the model asks for the tool
        install(ws)
        settings = ws.project / ".claude" / "settings.json"
        doc = json.loads(settings.read_text())
        del doc["hooks"]["UserPromptSubmit"]
        settings.write_text(json.dumps(doc))

    run = harness.run_agent("claude", ws, command=f"touch {target}", hooks={}, adjust=install_but_the_prompt)
    assert not run.timed_out, run.describe()
    assert not target.exists(), "Claude ran the tool with forge-hook-run missing\n" + run.describe()
    assert MISSING in run.model_requests()[-1].text(), run.describe()


#: the event whose hook would refuse the prompt first, per agent (taken out below)
PROMPT = {"codex": "UserPromptSubmit", "gemini": "BeforeAgent", "copilot": "userPromptSubmitted"}


@pytest.mark.parametrize("agent", sorted(PROMPT))
def test_the_agent_denies_the_tool_where_forge_hook_run_is_not_on_its_path(agent: str, project: Project,
                                                                           tmp_path: Path) -> None:
    """Codex, Gemini and Copilot as Claude above: what ``forge-hook install --project``
    wrote, without its prompt hook so that the model asks for the tool, denies it in the
    agent's own form, and the model reads why (Copilot's, only that the hook denied)."""
    require_agent(agent)
    target = tmp_path / "created"
    path = os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep)
                           if d and not os.path.exists(os.path.join(d, "forge-hook-run")))

    def install_but_the_prompt(ws: Workspace) -> None:
        done = run_installed(["install", "--agent", agent, "--project"], cwd=ws.project, prog="forge-hook")
        assert done.exit_status == 0, done.stderr
        said = next(line for line in done.stdout.splitlines() if " in " in line)
        settings = Path(said.rsplit(" in ", 1)[1].split(" (")[0].strip())
        doc = json.loads(settings.read_text())
        del doc["hooks"][PROMPT[agent]]
        settings.write_text(json.dumps(doc))

    ws = Workspace(project=project.root, home=project.home, extra_env={"PATH": path})
    run = harness.run_agent(agent, ws, command=f"touch {target}", hooks={}, adjust=install_but_the_prompt)
    assert not run.timed_out, run.describe()
    assert not target.exists(), f"{agent} ran the tool with forge-hook-run missing\n" + run.describe()
    if agent == "copilot":  # Copilot 1.0.102 tells its model only that the hook denied (exit 2)
        assert "Denied by preToolUse hook" in run.stdout, run.describe()
    else:
        assert MISSING in run.model_requests()[-1].text(), run.describe()
