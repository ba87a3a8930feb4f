"""Cursor's hook protocol (cursor.com/docs/agent/hooks).

Every payload names its event (``hook_event_name``), but the tool call sits in a
different place per event: ``preToolUse`` has ``tool_name``/``tool_input``,
``beforeShellExecution`` the ``command`` and ``cwd`` at the top level,
``beforeMCPExecution`` the MCP tool's input as a JSON *string*, ``beforeReadFile`` a
``file_path``. Answers are JSON on exit 0: ``{"permission": "allow"|"deny"|"ask",
"user_message", "agent_message"}``, ``updated_input`` (``preToolUse``),
``additional_context`` (``sessionStart``, ``postToolUse``), ``{"continue": false}`` for
a prompt or a session, ``{"followup_message": R}`` on ``stop`` and ``subagentStop`` (R is
submitted as the next user message: "do not stop yet"; the payload's ``loop_count`` says
how often that happened), ``{"permission": "deny"}`` on ``subagentStart`` (the subagent
does not start); exit 2 blocks; any other failure (a crash, a timeout, invalid JSON)
fails open unless the hook entry says ``failClosed: true`` (forge's ``fail_closed``).
A session is Cursor's ``conversation_id``.

Cursor does not enforce an ask on ``preToolUse`` or on file reads: forge answers deny
there, saying a person must decide.
"""

from __future__ import annotations

from typing import Any

import orjson

from forge_hookd.events import TOOL_EVENT_TYPES, HookEvent
from forge_hookd.dialects.base import (DEFAULT_DENY, Command, NATIVE, Dialect, HookFormat, Inbound, NativeAnswer, PayloadError, Reader, Settings,
                   Verdict, Vocabulary, Writer, agent_data, ask_reason, dropped_decision, joined,
                   json_answer, json_object, lifecycle_data, loop_count, refusal)

_MCP = "MCP:"

WORDS = Vocabulary(
    "cursor",
    # The generic events first: a forge event built into a Cursor payload (format hooks)
    # is named by the first native event of its type, refined by tool (native_event_of).
    events={
        "preToolUse": "tool:pre_execute",
        "postToolUse": "tool:post_execute",
        "postToolUseFailure": "tool:error",
        "beforeShellExecution": "tool:pre_execute",
        "beforeMCPExecution": "tool:pre_execute",
        "beforeReadFile": "tool:pre_execute",
        "afterShellExecution": "tool:post_execute",
        "afterMCPExecution": "tool:post_execute",
        "afterFileEdit": "tool:post_execute",
        "beforeSubmitPrompt": "user:prompt_submit",
        "sessionStart": "session:start",
        "sessionEnd": "session:end",
        "afterAgentResponse": "llm:post_response",
        "stop": "agent:stop",
        "subagentStart": "agent:subagent_start",
        "subagentStop": "agent:subagent_stop",
        "preCompact": "session:pre_compact",
    },
    tools={"Shell": "bash", "Read": "read", "Write": "write", "Grep": "grep"},
    blocking_events=frozenset({"preToolUse", "beforeShellExecution", "beforeMCPExecution",
                               "beforeReadFile", "beforeSubmitPrompt"}),
    # The reference's other events: Tab's (not the agent) and the app's.
    native_events=frozenset({"afterAgentThought", "beforeTabFileRead", "afterTabFileEdit", "workspaceOpen"}),
)
#: events answered with {"permission": ...}; ask is enforced only on the first two
PERMISSION_EVENTS = frozenset({"preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile"})
ASK_EVENTS = frozenset({"beforeShellExecution", "beforeMCPExecution"})
#: events answered with {"continue": false, "user_message"} to stop
CONTINUE_EVENTS = frozenset({"beforeSubmitPrompt", "sessionStart"})
CONTEXT_EVENTS = frozenset({"sessionStart", "postToolUse"})
#: events where {"followup_message": R} keeps the agent (or the subagent) working
STOP_EVENTS = frozenset({"stop", "subagentStop"})
#: the tool each specific event is about (the generic ones name theirs)
EVENT_TOOLS = {"beforeShellExecution": "Shell", "afterShellExecution": "Shell",
               "beforeReadFile": "Read", "afterFileEdit": "Write"}


