"""GitHub Copilot CLI's hook protocol (docs.github.com: copilot/reference/hooks-configuration
and copilot-cli-reference/cli-hooks-reference).

Two payload shapes, chosen by how the event is spelled in ``.github/hooks/*.json``:
camelCase (``preToolUse``: ``toolName``, ``toolArgs`` as a JSON *string* in the docs and
an object from the real CLI 1.0.102, ``timestamp`` in milliseconds, and no event name at
all) and the PascalCase "VS Code compatible" one
(``PreToolUse``: ``hook_event_name``, ``tool_name``, ``tool_input``, snake_case). A
camelCase payload does not say which event it is, so each event's hook command names it:
``forge-hook-run --dialect copilot:preToolUse`` (``--print-config`` writes them).

Answers are JSON on stdout: ``{"permissionDecision", "permissionDecisionReason",
"modifiedArgs"}`` on preToolUse, ``{"behavior": "allow"|"deny", "message"}`` on
permissionRequest, ``additionalContext`` on postToolUseFailure. Exit 2 denies only
preToolUse and permissionRequest (on postToolUseFailure its stderr is recovery guidance
for the model); any other failure is logged and skipped. The output of sessionStart,
sessionEnd, userPromptSubmitted and postToolUse is ignored.
"""

from __future__ import annotations

import os
from typing import Any

import orjson

from ..events import TOOL_EVENT_TYPES, HookEvent
from .base import (DEFAULT_DENY, Dialect, HookFormat, Inbound, NativeAnswer, PayloadError, Reader, Settings,
                   Verdict, Vocabulary, Writer, agent_data, exit_problem, joined, json_answer, json_object,
                   text_of)

_PRE = frozenset({"preToolUse", "PreToolUse"})
_FAILURE = frozenset({"postToolUseFailure", "PostToolUseFailure"})

WORDS = Vocabulary(
    "copilot",
    # camelCase first: a forge event built into a Copilot payload uses that shape.
    events={
        "preToolUse": "tool:pre_execute",
        "postToolUse": "tool:post_execute",
        "postToolUseFailure": "tool:error",
        "permissionRequest": "permission:prompt",
        "userPromptSubmitted": "user:prompt_submit",
        "sessionStart": "session:start",
        "sessionEnd": "session:end",
        "PreToolUse": "tool:pre_execute",
        "PostToolUse": "tool:post_execute",
        "PostToolUseFailure": "tool:error",
        "UserPromptSubmit": "user:prompt_submit",
        "SessionStart": "session:start",
        "SessionEnd": "session:end",
    },
    # The PascalCase shape names the shell Claude's way ("Bash", observed with 1.0.102).
    tools={"bash": "bash", "view": "read", "create": "write", "edit": "edit", "glob": "glob",
           "grep": "grep", "web_fetch": "web_fetch", "Bash": "bash"},
    blocking_events=frozenset({"preToolUse", "PreToolUse", "permissionRequest"}),
)


class CopilotReader(Reader):
    session_keys = ("sessionId", "session_id")

    def event_name(self, payload: dict[str, Any], given: str | None) -> str:
        # permissionRequest's camelCase payload says "hookName" (observed, 1.0.102)
        named = payload.get("hook_event_name") or payload.get("hookName")
        if isinstance(named, str) and named:
            return named
        if given:
            return given
        raise PayloadError("the copilot payload has no 'hook_event_name' (camelCase payloads never "
                           "do): name the event in the hook command, --dialect copilot:preToolUse")

    def tool_name(self, payload: dict[str, Any], native_event: str, forge_type: str | None) -> str | None:
        if forge_type not in TOOL_EVENT_TYPES:
            return None
        name = payload.get("toolName", payload.get("tool_name"))
        if not isinstance(name, str) or not name:
            raise PayloadError(f"the copilot {native_event} payload has no 'toolName'", native_event)
        return name

    def event_data(self, payload: dict[str, Any], native_event: str, forge_type: str,
                   native_tool: str | None) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if forge_type in TOOL_EVENT_TYPES:
            data["tool_args"] = _tool_args(payload, native_event)
        result = payload.get("toolResult", payload.get("tool_result"))
        if result is not None:
            data["tool_result"] = result
        if "error" in payload:
            data["error"] = payload["error"]
        if forge_type == "user:prompt_submit":
            prompt = payload.get("prompt")
            if not isinstance(prompt, str):
                raise PayloadError(f"the copilot {native_event} payload has no 'prompt' string", native_event)
            data["user_input"] = prompt
        data["agent"] = agent_data(self.words.name, native_event, native_tool, payload)
        return data


