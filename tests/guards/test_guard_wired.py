"""Self-protection covers the files forge relies on, derived from what forge wired (issue
31 item 6): the agent settings ``forge-hook install`` recorded, a known agent file that
runs forge-hook-run, Codex's trust entries, forge's own installation; through every
write path; reads pass. Through the installed forge-hook and forge-hook-run, in a
throwaway home and project."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import forge_hookd
from helpers import BIN_DIR, Project, Run, run_installed
from forge_hookd.agents import cline_hooks, plugins
from forge_hookd.agents.places import SYSTEM_FILES
from forge_hookd.dialects import NAMES, get
from forge_hookd.guards import Context, make
from forge_hookd.guards.wired import AGENT_FILES

AGENT_HOME_VARS = ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "COPILOT_HOME")
SELF_PROTECTION = [{"event": "tool:pre_execute", "guard": "self_protection"}]


@pytest.fixture(autouse=True)
def agents_at_their_default_homes(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in AGENT_HOME_VARS:
        monkeypatch.delenv(name, raising=False)


def forge_hook(project: Project, *args: str) -> Run:
    run = run_installed(list(args), cwd=project.root, prog="forge-hook")
    assert run.exit_status == 0 and "Traceback" not in run.stderr, run.stderr
    return run


def wired(project: Project) -> Project:
    """forge installed into Claude Code for the project and into Gemini CLI globally,
    with self-protection in the user's own hooks file."""
    forge_hook(project, "install", "--agent", "claude", "--project")
    forge_hook(project, "install", "--agent", "gemini", "--global")
    project.write_hooks(SELF_PROTECTION, where="global")
    return project


def claude(project: Project, tool: str, tool_input: dict[str, Any]) -> tuple[str | None, str]:
    """What Claude Code reads back from forge-hook-run on a PreToolUse of ``tool``."""
    payload = {"session_id": "s1", "cwd": str(project.root), "hook_event_name": "PreToolUse", "tool_name": tool,
               "tool_input": tool_input, "tool_use_id": "toolu_1", "permission_mode": "default",
               "transcript_path": str(project.home / "t.jsonl")}
    run = run_installed(["--dialect", "claude"], cwd=project.root, stdin=json.dumps(payload))
    assert run.exit_status == 0 and "Traceback" not in run.stderr, run.stderr
    doc: dict[str, Any] = json.loads(run.stdout) if run.stdout.strip() else {}
    specific = doc.get("hookSpecificOutput") or {}
    return specific.get("permissionDecision"), str(specific.get("permissionDecisionReason") or "")


def bash(project: Project, command: str) -> tuple[str | None, str]:
    return claude(project, "Bash", {"command": command})


# -- what install wired ------------------------------------------------------------------------------------
#: Each write path self-protection reads, at a file install wired (one install for all:
#: an install is seconds on a loaded machine).
WRITES = [
    "sed -i 's/forge-hook-run/true/' .claude/settings.json",
    "echo {} > .claude/settings.json",
    "python3 -c \"open('.claude/settings.json', 'w').write('{}')\"",
    "find .claude -name '*.json' -exec truncate -s 0 {} +",
    "echo '{\"disableAllHooks\": true}' > .claude/settings.local.json",
    "echo {} > ~/.gemini/settings.json",
    "echo '{\"hooksConfig\": {\"enabled\": false}}' > .gemini/settings.json",
    "rm -rf ~/.gemini",
    "cp /dev/null .claude/settings.json",
]
READS = ["cat .claude/settings.json", "sed -n 1p .claude/settings.json", "git diff .claude/settings.json",
         "jq . ~/.gemini/settings.json", "grep -c forge-hook-run .claude/settings.json", "echo x > notes.txt",
         "find .claude -name '*.json'"]


def test_a_write_to_what_install_wired_is_denied_and_a_read_passes(project: Project) -> None:
    wired(project)
    for command in WRITES:
        decision, reason = bash(project, command)
        assert decision == "deny", (command, reason)
        assert reason.startswith("self_protection: ") and "where forge is wired into" in reason, (command, reason)
        assert "Only a person changes an agent's hook settings" in reason
    for command in READS:
        assert bash(project, command) == (None, ""), command


def test_the_agents_write_and_edit_tools_are_denied_too(project: Project) -> None:
    wired(project)
    for tool, relative in [("Write", ".claude/settings.json"), ("Edit", ".claude/settings.json"),
                           ("Write", ".claude/settings.local.json"), ("Write", "~/.gemini/settings.json")]:
        path = str(project.home / relative[2:]) if relative.startswith("~/") else str(project.root / relative)
        tool_input = {"file_path": path, "content": "{}"} if tool == "Write" else \
            {"file_path": path, "old_string": "forge-hook-run", "new_string": "true"}
        decision, reason = claude(project, tool, tool_input)
        assert decision == "deny" and "where forge is wired into" in reason, (tool, relative, reason)


