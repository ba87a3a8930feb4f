"""forge-hook install / --uninstall / doctor, through the installed forge-hook (issue 23.1,
DESIGN.md "Installing into agents"): on settings files that already hold the user's own
hooks, other keys and odd formatting (tabs, one line, CRLF, Gemini's comments, a TOML
config with comments), for every agent."""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any

import pytest

from helpers import Project, Run, run_installed
from forge_hookd.agents import codex_trust as codextrust
from forge_hookd.agents import jsonedit
from forge_hookd.agents.places import PLACES, handlers, project_command, runs_forge
from forge_hookd.dialects import NAMES, get

#: the agents with a settings file (Cline's hooks are executables: tests/dialects/test_dialect_cline.py)
FILE_AGENTS = tuple(n for n in NAMES if n != "cline")
#: forge-hook install finds each agent where it would without CLAUDE_CONFIG_DIR & co (conftest.py)
pytestmark = pytest.mark.usefixtures("agents_at_their_default_homes")


def forge_hook(project: Project, *args: str, env: dict[str, str] | None = None) -> Run:
    return run_installed(list(args), cwd=project.root, prog="forge-hook", env=env)


# The user's own settings, one per agent, each with hooks of theirs, other keys and a
# layout of its own.
USER_FILES = {
    "claude": (".claude/settings.json",
               '{\n\t"permissions": {"allow": ["Bash(npm test)"], "deny": []},\n\t"hooks": {\n'
               '\t\t"PreToolUse": [\n'
               '\t\t\t{"matcher": "Bash", "hooks": [{"type": "command", "command": "./scripts/guard.sh", '
               '"timeout": 5}]}\n'
               '\t\t],\n\t\t"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]\n\t},\n'
               '\t"model":"opus"\n}\n'),
    "codex": (".codex/hooks.json",
              '{\n    "hooks": {\n        "PreToolUse": [\n            {\n                "matcher": "^Bash$",\n'
              '                "hooks": [\n                    {"type": "command", "command": '
              '"python3 .codex/check.py", "statusMessage": "checking"}\n                ]\n            }\n'
              '        ]\n    }\n}\n'),
    "gemini": (".gemini/settings.json",
               '// Gemini reads comments here\n{\n  "ui": {"theme": "GitHub"}, /* mine */\n  "hooks": {\n'
               '    "BeforeTool": [\n      {"matcher": "write_file|replace", "hooks": [{"name": "lint", '
               '"type": "command", "command": "npx eslint --fix"}]} // lint on write\n    ]\n  }\n}\n'),
    "cursor": (".cursor/hooks.json",
               '{"version":1,"hooks":{"afterFileEdit":[{"command":"./hooks/format.sh"}],'
               '"beforeShellExecution":[{"command":"./hooks/audit.sh","failClosed":true}]}}'),
    "copilot": (".github/hooks/forge.json",
                '{\r\n    "version": 1,\r\n    "hooks": {\r\n        "preToolUse": [\r\n'
                '            {"type": "command", "bash": "./scripts/deny-rm.sh", "timeoutSec": 10}\r\n'
                '        ]\r\n    }\r\n}\r\n'),
    "windsurf": (".windsurf/hooks.json",
                 '{\n  "hooks": {\n    "post_write_code": [\n      {"command": "npx prettier --write", '
                 '"show_output": true}\n    ]\n  }\n}\n'),
    "qwen": (".qwen/settings.json",
             '{\n  // Qwen reads comments too\n  "model": {"name": "qwen3-coder"},\n  "hooks": {"PreToolUse": [\n'
             '    {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./guard.sh", '
             '"timeout": 5000}]}\n  ]}\n}\n'),
    "droid": (".factory/hooks.json",
              '{"hooks": {"PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", '
              '"command": "./audit.sh"}]}]}}'),
    "auggie": (".augment/settings.json",
               '{\n    "model": "sonnet",\n    "hooks": {\n        "Stop": [{"hooks": [{"type": "command", '
               '"command": "/opt/notify.sh", "timeout": 5000}]}]\n    }\n}\n'),
    "crush": ("crush.json",
              '{\n  "$schema": "https://charm.land/crush.json",\n  "hooks": {\n    "PreToolUse": [\n'
              '      {"matcher": "^bash$", "command": "./no-haskell.sh", "timeout": 10} // mine\n    ]\n  }\n}\n'),
    "continue": (".continue/settings.json",
                 '{"hooks":{"PostToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"npx prettier"}]}]}}'),
}
CODEX_CONFIG = ('# my codex settings\nmodel = "o3"   # fast\n[projects."{root}"]\ntrust_level = "trusted"\n\n'
                '[hooks.state."{root}/.codex/hooks.json:pre_tool_use:0:0"]\n'
                'trusted_hash = "sha256:0000"  # trusted in /hooks\n')


