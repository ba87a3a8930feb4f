"""Fail closed as the real agent sees it (issue 30, items 3, 4, 7 and 10; item 8 is in
test_dialect_agents.py): the pinned CLIs (tests/realagents/harness.py: offline, a scripted
model on 127.0.0.1) with forge-hook-run as their hook, and what the agent then did: the
files, the requests the model received. Each test failed on the code before."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from helpers import Project, build_native_client, installed, require_agent
from tests.realagents import harness
from tests.realagents.harness import AGENTS, PRE_TOOL, Workspace

pytestmark = [pytest.mark.agents, pytest.mark.slow]


def forge(event: str, *options: str) -> str:
    return f"{shlex.quote(installed('forge-hook-run'))} --dialect copilot:{event} {' '.join(options)}"


# -- item 3: a broken global config ------------------------------------------------------------
@pytest.mark.parametrize("agent", AGENTS)
def test_a_trailing_comma_in_the_global_config_keeps_the_tool_from_running(agent: str, project: Project,
                                                                           tmp_path: Path) -> None:
    """Before: exit 0 and no decision, the only warning on stderr: the tool ran."""
    require_agent(agent)
    project.global_file.parent.mkdir(parents=True, exist_ok=True)
    project.global_file.write_text('{"hooks": [{"event": "tool:pre_execute:bash", "guard": "force_push"},]}')
    target = tmp_path / "created"
    hook = f"{shlex.quote(installed('forge-hook-run'))} --dialect {agent}:{PRE_TOOL[agent]}"
    run = harness.run_agent(agent, Workspace(project=project.root, home=project.home), command=f"touch {target}",
                            hooks={PRE_TOOL[agent]: hook})
    assert not run.timed_out, run.describe()
    assert not target.exists(), run.describe()
    if agent != "copilot":  # Copilot's model is told only that the hook denied
        assert str(project.global_file) in run.model_requests()[-1].text(), run.describe()


# -- item 4: the native client whose launcher cannot start ------------------------------------
@pytest.mark.parametrize("agent", AGENTS)
def test_the_native_client_whose_python_is_gone_keeps_the_tool_from_running(agent: str, project: Project,
                                                                             tmp_path: Path) -> None:
    """The virtualenv's Python upgraded away: before, forge's error document and exit 3,
    which Claude, Codex and Gemini read as a non-blocking error: the tool ran."""
    require_agent(agent)
    launcher = tmp_path / "venv" / "bin" / "forge-hook-run"
    launcher.parent.mkdir(parents=True)
    launcher.write_text(f"#!{tmp_path}/venv/bin/python3.11\nimport sys\n")  # that python is gone
    launcher.chmod(0o755)
    native = build_native_client(tmp_path / "native", str(launcher))
    # As install writes it: the dialect alone where the payload names its event.
    dialect = f"copilot:{PRE_TOOL[agent]}" if agent == "copilot" else agent
    target = tmp_path / "created"
    run = harness.run_agent(agent, Workspace(project=project.root, home=project.home), command=f"touch {target}",
                            hooks={PRE_TOOL[agent]: f"FORGE_WARM=0 {shlex.quote(native)} --dialect {dialect}"})
    assert not run.timed_out, run.describe()
    assert not target.exists(), run.describe()


# -- item 7: Copilot's prompt can block ---------------------------------------------------------
def test_forges_own_failure_refuses_a_copilot_prompt(project: Project, tmp_path: Path) -> None:
    """A --strict config error on userPromptSubmitted: before, Copilot went on with the
    prompt (it was not an event that can block); Claude, Codex and Gemini refuse it."""
    require_agent("copilot")
    project.write_hooks([{"event": "user:prompt_submit", "command": "exit 0", "comand": "typo"}])
    target = tmp_path / "created"
    run = harness.run_agent("copilot", Workspace(project=project.root, home=project.home),
                            command=f"touch {target}",
                            hooks={"userPromptSubmitted": forge("userPromptSubmitted", "--strict")})
    assert not run.timed_out, run.describe()
    assert not target.exists(), run.describe()
    assert run.model_requests() == [], run.describe()  # the prompt never reached the model


# -- item 10: Copilot reads additionalContext where its reference says it does not ----------------
def test_context_reaches_the_copilot_model_on_session_start_prompt_and_post_tool_use(project: Project,
                                                                                   tmp_path: Path) -> None:
    require_agent("copilot")
    answer = '{"context": "forge-ctx-7d1e-$FORGE_EVENT"}'
    project.write_hooks([{"event": "*", "command": f'printf "%s" "{answer.replace(chr(34), chr(92) + chr(34))}"'}])
    target = tmp_path / "created"
    run = harness.run_agent("copilot", Workspace(project=project.root, home=project.home),
                            command=f"touch {target}",
                            hooks={event: forge(event, "--trust-project")
                                   for event in ("sessionStart", "userPromptSubmitted", "postToolUse")})
    assert target.exists(), run.describe()
    requests = run.model_requests()
    assert requests, run.describe()
    first, last = requests[0].text(), requests[-1].text()
    assert "forge-ctx-7d1e-session:start" in first, run.describe()
    assert "forge-ctx-7d1e-user:prompt_submit" in first, run.describe()
    assert "forge-ctx-7d1e-tool:post_execute" in last, run.describe()


def test_the_context_hook_answers_as_written(project: Project, tmp_path: Path) -> None:
    """The hook above, without an agent: what forge writes for Copilot (a control)."""
    import subprocess

    answer = '{"context": "forge-ctx-7d1e-$FORGE_EVENT"}'
    project.write_hooks([{"event": "*", "command": f'printf "%s" "{answer.replace(chr(34), chr(92) + chr(34))}"'}])
    done = subprocess.run([installed("forge-hook-run"), "--dialect", "copilot:sessionStart"], cwd=project.root,
                          input=json.dumps({"timestamp": 1, "cwd": str(project.root), "source": "new"}),
                          capture_output=True, text=True, timeout=60)
    assert json.loads(done.stdout) == {"additionalContext": "forge-ctx-7d1e-session:start"}, done.stderr


def test_a_native_copilot_hook_control_run_decides_where_the_reference_disagrees(project: Project,
                                                                               tmp_path: Path) -> None:
    """The control (issue 30 item 10): Copilot 1.0.102's reference says the output of
    sessionStart and userPromptSubmitted is not processed; a plain native hook, no forge,
    shows its top-level additionalContext reaching the model, and decision: block on
    userPromptSubmitted refusing the prompt (item 7)."""
    require_agent("copilot")
    hooks = {event: f"""echo '{{"additionalContext": "ctl-9e2a-{event}"}}'"""
             for event in ("sessionStart", "userPromptSubmitted", "postToolUse")}
    run = harness.run_agent("copilot", Workspace(project=project.root, home=project.home),
                            command=f"touch {tmp_path / 'created'}", hooks=hooks)
    requests = run.model_requests()
    assert requests, run.describe()
    assert "ctl-9e2a-sessionStart" in requests[0].text() and "ctl-9e2a-userPromptSubmitted" in requests[0].text()
    assert "ctl-9e2a-postToolUse" in requests[-1].text(), run.describe()
    target = tmp_path / "refused"
    refused = harness.run_agent("copilot", Workspace(project=project.root, home=project.home),
                                command=f"touch {target}",
                                hooks={"userPromptSubmitted": """echo '{"decision": "block", "reason": "no"}'"""})
    assert refused.model_requests() == [] and not target.exists(), refused.describe()
