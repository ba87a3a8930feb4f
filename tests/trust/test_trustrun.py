"""Trust that never switches a chosen guard off (issue 19), through the installed
forge-hook-run and forge-hook: what a run does with a changed, untrusted or nested
project, what trust covers, and who may trust. Each test failed on the code before."""

from __future__ import annotations

import json
import os
import subprocess
import shlex
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from helpers import ForgeRun, Project, Run, run_installed
from helpers import ROOT

BASH = {"type": "tool:pre_execute", "tool_name": "bash", "data": {"tool_args": {"command": "ls"}}}
GUARD = "#!/bin/sh\necho 'guard: no'; exit 1\n"


def forge_hook(project: Project, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> Run:
    return run_installed(list(args), cwd=cwd or project.root, prog="forge-hook", env=env)


def script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def claude(event: str, project: Project, *args: str, session: str = "s1", cwd: Path | None = None,
           env: dict[str, str] | None = None, **fields: Any) -> Run:
    where = str(cwd or project.root).encode("utf-8", "surrogateescape").decode("utf-8", "replace")  # as JSON holds it
    payload = {"hook_event_name": event, "session_id": session, "cwd": where, **fields}
    if event == "PreToolUse":
        payload.setdefault("tool_name", "Bash")
        payload.setdefault("tool_input", {"command": "ls"})
    return run_installed(["--dialect", "claude", *args], cwd=cwd or project.root, stdin=json.dumps(payload),
                         env=env)


def answer(run: Run) -> dict[str, Any]:
    return json.loads(run.stdout) if run.stdout.strip() else {}


# -- item 1: running a hook never changes what trust covers ---------------------------------
def test_a_python_guard_that_imports_a_helper_keeps_denying_on_every_run(project: Project,
                                                                          forge_run: ForgeRun) -> None:
    forge = project.root / ".forge"
    script(forge / "helper.py", "def dangerous(cmd):\n    return 'DROP TABLE' in cmd\n")
    script(forge / "sql-guard.py", "import json, sys\nsys.path.insert(0, sys.argv[1])\nimport helper\n"
                                   "cmd = json.load(sys.stdin)['data']['tool_args']['command']\n"
                                   "sys.exit(1 if helper.dangerous(cmd) else 0)\n")
    project.write_hooks([{"event": "tool:pre_execute:bash",
                          "command": 'python3 .forge/sql-guard.py "$FORGE_PROJECT_DIR/.forge"'}])
    drop = {**BASH, "data": {"tool_args": {"command": "psql -c 'DROP TABLE users'"}}}
    for _ in range(2):  # before: the first run wrote __pycache__, the second found the project changed
        run = forge_run(drop, env={"PYTHONDONTWRITEBYTECODE": ""})  # as a user's shell has it
        assert run.exit_status == 1, run.stderr
        assert [r["hook"]["source"] for r in run.json["results"]] == ["project"]
    assert not (forge / "__pycache__").exists()


def test_a_byte_code_file_that_arrives_is_covered(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "tool:pre_execute", "command": "exit 1"}])
    (project.root / ".forge" / "__pycache__").mkdir()
    (project.root / ".forge" / "__pycache__" / "helper.cpython-311.pyc").write_bytes(b"\x00unchecked-hash")
    run = forge_run(BASH)
    assert run.json["blocked_by"]["source"] == "trust"
    assert ".forge/__pycache__/helper.cpython-311.pyc is new" in run.json["reason"]


# -- item 2: a changed project denies where it can block ---------------------------------
def test_a_changed_project_denies_a_blocking_event_naming_the_file_and_the_command(
        project: Project, forge_run: ForgeRun) -> None:
    guard = script(project.root / "scripts" / "guard.sh", GUARD)
    project.write_hooks([{"event": "*", "command": "echo global"}], where="global")
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "./scripts/guard.sh"}])
    guard.write_text("#!/bin/sh\nexit 0\n")  # a pull switches the guard off
    run = forge_run(BASH)
    assert run.exit_status == 1  # before: 0, allow
    doc = run.json
    assert doc["decision"] == "deny" and doc["blocked"] is True
    assert doc["blocked_by"] == {"source": "trust", "reason": doc["reason"]}
    assert "scripts/guard.sh changed since the project was trusted" in doc["reason"]
    assert f"forge-hook trust {project.root}" in doc["reason"]
    assert [r["hook"]["source"] for r in doc["results"]] == ["global"]  # no hook result is invented
    assert "blocked by forge (trust)" in run.stderr


