"""Gemini CLI's hook protocol (google-gemini/gemini-cli: docs/hooks/reference.md and
packages/core/src/hooks/hookRunner.ts).

Gemini parses stdout (else stderr) as JSON whatever the exit status; plain text is an
allow with a message on exit 0 or 1, and a deny with the text on any other status.
Decisions are ``allow``/``approve``, ``deny``/``block`` and ``ask``, though its reference
lists no ask and a headless ``gemini -p`` waits for ever on one: forge answers an ask as
a deny saying a person must decide (as on Codex's PreToolUse). A rewrite is
``hookSpecificOutput.tool_input``, which the CLI builds the tool call from (so forge
sends the whole input); timeouts in its settings are milliseconds.

The turn's end is ``AfterAgent`` (``agent:stop``): ``{"decision": "deny", "reason"}``
makes the reason Gemini's next user message (Gemini 0.61.0, research); it has no cap on
that loop (2284 refusals in 5 minutes, then a stack overflow), so FORGE_MAX_CONTINUES is
the only bound. ``continue: false`` there stops the whole session: a hook answering it
lets the agent stop, never keeps it working. ``PreCompress`` (fired before every turn)
and ``Notification`` cannot be refused.
"""

from __future__ import annotations

import time
from typing import Any

import orjson

from forge_hookd.events import HookEvent
from forge_hookd.dialects.base import (DEFAULT_DENY, Command, NATIVE, Dialect, HookFormat, Inbound, NativeAnswer, Reader, Settings, Verdict,
                   Vocabulary, Writer, ask_reason, joined, json_answer, json_object, refusal, text_of)

WORDS = Vocabulary(
    "gemini",
    events={
        "BeforeTool": "tool:pre_execute",
        "AfterTool": "tool:post_execute",
        "BeforeAgent": "user:prompt_submit",
        "BeforeModel": "llm:pre_request",
        "AfterModel": "llm:post_response",
        "SessionStart": "session:start",
        "SessionEnd": "session:end",
        "AfterAgent": "agent:stop",
        "PreCompress": "session:pre_compact",
        "Notification": "session:notification",
    },
    tools={
        "run_shell_command": "bash", "read_file": "read", "read_many_files": "read",
        "write_file": "write", "replace": "edit", "glob": "glob", "grep_search": "grep",
        "search_file_content": "grep", "web_fetch": "web_fetch", "google_web_search": "web_search",
    },
    blocking_events=frozenset({"BeforeTool", "BeforeAgent"}),
    native_events=frozenset({"BeforeToolSelection"}),  # the 11th of 0.61.0's HookEventName
)


class GeminiReader(Reader):
    def event_data(self, payload: dict[str, Any], native_event: str, forge_type: str,
                   native_tool: str | None) -> dict[str, Any]:
        data = super().event_data(payload, native_event, forge_type, native_tool)
        request = payload.get("llm_request")
        if isinstance(request, dict) and isinstance(request.get("model"), str):
            data["llm_model"] = request["model"]
        response = payload.get("tool_response")
        if isinstance(response, dict) and response.get("error"):
            data.setdefault("error", response["error"])
        return data


class GeminiWriter(Writer):
    #: events where a deny does something (SessionStart/SessionEnd ignore decisions)
    decision_events = frozenset({"BeforeTool", "AfterTool", "BeforeAgent", "BeforeModel", "AfterModel"})
    context_events = frozenset({"AfterTool", "BeforeAgent", "SessionStart"})

    def answer(self, inbound: Inbound, verdict: Verdict) -> NativeAnswer:
        event = inbound.native_event
        out: dict[str, Any] = {}
        specific: dict[str, Any] = {"hookEventName": event}
        dropped: list[str] = []
        messages = list(verdict.messages)
        if self.forge_type(inbound) == NATIVE:
            if verdict.decision in ("deny", "ask") or verdict.context or verdict.tool_args is not None:
                dropped.append(f"everything but messages: forge writes no decision on {event} (agent:native)")
            verdict = Verdict(messages=messages)
        if event == "AfterAgent":
            reason = refusal(verdict, messages, dropped)
            if reason is not None:  # Gemini sends the reason as the next user message
                out.update(decision="deny", reason=reason)
            verdict = Verdict(tool_args=verdict.tool_args)
        self._decision(out, event, verdict, dropped)
        if verdict.tool_args is not None:
            if event == "BeforeTool" and verdict.decision != "deny":
                specific["tool_input"] = verdict.tool_args
            elif event != "BeforeTool":
                dropped.append(f"rewritten tool_args: {event} takes no rewrite")
        if verdict.context:
            if event in self.context_events:
                specific["additionalContext"] = joined(verdict.context)
            else:
                dropped.append(f"context: Gemini reads no additional context on {event}")
        if messages:
            out["systemMessage"] = joined(messages)
        if len(specific) > 1:
            out["hookSpecificOutput"] = specific
        return json_answer(out, dropped)

    def _decision(self, out: dict[str, Any], event: str, verdict: Verdict, dropped: list[str]) -> None:
        decision = verdict.decision
        if decision is None:
            return
        if event not in self.decision_events:
            if decision != "allow":
                dropped.append(f"decision {decision}: Gemini ignores decisions on {event}")
            return
        if decision == "ask":
            # Gemini's reference lists allow, deny and block; an ask on BeforeTool waits for
            # a confirmation no UI answers under `gemini -p` (0.61.0 hangs until killed:
            # issue 30 item 8). As Codex's PreToolUse: a deny saying a person must decide.
            out.update(decision="deny", reason=ask_reason(verdict.reason))
            return
        out["decision"] = decision
        if decision == "deny":
            out["reason"] = verdict.reason or DEFAULT_DENY
        elif verdict.reason:
            out["reason"] = verdict.reason