def user_file(project: Project, agent: str, text: str | None = None) -> tuple[Path, str]:
    relative, default = USER_FILES[agent]
    path = project.root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    content = default if text is None else text
    path.write_bytes(content.encode())
    if agent == "codex":
        codex_config(project).parent.mkdir(parents=True, exist_ok=True)
        codex_config(project).write_text(CODEX_CONFIG.replace("{root}", str(project.root)))
    return path, content


def codex_config(project: Project) -> Path:
    return project.home / ".codex" / "config.toml"


def parsed(agent: str, text: str) -> Any:
    return jsonedit.parse(text, comments=PLACES[agent].comments).value


def native_events(agent: str) -> list[str]:
    return list(get(agent).settings.snippet("forge-hook-run")["hooks"])


def forge_events(agent: str, doc: Any) -> set[str]:
    return {h.event for h in handlers(agent, doc) if runs_forge(h.command, agent)}


def is_subsequence(small: str, big: str) -> bool:
    """Whether ``big`` is ``small`` with characters inserted (none taken out or moved)."""
    rest = iter(big)
    return all(char in rest for char in small)


def records(project: Project) -> dict[str, Any]:
    path = project.home / ".local/state/forge/installs.json"
    return json.loads(path.read_text())["files"] if path.exists() else {}


def install(project: Project, agent: str, *more: str) -> Run:
    run = forge_hook(project, "install", "--agent", agent, "--project", *more)
    assert run.exit_status == 0, run.stderr
    assert "Traceback" not in run.stderr
    return run


# -- install ------------------------------------------------------------------------------------
@pytest.mark.parametrize("agent", FILE_AGENTS)
def test_install_puts_forge_after_the_users_own_hooks_on_every_event(project: Project, agent: str) -> None:
    path, before = user_file(project, agent)
    run = install(project, agent)
    after = path.read_bytes().decode()
    assert is_subsequence(before, after), "install took out or moved something of the user's"
    old, new = parsed(agent, before), parsed(agent, after)
    assert {k: v for k, v in new.items() if k not in old} in ({}, {"hooksConfig": {"enabled": True}})
    assert all(new[k] == v for k, v in old.items() if k != "hooks")
    for event, entries in old["hooks"].items():  # the user's, first, in their order
        assert new["hooks"][event][:len(entries)] == entries
    assert forge_events(agent, new) == set(native_events(agent))
    for comment in re.findall(r"//[^\n]*|/\*.*?\*/", before) if PLACES[agent].comments else []:
        assert comment in after
    assert f"{agent}: forge-hook-run runs on {', '.join(native_events(agent))} now, in {path}" in run.stdout


@pytest.mark.parametrize("agent", FILE_AGENTS)
def test_a_second_install_changes_nothing(project: Project, agent: str) -> None:
    path, _ = user_file(project, agent)
    install(project, agent)
    once, recorded = path.read_bytes(), records(project)
    config = codex_config(project).read_bytes() if agent == "codex" else b""
    run = install(project, agent)
    assert path.read_bytes() == once and records(project) == recorded
    assert (codex_config(project).read_bytes() if agent == "codex" else b"") == config
    assert "unchanged" in run.stdout


@pytest.mark.parametrize("agent", FILE_AGENTS)
def test_uninstall_gives_the_exact_bytes_back(project: Project, agent: str) -> None:
    path, before = user_file(project, agent)
    config = codex_config(project).read_text() if agent == "codex" else ""
    install(project, agent)
    run = forge_hook(project, "install", "--agent", agent, "--project", "--uninstall")
    assert run.exit_status == 0, run.stderr
    assert path.read_bytes() == before.encode()
    assert (codex_config(project).read_text() if agent == "codex" else "") == config
    assert records(project) == {}
    assert "is back as it was before forge-hook install" in run.stdout


@pytest.mark.parametrize("agent", FILE_AGENTS)
def test_uninstall_after_the_user_edited_takes_out_forge_only(project: Project, agent: str) -> None:
    path, before = user_file(project, agent)
    install(project, agent)
    text = path.read_bytes().decode()
    root = jsonedit.parse(text, comments=PLACES[agent].comments)
    event = native_events(agent)[0]
    hooks = root.get("hooks")
    assert hooks is not None and (entries := hooks.get(event)) is not None
    theirs = json.loads(json.dumps(entries.value[-1]).replace("forge-hook-run", "my-own-hook"))
    edits = jsonedit.append_children(text, entries, [theirs], unit="  ")  # after forge's entry
    text = jsonedit.apply(text, edits)
    text = jsonedit.apply(text, jsonedit.append_children(text, jsonedit.parse(text, comments=True), [("mine", True)],
                                                         unit="  "))
    path.write_bytes(text.encode())
    run = forge_hook(project, "install", "--agent", agent, "--project", "--uninstall")
    assert run.exit_status == 0, run.stderr
    doc = parsed(agent, path.read_text())
    assert forge_events(agent, doc) == set()
    assert doc["mine"] is True and theirs in doc["hooks"][event]
    old = parsed(agent, before)
    for name, listed in old["hooks"].items():
        assert doc["hooks"][name][:len(listed)] == listed
    assert {k: v for k, v in doc.items() if k not in ("mine", "hooks")} == \
        {k: v for k, v in old.items() if k != "hooks"}
    assert "changed since forge-hook install wrote it: took out forge's" in run.stderr
    assert records(project) == {}