class CopilotWriter(Writer):
    def answer(self, inbound: Inbound, verdict: Verdict) -> NativeAnswer:
        event = inbound.native_event
        out: dict[str, Any] = {}
        dropped: list[str] = []
        if event in _PRE:
            self._pre_tool_use(out, event, verdict)
        elif event == "permissionRequest":
            self._permission_request(out, verdict, dropped)
        elif verdict.decision in ("deny", "ask"):
            dropped.append(f"decision {verdict.decision}: Copilot ignores decisions on {event}")
        if verdict.tool_args is not None and event not in _PRE:
            dropped.append(f"rewritten tool_args: Copilot's {event} takes no rewrite")
        if verdict.context:
            if event in _FAILURE:
                out["additionalContext"] = joined(verdict.context)
            else:
                dropped.append(f"context: Copilot reads no additional context on {event}")
        if verdict.messages:
            dropped.append("messages: Copilot's hooks have no message for the person")
        return json_answer(out, dropped)

    def _pre_tool_use(self, out: dict[str, Any], event: str, verdict: Verdict) -> None:
        if verdict.decision is not None:
            out["permissionDecision"] = verdict.decision
            reason = verdict.reason or (DEFAULT_DENY if verdict.decision == "deny" else None)
            if reason:  # required with deny
                out["permissionDecisionReason"] = reason
        if verdict.tool_args is not None and verdict.decision != "deny":
            out["modifiedArgs"] = verdict.tool_args
        if event == "PreToolUse" and out:  # the VS Code shape, for whichever reader applies
            specific = {"hookEventName": event}
            specific.update((k, v) for k, v in out.items() if k != "modifiedArgs")
            if "modifiedArgs" in out:
                specific["updatedInput"] = out["modifiedArgs"]
            out["hookSpecificOutput"] = specific

    def _permission_request(self, out: dict[str, Any], verdict: Verdict, dropped: list[str]) -> None:
        # No answer is Copilot's own flow, which asks the person: that is forge's ask.
        if verdict.decision == "deny":
            out.update(behavior="deny", message=verdict.reason or DEFAULT_DENY)
        elif verdict.decision == "allow":
            out["behavior"] = "allow"

