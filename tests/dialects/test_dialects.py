"""The dialect registry and what every dialect shares (dialects/__init__.py, base.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from forge_hookd import dialects
from forge_hookd.dialects.base import PayloadError, Verdict, replacement_patch
from forge_hookd.events import HookEvent
from forge_hookd.registry import Hook
from forge_hookd.errors import ConfigError
from helpers import TESTS

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

PAYLOADS = TESTS / "dialects" / "payloads"


def payload(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((PAYLOADS / f"{name}.json").read_text())
    return loaded


def raw(obj: dict[str, Any]) -> bytes:
    return orjson.dumps(obj)


def test_registry_names_every_dialect_and_refuses_others() -> None:
    assert dialects.NAMES == ("claude", "codex", "gemini", "cursor", "copilot", "windsurf", "cline",
                              "qwen", "droid", "auggie", "crush", "continue")
    assert [dialects.get(n).name for n in dialects.NAMES] == list(dialects.NAMES)
    with pytest.raises(KeyError):
        dialects.get("opencode")


@pytest.mark.parametrize("name, file", [("claude", "claude_pre_tool_use"), ("codex", "codex_pre_tool_use"),
                                        ("gemini", "gemini_before_tool")])
def test_one_bash_guard_sees_every_agents_shell_as_bash(name: str, file: str) -> None:
    native = payload(file)
    inbound = dialects.get(name).reader.read(raw(native))
    event = inbound.event
    assert event is not None and event.type.value == "tool:pre_execute"
    assert event.tool_name == "bash"
    assert Hook("tool:pre_execute:bash", "true").matches(event)
    assert event.data["tool_args"] == native["tool_input"]
    assert event.data["agent"] == {"name": name, "event": native["hook_event_name"],
                                   "tool": native["tool_name"], "payload": native}
    assert event.session_id == native["session_id"]
    assert inbound.cwd == "/home/u/p"


def test_unknown_native_fields_are_kept_not_refused() -> None:
    native = payload("claude_pre_tool_use")
    event = dialects.get("claude").reader.read(raw(native)).event
    assert event is not None
    assert event.data["agent"]["payload"]["a_field_from_a_future_release"] == {"x": 1}


@pytest.mark.parametrize("name", dialects.NAMES)
@pytest.mark.parametrize("broken, says", [
    (b"{not json", "not valid JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (b'{"session_id": "s"}', "no '(hook_event_name|agent_action_name|hookName)'"),
])
def test_a_payload_that_names_no_event_is_refused(name: str, broken: bytes, says: str) -> None:
    with pytest.raises(PayloadError, match=says) as info:
        dialects.get(name).reader.read(broken)
    assert info.value.native_event is None


@pytest.mark.parametrize("name, event", [("claude", "PreToolUse"), ("codex", "PreToolUse"),
                                         ("gemini", "BeforeTool")])
def test_a_tool_event_without_its_tool_is_refused_naming_the_event(name: str, event: str) -> None:
    with pytest.raises(PayloadError, match="no 'tool_name'") as info:
        dialects.get(name).reader.read(raw({"hook_event_name": event, "tool_input": {}}))
    assert info.value.native_event == event
    with pytest.raises(PayloadError, match="no 'tool_input'"):
        dialects.get(name).reader.read(raw({"hook_event_name": event, "tool_name": "x"}))


def test_a_prompt_submission_needs_its_prompt() -> None:
    with pytest.raises(PayloadError, match="'prompt'"):
        dialects.get("claude").reader.read(raw({"hook_event_name": "UserPromptSubmit", "prompt": 5}))
    event = dialects.get("claude").reader.read(raw(payload("claude_user_prompt_submit"))).event
    assert event is not None and event.type.value == "user:prompt_submit"
    assert event.data["user_input"] == "Write a function to compute factorial"


def test_every_native_event_reads_as_a_forge_event() -> None:
    # issue 21: Stop is agent:stop; any other native event is agent:native, its name the
    # tool name, a future one too (before: event None, no hook ran)
    claude = dialects.get("claude").reader
    stop = claude.read(raw({"hook_event_name": "Stop", "session_id": "s"})).event
    assert stop is not None and stop.type.value == "agent:stop" and stop.session_id == "s"
    for name in ("Setup", "BrandNewEvent"):
        event = claude.read(raw({"hook_event_name": name, "session_id": "s"})).event
        assert event is not None and (event.type.value, event.tool_name) == ("agent:native", name)
        assert event.data["agent"]["event"] == name


def test_mcp_and_unknown_tools_keep_their_native_names() -> None:
    native = {**payload("claude_pre_tool_use"), "tool_name": "mcp__github__create_issue"}
    event = dialects.get("claude").reader.read(raw(native)).event
    assert event is not None and event.tool_name == "mcp__github__create_issue"


@pytest.mark.parametrize("old, new", [
    ({"command": "ls", "timeout": 5}, {"command": "ls -la"}),
    ({"a": {"b": 1, "c": 2}}, {"a": {"b": 1}}),
    ({}, {"x": [1, 2]}),
    ({"x": 1}, {"x": None}),
])
def test_a_whole_replacement_becomes_a_merge_patch_that_yields_it(old: dict[str, Any], new: dict[str, Any]) -> None:
    def merge(target: Any, patch: Any) -> Any:  # RFC 7386, written out here on purpose
        if not isinstance(patch, dict):
            return patch
        out = dict(target) if isinstance(target, dict) else {}
        for key, value in patch.items():
            if value is None:
                out.pop(key, None)
            else:
                out[key] = merge(out.get(key), value)
        return out

    expected = {k: v for k, v in new.items() if v is not None}
    assert merge(old, replacement_patch(old, new)) == expected


@pytest.mark.parametrize("name", dialects.NAMES)
def test_a_broken_payload_is_denied_with_exit_2_and_the_reason_on_stderr(name: str) -> None:
    answer = dialects.get(name).writer.failure(None, "the payload is not valid JSON")
    if name == "cline":  # Cline reads no exit status: only {"cancel": true} stops
        assert orjson.loads(answer.stdout)["cancel"] is True and answer.exit_code == 0
    else:
        assert answer.exit_code == 2 and answer.stdout == b""
    assert "the payload is not valid JSON" in answer.stderr


@pytest.mark.parametrize("name, event", [("claude", "SessionStart"), ("codex", "PostToolUse"),
                                         ("gemini", "AfterTool")])
def test_a_failure_on_an_event_that_cannot_block_proceeds_and_says_why(name: str, event: str) -> None:
    answer = dialects.get(name).writer.failure(event, "boom")
    assert (answer.exit_code, answer.stdout) == (0, b"")
    assert "boom" in answer.stderr and "proceeds" in answer.stderr


def test_hook_format_must_name_a_dialect() -> None:
    assert Hook.from_dict({"event": "*", "command": "x", "format": "claude"}).format == "claude"
    assert Hook.from_dict({"event": "*", "command": "x", "format": "codex"}).to_dict()["format"] == "codex"
    assert "format" not in Hook.from_dict({"event": "*", "command": "x"}).to_dict()
    with pytest.raises(ConfigError, match="'format' must be one of claude, codex, gemini"):
        Hook.from_dict({"event": "*", "command": "x", "format": "Claude"})


@pytest.mark.parametrize("name", dialects.NAMES)
def test_a_format_hook_gets_the_native_payload_verbatim_from_its_own_dialect(name: str) -> None:
    file = {"claude": "claude_pre_tool_use", "codex": "codex_pre_tool_use", "gemini": "gemini_before_tool",
            "cursor": "../../realagents/payloads/cursor/beforeShellExecution",
            "copilot": "../../realagents/payloads/copilot/preToolUse",
            "windsurf": "../../realagents/payloads/windsurf/pre_run_command",
            "cline": "../../realagents/payloads/cline/PreToolUse.cli"}.get(name, f"../../realagents/payloads/{name}/PreToolUse")
    native = payload(file)
    event = dialects.get(name).reader.read(raw(native), "preToolUse" if name == "copilot" else None).event
    assert event is not None
    assert orjson.loads(dialects.get(name).hooks.stdin(event, "/p")) == native


@pytest.mark.parametrize("name, tool", [("claude", "Bash"), ("codex", "Bash"), ("gemini", "run_shell_command")])
def test_a_format_hook_gets_a_payload_built_from_a_forge_event(name: str, tool: str) -> None:
    event = HookEvent.tool_pre_execute("bash", {"command": "ls"}, session_id="s1")
    built = orjson.loads(dialects.get(name).hooks.stdin(event, "/proj"))
    assert built["tool_name"] == tool and built["tool_input"] == {"command": "ls"}
    assert built["cwd"] == "/proj" and built["session_id"] == "s1"
    assert built["hook_event_name"] == {"gemini": "BeforeTool"}.get(name, "PreToolUse")


def test_a_payload_from_another_dialect_is_rebuilt_with_this_agents_names() -> None:
    event = dialects.get("gemini").reader.read(raw(payload("gemini_before_tool"))).event
    assert event is not None
    built = orjson.loads(dialects.get("claude").hooks.stdin(event, "/proj"))
    assert built["hook_event_name"] == "PreToolUse" and built["tool_name"] == "Bash"
    assert built["tool_input"] == {"command": "rm -rf build", "description": "clean"}


def test_verdict_defaults_to_no_decision() -> None:
    assert Verdict().decision is None


RECORDED = TESTS / "realagents" / "payloads"
# Payloads recorded from the real agents; a directory with a README.md holds examples from
# an agent's docs instead (Cursor, Copilot: tests/dialects/test_dialect_cursor.py, _copilot.py).
RECORDED_FILES = sorted(p for p in RECORDED.glob("*/*.json")
                        if p.name != "env.json" and not (p.parent / "README.md").exists())


def test_there_are_recorded_or_documented_payloads_of_every_agent() -> None:
    # vscode: VS Code's agent, read by the claude dialect (tests/dialects/test_dialect_shapes.py)
    assert {p.parent.name for p in RECORDED.glob("*/*.json")} == {*dialects.NAMES, "vscode"}


@pytest.mark.parametrize("path", RECORDED_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_payload_recorded_from_the_real_agents_reads(path: Path) -> None:
    name = path.parent.name
    native = json.loads(path.read_text())
    inbound = dialects.get(name).reader.read(path.read_bytes())
    assert inbound.native_event == native["hook_event_name"]
    expected = dialects.get(name).words.forge_type(native["hook_event_name"])
    assert inbound.event is not None and inbound.event.type.value == expected
    assert inbound.event.session_id == native["session_id"]
    if "tool_name" in native:
        assert inbound.event.tool_name == "bash"  # the harness's model asks for one shell command
    if expected == "user:prompt_submit":
        assert inbound.event.data["user_input"] == native["prompt"]
