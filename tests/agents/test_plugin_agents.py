"""OpenCode, Kilo and Cline through their real CLIs (pinned in tests/realagents/harness.py,
offline, speaking Anthropic's Messages API to the scripted model server on 127.0.0.1),
with forge wired in by the documented one-line install (forge-hook install --agent X
--project: a plugin for OpenCode and Kilo, hook executables for Cline): a guard denies
``rm -rf ~``, a hook's deny and rewrite (and Cline's context) arrive, and a project config
broken after it was trusted denies (fail closed)."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import BIN_DIR, Project, reap_agent_leftovers, require_agent, run_installed
from tests.realagents import harness
from tests.realagents.harness import AgentRun, Workspace

pytestmark = [pytest.mark.agents, pytest.mark.slow]

RM_HOME_REASON = "destructive_rm: `rm -rf ~` deletes the home directory"


@pytest.fixture(autouse=True)
def reap_what_the_agent_left_to_us() -> Iterator[None]:
    yield
    reap_agent_leftovers()


def run(agent: str, project: Project, command: str) -> AgentRun:
    """``agent`` runs ``command``, forge installed into it as the README says, and on the
    agent's PATH as install.sh leaves it."""
    require_agent(agent)

    def install(ws: Workspace) -> None:
        done = run_installed(["install", "--agent", agent, "--project"], cwd=ws.project, prog="forge-hook")
        assert done.exit_status == 0, done.stderr

    ws = Workspace(project=project.root, home=project.home, extra_env={"PATH": f"{BIN_DIR}:{os.environ['PATH']}"})
    done = harness.run_agent(agent, ws, command=command, hooks={}, adjust=install)
    assert not done.timed_out, done.describe()
    return done


def cline_log(project: Project) -> str:
    """Cline's own log: where the CLI puts a hook's cancel reason (the model never reads it)."""
    return (project.home / ".cline" / "data" / "logs" / "cline.log").read_text()


def denial_seen(agent: str, done: AgentRun, project: Project, reason: str) -> None:
    """OpenCode and Kilo fail the tool call with the reason and go on: the model's next
    request carries it. Cline 3.0.65 ends the task on a cancel (ControlledStopError), asks
    the model nothing more, and logs the reason."""
    if agent == "cline":
        assert len(done.model_requests()) == 1, done.describe()
        assert '"finishReason":"aborted"' in done.stdout, done.describe()
        assert reason in cline_log(project), done.describe()
    else:
        assert reason in done.model_requests()[-1].text(), done.describe()


@pytest.mark.parametrize("agent", harness.INSTALLED_ONLY)
def test_a_guard_denies_rm_rf_home_through_forge_hook_install(agent: str, project: Project) -> None:
    (project.home / "keep").mkdir(parents=True)
    project.write_hooks([{"event": "tool:pre_execute", "guard": "destructive_rm"}])
    done = run(agent, project, "rm -rf ~")
    assert (project.home / "keep").is_dir(), done.describe()
    denial_seen(agent, done, project, RM_HOME_REASON)


# Kilo's plugin is OpenCode's, byte for byte but its name, and each Kilo run costs 45 to
# 110 s here (it waits about 45 s for its own server before the first turn): its cells
# other than the guard's are the matrix's only (python -m tests.realagents.matrix).
KILO_MATRIX_ONLY = pytest.param("kilo", marks=pytest.mark.matrix_only)


@pytest.mark.parametrize("agent", ["opencode", "cline", KILO_MATRIX_ONLY])
def test_a_project_config_broken_after_trust_fails_closed(agent: str, project: Project, tmp_path: Path) -> None:
    target = tmp_path / "created"
    project.write_hooks([{"event": "tool:pre_execute:bash", "guard": "force_push"}])
    project.hooks_file.write_text('{"hooks": [{"event": "tool:pre_execute:bash", "guard": "force_push"},]}')
    done = run(agent, project, f"touch {target}")
    assert not target.exists(), done.describe()
    denial_seen(agent, done, project, "the project's hooks changed since you trusted them")


@pytest.mark.parametrize("agent", ["opencode", KILO_MATRIX_ONLY])
def test_the_plugin_runs_a_hooks_rewrite(agent: str, project: Project, tmp_path: Path) -> None:
    asked, rewritten = tmp_path / "asked", tmp_path / "rewritten"
    answer = json.dumps({"data": {"tool_args": {"command": f"touch {rewritten}"}}})
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": f"echo {shlex.quote(answer)}"}])
    done = run(agent, project, f"touch {asked}")
    assert rewritten.exists() and not asked.exists(), done.describe()


def test_cline_runs_a_hooks_rewrite_and_its_context_reaches_the_model(project: Project, tmp_path: Path) -> None:
    asked, rewritten = tmp_path / "asked", tmp_path / "rewritten"
    answer = json.dumps({"data": {"tool_args": {"command": f"touch {rewritten}"}},
                         "context": "forge-e2e-context-7c2d: the repo is frozen"})
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": f"echo {shlex.quote(answer)}"}])
    done = run("cline", project, f"touch {asked}")
    assert rewritten.exists() and not asked.exists(), done.describe()
    assert "forge-e2e-context-7c2d" in done.model_requests()[-1].text(), done.describe()


def test_a_hooks_deny_by_script_cancels_the_cline_call(project: Project, tmp_path: Path) -> None:
    # OpenCode's and Kilo's plugin throws on any deny alike (exit 1): the guard's test shows it
    target = tmp_path / "created"
    answer = json.dumps({"decision": "deny", "reason": "forge-e2e-deny-91b3: not in this repo"})
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": f"echo {shlex.quote(answer)}"}])
    done = run("cline", project, f"touch {target}")
    assert not target.exists(), done.describe()
    denial_seen("cline", done, project, "forge-e2e-deny-91b3: not in this repo")