class CursorReader(Reader):
    def tool_name(self, payload: dict[str, Any], native_event: str, forge_type: str | None) -> str | None:
        if forge_type not in TOOL_EVENT_TYPES:
            return None
        if native_event in EVENT_TOOLS:
            return EVENT_TOOLS[native_event]
        name = payload.get("tool_name")
        if not isinstance(name, str) or not name:
            raise PayloadError(f"the cursor {native_event} payload has no 'tool_name'", native_event)
        return _MCP + name if native_event in ("beforeMCPExecution", "afterMCPExecution") else name

    def event_data(self, payload: dict[str, Any], native_event: str, forge_type: str,
                   native_tool: str | None) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if forge_type in TOOL_EVENT_TYPES:
            data["tool_args"] = _tool_args(payload, native_event)
        for key, forge_key in (("tool_output", "tool_result"), ("output", "tool_result"),
                               ("result_json", "tool_result"), ("error_message", "error")):
            if key in payload:
                data[forge_key] = _decoded(payload[key]) if key == "result_json" else payload[key]
        if forge_type == "user:prompt_submit":
            prompt = payload.get("prompt")
            if not isinstance(prompt, str):
                raise PayloadError(f"the cursor {native_event} payload has no 'prompt' string", native_event)
            data["user_input"] = prompt
        if native_event == "afterAgentResponse" and isinstance(payload.get("text"), str):
            data["llm_response"] = payload["text"]
        if isinstance(payload.get("model"), str):
            data["llm_model"] = payload["model"]
        lifecycle_data(data, payload, forge_type)
        data["agent"] = agent_data(self.words.name, native_event, native_tool, payload)
        return data

    def session_of(self, payload: dict[str, Any], native_event: str) -> str | None:
        """Cursor's session is the conversation (every payload has ``conversation_id``;
        only sessionStart/End also say ``session_id``)."""
        for key in ("conversation_id", "session_id"):
            value = payload.get(key)
            if isinstance(value, str) and value:
                return value
            if value is not None and not isinstance(value, str):
                raise PayloadError(f"'{key}' in the {native_event} payload must be a string", native_event)
        return None

    def start_dir(self, payload: dict[str, Any]) -> str | None:
        roots = payload.get("workspace_roots")  # every Cursor payload has the workspace
        if isinstance(roots, list) and roots and isinstance(roots[0], str) and roots[0]:
            return roots[0]
        return super().start_dir(payload)


def _tool_args(payload: dict[str, Any], native_event: str) -> dict[str, Any]:
    if native_event in ("beforeShellExecution", "afterShellExecution"):
        command = payload.get("command")
        if not isinstance(command, str):
            raise PayloadError(f"the cursor {native_event} payload has no 'command' string", native_event)
        args: dict[str, Any] = {"command": command}
        if isinstance(payload.get("cwd"), str):
            args["cwd"] = payload["cwd"]
        return args
    if native_event in ("beforeReadFile", "afterFileEdit"):
        path = payload.get("file_path")
        if not isinstance(path, str):
            raise PayloadError(f"the cursor {native_event} payload has no 'file_path' string", native_event)
        return {"file_path": path, **({"edits": payload["edits"]} if "edits" in payload else {})}
    tool_input = _decoded(payload.get("tool_input"))  # MCP input is a JSON string
    if not isinstance(tool_input, dict):
        raise PayloadError(f"the cursor {native_event} payload has no 'tool_input' object", native_event)
    return tool_input


class CursorWriter(Writer):
    def answer(self, inbound: Inbound, verdict: Verdict) -> NativeAnswer:
        event = inbound.native_event
        out: dict[str, Any] = {}
        dropped: list[str] = []
        messages, context = list(verdict.messages), list(verdict.context)
        if self.forge_type(inbound) == NATIVE:
            dropped_decision(verdict, event, dropped, "is agent:native: forge writes no decision there")
        elif event in STOP_EVENTS:
            reason = refusal(verdict, messages, dropped)
            if reason is not None:  # submitted as the next user message
                out["followup_message"] = reason
            context = []
        elif event == "subagentStart":
            self._permission(out, event, verdict, dropped)
        elif event in PERMISSION_EVENTS:
            self._permission(out, event, verdict, dropped)
        elif event in CONTINUE_EVENTS:
            self._continue(out, verdict)
        else:
            dropped_decision(verdict, event, dropped)
        if verdict.tool_args is not None and "updated_input" not in out and verdict.decision != "deny":
            dropped.append(f"rewritten tool_args: Cursor's {event} takes no rewrite")
        if context:
            if event in CONTEXT_EVENTS:
                out["additional_context"] = joined(context)
            else:
                dropped.append(f"context: Cursor reads no additional context on {event}")
        if messages:
            if event in PERMISSION_EVENTS or event in CONTINUE_EVENTS or event in ("subagentStart", "preCompact"):
                out["user_message"] = joined([out.get("user_message", ""), *messages])
            else:
                dropped.append(f"messages: Cursor shows no message on {event}")
        return json_answer(out, dropped)

    def _permission(self, out: dict[str, Any], event: str, verdict: Verdict, dropped: list[str]) -> None:
        decision, reason = verdict.decision, verdict.reason
        if decision == "ask" and event not in ASK_EVENTS:  # subagentStart cannot ask either
            decision, reason = "deny", ask_reason(reason)
        if decision is not None:
            out["permission"] = decision
            reason = reason or (DEFAULT_DENY if decision == "deny" else None)
            if reason:
                out["user_message"] = reason
                out["agent_message"] = reason
        if event == "preToolUse" and verdict.tool_args is not None and decision != "deny":
            out["updated_input"] = verdict.tool_args
            out.setdefault("permission", "allow")  # Cursor applies a rewrite of an allowed call

    def _continue(self, out: dict[str, Any], verdict: Verdict) -> None:
        if verdict.decision == "deny":
            out.update({"continue": False, "user_message": verdict.reason or DEFAULT_DENY})
        elif verdict.decision == "ask":  # neither a prompt nor a session can wait for a person
            out.update({"continue": False, "user_message": ask_reason(verdict.reason)})

