"""forge-hook doctor --json, the fleet's heartbeat (issue 35 item 5), through the
installed forge-hook: its keys pinned (docs/managed.md documents them), the agents'
versions, when each agent last called forge (from the run log), the project's trust,
and the managed layer's digest."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from forge_hookd.agents import plugins
from forge_hookd.agents.places import SYSTEM_FILES
from forge_hookd.dialects import NAMES
from helpers import Project, console_script, run_installed

TOP = {"schema", "forge", "agents", "project", "managed", "findings", "unmapped_tools"}
FORGE = {"version", "python", "runner"}
AGENT = {"agent", "found", "events", "files", "findings", "wired", "version", "last_call", "system_file",
         "no_system_file", "also_read_by"}
FILE = {"scope", "path", "exists", "wired", "own_hooks", "problem"}
LAST_CALL = {"time", "event", "decision"}
PROJECT = {"root", "hooks_file", "trust"}
MANAGED = {"dirs", "files", "refused", "managed_only", "digest"}
CLAUDE_PRE = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},
              "session_id": "s1"}


def fake_claude(tmp_path: Path) -> str:
    """A PATH whose claude prints a version, and the system's basics."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stub = bin_dir / "claude"
    stub.write_text("#!/bin/sh\n[ \"$1\" = --version ] && echo '9.8.7 (Claude Code)'\nexit 0\n")
    stub.chmod(0o755)
    return f"{bin_dir}:{os.path.dirname(console_script('forge-hook-run'))}:/usr/bin:/bin"


def heartbeat(project: Project, env: dict[str, str]) -> tuple[int, dict[str, Any]]:
    run = run_installed(["doctor", "--json"], cwd=project.root, prog="forge-hook", env=env)
    assert run.exit_status in (0, 1), run.stderr
    return run.exit_status, json.loads(run.stdout)


def test_the_heartbeat_keys_are_pinned_and_say_when_an_agent_last_called(
        project: Project, tmp_path: Path) -> None:
    path = fake_claude(tmp_path)
    installed = run_installed(["install", "--agent", "claude", "--project"], cwd=project.root, prog="forge-hook",
                              env={"PATH": path})
    assert installed.exit_status == 0, installed.stderr
    status, doc = heartbeat(project, {"PATH": path})
    assert set(doc) == TOP and doc["schema"] == 1
    assert set(doc["forge"]) == FORGE
    (claude,) = doc["agents"]
    assert set(claude) == AGENT and all(set(f) == FILE for f in claude["files"])
    assert claude["version"] == "9.8.7 (Claude Code)"
    assert claude["last_call"] is None  # wired, but never called yet: what a silent wiring looks like
    assert "PreToolUse" in claude["wired"]
    assert set(doc["project"]) == PROJECT and doc["project"]["trust"] == "none"
    assert set(doc["managed"]) == MANAGED

    run = run_installed(["--dialect", "claude"], cwd=project.root, stdin=json.dumps(CLAUDE_PRE))
    assert run.exit_status == 0, run.stderr
    _, doc = heartbeat(project, {"PATH": path})
    (claude,) = doc["agents"]
    assert set(claude["last_call"]) == LAST_CALL
    assert claude["last_call"]["event"] == "PreToolUse" and claude["last_call"]["decision"] == "allow"
    assert claude["last_call"]["time"].endswith("Z")


def test_the_heartbeat_says_the_project_trust(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "session:start", "command": "true"}], trusted=False)
    _, doc = heartbeat(project, {"PATH": "/usr/bin:/bin"})
    assert doc["project"]["trust"] == "untrusted"
    project.trust()
    _, doc = heartbeat(project, {"PATH": "/usr/bin:/bin"})
    assert doc["project"]["trust"] == "trusted"


