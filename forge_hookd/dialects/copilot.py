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
permissionRequest, ``additionalContext`` on postToolUseFailure and subagentStart,
``{"decision": "block", "reason"}`` on userPromptSubmitted (the prompt is refused: an
event that can block) and on
agentStop/subagentStop (the reason is the next user message: "do not stop yet"; the CLI
ends the turn after 8 blocks in a row). As Copilot 1.0.102 reads a hook (changelog
1.0.57, 1.0.70; research): a preToolUse or permissionRequest hook that exits non-zero
denies, whatever the status (its JSON is read only on exit 0 and 2); on
postToolUseFailure exit 2's stderr is recovery guidance for the model; any other failure
is logged and skipped; a timeout lets the call through. The output of sessionEnd is
ignored; a top-level ``additionalContext`` on sessionStart, userPromptSubmitted,
preToolUse and postToolUse reaches the model (observed on 1.0.102; the reference says otherwise). Copilot fires agentStop inside a subagent too
(with ``agentId``), before subagentStop: that one is ``agent:native:agentStop``, so
that an ``agent:stop`` hook does not run twice per subagent.
"""

from __future__ import annotations

import os
import shlex
from typing import Any

import orjson

from forge_hookd.events import TOOL_EVENT_TYPES, HookEvent
from forge_hookd.dialects.base import (DEFAULT_DENY, Command, NATIVE, Dialect, HookFormat, Inbound, NativeAnswer, PayloadError, Reader,
                   Settings, Verdict, Vocabulary, Writer, agent_data, ask_reason, dropped_decision, exit_problem,
                   joined, json_answer, json_object, lifecycle_data, lifecycle_fields, refusal, text_of)

_PRE = frozenset({"preToolUse", "PreToolUse"})
_PERMISSION = frozenset({"permissionRequest", "PermissionRequest"})
_FAILURE = frozenset({"postToolUseFailure", "PostToolUseFailure"})
_STOPS = frozenset({"agentStop", "Stop", "subagentStop", "SubagentStop"})
_PROMPT = frozenset({"userPromptSubmitted", "UserPromptSubmit"})
_SUBAGENT_START = frozenset({"subagentStart", "SubagentStart"})
#: where Copilot reads a top-level additionalContext: postToolUseFailure and subagentStart
#: as documented; sessionStart, userPromptSubmitted and postToolUse as a control run with
#: a native hook on 1.0.102 showed it reaching the model (its reference says their output
#: is not processed; issue 30 item 10); and preToolUse, which the same control run showed
#: (its reference lists no context there; issue 30 item 13, the conformance matrix)
_CONTEXT = _FAILURE | _SUBAGENT_START | _PROMPT | frozenset({"sessionStart", "SessionStart", "postToolUse",
                                                             "PostToolUse", "preToolUse"})

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
        "agentStop": "agent:stop",
        "subagentStart": "agent:subagent_start",
        "subagentStop": "agent:subagent_stop",
        "preCompact": "session:pre_compact",
        "notification": "session:notification",
        "PreToolUse": "tool:pre_execute",
        "PostToolUse": "tool:post_execute",
        "PostToolUseFailure": "tool:error",
        "PermissionRequest": "permission:prompt",
        "UserPromptSubmit": "user:prompt_submit",
        "SessionStart": "session:start",
        "SessionEnd": "session:end",
        "Stop": "agent:stop",
        "SubagentStart": "agent:subagent_start",
        "SubagentStop": "agent:subagent_stop",
        "PreCompact": "session:pre_compact",
        "Notification": "session:notification",
    },
    # The PascalCase shape names the shell Claude's way ("Bash", observed with 1.0.102).
    tools={"bash": "bash", "view": "read", "create": "write", "edit": "edit", "glob": "glob",
           "grep": "grep", "web_fetch": "web_fetch", "Bash": "bash"},
    # userPromptSubmitted refuses the prompt on {"decision": "block"} (1.0.102): forge's
    # own failures deny it, as Claude's, Codex's and Gemini's (issue 30 item 7).
    blocking_events=frozenset({"preToolUse", "PreToolUse", "permissionRequest", "PermissionRequest",
                               "userPromptSubmitted", "UserPromptSubmit"}),
    native_events=frozenset({"errorOccurred", "ErrorOccurred", "userPromptTransformed", "preMcpToolCall",
                             "PreMcpToolCall"}),
    # The PascalCase ("VS Code") spelling of each camelCase event is the same event.
    aliases={"PreToolUse": "preToolUse", "PostToolUse": "postToolUse", "PostToolUseFailure": "postToolUseFailure",
             "PermissionRequest": "permissionRequest", "UserPromptSubmit": "userPromptSubmitted",
             "SessionStart": "sessionStart", "SessionEnd": "sessionEnd", "Stop": "agentStop",
             "SubagentStart": "subagentStart", "SubagentStop": "subagentStop", "PreCompact": "preCompact",
             "Notification": "notification", "ErrorOccurred": "errorOccurred", "PreMcpToolCall": "preMcpToolCall"},
)


class CopilotReader(Reader):
    session_keys = ("sessionId", "session_id")

    def named_event(self, payload: dict[str, Any]) -> str | None:
        # permissionRequest's camelCase payload says "hookName" (observed, 1.0.102)
        named = payload.get("hook_event_name") or payload.get("hookName")
        return named if isinstance(named, str) and named else None

    def event_name(self, payload: dict[str, Any], given: str | None) -> str:
        if self.named_event(payload) is None and not given:
            raise PayloadError("the copilot payload has no 'hook_event_name' (camelCase payloads never "
                               "do): name the event in the hook command, --dialect copilot:preToolUse")
        return super().event_name(payload, given)

    def forge_type(self, payload: dict[str, Any], native_event: str) -> str:
        # A subagent's own agentStop (1.0.102 fires it before subagentStop, with the
        # child's agentId): not the session's turn ending.
        if native_event in ("agentStop", "Stop") and (payload.get("agentId") or payload.get("agent_id")):
            return NATIVE
        return super().forge_type(payload, native_event)

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
        lifecycle_data(data, payload, forge_type)
        data["agent"] = agent_data(self.words.name, native_event, native_tool, payload)
        return data


class CopilotWriter(Writer):
    def answer(self, inbound: Inbound, verdict: Verdict) -> NativeAnswer:
        event = inbound.native_event
        out: dict[str, Any] = {}
        dropped: list[str] = []
        messages = list(verdict.messages)
        context = list(verdict.context)
        if self.forge_type(inbound) == NATIVE:
            dropped_decision(verdict, event, dropped, "is agent:native: forge writes no decision there")
        elif event in _STOPS:
            reason = refusal(verdict, messages, dropped)
            if reason is not None:  # 1.0.102: the reason becomes the next user message
                out.update(decision="block", reason=reason)
            context = []
        elif event in _PRE:
            self._pre_tool_use(out, event, verdict)
        elif event in _PERMISSION:
            self._permission_request(out, verdict, dropped)
        elif event in _PROMPT and verdict.decision in ("deny", "ask"):
            reason = verdict.reason or DEFAULT_DENY  # 1.0.102 refuses the prompt (research)
            out.update(decision="block", reason=reason if verdict.decision == "deny" else ask_reason(verdict.reason))
        else:
            dropped_decision(verdict, event, dropped, "cannot be refused in Copilot")
        if verdict.tool_args is not None and event not in _PRE:
            dropped.append(f"rewritten tool_args: Copilot's {event} takes no rewrite")
        if context:
            if event in _CONTEXT:
                out["additionalContext"] = joined(context)
            else:
                dropped.append(f"context: Copilot reads no additional context on {event}")
        if messages:
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
            payload["source"] = event.data.get("source") if isinstance(event.data.get("source"), str) else "new"
        if native_event == "sessionEnd":
            payload["reason"] = "complete"
        fields = lifecycle_fields(event)
        if native_event in ("agentStop", "subagentStop"):
            payload.update(stopReason="end_turn", stop_hook_active=fields.pop("stop_hook_active", False))
        payload.update({_CAMEL.get(k, k): v for k, v in fields.items() if k not in ("source", "last_assistant_message")})
        return payload

    variables = ("COPILOT_CLI", "COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "COPILOT_HOOK_DIR")

    def env(self, event: HookEvent, project_dir: str) -> dict[str, str]:
        # What Copilot 1.0.102 adds for its hooks (tests/realagents/payloads/copilot/env.json)
        return {"COPILOT_CLI": "1", "COPILOT_PROJECT_DIR": project_dir, "CLAUDE_PROJECT_DIR": project_dir,
                "COPILOT_HOOK_DIR": f"{project_dir}/.github/hooks"}

    def read_answer(self, native_event: str, exit_code: int, stdout: str, stderr: str) -> dict[str, Any]:
        doc = json_object(stdout)
        if exit_code == 2 and (native_event in _PRE or native_event in _PERMISSION):
            # permissionRequest: "stdout JSON (if any) is merged with {"behavior":"deny"}"
            merged = self._read_json(native_event, {**(doc or {}), "behavior": "deny"}) \
                if native_event in _PERMISSION else (self._read_json(native_event, doc) if doc else {})
            if merged.get("reason") == DEFAULT_DENY:
                del merged["reason"]
            reason = merged.get("reason") or (stderr.strip() if native_event in _PRE else "")
            return {**merged, "decision": "deny", "reason": reason or "copilot hook exited 2"}
        if exit_code != 0 and (native_event in _PRE or native_event in _PERMISSION):
            # 1.0.57: "preToolUse hook errors now deny the tool call instead of silently
            # allowing execution"; observed for exit 1 and 3 (JSON unread), and on
            # permissionRequest ("Permission request hook failed").
            return {"decision": "deny", "reason": f"{exit_problem(self.words.name, exit_code, stderr)} "
                                                  "(hook errored: Copilot denies)"}
        if exit_code == 2 and native_event in _FAILURE:
            guidance = stderr.strip()
            return {"context": guidance} if guidance else {}
        if exit_code != 0:  # logged and skipped: Copilot proceeds
            return {"message": exit_problem(self.words.name, exit_code, stderr)}
        return self._read_json(native_event, doc) if doc is not None else {}

    def _read_json(self, native_event: str, doc: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = {}
        if native_event in _STOPS or native_event in _PROMPT:
            # {"decision": "block", "reason"} with a non-empty reason, nothing else
            # ("agentStop block decision requires a nonempty reason", 1.0.102): deny and
            # continue:false are ignored there (research); a prompt's additionalContext
            # reaches the model (issue 30 item 10).
            reason = text_of(doc.get("reason"))
            if doc.get("decision") == "block" and reason:
                return {"decision": "deny", "reason": reason}
            if native_event in _STOPS:
                return {}
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
        elif native_event in _PERMISSION:
            if doc.get("behavior") == "deny":
                answer.update(decision="deny", reason=text_of(doc.get("message")) or DEFAULT_DENY)
            elif doc.get("behavior") == "allow":
                answer["decision"] = "allow"
        context = text_of(doc.get("additionalContext"))
        if context and native_event in _CONTEXT:
            answer["context"] = context
        return answer

class CopilotSettings(Settings):
    files = (".github/hooks/forge.json", "~/.copilot/hooks/forge.json")
    timeout_keys = ("timeoutSec", "timeout")  # both seconds (1.0.2 added the alias; observed)
    agent_timeout = 30.0  # observed: a hook without a timeout is killed at 30 s

    def paths(self, scope: str, project_root: str) -> list[str]:
        """Every ``*.json`` of the hooks directory, as Copilot reads them (else the file
        --print-config suggests, for the error to name)."""
        import glob  # 0.4 ms, for forge-hook import and install, never on a Copilot event (bench/README.md)

        default = super().paths(scope, project_root)[0]
        return sorted(glob.glob(os.path.join(os.path.dirname(default), "*.json"))) or [default]

    def groups(self, entries: object) -> list[tuple[object, object]]:
        """Copilot lists handlers directly, each with an optional ``matcher``; Claude's
        nested ``{"matcher", "hooks": [...]}`` groups are read too (1.0.6)."""
        handlers = entries if isinstance(entries, list) else [entries]
        return [(h.get("matcher"), h["hooks"]) if isinstance(h, dict) and isinstance(h.get("hooks"), list)
                else (h.get("matcher") if isinstance(h, dict) else None, [h]) for h in handlers]

    def command(self, handler: dict[str, Any]) -> object:
        """The Unix command: ``bash``, else the cross-platform ``command``, else ``exec``
        (a native executable, run without a shell: quoted). forge runs hooks with sh."""
        for key in ("bash", "command"):
            if isinstance(handler.get(key), str) and handler[key].strip():
                return handler[key]
        executable = handler.get("exec")
        return shlex.quote(executable) if isinstance(executable, str) and executable.strip() else None

    def exact_tools(self, forge_type: str, matcher: str) -> list[str] | None:
        # A full-match regex: a plain list of names is those names exactly.
        from forge_hookd.dialects.matching import _EXACT_LIST  # 3 ms (-X importtime): a kept matcher's

        return super().exact_tools(forge_type, matcher) if _EXACT_LIST.fullmatch(matcher.strip()) else None

    def matches(self, matcher: str, subject: str, tool: bool) -> bool:
        from forge_hookd.dialects.matching import full_matches  # 3 ms (-X importtime): a kept matcher's

        return full_matches(matcher, subject)

    def snippet(self, command: Command, limit: float | None = None) -> dict[str, Any]:
        hooks = {}
        for event in self.words.events:
            if event[0].islower():
                text, timeout = self.limited(command, event, limit, f":{event}")
                hooks[event] = [{"type": "command", "bash": text, **(timeout or {"timeoutSec": 30})}]
        return {"version": 1, "hooks": hooks}


#: the camelCase payloads' spelling of a lifecycle field (the loop flag stays snake_case)
_CAMEL = {"agent_type": "agentType", "agent_id": "agentId", "transcript_path": "transcriptPath"}


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
