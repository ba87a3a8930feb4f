"""Gemini CLI's protocol (dialects/gemini.py)."""

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

GEMINI = get("gemini")


def answer(event: str, verdict: Verdict) -> tuple[dict[str, Any] | None, int, list[str]]:
    native = GEMINI.writer.answer(Inbound("gemini", event, None, {}, None), verdict)
    return (orjson.loads(native.stdout) if native.stdout else None), native.exit_code, native.dropped


def test_no_objection_is_no_output() -> None:
    assert answer("BeforeTool", Verdict()) == (None, 0, [])


def test_deny_ask_allow_on_before_tool() -> None:
    assert answer("BeforeTool", Verdict(decision="deny", reason="no"))[0] == {"decision": "deny", "reason": "no"}
    doc = answer("BeforeTool", Verdict(decision="ask", reason="sure?"))[0]  # gemini -p hangs on an ask (issue 30)
    assert doc == {"decision": "deny", "reason": "a person must decide (this agent cannot ask here): sure?"}
    assert answer("BeforeTool", Verdict(decision="allow"))[0] == {"decision": "allow"}


def test_a_rewrite_is_the_whole_tool_input() -> None:
    doc = answer("BeforeTool", Verdict(tool_args={"command": "ls"}))[0]
    assert doc == {"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {"command": "ls"}}}


def test_ask_on_a_prompt_is_a_deny_saying_a_person_must_decide() -> None:
    doc = answer("BeforeAgent", Verdict(decision="ask", reason="hm"))[0]
    assert doc is not None and doc["decision"] == "deny" and "a person must decide" in doc["reason"]


def test_context_where_gemini_reads_it_and_dropped_where_not() -> None:
    doc = answer("BeforeAgent", Verdict(context=["ctx"]))[0]
    assert doc == {"hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": "ctx"}}
    doc, _, dropped = answer("BeforeTool", Verdict(context=["ctx"]))
    assert doc is None and dropped


def test_model_events_carry_the_model() -> None:
    native = {"hook_event_name": "BeforeModel", "session_id": "s", "cwd": "/p",
              "llm_request": {"model": "gemini-3-pro", "messages": []}}
    event = GEMINI.reader.read(orjson.dumps(native)).event
    assert event is not None and event.type.value == "llm:pre_request"
    assert event.data["llm_model"] == "gemini-3-pro"


# -- reading a Gemini-format hook --------------------------------------------------------
EVENT = HookEvent.tool_pre_execute("bash", {"command": "rm -rf /", "dir_path": "."})


def read(code: int, stdout: str = "", stderr: str = "") -> dict[str, Any]:
    return hook_answer(GEMINI, EVENT, code, stdout, stderr)


def test_json_is_read_whatever_the_exit_status() -> None:
    assert read(1, '{"decision": "block", "reason": "x"}') == {"decision": "deny", "reason": "x"}
    assert read(0, '{"decision": "ask"}') == {"decision": "ask"}
    assert read(0, "", '{"decision": "deny", "reason": "from stderr"}')["decision"] == "deny"


@pytest.mark.parametrize("code, expected", [(0, {"message": "t"}), (1, {"message": "Warning: t"}),
                                            (2, {"decision": "deny", "reason": "t"}),
                                            (3, {"decision": "deny", "reason": "t"})])
def test_plain_text_by_exit_status(code: int, expected: dict[str, Any]) -> None:
    assert read(code, "t\n") == expected


def test_no_output_is_no_decision_even_on_exit_2() -> None:
    assert read(2) == {}


def test_tool_input_replaces_the_input() -> None:
    out = '{"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {"command": "ls"}}}'
    assert read(0, out) == {"data": {"tool_args": {"command": "ls", "dir_path": None}}}


def test_variables_gemini_gives_its_hooks() -> None:
    env = GEMINI.hooks.env(HookEvent.session_start("s9"), "/proj")
    assert env == {"GEMINI_PROJECT_DIR": "/proj", "GEMINI_CWD": "/proj", "CLAUDE_PROJECT_DIR": "/proj",
                   "GEMINI_SESSION_ID": "s9"}


def test_the_snippet_enables_hooks_and_matches_every_tool() -> None:
    snippet = GEMINI.settings.snippet("forge-hook-run --dialect gemini")
    assert snippet["hooksConfig"] == {"enabled": True}
    assert snippet["hooks"]["BeforeTool"][0]["matcher"] == ".*"
    assert set(snippet["hooks"]) == set(GEMINI.words.events)