@pytest.mark.parametrize("agent", FILE_AGENTS)
def test_a_file_that_does_not_parse_is_refused_and_left_as_it_is(project: Project, agent: str) -> None:
    _, text = USER_FILES[agent]
    broken = text.replace('"hooks"', '"hooks",', 1)
    path, _ = user_file(project, agent, broken)
    listing = sorted(os.listdir(path.parent))
    run = forge_hook(project, "install", "--agent", agent, "--project")
    assert run.exit_status == 2
    [line] = run.stderr.splitlines()
    assert line.startswith(f"forge-hook: error: {path}:") and "forge-hook changed nothing" in line, line
    assert path.read_bytes() == broken.encode()
    assert sorted(os.listdir(path.parent)) == listing  # no temporary left beside it
    assert records(project) == {}


@pytest.mark.parametrize("agent", FILE_AGENTS)
def test_a_symlinked_settings_file_is_written_through_its_link(project: Project, agent: str) -> None:
    path, before = user_file(project, agent)
    dotfiles = project.home / "dotfiles" / f"{agent}.json"
    dotfiles.parent.mkdir()
    path.rename(dotfiles)
    path.symlink_to(dotfiles)
    install(project, agent)
    assert path.is_symlink() and path.resolve() == dotfiles
    assert forge_events(agent, parsed(agent, dotfiles.read_text())) == set(native_events(agent))
    assert forge_hook(project, "install", "--agent", agent, "--project", "--uninstall").exit_status == 0
    assert path.is_symlink() and dotfiles.read_bytes() == before.encode()


@pytest.mark.parametrize("scope", ["project", "global"])
@pytest.mark.parametrize("agent", FILE_AGENTS)
def test_a_file_install_created_goes_with_uninstall(project: Project, agent: str, scope: str) -> None:
    run = forge_hook(project, "install", "--agent", agent, f"--{scope}")
    assert run.exit_status == 0, run.stderr
    relative = USER_FILES[agent][0]
    if scope == "project":
        path = project.root / relative
    else:
        path = Path(get(agent).settings.files[1].replace("~", str(project.home), 1))
    assert forge_events(agent, parsed(agent, path.read_text())) == set(native_events(agent))
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert "(created)" in run.stdout
    run = forge_hook(project, "install", "--agent", agent, f"--{scope}", "--uninstall")
    assert run.exit_status == 0, run.stderr
    assert not path.exists()
    left = sorted(str(p.relative_to(project.root)) for p in project.root.rglob("*"))
    assert left in ([], [".forge"]) if scope == "project" else not path.parent.exists()


@pytest.mark.parametrize("agent", FILE_AGENTS)
def test_uninstall_leaves_forge_entries_it_did_not_write(project: Project, agent: str) -> None:
    relative, _ = USER_FILES[agent]
    snippet = get(agent).settings.snippet(f"forge-hook-run --dialect {agent}")
    path, text = user_file(project, agent, json.dumps(snippet, indent=2) + "\n")  # pasted by hand
    run = forge_hook(project, "install", "--agent", agent, "--project", "--uninstall")
    assert run.exit_status == 0, run.stderr
    assert path.read_text() == text
    assert "nothing of forge-hook install's" in run.stdout and "left as they are" in run.stderr


def test_copilots_other_hook_files_are_not_touched(project: Project) -> None:
    theirs = project.root / ".github" / "hooks" / "security.json"
    theirs.parent.mkdir(parents=True)
    theirs.write_text('{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./s.sh"}]}}')
    before = theirs.read_bytes()
    install(project, "copilot")
    assert theirs.read_bytes() == before and (theirs.parent / "forge.json").exists()


def test_a_value_the_user_set_is_kept_and_said(project: Project) -> None:
    path, _ = user_file(project, "gemini", '{"hooksConfig": {"enabled": false}}')
    run = install(project, "gemini")
    assert parsed("gemini", path.read_text())["hooksConfig"] == {"enabled": False}
    assert "kept your hooksConfig.enabled = false" in run.stderr


# -- all ------------------------------------------------------------------------------------------
def stub_agents(tmp_path: Path, *names: str) -> str:
    """A PATH with a stub executable for each CLI name, and the system's basics."""
    bin_dir = tmp_path / "stub-bin"
    bin_dir.mkdir(exist_ok=True)
    for name in names:
        stub = bin_dir / name
        stub.write_text("#!/bin/sh\nexit 0\n")
        stub.chmod(0o755)
    return f"{bin_dir}:/usr/bin:/bin"