class CursorHooks(HookFormat):
    def native_event_of(self, event: HookEvent) -> str:
        agent = event.data.get("agent")
        if isinstance(agent, dict) and agent.get("name") == self.words.name and isinstance(agent.get("event"), str):
            return str(agent["event"])
        native_tool = self.words.native_tool(event.tool_name) or ""
        kind = event.type.value
        if kind == "tool:pre_execute":
            if native_tool == "Shell":
                return "beforeShellExecution"
            if native_tool == "Read":
                return "beforeReadFile"
            if native_tool.startswith(_MCP):
                return "beforeMCPExecution"
        if kind == "tool:post_execute" and native_tool == "Shell":
            return "afterShellExecution"
        return self.words.native_event(kind)

    def payload(self, event: HookEvent, project_dir: str) -> dict[str, Any]:
        """The payload of the most specific Cursor event for this forge event (a shell
        command is ``beforeShellExecution``, with ``command`` and ``cwd`` at the top),
        carrying ``tool_name``/``tool_input`` as well, for a hook written for ``preToolUse``."""
        native_event = self.native_event_of(event)
        session = event.session_id or ""
        payload: dict[str, Any] = {"conversation_id": session, "generation_id": "", "model": "",
                                   "hook_event_name": native_event, "cursor_version": "",
                                   "workspace_roots": [project_dir], "user_email": None,
                                   "transcript_path": None, "cwd": project_dir}
        data = event.data
        tool_args = data.get("tool_args")
        args: dict[str, Any] = tool_args if isinstance(tool_args, dict) else {}
        if event.type.value in TOOL_EVENT_TYPES:
            native_tool = self.words.native_tool(event.tool_name) or ""
            payload["tool_name"] = native_tool.removeprefix(_MCP)
            payload["tool_input"] = args
            if native_event in ("beforeShellExecution", "afterShellExecution"):
                payload["command"] = args.get("command", "")
                payload["cwd"] = args.get("cwd", project_dir)
            if native_event in ("beforeReadFile", "afterFileEdit"):
                payload["file_path"] = args.get("file_path") or args.get("path") or ""
        if "tool_result" in data:
            payload["output" if native_event == "afterShellExecution" else "tool_output"] = data["tool_result"]
        if "error" in data:
            payload["error_message"] = data["error"]
        if "user_input" in data:
            payload["prompt"] = data["user_input"]
            payload["attachments"] = []
        if native_event in ("sessionStart", "sessionEnd"):
            payload["session_id"] = session
            payload["is_background_agent"] = False
        if native_event in STOP_EVENTS:
            payload.update(status="completed", loop_count=loop_count(event))
        if isinstance(event.data.get("agent_type"), str):
            payload["subagent_type"] = event.data["agent_type"]
        if isinstance(event.data.get("trigger"), str):
            payload["trigger"] = event.data["trigger"]
        return payload

    def env(self, event: HookEvent, project_dir: str) -> dict[str, str]:
        return {"CURSOR_PROJECT_DIR": project_dir, "CURSOR_VERSION": "",
                "CLAUDE_PROJECT_DIR": project_dir}  # Cursor sets the latter for compatibility

    variables = ("CURSOR_PROJECT_DIR", "CURSOR_VERSION", "CLAUDE_PROJECT_DIR")

    def read_answer(self, native_event: str, exit_code: int, stdout: str, stderr: str) -> dict[str, Any]:
        doc = json_object(stdout)
        if exit_code == 2 and native_event not in STOP_EVENTS:  # "equivalent to permission: deny"
            reason = stderr.strip() or (_message(doc) if doc else None)
            return {"decision": "deny", "reason": reason or "cursor hook exited 2"}
        if exit_code != 0:  # fails open (failClosed, the entry's fail_closed, aside)
            return {"message": f"{self.words.name} hook exited {exit_code}: {stderr.strip()}".rstrip(": ")}
        return {} if doc is None else self._read_json(native_event, doc)

    def _read_json(self, native_event: str, doc: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = {}
        if native_event in STOP_EVENTS:
            # Only a non-empty followup_message keeps the agent working; continue:false
            # (GitButler's answer) and a permission are not a refusal of the stop.
            followup = doc.get("followup_message")
            return {"decision": "deny", "reason": followup.strip()} \
                if isinstance(followup, str) and followup.strip() else {}
        decision = doc.get("permission", doc.get("decision"))  # "decision": Cursor's older preToolUse form
        if decision in ("allow", "deny", "ask") and (native_event in PERMISSION_EVENTS or native_event == "subagentStart"):
            answer["decision"] = decision
            reason = _message(doc)
            if reason:
                answer["reason"] = reason
            elif decision == "deny":
                answer["reason"] = DEFAULT_DENY
        if doc.get("continue") is False and native_event in CONTINUE_EVENTS:
            answer.update(decision="deny", reason=_message(doc) or "the hook stopped the agent")
        updated = doc.get("updated_input")
        if native_event == "preToolUse" and isinstance(updated, dict) and answer.get("decision") != "deny":
            answer["updated_input"] = updated
        context = doc.get("additional_context")
        if isinstance(context, str) and context.strip() and native_event in CONTEXT_EVENTS:
            answer["context"] = context.strip()
        return answer

class CursorSettings(Settings):
    files = (".cursor/hooks.json", "~/.cursor/hooks.json")
    # Cursor's matchers: the tool type on tool events, the subagent's type on subagent events.
    matched_types = frozenset({"agent:subagent_start", "agent:subagent_stop"})

    def matches(self, matcher: str, subject: str, tool: bool) -> bool:
        from forge_hookd.dialects.matching import search_matches  # 3 ms (-X importtime): a kept matcher's

        return search_matches(matcher, subject)

    def groups(self, entries: object) -> list[tuple[object, object]]:
        """Cursor lists handlers directly, each with its own ``matcher``."""
        handlers = entries if isinstance(entries, list) else [entries]
        return [(h.get("matcher") if isinstance(h, dict) else None, [h]) for h in handlers]

    def filter(self, native_event: str, forge_type: str, matcher: str) -> tuple[list[str], str | None] | str:
        tool = EVENT_TOOLS.get(native_event)
        if native_event in ("beforeMCPExecution", "afterMCPExecution"):
            if matcher.strip():
                return "an MCP matcher has no forge pattern form"
            return [f"{forge_type}:{_MCP}*"], None
        if tool is not None:
            if matcher.strip():  # beforeShellExecution's matcher is a regex over the command text
                return f"a matcher on {native_event} filters the command text: no forge pattern form"
            return [f"{forge_type}:{self.words.canonical_tool(tool)}"], None
        return super().filter(native_event, forge_type, matcher)

    def snippet(self, command: Command, limit: float | None = None) -> dict[str, Any]:
        hooks = {}
        for event in self.words.events:
            text, timeout = self.limited(command, event, limit)
            hooks[event] = [{"command": text, **timeout}]
        return {"version": 1, "hooks": hooks}


def _decoded(value: object) -> object:
    """A JSON string decoded (Cursor sends MCP input and results as strings), else as is."""
    if isinstance(value, str) and value.lstrip().startswith(("{", "[")):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value
    return value


def _message(doc: dict[str, Any]) -> str | None:
    """The reason in a Cursor answer: for the agent first, then for the person. The
    docs' own example (block-git.sh) writes camelCase keys, which Cursor accepts."""
    for key in ("agent_message", "agentMessage", "reason", "user_message", "userMessage"):
        value = doc.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


DIALECT = Dialect(WORDS, reader=CursorReader(WORDS), writer=CursorWriter(WORDS), hooks=CursorHooks(WORDS),
                  settings=CursorSettings(WORDS))