@pytest.mark.skipif(os.getuid() != 0, reason="the managed layer is root-owned: needs root")
def test_the_heartbeat_carries_the_managed_digest_and_counts_a_refusal(project: Project, tmp_path: Path) -> None:
    layer = tmp_path / "managed"
    layer.mkdir(mode=0o755)
    layer.chmod(0o755)
    policy = layer / "hooks.json"
    policy.write_text(json.dumps({"hooks": [{"event": "tool:*", "command": "true"}]}))
    policy.chmod(0o644)
    env = {"PATH": "/usr/bin:/bin", "FORGE_MANAGED_DIR": str(layer)}
    status, doc = heartbeat(project, env)
    assert status == 0 and doc["findings"] == 0
    first = doc["managed"]["digest"]
    assert first.startswith("sha256:") and len(first) == 7 + 64
    assert doc["managed"]["files"] == [{"source": "managed", "path": str(policy), "hooks": 1, "refused": None}]
    policy.write_text(json.dumps({"hooks": [{"event": "tool:*", "command": "false"}]}))
    _, doc = heartbeat(project, env)
    assert doc["managed"]["digest"] != first
    policy.chmod(0o666)
    status, doc = heartbeat(project, env)
    assert status == 1 and doc["findings"] == 1
    assert doc["managed"]["refused"][0]["path"] == str(policy)
    text = run_installed(["doctor"], cwd=project.root, prog="forge-hook", env=env)
    assert "finding: the managed policy" in text.stdout and text.exit_status == 1


def test_install_system_writes_the_agents_managed_file_under_root_and_undoes_it(
        project: Project, tmp_path: Path) -> None:
    """issue 35 item 2: --system with --root DIR (as DESTDIR), reversible."""
    root = tmp_path / "image"
    path = {"PATH": f"{os.path.dirname(console_script('forge-hook-run'))}:/usr/bin:/bin"}
    written_by = (("claude", "etc/claude-code/managed-settings.json"), ("cursor", "etc/cursor/hooks.json"),
                  ("windsurf", "etc/windsurf/hooks.json"), ("codex", "etc/codex/requirements.toml"),
                  ("qwen", "etc/qwen-code/settings.json"), ("copilot", "etc/github-copilot/policy.d/forge.json"))
    for agent, file in written_by:
        run = run_installed(["install", "--agent", agent, "--system", "--root", str(root)], cwd=project.root,
                            prog="forge-hook", env=path)
        assert run.exit_status == 0, run.stderr
        written = root / file
        assert "--dialect " + agent in written.read_text() and written.stat().st_mode & 0o777 == 0o644
    for agent in sorted({*NAMES, *plugins.NAMES} - set(SYSTEM_FILES)):  # a one-line refusal, nothing written (a KeyError before)
        refused = run_installed(["install", "--agent", agent, "--system", "--root", str(root)], cwd=project.root,
                                prog="forge-hook", env=path)
        assert refused.exit_status == 2 and "no managed file" in refused.stderr, (agent, refused.stderr)
        assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()) == sorted(f for _, f in written_by)
    assert run_installed(["install", "--agent", "claude", "--root", str(root), "--project"], cwd=project.root,
                         prog="forge-hook", env=path).exit_status == 2  # --root goes with --system
    _, doc = heartbeat(project, path)
    for agent in doc["agents"]:
        assert (agent["system_file"] is None) == (agent["no_system_file"] is not None)
    for agent, _ in written_by:
        undone = run_installed(["install", "--agent", agent, "--system", "--root", str(root), "--uninstall"],
                               cwd=project.root, prog="forge-hook", env=path)
        assert undone.exit_status == 0, undone.stderr
    assert not [p for p in root.rglob("*") if p.is_file()]


def test_the_heartbeat_knows_the_plugin_agents(project: Project) -> None:
    # OpenCode and Kilo have a plugin, not a settings file: doctor --json took their
    # CLI's version from the settings table and failed (KeyError, exit 3)
    assert run_installed(["install", "--agent", "opencode", "--project"], cwd=project.root,
                         prog="forge-hook").exit_status == 0
    run = run_installed(["doctor", "--json"], cwd=project.root, prog="forge-hook")
    assert run.exit_status in (0, 1), run.stderr
    assert "opencode" in [a["agent"] for a in json.loads(run.stdout)["agents"]]
