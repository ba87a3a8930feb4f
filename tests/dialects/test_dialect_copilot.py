"""GitHub Copilot CLI's protocol (dialects/copilot.py), on the payloads of GitHub's docs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from forge_hookd.dialects import get
from forge_hookd.dialects.base import Inbound, PayloadError, Verdict
from forge_hookd.events import HookEvent
from forge_hookd.registry import Hook
from helpers import TESTS

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

COPILOT = get("copilot")
DOCS = TESTS / "realagents" / "payloads" / "copilot"

#: file -> (native event, forge type or None); camelCase files carry no event name
EXPECTED = {
    "sessionStart": ("sessionStart", "session:start"),
    "sessionEnd": ("sessionEnd", "session:end"),
    "userPromptSubmitted": ("userPromptSubmitted", "user:prompt_submit"),
    "preToolUse": ("preToolUse", "tool:pre_execute"),
    "postToolUse": ("postToolUse", "tool:post_execute"),
    "errorOccurred": ("errorOccurred", "agent:native"),
    "SessionStart.vscode": ("SessionStart", "session:start"),
    "SessionEnd.vscode": ("SessionEnd", "session:end"),
    "UserPromptSubmit.vscode": ("UserPromptSubmit", "user:prompt_submit"),
    "PreToolUse.vscode": ("PreToolUse", "tool:pre_execute"),
    "PostToolUse.vscode": ("PostToolUse", "tool:post_execute"),
    "PostToolUseFailure.vscode": ("PostToolUseFailure", "tool:error"),
}


#: recorded from the real Copilot CLI 1.0.102 (tests/dialects/test_dialect_agents.py runs it)
#: (tests.realagents.record_payloads copilot writes them)
RECORDED = {p.name.removesuffix(".json") for p in DOCS.glob("*.recorded.json")}


def test_every_documented_payload_is_here_in_both_shapes_and_the_real_agents_too() -> None:
    assert {p.name.removesuffix(".json") for p in DOCS.glob("*.json")} == set(EXPECTED) | RECORDED | {"env"}
    assert {"preToolUse.recorded", "permissionRequest.recorded", "PreToolUse.vscode.recorded"} <= RECORDED


@pytest.mark.parametrize("file", sorted(set(EXPECTED) | RECORDED))
def test_every_documented_or_recorded_payload_reads_as_the_right_forge_event(file: str) -> None:
    native_event = file.split(".")[0]
    forge_type = COPILOT.words.forge_type(native_event)
    raw = (DOCS / f"{file}.json").read_bytes()
    # The camelCase shape is told its event by the command line (copilot:EVENT).
    inbound = COPILOT.reader.read(raw, None if ".vscode" in file else native_event)
    assert inbound.native_event == native_event
    assert inbound.cwd == json.loads(raw)["cwd"]
    assert inbound.event is not None and inbound.event.type.value == forge_type
    if "Tool" in native_event:
        assert inbound.event.tool_name == "bash"
        assert Hook("tool:*:bash", "true").matches(inbound.event)


def test_tool_args_arrive_as_a_json_string_or_an_object_and_read_the_same() -> None:
    camel = COPILOT.reader.read((DOCS / "preToolUse.json").read_bytes(), "preToolUse").event
    pascal = COPILOT.reader.read((DOCS / "PreToolUse.vscode.json").read_bytes()).event
    assert camel is not None and pascal is not None
    assert camel.data["tool_args"] == pascal.data["tool_args"] == {
        "command": "rm -rf dist", "description": "Clean build directory"}
    assert pascal.session_id == "b1946ac9-2f6a-4ee1-9d63-2d9e4c0a1f00"


def test_the_real_agent_sends_tool_args_as_an_object_and_claudes_tool_names_in_the_vs_code_shape() -> None:
    camel = COPILOT.reader.read((DOCS / "preToolUse.recorded.json").read_bytes(), "preToolUse").event
    pascal = COPILOT.reader.read((DOCS / "PreToolUse.vscode.recorded.json").read_bytes()).event
    assert camel is not None and pascal is not None
    assert camel.data["tool_args"] == camel.data["agent"]["payload"]["toolArgs"]
    assert set(camel.data["tool_args"]) == set(pascal.data["tool_args"]) >= {"command", "description"}
    assert camel.tool_name == pascal.tool_name == "bash"


def test_a_permission_request_names_itself_and_its_tool_input() -> None:
    inbound = COPILOT.reader.read((DOCS / "permissionRequest.recorded.json").read_bytes())
    assert inbound.native_event == "permissionRequest" and inbound.event is not None
    assert inbound.event.type.value == "permission:prompt" and inbound.event.tool_name == "bash"
    assert inbound.event.data["tool_args"] == inbound.payload["toolInput"]


def test_a_camel_case_payload_without_an_event_on_the_command_line_is_refused() -> None:
    with pytest.raises(PayloadError, match="copilot:preToolUse"):
        COPILOT.reader.read((DOCS / "preToolUse.json").read_bytes())


def test_tool_args_that_are_not_json_are_refused_naming_the_event() -> None:
    with pytest.raises(PayloadError, match="not JSON") as info:
        COPILOT.reader.read(orjson.dumps({"toolName": "bash", "toolArgs": "{oops"}), "preToolUse")
    assert info.value.native_event == "preToolUse"


# -- answers, read back by Copilot's documented rules ------------------------------------
def answer(event: str, verdict: Verdict) -> tuple[dict[str, Any] | None, int, list[str]]:
    native = COPILOT.writer.answer(Inbound("copilot", event, None, {}, None), verdict)
    return (orjson.loads(native.stdout) if native.stdout else None), native.exit_code, native.dropped


def read_back(event: str, verdict: Verdict) -> dict[str, Any]:
    native = COPILOT.writer.answer(Inbound("copilot", event, None, {}, None), verdict)
    return COPILOT.hooks.read_answer(event, native.exit_code, native.stdout.decode(), native.stderr)


def test_no_objection_is_no_output() -> None:
    assert answer("preToolUse", Verdict()) == (None, 0, [])


@pytest.mark.parametrize("decision", ["deny", "ask", "allow"])
def test_pre_tool_use_decisions_are_permission_decision_with_the_reason(decision: str) -> None:
    doc, code, _ = answer("preToolUse", Verdict(decision=decision, reason="why"))
    assert code == 0 and doc == {"permissionDecision": decision, "permissionDecisionReason": "why"}
    assert read_back("preToolUse", Verdict(decision=decision, reason="why")) == {"decision": decision, "reason": "why"}


def test_a_deny_always_has_a_reason_copilot_requires_one() -> None:
    doc = answer("preToolUse", Verdict(decision="deny"))[0]
    assert doc is not None and doc["permissionDecisionReason"]


def test_a_rewrite_is_modified_args_the_whole_new_input() -> None:
    assert answer("preToolUse", Verdict(tool_args={"command": "ls"}))[0] == {"modifiedArgs": {"command": "ls"}}
    assert read_back("preToolUse", Verdict(tool_args={"command": "ls"})) == {"updated_input": {"command": "ls"}}


def test_the_vs_code_shape_gets_the_answer_in_both_forms() -> None:
    doc = answer("PreToolUse", Verdict(decision="deny", reason="no"))[0]
    assert doc is not None and doc["permissionDecision"] == "deny"
    assert doc["hookSpecificOutput"] == {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                         "permissionDecisionReason": "no"}
    assert read_back("PreToolUse", Verdict(decision="deny", reason="no"))["decision"] == "deny"


def test_permission_request_takes_behavior_and_an_ask_is_copilots_own_flow() -> None:
    assert answer("permissionRequest", Verdict(decision="deny", reason="no"))[0] == {"behavior": "deny", "message": "no"}
    assert answer("permissionRequest", Verdict(decision="allow"))[0] == {"behavior": "allow"}
    assert answer("permissionRequest", Verdict(decision="ask"))[0] is None
    assert read_back("permissionRequest", Verdict(decision="deny", reason="no")) == {"decision": "deny", "reason": "no"}


def test_context_where_copilot_reads_it_and_decisions_dropped_where_copilot_ignores_output() -> None:
    assert answer("postToolUseFailure", Verdict(context=["retry with -v"]))[0] == {"additionalContext": "retry with -v"}
    assert read_back("postToolUseFailure", Verdict(context=["c"])) == {"context": "c"}
    for event in ("sessionStart", "postToolUse", "SessionStart", "PostToolUse"):  # 1.0.102 reads it (issue 30)
        doc, code, dropped = answer(event, Verdict(decision="deny", reason="x", context=["c"]))
        assert (doc, code) == ({"additionalContext": "c"}, 0) and len(dropped) == 1
        assert read_back(event, Verdict(context=["c"])) == {"context": "c"}
    assert answer("sessionEnd", Verdict(context=["c"]))[0] is None
    # 1.0.102 reads it on preToolUse too (a native hook's control run: the conformance matrix)
    doc, code, dropped = answer("preToolUse", Verdict(decision="deny", reason="x", context=["c"]))
    assert doc is not None and doc["additionalContext"] == "c" and doc["permissionDecision"] == "deny" and not dropped
    for event in ("userPromptSubmitted", "UserPromptSubmit"):  # 1.0.102 refuses the prompt (research)
        doc, code, dropped = answer(event, Verdict(decision="deny", reason="x", context=["c"]))
        assert (doc, code) == ({"decision": "block", "reason": "x", "additionalContext": "c"}, 0) and not dropped
        assert answer(event, Verdict(context=["c"]))[0] == {"additionalContext": "c"}


def test_a_failure_denies_where_copilot_waits_for_permission_and_on_a_prompt() -> None:
    failed = COPILOT.writer.failure("preToolUse", "boom")
    assert orjson.loads(failed.stdout)["permissionDecision"] == "deny"
    prompt = orjson.loads(COPILOT.writer.failure("userPromptSubmitted", "boom").stdout)  # issue 30 item 7
    assert prompt["decision"] == "block" and "boom" in prompt["reason"]
    assert COPILOT.writer.failure("sessionStart", "boom").stdout == b""
    assert COPILOT.writer.failure(None, "not JSON").exit_code == 2


# -- reading a Copilot-format hook -------------------------------------------------------
def read(event: str, code: int, stdout: str = "", stderr: str = "") -> dict[str, Any]:
    return COPILOT.hooks.read_answer(event, code, stdout, stderr)


def test_exit_2_denies_only_pre_tool_use_and_permission_request() -> None:
    assert read("preToolUse", 2, "", "dangerous") == {"decision": "deny", "reason": "dangerous"}
    assert read("permissionRequest", 2, '{"message": "m"}', "ignored")["reason"] == "m"
    assert "decision" not in read("sessionStart", 2, "", "x")
    assert read("postToolUseFailure", 2, "", "try again") == {"context": "try again"}


def test_other_failures_are_logged_and_skipped_except_where_copilot_denies() -> None:
    # Copilot 1.0.102 (changelog 1.0.57, research): a preToolUse or permissionRequest hook
    # that exits non-zero denies, its JSON unread; elsewhere a failure is skipped.
    assert read("preToolUse", 1, '{"permissionDecision": "allow"}', "crash")["decision"] == "deny"
    assert read("permissionRequest", 3, "", "crash")["decision"] == "deny"
    assert set(read("sessionStart", 1, "", "crash")) == {"message"}


def test_a_format_hook_gets_a_camel_case_payload_as_the_real_agent_sends_it() -> None:
    event = HookEvent.tool_pre_execute("read", {"path": "a.txt"}, session_id="s1")
    built = orjson.loads(COPILOT.hooks.stdin(event, "/proj"))
    assert built["toolName"] == "view" and built["toolArgs"] == {"path": "a.txt"}
    assert built["cwd"] == "/proj" and built["sessionId"] == "s1"
    assert isinstance(built["timestamp"], int) and built["timestamp"] > 10**12  # milliseconds
    recorded = json.loads((DOCS / "env.json").read_text())["added_to_hook_environment"]
    assert set(COPILOT.hooks.env(event, "/proj")) <= set(recorded)


def test_the_settings_snippet_names_the_event_in_each_command() -> None:
    snippet = COPILOT.settings.snippet("forge-hook-run --dialect copilot")
    assert snippet["version"] == 1
    assert snippet["hooks"]["preToolUse"] == [{"type": "command", "bash": "forge-hook-run --dialect copilot:preToolUse",
                                              "timeoutSec": 30}]
    assert all(event[0].islower() for event in snippet["hooks"])

