"""Issue 8, end to end through the installed executables: a guard is never switched off
by accident, trust covers what hooks run, hostile files are bounded, hooks see only their
own event, reasons say what happened, block_sudo judges the command."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import SUDO, Project, Run, installed, peak_rss_run, run_installed

BLOCK = {"event": "tool:pre_execute:bash", "command": "echo 'Blocked: no'; exit 1"}
BIN_PATH = f"{Path(sys.executable).parent}:{os.environ['PATH']}"


def fire(project: Project, *args: str, event: dict[str, Any] | None = None, **kw: Any) -> Run:
    return run_installed(list(args), cwd=project.root, stdin=json.dumps(event or SUDO), **kw)


def forge_hook(project: Project, *args: str) -> Run:
    return run_installed(list(args), cwd=project.root, prog="forge-hook")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# -- a typo never switches a guard off in silence ----------------------------------------------
TYPOS = {
    "top-level key": ('{"hook": [%s]}' % json.dumps(BLOCK), "unknown top-level key 'hook' ignored"),
    "no hooks": ("{}", "no 'hooks' list"),
    "pattern": (json.dumps({"hooks": [{**BLOCK, "event": "tool:pre_exec:bash"}]}),
                "hooks[0]: pattern 'tool:pre_exec:bash' can match no event type"),
    "duplicate": ('{"hooks": [{"event": "tool:pre_execute:bash", "command": "exit 1", "command": "exit 0"}]}',
                  "hooks[0]: duplicate key 'command'"),
    "unknown key": (json.dumps({"hooks": [{**BLOCK, "timout": 5}]}), "hooks[0]: unknown key 'timout' ignored"),
    "working_dir": (json.dumps({"hooks": [{**BLOCK, "working_dir": "gone"}]}), "hooks[0]: working_dir 'gone' does not exist"),
    "guard": (json.dumps({"hooks": [{"event": "tool:pre_execute:bash", "guard": "destructve_rm"}]}),
              "hooks[0]: unknown guard 'destructve_rm' (did you mean 'destructive_rm'?)"),
    "guard option": (json.dumps({"hooks": [{"event": "tool:pre_execute:bash", "guard": "destructive_rm",
                                            "with": {"allow_outsde": ["/srv"]}}]}),
                     "hooks[0]: guard destructive_rm: unknown option 'allow_outsde' (did you mean 'allow_outside'?)"),
}


@pytest.mark.parametrize("case", sorted(TYPOS))
def test_a_typo_is_a_warning_an_error_under_strict_and_a_finding(project: Project, case: str) -> None:
    content, message = TYPOS[case]
    path = write(project.global_file, content)
    run = fire(project)
    assert f"forge-hook-run: warning: {path}: {message}" in run.stderr
    assert any(message in w for w in run.json["warnings"])
    strict = fire(project, "--strict")
    assert strict.exit_status == 2 and message in strict.json["error"]["message"]
    check = forge_hook(project, "check")  # check names the hook as list does: global[0]
    assert check.exit_status == 1 and message.replace("hooks[0]", "global[0]") in check.stdout


def test_a_config_file_named_on_purpose_must_exist(project: Project, tmp_path: Path) -> None:
    run = fire(project, "--config", str(tmp_path / "nope.json"))
    assert run.exit_status == 2 and run.json["error"]["kind"] == "invalid_config"
    assert run.stderr == f"forge-hook-run: error: {tmp_path}/nope.json: no such file (named with --config)\n"


# -- trust covers what the hooks run ------------------------------------------------------------
def test_a_changed_script_makes_the_project_untrusted_and_is_named(project: Project) -> None:
    write(project.root / "scripts" / "guard.sh", "echo 'Blocked: guard'; exit 1\n")
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "sh ./scripts/guard.sh"}], trusted=False)
    trusted = forge_hook(project, "trust")
    assert trusted.exit_status == 0
    assert [line.split()[0] for line in trusted.stdout.splitlines()[1:]] == [".forge/hooks.json", "scripts/guard.sh"]
    assert fire(project).exit_status == 1
    write(project.root / "scripts" / "guard.sh", "exit 0\n")  # a git pull
    run = fire(project)  # the guard the user chose does not switch off: forge denies (issue 19)
    assert run.exit_status == 1 and run.json["results"] == [] and run.json["blocked_by"]["source"] == "trust"
    assert "scripts/guard.sh changed since the project was trusted" in run.json["warnings"][0]
    assert "scripts/guard.sh changed" in forge_hook(project, "list").stdout


def test_a_new_file_under_forge_makes_the_project_untrusted(project: Project) -> None:
    project.write_hooks([BLOCK])
    write(project.root / ".forge" / "lib.sh", "x")
    assert ".forge/lib.sh is new" in fire(project).json["warnings"][0]


@pytest.mark.parametrize("link", [".forge", ".forge/hooks.json"])
def test_a_project_linked_into_a_trusted_one_is_not_trusted(project: Project, tmp_path: Path, link: str) -> None:
    project.write_hooks([BLOCK])
    assert fire(project).exit_status == 1
    other = tmp_path / "other"
    (other / ".forge").mkdir(parents=True) if link != ".forge" else other.mkdir()
    (other / link).symlink_to(project.root / link)
    run = run_installed([], cwd=other, stdin=json.dumps(SUDO))
    assert run.exit_status == 0 and run.json["results"] == []
    assert "outside the project root" in run.json["warnings"][0]
    refused = run_installed(["trust"], cwd=other, prog="forge-hook")
    assert refused.exit_status != 0 and "outside the project root" in refused.stderr


@pytest.mark.parametrize("store", ["", "{broken", "dir", '{"version": 1, "trusted": "x"}'])
def test_a_broken_trust_store_costs_the_project_not_the_global_guards(project: Project, store: str) -> None:
    project.write_hooks([{"event": "*", "command": "echo project"}])
    project.write_hooks([BLOCK], where="global")
    path = Path(os.environ["XDG_DATA_HOME"]) / "forge" / "trust.json"
    path.unlink()
    path.mkdir() if store == "dir" else path.write_text(store)
    run = fire(project)
    assert run.exit_status == 1 and run.json["blocked_by"]["source"] == "global"
    assert "did not run" in run.json["warnings"][0]


def test_an_old_trust_record_reads_as_changed(project: Project) -> None:
    project.write_hooks([BLOCK], trusted=False)
    path = Path(os.environ["XDG_DATA_HOME"]) / "forge" / "trust.json"
    write(path, json.dumps({"version": 1, "trusted": {str(project.hooks_file): "0" * 64}}))
    run = fire(project)
    # trusted once (by an older forge-hook): changed, so a blocking event is denied (issue 19)
    assert run.exit_status == 1 and "older forge-hook" in run.json["warnings"][0]


def test_trust_refuses_a_file_that_does_not_parse(project: Project) -> None:
    write(project.hooks_file, '{"hooks": [')
    refused = forge_hook(project, "trust")
    assert refused.exit_status != 0 and "invalid JSON" in refused.stderr and ":1:" in refused.stderr


# -- hostile files are bounded ------------------------------------------------------------------
def bounded_run(project: Project, tmp_path: Path) -> tuple[Run, int]:
    """forge-hook-run under a 1 GiB address-space limit (so that a regression fails here
    rather than taking the shared machine's memory), with its own peak RSS in KiB
    (helpers.peak_rss_run: measured from a fresh small process, not from this one)."""
    (tmp_path / "in").write_text(json.dumps(SUDO))
    status, rss = peak_rss_run([installed("forge-hook-run")], cwd=project.root, stdin=tmp_path / "in",
                               stdout=tmp_path / "out", stderr=tmp_path / "err", address_space=1 << 30)
    return Run(status, (tmp_path / "out").read_text(), (tmp_path / "err").read_text()), rss


@pytest.mark.parametrize("kind", ["/dev/zero", "/dev/urandom", "fifo", "1 GB"])
@pytest.mark.parametrize("where", ["project", "global", "trust"])
def test_a_hostile_file_is_a_warning_in_bounded_time_and_memory(project: Project, tmp_path: Path, kind: str,
                                                                 where: str) -> None:
    project.write_hooks([{"event": "*", "command": "echo project"}])
    path = {"project": project.hooks_file, "global": project.global_file,
            "trust": Path(os.environ["XDG_DATA_HOME"]) / "forge" / "trust.json"}[where]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "1 GB":
        with open(path, "wb") as fh:
            fh.truncate(1 << 30)  # sparse: costs no disk
    else:
        path.symlink_to(kind)
    run, rss = bounded_run(project, tmp_path)
    # A global file that cannot be read holds guards the user chose and lost: the tool
    # call is denied, naming it (issue 30, item 3); the project follows trust.
    assert run.exit_status == (1 if where == "global" else 0), run.stderr
    assert "not read: " in run.stderr and str(path) in run.stderr
    assert rss < 200 * 1024, f"peak RSS {rss} KiB"


# -- variables that belong to another event do not leak ---------------------------------------------
def test_an_inner_event_sees_none_of_the_outer_events_variables(project: Project) -> None:
    project.write_hooks([{"event": "tool:pre_execute", "command": "forge-hook-run --event session:message"},
                         {"event": "session:message", "command": "env | grep ^FORGE_ | sort"}])
    run = fire(project, env={"PATH": BIN_PATH})
    inner = json.loads(run.json["results"][0]["stdout"])["results"][0]["stdout"]
    names = {line.split("=", 1)[0] for line in inner.splitlines()}
    assert "FORGE_EVENT=session:message" in inner
    assert not names & {"FORGE_TOOL_NAME", "FORGE_TOOL_ARGS", "FORGE_SESSION_ID"}


def test_a_hooks_env_cannot_set_an_event_variable(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": 'echo "[$FORGE_SESSION_ID][$FORGE_TOOL_NAME]"',
                          "env": {"FORGE_SESSION_ID": "fake", "FORGE_TOOL_NAME": "fake"}}])
    run = fire(project, event={"type": "user:interrupt"})
    assert run.json["results"][0]["stdout"] == "[][]\n"
    assert "env.FORGE_SESSION_ID is an event variable" in run.stderr


@pytest.mark.parametrize("value", ["tool:pre_execute", "1:tool:pre_execute", "1.1:tool:pre_execute"])
def test_a_stray_chain_variable_skips_no_guard(project: Project, value: str) -> None:
    project.write_hooks([BLOCK])
    run = fire(project, env={"FORGE_HOOK_CHAIN": value})
    assert run.exit_status == 1 and run.json["warnings"] == []


def test_a_decoy_data_key_loses_to_the_conventional_one(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": 'printf %s "$FORGE_TOOL_ARGS"'}])
    event = {**SUDO, "data": {"tool-args": "decoy", "tool_args": {"command": "ls"}}}
    run = fire(project, event=event)
    assert json.loads(run.json["results"][0]["stdout"]) == {"command": "ls"}
    assert "data key 'tool-args' maps to FORGE_TOOL_ARGS" in run.json["warnings"][0]


# -- reasons that say what happened -----------------------------------------------------------------
def test_a_timed_out_hook_is_blocked_for_timing_out(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": "echo starting; exec sleep 300", "timeout": 0.5}])
    run = fire(project)
    assert run.exit_status == 1 and run.json["blocked_by"]["reason"] == "timed out after 0.5s"


def test_the_blocker_is_named_as_forge_hook_list_names_it(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": "true"}], where="global")
    project.write_hooks([{"event": "session:*", "command": "true"}, BLOCK])
    run = fire(project)
    blocked_by = run.json["blocked_by"]
    assert (blocked_by["index"], blocked_by["source"], blocked_by["source_index"]) == (1, "project", 1)
    assert [(r["hook"]["source"], r["hook"]["source_index"]) for r in run.json["results"]] == [
        ("global", 0), ("project", 1)]
    assert run.stderr == "forge-hook-run: blocked by project[1] 'tool:pre_execute:bash': Blocked: no\n"
    listed = forge_hook(project, "list").stdout
    assert re.search(r"^project\[1\]\s+tool:pre_execute:bash", listed, re.M)


# -- block_sudo judges the command ------------------------------------------------------------------
@pytest.mark.parametrize(("command", "blocked"), [
    ("sudo ls", True), ("make && doas make install", True), ("FOO=1 /usr/bin/sudo -i", True),
    ("echo $(pkexec id)", True), ("sudoedit /etc/hosts", True),
    ("echo sudo", False), ("grep sudo auth.log", False), ('git commit -m "drop sudo"', False),
])
def test_block_sudo_template_through_the_executables(project: Project, command: str, blocked: bool) -> None:
    assert forge_hook(project, "add", "--project", "--template", "block_sudo").exit_status == 0
    assert forge_hook(project, "trust").exit_status == 0
    # a session id "sudo" must not count (the old template grepped the whole event)
    event = {**SUDO, "session_id": None if blocked else "sudo", "data": {"tool_args": {"command": command}}}
    assert fire(project, event=event).exit_status == (1 if blocked else 0)