def test_all_means_every_agent_found_on_path_or_by_its_home(project: Project, tmp_path: Path) -> None:
    path = stub_agents(tmp_path, "claude", "copilot")
    (project.home / ".cursor").mkdir()
    run = forge_hook(project, "install", "--agent", "all", "--project", env={"PATH": path})
    assert run.exit_status == 0, run.stderr
    written = {a for a in FILE_AGENTS if (project.root / USER_FILES[a][0]).exists()}
    assert written == {"claude", "copilot", "cursor"}
    doctor = forge_hook(project, "doctor", "--json", env={"PATH": path})
    report = json.loads(doctor.stdout)
    assert {a["agent"] for a in report["agents"]} == {"claude", "copilot", "cursor"}, doctor.stdout
    assert all(a["wired"] == native_events(a["agent"]) for a in report["agents"])
    run = forge_hook(project, "install", "--agent", "all", "--project", "--uninstall", env={"PATH": path})
    assert run.exit_status == 0, run.stderr
    assert list(project.root.iterdir()) == []


def test_all_with_no_agent_here_says_so(project: Project, tmp_path: Path) -> None:
    run = forge_hook(project, "install", "--agent", "all", "--project", env={"PATH": stub_agents(tmp_path)})
    assert run.exit_status == 2 and "no agent found here" in run.stderr


def test_with_all_one_broken_file_does_not_stop_the_others(project: Project, tmp_path: Path) -> None:
    user_file(project, "claude", "{")
    run = forge_hook(project, "install", "--agent", "all", "--project",
                     env={"PATH": stub_agents(tmp_path, "claude", "gemini")})
    assert run.exit_status == 2
    assert "error: claude:" in run.stderr and "gemini: forge-hook-run runs on" in run.stdout


def test_every_agent_given_is_wired(project: Project, tmp_path: Path) -> None:
    """Issue 30 item 11: --agent claude --agent codex wired only codex, and exited 0."""
    run = forge_hook(project, "install", "--agent", "claude", "--agent", "codex", "--global")
    assert run.exit_status == 0, run.stderr
    claude, codex = project.home / ".claude/settings.json", project.home / ".codex/hooks.json"
    assert forge_events("claude", json.loads(claude.read_text())) == set(native_events("claude"))
    assert forge_events("codex", json.loads(codex.read_text())) == set(native_events("codex"))
    assert "claude: forge-hook-run runs on" in run.stdout and "codex: forge-hook-run runs on" in run.stdout
    status, agents = doctor(project, tmp_path, "claude", "codex", "forge-hook-run")
    assert status == 0, agents
    gone = forge_hook(project, "install", "--agent", "claude", "--agent", "codex", "--global", "--uninstall")
    assert gone.exit_status == 0 and not claude.exists() and not codex.exists(), gone.stderr


def test_the_native_client_by_its_path_counts_as_forge(project: Project, tmp_path: Path) -> None:
    """What install wrote when PATH did not find this install (install.sh's native
    client by its path) is forge-hook-run: doctor sees it wired, and install replaces it in
    place by today's command, which fails closed where it cannot start: no second entry,
    the entry's timeout and --agent-limit (none here) as they were."""
    native = tmp_path / "venv/bin/forge-hook-run-native"
    native.parent.mkdir(parents=True)
    native.write_text("#!/bin/sh\nexit 0\n")
    native.chmod(0o755)
    snippet = get("claude").settings.snippet(f"{native} --dialect claude")
    path, text = user_file(project, "claude", json.dumps(snippet))
    status, agents = doctor(project, tmp_path, "claude")
    assert status == 0 and agents["claude"]["wired"] == native_events("claude"), agents
    install(project, "claude")
    assert json.loads(path.read_text()) == get("claude").settings.snippet(project_command("claude"))
    assert forge_hook(project, "install", "--agent", "claude", "--project").stderr.count("replaced") == 0


def test_doctor_is_not_well_while_an_agent_install_named_has_no_forge(project: Project, tmp_path: Path) -> None:
    """An agent found here that an install named, with forge-hook-run in none of its
    settings (taken out by hand, or an install that never wired it), is a finding."""
    assert forge_hook(project, "install", "--agent", "claude", "--global").exit_status == 0
    settings = project.home / ".claude/settings.json"
    settings.write_text(json.dumps({"model": "opus"}))  # the user's own edit took forge out
    status, agents = doctor(project, tmp_path, "claude", "forge-hook-run")
    [finding] = agents["claude"]["findings"]
    assert status == 1 and "forge-hook install was asked to wire claude (--global)" in finding
    assert "claude is not guarded (forge-hook install --agent claude --global)" in finding
    text = forge_hook(project, "doctor", env={"PATH": stub_agents(tmp_path, "claude", "forge-hook-run")})
    assert text.exit_status == 1 and "all is well" not in text.stdout
    # A project install guards that project only: another project is not this one's finding.
    other = tmp_path / "other"
    other.mkdir()
    assert forge_hook(project, "install", "--agent", "gemini", "--project").exit_status == 0
    (project.root / ".gemini/settings.json").write_text("{}")
    assert doctor(project, tmp_path, "gemini")[0] == 1
    elsewhere = run_installed(["doctor", "--json"], cwd=other, prog="forge-hook",
                              env={"PATH": stub_agents(tmp_path, "gemini")})
    gemini = [a for a in json.loads(elsewhere.stdout)["agents"] if a["agent"] == "gemini"]
    assert gemini[0]["findings"] == [], elsewhere.stdout
    # Uninstall takes the name back: nothing is expected of claude any more.
    assert forge_hook(project, "install", "--agent", "claude", "--global", "--uninstall").exit_status == 0
    assert doctor(project, tmp_path, "claude", "forge-hook-run")[1]["claude"]["findings"] == []


