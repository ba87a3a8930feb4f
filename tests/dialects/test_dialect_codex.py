"""Codex's protocol (dialects/codex.py). Every answer forge writes must validate against
the output schemas that Codex 0.169.0 itself embeds (tests/realagents/codex_schemas/,
extracted from the released binary: codex-rs/hooks/schema/generated)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import jsonschema
import orjson
import pytest

from helpers import hook_answer
from forge_hookd.dialects import get
from forge_hookd.dialects.base import Inbound, Verdict
from forge_hookd.dialects.codex import invalid_pre_tool_use
from forge_hookd.events import HookEvent
from helpers import TESTS

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

CODEX = get("codex")
SCHEMAS = TESTS / "realagents" / "codex_schemas"
SCHEMA_OF = {"PreToolUse": "pre-tool-use", "PostToolUse": "post-tool-use",
             "UserPromptSubmit": "user-prompt-submit", "SessionStart": "session-start",
             "PermissionRequest": "permission-request", "Interrupt": "interrupt"}

VERDICTS = [
    Verdict(decision=d, reason=r, tool_args=t, context=c, messages=m)
    for d, r, t, c, m in itertools.product(
        [None, "allow", "deny", "ask"], [None, "", "because"], [None, {"command": "ls"}],
        [[], ["ctx"]], [[], ["msg"]])
]


def schema(event: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{SCHEMA_OF[event]}.command.output.schema.json").read_text())
    return loaded


def answer(event: str, verdict: Verdict) -> tuple[dict[str, Any] | None, int]:
    native = CODEX.writer.answer(Inbound("codex", event, None, {}, None), verdict)
    return (orjson.loads(native.stdout) if native.stdout else None), native.exit_code


@pytest.mark.parametrize("event", sorted(SCHEMA_OF))
def test_every_answer_validates_against_codexs_published_schema(event: str) -> None:
    validator = jsonschema.Draft7Validator(schema(event))
    for verdict in VERDICTS:
        doc, code = answer(event, verdict)
        assert code == 0  # Codex reads JSON only on exit 0
        if doc is not None:
            errors = [e.message for e in validator.iter_errors(doc)]
            assert not errors, (verdict, doc, errors)
            if event == "PreToolUse":
                assert invalid_pre_tool_use(doc) is None, (verdict, doc)


def test_the_schemas_are_codexs_own_and_strict() -> None:
    pre = schema("PreToolUse")
    assert pre["title"] == "pre-tool-use.command.output" and pre["additionalProperties"] is False
    validator = jsonschema.Draft7Validator(pre)
    assert list(validator.iter_errors({"hookSpecificOutput": {"hookEventName": "PreToolUse", "x": 1}}))


def test_ask_becomes_a_deny_saying_a_person_must_decide() -> None:
    doc, _ = answer("PreToolUse", Verdict(decision="ask", reason="touches prod"))
    assert doc is not None
    specific = doc["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "a person must decide" in specific["permissionDecisionReason"]
    assert "touches prod" in specific["permissionDecisionReason"]


def test_a_deny_always_has_a_non_empty_reason() -> None:
    for reason in (None, "", "   "):
        doc, _ = answer("PreToolUse", Verdict(decision="deny", reason=reason))
        assert doc is not None and doc["hookSpecificOutput"]["permissionDecisionReason"].strip()


def test_allow_alone_is_dropped_and_a_rewrite_travels_with_allow() -> None:
    native = CODEX.writer.answer(Inbound("codex", "PreToolUse", None, {}, None), Verdict(decision="allow"))
    assert native.stdout == b"" and native.dropped
    doc, _ = answer("PreToolUse", Verdict(tool_args={"command": "ls"}))
    assert doc == {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                          "updatedInput": {"command": "ls"}}}


def test_session_end_gets_no_answer_at_all() -> None:
    native = CODEX.writer.answer(Inbound("codex", "SessionEnd", None, {}, None), Verdict(messages=["bye"]))
    assert native.stdout == b"" and native.dropped


# -- reading a Codex-format hook ---------------------------------------------------------
EVENT = HookEvent.tool_pre_execute("bash", {"command": "rm -rf /"})


def read(code: int, stdout: str = "", stderr: str = "") -> dict[str, Any]:
    return hook_answer(CODEX, EVENT, code, stdout, stderr)


def test_json_is_read_only_on_exit_0_as_codex_does() -> None:
    deny = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", ' \
           '"permissionDecisionReason": "no"}}'
    assert read(0, deny)["decision"] == "deny"
    assert "decision" not in read(1, deny)


def test_exit_2_with_empty_stderr_is_ignored_as_codex_does() -> None:
    assert "decision" not in read(2, "", "")
    assert read(2, "", "no")["decision"] == "deny"


@pytest.mark.parametrize("out", [
    '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}',
    '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}',
    '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}',
    '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "x"}}}',
    '{"decision": "approve"}',
    '{"continue": false}',
])
def test_answers_codex_rejects_are_ignored_as_codex_does(out: str) -> None:
    got = read(0, out)
    assert "decision" not in got and "data" not in got and "ignored" in got["message"]


def test_a_valid_rewrite_carries_no_approval() -> None:
    out = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", ' \
          '"updatedInput": {"command": "echo ok"}}}'
    assert read(0, out) == {"data": {"tool_args": {"command": "echo ok"}}}
