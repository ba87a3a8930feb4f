"""forge-hook log: real runs of the installed forge-hook-run, read back through the
installed forge-hook (table, JSON lines, filters, --show, --follow, rotated files)."""

from __future__ import annotations

import json
import os
import select
import subprocess
from pathlib import Path
from typing import Any

import pytest

from helpers import ForgeRun, Project, Run, installed, run_installed
from forge_hookd.errors import UsageError
from forge_hookd.log.view import parse_since

BASH = {"type": "tool:pre_execute", "tool_name": "bash", "session_id": "s1",
        "data": {"tool_args": {"command": "git push"}}}


def log(project: Project, *args: str, **kw: Any) -> Run:
    return run_installed(["log", *args], cwd=project.root, prog="forge-hook", **kw)


def json_lines(run: Run) -> list[dict[str, Any]]:
    assert run.exit_status == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


@pytest.fixture
def history(project: Project, forge_run: ForgeRun) -> Project:
    """Four runs: allowed bash (s1), blocked bash (s1), session start (s2), an error."""
    project.write_hooks([{"event": "tool:pre_execute", "command":
                          'case "$FORGE_TOOL_ARGS" in *force*) echo "no force pushing"; exit 1;; esac'}])
    assert forge_run(BASH).exit_status == 0
    assert forge_run({**BASH, "data": {"tool_args": {"command": "git push --force"}}}).exit_status == 1
    assert forge_run({"type": "session:start", "session_id": "s2"}).exit_status == 0
    assert forge_run("{oops").exit_status == 2
    return project


def test_table_shows_time_event_tool_decision_deciding_hook_reason_duration(history: Project) -> None:
    run = log(history)
    assert run.exit_status == 0
    head, *rows = run.stdout.splitlines()
    assert head.split() == ["#", "TIME", "EVENT", "TOOL", "DECISION", "BY", "DURATION", "REASON"]
    assert [r.split()[0] for r in rows] == ["4", "3", "2", "1"]  # 1 is the latest
    blocked = rows[1]
    for part in ("tool:pre_execute", "bash", "deny", "no force pushing", " ms"):
        assert part in blocked
    # which project's hook: its one name and the project (the tail of a long path)
    by = f"project[0] in {history.root}" if len(str(history.root)) <= 40 else f"project[0] in ...{str(history.root)[-37:]}"
    assert by in blocked
    assert "invalid_event" in rows[3] and "error" in rows[3]


@pytest.mark.parametrize(("args", "sessions"), [
    (["--decision", "deny"], ["s1"]),
    (["--event", "tool:*"], ["s1", "s1"]),
    (["--event", "session:start"], ["s2"]),
    (["--tool", "BASH"], ["s1", "s1"]),
    (["--session", "s2"], ["s2"]),
    (["-n", "2"], ["s2", None]),
    (["--since", "1h"], ["s1", "s1", "s2", None]),
    (["--since", "2999-01-01"], []),
    (["--decision", "error"], [None]),
])
def test_filters(history: Project, args: list[str], sessions: list[str | None]) -> None:
    assert [r["event"]["session"] for r in json_lines(log(history, "--json", *args))] == sessions


def test_project_filter_takes_the_directory_and_below(history: Project, tmp_path: Path) -> None:
    assert len(json_lines(log(history, "--json", "--project", str(history.root)))) == 3
    assert json_lines(log(history, "--json", "--project", str(tmp_path / "elsewhere"))) == []
    none = log(history, "--project", str(tmp_path / "elsewhere"))
    assert none.stdout == "" and "no runs logged" in none.stderr


def test_show_prints_one_run_whole(history: Project) -> None:
    run = log(history, "--show", "3")
    rec = json.loads(run.stdout)
    assert rec["decision"] == "deny" and rec["hooks"][0]["stdout"] == "no force pushing\n"
    assert run.stdout.startswith("{\n  ")  # indented, for people
    missing = log(history, "--show", "9")
    assert missing.exit_status == 2 and "no run 9" in missing.stderr


def test_rotated_files_are_read_oldest_first(history: Project) -> None:
    path = history.home / ".local/state/forge/runs.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    Path(f"{path}.2").write_text(lines[0])
    Path(f"{path}.1").write_text(lines[1] + "not json\n")
    path.write_text("".join(lines[2:]))
    assert [r["event"]["session"] for r in json_lines(log(history, "--json"))] == ["s1", "s1", "s2", None]


def test_log_file_and_log_off(history: Project, tmp_path: Path) -> None:
    assert json_lines(log(history, "--json", env={"FORGE_LOG_FILE": str(tmp_path / "none.jsonl")})) == []
    off = log(history, env={"FORGE_LOG": "0"})
    assert off.exit_status == 2 and "the run log is off" in off.stderr