# -- doctor ----------------------------------------------------------------------------------------
def doctor(project: Project, tmp_path: Path, *clis: str) -> tuple[int, dict[str, Any]]:
    run = forge_hook(project, "doctor", "--json", env={"PATH": stub_agents(tmp_path, *clis)})
    assert run.exit_status in (0, 1), run.stderr
    report = json.loads(run.stdout)
    assert report["findings"] == sum(len(a["findings"]) for a in report["agents"])
    return run.exit_status, {a["agent"]: a for a in report["agents"]}


@pytest.mark.parametrize("agent", FILE_AGENTS)
def test_doctor_all_well_after_install(project: Project, tmp_path: Path, agent: str) -> None:
    user_file(project, agent)
    install(project, agent)
    # the project's command finds forge-hook-run on the agent's PATH (here: doctor's)
    status, agents = doctor(project, tmp_path, *PLACES[agent].clis, "forge-hook-run")
    assert status == 0, agents
    assert agents[agent]["wired"] == native_events(agent) and agents[agent]["findings"] == []
    text = forge_hook(project, "doctor", env={"PATH": stub_agents(tmp_path, *PLACES[agent].clis, "forge-hook-run")})
    assert text.exit_status == 0 and text.stdout.endswith("all is well\n")


@pytest.mark.parametrize("agent", FILE_AGENTS)
def test_doctor_finds_the_users_hooks_that_would_run_twice(project: Project, tmp_path: Path, agent: str) -> None:
    path, text = user_file(project, agent)  # Gemini's with its comments, as Gemini reads it
    imported = forge_hook(project, "import", "--from", agent, "--project")
    assert imported.exit_status == 0, imported.stderr
    status, agents = doctor(project, tmp_path, *PLACES[agent].clis)
    assert status == 0, agents  # imported, but forge-hook-run is not wired in: each runs once
    install(project, agent)
    status, agents = doctor(project, tmp_path, *PLACES[agent].clis)
    twice = [f for f in agents[agent]["findings"] if f.startswith("runs twice")]
    assert status == 1 and twice, agents
    commands = {h.command for h in handlers(agent, parsed(agent, text))}
    assert all(any(repr(c) in f for c in commands) and "project[" in f and str(path) in f for f in twice)


def test_import_reads_the_file_where_the_agent_reads_it(project: Project, tmp_path: Path) -> None:
    moved = tmp_path / "gemini-home"
    settings = moved / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(USER_FILES["gemini"][1])
    run = forge_hook(project, "import", "--from", "gemini", "--global", env={"GEMINI_CLI_HOME": str(moved)})
    assert run.exit_status == 0, run.stderr
    hooks = json.loads(project.global_file.read_text())["hooks"]
    assert [(h["command"], h["format"]) for h in hooks] == [("npx eslint --fix", "gemini")]


def test_doctor_finds_forge_wired_in_both_files(project: Project, tmp_path: Path) -> None:
    install(project, "claude")
    assert forge_hook(project, "install", "--agent", "claude", "--global").exit_status == 0
    status, agents = doctor(project, tmp_path, "claude")
    assert status == 1 and any("runs 2 times on claude's PreToolUse" in f for f in agents["claude"]["findings"])


def readers(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["program"]: r for r in report["also_read_by"]}


def test_doctor_names_every_other_program_that_reads_the_file_forge_wrote(project: Project, tmp_path: Path) -> None:
    """VS Code's agent, the Copilot app, Copilot CLI and Continue's cn read Claude's
    project settings: forge-hook-run there runs on their events too. Said (also_read_by,
    a line), not a finding: forge runs once on each of their events."""
    install(project, "claude")
    claude_file = str(project.root / ".claude/settings.json")
    status, agents = doctor(project, tmp_path, "claude", "forge-hook-run")
    assert status == 0 and agents["claude"]["findings"] == [], agents["claude"]
    by = readers(agents["claude"])
    assert set(by) == {"VS Code's agent", "the Copilot app", "Copilot CLI", "Continue's cn"}
    assert all(r["forge"] == [claude_file] for r in by.values()), by
    assert by["Copilot CLI"]["agent"] == "copilot" and by["VS Code's agent"]["agent"] is None
    assert "matchers" in by["VS Code's agent"]["note"]
    text = forge_hook(project, "doctor", env={"PATH": stub_agents(tmp_path, "claude", "forge-hook-run")})
    assert text.exit_status == 0 and text.stdout.endswith("all is well\n"), text.stdout
    assert f"also read by Copilot CLI: {claude_file}: forge-hook-run there runs on its events too" in text.stdout
    assert f"also read by VS Code's agent: {claude_file}" in text.stdout and "ignores matchers" in text.stdout
    # Claude's user file is read by VS Code's agent, the Copilot app and cn, not by Copilot CLI
    assert forge_hook(project, "install", "--agent", "claude", "--project", "--uninstall").exit_status == 0
    assert forge_hook(project, "install", "--agent", "claude", "--global").exit_status == 0
    by = readers(doctor(project, tmp_path, "claude", "forge-hook-run")[1]["claude"])
    assert "Copilot CLI" not in by and by["Continue's cn"]["forge"] == [str(project.home / ".claude/settings.json")]