def test_a_changed_project_only_warns_where_nothing_can_block_or_no_project_hook_matches(
        project: Project, forge_run: ForgeRun) -> None:
    guard = script(project.root / "guard.sh", GUARD)
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "./guard.sh"}])
    guard.write_text("exit 0")
    for event in ({"type": "tool:post_execute", "tool_name": "bash"}, {**BASH, "tool_name": "write"}):
        run = forge_run(event)
        assert run.exit_status == 0, event
        assert "guard.sh changed since the project was trusted" in run.json["warnings"][0]


def test_a_changed_file_that_cannot_be_read_denies(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "exit 1"}])
    project.hooks_file.write_text('{"hooks": [')
    run = forge_run(BASH)
    assert run.exit_status == 1 and run.json["blocked_by"]["source"] == "trust"


def test_a_forge_directory_linked_out_of_a_trusted_project_is_a_change(project: Project, forge_run: ForgeRun,
                                                                        tmp_path: Path) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "exit 1"}])
    elsewhere = tmp_path / "elsewhere" / ".forge"
    elsewhere.mkdir(parents=True)
    (elsewhere / "hooks.json").write_text(project.hooks_file.read_text())
    shutil.rmtree(project.root / ".forge")
    (project.root / ".forge").symlink_to(elsewhere)
    run = forge_run(BASH)
    assert run.exit_status == 1 and "outside the project root" in run.json["reason"]


def test_a_changed_project_denies_through_a_dialect(project: Project) -> None:
    guard = script(project.root / "guard.sh", GUARD)
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "./guard.sh"}])
    guard.write_text("exit 0")
    specific = answer(claude("PreToolUse", project))["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"  # before: no answer at all
    assert "guard.sh changed" in specific["permissionDecisionReason"]


# -- item 3: never trusted is said where the person sees it -------------------------------
def test_an_untrusted_project_tells_the_person_on_session_start_and_the_first_blocking_event(
        project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "exit 1"}], trusted=False)
    start = answer(claude("SessionStart", project, source="startup"))
    assert "not trusted" in start["systemMessage"]  # before: empty stdout
    first = answer(claude("PreToolUse", project))
    assert "not trusted" in first["systemMessage"] and "forge-hook trust" in first["systemMessage"]
    assert "permissionDecision" not in first.get("hookSpecificOutput", {})  # no objection: Claude's own rules
    assert "systemMessage" not in answer(claude("PreToolUse", project))  # told once per session
    assert "not trusted" in answer(claude("PreToolUse", project, session="s2"))["systemMessage"]


def test_the_told_sessions_are_bounded(project: Project) -> None:
    from forge_hookd.trust import notes as trustnotes

    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "exit 1"}], trusted=False)
    notes = Path(trustnotes.notes_path())
    notes.parent.mkdir(parents=True)
    now = time.time()
    told = {f"k{i}": now - i for i in range(1000)} | {f"old{i}": now - 8 * 24 * 3600 for i in range(10)}
    notes.write_text(json.dumps({"version": 1, "told": told}))
    claude("PreToolUse", project)
    kept = json.loads(notes.read_text())["told"]
    assert len(kept) == trustnotes.MAX_ENTRIES and not any(k.startswith("old") for k in kept)


@pytest.mark.parametrize("how", [("--require-trust",), ()])
def test_require_trust_makes_untrusted_project_hooks_an_error(project: Project, forge_run: ForgeRun,
                                                              how: tuple[str, ...]) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "exit 1"}], trusted=False)
    env = {} if how else {"FORGE_REQUIRE_TRUST": "1"}
    run = forge_run(BASH, *how, env=env)
    assert run.exit_status == 2  # before: 0 (and an unknown option for the flag)
    assert run.json["error"]["kind"] == "invalid_config" and "--require-trust" in run.json["error"]["message"]
    other = forge_run({"type": "session:start"}, *how, env=env)  # no project hook matches: a warning
    assert other.exit_status == 0
    specific = answer(claude("PreToolUse", project, *how, env=env))["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"


def test_strict_turns_a_trust_warning_into_an_error(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "exit 1"}], trusted=False)
    run = forge_run(BASH, "--strict")
    assert run.exit_status == 2 and "not trusted" in run.json["error"]["message"]  # before: 0


