"""Claude Code's protocol (dialects/claude.py): answers written, hooks' answers read."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from helpers import hook_answer
from forge_hookd.dialects import get
from forge_hookd.dialects.base import Inbound, Verdict
from forge_hookd.events import HookEvent

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

CLAUDE = get("claude")


def answer(event: str, verdict: Verdict) -> tuple[dict[str, Any] | None, int, list[str]]:
    native = CLAUDE.writer.answer(Inbound("claude", event, None, {}, None), verdict)
    return (orjson.loads(native.stdout) if native.stdout else None), native.exit_code, native.dropped


def test_no_objection_is_no_decision_so_claudes_own_rules_apply() -> None:
    assert answer("PreToolUse", Verdict()) == (None, 0, [])


def test_deny_carries_forges_reason_to_the_model() -> None:
    doc, code, _ = answer("PreToolUse", Verdict(decision="deny", reason="no sudo"))
    assert code == 0
    assert doc == {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                          "permissionDecisionReason": "no sudo"}}


def test_a_deny_without_a_reason_still_says_who_denied() -> None:
    doc, _, _ = answer("PreToolUse", Verdict(decision="deny"))
    assert doc is not None and doc["hookSpecificOutput"]["permissionDecisionReason"]


@pytest.mark.parametrize("decision", ["allow", "ask"])
def test_allow_and_ask_are_claudes_own(decision: str) -> None:
    doc, _, _ = answer("PreToolUse", Verdict(decision=decision, reason="why"))
    assert doc is not None
    assert doc["hookSpecificOutput"]["permissionDecision"] == decision
    assert doc["hookSpecificOutput"]["permissionDecisionReason"] == "why"


def test_a_rewrite_alone_travels_without_a_decision_as_the_whole_input() -> None:
    doc, _, _ = answer("PreToolUse", Verdict(tool_args={"command": "ls --color=never"}))
    assert doc == {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                          "updatedInput": {"command": "ls --color=never"}}}


def test_context_and_messages_go_where_claude_reads_them() -> None:
    doc, _, _ = answer("PreToolUse", Verdict(context=["a", "b"], messages=["hi"]))
    assert doc == {"systemMessage": "hi",
                   "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "a\nb"}}


@pytest.mark.parametrize("event", ["PostToolUse", "UserPromptSubmit", "PostToolUseFailure"])
def test_deny_on_events_with_a_block_decision(event: str) -> None:
    doc, _, _ = answer(event, Verdict(decision="deny", reason="stop"))
    assert doc == {"decision": "block", "reason": "stop"}
    doc, _, _ = answer(event, Verdict(decision="ask", reason="hm"))
    assert doc is not None and doc["decision"] == "block" and "a person must decide" in doc["reason"]


def test_what_an_event_cannot_carry_is_reported_as_dropped() -> None:
    doc, _, dropped = answer("SessionEnd", Verdict(decision="deny", tool_args={}, context=["c"]))
    assert doc is None
    assert len(dropped) == 3


def test_permission_request_answers_allow_and_deny_and_leaves_ask_to_the_person() -> None:
    doc, _, _ = answer("PermissionRequest", Verdict(decision="deny", reason="no"))
    assert doc == {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                          "decision": {"behavior": "deny", "message": "no"}}}
    doc, _, _ = answer("PermissionRequest", Verdict(decision="allow", tool_args={"command": "ls"}))
    assert doc is not None
    assert doc["hookSpecificOutput"]["decision"] == {"behavior": "allow", "updatedInput": {"command": "ls"}}
    assert answer("PermissionRequest", Verdict(decision="ask"))[0] is None


def test_a_failure_on_pre_tool_use_denies_with_the_problem() -> None:
    native = CLAUDE.writer.failure("PreToolUse", "--strict: bad config")
    doc = orjson.loads(native.stdout)
    assert doc["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "--strict: bad config" in doc["hookSpecificOutput"]["permissionDecisionReason"]


# -- reading a Claude-format hook -------------------------------------------------------
EVENT = HookEvent.tool_pre_execute("bash", {"command": "rm -rf /", "timeout": 5})


def read(code: int, stdout: str = "", stderr: str = "", event: HookEvent = EVENT) -> dict[str, Any]:
    return hook_answer(CLAUDE, event, code, stdout, stderr)


def test_exit_2_denies_with_stderr_and_ignores_stdout() -> None:
    assert read(2, '{"decision": "approve"}', "dangerous\n") == {"decision": "deny", "reason": "dangerous"}


def test_exit_1_is_a_non_blocking_error() -> None:
    assert "decision" not in read(1, "", "oops")


def test_json_is_read_on_other_exit_statuses_too_as_claude_does() -> None:
    deny = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", ' \
           '"permissionDecisionReason": "no"}}'
    assert read(1, deny) == {"decision": "deny", "reason": "no"}  # observed: it blocks
    assert read(2, deny, "") == {"decision": "deny", "reason": "no"}
    assert read(2)["decision"] == "deny"  # observed: exit 2 blocks even with nothing said


def test_exit_0_json_decisions() -> None:
    out = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", ' \
          '"permissionDecisionReason": "sure?"}, "systemMessage": "note"}'
    assert read(0, out) == {"decision": "ask", "reason": "sure?", "message": "note"}
    assert read(0, '{"decision": "block", "reason": "legacy"}') == {"decision": "deny", "reason": "legacy"}
    assert read(0, '{"decision": "approve"}') == {"decision": "allow"}
    assert read(0, '{"continue": false, "stopReason": "halt"}') == {"decision": "deny", "reason": "halt"}


def test_updated_input_becomes_a_data_patch_yielding_the_whole_input() -> None:
    out = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", ' \
          '"updatedInput": {"command": "echo safe"}}}'
    assert read(0, out) == {"decision": "allow", "data": {"tool_args": {"command": "echo safe", "timeout": None}}}


def test_plain_stdout_is_context_only_where_claude_makes_it_so() -> None:
    prompt = HookEvent.user_prompt_submit("hi")
    assert read(0, "it is Tuesday\n", event=prompt) == {"context": "it is Tuesday"}
    assert read(0, "verbose noise\n") == {}


def test_the_snippet_hooks_every_mapped_event() -> None:
    snippet = CLAUDE.settings.snippet("forge-hook-run --dialect claude")
    assert set(snippet["hooks"]) == set(CLAUDE.words.events)
    assert snippet["hooks"]["PreToolUse"] == [{"matcher": "*", "hooks": [
        {"type": "command", "command": "forge-hook-run --dialect claude"}]}]