def test_doctor_finds_forge_running_twice_where_copilot_cli_reads_claudes_file(project: Project,
                                                                              tmp_path: Path) -> None:
    """Copilot CLI wired by forge and Claude's project file wired by forge: Copilot CLI
    reads both, so forge runs twice on each of its events; VS Code's agent reads both
    too. A finding (exit 1), in text and --json."""
    install(project, "claude")
    install(project, "copilot")
    status, agents = doctor(project, tmp_path, "claude", "copilot", "forge-hook-run")
    claude_file, copilot_file = project.root / ".claude/settings.json", project.root / ".github/hooks/forge.json"
    twice = [f for f in agents["copilot"]["findings"] if "runs 2 times on Copilot CLI's preToolUse" in f]
    assert status == 1 and len(twice) == 1, agents["copilot"]["findings"]
    assert str(claude_file) in twice[0] and str(copilot_file) in twice[0]
    vscode = [f for f in agents["claude"]["findings"] if "on VS Code's agent's PreToolUse" in f]
    assert len(vscode) == 1 and str(copilot_file) in vscode[0], agents["claude"]["findings"]
    assert readers(agents["copilot"])["VS Code's agent"]["forge"] == [str(copilot_file)]
    text = forge_hook(project, "doctor", env={"PATH": stub_agents(tmp_path, "claude", "copilot", "forge-hook-run")})
    assert text.exit_status == 1 and "finding: forge-hook-run runs 2 times on Copilot CLI's" in text.stdout
    # Claude's user file instead: Copilot CLI reads it not, VS Code's agent does
    assert forge_hook(project, "install", "--agent", "claude", "--project", "--uninstall").exit_status == 0
    assert forge_hook(project, "install", "--agent", "claude", "--global").exit_status == 0
    status, agents = doctor(project, tmp_path, "claude", "copilot", "forge-hook-run")
    assert not any("Copilot CLI" in f for a in agents.values() for f in a["findings"]), agents
    assert any("on VS Code's agent's PreToolUse" in f for f in agents["claude"]["findings"]), agents["claude"]


def test_doctor_finds_events_left_out(project: Project, tmp_path: Path) -> None:
    user_file(project, "claude", json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "*", "hooks": [{"type": "command", "command": "forge-hook-run --dialect claude"}]}]}}))
    status, agents = doctor(project, tmp_path, "claude", "forge-hook-run")
    [finding] = agents["claude"]["findings"]
    assert status == 1 and agents["claude"]["wired"] == ["PreToolUse"]
    assert "but not on PostToolUse" in finding and "forge-hook install --agent claude --project adds them" in finding


@pytest.mark.parametrize("agent, settings, expected", [
    ("claude", {"disableAllHooks": True}, "disableAllHooks: true"),
    ("gemini", {"hooksConfig": {"enabled": False}}, "hooksConfig.enabled: false"),
])
def test_doctor_finds_the_agents_own_off_switch(project: Project, tmp_path: Path, agent: str,
                                                settings: dict[str, Any], expected: str) -> None:
    user_file(project, agent, json.dumps(settings))
    install(project, agent)
    status, agents = doctor(project, tmp_path, agent)
    assert status == 1 and any(expected in f for f in agents[agent]["findings"]), agents


@pytest.mark.parametrize("command, expected", [
    ("forge-hook-run --dialect copilot", "needs forge-hook-run --dialect copilot:preToolUse"),
    ("forge-hook-run --dialect claude:preToolUse", "the payloads there are copilot's"),
    ("/nowhere/forge-hook-run --dialect copilot:preToolUse", "names /nowhere/forge-hook-run, which is not there"),
])
def test_doctor_finds_hook_commands_that_cannot_work(project: Project, tmp_path: Path, command: str,
                                                     expected: str) -> None:
    user_file(project, "copilot", json.dumps({"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": command}]}}))
    status, agents = doctor(project, tmp_path, "copilot", "forge-hook-run")
    assert status == 1 and any(expected in f for f in agents["copilot"]["findings"]), agents


