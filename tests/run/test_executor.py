"""The library executor with real processes: output, env, stdin, timeouts, trees."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from helpers import gone, kill_and_reap, pid_alive, read_pids
from forge_hookd.run import nesting as chain
from forge_hookd.events import EventType, HookEvent
from forge_hookd.run.executor import CHAIN_VAR, HookBlockedError, HookExecutor, HookResult, HookRun, fire_event
from forge_hookd.run.tree import become_subreaper
from forge_hookd.run.signals import SignalCatcher
from forge_hookd.registry import Hook, HookRegistry

EVENT = HookEvent.tool_pre_execute("bash", {"command": "ls -la"}, "sess_1")


@pytest.fixture
def pids(tmp_path: Path) -> Path:
    """A directory where hooks write ``NAME.pid`` files for the test to check."""
    directory = tmp_path / "pids"
    directory.mkdir()
    return directory


@pytest.fixture
def failing_hook() -> Hook:
    return Hook("*", "echo 'Blocked: nope'; echo why >&2; exit 3", description="always fails")


@pytest.fixture
def binary_output_hook() -> Hook:
    return Hook("*", r"printf 'ok \377\376 done'")


def run(hooks: list[Hook], event: HookEvent = EVENT, tmp: Path | None = None, *, grace: float = 0.5,
        stop_on_failure: bool = True, catcher: SignalCatcher | None = None) -> HookRun:
    executor = HookExecutor(HookRegistry(hooks), working_dir=tmp, kill_grace=grace)
    return executor.run(event, stop_on_failure=stop_on_failure, catcher=catcher)


def test_captures_stdout_and_stderr_separately(tmp_path: Path) -> None:
    result = run([Hook("*", "echo out; echo err >&2")], tmp=tmp_path).results[0]
    assert (result.stdout, result.stderr, result.exit_code, result.signal) == ("out\n", "err\n", 0, None)
    assert result.success and result.should_continue and result.error is None
    assert 0 < result.duration < 5


def test_hook_gets_event_json_on_stdin_then_eof(tmp_path: Path) -> None:
    result = run([Hook("*", "cat")], tmp=tmp_path).results[0]
    assert json.loads(result.stdout) == json.loads(EVENT.to_json())


def test_hook_gets_every_documented_variable(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    hook = Hook("*", "env", working_dir="sub", env={"MODE": "strict", "FORGE_EVENT": "faked"})
    env = dict(line.split("=", 1) for line in run([hook], tmp=tmp_path).results[0].stdout.splitlines()
               if "=" in line)
    assert env["FORGE_EVENT"] == "tool:pre_execute"
    assert env["FORGE_TIMESTAMP"] == repr(EVENT.timestamp)
    assert env["FORGE_SESSION_ID"] == "sess_1"
    assert env["FORGE_TOOL_NAME"] == "bash"
    assert json.loads(env["FORGE_TOOL_ARGS"]) == {"command": "ls -la"}
    assert env["FORGE_WORKING_DIR"] == str(sub)
    assert env["FORGE_PROJECT_DIR"] == str(tmp_path)
    assert env["MODE"] == "strict"
    stat = chain._stat(os.getpid())
    assert stat is not None and env[CHAIN_VAR].endswith(f"{os.getpid()}.{stat[1]}:tool:pre_execute=sess_1")
    assert env["FORGE_HOOK_VARS"] == "FORGE_TOOL_ARGS"
    assert env["PWD"] == str(sub) or Path(env.get("PWD", sub)).resolve() == sub


def test_hooks_run_in_the_project_root_by_default(tmp_path: Path) -> None:
    assert run([Hook("*", "pwd")], tmp=tmp_path).results[0].stdout.strip() == str(tmp_path)


def test_missing_working_dir_is_a_failed_result(tmp_path: Path) -> None:
    result = run([Hook("*", "true", working_dir="nope")], tmp=tmp_path).results[0]
    assert result.exit_code is None and not result.success
    assert result.error == f"working directory does not exist: {tmp_path / 'nope'}"


def test_stop_on_failure_skips_the_rest(tmp_path: Path, failing_hook: Hook) -> None:
    outcome = run([Hook("*", "echo first"), failing_hook, Hook("*", "echo third")], tmp=tmp_path)
    assert [r.index for r in outcome.results] == [0, 1]
    assert outcome.skipped == [2]
    assert outcome.blocked_by is outcome.results[1]
    assert outcome.results[1].exit_code == 3
    assert outcome.blocked_by.reason == "Blocked: nope"


def test_keep_going_runs_every_hook(tmp_path: Path, failing_hook: Hook) -> None:
    outcome = run([failing_hook, Hook("*", "echo second")], tmp=tmp_path, stop_on_failure=False)
    assert [r.exit_code for r in outcome.results] == [3, 0]
    assert outcome.skipped == [] and outcome.blocked


def test_a_hook_that_cannot_start_stops_the_chain(tmp_path: Path) -> None:
    outcome = run([Hook("*", "true", working_dir="missing"), Hook("*", "echo never")], tmp=tmp_path)
    assert len(outcome.results) == 1 and outcome.skipped == [1]


def test_a_timeout_is_a_failed_result_ended_by_sigterm(tmp_path: Path) -> None:
    # the whole tree ending is test_guarantees.py's (every kind of descendant); here, the record
    result = run([Hook("*", "sleep 300", timeout=0.5)], tmp=tmp_path).results[0]
    assert result.timed_out and not result.should_continue and not result.success
    assert result.error == "timed out after 0.5s"
    assert (result.exit_code, result.signal) == (-15, "SIGTERM")


def test_a_hook_ignoring_sigterm_is_killed_after_the_grace(tmp_path: Path, pids: Path) -> None:
    hook = Hook("*", f"trap '' TERM; echo $$ > {pids}/sh.pid; sleep 300 & echo $! > {pids}/child.pid; wait",
                timeout=0.3)
    result = run([hook], tmp=tmp_path, grace=0.3).results[0]
    assert result.timed_out and result.signal == "SIGKILL" and result.exit_code == -9
    assert gone(*read_pids(pids).values())


def test_background_child_holding_stdout_does_not_make_us_wait(tmp_path: Path, pids: Path) -> None:
    # waiting for the child's EOF would take 300 s; the run returning at all is the proof
    result = run([Hook("*", f"sleep 300 & echo $! > {pids}/bg.pid; echo done")], tmp=tmp_path).results[0]
    assert result.success and result.stdout == "done\n"
    assert gone(read_pids(pids)["bg"])


def test_detached_hook_leaves_its_background_alone(tmp_path: Path, pids: Path) -> None:
    hook = Hook("*", f"sleep 300 >/dev/null 2>&1 & echo $! > {pids}/bg.pid", detach=True)
    result = run([hook], tmp=tmp_path).results[0]
    bg = read_pids(pids)["bg"]
    try:
        assert result.success and pid_alive(bg)
    finally:
        kill_and_reap(bg)


@pytest.fixture
def subreaper() -> None:
    assert become_subreaper()


@pytest.mark.usefixtures("subreaper")
@pytest.mark.parametrize("spawn", ["setsid sleep 300 & echo $! > {pids}/escapee.pid",
                                   "(sleep 300 & echo $! > {pids}/escapee.pid) ; true",
                                   "(setsid sh -c 'sleep 300 & echo $! > {pids}/escapee.pid' &) ; sleep 0.2"])
def test_setsid_and_double_forked_leftovers_are_ended(tmp_path: Path, pids: Path, spawn: str) -> None:
    result = run([Hook("*", spawn.format(pids=pids) + "; echo ok")], tmp=tmp_path).results[0]
    assert result.success
    assert gone(read_pids(pids)["escapee"])


@pytest.mark.usefixtures("subreaper")
def test_setsid_leftover_of_a_timed_out_hook_is_ended(tmp_path: Path, pids: Path) -> None:
    hook = Hook("*", f"(setsid sleep 300 & echo $! > {pids}/escapee.pid &); sleep 300", timeout=0.5)
    assert run([hook], tmp=tmp_path).results[0].timed_out
    assert gone(read_pids(pids)["escapee"])


def test_output_is_bounded_and_says_so(tmp_path: Path) -> None:
    executor = HookExecutor(HookRegistry([Hook("*", "head -c 5000000 /dev/zero; head -c 300 /dev/zero >&2")]),
                            working_dir=tmp_path, output_limit=1000)
    result = executor.run(EVENT).results[0]
    assert len(result.stdout) == 1000 and result.stdout_truncated
    assert len(result.stderr) == 300 and not result.stderr_truncated
    assert result.success


def test_non_utf8_output_is_replaced(tmp_path: Path, binary_output_hook: Hook) -> None:
    assert run([binary_output_hook], tmp=tmp_path).results[0].stdout == "ok \ufffd\ufffd done"


def test_large_event_reaches_a_hook_that_also_writes_a_lot(tmp_path: Path) -> None:
    event = HookEvent.tool_pre_execute("bash", {"command": "x" * 5_000_000})
    hook = Hook("*", "head -c 3000000 /dev/zero >&2; wc -c")  # writes before it reads
    result = run([hook], event=event, tmp=tmp_path).results[0]
    assert result.success
    assert result.stdout.endswith(f"{len(event.to_json_bytes())}\n")


@pytest.mark.parametrize("command", ["exec 0<&-; echo closed", "echo ignored", "exit 0"])
def test_hook_that_does_not_read_stdin_is_fine(tmp_path: Path, command: str) -> None:
    event = HookEvent.tool_pre_execute("bash", {"command": "y" * 2_000_000})
    assert run([Hook("*", command)], event=event, tmp=tmp_path).results[0].success


def test_no_descriptor_leaks_into_hooks(tmp_path: Path) -> None:
    leaked = open(tmp_path / "f", "w")  # noqa: SIM115 - an fd of ours that must not leak
    try:
        os.set_inheritable(leaked.fileno(), True)
        result = run([Hook("*", "ls /proc/$$/fd")], tmp=tmp_path).results[0]
    finally:
        leaked.close()
    assert sorted(result.stdout.split()) == ["0", "1", "2"]


def test_signal_death_is_named(tmp_path: Path) -> None:
    result = run([Hook("*", "kill -USR1 $$")], tmp=tmp_path).results[0]
    assert (result.exit_code, result.signal) == (-10, "SIGUSR1")


def test_circular_trigger_runs_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pids: Path) -> None:
    parent = chain._stamp(os.getppid())  # as if the process that started us were a run
    monkeypatch.setenv(CHAIN_VAR, f"{parent}:session:start,{parent}:tool:pre_execute=sess_1")
    outcome = run([Hook("*", f"touch {pids}/ran.pid")], tmp=tmp_path)
    assert outcome.results == [] and not outcome.blocked
    assert "circular trigger: 'tool:pre_execute'" in outcome.warnings[0]
    assert not list(pids.iterdir())


@pytest.mark.parametrize("entry", [":tool:pre_execute", ":tool:pre_execute=another", ":tool:pre_execute=sess_",
                                   ":tool:pre_execute=sess_1%00"])
def test_the_same_type_for_another_session_is_guarded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      entry: str) -> None:
    """Issue 20, item 4: another session is another agent (an LLM judge's claude -p)."""
    monkeypatch.setenv(CHAIN_VAR, chain._stamp(os.getppid()) + entry)
    outcome = run([Hook("*", "echo ran")], tmp=tmp_path)
    assert [r.stdout for r in outcome.results] == ["ran\n"] and outcome.warnings == []


@pytest.mark.parametrize(("session", "key"), [(None, ""), ("", ""), ("abc-1_2.3~", "abc-1_2.3~"),
                                              ("a,b=c:d e", "a%2Cb%3Dc%3Ad%20e"), ("\x1b[2J", "%1B%5B2J"),
                                              ("é", "%C3%A9"), ("\ud800", "%ED%A0%80")])
def test_a_session_is_escaped_in_the_chain(session: str | None, key: str) -> None:
    assert chain.session_key(session) == key


def test_the_chain_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 3 MB session id, and a chain deeper than the bound, make a variable of bounded size."""
    long_key = chain.session_key("x" * 3_000_000)
    assert long_key.startswith("sha256-") and len(long_key) == 39
    assert chain.session_key("y" * 3_000_000) != long_key and chain.session_key("x" * 64) == "x" * 64
    parent = chain._stamp(os.getppid())
    monkeypatch.setenv(CHAIN_VAR, ",".join(f"{parent}:session:start={i}" for i in range(500)))
    value = chain.chain_value("tool:pre_execute", "x" * 3_000_000)
    assert value.count(",") == chain.MAX_ENTRIES - 1 and value.endswith(f":tool:pre_execute={long_key}")
    assert len(value) < 64 * 100


def test_recorded_signal_ends_running_hooks_with_partial_results(tmp_path: Path, pids: Path) -> None:
    hooks = [Hook("*", "echo first"), Hook("*", f"sleep 300 & echo $! > {pids}/bg.pid; sleep 300"),
             Hook("*", "echo never")]

    def signal_once_the_second_hook_runs() -> None:
        deadline = time.monotonic() + 60  # bounded so that a hook that never starts fails, not hangs
        while "bg" not in read_pids(pids) and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGTERM)

    with SignalCatcher().installed() as catcher:
        catcher.deferred = True
        signaller = threading.Thread(target=signal_once_the_second_hook_runs)
        signaller.start()
        outcome = HookExecutor(HookRegistry(hooks), working_dir=tmp_path).run(
            EVENT, catcher=catcher)
        signaller.join()
    assert outcome.interrupted == signal.SIGTERM
    assert outcome.to_dict()["interrupted"] == "SIGTERM"
    assert outcome.results[0].success
    assert outcome.results[1].error == "interrupted: the runner received SIGTERM"
    assert outcome.skipped == [2]
    assert gone(read_pids(pids)["bg"])


def test_signal_before_the_run_starts_no_hook(tmp_path: Path, pids: Path) -> None:
    catcher = SignalCatcher()
    catcher.received.append(signal.SIGHUP)
    outcome = run([Hook("*", f"touch {pids}/ran.pid")], tmp=tmp_path, catcher=catcher)
    assert outcome.interrupted == signal.SIGHUP and outcome.skipped == [0]


def test_run_document_shape(tmp_path: Path, failing_hook: Hook) -> None:
    doc = run([Hook("*", "true", source="global"), failing_hook], tmp=tmp_path).to_dict()
    assert doc["version"] == 1 and doc["blocked"] is True
    assert doc["blocked_by"] == {"index": 1, "event": "*", "description": "always fails",
                                 "reason": "Blocked: nope", "source": None, "source_index": None}
    assert doc["results"][0]["hook"] == {"event": "*", "command": "true", "source": "global",
                                         "source_index": None}
    assert set(doc["results"][0]) == {"index", "hook", "exit_code", "signal", "stdout", "stderr",
                                      "stdout_truncated", "stderr_truncated", "duration",
                                      "timed_out", "error", "success", "should_continue",
                                      "decision", "reason", "answer"}
    assert (doc["decision"], doc["reason"], doc["context"], doc["messages"]) == ("deny", "Blocked: nope", [], [])
    assert "data" not in doc  # present only when a hook rewrote it


def test_default_timeout_applies_to_hooks_that_keep_the_default(tmp_path: Path) -> None:
    executor = HookExecutor(HookRegistry([Hook("*", "sleep 300")]), default_timeout=0.2,
                            working_dir=tmp_path)
    result = executor.run(EVENT).results[0]
    assert result.timed_out and result.error == "timed out after 0.2s"


def test_execute_hooks_and_fire_event_are_async(tmp_path: Path, failing_hook: Hook) -> None:
    executor = HookExecutor(HookRegistry([Hook("*", "echo ok")]), working_dir=tmp_path)
    results = asyncio.run(executor.execute_hooks(EVENT))
    assert [r.stdout for r in results] == ["ok\n"]
    assert asyncio.run(fire_event(EVENT, executor=executor))[0].success


def test_fire_event_returns_the_results_and_the_caller_raises_as_the_seed_shows(
        tmp_path: Path, failing_hook: Hook) -> None:
    """The seed's own example: fire_event returns, the caller checks should_continue."""
    blocking = HookExecutor(HookRegistry([failing_hook]), working_dir=tmp_path)

    async def seed_example() -> list[HookResult]:
        results = await fire_event(EVENT, executor=blocking)
        for result in results:
            if not result.should_continue:
                raise HookBlockedError(result)
        return results

    with pytest.raises(HookBlockedError, match="Blocked: nope") as exc:
        asyncio.run(seed_example())
    assert exc.value.result.exit_code == 3


def test_fire_event_without_stop_on_failure_runs_every_hook(tmp_path: Path, failing_hook: Hook) -> None:
    executor = HookExecutor(HookRegistry([failing_hook, Hook("*", "echo after")]), working_dir=tmp_path)
    results = asyncio.run(fire_event(EVENT, executor=executor, stop_on_failure=False))
    assert [r.should_continue for r in results] == [False, True]
    assert results[1].stdout == "after\n"


def test_default_registry_is_the_singleton(tmp_path: Path) -> None:
    HookRegistry.reset_instance()
    HookRegistry.get_instance().register(Hook("session:*", "echo s"))
    try:
        assert HookExecutor(working_dir=tmp_path).run(HookEvent(EventType.SESSION_END)).results[0].stdout == "s\n"
    finally:
        HookRegistry.reset_instance()


def test_execute_hooks_with_jobs_keeps_config_order(tmp_path: Path) -> None:
    # the first finishes only once the second has run: one after another, it times out
    hooks = [Hook("*", f"while [ ! -e {tmp_path}/fast ]; do sleep 0.01; done; echo slow", timeout=60),
             Hook("*", f"touch {tmp_path}/fast; echo fast"), Hook("*", "exit 4")]
    executor = HookExecutor(HookRegistry(hooks), working_dir=tmp_path)
    results = asyncio.run(executor.execute_hooks(EVENT, jobs=3))
    assert [(r.index, r.stdout, r.exit_code) for r in results] == [(0, "slow\n", 0), (1, "fast\n", 0), (2, "", 4)]


def test_lone_surrogates_in_library_events_reach_hooks_replaced(tmp_path: Path) -> None:
    event = HookEvent(EventType.USER_PROMPT_SUBMIT, data={"user_input": "a\ud800b"})
    result = run([Hook("*", 'printf "%s" "$FORGE_USER_INPUT"')], event=event, tmp=tmp_path).results[0]
    assert result.success and result.stdout == "a?b"


def test_a_hook_made_in_code_with_a_nul_byte_fails_to_start(tmp_path: Path) -> None:
    result = run([Hook("*", "echo a\0b")], tmp=tmp_path).results[0]
    assert result.exit_code is None and result.error == "cannot start hook: embedded null byte"


def test_without_pidfd_the_loop_polls_and_still_ends_leftovers(tmp_path: Path, pids: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pidfd(pid: int) -> int:
        raise OSError(38, "Function not implemented")  # kernels before 5.3

    monkeypatch.setattr(os, "pidfd_open", no_pidfd)
    hooks = [Hook("*", f"sleep 300 & echo $! > {pids}/bg.pid; echo done"), Hook("*", "sleep 300", timeout=0.3)]
    first, second = run(hooks, tmp=tmp_path, stop_on_failure=False).results
    assert first.success and first.stdout == "done\n" and second.timed_out
    assert gone(read_pids(pids)["bg"])


def test_the_output_budget_is_shared_by_every_stream_of_the_run(tmp_path: Path) -> None:
    from forge_hookd.run.process import HookProcesses, Spec

    with HookProcesses(output_limit=1000, total_output_limit=2500) as processes:
        for key in range(3):
            spec = Spec(Hook("*", "head -c 5000 /dev/zero; head -c 5000 /dev/zero >&2"), str(tmp_path),
                        dict(os.environb), b"", 10)
            assert processes.start(key, spec) is None
        outcomes = []
        while processes.running:
            outcomes += processes.wait()
    streams = [len(o.stdout) for o in outcomes] + [len(o.stderr) for o in outcomes]
    assert sum(streams) == 2500 and max(streams) == 1000  # the run's budget, each stream's limit
    assert all(o.stdout_truncated and o.stderr_truncated for o in outcomes)

@pytest.mark.parametrize("value", [
    "tool:pre_execute",  # the old format: no process named
    "1:tool:pre_execute",  # a pid without its start time
    "999999999.1:tool:pre_execute",  # no such process
])
def test_a_stray_chain_variable_switches_no_guard_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       value: str) -> None:
    monkeypatch.setenv(CHAIN_VAR, value)
    outcome = run([Hook("*", "echo ran")], tmp=tmp_path)
    assert [r.stdout for r in outcome.results] == ["ran\n"] and outcome.warnings == []


def test_a_chain_entry_of_a_live_process_that_is_not_an_ancestor_does_not_count(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    sibling = subprocess.Popen(["sleep", "300"])
    try:
        monkeypatch.setenv(CHAIN_VAR, f"{chain._stamp(sibling.pid)}:tool:pre_execute")
        assert chain.active_chain() == []
        assert run([Hook("*", "echo ran")], tmp=tmp_path).results[0].stdout == "ran\n"
    finally:
        sibling.kill()
        sibling.wait()


def test_inherited_event_variables_do_not_reach_the_hook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {"FORGE_TOOL_NAME": "bash", "FORGE_TOOL_ARGS": '{"command":"rm -rf /"}',
                        "FORGE_SESSION_ID": "outer", "FORGE_CUSTOM": "outer", "FORGE_HOOK_VARS": "FORGE_CUSTOM",
                        "FORGE_KEEP": "mine"}.items():
        monkeypatch.setenv(name, value)
    event = HookEvent.session_message("inner")
    env = run([Hook("*", "env")], event=event, tmp=tmp_path).results[0].stdout.splitlines()
    forge = sorted(line.split("=", 1)[0] for line in env if line.startswith("FORGE_"))
    assert "FORGE_TOOL_NAME" not in forge and "FORGE_TOOL_ARGS" not in forge and "FORGE_CUSTOM" not in forge
    assert "FORGE_SESSION_ID=inner" in env and "FORGE_KEEP=mine" in env  # the caller's own stay


def test_a_hooks_env_cannot_set_an_event_variable(tmp_path: Path) -> None:
    hook = Hook("*", "env", env={"FORGE_SESSION_ID": "fake", "FORGE_TOOL_NAME": "fake", "FORGE_TOOL_ARGS": "{}",
                                 "FORGE_HOOK_CHAIN": "x", "MODE": "mine"})
    env = run([hook], event=HookEvent.user_interrupt(), tmp=tmp_path).results[0].stdout.splitlines()
    assert not [line for line in env if "fake" in line or line.startswith(("FORGE_TOOL_ARGS", "FORGE_HOOK_CHAIN=x"))]
    assert "MODE=mine" in env


@pytest.mark.parametrize("data", [{"tool-args": "decoy", "tool_args": {"command": "ls"}},
                                  {"tool_args": {"command": "ls"}, "tool-args": "decoy"}])
def test_the_conventional_key_wins_a_shared_variable(tmp_path: Path, data: dict[str, object]) -> None:
    event = HookEvent(EventType.TOOL_PRE_EXECUTE, data=data, tool_name="bash")
    outcome = run([Hook("*", 'printf %s "$FORGE_TOOL_ARGS"')], event=event, tmp=tmp_path)
    assert json.loads(outcome.results[0].stdout) == {"command": "ls"}
    assert outcome.warnings == ["data key 'tool-args' maps to FORGE_TOOL_ARGS like 'tool_args'; "
                                "FORGE_TOOL_ARGS holds 'tool_args'"]


def test_among_unconventional_keys_the_first_wins(tmp_path: Path) -> None:
    event = HookEvent(EventType.SESSION_START, data={"my-key": "first", "my_key": "second"})
    outcome = run([Hook("*", 'printf %s "$FORGE_MY_KEY"')], event=event, tmp=tmp_path)
    assert outcome.results[0].stdout == "first" and "'my_key'" in outcome.warnings[0]


def test_an_explicit_default_timeout_is_kept(tmp_path: Path) -> None:
    executor = HookExecutor(HookRegistry(), default_timeout=0.2, working_dir=tmp_path)
    assert executor._spec(Hook("*", "x", timeout=10), {}, b"", frozenset(), {}).timeout == 10
    assert executor._spec(Hook("*", "x"), {}, b"", frozenset(), {}).timeout == 0.2


def test_the_reason_of_a_timed_out_hook_is_its_error_not_what_it_printed(tmp_path: Path) -> None:
    outcome = run([Hook("*", "echo starting; exec sleep 300", timeout=0.3)], tmp=tmp_path)
    assert outcome.blocked_by is not None and outcome.blocked_by.reason == "timed out after 0.3s"


def test_the_reason_of_a_killed_hook_names_the_signal(tmp_path: Path) -> None:
    outcome = run([Hook("*", "echo partial; kill -KILL $$")], tmp=tmp_path)
    assert outcome.blocked_by is not None and outcome.blocked_by.reason == "killed by SIGKILL"


def test_the_reason_of_a_hook_that_could_not_start_is_its_error(tmp_path: Path) -> None:
    outcome = run([Hook("*", "true", working_dir="missing")], tmp=tmp_path)
    assert outcome.blocked_by is not None and outcome.blocked_by.reason == outcome.blocked_by.error


def test_a_hooks_env_cannot_replace_a_data_variable_of_its_event(tmp_path: Path) -> None:
    event = HookEvent(EventType.SESSION_START, data={"custom": "event"})
    hook = Hook("*", 'printf %s "$FORGE_CUSTOM"', env={"FORGE_CUSTOM": "hook"})
    assert run([hook], event=event, tmp=tmp_path).results[0].stdout == "event"
    assert run([hook], event=HookEvent(EventType.SESSION_START), tmp=tmp_path).results[0].stdout == "hook"
