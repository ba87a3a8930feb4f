"""Cursor's protocol (dialects/cursor.py), on the payloads of Cursor's docs."""

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

CURSOR = get("cursor")
DOCS = TESTS / "realagents" / "payloads" / "cursor"

#: every Cursor event the issue names: forge type, canonical tool
EXPECTED = {
    "preToolUse": ("tool:pre_execute", "bash"),
    "beforeShellExecution": ("tool:pre_execute", "bash"),
    "beforeMCPExecution": ("tool:pre_execute", "MCP:database_query"),
    "beforeReadFile": ("tool:pre_execute", "read"),
    "postToolUse": ("tool:post_execute", "bash"),
    "afterShellExecution": ("tool:post_execute", "bash"),
    "afterFileEdit": ("tool:post_execute", "write"),
    "postToolUseFailure": ("tool:error", "bash"),
    "beforeSubmitPrompt": ("user:prompt_submit", None),
    "sessionStart": ("session:start", None),
    "sessionEnd": ("session:end", None),
    "afterAgentResponse": ("llm:post_response", None),
}


def doc(event: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DOCS / f"{event}.json").read_text())
    return loaded


def test_every_documented_event_has_a_payload() -> None:
    assert {p.stem for p in DOCS.glob("*.json")} == set(EXPECTED)


@pytest.mark.parametrize("native_event", sorted(EXPECTED))
def test_every_documented_payload_reads_as_the_right_forge_event(native_event: str) -> None:
    forge_type, tool = EXPECTED[native_event]
    inbound = CURSOR.reader.read((DOCS / f"{native_event}.json").read_bytes())
    assert inbound.native_event == native_event and inbound.event is not None
    assert inbound.event.type.value == forge_type and inbound.event.tool_name == tool
    assert inbound.cwd == "/project"  # the workspace root, whatever the event
    assert inbound.event.data["agent"]["payload"] == doc(native_event)


def test_a_shell_command_is_bash_with_command_and_cwd_whichever_event_carries_it() -> None:
    shell = CURSOR.reader.read((DOCS / "beforeShellExecution.json").read_bytes()).event
    generic = CURSOR.reader.read((DOCS / "preToolUse.json").read_bytes()).event
    assert shell is not None and generic is not None
    assert shell.data["tool_args"] == {"command": "npm install express", "cwd": "/project"}
    assert generic.data["tool_args"]["command"] == "npm install"
    assert all(Hook("tool:pre_execute:bash", "true").matches(e) for e in (shell, generic))


def test_mcp_input_and_results_arrive_as_json_strings_and_are_decoded() -> None:
    event = CURSOR.reader.read((DOCS / "beforeMCPExecution.json").read_bytes()).event
    assert event is not None and event.data["tool_args"] == {"query": "SELECT * FROM users"}
    assert Hook("tool:pre_execute:MCP:*", "true").matches(event)


def test_results_errors_prompts_and_responses_land_in_forge_data() -> None:
    def data(event: str) -> dict[str, Any]:
        read = CURSOR.reader.read((DOCS / f"{event}.json").read_bytes()).event
        assert read is not None
        return read.data

    assert data("postToolUse")["tool_result"] == "All tests passed"
    assert data("afterShellExecution")["tool_result"] == "added 64 packages in 2s"
    assert data("postToolUseFailure")["error"] == "Command timed out after 30s"
    assert data("beforeSubmitPrompt")["user_input"] == "Fix the bug in main.ts"
    assert data("afterAgentResponse")["llm_response"] == "I fixed the bug in main.ts."


def test_a_shell_event_without_its_command_is_refused_naming_the_event() -> None:
    with pytest.raises(PayloadError, match="no 'command'") as info:
        CURSOR.reader.read(orjson.dumps({"hook_event_name": "beforeShellExecution", "cwd": "/p"}))
    assert info.value.native_event == "beforeShellExecution"


# -- answers, read back by Cursor's documented rules -------------------------------------
def answer(event: str, verdict: Verdict) -> tuple[dict[str, Any] | None, int, list[str]]:
    native = CURSOR.writer.answer(Inbound("cursor", event, None, {}, None), verdict)
    return (orjson.loads(native.stdout) if native.stdout else None), native.exit_code, native.dropped


def read_back(event: str, verdict: Verdict) -> dict[str, Any]:
    native = CURSOR.writer.answer(Inbound("cursor", event, None, {}, None), verdict)
    return CURSOR.hooks.read_answer(event, native.exit_code, native.stdout.decode(), native.stderr)


def test_no_objection_is_no_output() -> None:
    assert answer("beforeShellExecution", Verdict()) == (None, 0, [])


@pytest.mark.parametrize("event", ["preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile"])
def test_a_deny_is_permission_deny_with_the_reason_for_the_person_and_the_agent(event: str) -> None:
    doc_, code, _ = answer(event, Verdict(decision="deny", reason="no prod"))
    assert code == 0 and doc_ == {"permission": "deny", "user_message": "no prod", "agent_message": "no prod"}
    assert read_back(event, Verdict(decision="deny", reason="no prod")) == {"decision": "deny", "reason": "no prod"}


@pytest.mark.parametrize("event", ["beforeShellExecution", "beforeMCPExecution"])
def test_ask_is_carried_where_cursor_enforces_it(event: str) -> None:
    assert answer(event, Verdict(decision="ask", reason="sure?"))[0] == {
        "permission": "ask", "user_message": "sure?", "agent_message": "sure?"}
    assert read_back(event, Verdict(decision="ask", reason="sure?"))["decision"] == "ask"


