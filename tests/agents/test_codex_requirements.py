"""``forge-hook install --agent codex --system``: forge-hook-run as Codex's managed hooks,
``[[hooks.EVENT]]`` tables appended to /etc/codex/requirements.toml (issue 35 item 2),
through the installed forge-hook with ``--root`` under tmp_path."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from forge_hookd.agents import places
from forge_hookd.agents.codex_requirements import tables, toml_string
from forge_hookd.dialects import get
from helpers import Project, console_script, run_installed

FILE = "etc/codex/requirements.toml"
#: An admin's requirements file: comments, other requirements, [hooks] with managed_dir
#: and a hook of their own, and no newline at the end.
ADMIN = ('# fleet policy, do not edit by hand\nallowed_approval_policies = ["never", "on-request"]\n\n'
         '[hooks]\nmanaged_dir = "/opt/acme/hooks"  # the scripts MDM delivers\n\n'
         '[[hooks.PreToolUse]]\nmatcher = "^Bash$"\n\n[[hooks.PreToolUse.hooks]]\ntype = "command"\n'
         'command = "/opt/acme/hooks/audit.sh"\ntimeout = 30\n\n[permissions.network]\nenabled = false')


def forge_hook(args: list[str], project: Project, root: Path) -> Any:
    path = {"PATH": f"{os.path.dirname(console_script('forge-hook-run'))}:/usr/bin:/bin"}
    return run_installed([*args, "--agent", "codex", "--system", "--root", str(root)], cwd=project.root,
                         prog="forge-hook", env=path)


def forge_groups(doc: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {event: [g for g in groups if any(places.runs_forge(h["command"], "codex") for h in g["hooks"])]
            for event, groups in doc["hooks"].items() if isinstance(groups, list)}


def test_install_appends_forges_tables_and_uninstall_gives_the_bytes_back(project: Project, tmp_path: Path) -> None:
    root = tmp_path / "image"
    written = root / FILE
    written.parent.mkdir(parents=True)
    written.write_text(ADMIN)
    run = forge_hook(["install"], project, root)
    assert run.exit_status == 0, run.stderr
    text = written.read_text()
    assert text.startswith(ADMIN + "\n")  # the admin's bytes, then forge's tables
    doc = tomllib.loads(text)
    assert doc["allowed_approval_policies"] == ["never", "on-request"]
    assert doc["permissions"] == {"network": {"enabled": False}} and doc["hooks"]["managed_dir"] == "/opt/acme/hooks"
    assert doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == "/opt/acme/hooks/audit.sh"  # theirs first
    ours = forge_groups(doc)
    assert set(ours) == set(get("codex").settings.snippet(places.hook_command("codex"), 600)["hooks"])
    for event, groups in ours.items():
        (group,) = groups
        (handler,) = group["hooks"]
        # the fail-closed wrapper of every other install, by this install's path
        assert places.guarded(handler["command"]) and places.installed_form(handler["command"]), event
        assert handler["type"] == "command" and isinstance(handler["timeout"], int)
    assert ours["PreToolUse"][0]["matcher"] == "*" and "matcher" not in ours["Stop"][0]
    assert forge_hook(["install"], project, root).exit_status == 0
    assert written.read_text() == text  # a second install changes nothing
    undone = forge_hook(["install", "--uninstall"], project, root)
    assert undone.exit_status == 0, undone.stderr
    assert "back as it was" in undone.stdout and written.read_text() == ADMIN


def test_a_file_install_created_goes_with_the_directories_it_made(project: Project, tmp_path: Path) -> None:
    root = tmp_path / "image"
    root.mkdir()
    assert forge_hook(["install"], project, root).exit_status == 0
    written = root / FILE
    assert written.stat().st_mode & 0o777 == 0o644
    assert set(forge_groups(tomllib.loads(written.read_text()))) >= {"PreToolUse", "UserPromptSubmit", "Stop"}
    undone = forge_hook(["install", "--uninstall"], project, root)
    assert undone.exit_status == 0 and "removed" in undone.stdout
    assert list(root.iterdir()) == []


def test_hooks_forge_cannot_extend_are_refused_and_nothing_is_written(project: Project, tmp_path: Path) -> None:
    root = tmp_path / "image"
    written = root / FILE
    written.parent.mkdir(parents=True)
    refused = {b'hooks = { managed_dir = "/opt/acme" }\n': "cannot take [[hooks.EVENT]] tables",
               b'[hooks]\nPreToolUse = [{ matcher = "x", hooks = [] }]\n': "cannot take [[hooks.EVENT]] tables",
               b'hooks.PreToolUse = []\n': "cannot take [[hooks.EVENT]] tables",
               b'hooks = "off"\n': "hooks is not a table",
               b'allowed_approval_policies = [\n': "not valid TOML",
               b'name = "\xff"\n': "not UTF-8"}
    for content, why in refused.items():
        written.write_bytes(content)
        run = forge_hook(["install"], project, root)
        assert run.exit_status == 2, (content, run.stderr)
        assert run.stderr.count("\n") == 1 and why in run.stderr and "changed nothing" in run.stderr, run.stderr
        assert written.read_bytes() == content
        assert "nothing of forge-hook install's" in forge_hook(["install", "--uninstall"], project, root).stdout


def test_an_edit_elsewhere_keeps_and_an_edit_in_forges_tables_is_refused(project: Project, tmp_path: Path) -> None:
    root = tmp_path / "image"
    written = root / FILE
    written.parent.mkdir(parents=True)
    written.write_text(ADMIN + "\n")
    assert forge_hook(["install"], project, root).exit_status == 0
    written.write_text('allowed_sandbox_modes = ["read-only"]\n' + written.read_text())
    undone = forge_hook(["install", "--uninstall"], project, root)
    assert undone.exit_status == 0 and "took forge-hook-run out" in undone.stdout, undone.stdout
    assert written.read_text() == 'allowed_sandbox_modes = ["read-only"]\n' + ADMIN + "\n"
    assert forge_hook(["install"], project, root).exit_status == 0
    edited = written.read_text().replace("timeout = 600", "timeout = 60", 1)
    written.write_text(edited)
    run = forge_hook(["install", "--uninstall"], project, root)
    assert run.exit_status == 2 and "by hand" in run.stderr and written.read_text() == edited


def test_doctor_names_each_agents_managed_file_and_says_where_there_is_none(project: Project, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for agent in ("codex", "copilot", "droid"):
        (bin_dir / agent).write_text("#!/bin/sh\necho 1.0\n")
        (bin_dir / agent).chmod(0o755)
    path = f"{bin_dir}:{os.path.dirname(console_script('forge-hook-run'))}:/usr/bin:/bin"
    run = run_installed(["doctor", "--json"], cwd=project.root, prog="forge-hook", env={"PATH": path})
    assert run.exit_status in (0, 1), run.stderr
    agents = {a["agent"]: a for a in json.loads(run.stdout)["agents"]}
    assert agents["codex"]["system_file"] == "/etc/codex/requirements.toml"
    assert agents["codex"]["no_system_file"] is None
    assert agents["copilot"]["system_file"] == "/etc/github-copilot/policy.d/forge.json"
    assert agents["droid"]["system_file"] is None and "droid documents no" in agents["droid"]["no_system_file"]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_every_string_reads_back_as_written(value: str) -> None:
    assert tomllib.loads(f"k = {toml_string(value)}\n")["k"] == value


def test_the_tables_read_back_as_the_groups() -> None:
    groups: dict[str, list[dict[str, Any]]] = {"PreToolUse": [{"matcher": "a\"b\\c\n\x7f", "hooks": [{"type": "command", "command": "x'y\t",
                                                                      "timeout": 5, "async": False}]}],
              "Stop": [{"hooks": [{"type": "command", "command": "z"}, {"type": "command", "command": "w"}]}],
              "odd event": [{"matcher": "", "hooks": [{"type": "command", "command": ""}]}]}
    assert tomllib.loads(tables(groups)) == {"hooks": groups}