class GeminiHooks(HookFormat):
    variables = ("GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_SESSION_ID", "GEMINI_PLANS_DIR", "CLAUDE_PROJECT_DIR")

    def stricter(self, exit_code: int | None, stderr: str) -> bool:
        # Gemini reads plain text on an exit status of 2 or more as a deny: a script it
        # cannot start (126, 127, "Permission denied") denies in Gemini too.
        return not (exit_code in (126, 127) and stderr.strip())

    def payload(self, event: HookEvent, project_dir: str) -> dict[str, Any]:
        payload = super().payload(event, project_dir)
        payload["timestamp"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(event.timestamp))
        if payload["hook_event_name"] == "SessionStart":
            payload.setdefault("source", "startup")
        return payload

    def env(self, event: HookEvent, project_dir: str) -> dict[str, str]:
        env = {"GEMINI_PROJECT_DIR": project_dir, "GEMINI_CWD": project_dir,
               "CLAUDE_PROJECT_DIR": project_dir}  # Gemini sets the latter "for compatibility"
        if event.session_id:
            env["GEMINI_SESSION_ID"] = event.session_id
        return env

    def read_answer(self, native_event: str, exit_code: int, stdout: str, stderr: str) -> dict[str, Any]:
        text = stdout.strip() or stderr.strip()  # Gemini reads stderr when stdout is empty
        if not text:
            return {}
        doc = _json_answer(text)
        if doc is not None:
            return self._read_json(native_event, doc)
        if exit_code == 0:
            return {"message": text}
        if exit_code == 1:
            return {"message": f"Warning: {text}"}
        return {"decision": "deny", "reason": text}

    def _read_json(self, native_event: str, doc: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = {}
        decision = {"allow": "allow", "approve": "allow", "deny": "deny", "block": "deny",
                    "ask": "ask"}.get(str(doc.get("decision")))
        reason = text_of(doc.get("stopReason")) or text_of(doc.get("reason"))
        if decision is not None:
            answer["decision"] = decision
            if decision == "deny":
                answer["reason"] = reason or "No reason provided"
            elif reason:
                answer["reason"] = reason
        if doc.get("continue") is False:
            if native_event == "AfterAgent":  # Gemini ends the session: the agent stops
                answer.pop("decision", None)
                answer.pop("reason", None)
                stop = reason or text_of(doc.get("systemMessage"))
                return {"message": stop} if stop else {}
            answer.update(decision="deny", reason=reason or "the hook stopped the agent")
        if native_event == "AfterAgent" and answer.get("decision") not in (None, "deny"):
            answer.pop("decision")  # ask and allow mean nothing at the turn's end
        specific = doc.get("hookSpecificOutput")
        if isinstance(specific, dict):
            if native_event == "BeforeTool" and isinstance(specific.get("tool_input"), dict):
                answer["updated_input"] = specific["tool_input"]
            context = text_of(specific.get("additionalContext"))
            if context:
                answer["context"] = context
        message = text_of(doc.get("systemMessage"))
        if message:
            answer["message"] = message
        return answer

class GeminiSettings(Settings):
    files = (".gemini/settings.json", "~/.gemini/settings.json")
    timeout_unit = 0.001  # Gemini's settings give timeouts in milliseconds
    agent_timeout = 60.0  # DEFAULT_HOOK_TIMEOUT = 60000 (0.61.0)
    # HookPlanner.matchesContext: an unanchored regex on tools, an exact comparison on a
    # session's start (source) or end (reason) and on a compaction (trigger).
    matched_types = frozenset({"session:start", "session:end", "session:pre_compact"})

    def exact_tools(self, forge_type: str, matcher: str) -> list[str] | None:
        return None  # every tool matcher is a regex searched in the name: kept as is

    def matches(self, matcher: str, subject: str, tool: bool) -> bool:
        from forge_hookd.dialects.matching import gemini_matches  # 3 ms (-X importtime): a kept matcher's

        return gemini_matches(matcher, subject, tool)

    def matcher_problem(self, matcher: str) -> str | None:
        return None  # Gemini compares one that does not compile as a string

    def snippet(self, command: Command, limit: float | None = None) -> dict[str, Any]:
        hooks: dict[str, Any] = {}
        for event in self.words.events:
            text, timeout = self.limited(command, event, limit)
            hook = [{"name": "forge", "type": "command", "command": text, **timeout}]
            hooks[event] = [{"matcher": ".*", "hooks": hook}] if event in ("BeforeTool", "AfterTool") \
                else [{"hooks": hook}]
        return {"hooksConfig": {"enabled": True}, "hooks": hooks}


def _json_answer(text: str) -> dict[str, Any] | None:
    doc = json_object(text)
    if doc is not None:
        return doc
    try:  # Gemini also accepts a JSON string that holds the JSON object
        inner = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return json_object(inner) if isinstance(inner, str) else None


DIALECT = Dialect(WORDS, reader=GeminiReader(WORDS), writer=GeminiWriter(WORDS), hooks=GeminiHooks(WORDS),
                  settings=GeminiSettings(WORDS))