def test_bad_since_is_a_usage_error(history: Project) -> None:
    run = log(history, "--since", "yesterday")
    assert run.exit_status == 2 and "--since takes" in run.stderr


def test_parse_since() -> None:
    assert parse_since("10m", now=1_000_000.0) == "1970-01-12T13:36:40.000Z"
    assert parse_since("2h", now=1_000_000.0) == "1970-01-12T11:46:40.000Z"
    assert parse_since("1d", now=1_000_000.0) == "1970-01-11T13:46:40.000Z"
    assert parse_since("2026-11-22T08:00:00+00:00") == "2026-11-22T08:00:00.000Z"
    with pytest.raises(UsageError):
        parse_since("10 parsecs")


def _read_line(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 60)  # a safety net, not a timing assumption
    assert ready, "forge-hook log --follow printed nothing"
    return dict(json.loads(proc.stdout.readline()))


def test_follow_prints_runs_as_they_come(project: Project, forge_run: ForgeRun) -> None:
    assert forge_run({"type": "session:start", "session_id": "before"}).exit_status == 0
    follower = subprocess.Popen([installed("forge-hook"), "log", "--follow", "--json", "-n", "1"],
                                cwd=project.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=dict(os.environ))
    try:
        assert _read_line(follower)["event"]["session"] == "before"  # it is reading the file now
        assert forge_run({"type": "session:start", "session_id": "after"}).exit_status == 0
        assert _read_line(follower)["event"]["session"] == "after"
        path = project.home / ".local/state/forge/runs.jsonl"
        path.rename(f"{path}.1")  # as a rotation does
        assert forge_run({"type": "session:start", "session_id": "rotated"}).exit_status == 0
        assert _read_line(follower)["event"]["session"] == "rotated"
    finally:
        follower.terminate()
        follower.communicate()


# -- in process (click's CliRunner and the library) -----------------------------------------
def test_log_in_process_through_click(history: Project) -> None:
    from click.testing import CliRunner

    from forge_hookd.cli.manage import forge_hook

    runner = CliRunner()
    table = runner.invoke(forge_hook, ["log", "--event", "tool:*"])
    assert table.exit_code == 0 and len(table.stdout.splitlines()) == 3
    shown = runner.invoke(forge_hook, ["log", "--show", "1", "--decision", "error"])
    assert json.loads(shown.stdout)["error"]["kind"] == "invalid_event"
    assert runner.invoke(forge_hook, ["log", "--show", "5"]).exit_code == 2
    since = runner.invoke(forge_hook, ["log", "--json", "--since", "1d", "--project", str(history.root)])
    assert len(since.stdout.splitlines()) == 3
    none = runner.invoke(forge_hook, ["log", "--session", "nobody"])
    assert none.stdout == "" and "no runs logged" in none.stderr


def test_follow_in_process_reads_history_then_appends_then_a_rotation(tmp_path: Path) -> None:
    from forge_hookd.log.view import Filter, follow

    path = tmp_path / "runs.jsonl"
    path.write_text('{"n": 1}\n{"n": 2}\nbroken\n')
    Path(f"{path}.1").write_text('{"n": 0}\n')
    runs = follow(str(path), Filter(), history=2, poll=0.01)
    assert [next(runs)["n"], next(runs)["n"]] == [1, 2]
    with path.open("a") as fh:
        fh.write('{"n": 3}\n{"n": ')  # a line being written: held until it ends
    assert next(runs)["n"] == 3
    with path.open("a") as fh:
        fh.write('4}\n')
    assert next(runs)["n"] == 4
    path.rename(f"{path}.1")
    path.write_text('{"n": 5}\n')
    assert next(runs)["n"] == 5


def test_follow_waits_for_a_log_that_does_not_exist_yet(tmp_path: Path) -> None:
    from forge_hookd.log.view import Filter, follow

    path = tmp_path / "later.jsonl"
    runs = follow(str(path), Filter(decision="deny"), history=None, poll=0.01)
    path.write_text('{"decision": "allow"}\n{"decision": "deny"}\n')
    assert next(runs) == {"decision": "deny"}


def test_table_rows_for_odd_records() -> None:
    from forge_hookd.log.view import row, table

    rows = [row("1", {}), row("2", {"time": "garbage", "decided_by": 3, "hooks": [{"index": 3}],
                                    "duration": 0.5, "reason": "x " * 100})]
    assert rows[0][1:] == ("-", "-", "-", "-", "-", "-", "")
    assert rows[1][1] == "garbage" and rows[1][5] == "hook 3" and rows[1][6] == "500 ms"
    assert table(rows, 60)[2].endswith("...")


