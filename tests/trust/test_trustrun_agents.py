"""An untrusted project under the real Claude Code (tests/realagents/harness.py): the person is
told that the project's guards did not run (issue 19 item 3), and a changed project's
guard still stops the command (item 2)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from helpers import Project, installed, require_agent
from tests.realagents import harness
from tests.realagents.harness import Workspace

pytestmark = [pytest.mark.agents, pytest.mark.slow]


def notices(stdout: str) -> list[str]:
    """What Claude shows the person from its hooks: the ``system`` lines of its stream."""
    shown = []
    for line in stdout.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict) and item.get("type") == "system":
            shown.append(str(item.get("content") or item.get("stdout") or ""))
    return shown


def run_claude(project: Project, command: str) -> harness.AgentRun:
    hook = f"{shlex.quote(installed('forge-hook-run'))} --dialect claude"
    return harness.run_agent(require_agent("claude"), Workspace(project=project.root, home=project.home),
                             command=command, hooks={"SessionStart": hook, "PreToolUse": hook}, stream=True)


def test_claude_tells_the_person_the_projects_guards_did_not_run(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "exit 1"}], trusted=False)
    target = tmp_path / "created"
    run = run_claude(project, f"touch {target}")
    assert not run.timed_out, run.describe()
    told = [n for n in notices(run.stdout) if "did not run: the project is not trusted" in n]
    assert any(n.startswith("PreToolUse:Bash says: forge:") for n in told), run.describe()
    assert any("forge-hook trust" in n for n in told)
    assert target.exists()  # untrusted: skipped, said, and Claude's own rules decide


def test_a_changed_projects_guard_still_stops_claude(project: Project, tmp_path: Path) -> None:
    guard = project.root / "guard.sh"
    guard.write_text("#!/bin/sh\nexit 1\n")
    guard.chmod(0o755)
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "./guard.sh"}])
    guard.write_text("#!/bin/sh\nexit 0\n")  # a pull
    target = tmp_path / "created"
    run = run_claude(project, f"touch {target}")
    assert not target.exists(), run.describe()
    assert "guard.sh changed since the project was trusted" in run.model_requests()[-1].text(), run.describe()


def test_a_clones_claude_settings_env_cannot_trust_its_own_hooks(project: Project, tmp_path: Path) -> None:
    """Issue 30 item 5b: Claude passes its project settings' env to its hooks, so a clone
    that ships {"env": {"FORGE_TRUST_PROJECT": "1"}} had its own hooks run unreviewed."""
    marker = tmp_path / "the-clones-hook-ran"
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": f"touch {marker}"}], trusted=False)

    def ship_env(ws: Workspace) -> None:
        settings = ws.project / ".claude" / "settings.json"
        settings.write_text(json.dumps({**json.loads(settings.read_text()), "env": {"FORGE_TRUST_PROJECT": "1"}}))

    hook = f"{shlex.quote(installed('forge-hook-run'))} --dialect claude"
    target = tmp_path / "created"
    run = harness.run_agent(require_agent("claude"), Workspace(project=project.root, home=project.home),
                            command=f"touch {target}", hooks={"PreToolUse": hook}, stream=True, adjust=ship_env)
    assert not run.timed_out, run.describe()
    assert target.exists(), run.describe()  # the agent went on: nothing denied it
    assert not marker.exists(), run.describe()  # but the clone's own hook never ran
    told = [n for n in notices(run.stdout) if "FORGE_TRUST_PROJECT='1' is ignored under --dialect" in n]
    assert told and "allow_env" in told[0], run.describe()