def test_codexs_trust_entries_are_forges_once_install_wrote_them(project: Project) -> None:
    project.write_hooks(SELF_PROTECTION, where="global")
    config = project.home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text('model = "o3"\n')
    assert bash(project, "echo 'model = \"o4\"' >> ~/.codex/config.toml") == (None, "")  # the user's own, so far
    forge_hook(project, "install", "--agent", "codex", "--global")
    assert "[hooks.state." in config.read_text()
    decision, reason = bash(project, "sed -i '/hooks.state/d' ~/.codex/config.toml")
    assert decision == "deny" and "where forge is wired into codex" in reason, reason


def test_a_file_no_list_knows_is_forges_once_install_wrote_it(project: Project) -> None:
    """Claude Code's home moved by CLAUDE_CONFIG_DIR: the records say where install wrote."""
    project.write_hooks(SELF_PROTECTION, where="global")
    moved = project.home / "elsewhere" / "claude"
    run = run_installed(["install", "--agent", "claude", "--global"], cwd=project.root, prog="forge-hook",
                        env={"CLAUDE_CONFIG_DIR": str(moved)})
    assert run.exit_status == 0 and (moved / "settings.json").exists(), run.stderr
    decision, reason = bash(project, f"echo {{}} > {moved}/settings.json")
    assert decision == "deny" and "where forge is wired into claude" in reason, reason
    assert bash(project, f"echo {{}} > {moved}/notes.json") == (None, "")


def test_codexs_managed_requirements_are_forges_once_install_system_wrote_them(project: Project) -> None:
    """install --system (under --root, as an image build) wrote Codex's managed file: a
    write to it is denied, whatever else the file holds, and reading it passes."""
    project.write_hooks(SELF_PROTECTION, where="global")
    root = project.home / "image"
    forge_hook(project, "install", "--agent", "codex", "--system", "--root", str(root))
    managed = root / "etc/codex/requirements.toml"
    assert b"forge-hook-run" in managed.read_bytes()
    for command in (f"sed -i '/forge-hook-run/d' {managed}", f"echo > {managed}", f"rm {managed}"):
        decision, reason = bash(project, command)
        assert decision == "deny" and "where forge is wired into codex" in reason, (command, reason)
    assert bash(project, f"cat {managed}") == (None, "")


# -- not wired: the agent's own files stay the agent's ------------------------------------------------------
def test_an_agent_file_forge_never_wired_stays_writable(project: Project) -> None:
    project.write_hooks(SELF_PROTECTION, where="global")
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text('{"permissions": {"allow": []}}')
    assert bash(project, "echo '{}' > .claude/settings.json") == (None, "")
    assert claude(project, "Write", {"file_path": str(project.root / ".claude/settings.json"), "content": "{}"}) == \
        (None, "")


def test_a_committed_agent_file_that_runs_forge_is_forges(project: Project) -> None:
    """A teammate's install, committed: no record on this machine, but the file runs forge."""
    project.write_hooks(SELF_PROTECTION, where="global")
    (project.root / ".claude").mkdir()
    command = "command -v forge-hook-run >/dev/null 2>&1 || exit 2; exec forge-hook-run --dialect claude"
    (project.root / ".claude" / "settings.json").write_text(json.dumps(
        {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}}))
    decision, reason = bash(project, "echo '{\"disableAllHooks\": true}' > .claude/settings.local.json")
    assert decision == "deny" and "where forge is wired into claude" in reason, reason


def test_install_records_that_cannot_be_read_protect_every_agent_file(project: Project) -> None:
    project.write_hooks(SELF_PROTECTION, where="global")
    records = project.home / ".local/state/forge/installs.json"
    records.parent.mkdir(parents=True)
    records.write_text("{not json")
    decision, reason = bash(project, "echo {} > .cursor/hooks.json")
    assert decision == "deny" and "where forge is wired into cursor" in reason, reason
    assert bash(project, "cat .cursor/hooks.json") == (None, "")


# -- forge's own installation --------------------------------------------------------------------------------
def test_forges_own_installation_is_forges(project: Project) -> None:
    project.write_hooks(SELF_PROTECTION, where="global")
    for command in ["rm ~/.local/bin/forge-hook", f"echo x > {BIN_DIR}/forge-hook-run",
                    "rm -rf ~/.local/lib/forge-hook-run", f"rm -rf {sys.prefix}",
                    f"python3 -c \"import os; os.remove('{BIN_DIR}/forge-hook')\""]:
        decision, reason = bash(project, command)
        assert decision == "deny" and "forge's own installation" in reason, (command, reason)
        assert "Only a person installs, upgrades or removes forge" in reason