def test_doctor_finds_codex_hooks_it_does_not_trust(project: Project, tmp_path: Path) -> None:
    snippet = get("codex").settings.snippet("forge-hook-run --dialect codex")
    user_file(project, "codex", json.dumps(snippet))  # pasted by hand: Codex trusts none of it
    codex_config(project).write_text(f'[projects."{project.root}"]\ntrust_level = "trusted"\n')
    status, agents = doctor(project, tmp_path, "codex", "forge-hook-run")
    untrusted = [f for f in agents["codex"]["findings"] if "is not trusted in Codex yet" in f]
    assert status == 1 and len(untrusted) == len(native_events("codex")), agents
    install(project, "codex")  # the entries are there already: install records Codex's trust
    status, agents = doctor(project, tmp_path, "codex", "forge-hook-run")
    assert status == 0, agents


@pytest.mark.parametrize("command", [
    "forge-hook-run --dialect claude --no-global --no-project",
    "forge-hook-run --dialect claude --no-global",
    "FORGE_SKIP=no-rm forge-hook-run --dialect claude",
    "FORGE_TRUST_PROJECT=1 forge-hook-run --dialect claude",
    "env FORGE_CONFIG_DIR=/tmp/elsewhere forge-hook-run --dialect claude",
    "forge-hook-run --dialect claude --trust-project",
])
def test_a_forge_entry_that_turns_guards_off_is_a_finding_and_install_goes_beside_it(
        project: Project, tmp_path: Path, command: str) -> None:
    """Issue 30 item 5a: a clone ships .claude/settings.json whose forge-hook-run cannot
    guard; install kept it ("already ran ... left as it was") and doctor said all is well."""
    shipped = {"matcher": "*", "hooks": [{"type": "command", "command": command}]}
    path, _ = user_file(project, "claude", json.dumps({"hooks": {"PreToolUse": [shipped]}}))
    status, agents = doctor(project, tmp_path, "claude", "forge-hook-run")
    off = [f for f in agents["claude"]["findings"]
           if f"PreToolUse's forge-hook-run command {command!r} turns guards off" in f]
    assert status == 1 and len(off) == 1 and off[0].startswith(f"{path}: "), agents
    assert agents["claude"]["wired"] == []
    run = install(project, "claude")
    assert "left as it was" not in run.stderr
    assert "PreToolUse: the forge-hook-run entry there turns guards off" in run.stderr
    entries = json.loads(path.read_text())["hooks"]["PreToolUse"]
    assert entries[0] == shipped and len(entries) == 2  # the shipped one stays; forge's own is beside it
    assert forge_events("claude", json.loads(path.read_text())) == set(native_events("claude"))
    status, agents = doctor(project, tmp_path, "claude", "forge-hook-run")
    assert status == 1 and agents["claude"]["wired"] == native_events("claude")
    assert [f for f in agents["claude"]["findings"] if "turns guards off" in f] == off
    assert not any("runs 2 times" in f for f in agents["claude"]["findings"])


@pytest.mark.parametrize("agent, relative, text, expected", [
    ("claude", ".claude/settings.json", json.dumps({"env": {"FORGE_TRUST_PROJECT": "1", "EDITOR": "vi"}}),
     "sets, in env, for every hook Claude Code runs here: FORGE_TRUST_PROJECT='1' (trusts every project's hooks"),
    ("claude", ".claude/settings.local.json", json.dumps({"env": {"XDG_DATA_HOME": "./.data"}}),
     "XDG_DATA_HOME='./.data' (moves forge's trust records, so a project can bring its own)"),
    ("claude", ".claude/settings.json", json.dumps({"disableAllHooks": True}), "disableAllHooks: true"),
    ("gemini", ".env", "# mine\nexport FORGE_SKIP='no-rm'\nFORGE_LOG=0\n",
     "sets, for every hook Gemini runs here: FORGE_SKIP='no-rm' (keeps the hooks it names from running"),
    ("gemini", ".gemini/.env", "FORGE_CONFIG_DIR=/tmp/x\n", "FORGE_CONFIG_DIR='/tmp/x' (replaces your global hooks"),
    ("codex", ".codex/config.toml", "[features]\nhooks = false\n",
     "says [features] hooks = false: Codex runs no hook in this project"),
])
def test_a_projects_own_settings_that_steer_forge_are_a_finding(project: Project, tmp_path: Path, agent: str,
                                                                relative: str, text: str, expected: str) -> None:
    """Issue 30 item 5c: a clone switches forge off without touching its command."""
    status, agents = doctor(project, tmp_path, agent)
    assert status == 0, agents
    path = project.root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    status, agents = doctor(project, tmp_path, agent)
    said = [f for f in agents[agent]["findings"] if expected in f]
    assert status == 1 and said and str(path) in said[0], agents
    assert not any("EDITOR" in f for f in agents[agent]["findings"])


