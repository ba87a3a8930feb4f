"""The Claude-compatible family through a real CLI: Qwen Code (pinned in
tests/realagents/harness.py, offline, speaking Anthropic's Messages API to the scripted
model server on 127.0.0.1). A guard denies ``rm -rf ~`` through the documented install
(forge-hook install --agent qwen), a rewrite and context arrive, and forge failing
(a broken config under --strict) denies."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest

from helpers import BIN_DIR, Project, installed, require_agent, run_installed
from tests.realagents import harness
from tests.realagents.harness import AgentRun, Workspace

pytestmark = [pytest.mark.agents, pytest.mark.slow]


def qwen(project: Project, command: str, hook: str | None = None) -> AgentRun:
    """Qwen runs ``command``; its PreToolUse hook is ``hook``, else what forge-hook install
    --agent qwen --project writes."""
    require_agent("qwen")

    def install(ws: Workspace) -> None:
        if hook is None:
            done = run_installed(["install", "--agent", "qwen", "--project"], cwd=ws.project, prog="forge-hook")
            assert done.exit_status == 0, done.stderr

    # forge installed and on the agent's PATH, as install.sh leaves it: the project's
    # settings find forge-hook-run there (and deny every call where they do not)
    ws = Workspace(project=project.root, home=project.home, extra_env={"PATH": f"{BIN_DIR}:{os.environ['PATH']}"})
    return harness.run_agent("qwen", ws, command=command, hooks={"PreToolUse": hook} if hook else {}, adjust=install)


def test_a_guard_denies_rm_rf_home_through_forge_hook_install(project: Project) -> None:
    (project.home / "keep").mkdir(parents=True)
    project.write_hooks([{"event": "tool:pre_execute", "guard": "destructive_rm"}])
    run = qwen(project, "rm -rf ~")
    assert not run.timed_out, run.describe()
    assert (project.home / "keep").is_dir(), run.describe()
    settings = json.loads((project.root / ".qwen" / "settings.json").read_text())
    assert "--dialect qwen" in settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert "destructive_rm: `rm -rf ~` deletes the home directory" in run.model_requests()[-1].text(), run.describe()


def test_post_tool_context_reaches_the_model_and_what_qwen_drops_is_reported(project: Project,
                                                                             tmp_path: Path) -> None:
    # Qwen 0.24.4 applies no updatedInput on PreToolUse and reads no additionalContext
    # there (firePreToolUseHook returns it, no caller reads it): the command runs as asked,
    # forge reports both; PostToolUse's additionalContext reaches the model.
    asked, rewritten, report = tmp_path / "asked", tmp_path / "rewritten", tmp_path / "report.json"
    pre = json.dumps({"data": {"tool_args": {"command": f"touch {rewritten}"}}, "context": "dropped"})
    post = json.dumps({"context": "forge-e2e-context-5a1f: the repo is frozen"})
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": f"echo {shlex.quote(pre)}"},
                         {"event": "tool:post_execute:bash", "command": f"echo {shlex.quote(post)}"}])
    runner = shlex.quote(installed("forge-hook-run"))
    require_agent("qwen")
    run = harness.run_agent("qwen", Workspace(project=project.root, home=project.home), command=f"touch {asked}",
                            hooks={"PreToolUse": f"{runner} --dialect qwen --report {shlex.quote(str(report))}",
                                   "PostToolUse": f"{runner} --dialect qwen"})
    assert asked.exists() and not rewritten.exists(), run.describe()
    assert "forge-e2e-context-5a1f" in run.model_requests()[-1].text(), run.describe()
    dropped = json.loads(report.read_text())["dialect"]["dropped"]
    assert sorted(dropped) == ["context: PreToolUse takes no additional context",
                               "rewritten tool_args: qwen applies no updatedInput on PreToolUse"]


def test_a_broken_config_under_strict_fails_closed(project: Project, tmp_path: Path) -> None:
    target = tmp_path / "created"
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "exit 0", "comand": "typo"}])
    hook = f"{shlex.quote(installed('forge-hook-run'))} --dialect qwen --strict"
    run = qwen(project, f"touch {target}", hook)
    assert not target.exists(), run.describe()
    assert "comand" in run.model_requests()[-1].text(), run.describe()
