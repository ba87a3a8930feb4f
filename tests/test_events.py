from __future__ import annotations

import json
from typing import Any, cast

import pytest

from forge_hookd.errors import EventError
from forge_hookd.registry import Hook
from forge_hookd.events import (
    ENV_DATA_BUDGET,
    ENV_VALUE_LIMIT,
    EVENT_TYPES,
    EventType,
    HookEvent,
    env_name,
    sanitize_env_value,
)

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess


def test_the_seeds_sixteen_event_types_and_the_lifecycle_as_strings() -> None:
    assert len(EventType) == 23  # the seed's sixteen and the agent's lifecycle (issue 21)
    assert EventType("tool:pre_execute") is EventType.TOOL_PRE_EXECUTE
    assert str(EventType.USER_INTERRUPT) == "user:interrupt"
    assert cast(str, EventType.SESSION_START) == "session:start"  # a str at run time, whatever mypy infers
    assert EVENT_TYPES == {t.value for t in EventType}


@pytest.mark.parametrize(
    ("event", "type_", "data", "tool"),
    [
        (HookEvent.tool_pre_execute("bash", {"command": "ls"}, "s1"), "tool:pre_execute",
         {"tool_args": {"command": "ls"}}, "bash"),
        (HookEvent.tool_post_execute("bash", {"command": "ls"}, "out"), "tool:post_execute",
         {"tool_args": {"command": "ls"}, "tool_result": "out"}, "bash"),
        (HookEvent.tool_error("bash", {}, "boom"), "tool:error", {"tool_args": {}, "error": "boom"}, "bash"),
        (HookEvent.llm_pre_request("m1"), "llm:pre_request", {"llm_model": "m1"}, None),
        (HookEvent.llm_post_response("m1", 42), "llm:post_response",
         {"llm_model": "m1", "llm_tokens": 42}, None),
        (HookEvent.llm_stream_start("m1"), "llm:stream_start", {"llm_model": "m1"}, None),
        (HookEvent.llm_stream_end("m1", 7), "llm:stream_end", {"llm_model": "m1", "llm_tokens": 7}, None),
        (HookEvent.session_start("s1"), "session:start", {}, None),
        (HookEvent.session_end("s1", 3), "session:end", {"message_count": 3}, None),
        (HookEvent.session_message("s1", 4), "session:message", {"message_count": 4}, None),
        (HookEvent.permission_check("bash", "ask", "bash(*)"), "permission:check",
         {"perm_level": "ask", "perm_rule": "bash(*)"}, "bash"),
        (HookEvent.permission_prompt("bash", "ask"), "permission:prompt", {"perm_level": "ask"}, "bash"),
        (HookEvent.permission_granted("bash"), "permission:granted", {}, "bash"),
        (HookEvent.permission_denied("bash", perm_rule="r"), "permission:denied", {"perm_rule": "r"}, "bash"),
        (HookEvent.user_prompt_submit("hello"), "user:prompt_submit", {"user_input": "hello"}, None),
        (HookEvent.user_interrupt("s1"), "user:interrupt", {}, None),
    ],
)
def test_factories_fill_type_data_and_tool(event: HookEvent, type_: str, data: dict[str, object],
                                           tool: str | None) -> None:
    assert event.type.value == type_
    assert event.data == data
    assert event.tool_name == tool
    assert event.timestamp > 1_600_000_000


def test_to_json_round_trips_through_the_parser() -> None:
    event = HookEvent.tool_pre_execute("bash", {"command": "ls -la"}, "sess_abc123")
    doc = json.loads(event.to_json())
    assert doc == {"type": "tool:pre_execute", "timestamp": event.timestamp,
                   "data": {"tool_args": {"command": "ls -la"}}, "tool_name": "bash",
                   "session_id": "sess_abc123"}
    assert HookEvent.from_json(event.to_json()) == event


def test_to_env_has_the_documented_variables() -> None:
    event = HookEvent(EventType.TOOL_ERROR, timestamp=1763700000.5, tool_name="bash",
                      session_id="s1", data={"tool_args": {"a": [1, 2]}, "error": "bad",
                                             "llm-tokens": 12, "flag": True, "none": None})
    env = event.to_env()
    assert env == {
        "FORGE_EVENT": "tool:error",
        "FORGE_TIMESTAMP": "1763700000.5",
        "FORGE_TOOL_NAME": "bash",
        "FORGE_SESSION_ID": "s1",
        "FORGE_TOOL_ARGS": '{"a":[1,2]}',
        "FORGE_ERROR": "bad",
        "FORGE_LLM_TOKENS": "12",
        "FORGE_FLAG": "true",
        "FORGE_NONE": "null",
    }


def test_to_env_omits_absent_session_and_tool() -> None:
    env = HookEvent.llm_pre_request("m").to_env()
    assert "FORGE_SESSION_ID" not in env and "FORGE_TOOL_NAME" not in env