@pytest.mark.parametrize("event", ["preToolUse", "beforeReadFile"])
def test_ask_where_cursor_does_not_enforce_it_is_a_deny_saying_a_person_must_decide(event: str) -> None:
    doc_ = answer(event, Verdict(decision="ask", reason="prod db"))[0]
    assert doc_ is not None and doc_["permission"] == "deny"
    assert doc_["agent_message"].startswith("a person must decide") and "prod db" in doc_["agent_message"]
    assert read_back(event, Verdict(decision="ask"))["decision"] == "deny"


def test_a_rewrite_is_the_whole_updated_input_of_an_allowed_pre_tool_use() -> None:
    doc_ = answer("preToolUse", Verdict(tool_args={"command": "npm ci"}))[0]
    assert doc_ == {"permission": "allow", "updated_input": {"command": "npm ci"}}
    assert read_back("preToolUse", Verdict(tool_args={"command": "npm ci"}))["updated_input"] == {"command": "npm ci"}
    doc_, _, dropped = answer("beforeShellExecution", Verdict(tool_args={"command": "npm ci"}))
    assert doc_ is None and "rewritten tool_args" in dropped[0]


@pytest.mark.parametrize("event", ["beforeSubmitPrompt", "sessionStart"])
def test_a_prompt_or_session_is_stopped_with_continue_false(event: str) -> None:
    assert answer(event, Verdict(decision="deny", reason="secret in prompt"))[0] == {
        "continue": False, "user_message": "secret in prompt"}
    doc_ = answer(event, Verdict(decision="ask"))[0]
    assert doc_ is not None and doc_["continue"] is False and "a person must decide" in doc_["user_message"]
    assert read_back(event, Verdict(decision="deny", reason="x")) == {"decision": "deny", "reason": "x"}


def test_context_on_session_start_and_post_tool_use_and_dropped_elsewhere() -> None:
    assert answer("sessionStart", Verdict(context=["use pnpm"]))[0] == {"additional_context": "use pnpm"}
    assert read_back("postToolUse", Verdict(context=["c"])) == {"context": "c"}
    doc_, _, dropped = answer("beforeSubmitPrompt", Verdict(context=["c"]))
    assert doc_ is None and dropped == ["context: Cursor reads no additional context on beforeSubmitPrompt"]


@pytest.mark.parametrize("event", ["afterShellExecution", "afterFileEdit", "postToolUseFailure", "sessionEnd",
                                   "afterAgentResponse"])
def test_a_deny_after_the_fact_is_dropped_and_said(event: str) -> None:
    doc_, code, dropped = answer(event, Verdict(decision="deny", reason="x"))
    assert (doc_, code) == (None, 0) and dropped == [f"decision deny: {event} cannot be blocked"]


def test_a_broken_payload_is_blocked_with_exit_2() -> None:
    failed = CURSOR.writer.failure(None, "not JSON")
    assert failed.exit_code == 2 and "not JSON" in failed.stderr
    failed = CURSOR.writer.failure("beforeShellExecution", "boom")
    assert failed.exit_code == 0 and orjson.loads(failed.stdout)["permission"] == "deny"
    assert CURSOR.writer.failure("afterFileEdit", "boom").exit_code == 0


# -- reading a Cursor-format hook --------------------------------------------------------
def read(event: str, code: int, stdout: str = "", stderr: str = "") -> dict[str, Any]:
    return CURSOR.hooks.read_answer(event, code, stdout, stderr)


def test_exit_2_blocks_with_stderr_as_the_reason() -> None:
    assert read("beforeShellExecution", 2, "", "no git\n") == {"decision": "deny", "reason": "no git"}


def test_other_failures_fail_open_unless_the_hook_says_fail_closed() -> None:
    # Cursor's current reference: a crash, a timeout or invalid JSON fails open unless the
    # entry says failClosed (forge's fail_closed); no event fails closed by itself.
    for event in ("beforeShellExecution", "beforeMCPExecution", "beforeReadFile"):
        assert "decision" not in read(event, 1, "", "crash")
        assert read(event, 0, "not json") == {}


def test_the_older_decision_form_and_camel_case_messages_are_read() -> None:
    assert read("preToolUse", 0, '{"decision": "deny", "reason": "r"}') == {"decision": "deny", "reason": "r"}
    assert read("beforeShellExecution", 0, '{"permission": "deny", "agentMessage": "a"}') == {
        "decision": "deny", "reason": "a"}


def test_a_format_hook_gets_the_specific_event_built_from_a_forge_event() -> None:
    event = HookEvent.tool_pre_execute("bash", {"command": "git push"}, session_id="s1")
    built = orjson.loads(CURSOR.hooks.stdin(event, "/proj"))
    assert built["hook_event_name"] == "beforeShellExecution"
    assert built["command"] == "git push" and built["cwd"] == "/proj" and built["workspace_roots"] == ["/proj"]
    assert built["tool_name"] == "Shell" and built["tool_input"] == {"command": "git push"}
    assert CURSOR.hooks.env(event, "/proj")["CURSOR_PROJECT_DIR"] == "/proj"
    other = HookEvent.tool_pre_execute("web_fetch", {"url": "u"})
    assert orjson.loads(CURSOR.hooks.stdin(other, "/proj"))["hook_event_name"] == "preToolUse"


def test_the_settings_snippet_names_every_event() -> None:
    snippet = CURSOR.settings.snippet("forge-hook-run --dialect cursor")
    assert snippet["version"] == 1
    assert set(EXPECTED) <= set(snippet["hooks"])
    assert snippet["hooks"]["preToolUse"] == [{"command": "forge-hook-run --dialect cursor"}]
