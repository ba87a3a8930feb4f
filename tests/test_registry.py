from __future__ import annotations

import copy
import dataclasses
import pickle
import sys
import threading

import pytest

from forge_hookd.errors import ConfigError
from forge_hookd.events import EventType, HookEvent
from forge_hookd.run.executor import HookExecutor
from forge_hookd.registry import HOOK_KEYS, Hook, HookRegistry, hook_name, pattern_matches, tool_typos, unknown_keys

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

BASH_PRE = HookEvent.tool_pre_execute("bash", {"command": "ls"})
WRITE_PRE = HookEvent.tool_pre_execute("write", {})
BASH_POST = HookEvent.tool_post_execute("bash", {}, "ok")
SESSION = HookEvent.session_start("s")


@pytest.mark.parametrize(
    ("pattern", "event", "expected"),
    [
        ("*", SESSION, True),
        ("tool:pre_execute", BASH_PRE, True),
        ("tool:pre_execute", WRITE_PRE, True),
        ("tool:pre_execute:bash", BASH_PRE, True),
        ("tool:pre_execute:bash", WRITE_PRE, False),
        ("tool:pre_execute:bash", BASH_POST, False),
        ("tool:pre_execute:bash", SESSION, False),
        ("tool:*", BASH_PRE, True),
        ("tool:*", SESSION, False),
        ("tool:*:write", WRITE_PRE, True),
        ("tool:*:write", BASH_PRE, False),
        ("*:bash", BASH_POST, True),
        ("*:bash", SESSION, False),
        ("session:*", SESSION, True),
        ("Tool:*", BASH_PRE, False),
        ("TOOL:PRE_EXECUTE", BASH_PRE, False),
        ("tool:pre_execute:Bash", BASH_PRE, False),
        ("tool:pre_execute:ba?h", BASH_PRE, True),
        ("tool:pre_execute:[bw]*", WRITE_PRE, True),
        ("session:start, tool:error", SESSION, True),
        ("tool:error,session:start", SESSION, True),
        ("tool:error, llm:*", SESSION, False),
    ],
)
def test_matching(pattern: str, event: HookEvent, expected: bool) -> None:
    assert Hook(pattern, "true").matches(event) is expected


def test_exact_tool_pattern_needs_a_tool_name() -> None:
    assert not pattern_matches("session:start:x", "session:start", None)


@pytest.mark.parametrize(("given", "kept"), [(0, 0.1), (-5, 0.1), (10_000, 600.0), (2.5, 2.5),
                                            (float("nan"), 10.0)])
def test_timeout_is_clamped(given: float, kept: float) -> None:
    assert Hook("*", "true", timeout=given).timeout == kept


def test_to_dict_omits_defaults() -> None:
    assert Hook("*", "true").to_dict() == {"event": "*", "command": "true"}
    full = Hook("tool:*", "x", timeout=5, working_dir="sub", env={"A": "1"}, enabled=False,
                detach=True, description="d")
    assert full.to_dict() == {"event": "tool:*", "command": "x", "timeout": 5.0,
                              "working_dir": "sub", "env": {"A": "1"}, "enabled": False,
                              "detach": True, "description": "d"}
    assert Hook.from_dict(full.to_dict()) == full


def test_from_dict_applies_defaults_and_records_the_source() -> None:
    hook = Hook.from_dict({"event": "*", "command": "true"}, source="global")
    assert (hook.timeout, hook.enabled, hook.detach, hook.env, hook.source) == (10.0, True, False, {}, "global")
    assert hook.effective_timeout == 10.0 and "timeout" not in hook.to_dict() and not hook.timeout_set


def test_a_hook_without_a_timeout_reads_the_seeds_ten_and_is_written_back_without_one() -> None:
    """Issue 20, item 13: programs written against the seed read ``Hook.timeout`` as a
    float (10.0); an entry without a timeout stays without one when it is written back.
    (Before: ``Hook.timeout`` was None.)"""
    old_unset = Hook("*", "true", timeout=None)  # type: ignore[arg-type]  # the library's "not set" before
    for hook in (Hook("*", "true"), Hook.from_dict({"event": "*", "command": "true"}), old_unset):
        assert hook.timeout == 10.0 and type(hook.timeout) is float and not hook.timeout_set
        assert hook.to_dict() == {"event": "*", "command": "true"}
        assert Hook.from_dict(hook.to_dict()).to_dict() == hook.to_dict()
    unset = Hook("*", "true")
    # Copies stay unset; a changed timeout is set.
    assert not dataclasses.replace(unset, description="d").timeout_set
    assert not copy.deepcopy(unset).timeout_set and not pickle.loads(pickle.dumps(unset)).timeout_set
    assert dataclasses.replace(unset, timeout=3).to_dict()["timeout"] == 3.0
    assert Hook("*", "true", timeout=10.0).timeout_set and Hook("*", "true", timeout=10).to_dict()["timeout"] == 10.0