def test_an_agent_event_of_no_type_of_its_own_shows_its_native_name(project: Project, forge_run: ForgeRun) -> None:
    # issue 21: every native event is a forge event, agent:native with the native name as its tool
    payload = {"hook_event_name": "Setup", "session_id": "s9", "cwd": str(project.root)}
    assert forge_run(payload, "--dialect", "claude").exit_status == 0
    [row] = log(project).stdout.splitlines()[1:]
    assert row.split()[3:6] == ["agent:native", "Setup", "allow"]
    [rec] = json_lines(log(project, "--json"))
    assert (rec["event"]["type"], rec["event"]["tool"]) == ("agent:native", "Setup")
    assert rec["event"]["agent"] == {"name": "claude", "event": "Setup", "tool": None}


def test_an_old_record_of_an_untyped_agent_event_still_shows_its_native_name() -> None:
    # records written before agent:native (an agent's event forge had no type for)
    from forge_hookd.log.view import row

    cells = row("1", {"event": {"type": None, "agent": {"name": "claude", "event": "Setup", "tool": None}},
                      "decision": "allow"})
    assert cells[2] == "Setup (claude)" and cells[-1] == "no forge event type: no hook ran"


def test_the_table_writes_control_characters_out(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "*", "command": "printf 'red\\033[31m alert'; exit 1"}])
    assert forge_run({"type": "session:start"}).exit_status == 1
    table = log(project).stdout
    assert "\x1b" not in table and "red\\x1b[31m alert" in table


#: Records no forge-hook-run writes (by hand, another program, a partly written line):
#: each is said, naming it, and the rest is shown (issue 31, item 10).
ODD_RECORDS = [
    {"v": 1, "time": "2026-01-01T00:00:00.000Z", "event": "x", "decision": "allow"},
    {"v": 1, "event": {"type": "tool:pre_execute", "tool": "bash", "session": "s1"}, "hooks": "x",
     "decided_by": 0, "decision": "deny", "reason": "odd hooks"},
    {"v": 1, "event": {"type": "tool:pre_execute", "tool": "bash", "session": "s1"}, "hooks": [1, None],
     "decided_by": 1, "decision": "deny"},
    {"v": 1, "event": {"type": "tool:pre_execute", "tool": "bash", "session": "s1", "data": "x"},
     "decision": "allow", "duration": "slow"},
]


@pytest.fixture
def odd_log(history: Project) -> Project:
    log_file = Path(os.environ["XDG_STATE_HOME"]) / "forge" / "runs.jsonl"
    with log_file.open("a") as fh:
        fh.writelines(json.dumps(rec) + "\n" for rec in ODD_RECORDS)
    return history


def test_records_of_another_shape_are_said_and_the_rest_is_shown(odd_log: Project) -> None:
    run = log(odd_log)
    assert run.exit_status == 0, run.stderr
    rows = {line.split()[0]: line.split() for line in run.stdout.splitlines()[1:]}
    assert len(rows) == 8 and rows["3"][4:] == ["deny", "-", "-", "odd", "hooks"]
    assert rows["4"][3:6] == ["-", "-", "allow"] and rows["1"][2:5] == ["tool:pre_execute", "bash", "allow"]
    assert [line for line in run.stderr.splitlines() if "writes it" in line] == [
        "forge-hook: warning: run 4 is not as forge-hook-run writes it ('event' is a string, not an object): "
        "shown as far as it can be; --show 4 prints it as logged",
        "forge-hook: warning: run 3 is not as forge-hook-run writes it ('hooks' is a string, not a list): "
        "shown as far as it can be; --show 3 prints it as logged",
        "forge-hook: warning: run 2 is not as forge-hook-run writes it ('hooks' holds 2 entries that are not "
        "objects): shown as far as it can be; --show 2 prints it as logged",
        "forge-hook: warning: run 1 is not as forge-hook-run writes it ('duration' is a string, not a number; "
        "'event.data' is a string, not an object): shown as far as it can be; --show 1 prints it as logged"]
    for args, shown in ((["--decision", "deny"], 3), (["--tool", "bash"], 5), (["--event", "tool:*"], 5),
                        (["--session", "s1"], 5), (["--since", "1h"], 4), (["--project", "/"], 3)):
        filtered = log(odd_log, *args)
        assert filtered.exit_status == 0, (args, filtered.stderr)
        assert len(filtered.stdout.splitlines()) == shown + 1, args  # and the header


def test_records_of_another_shape_are_printed_as_logged_as_json(odd_log: Project) -> None:
    assert json_lines(log(odd_log, "--json"))[-4:] == ODD_RECORDS
    shown = log(odd_log, "--show", "4")
    assert shown.exit_status == 0 and json.loads(shown.stdout) == ODD_RECORDS[0]
