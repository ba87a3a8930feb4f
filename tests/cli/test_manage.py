"""forge-hook: CliRunner checks for every subcommand, and the installed commands for the
concurrent writers, the untouched corrupt file and the whole trust cycle."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from helpers import SUDO, Project, run_installed
from forge_hookd.trust import store as trust
from forge_hookd.cli.manage import forge_hook
from forge_hookd.templates import HOOK_TEMPLATES



def hook(project: Project, *args: str) -> Result:
    return CliRunner().invoke(forge_hook, ["--project-root", str(project.root), *args])


def project_doc(project: Project) -> Any:
    return json.loads(project.hooks_file.read_text())


# -- CliRunner: each subcommand ------------------------------------------------------------
def test_add_from_options_and_template(project: Project) -> None:
    (project.root / "sub").mkdir()
    result = hook(project, "add", "--project", "--event", "tool:*", "--command", "echo hi", "--timeout", "3",
                  "--description", "greet", "--env", "A=1", "--env", "B=x=y", "--working-dir", "sub",
                  "--disabled", "--detach")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"forge-hook: added project[0] 'tool:*' in {project.hooks_file}\n"
    assert result.stderr == (f"forge-hook: next: review {project.hooks_file}, then run: forge-hook trust "
                             f"{project.root} (project hooks run once trusted)\n")
    result = hook(project, "add", "--project", "--template", "block_sudo", "--timeout", "2")
    assert result.exit_code == 0
    assert project_doc(project)["hooks"] == [
        {"event": "tool:*", "command": "echo hi", "timeout": 3.0, "working_dir": "sub", "env": {"A": "1", "B": "x=y"},
         "enabled": False, "detach": True, "description": "greet"},
        {**HOOK_TEMPLATES["block_sudo"].to_dict(), "timeout": 2.0}]


def test_add_refuses_a_working_dir_that_is_not_one_and_expands_the_tilde(project: Project) -> None:
    (project.root / "file").write_text("")
    for given, why in (("nope", f"{project.root}/nope does not exist (relative to the project root"),
                       ("file", f"{project.root}/file is not a directory"),
                       ("/nonexistent/x", "/nonexistent/x does not exist; hooks could not run there")):
        refused = hook(project, "add", "--project", "--event", "*", "--command", "x", "--working-dir", given)
        assert refused.exit_code == 2, refused.output
        assert refused.stderr.startswith(f"forge-hook: error: --working-dir {given}: {why}")
    assert not project.hooks_file.exists()
    (project.home / "x").mkdir()
    assert hook(project, "add", "--project", "--event", "*", "--command", "x", "--working-dir", "~/x").exit_code == 0
    # A relative one in a global hook is relative to each project's root: kept, unchecked.
    assert hook(project, "add", "--global", "--event", "*", "--command", "x", "--working-dir", "sub").exit_code == 0
    assert project_doc(project)["hooks"][0]["working_dir"] == str(project.home / "x")
    assert json.loads(project.global_file.read_text())["hooks"][0]["working_dir"] == "sub"


def test_add_project_in_a_subdirectory_of_a_repository_uses_its_root(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)  # what git init makes that matters here
    (repo / "src").mkdir()
    added = run_installed(["add", "--project", "--template", "block_sudo"], cwd=repo / "src", prog="forge-hook")
    assert added.exit_status == 0, added.stderr
    assert added.stdout == f"forge-hook: added project[0] 'tool:pre_execute:bash' in {repo}/.forge/hooks.json\n"
    assert (repo / ".forge/hooks.json").is_file() and not (repo / "src/.forge").exists()
    listed = run_installed(["list", "--json"], cwd=repo, prog="forge-hook")
    assert [h["file"] for h in json.loads(listed.stdout)] == [f"{repo}/.forge/hooks.json"]
    # A .forge directory made by hand marks the project (the README's demo/.forge, made
    # in a checkout that has no hooks file of its own).
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    (other / "demo/.forge").mkdir(parents=True)
    demo = run_installed(["add", "--project", "--template", "block_sudo"], cwd=other / "demo", prog="forge-hook")
    assert f"in {other}/demo/.forge/hooks.json" in demo.stdout
    # Outside any repository (and with no .forge up the tree) it is the current directory.
    (tmp_path / "plain").mkdir()
    plain = run_installed(["add", "--project", "--template", "block_sudo"], cwd=tmp_path / "plain", prog="forge-hook")
    assert f"in {tmp_path}/plain/.forge/hooks.json" in plain.stdout


def test_list_shows_what_loads_and_names_the_broken_file(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": "echo g"}], where="global")
    project.hooks_file.parent.mkdir(parents=True)
    project.hooks_file.write_text('{"hooks": [')
    result = hook(project, "list")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].split()[:2] == ["global[0]", "*"]
    assert result.stderr.startswith(f"forge-hook: warning: {project.hooks_file}:1:")
    assert "its hooks are not listed (forge-hook check)" in result.stderr
    assert [h["source"] for h in json.loads(hook(project, "list", "--json").stdout)] == ["global"]


def test_add_observer_and_list_shows_it(project: Project) -> None:
    """Through the installed forge-hook: --observer writes "blocking": false, list shows it."""
    added = run_installed(["add", "--project", "--event", "tool:*", "--command", "true", "--observer"],
                          cwd=project.root, prog="forge-hook")
    assert added.exit_status == 0, added.stderr
    run_installed(["add", "--project", "--template", "log_all"], cwd=project.root, prog="forge-hook")
    run_installed(["add", "--project", "--template", "block_sudo"], cwd=project.root, prog="forge-hook")
    assert [h.get("blocking", True) for h in project_doc(project)["hooks"]] == [False, False, True]
    table = run_installed(["list"], cwd=project.root, prog="forge-hook").stdout.splitlines()
    assert [row.split()[3] for row in table[:4]] == ["BLOCKS", "no", "no", "yes"]
    listed = json.loads(run_installed(["list", "--json"], cwd=project.root, prog="forge-hook").stdout)
    assert [h["blocking"] for h in listed] == [False, False, True]


def test_add_says_what_it_clamped_and_what_cannot_match(project: Project) -> None:
    result = hook(project, "add", "--global", "--event", "tool:pre_exec", "--command", "x", "--timeout", "900")
    assert result.exit_code == 0
    assert "timeout 900 is outside [0.1, 600]; it is 600" in result.stderr
    assert "pattern 'tool:pre_exec' can match no event type" in result.stderr
    assert json.loads(project.global_file.read_text())["hooks"][0]["timeout"] == 600.0


@pytest.mark.parametrize(("args", "message"), [
    (["add", "--event", "*", "--command", "x"], "say which file: --global or --project"),
    (["add", "--global", "--project", "--event", "*", "--command", "x"], "say which file"),
    (["add", "--global"], "say what to add"),
    (["add", "--global", "--template", "block_sudo", "--event", "*"], "--template goes without"),
    (["add", "--global", "--template", "nope"], "'nope' is not one of"),
    (["add", "--global", "--event", "*", "--command", "x", "--env", "NOEQUALS"], "--env takes KEY=VALUE"),
    (["add", "--global", "--event", "*", "--command", " "], "'command' must be a non-empty string"),
    (["list", "--tool", "bash"], "--tool and --trust-project go with --event"),
    (["list", "--event", "nope"], "'nope' is not one of"),
    (["enable", "--global", "x"], "no such file"),
    (["frobnicate"], "No such command 'frobnicate'"),
])
def test_usage_errors_are_one_line_and_exit_2(project: Project, args: list[str], message: str) -> None:
    result = hook(project, *args)
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1
    assert result.stderr.startswith("forge-hook: error: ")


def test_list_table_and_json(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": "echo g"}], where="global")
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "echo " + "p" * 300}], trusted=False)
    table = hook(project, "list").stdout.splitlines()
    assert table[0].split() == ["HOOK", "EVENT", "ON", "BLOCKS", "TRUST", "TIMEOUT", "COMMAND"]
    assert table[1].split()[:6] == ["global[0]", "*", "yes", "yes", "trusted", "10s"]
    assert table[2].split()[:5] == ["project[0]", "tool:pre_execute:bash", "yes", "yes", "untrusted"]
    assert all(len(line) <= 100 for line in table[:3]) and table[2].endswith("... (305 characters)")
    listed = json.loads(hook(project, "list", "--json").stdout)
    assert [(h["source"], h["index"], h["trusted"]) for h in listed] == [("global", 0, True), ("project", 0, False)]
    assert set(listed[0]) >= {"event", "command", "timeout", "enabled", "source", "index", "trusted"}
    would = json.loads(hook(project, "list", "--event", "tool:pre_execute", "--tool", "bash", "--json").stdout)
    assert [h["command"] for h in would] == ["echo g"]
    would = json.loads(hook(project, "list", "--event", "tool:pre_execute", "--tool", "bash",
                            "--trust-project", "--json").stdout)
    assert len(would) == 2
    assert json.loads(hook(project, "list", "--event", "session:start", "--json").stdout) == [listed[0]]


def test_list_without_hooks(project: Project) -> None:
    assert hook(project, "list").stdout == "no hooks configured\n"


def test_check_clean_and_dirty(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": "x"}])
    clean = hook(project, "check")
    assert (clean.exit_code, clean.stdout.splitlines()) == (0, [
        "forge-hook: checked the global and the project hooks file: no problems",
        f"  global   {project.global_file}: no such file",
        f"  project  {project.hooks_file}: 1 hook"])
    project.write_hooks([{"event": "*", "command": "x", "timeout": 0}, {"event": "nope", "command": "y"}],
                        where="global")
    dirty = hook(project, "check")
    assert dirty.exit_code == 1
    assert dirty.stdout.splitlines() == [
        f"{project.global_file}: global[0]: timeout 0 is outside [0.1, 600]; it is clamped to 0.1",
        f"{project.global_file}: global[1]: pattern 'nope' can match no event type",
        "forge-hook: checked the global and the project hooks file: 2 problems",
        f"  global   {project.global_file}: 2 hooks",
        f"  project  {project.hooks_file}: 1 hook"]
    as_json = json.loads(hook(project, "check", "--json").stdout)
    assert as_json[1] == {"file": str(project.global_file), "line": None, "column": None, "entry": 1,
                          "hook": "global[1]", "message": "pattern 'nope' can match no event type"}


def test_check_reports_json_syntax_as_file_line_col(project: Project) -> None:
    project.hooks_file.parent.mkdir()
    project.hooks_file.write_text('{"hooks": [\n  {"event": "*" "command": "x"}\n]}')
    result = hook(project, "check")
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{project.hooks_file}:2:")


def test_remove_enable_disable(project: Project) -> None:
    project.write_hooks([{"event": "a", "command": "1"}, {"event": "b", "command": "2"}, {"event": "a", "command": "3"}])
    assert hook(project, "disable", "--project", "1").exit_code == 0
    assert project_doc(project)["hooks"][1]["enabled"] is False
    assert hook(project, "enable", "--project", "1").exit_code == 0
    assert "enabled" not in project_doc(project)["hooks"][1]
    removed = hook(project, "remove", "--project", "a")
    assert removed.exit_code == 0 and "removed project[0], project[2] (a)" in removed.stdout
    assert [h["command"] for h in project_doc(project)["hooks"]] == ["2"]
    none = hook(project, "remove", "--project", "a")
    assert none.exit_code == 1
    assert none.stderr == f"forge-hook: error: no hook with index, id or pattern 'a' in {project.hooks_file}\n"
    missing = hook(project, "enable", "--project", "9")
    assert missing.exit_code == 2 and "there is no hook 9 (the file has 1; forge-hook list shows them)" in missing.stderr
    assert trust.is_trusted(project.hooks_file, project.hooks_file.read_bytes())  # edits keep trust


def test_templates_and_events(project: Project) -> None:
    lines = hook(project, "templates").stdout.splitlines()
    names = [line.split()[0] for line in lines]
    assert [line.endswith("(observer: never blocks)") for line in lines] == [True, True, True, False]
    assert names == list(HOOK_TEMPLATES)
    templates = json.loads(hook(project, "templates", "--json").stdout)
    assert templates[3] == {"name": "block_sudo", **HOOK_TEMPLATES["block_sudo"].to_dict()}
    events = json.loads(hook(project, "events", "--json").stdout)
    assert len(events) == 23
    tool_error = next(e for e in events if e["type"] == "tool:error")
    assert tool_error["data_keys"] == ["tool_args", "error"] and tool_error["tool_name"] is True
    assert {"FORGE_EVENT", "FORGE_TOOL_NAME", "FORGE_TOOL_ARGS", "FORGE_ERROR"} <= set(tool_error["variables"])
    text = hook(project, "events").stdout
    assert text.count("\n") == 31 and "user:interrupt" in text and "agent:stop" in text
    assert all(name in text for name in ("FORGE_HOOK_CHAIN", "FORGE_HOOK_VARS", "FORGE_HOOK_TOKEN"))


def test_help_summaries_are_whole_sentences(project: Project) -> None:
    # click cuts a summary that does not fit at "..." mid-sentence: each command says
    # its own short one (short_help).
    help_text = run_installed(["--help"], cwd=project.root, env={"COLUMNS": "80"}, prog="forge-hook").stdout
    commands = help_text.split("Commands:\n")[1].splitlines()
    assert len(commands) == len(forge_hook.commands)
    for line in commands:
        assert not line.endswith("...") and line.endswith("."), line


def test_trust_and_untrust(project: Project) -> None:
    none = hook(project, "trust")
    assert none.exit_code == 2 and "no hooks file to trust" in none.stderr
    project.write_hooks([{"event": "*", "command": "x"}], trusted=False)
    result = hook(project, "trust")
    assert result.exit_code == 0 and f"trusted {project.root}; its hooks will run" in result.stdout
    assert result.stdout.splitlines()[1:] == [f"  .forge/hooks.json  {trust.digest(project.hooks_file.read_bytes())[:12]}"]
    assert trust.is_trusted(project.hooks_file, project.hooks_file.read_bytes())
    assert "is no longer trusted" in hook(project, "untrust").stdout
    assert "nothing to untrust: " in hook(project, "untrust").stdout
    assert CliRunner().invoke(forge_hook, ["trust", str(project.root)]).exit_code == 0


def test_untrust_with_nothing_to_untrust_says_so_and_writes_nothing(project: Project) -> None:
    result = hook(project, "untrust")
    assert result.exit_code == 0
    assert result.stdout == f"forge-hook: nothing to untrust: {project.hooks_file} was not trusted\n"
    assert not Path(trust.trust_store_path()).exists()


def test_broken_trust_store_is_an_error_not_a_traceback(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": "x"}], trusted=False)
    Path(trust.trust_store_path()).parent.mkdir(parents=True)
    Path(trust.trust_store_path()).write_text("nope")
    result = hook(project, "trust")
    assert result.exit_code == 2 and "cannot read the trust records" in result.stderr
    assert "Traceback" not in result.output


# -- the installed commands ---------------------------------------------------------------
def test_corrupt_file_is_left_byte_for_byte(project: Project) -> None:
    project.hooks_file.parent.mkdir()
    project.hooks_file.write_bytes(b'{"hooks": [ {"event": "*", \n')
    for args in (["add", "--project", "--template", "log_all"], ["remove", "--project", "*"],
                 ["disable", "--project", "0"]):
        run = run_installed(args, cwd=project.root, prog="forge-hook")
        assert run.exit_status == 2 and "invalid JSON" in run.stderr and "Traceback" not in run.stderr
    assert project.hooks_file.read_bytes() == b'{"hooks": [ {"event": "*", \n'


def test_twenty_concurrent_adds_leave_twenty_hooks(project: Project) -> None:
    project.hooks_file.parent.mkdir()
    project.hooks_file.write_text(json.dumps({"owner": "me", "hooks": []}))

    def add(i: int) -> int:
        return run_installed(["add", "--project", "--event", f"session:{i}", "--command", f"echo {i}"],
                             cwd=project.root, prog="forge-hook").exit_status

    with ThreadPoolExecutor(20) as pool:
        assert list(pool.map(add, range(20))) == [0] * 20
    doc = project_doc(project)
    assert doc["owner"] == "me"
    assert sorted(h["command"] for h in doc["hooks"]) == sorted(f"echo {i}" for i in range(20))
    assert not [p for p in project.hooks_file.parent.iterdir() if p.name.endswith(".tmp")]


def test_trust_cycle_through_the_executables(project: Project, tmp_path: Path) -> None:
    def fire(*args: str, env: dict[str, str] | None = None) -> Any:
        return run_installed(list(args), cwd=project.root, stdin=json.dumps(SUDO), env=env)

    def forge_hook_cmd(*args: str) -> Any:
        return run_installed(list(args), cwd=project.root, prog="forge-hook")

    assert forge_hook_cmd("add", "--project", "--template", "block_sudo").exit_status == 0
    untrusted = fire()
    assert untrusted.exit_status == 0 and untrusted.json["results"] == []
    warning = (f"project hooks in {project.hooks_file} did not run: the project is not trusted; "
               f"review it, then run: forge-hook trust {project.root}")
    assert untrusted.json["warnings"] == [warning]
    assert f"forge-hook-run: warning: {warning}" in untrusted.stderr
    assert "untrusted" in forge_hook_cmd("list").stdout

    assert forge_hook_cmd("trust").exit_status == 0
    trusted = fire()
    assert trusted.exit_status == 1 and trusted.json["blocked_by"]["reason"].startswith("Blocked: sudo not allowed. ")
    assert "trusted" in forge_hook_cmd("list").stdout.splitlines()[1]

    # An edit through forge-hook keeps it trusted ...
    assert forge_hook_cmd("add", "--project", "--event", "session:*", "--command", "true").exit_status == 0
    assert fire().exit_status == 1
    # ... an edit by anything else does not.
    project.hooks_file.write_text(project.hooks_file.read_text().replace("Block shell", "Refuse shell"))
    changed = fire()  # a guard the user chose never switches off in silence: forge denies (issue 19)
    assert changed.exit_status == 1 and changed.json["blocked_by"]["source"] == "trust"
    assert ".forge/hooks.json changed since the project was trusted" in changed.json["warnings"][0]
    assert "changed" in forge_hook_cmd("list").stdout

    assert fire("--trust-project").json["blocked_by"]["description"].startswith("Refuse shell")
    assert fire(env={"FORGE_TRUST_PROJECT": "1"}).exit_status == 1
    assert forge_hook_cmd("trust").exit_status == 0 and fire().exit_status == 1
    assert forge_hook_cmd("untrust").exit_status == 0 and fire().exit_status == 0


def test_global_hooks_are_always_trusted(project: Project) -> None:
    assert run_installed(["add", "--global", "--template", "block_sudo"], cwd=project.root,
                         prog="forge-hook").exit_status == 0
    run = run_installed([], cwd=project.root, stdin=json.dumps(SUDO))
    assert run.exit_status == 1 and run.json["warnings"] == []


def test_forge_hook_version_and_help(project: Project) -> None:
    assert run_installed(["--version"], cwd=project.root, prog="forge-hook").stdout.startswith("forge-hook ")
    help_text = run_installed(["--help"], cwd=project.root, prog="forge-hook").stdout
    for word in ("list", "check", "add", "remove", "enable", "disable", "templates", "events", "trust", "untrust"):
        assert f"  {word} " in help_text


def test_every_subcommand_through_the_installed_command(project: Project) -> None:
    def forge_hook_cmd(*args: str) -> Any:
        return run_installed(list(args), cwd=project.root, prog="forge-hook")

    assert forge_hook_cmd("add", "--project", "--event", "session:*", "--command", "echo s", "--disabled").exit_status == 0
    assert forge_hook_cmd("add", "--project", "--event", "nope:x", "--command", "echo n").exit_status == 0
    assert forge_hook_cmd("trust").exit_status == 0
    check = forge_hook_cmd("check", "--json")
    assert check.exit_status == 1 and [p["entry"] for p in json.loads(check.stdout)] == [1]
    assert forge_hook_cmd("enable", "--project", "0").exit_status == 0
    assert json.loads(forge_hook_cmd("list", "--event", "session:start", "--json").stdout)[0]["command"] == "echo s"
    assert forge_hook_cmd("disable", "--project", "0").exit_status == 0
    assert json.loads(forge_hook_cmd("list", "--event", "session:start", "--json").stdout) == []
    assert forge_hook_cmd("remove", "--project", "nope:x").exit_status == 0
    assert forge_hook_cmd("check").exit_status == 0
    assert [t["name"] for t in json.loads(forge_hook_cmd("templates", "--json").stdout)] == list(HOOK_TEMPLATES)
    assert len(json.loads(forge_hook_cmd("events", "--json").stdout)) == 23
    assert forge_hook_cmd("untrust").exit_status == 0
    assert "untrusted" in forge_hook_cmd("list").stdout


def test_check_names_a_tool_that_looks_like_a_typo_and_no_other(project: Project) -> None:
    """Issue 20, item 7: ``bsah`` never fires and nothing said so; a caller's own tool
    (``git``), an MCP tool and every agent's native names are legitimate."""
    legit = ["tool:pre_execute:git", "tool:pre_execute:mcp__github__create_issue", "tool:pre_execute:Bash",
             "tool:pre_execute:run_shell_command", "tool:pre_execute:Shell", "tool:pre_execute:Task",
             "tool:*:apply_patch", "tool:pre_execute"]
    project.write_hooks([{"event": p, "command": "true"} for p in legit]
                        + [{"event": "tool:pre_execute:bsah", "command": "true"},
                           {"event": "tool:post_execute:web_fetch, tool:*:Bahs", "command": "true"}])
    run = run_installed(["--project-root", str(project.root), "check"], cwd=project.root, prog="forge-hook")
    assert run.exit_status == 1, run
    assert run.stdout.splitlines()[:3] == [
        f"{project.hooks_file}: project[{len(legit)}]: tool 'bsah' in 'tool:pre_execute:bsah' is no tool name forge "
        "or an agent uses and looks like a typo (did you mean 'bash'?): the hook never runs for it",
        f"{project.hooks_file}: project[{len(legit) + 1}]: tool 'Bahs' in 'tool:*:Bahs' is no tool name forge "
        "or an agent uses and looks like a typo (did you mean 'Bash'?): the hook never runs for it",
        "forge-hook: checked the global and the project hooks file: 2 problems"]