def test_doctor_with_no_agent_here(project: Project, tmp_path: Path) -> None:
    run = forge_hook(project, "doctor", env={"PATH": stub_agents(tmp_path)})
    assert run.exit_status == 0 and run.stdout.startswith("no agent found here")


# -- Codex's config.toml ---------------------------------------------------------------------------
def test_codex_trust_is_appended_and_nothing_else_changes(project: Project) -> None:
    path, _ = user_file(project, "codex")
    before = codex_config(project).read_text()
    run = install(project, "codex")
    after = codex_config(project).read_text()
    assert after.startswith(before) and "recorded Codex's trust for forge-hook-run's 12 hooks" in run.stderr
    old, new = tomllib.loads(before), tomllib.loads(after)
    forge = [h for h in handlers("codex", json.loads(path.read_text())) if runs_forge(h.command, "codex")]
    assert {h.group for h in forge if h.event == "PreToolUse"} == {1}  # after the user's group 0
    expected = {codextrust.hook_key(str(path), h): {"trusted_hash": codextrust.hook_hash(h)} for h in forge}
    assert new["hooks"]["state"] == {**old["hooks"]["state"], **expected}
    assert {k: v for k, v in new.items() if k != "hooks"} == {k: v for k, v in old.items() if k != "hooks"}


@pytest.mark.parametrize("config, said", [
    ('model = "o3\n', "does not parse"),
    ('hooks = { state = {} }\n', "without changing what else it says"),
])
def test_codex_config_forge_cannot_add_to_is_left_alone(project: Project, config: str, said: str) -> None:
    path, _ = user_file(project, "codex")
    codex_config(project).write_text(config)
    run = install(project, "codex")
    assert codex_config(project).read_text() == config
    assert said in run.stderr and "trust forge-hook-run in codex's /hooks" in run.stderr
    assert forge_events("codex", json.loads(path.read_text())) == set(native_events("codex"))


def test_codex_state_of_the_users_own_is_left_alone(project: Project) -> None:
    path, _ = user_file(project, "codex")
    key = f"{path}:pre_tool_use:1:0"  # where forge's PreToolUse entry goes
    with codex_config(project).open("a") as config:
        config.write(f'\n[hooks.state."{key}"]\nenabled = false\n')
    run = install(project, "codex")
    state = tomllib.loads(codex_config(project).read_text())["hooks"]["state"]
    assert state[key] == {"enabled": False}
    assert f"Codex already holds a state of its own for {key}" in run.stderr


def test_codex_trust_comes_out_of_an_edited_config(project: Project) -> None:
    user_file(project, "codex")
    before = codex_config(project).read_text()
    install(project, "codex")
    with codex_config(project).open("a") as config:
        config.write('\n[tui]\nnotifications = true\n')
    run = forge_hook(project, "install", "--agent", "codex", "--project", "--uninstall")
    assert run.exit_status == 0, run.stderr
    assert tomllib.loads(codex_config(project).read_text()) == \
        {**tomllib.loads(before), "tui": {"notifications": True}}


def test_codex_project_trust_is_said_not_given(project: Project) -> None:
    user_file(project, "codex")
    codex_config(project).write_text("# nothing trusted\n")
    run = install(project, "codex")
    assert "Codex reads" in run.stderr and "only in a project it trusts" in run.stderr
    assert "projects" not in tomllib.loads(codex_config(project).read_text())


def test_install_uninstall_and_doctor_agree_on_the_project_from_a_subdirectory(project: Project,
                                                                              tmp_path: Path) -> None:
    (project.root / ".git").mkdir()
    below = project.root / "src" / "deep"
    below.mkdir(parents=True)
    run = run_installed(["install", "--agent", "claude", "--project"], cwd=below, prog="forge-hook")
    assert run.exit_status == 0 and (project.root / ".claude" / "settings.json").exists(), run.stderr
    report = run_installed(["doctor", "--json"], cwd=below, prog="forge-hook",
                           env={"PATH": stub_agents(tmp_path, "claude")})
    assert json.loads(report.stdout)["agents"][0]["wired"] == native_events("claude")
    run = run_installed(["install", "--agent", "claude", "--project", "--uninstall"], cwd=below, prog="forge-hook")
    assert run.exit_status == 0 and not (project.root / ".claude").exists(), run.stderr


def test_an_entry_of_forges_the_user_changed_is_theirs_now(project: Project) -> None:
    path, _ = user_file(project, "claude")
    install(project, "claude")
    text = path.read_text()
    changed = text.replace('{"matcher": "*", "hooks": [{"type": "command", "command": ',
                           '{"matcher": "Bash", "hooks": [{"type": "command", "command": ', 1)
    assert changed != text
    path.write_text(changed)
    run = forge_hook(project, "install", "--agent", "claude", "--project", "--uninstall")
    assert run.exit_status == 0, run.stderr
    doc = parsed("claude", path.read_text())
    assert forge_events("claude", doc) == {"PreToolUse"}  # the changed one stays
    assert "1 of forge's entries were not there as install wrote them" in run.stderr