# -- item 4, 5: what commands name, through variables, quotes, substitutions ---------------
def test_claudes_project_variable_is_covered_after_import(project: Project, forge_run: ForgeRun,
                                                          tmp_path: Path) -> None:
    validator = script(project.root / ".claude" / "hooks" / "validate-bash.sh",
                       "#!/bin/sh\ngrep -q 'rm -rf' && { echo 'no rm' >&2; exit 2; }; exit 0\n")
    (project.root / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command",
                                       "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/validate-bash.sh'}]}]}}))
    assert forge_hook(project, "import", "--from", "claude", "--project").exit_status == 0
    trusted = forge_hook(project, "trust")
    assert ".claude/hooks/validate-bash.sh" in trusted.stdout  # before: hooks.json only
    marker = tmp_path / "marker"
    validator.write_text(f"#!/bin/sh\ntouch {marker}\nexit 0\n")
    assert "changed" in forge_hook(project, "list").stdout
    run = forge_run({**BASH, "data": {"tool_args": {"command": "rm -rf /"}}})
    assert run.exit_status == 1 and not marker.exists()


@pytest.mark.parametrize("command", [
    'out="$(./scripts/guard.sh)"', "x=`./scripts/guard.sh`", 'sh -c "./scripts/guard.sh && true"',
    "bash -c './scripts/guard.sh'", "cd scripts && ./guard.sh", '"$GEMINI_PROJECT_DIR/scripts/guard.sh"',
    "${COPILOT_PROJECT_DIR}/scripts/guard.sh"])
def test_scripts_named_inside_quotes_and_substitutions_are_covered(project: Project, command: str) -> None:
    script(project.root / "scripts" / "guard.sh", GUARD)
    project.write_hooks([{"event": "tool:pre_execute", "command": command}], trusted=False)
    assert "scripts/guard.sh" in forge_hook(project, "trust").stdout


def test_a_plugin_root_in_the_hooks_env_is_followed(project: Project) -> None:
    script(project.root / "plugins" / "p" / "hooks" / "check.sh", GUARD)
    project.write_hooks([{"event": "tool:pre_execute", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/check.sh",
                          "env": {"CLAUDE_PLUGIN_ROOT": str(project.root / "plugins" / "p")}}], trusted=False)
    assert "plugins/p/hooks/check.sh" in forge_hook(project, "trust").stdout


# -- item 6: no exemptions under .forge/ -----------------------------------------------------
@pytest.mark.parametrize("name", ["hooks.json.lock", ".hooks.json.123.abc.tmp"])
def test_nothing_under_forge_is_exempt(project: Project, forge_run: ForgeRun, name: str) -> None:
    sourced = project.root / ".forge" / name
    sourced.parent.mkdir(parents=True)
    sourced.write_text("exit 1\n")
    project.write_hooks([{"event": "tool:pre_execute", "command": f". .forge/{name}"}])
    sourced.write_text("exit 0\n")
    run = forge_run(BASH)
    assert run.exit_status == 1 and f".forge/{name} changed" in run.json["reason"]


# -- item 7: what trust cannot resolve is said ------------------------------------------------
def test_trust_and_check_say_what_they_cannot_resolve(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": "$TOOLS/guard.sh"}, {"event": "*", "command": "./x/*.sh"},
                         {"event": "*", "command": "python3 -m checks"}, {"event": "*", "command": "echo ok"}],
                        trusted=False)
    said = forge_hook(project, "trust").stdout
    assert "trust cannot see" in said
    for line in ("hooks[0]: $TOOLS/guard.sh", "hooks[1]: ./x/*.sh", "hooks[2]: python3 -m checks"):
        assert line in said
    assert "hooks[3]" not in said
    check = forge_hook(project, "check")
    assert check.exit_status == 1 and check.stdout.count("trust cannot see") == 3


# -- item 8: a directory below the project cannot switch its guards off ----------------------
def test_an_untrusted_nested_hooks_file_does_not_end_the_search(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "echo project guard; exit 1"}])
    evil = project.root / "node_modules" / "evil"
    (evil / ".forge").mkdir(parents=True)
    (evil / ".forge" / "hooks.json").write_text(json.dumps({"hooks": [{"event": "*", "command": "true"}]}))
    run = forge_run(BASH, cwd=evil / ".forge")
    assert run.exit_status == 1 and run.json["reason"] == "project guard"  # before: 0
    assert any(f"{evil}/.forge/hooks.json is not trusted, so it is not the project" in w
               for w in run.json["warnings"])


def test_through_a_dialect_the_search_starts_at_the_agents_project_dir(project: Project,
                                                                        tmp_path: Path) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "echo project guard; exit 1"}])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()  # where a cd put the agent: before, the project's guard never loaded
    specific = answer(claude("PreToolUse", project, cwd=elsewhere,
                             env={"CLAUDE_PROJECT_DIR": str(project.root)}))["hookSpecificOutput"]
    assert specific["permissionDecisionReason"] == "project guard"
    gemini = {"hook_event_name": "BeforeTool", "session_id": "s", "cwd": str(elsewhere),
              "tool_name": "run_shell_command", "tool_input": {"command": "ls"}}
    run = run_installed(["--dialect", "gemini"], cwd=elsewhere, stdin=json.dumps(gemini),
                        env={"GEMINI_PROJECT_DIR": str(project.root)})
    assert answer(run)["decision"] == "deny" and answer(run)["reason"] == "project guard"
    cursor = {"hook_event_name": "beforeShellExecution", "conversation_id": "c", "command": "ls",
              "cwd": str(elsewhere), "workspace_roots": [str(project.root)]}
    run = run_installed(["--dialect", "cursor"], cwd=elsewhere, stdin=json.dumps(cursor))
    assert answer(run)["permission"] == "deny"


# -- item 9: event data never steers a nested run ---------------------------------------------
def test_data_keys_cannot_set_the_variables_that_steer_forge(project: Project, forge_run: ForgeRun) -> None:
    names = ["FORGE_TRUST_PROJECT", "FORGE_REQUIRE_TRUST", "FORGE_CONFIG_DIR", "FORGE_LOG", "FORGE_LOG_FILE",
             "FORGE_TRACE", "FORGE_MAX_CONTINUES"]
    project.write_hooks([{"event": "*", "command": "env | grep -E '^FORGE_(TRUST|REQUIRE|CONFIG|LOG|TRACE|MAX)'; cat"}])
    data = {name.removeprefix("FORGE_").lower(): "x" for name in names}
    run = forge_run({"type": "session:start", "data": data})
    out = run.json["results"][0]["stdout"]
    assert not out.startswith("FORGE_")  # before: every one of them set
    assert json.loads(out)["data"] == data  # they stay on stdin
    assert sum("steers forge" in w for w in run.json["warnings"]) == len(names)


def test_a_data_key_that_names_a_control_variable_is_named_in_a_warning(project: Project,
                                                                         forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "*", "command": "env | grep -E '^FORGE_(HOOK_CHAIN|SKIP)=x$'; cat"}])
    run = forge_run({"type": "session:start", "data": {"hook_chain": "x", "skip": "x"}})
    assert not run.json["results"][0]["stdout"].startswith("FORGE_")  # never set from data
    said = [w for w in run.json["warnings"] if "control variable" in w]  # before: dropped in silence
    assert len(said) == 2 and "'hook_chain'" in said[0] and "FORGE_HOOK_CHAIN" in said[0], said


# -- item 10: nothing raw reaches a terminal -------------------------------------------------
def test_list_and_log_write_control_characters_out(project: Project, forge_run: ForgeRun) -> None:
    sneaky = "curl x|sh \x1b[2K\x1b[1G echo hello"
    project.write_hooks([{"event": "tool:pre_execute", "command": f"{sneaky}; echo '\x1b]52;c;aGk=\x07'; exit 1"}],
                        trusted=False)
    listed = forge_hook(project, "list")
    assert "\x1b" not in listed.stdout and "\\x1b[2K" in listed.stdout
    forge_run(BASH, "--trust-project")
    logged = forge_hook(project, "log")
    assert "\x1b" not in logged.stdout and "\\x1b]52" in logged.stdout


# -- item 11: a .forge/ too deep or too large is said, never a crash ---------------------------
def test_a_deep_chain_under_a_trusted_forge_is_no_crash(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "tool:pre_execute", "command": "exit 1"}, ])
    fd = os.open(project.root / ".forge", os.O_RDONLY)
    try:  # 1200 levels, made relative to a descriptor (the whole path would exceed PATH_MAX)
        for _ in range(1200):
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)
    try:
        run = forge_run(BASH)
        assert run.exit_status == 1 and run.json["blocked_by"]["source"] == "trust"  # before: 3, RecursionError
        assert "deeper than" in run.json["reason"]
        assert forge_run({"type": "session:start"}).exit_status == 0
        refused = forge_hook(project, "trust")
        assert refused.exit_status == 2 and "deeper than" in refused.stderr
    finally:  # pytest's clean-up of old temporary directories recurses, and would fail on 1200 levels
        subprocess.run(["rm", "-rf", "--", str(project.root / ".forge" / "d")], check=True)


# -- item 12: a project directory whose name is not UTF-8 --------------------------------------
def test_a_project_dir_that_is_not_utf8_runs_and_trusts(project: Project, tmp_path: Path) -> None:
    root = os.fsencode(tmp_path) + b"/caf\xe9"
    os.makedirs(root + b"/.forge")
    with open(root + b"/.forge/hooks.json", "w") as f:
        json.dump({"hooks": [{"event": "tool:pre_execute", "command": "echo project; exit 1"}]}, f)
    project.write_hooks([{"event": "session:start", "command": "echo global"}], where="global")
    cwd = Path(os.fsdecode(root))
    untrusted = run_installed([], cwd=cwd, stdin=json.dumps(BASH), env={"LANG": "C.UTF-8"})
    assert untrusted.exit_status == 0, untrusted.stderr  # before: 3, "surrogates not allowed"
    assert "caf\\xe9" in untrusted.json["warnings"][0]
    trusted = run_installed(["trust"], cwd=cwd, prog="forge-hook", env={"LANG": "C.UTF-8"})
    assert trusted.exit_status == 0 and "caf\\xe9" in trusted.stdout
    run = run_installed([], cwd=cwd, stdin=json.dumps(BASH))
    assert run.exit_status == 1 and run.json["reason"] == "project"
    # Claude's payload is JSON (its cwd lossy, as Node writes it); its environment has the bytes.
    lossy = os.fsdecode(root).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    dialect = claude("PreToolUse", project, cwd=cwd, env={"CLAUDE_PROJECT_DIR": os.fsdecode(root)})
    assert answer(dialect)["hookSpecificOutput"]["permissionDecision"] == "deny"
    payload = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": lossy, "tool_name": "Bash",
               "tool_input": {"command": "ls"}}
    lossy_run = run_installed(["--dialect", "claude"], cwd=cwd, stdin=json.dumps(payload),
                              env={"CLAUDE_PROJECT_DIR": os.fsdecode(root)})
    assert answer(lossy_run)["hookSpecificOutput"]["permissionDecisionReason"] == "project"
    assert r"caf\\xe9" in forge_hook(project, "log", "--json").stdout  # JSON escapes the backslash


# -- item 13: the man pages say it ---------------------------------------------------------
def test_both_man_pages_say_what_trust_covers_and_what_fails_closed() -> None:
    man = ROOT / "man"
    for page in ("forge-hook-run.1", "forge-hook.1"):
        text = (man / page).read_text()
        trust_section = text[text.index(".SH TRUST"):].split(".SH ", 2)[1].replace("\\-", "-")
        for needle in ("every file under .forge/", "--require-trust", "cannot see", "denie"):
            assert needle in trust_section, (page, needle)


# -- item 14: only a person trusts -------------------------------------------------------------
@pytest.mark.parametrize("command", [
    "forge-hook trust", "/usr/local/bin/forge-hook trust .", "sh -c 'forge-hook trust'",
    "env FOO=1 forge-hook --project-root . trust", "python3 -m forge_hookd.manage trust", "python3 -m forge_hookd.cli.manage trust",
    "python3 -m forge_hookd.cli.run --help; python -m forge_hookd.manage trust",
    "echo '{}' > ~/.local/share/forge/trust.json",
    # issue 31, item 7: every spelling
    "f=trust; forge-hook $f", "FH=forge-hook; $FH trust", "$(command -v forge-hook) trust",
    "set -- forge-hook trust; \"$@\"", "printf 'forge-hook trust' | sh", "git -c alias.t='!forge-hook trust' t",
    "ln -s \"$(which forge-hook)\" fh && ./fh trust",
    "python3 -c \"open('$HOME/.local/share/forge/trust.json', 'w').write('{}')\""])
def test_an_agent_cannot_trust_the_project(project: Project, command: str) -> None:
    specific = answer(claude("PreToolUse", project, tool_input={"command": command}))["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny", command  # before: no answer (no config at all)
    assert "Only a person trusts" in specific["permissionDecisionReason"]


def test_an_agent_cannot_write_the_trust_store_with_a_file_tool(project: Project, isolated_home: Path) -> None:
    store = isolated_home / ".local" / "share" / "forge" / "trust.json"
    run = claude("PreToolUse", project, tool_name="Write", tool_input={"file_path": str(store), "content": "{}"})
    assert answer(run)["hookSpecificOutput"]["permissionDecision"] == "deny"
    plain = claude("PreToolUse", project, tool_input={"command": "forge-hook list && cat trust.md"})
    assert answer(plain) == {}


# -- the agent's lifecycle (issue 21): trust's own word follows "Events that can block" ------
def native(dialect: str, event: str, project: Project, *args: str, env: dict[str, str] | None = None,
           **fields: Any) -> Run:
    """An agent's payload of ``event`` (the keys every agent's reader looks for)."""
    payload = {"hook_event_name": event, "session_id": "s1", "conversation_id": "s1", "cwd": str(project.root),
               "workspace_roots": [str(project.root)], **fields}
    return run_installed(["--dialect", f"{dialect}:{event}", *args], cwd=project.root, stdin=json.dumps(payload),
                         env=env)


def test_a_changed_project_never_refuses_a_stop_or_a_compaction(project: Project, forge_run: ForgeRun) -> None:
    # A hook may refuse agent:stop, agent:subagent_stop and session:pre_compact; forge's own
    # word (a changed project, --require-trust) never does: it must not trap an agent in a
    # loop (DESIGN.md, "Events"). The same change still denies a tool call.
    guard = script(project.root / "stop.sh", "#!/bin/sh\necho 'run the tests first'; exit 1\n")
    project.write_hooks([{"event": "agent:stop,agent:subagent_stop,session:pre_compact,tool:pre_execute",
                          "command": "./stop.sh"}])
    project.write_hooks([{"event": "*", "command": "echo global"}], where="global")
    guard.write_text("#!/bin/sh\nexit 0\n")
    assert forge_run(BASH).json["blocked_by"]["source"] == "trust"  # the control: trust is at work
    for kind in ("agent:stop", "agent:subagent_stop", "session:pre_compact"):
        run = forge_run({"type": kind, "session_id": "s1"})
        assert run.exit_status == 0 and run.json["decision"] == "allow", kind
        assert "stop.sh changed since the project was trusted" in run.json["warnings"][0]
        assert [r["hook"]["source"] for r in run.json["results"]] == ["global"]
    for dialect, event in (("claude", "Stop"), ("claude", "SubagentStop"), ("claude", "PreCompact"),
                           ("codex", "Stop"), ("gemini", "AfterAgent"), ("cursor", "stop"), ("copilot", "agentStop")):
        for env in ({}, {"FORGE_REQUIRE_TRUST": "1"}):
            run = native(dialect, event, project, env=env, agent_type="general-purpose")
            said = answer(run)
            assert run.exit_status == 0 and "decision" not in said and "followup_message" not in said, (event, env)


def test_an_untrusted_project_is_told_on_every_agents_session_start_not_at_a_stop(project: Project) -> None:
    project.write_hooks([{"event": "agent:stop", "command": "exit 1"}], trusted=False)
    for dialect, event, field in (("claude", "SessionStart", "systemMessage"),
                                  ("codex", "SessionStart", "systemMessage"),
                                  ("gemini", "SessionStart", "systemMessage"),
                                  ("cursor", "sessionStart", "user_message")):
        told = answer(native(dialect, event, project, source="compact"))  # after a compaction too
        assert "not trusted" in told[field] and "forge-hook trust" in told[field], dialect
    for dialect, event in (("claude", "Stop"), ("gemini", "AfterAgent"), ("cursor", "stop")):
        run = native(dialect, event, project)
        assert run.exit_status == 0 and answer(run) == {}, event  # a stop is no event that can block
        assert "not trusted" in run.stderr