# -- ids: enable, disable and remove by index or id (issue 23, item 7) -----------------------
def test_hooks_by_id_through_the_installed_forge_hook(project: Project) -> None:
    def forge_hook_cmd(*args: str) -> Any:
        return run_installed(list(args), cwd=project.root, prog="forge-hook")

    assert forge_hook_cmd("add", "--project", "--id", "lint", "--event", "tool:*", "--command", "ruff .").exit_status == 0
    added = forge_hook_cmd("add", "--project", "--id", "fmt", "--event", "tool:*", "--command", "ruff format")
    assert added.stdout == f"forge-hook: added project[1] (fmt) 'tool:*' in {project.hooks_file}\n"
    again = forge_hook_cmd("add", "--project", "--id", "lint", "--event", "*", "--command", "x")
    assert again.exit_status == 2 and "id 'lint' is hooks[0]'s already" in again.stderr
    assert project_doc(project)["hooks"][0] == {"id": "lint", "event": "tool:*", "command": "ruff ."}
    disabled = forge_hook_cmd("disable", "--project", "fmt")
    assert disabled.exit_status == 0 and disabled.stdout.startswith("forge-hook: disabled project[1] (fmt) in ")
    assert project_doc(project)["hooks"][1]["enabled"] is False
    assert forge_hook_cmd("enable", "--project", "fmt").exit_status == 0
    assert "enabled" not in project_doc(project)["hooks"][1]
    typo = forge_hook_cmd("enable", "--project", "lnt")
    assert typo.exit_status == 2 and "no hook has the id 'lnt' (did you mean 'lint'?)" in typo.stderr
    listed = forge_hook_cmd("list").stdout.splitlines()
    assert [line.split("  ")[0] for line in listed[1:3]] == ["project[0] (lint)", "project[1] (fmt)"]
    assert [h["id"] for h in json.loads(forge_hook_cmd("list", "--json").stdout)] == ["lint", "fmt"]
    removed = forge_hook_cmd("remove", "--project", "lint")
    assert removed.exit_status == 0 and removed.stdout.startswith("forge-hook: removed project[0] (lint) in ")
    assert [h["id"] for h in project_doc(project)["hooks"]] == ["fmt"]
    assert forge_hook_cmd("remove", "--project", "0").exit_status == 0  # by index, as list shows it
    assert project_doc(project)["hooks"] == []