class CopilotHooks(HookFormat):
    def payload(self, event: HookEvent, project_dir: str) -> dict[str, Any]:
        """A camelCase payload (the shape Copilot's own examples read), as the real CLI
        sends it: ``toolArgs`` an object, which a docs example's ``jq -r '.toolArgs'``
        prints as JSON text all the same."""
        native_event = self.native_event_of(event)
        payload: dict[str, Any] = {"sessionId": event.session_id or "",
                                   "timestamp": int(event.timestamp * 1000), "cwd": project_dir}
        data = event.data
        if event.type.value in TOOL_EVENT_TYPES:
            args = data.get("tool_args") if isinstance(data.get("tool_args"), dict) else {}
            payload["toolName"] = self.words.native_tool(event.tool_name) or ""
            payload["toolArgs"] = args  # an object, as Copilot 1.0.102 sends it (the docs show a string)
        if "tool_result" in data:
            result = data["tool_result"]
            payload["toolResult"] = result if isinstance(result, dict) else \
                {"resultType": "success", "textResultForLlm": result if isinstance(result, str)
                 else orjson.dumps(result, default=str).decode()}
        if "error" in data:
            payload["error"] = data["error"]
        if "user_input" in data:
            payload["prompt"] = data["user_input"]
        if native_event == "sessionStart":
            payload["source"] = "new"
        if native_event == "sessionEnd":
            payload["reason"] = "complete"
        return payload

    def env(self, event: HookEvent, project_dir: str) -> dict[str, str]:
        # What Copilot 1.0.102 adds for its hooks (tests/agents/payloads/copilot/env.json)
        return {"COPILOT_CLI": "1", "COPILOT_PROJECT_DIR": project_dir, "CLAUDE_PROJECT_DIR": project_dir,
                "COPILOT_HOOK_DIR": f"{project_dir}/.github/hooks"}

    def read_answer(self, native_event: str, exit_code: int, stdout: str, stderr: str) -> dict[str, Any]:
        doc = json_object(stdout)
        if exit_code == 2 and (native_event in _PRE or native_event == "permissionRequest"):
            # permissionRequest: "stdout JSON (if any) is merged with {"behavior":"deny"}"
            merged = self._read_json(native_event, {**(doc or {}), "behavior": "deny"}) \
                if native_event == "permissionRequest" else (self._read_json(native_event, doc) if doc else {})
            if merged.get("reason") == DEFAULT_DENY:
                del merged["reason"]
            reason = merged.get("reason") or (stderr.strip() if native_event in _PRE else "")
            return {**merged, "decision": "deny", "reason": reason or "copilot hook exited 2"}
        if exit_code == 2 and native_event in _FAILURE:
            guidance = stderr.strip()
            return {"context": guidance} if guidance else {}
        if exit_code != 0:  # logged and skipped: Copilot proceeds
            return {"message": exit_problem(self.words.name, exit_code, stderr)}
        return self._read_json(native_event, doc) if doc is not None else {}

    def _read_json(self, native_event: str, doc: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = {}
        if native_event in _PRE:
            specific = doc.get("hookSpecificOutput")
            specific = specific if isinstance(specific, dict) else {}
            decision = doc.get("permissionDecision", specific.get("permissionDecision"))
            reason = text_of(doc.get("permissionDecisionReason")) or text_of(specific.get("permissionDecisionReason"))
            if decision in ("allow", "deny", "ask"):
                answer["decision"] = decision
                if reason or decision == "deny":
                    answer["reason"] = reason or DEFAULT_DENY
            updated = doc.get("modifiedArgs", specific.get("updatedInput"))
            if isinstance(updated, dict) and decision != "deny":
                answer["updated_input"] = updated
        elif native_event == "permissionRequest":
            if doc.get("behavior") == "deny":
                answer.update(decision="deny", reason=text_of(doc.get("message")) or DEFAULT_DENY)
            elif doc.get("behavior") == "allow":
                answer["decision"] = "allow"
        context = text_of(doc.get("additionalContext"))
        if context and native_event in _FAILURE:
            answer["context"] = context
        return answer

class CopilotSettings(Settings):
    files = (".github/hooks/forge.json", "~/.copilot/hooks/forge.json")
    timeout_key = "timeoutSec"

    def paths(self, scope: str, project_root: str) -> list[str]:
        """Every ``*.json`` of the hooks directory, as Copilot reads them (else the file
        --print-config suggests, for the error to name)."""
        import glob  # 0.4 ms, for forge-hook import and install, never on a Copilot event (bench/README.md)

        default = super().paths(scope, project_root)[0]
        return sorted(glob.glob(os.path.join(os.path.dirname(default), "*.json"))) or [default]

    def groups(self, entries: object) -> list[tuple[object, object]]:
        """Copilot lists handlers directly, each with an optional ``matcher``."""
        handlers = entries if isinstance(entries, list) else [entries]
        return [(h.get("matcher") if isinstance(h, dict) else None, [h]) for h in handlers]

    def command(self, handler: dict[str, Any]) -> object:
        return handler.get("bash")  # forge runs hooks with sh: the Unix command

    def snippet(self, command: str) -> dict[str, Any]:
        return {"version": 1, "hooks": {
            event: [{"type": "command", "bash": f"{command}:{event}", "timeoutSec": 30}]
            for event in self.words.events if event[0].islower()}}


def _tool_args(payload: dict[str, Any], native_event: str) -> dict[str, Any]:
    # toolArgs, except on permissionRequest: toolInput (observed, 1.0.102)
    raw = next((payload[k] for k in ("toolArgs", "toolInput", "tool_input") if k in payload), None)
    if isinstance(raw, str):  # camelCase: a JSON string
        try:
            raw = orjson.loads(raw)
        except orjson.JSONDecodeError:
            raise PayloadError(f"'toolArgs' in the copilot {native_event} payload is not JSON",
                               native_event) from None
    if not isinstance(raw, dict):
        raise PayloadError(f"the copilot {native_event} payload has no 'toolArgs' object", native_event)
    return raw


DIALECT = Dialect(WORDS, reader=CopilotReader(WORDS), writer=CopilotWriter(WORDS), hooks=CopilotHooks(WORDS),
                  settings=CopilotSettings(WORDS))