def test_the_executors_default_applies_only_to_a_hook_without_a_timeout() -> None:
    executor = HookExecutor(HookRegistry(), default_timeout=0.5)
    assert executor._spec(Hook("*", "x"), {}, b"", frozenset(), {}).timeout == 0.5
    assert executor._spec(Hook.from_dict({"event": "*", "command": "x"}), {}, b"", frozenset(), {}).timeout == 0.5
    assert executor._spec(Hook("*", "x", timeout=10.0), {}, b"", frozenset(), {}).timeout == 10.0


def test_an_explicit_timeout_of_ten_survives_a_round_trip() -> None:
    hook = Hook.from_dict({"event": "*", "command": "true", "timeout": 10})
    assert hook.timeout == 10.0 and hook.to_dict()["timeout"] == 10.0
    assert Hook.from_dict(hook.to_dict()) == hook and Hook.from_dict(hook.to_dict()).timeout == 10.0


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ([], "a hook must be an object"),
        ({"command": "x"}, "missing required key 'event'"),
        ({"event": "*"}, "missing required key 'command'"),
        ({"event": "*", "command": ""}, "'command' must be a non-empty string"),
        ({"event": 3, "command": "x"}, "'event' must be a non-empty string"),
        ({"event": "*", "command": "x", "timeout": "5"}, "'timeout' must be a number"),
        ({"event": "*", "command": "x", "timeout": True}, "'timeout' must be a number"),
        ({"event": "*", "command": "x", "env": []}, "'env' must be an object"),
        ({"event": "*", "command": "x", "env": {"A": 1}}, "'env.A' must be a string"),
        ({"event": "*", "command": "x", "env": {"A=B": "1"}}, "not a valid environment variable"),
        ({"event": "*", "command": "x", "enabled": "yes"}, "'enabled' must be true or false"),
        ({"event": "*", "command": "x", "detach": 1}, "'detach' must be true or false"),
        ({"event": "*", "command": "x", "guard": "destructive_rm"}, "a 'command' or a 'guard', not both"),
        ({"event": "*", "guard": ""}, "'guard' must be a non-empty string"),
        ({"event": "*", "guard": "destructive_rm", "with": []}, "'with' must be an object"),
        ({"event": "*", "command": "x", "with": {}}, "'with' holds a guard's options"),
        ({"event": "*", "command": "x", "working_dir": 1}, "'working_dir' must be a string"),
        ({"event": "*", "command": "echo a\0b"}, "'command' must not contain a NUL byte"),
        ({"event": "*", "command": "x", "working_dir": "a\0"}, "'working_dir' must not contain a NUL byte"),
        ({"event": "*", "comand": "x"}, "'comand' is no key \\(did you mean 'command'\\?\\)"),
        ({"evnt": "*", "command": "x"}, "missing required key 'event'; 'evnt' is no key \\(did you mean 'event'"),
        ({"event": "*", "command": "x", "id": 3}, "'id' must be a string, not int"),
        ({"event": "*", "command": "x", "id": "7"}, "not only digits \\(that reads as an index\\)"),
        ({"event": "*", "command": "x", "id": "a,b"}, "'id' must be up to 100 letters"),
        ({"event": "*", "command": "x", "id": "tool:*"}, "'id' must be up to 100 letters"),
        ({"event": "*", "command": "x", "id": "x" * 101}, "\\(101 characters\\)"),
    ],
)
def test_from_dict_names_what_is_wrong(entry: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Hook.from_dict(entry)


def test_an_id_round_trips_first_and_names_the_hook() -> None:
    hook = Hook.from_dict({"event": "*", "command": "x", "id": "lint-2.a_b"}, source="project", source_index=2)
    assert list(hook.to_dict()) == ["id", "event", "command"] and hook.id == "lint-2.a_b"
    assert hook_name(hook.source, hook.source_index, hook.id) == "project[2] (lint-2.a_b)"
    assert hook_name("global", 0) == "global[0]" and hook_name(None, None, run_index=3) == "hook 3"


def test_unknown_keys_are_named() -> None:
    assert unknown_keys({"event": "*", "command": "x", "timout": 1}) == ["timout"]


@pytest.fixture
def registry() -> HookRegistry:
    return HookRegistry()


def test_registry_returns_enabled_matches_in_registration_order(registry: HookRegistry) -> None:
    a, b, c = Hook("tool:*", "a"), Hook("session:*", "b"), Hook("*", "c")
    registry.load_hooks([a, b])
    registry.register(Hook("*", "disabled", enabled=False))
    registry.register(c)
    assert registry.get_hooks(BASH_PRE) == [a, c]
    assert len(registry) == 4
    assert list(registry)[1] is b


def test_unregister_removes_every_hook_with_the_pattern(registry: HookRegistry) -> None:
    registry.load_hooks([Hook("tool:*", "a"), Hook("tool:*", "b"), Hook("*", "c")])
    assert registry.unregister("tool:*") is True
    assert [h.command for h in registry] == ["c"]
    assert registry.unregister("tool:*") is False
    registry.clear()
    assert len(registry) == 0


def test_singleton(registry: HookRegistry) -> None:
    HookRegistry.reset_instance()
    first = HookRegistry.get_instance()
    assert HookRegistry.get_instance() is first
    HookRegistry.reset_instance()
    assert HookRegistry.get_instance() is not first


def _race_registers_against_two_unregisters() -> int:
    """Hooks lost when 4 threads register while 2 threads keep rebuilding the list."""
    registry = HookRegistry([Hook("session:*", "true") for _ in range(1000)])
    start = threading.Barrier(6)

    def add() -> None:
        start.wait()
        for _ in range(200):
            registry.register(Hook("*", "true"))

    def churn() -> None:
        start.wait()
        while any(adder.is_alive() for adder in adders):
            registry.unregister("absent:*")

    adders = [threading.Thread(target=add) for _ in range(4)]
    threads = [*adders, threading.Thread(target=churn), threading.Thread(target=churn)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return 1000 + 4 * 200 - len(registry)


def test_registry_is_thread_safe() -> None:
    # unregister() copies the list and assigns the copy back: without the lock, two of
    # them overlapping drop whatever was registered on the list one of them replaced. A
    # tiny switch interval makes threads change inside that window: without the lock
    # about 4 rounds in 5 lose hooks (measured), so 20 rounds all but never pass.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        lost = [_race_registers_against_two_unregisters() for _ in range(20)]
    finally:
        sys.setswitchinterval(interval)
    assert lost == [0] * 20


def test_event_type_enum_members_match_as_strings() -> None:
    assert Hook("user:prompt_submit", "x").matches(HookEvent(EventType.USER_PROMPT_SUBMIT))


# -- guard entries (issue 22) --------------------------------------------------------------------
def test_a_guard_entry_loads_without_a_command_and_round_trips() -> None:
    entry = {"event": "tool:pre_execute", "guard": "force_push", "with": {"protected_branches": ["trunk"]}}
    hook = Hook.from_dict(entry)
    assert (hook.guard, hook.with_) == ("force_push", {"protected_branches": ["trunk"]})
    assert hook.to_dict() == entry and Hook.from_dict(hook.to_dict()) == hook
    assert Hook.from_dict({"event": "*", "guard": "destructive_rm"}).to_dict() == {"event": "*",
                                                                                  "guard": "destructive_rm"}


def test_a_guard_hook_has_no_command_and_cannot_be_given_one() -> None:
    """A guard is judged in-process, never run as a shell command: its ``command`` is
    empty, and a hook made in code with both is refused (which would run?)."""
    hook = Hook("tool:pre_execute", guard="destructive_rm")
    assert hook == Hook.from_dict({"event": "tool:pre_execute", "guard": "destructive_rm"})
    assert (hook.command, hook.action) == ("", "guard destructive_rm")
    assert Hook("*", guard="force_push", with_={"protected_branches": ["x"]}).action == \
        'guard force_push with {"protected_branches": ["x"]}'
    with pytest.raises(ValueError, match="a command or a guard, not both"):
        Hook("*", "exit 0", guard="destructive_rm")


def test_the_entry_keys_have_one_owner() -> None:
    assert {"guard", "with"} <= set(HOOK_KEYS)
    assert unknown_keys({"event": "*", "guard": "x", "with": {}}) == []


def test_a_dialect_event_matches_by_the_agents_own_tool_name_too() -> None:
    claude = HookEvent(type=EventType.TOOL_PRE_EXECUTE, tool_name="bash",
                       data={"tool_args": {"command": "ls"}, "agent": {"name": "claude", "tool": "Bash"}})
    assert Hook("tool:pre_execute:Bash", "x").matches(claude) and Hook("tool:pre_execute:bash", "x").matches(claude)
    assert Hook("*:Ba*", "x").matches(claude) and not Hook("tool:pre_execute:Shell", "x").matches(claude)
    assert not Hook("tool:pre_execute:Bash", "x").matches(BASH_PRE)  # a forge event has no native name


@pytest.mark.parametrize(("pattern", "near"), [("tool:pre_execute:bsah", "bash"), ("*:Bahs", "Bash"),
                                               ("tool:*:BASH", "Bash"), ("tool:error:run_shell_comand",
                                                                         "run_shell_command"),
                                               ("tool:pre_execute:git", None), ("tool:*:mcp__x__bsah", None),
                                               ("tool:pre_execute:Grep", None), ("tool:*", None),
                                               ("tool:pre_execute:b*h", None), ("session:start", None)])
def test_tool_typos(pattern: str, near: str | None) -> None:
    found = tool_typos([pattern])
    assert found == ([] if near is None else [found[0]])
    assert near is None or f"(did you mean '{near}'?)" in found[0]


def test_the_seeds_hooks_list_is_the_registry_itself() -> None:
    # programs written against the seed read HookRegistry.hooks (and append to it)
    registry = HookRegistry()
    first, second = Hook("tool:*", "true"), Hook("session:start", "true")
    registry.register(first)
    seen = registry.hooks
    assert seen == [first]
    registry.hooks.append(second)
    assert list(registry) == [first, second] and len(registry) == 2
    assert registry.unregister("tool:*") and seen == [second]  # changed in place, not replaced
    registry.clear()
    assert seen == []