def test_an_id_two_hooks_hold_is_a_check_finding_and_names_no_hook(project: Project) -> None:
    project.write_hooks([{"id": "x", "event": "*", "command": "1"}, {"id": "x", "event": "*", "command": "2"},
                         {"id": "12", "event": "*", "command": "3"}])
    checked = run_installed(["check"], cwd=project.root, prog="forge-hook")
    assert checked.exit_status == 1
    assert checked.stdout.splitlines()[:2] == [
        f"{project.hooks_file}: project[1]: id 'x' is hooks[0]'s too: an id names one hook of its file "
        "(enable, disable, remove and FORGE_SKIP take it)",
        f"{project.hooks_file}: project[2]: 'id' must be up to 100 letters, digits, '-', '_' and '.', not only "
        "digits (that reads as an index), not '12'; hook skipped"]
    ambiguous = run_installed(["disable", "--project", "x"], cwd=project.root, prog="forge-hook")
    assert ambiguous.exit_status == 2 and "id 'x' names hooks 0, 1: name one by its index" in ambiguous.stderr


def test_check_says_what_it_checked_and_names_a_misspelt_required_key(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": "true"}], where="global")
    ok = run_installed(["check"], cwd=project.root, prog="forge-hook")
    assert ok.exit_status == 0 and ok.stdout.splitlines() == [
        "forge-hook: checked the global and the project hooks file: no problems",
        f"  global   {project.global_file}: 1 hook",
        f"  project  {project.hooks_file}: no such file"]
    project.write_hooks([{"event": "*", "comand": "true"}, {"evnt": "*", "command": "true"}])
    typo = run_installed(["check"], cwd=project.root, prog="forge-hook")
    assert typo.exit_status == 1
    assert typo.stdout.splitlines()[:2] == [
        f"{project.hooks_file}: project[0]: missing required key 'command' (or 'guard', a built-in guard); "
        "'comand' is no key (did you mean 'command'?); hook skipped",
        f"{project.hooks_file}: project[1]: missing required key 'event'; 'evnt' is no key (did you mean 'event'?); "
        "hook skipped"]


def test_list_shortens_a_long_command_however_wide_the_terminal(project: Project) -> None:
    awk = "awk '" + "{ s = s $0 }" * 150 + "'"
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": awk}, {"event": "*", "command": "x\x1b[2Jy"}])
    table = run_installed(["list"], cwd=project.root, env={"COLUMNS": "400"}, prog="forge-hook").stdout
    lines = table.splitlines()
    assert lines[1].endswith(f"... ({len(awk)} characters)") and len(lines[1]) < 160
    assert "\x1b" not in table and "x\\x1b[2Jy" in lines[2]  # written out, never raw
    assert json.loads(run_installed(["list", "--json"], cwd=project.root, prog="forge-hook").stdout)[0]["command"] == awk


# -- a fresh project (issue 23, item 8) -------------------------------------------------------
@pytest.mark.parametrize(("umask", "mode"), [("022", 0o644), ("027", 0o640), ("077", 0o600)])
def test_a_new_hooks_file_follows_the_umask_and_add_says_what_to_do_next(project: Project, umask: str,
                                                                        mode: int) -> None:
    import subprocess

    from helpers import installed

    proc = subprocess.run(["sh", "-c", f'umask {umask}; exec "$0" add --project --template block_sudo',
                           installed("forge-hook")], cwd=project.root, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert project.hooks_file.stat().st_mode & 0o777 == mode
    assert proc.stderr == (f"forge-hook: next: review {project.hooks_file}, then run: forge-hook trust "
                           f"{project.root} (project hooks run once trusted)\n")
    assert "not trusted" not in proc.stderr  # what to do, not what is wrong
    project.hooks_file.chmod(0o604)  # an existing file keeps its bits
    assert run_installed(["add", "--project", "--template", "log_all"], cwd=project.root,
                         prog="forge-hook").exit_status == 0
    assert project.hooks_file.stat().st_mode & 0o777 == 0o604


def test_the_module_paths_installed_users_name_still_run(tmp_path: Path) -> None:
    # pip's scripts of an editable install and people name forge_hookd.manage (issue 29)
    for argv in (["-m", "forge_hookd.manage", "--help"], ["-c", "from forge_hookd.manage import main; main()", "--help"]):
        done = subprocess.run([sys.executable, *argv], capture_output=True, text=True, cwd=tmp_path, timeout=60)
        assert done.returncode == 0 and "Usage: forge-hook" in done.stdout, (argv, done.stderr)
