"""MCP tools and tools nobody mapped (issue 31, item 4), through the installed
forge-hook-run with each agent's own payload: an MCP tool call is judged by what its
name and arguments say (a destructive verb asks, SQL is judged as SQL, a path as a
path); any other tool the alias tables do not know is judged as shell or as a path
when its input holds a command or a path, with a warning naming it; ``forge-hook
doctor`` lists the unmapped tools the run log has seen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import Project, Run, run_installed
from test_guard_dialects import fire, payload, told

PACK = [{"event": "tool:pre_execute", "guard": name}
        for name in ("destructive_rm", "force_push", "secret_files", "infra_destructive", "protected_paths",
                     "self_protection")]


def claude_call(project: Project, tool: str, tool_input: dict[str, Any]) -> Run:
    return fire("claude", payload("claude/PreToolUse", project, tool_name=tool, tool_input=tool_input), project)


@pytest.mark.parametrize("tool", ["mcp__github__delete_repository", "mcp__k8s__dropNamespace",
                                  "mcp__stripe__purge-customers", "mcp__db__reset_database"])
def test_an_mcp_tool_whose_name_destroys_asks(tool: str, project: Project) -> None:
    project.write_hooks(PACK)
    decision, said = told(claude_call(project, tool, {"owner": "o", "repo": "r"}))
    assert decision == "ask" and said is not None, said
    assert said.startswith(f"infra_destructive: `{tool}` is an MCP tool whose name says it will "), said


@pytest.mark.parametrize(("tool", "tool_input", "shown"), [
    ("mcp__db__query", {"sql": "DROP TABLE users"}, "runs DROP TABLE"),
    ("mcp__postgres__run", {"statement": "truncate orders;"}, "runs TRUNCATE ORDERS"),
    ("mcp__warehouse__execute", {"q": "  -- clean up\nDELETE FROM events;"}, "runs DELETE FROM"),
    ("mcp__mongo__run", {"script": "db.users.drop()"}, "drops MongoDB data"),
])
def test_sql_in_an_mcp_argument_is_judged_as_sql(tool: str, tool_input: dict[str, Any], shown: str,
                                                   project: Project) -> None:
    project.write_hooks(PACK)
    decision, said = told(claude_call(project, tool, tool_input))
    assert decision == "ask" and said is not None and said.startswith(f"infra_destructive: `{tool} "), said
    assert shown in said


@pytest.mark.parametrize(("tool", "tool_input", "starts"), [
    ("mcp__filesystem__read_file", {"path": ".env"}, "secret_files: `.env` reads a secret file"),
    ("mcp__filesystem__write_file", {"path": "{root}/.forge/hooks.json", "content": "{}"},
     "self_protection: `{root}/.forge/hooks.json` edits forge's own configuration"),
    ("mcp__filesystem__move_file", {"source": "a.txt", "destination": "/etc/cron.d/x"},
     "protected_paths: `/etc/cron.d/x` writes /etc/cron.d/x, outside the project"),
    ("mcp__shell__execute", {"command": "rm -rf ~"}, "destructive_rm: `rm -rf ~` deletes the home directory"),
])
def test_an_mcp_argument_that_is_a_path_or_a_command_is_judged_as_one(tool: str, tool_input: dict[str, Any],
                                                                        starts: str, project: Project) -> None:
    project.write_hooks(PACK)
    tool_input = json.loads(json.dumps(tool_input).replace("{root}", str(project.root)))
    run = claude_call(project, tool, tool_input)
    decision, said = told(run)
    assert decision == "deny" and said is not None, said
    assert said.startswith(starts.replace("{root}", str(project.root))), said
    assert f"(the tool {tool}, judged by its input as" in said
    assert "is not one forge maps" not in run.stderr  # an MCP tool is judged as one, not guessed at


@pytest.mark.parametrize(("tool", "tool_input", "decision", "starts"), [
    ("mcp__git__git_push", {"repo_path": ".", "force": True}, "deny",
     "force_push: `mcp__git__git_push` rewrites published history (force push) (an MCP tool)"),
    ("mcp__github__push_files", {"owner": "o", "repo": "r", "branch": "main", "files": [], "message": "m"}, "ask",
     "force_push: `mcp__github__push_files` pushes to the protected branch main (an MCP tool)"),
    ("mcp__github__merge_pull_request", {"owner": "o", "repo": "r", "pull_number": 1}, "ask",
     "force_push: `mcp__github__merge_pull_request` merges a pull request into its base branch"),
])
def test_an_mcp_tool_that_pushes_or_merges_is_judged_as_the_git_command_it_is(
        tool: str, tool_input: dict[str, Any], decision: str, starts: str, project: Project) -> None:
    project.write_hooks(PACK)
    found, said = told(claude_call(project, tool, tool_input))
    assert found == decision and said is not None and said.startswith(starts), said


@pytest.mark.parametrize(("tool", "tool_input"), [
    ("mcp__github__push_files", {"owner": "o", "repo": "r", "branch": "feature/x", "files": [], "message": "m"}),
    ("mcp__git__git_push", {"repo_path": ".", "branch": "feature/x"}),
    ("mcp__github__get_issue", {"owner": "o", "repo": "r", "issue_number": 7}),
    ("mcp__filesystem__read_file", {"path": "src/main.py"}),
    ("mcp__filesystem__write_file", {"path": "notes/todo.md", "content": "drop the old flag"}),
    ("mcp__db__query", {"sql": "SELECT id, name FROM users WHERE active"}),
    ("mcp__db__query", {"sql": "DELETE FROM sessions WHERE expires < now();"}),
    ("mcp__github__create_issue", {"owner": "o", "repo": "r", "title": "Drop table users in the old schema?",
                                   "body": "DROP TABLE users; was run by hand"}),
    ("mcp__memory__create_entities", {"entities": [{"name": "x"}]}),
    ("KillShell", {"shell_id": "bash_1"}),  # Claude's own tool, not MCP: its name is not judged
    ("TodoWrite", {"todos": [{"content": "rm -rf build", "status": "pending"}]}),
])
def test_benign_mcp_and_unmapped_calls_pass_with_no_decision_and_no_warning(
        tool: str, tool_input: dict[str, Any], project: Project) -> None:
    project.write_hooks(PACK)
    run = claude_call(project, tool, tool_input)
    assert told(run) == (None, None), run.stdout
    assert "is not one forge maps" not in run.stderr


@pytest.mark.parametrize(("tool", "tool_input", "starts", "judged"), [
    ("RunScript", {"command": "git push --force origin main"}, "force_push: `git push --force origin main`",
     "a shell command"),
    ("AppendToFile", {"target_path": "{home}/.ssh/id_rsa", "text": "x"}, "secret_files: `{home}/.ssh/id_rsa`"
     " writes a secret file", "a path"),
    ("Frobnicate", {"target_file": ".env.production"}, "secret_files: `.env.production` reads a secret file",
     "a path"),
])
def test_a_tool_nobody_mapped_is_judged_by_its_shape_with_a_warning(
        tool: str, tool_input: dict[str, Any], starts: str, judged: str, project: Project, tmp_path: Path) -> None:
    project.write_hooks(PACK)
    tool_input = json.loads(json.dumps(tool_input).replace("{home}", str(project.home)))
    report = tmp_path / "report.json"
    data = payload("claude/PreToolUse", project, tool_name=tool, tool_input=tool_input)
    run = fire("claude", data, project, "--report", str(report))
    decision, said = told(run)
    assert decision == "deny" and said is not None, said
    assert said.startswith(starts.replace("{home}", str(project.home))), said
    warning = f"the tool {tool} is not one forge maps: the guards judged it by its input, as {judged}"
    assert f"warning: {warning}" in run.stderr
    assert warning in json.loads(report.read_text())["warnings"]


def test_codex_and_windsurf_name_mcp_tools_as_claude_does(project: Project) -> None:
    project.write_hooks(PACK)
    codex = payload("codex/PreToolUse", project, tool_name="mcp__db__execute_sql",
                    tool_input={"sql": "DROP DATABASE prod"})
    decision, said = told(fire("codex", codex, project))
    assert decision in ("ask", "deny") and said is not None and "runs DROP DATABASE" in said, said
    windsurf = payload("windsurf/pre_mcp_tool_use", project)
    windsurf["tool_info"] = {"mcp_server_name": "github", "mcp_tool_name": "delete_file",
                             "mcp_tool_arguments": {"path": "README.md"}}
    run = fire("windsurf", windsurf, project)
    assert run.exit_status == 2 and "mcp__github__delete_file` is an MCP tool whose name says it will delete" in \
        run.stderr, run.stderr


def test_gemini_names_mcp_tools_mcp_server_tool_and_has_no_ask(project: Project) -> None:
    """Gemini CLI's hooks reference: MCP tools are ``mcp_<server>_<tool>``; it cannot ask,
    so the ask is a deny that says a person must decide."""
    project.write_hooks(PACK)
    data = payload("gemini/BeforeTool", project, tool_name="mcp_db_drop_table", tool_input={"table": "users"})
    decision, said = told(fire("gemini", data, project))
    assert decision == "deny" and said is not None and said.startswith("a person must decide"), said
    assert "`mcp_db_drop_table` is an MCP tool whose name says it will drop" in said


def test_cursor_mcp_input_arrives_as_a_json_string_and_is_judged(project: Project) -> None:
    project.write_hooks(PACK)
    data = payload("cursor/beforeMCPExecution", project, tool_input=json.dumps({"query": "DROP TABLE users"}))
    decision, said = told(fire("cursor", data, project))
    assert decision == "ask" and said is not None and "`MCP:database_query DROP TABLE users` runs DROP TABLE" in \
        said, said
    benign = payload("cursor/beforeMCPExecution", project)  # SELECT * FROM users, as recorded
    assert told(fire("cursor", benign, project)) == (None, None)


def test_doctor_lists_the_unmapped_tools_the_run_log_has_seen(project: Project) -> None:
    project.write_hooks(PACK)
    claude_call(project, "mcp__github__get_issue", {"owner": "o", "repo": "r", "issue_number": 1})
    claude_call(project, "mcp__github__get_issue", {"owner": "o", "repo": "r", "issue_number": 2})
    claude_call(project, "Frobnicate", {"path": "a.txt"})
    claude_call(project, "Bash", {"command": "ls"})
    doctor = run_installed(["doctor", "--json"], cwd=project.root, prog="forge-hook", env={"PATH": "/usr/bin:/bin"})
    assert doctor.exit_status in (0, 1), doctor.stderr
    seen = {(t["dialect"], t["tool"]): t for t in json.loads(doctor.stdout)["unmapped_tools"]}
    assert set(seen) == {("claude", "mcp__github__get_issue"), ("claude", "Frobnicate")}
    assert (seen["claude", "mcp__github__get_issue"]["runs"], seen["claude", "mcp__github__get_issue"]["mcp"]) == \
        (2, True)
    assert (seen["claude", "Frobnicate"]["runs"], seen["claude", "Frobnicate"]["mcp"]) == (1, False)
    assert seen["claude", "Frobnicate"]["last_seen"].endswith("Z")
    lines = run_installed(["doctor"], cwd=project.root, prog="forge-hook", env={"PATH": "/usr/bin:/bin"})
    assert "  claude: mcp__github__get_issue (MCP): 2 runs, last " in lines.stdout, lines.stdout
    assert "  claude: Frobnicate: 1 run, last " in lines.stdout, lines.stdout


def test_doctor_says_nothing_of_unmapped_tools_when_there_were_none(project: Project) -> None:
    claude_call(project, "Bash", {"command": "ls"})
    doctor = run_installed(["doctor", "--json"], cwd=project.root, prog="forge-hook", env={"PATH": "/usr/bin:/bin"})
    assert json.loads(doctor.stdout)["unmapped_tools"] == []
    lines = run_installed(["doctor"], cwd=project.root, prog="forge-hook", env={"PATH": "/usr/bin:/bin"})
    assert "forge does not map" not in lines.stdout


def test_the_guards_know_the_canonical_tools_the_dialects_map_to() -> None:
    from forge_hookd.dialects.base import CANONICAL_TOOLS
    from forge_hookd.guards.base import CANONICAL_TOOLS as JUDGED

    assert JUDGED == frozenset(CANONICAL_TOOLS)


def test_an_mcp_write_into_the_trust_store_is_denied_with_no_hooks_at_all(project: Project) -> None:
    """forge-hook-run's own trust protection (no config) reads an MCP tool's path too."""
    store = project.home / ".local" / "share" / "forge" / "trust.json"
    decision, said = told(claude_call(project, "mcp__filesystem__write_file", {"path": str(store), "content": "{}"}))
    assert decision == "deny" and said is not None and "writes forge's trust records" in said, said
    other = told(claude_call(project, "mcp__filesystem__write_file", {"path": "notes/trust.md", "content": "x"}))
    assert other == (None, None)