@pytest.mark.parametrize("key", ["event", "timestamp", "session_id", "tool_name", "working_dir",
                                 "project_dir", "hook_chain", "hook-token"])
def test_data_keys_cannot_overwrite_reserved_variables(key: str) -> None:
    event = HookEvent(EventType.SESSION_START, data={key: "evil"}, session_id="s", tool_name="t")
    env = event.to_env()
    assert "evil" not in env.values()


def test_env_values_are_sanitized() -> None:
    assert sanitize_env_value("a\0b\nc\r\nd\re") == "ab c d e"
    long = sanitize_env_value("x" * 100_000)
    assert len(long) == ENV_VALUE_LIMIT and long.endswith("...[truncated]")
    assert sanitize_env_value("short") == "short"


def test_env_names_are_upper_case_alphanumerics() -> None:
    assert env_name("tool-args.v2") == "FORGE_TOOL_ARGS_V2"


def test_all_data_variables_stay_within_the_budget() -> None:
    data = {f"k{i}": "v" * 5000 for i in range(500)}
    env = HookEvent(EventType.SESSION_START, data=data).to_env()
    total = sum(len(k) + len(v) for k, v in env.items() if k.startswith("FORGE_K"))
    assert 0 < total <= ENV_DATA_BUDGET
    assert "FORGE_K0" in env and "FORGE_K499" not in env


def test_overlong_key_names_are_left_out() -> None:
    env = HookEvent(EventType.SESSION_START, data={"k" * 1000: "v"}).to_env()
    assert set(env) == {"FORGE_EVENT", "FORGE_TIMESTAMP"}


def test_parser_applies_defaults() -> None:
    event = HookEvent.from_json(b'{"type": "session:start"}')
    assert event.data == {} and event.tool_name is None and event.session_id is None
    assert event.timestamp > 1_600_000_000


def test_parser_accepts_integer_timestamp() -> None:
    assert HookEvent.from_json('{"type":"user:interrupt","timestamp":5}').timestamp == 5.0


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "empty input"),
        (b"  \n", "empty input"),
        (b"not json", "invalid event JSON"),
        (b'{"type": "session:start"} {}', "invalid event JSON"),
        (b"\xff\xfe", "invalid event JSON"),
        (b"[1]", "must be a JSON object, not an array"),
        (b'"x"', "not a string"),
        (b"{}", "has no 'type'"),
        (b'{"type": 3}', "'type' must be a string, not a number"),
        (b'{"type": "tool:explode"}', "unknown event type 'tool:explode'"),
        (b'{"type": "tool:pre_execute", "tool": "bash"}', "unknown key 'tool' in event (did you mean 'tool_name'?)"),
        (b'{"type": "session:start", "extra": 1}', "unknown key 'extra'"),
        (b'{"type": "session:start", "timestamp": "now"}', "'timestamp' must be a number"),
        (b'{"type": "session:start", "timestamp": true}', "'timestamp' must be a number"),
        (b'{"type": "session:start", "timestamp": 1e400}', "invalid event JSON"),
        (b'{"type": "session:start", "data": []}', "'data' must be an object"),
        (b'{"type": "session:start", "tool_name": 1}', "'tool_name' must be a string or null"),
        (b'{"type": "session:start", "session_id": {}}', "'session_id' must be a string or null"),
        (b'{"type": "session:start", "data": {"a": "\\ud800"}}', "invalid event JSON"),
    ],
)
def test_parser_refuses_with_a_message_naming_the_problem(raw: bytes, message: str) -> None:
    with pytest.raises(EventError) as exc:
        HookEvent.from_json(raw)
    assert message in str(exc.value)
    assert exc.value.kind == "invalid_event"


def test_to_json_survives_non_json_data_from_library_callers(tmp_path: object) -> None:
    event = HookEvent(EventType.SESSION_START, data={"path": tmp_path, "exc": ValueError("x")})
    assert json.loads(event.to_json())["data"]["exc"] == "x"


def test_to_json_survives_huge_integers_and_lone_surrogates() -> None:
    event = HookEvent(EventType.SESSION_START, data={"big": 2**70, "s": "\ud800"})
    assert json.loads(event.to_json())["data"] == {"big": 2**70, "s": "\ud800"}
    assert event.to_env()["FORGE_BIG"] == str(2**70)


def test_the_constructor_takes_the_wire_string_and_refuses_an_unknown_type() -> None:
    # what an untyped caller (JSON, a user's script) passes: a plain string
    wire: Any = "session:start"
    unknown: Any = "session:begin"
    event = HookEvent(type=wire, timestamp=1.0)
    assert event.type is EventType.SESSION_START
    assert json.loads(event.to_json())["type"] == "session:start"
    assert event.to_env()["FORGE_EVENT"] == "session:start"
    assert Hook("session:*", "true").matches(event)
    with pytest.raises(ValueError, match="unknown event type 'session:begin'"):
        HookEvent(type=unknown)
