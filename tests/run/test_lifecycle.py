"""The agent's lifecycle in the forge protocol (DESIGN.md, "Events"; issue 21): the new
types, ``data.stop_count`` and ``FORGE_MAX_CONTINUES``, through the installed executable."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from helpers import Project, Run, run_installed
from forge_hookd.run import stops
from forge_hookd.events import EVENT_TYPES, EventType, HookEvent

LIFECYCLE = ("agent:stop", "agent:subagent_start", "agent:subagent_stop", "session:notification",
             "session:pre_compact", "session:post_compact", "agent:native")


def fire(project: Project, event: dict[str, Any], *args: str, env: dict[str, str] | None = None) -> Run:
    return run_installed([*args], cwd=project.root, stdin=json.dumps(event), env=env)


def test_the_lifecycle_types_join_the_seeds_sixteen() -> None:
    assert set(LIFECYCLE) <= EVENT_TYPES and len(EVENT_TYPES) == 23
    assert EventType("agent:stop") is EventType.AGENT_STOP
    assert HookEvent.agent_native("Setup").tool_name == "Setup"
    assert HookEvent.session_start("s", source="compact").data == {"source": "compact"}
    assert HookEvent.session_notification("needs you", "permission_prompt").data == {
        "message": "needs you", "notification_type": "permission_prompt"}


@pytest.mark.parametrize("event_type", LIFECYCLE)
def test_each_lifecycle_type_is_an_event_hooks_can_ask_for(project: Project, event_type: str) -> None:
    # On main each of these was "unknown event type" (exit 2).
    project.write_hooks([{"event": event_type, "command": 'echo "$FORGE_EVENT"'}])
    run = fire(project, {"type": event_type, "session_id": "s1", "tool_name": "Setup" if event_type == "agent:native"
                         else None})
    assert run.exit_status == 0, run.stderr
    assert run.json["results"][0]["stdout"] == f"{event_type}\n"


def test_agent_native_is_matched_by_its_native_name_as_a_tool(project: Project) -> None:
    project.write_hooks([{"event": "agent:native:Setup", "command": "echo setup"},
                         {"event": "agent:native:*", "command": "echo any"}])
    run = fire(project, {"type": "agent:native", "tool_name": "Setup"})
    assert [r["stdout"] for r in run.json["results"]] == ["setup\n", "any\n"]
    other = fire(project, {"type": "agent:native", "tool_name": "CwdChanged"})
    assert [r["stdout"] for r in other.json["results"]] == ["any\n"]


def test_forge_hook_events_lists_every_native_event_of_an_agent(project: Project) -> None:
    done = run_installed(["events", "--agent", "claude", "--json"], cwd=project.root, prog="forge-hook")
    listed = {e["event"]: e["forge"] for e in json.loads(done.stdout)}
    assert listed["Stop"] == "agent:stop" and listed["Setup"] == "agent:native:Setup" and len(listed) == 33
    text = run_installed(["events", "--agent", "gemini"], cwd=project.root, prog="forge-hook").stdout
    assert "AfterAgent" in text and "agent:stop" in text and "BeforeToolSelection  agent:native" in text
    bad = run_installed(["events", "--agent", "vim"], cwd=project.root, prog="forge-hook")
    assert bad.exit_status == 2 and "--agent takes one of" in bad.stderr


def test_observe_only_events_keep_the_native_exit_statuses(project: Project) -> None:
    # A deny still exits 1; the caller knows a notification cannot be blocked.
    project.write_hooks([{"event": "session:notification", "command": "exit 1"}])
    run = fire(project, {"type": "session:notification", "data": {"message": "m"}})
    assert run.exit_status == 1 and run.json["decision"] == "deny"


# -- the stop count ------------------------------------------------------------------------
REFUSE = {"event": "agent:stop", "command": 'echo "count $FORGE_STOP_COUNT" >&2; echo run the tests first; exit 1'}


def stop(project: Project, session: str = "s1", env: dict[str, str] | None = None) -> Run:
    return fire(project, {"type": "agent:stop", "session_id": session}, env=env)


def test_a_refusing_stop_hook_is_obeyed_max_continues_times_in_a_row_then_the_agent_stops(project: Project) -> None:
    project.write_hooks([REFUSE])
    runs = [stop(project) for _ in range(7)]
    assert [r.exit_status for r in runs] == [1, 1, 1, 1, 1, 0, 1]
    # data.stop_count: how many times in a row this session's stop was refused already
    assert [r.json["event"]["data"]["stop_count"] for r in runs] == [0, 1, 2, 3, 4, 5, 0]
    assert [r.json["results"][0]["stderr"] for r in runs[:2]] == ["count 0\n", "count 1\n"]
    let_stop = runs[5].json
    assert let_stop["decision"] == "allow" and let_stop["results"][0]["decision"] == "deny"  # ran, recorded
    said = [w for w in let_stop["warnings"] if "forge let the agent stop" in w]
    assert said and "refused 5 times in a row (FORGE_MAX_CONTINUES=5)" in said[0] and "run the tests first" in said[0]
    assert "project[0] 'agent:stop' still refuses" in said[0]  # named as everywhere (issue 23)
    assert said[0] in let_stop["messages"]


def test_the_count_is_per_session_and_a_stop_let_through_starts_it_again(project: Project, tmp_path: Path) -> None:
    flag = tmp_path / "refuse"
    project.write_hooks([{"event": "agent:stop", "command": f"test -e {flag} && exit 1; exit 0"}])
    flag.touch()
    assert [stop(project, "a").exit_status for _ in range(3)] == [1, 1, 1]
    assert stop(project, "b").json["event"]["data"]["stop_count"] == 0  # another session
    flag.unlink()
    assert stop(project, "a").exit_status == 0  # let through: the count starts again
    flag.touch()
    assert stop(project, "a").json["event"]["data"]["stop_count"] == 0


def test_forge_max_continues_and_a_hooks_max_continues_lower_the_bound(project: Project) -> None:
    project.write_hooks([REFUSE])
    env = {"FORGE_MAX_CONTINUES": "2"}
    assert [stop(project, "x", env).exit_status for _ in range(3)] == [1, 1, 0]
    assert [stop(project, "y", {"FORGE_MAX_CONTINUES": "0"}).exit_status for _ in range(2)] == [0, 0]
    project.write_hooks([{**REFUSE, "max_continues": 1}])
    assert [stop(project, "z").exit_status for _ in range(3)] == [1, 0, 1]


def test_a_caller_cannot_set_the_count(project: Project) -> None:
    project.write_hooks([REFUSE])
    for _ in range(5):
        stop(project)
    faked = fire(project, {"type": "agent:stop", "session_id": "s1", "data": {"stop_count": 0}})
    assert faked.exit_status == 0 and faked.json["event"]["data"]["stop_count"] == 5


def test_a_bad_forge_max_continues_is_a_warning_and_the_default_applies(project: Project) -> None:
    project.write_hooks([REFUSE])
    run = stop(project, env={"FORGE_MAX_CONTINUES": "lots"})
    assert run.exit_status == 1 and any("FORGE_MAX_CONTINUES='lots'" in w for w in run.json["warnings"])


def test_subagent_stops_count_per_subagent(project: Project) -> None:
    project.write_hooks([{"event": "agent:subagent_stop", "command": "exit 1"}])
    env = {"FORGE_MAX_CONTINUES": "1"}
    def sub(agent_id: str) -> int:
        return fire(project, {"type": "agent:subagent_stop", "session_id": "s", "data": {"agent_id": agent_id}},
                    env=env).exit_status
    assert [sub("one"), sub("two"), sub("one"), sub("two")] == [1, 1, 0, 0]


def test_a_count_forge_cannot_keep_never_keeps_the_agent_working(project: Project, tmp_path: Path) -> None:
    # A state directory that cannot be written: forge's own failure, which never traps an
    # agent in a loop (DESIGN, "Events").
    state = tmp_path / "state-file"
    state.write_text("not a directory")
    project.write_hooks([REFUSE])
    run = stop(project, env={"XDG_STATE_HOME": str(state)})
    assert run.exit_status == 0 and run.json["results"][0]["decision"] == "deny"
    assert any("cannot keep the count" in w for w in run.json["warnings"])


def test_the_counts_are_bounded_and_cleaned(project: Project, isolated_home: Path) -> None:
    # 1000 sessions' refused stops keep at most stops.MAX_FILES files, and a count older
    # than stops.MAX_AGE is not read and goes.
    directory = Path(stops.state_dir())
    directory.mkdir(parents=True)
    for n in range(1000):
        (directory / f"{n:040x}").write_text("3\n")
    old = Path(stops.count_file(HookEvent.agent_stop("stale")))
    old.write_text("4\n")
    os.utime(old, (1, 1))
    project.write_hooks([{"event": "agent:stop", "command": "exit 1"}])
    assert stop(project, "stale").json["event"]["data"]["stop_count"] == 0  # too old to count
    assert stop(project, "fresh").exit_status == 1
    files = list(directory.iterdir())
    assert len(files) <= stops.MAX_FILES