def test_forge_removed_by_its_package_manager_or_found_on_path_is_forges_installation(project: Project) -> None:
    """pip, pipx and uv removing forge's distribution, and forge's executable named by where
    PATH finds it (``rm $(which forge-hook-run)``, not ./forge-hook-run); other packages, other
    programs found on PATH, and reading forge's executable pass."""
    project.write_hooks(SELF_PROTECTION, where="global")
    for command in ["pip uninstall -y forge-hookd", "python3 -m pip uninstall forge-hookd",
                    "pipx uninstall forge-hookd", "uv tool uninstall forge-hookd",
                    "rm $(which forge-hook-run)", "chmod -x `command -v forge-hook`"]:
        decision, reason = bash(project, command)
        assert decision == "deny" and "forge's own installation" in reason, (command, reason)
    for command in ["pip uninstall -y requests", "pipx uninstall black", "pip show forge-hookd",
                    "ls -l $(which forge-hook-run)", "cp $(which forge-hook-run) /tmp/fh-backup"]:
        assert bash(project, command) == (None, ""), command


@pytest.mark.parametrize(("command", "decision"), [
    ("cp .forge/hooks.json /tmp/backup.json", "allow"),      # a copy reads its sources
    ("rsync -a .forge/ /tmp/forge-backup/", "allow"),
    ("cp /tmp/x.json .forge/hooks.json", "deny"),
    ("cp .forge/hooks.json .forge/hooks.json.bak", "deny"),  # a new file under .forge/ is forge's too
    ("mv .forge/hooks.json /tmp/x.json", "deny"),            # a move removes its source
    ("ln .forge/hooks.json notes.json", "deny"),             # a write through the link changes the source
    ("ln -s .forge/hooks.json notes.json", "deny"),
    ("printf '{}' > ${XDG_CONFIG_HOME:-$HOME/.config}/forge/hooks.json", "deny"),
    ('rm -rf "${XDG_DATA_HOME:-$HOME/.local/share}/forge"', "deny"),
    ("echo x > ${FORGE_DIR:=.forge}/hooks.json", "deny"),
    ("cat ${XDG_CONFIG_HOME:-$HOME/.config}/forge/hooks.json", "allow"),
    ("mkdir -p ${XDG_CONFIG_HOME:-$HOME/.config}/nvim", "allow"),
])
def test_a_copy_of_forges_files_reads_them_and_a_path_behind_a_default_is_forges(command: str, decision: str,
                                                                                  tmp_path: Path) -> None:
    """A copy's sources are read, not changed; ``${XDG_CONFIG_HOME:-$HOME/.config}``: where the
    word goes when the variable is unset."""
    context = Context.from_env(str(tmp_path / "p"), {"HOME": str(tmp_path)})
    assert make("self_protection").judge("bash", {"command": command}, context).decision == decision, command


def test_forge_installed_editable_in_the_project_is_the_agents_work(tmp_path: Path) -> None:
    """A checkout of forge itself: its package there is the project's, not the install's."""
    package = Path(forge_hookd.__file__).parent
    edit = {"file_path": str(package / "guards" / "paths.py"), "old_string": "a", "new_string": "b"}
    inside = Context.from_env(str(package.parent), {"HOME": str(tmp_path)})
    outside = Context.from_env(str(tmp_path), {"HOME": str(tmp_path)})
    assert make("self_protection").judge("edit", edit, inside).decision == "allow"
    assert make("self_protection").judge("edit", edit, outside).reason.startswith(
        "self_protection: `" + edit["file_path"] + "` changes forge's own installation")


# -- the cost: nothing read where no write is judged ----------------------------------------------------------
def test_the_records_are_read_only_when_a_write_target_is_checked(tmp_path: Path) -> None:
    code = ("import sys\n"
            "from forge_hookd.guards import Context, make\n"
            "g = make('self_protection')\n"
            "ctx = Context.from_env(sys.argv[1], {'HOME': sys.argv[1]})\n"
            "for call in (('bash', {'command': 'git status && ls -la && cat .claude/settings.json'}),\n"
            "             ('read', {'file_path': '.claude/settings.json'})):\n"
            "    assert g.judge(*call, ctx).decision == 'allow'\n"
            "print('forge_hookd.guards.wired' in sys.modules)\n"
            "g.judge('write', {'file_path': sys.argv[1] + '/x.py', 'content': ''}, ctx)\n"
            "print('forge_hookd.guards.wired' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "True"]


# -- the known list is the dialects' --------------------------------------------------------------------------
def test_the_known_agent_files_are_the_files_install_writes() -> None:
    for name in NAMES:
        settings = get(name).settings
        expected = [*settings.files, *settings.local_files]
        if name == "cline":  # a directory of executables, one per event
            expected = [f"{f}/*" for f in expected] + [".clinerules/hooks/*", "~/Documents/Cline/Hooks/*"]
            assert cline_hooks.directory("project", "") == ".clinerules/hooks"
        expected += [SYSTEM_FILES[name]] if name in SYSTEM_FILES else []
        expected += ["~/.codex/config.toml"] if name == "codex" else []
        assert sorted(AGENT_FILES[name]) == sorted(expected), name
    for name, place in plugins.PLUGIN_PLACES.items():
        assert sorted(AGENT_FILES[name]) == sorted([f"{place.project}/*", f"~/.config/{place.user}/*"])
    assert set(AGENT_FILES) == {*NAMES, *plugins.PLUGIN_PLACES}
