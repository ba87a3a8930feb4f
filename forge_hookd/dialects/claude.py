"""Claude Code's hook protocol (code.claude.com/docs/en/hooks).

Exit 2 blocks with stderr as the reason (stdout ignored); JSON on stdout is read on
exit 0 and, as Claude Code 2.1.328 was observed to do, on other statuses too (its docs
say exit 0 only); any other status without JSON is a non-blocking error and the agent
proceeds. forge answers exit 0 with JSON. Codex copies this protocol with stricter
rules (codex.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from forge_hookd.events import HookEvent
from forge_hookd.dialects.base import (DEFAULT_DENY, Command, NATIVE, Dialect, HookFormat, Inbound, NativeAnswer, PayloadError, Reader,
                   Settings, Verdict,
                   Vocabulary, Writer, ask_reason, dropped_decision, exit_problem, joined, json_answer, json_object,
                   refusal, text_of)

#: VS Code's tool names (after Claude's: a forge tool name maps back to Claude's own)
VSCODE_TOOLS = {
    "run_in_terminal": "bash", "runTerminalCommand": "bash", "read_file": "read", "create_file": "write",
    "createFile": "write", "replace_string_in_file": "edit", "multi_replace_string_in_file": "edit",
    "insert_edit_into_file": "edit", "apply_patch": "edit", "editFiles": "edit", "file_search": "glob",
    "grep_search": "grep", "fetch_webpage": "web_fetch",
}

WORDS = Vocabulary(
    "claude",
    events={
        "PreToolUse": "tool:pre_execute",
        "PostToolUse": "tool:post_execute",
        "PostToolUseFailure": "tool:error",
        "UserPromptSubmit": "user:prompt_submit",
        "SessionStart": "session:start",
        "SessionEnd": "session:end",
        "PermissionRequest": "permission:prompt",
        "PermissionDenied": "permission:denied",
        "Stop": "agent:stop",
        "SubagentStart": "agent:subagent_start",
        "SubagentStop": "agent:subagent_stop",
        "Notification": "session:notification",
        "PreCompact": "session:pre_compact",
        "PostCompact": "session:post_compact",
    },
    tools={
        "Bash": "bash", "Read": "read", "Write": "write", "Edit": "edit", "MultiEdit": "edit",
        "NotebookEdit": "edit",  # its notebook_path and new_source are a path and content the guards read
        "Glob": "glob", "Grep": "grep", "WebFetch": "web_fetch", "WebSearch": "web_search",
        # VS Code's agent and the Copilot app read Claude's settings and send their own
        # names (microsoft/vscode-copilot-chat src/extension/tools/common/toolNames.ts;
        # its hooks docs still show the older runTerminalCommand, editFiles, createFile).
        **VSCODE_TOOLS,
    },
    blocking_events=frozenset({"PreToolUse", "UserPromptSubmit", "PermissionRequest"}),
    # Claude Code 2.1.328's other events (its settings' enum): each is agent:native:NAME.
    native_events=frozenset({
        "PostToolBatch", "UserPromptExpansion", "StopFailure", "PreModelSwitch", "PostModelSwitch", "Setup",
        "TeammateIdle", "TaskCreated", "TaskCompleted", "Elicitation", "ElicitationResult", "ConfigChange",
        "WorktreeCreate", "WorktreeRemove", "InstructionsLoaded", "CwdChanged", "FileChanged", "DirectoryAdded",
        "MessageDisplay"}),
)


class ClaudeReader(Reader):
    """Claude's payloads, and VS Code's agent's (the Copilot app's too), which read
    Claude's settings and send ``hookEventName`` and ``sessionId`` (issue 30, item 9;
    code.visualstudio.com/docs/agent-customization/hooks, "Common input fields")."""

    session_keys = ("session_id", "sessionId")

    def named_event(self, payload: dict[str, Any]) -> str | None:
        named = payload.get("hook_event_name", payload.get("hookEventName"))
        return named if isinstance(named, str) and named else None

    def event_name(self, payload: dict[str, Any], given: str | None) -> str:
        if self.named_event(payload) is None and not given:
            raise PayloadError("the claude payload has no 'hook_event_name' (nor VS Code's 'hookEventName')")
        return super().event_name(payload, given)

    def forge_type(self, payload: dict[str, Any], native_event: str) -> str:
        # Claude's /compact summary runs as a subagent with an empty agent_type and fires
        # SubagentStop (twice, observed): not the user's subagent, so a "keep working"
        # agent:subagent_stop hook must not re-prompt it; it is agent:native:SubagentStop.
        if native_event == "SubagentStop" and payload.get("agent_type") == "":
            return NATIVE
        return super().forge_type(payload, native_event)


def _unanswered(event: str, verdict: Verdict) -> NativeAnswer:
    """``agent:native``: no answer at all. forge does not know what each such event
    reads (WorktreeCreate's stdout is a path), so a decision, context or message there
    is reported, never written."""
    dropped = [f"everything: forge writes no answer on {event} (agent:native)"] \
        if (verdict.decision in ("deny", "ask") or verdict.context or verdict.messages or verdict.tool_args) else []
    return json_answer({}, dropped)


class ClaudeWriter(Writer):
    #: events whose hookSpecificOutput takes additionalContext (a subagent's start: for it)
    context_events = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure",
                                "UserPromptSubmit", "SessionStart", "SubagentStart"})
    #: events a top-level {"decision": "block", "reason"} stops
    block_events = frozenset({"PostToolUse", "PostToolUseFailure", "UserPromptSubmit"})
    #: events where {"decision": "block", "reason"} keeps the agent working (the reason
    #: its next instruction), and where it stops a compaction (Claude's PreCompact)
    stop_events = frozenset({"Stop", "SubagentStop"})
    compact_block_events = frozenset({"PreCompact"})
    #: whether a PermissionRequest's allow carries a rewrite (updatedInput)
    permission_rewrite = True
    _permission_rewrite_dropped = "rewritten tool_args: a permission request carries a rewrite only with allow"

    def answer(self, inbound: Inbound, verdict: Verdict) -> NativeAnswer:
        event = inbound.native_event
        if self.forge_type(inbound) == NATIVE:
            return _unanswered(event, verdict)
        out: dict[str, Any] = {}
        specific: dict[str, Any] = {"hookEventName": event}
        dropped: list[str] = []
        messages = list(verdict.messages)
        if event in self.stop_events:
            reason = refusal(verdict, messages, dropped)
            if reason is not None:
                out.update(decision="block", reason=reason)
        elif event == "PreToolUse":
            self._pre_tool_use(specific, verdict, dropped)
        elif event == "PermissionRequest":
            self._permission_request(specific, verdict, dropped)
        elif event in self.block_events:
            self._block(out, verdict)
        elif event in self.compact_block_events and verdict.decision == "deny":
            out.update(decision="block", reason=verdict.reason or DEFAULT_DENY)
        else:
            dropped_decision(verdict, event, dropped)
        if verdict.tool_args is not None and event not in ("PreToolUse", "PermissionRequest"):
            dropped.append(f"rewritten tool_args: {event} takes no rewrite")
        if event not in self.stop_events:
            self._context(specific, verdict, event, dropped)
        if messages:
            out["systemMessage"] = joined(messages)
        if "hookEventName" in inbound.payload and "hook_event_name" not in inbound.payload:
            _vscode(event, out, specific)
        if len(specific) > 1:
            out["hookSpecificOutput"] = specific
        return json_answer(out, dropped)

    def _pre_tool_use(self, specific: dict[str, Any], verdict: Verdict, dropped: list[str]) -> None:
        if verdict.decision is not None:
            specific["permissionDecision"] = verdict.decision
            reason = verdict.reason or (DEFAULT_DENY if verdict.decision == "deny" else None)
            if reason:
                specific["permissionDecisionReason"] = reason
        if verdict.tool_args is not None and verdict.decision != "deny":
            specific["updatedInput"] = verdict.tool_args  # Claude replaces the whole input

    def _permission_request(self, specific: dict[str, Any], verdict: Verdict, dropped: list[str]) -> None:
        # The person is being asked already: an ask is what happens without an answer.
        if verdict.decision == "deny":
            specific["decision"] = {"behavior": "deny", "message": verdict.reason or DEFAULT_DENY}
        elif verdict.decision == "allow":
            specific["decision"] = {"behavior": "allow"}
        if verdict.tool_args is None:
            return
        if verdict.decision == "allow" and self.permission_rewrite:
            specific["decision"]["updatedInput"] = verdict.tool_args
        else:
            dropped.append(self._permission_rewrite_dropped)

    def _block(self, out: dict[str, Any], verdict: Verdict) -> None:
        if verdict.decision == "deny":
            out.update(decision="block", reason=verdict.reason or DEFAULT_DENY)
        elif verdict.decision == "ask":
            out.update(decision="block", reason=ask_reason(verdict.reason))

    def _context(self, specific: dict[str, Any], verdict: Verdict, event: str, dropped: list[str]) -> None:
        if not verdict.context:
            return
        if event in self.context_events:
            specific["additionalContext"] = joined(verdict.context)
        else:
            dropped.append(f"context: {event} takes no additional context")

def _vscode(event: str, out: dict[str, Any], specific: dict[str, Any]) -> None:
    """The answer as VS Code's agent reads it, beside Claude's form (its hooks reference):
    its Stop reads ``decision: block`` and ``reason`` inside ``hookSpecificOutput``; its
    UserPromptSubmit takes only the common output, where ``continue: false`` with a
    ``stopReason`` refuses."""
    if out.get("decision") != "block":
        return
    if event == "Stop":
        specific.update(decision="block", reason=out["reason"])
    elif event == "UserPromptSubmit":
        out.update({"continue": False, "stopReason": out["reason"]})


class ClaudeHooks(HookFormat):
    #: events whose plain stdout on exit 0 is context for the model
    plain_context_events = frozenset({"UserPromptSubmit", "SessionStart"})
    #: events where the hook's answer decides whether the agent stops
    stop_events = frozenset({"Stop", "SubagentStop"})
    variables: tuple[str, ...] = ("CLAUDE_PROJECT_DIR",)

    def payload(self, event: HookEvent, project_dir: str) -> dict[str, Any]:
        payload = super().payload(event, project_dir)
        payload["permission_mode"] = "default"
        if payload["hook_event_name"] == "SessionStart":
            payload.setdefault("source", "startup")
        return payload

    def env(self, event: HookEvent, project_dir: str) -> dict[str, str]:
        return {"CLAUDE_PROJECT_DIR": project_dir}

    def read_answer(self, native_event: str, exit_code: int, stdout: str, stderr: str) -> dict[str, Any]:
        # Observed with Claude Code 2.1.328 (tests/realagents/answer_rules.observed.json):
        # exit 2 blocks (stderr is the reason, even when empty); JSON on stdout is read on
        # exit 0 and on other statuses too (a JSON deny with exit 1 blocks).
        doc = json_object(stdout)
        if exit_code == 2:
            reason = stderr.strip() or (self._read_json(native_event, doc).get("reason") if doc else None)
            return {"decision": "deny", "reason": reason or f"{self.words.name} hook exited 2"}
        if doc is not None:
            return self._read_json(native_event, doc)
        if exit_code != 0:  # a non-blocking error: the agent proceeds
            return {"message": exit_problem(self.words.name, exit_code, stderr)}
        text = stdout.strip()
        return {"context": text} if text and native_event in self.plain_context_events else {}

    def _read_json(self, native_event: str, doc: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = {}
        specific = doc.get("hookSpecificOutput")
        specific = specific if isinstance(specific, dict) else {}
        _copy_str(doc, "systemMessage", answer, "message")
        _copy_str(specific, "additionalContext", answer, "context")
        if native_event == "PreToolUse":
            self._read_pre_tool_use(doc, specific, answer)
        elif native_event == "PermissionRequest":
            self._read_permission(specific, answer)
        if native_event in self.stop_events:
            return self._read_stop(doc, answer)
        if "decision" not in answer and doc.get("decision") == "block":
            answer.update(decision="deny", reason=text_of(doc.get("reason")) or DEFAULT_DENY)
        if doc.get("continue") is False:
            answer.update(decision="deny", reason=text_of(doc.get("stopReason")) or "the hook stopped the agent")
        return answer

    def _read_stop(self, doc: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        """A Stop or SubagentStop answer as Claude Code 2.1.328 reads it (research,
        p2_stop.py): ``decision: block`` keeps the agent working, with or without a
        reason ("Blocked by hook"); so does ``additionalContext`` alone (the context is
        the next instruction); ``continue: false`` ends the session, which under forge is
        letting it stop."""
        if doc.get("continue") is False:
            answer.pop("context", None)
            stop = text_of(doc.get("stopReason"))
            return {**answer, "message": stop} if stop else answer
        if doc.get("decision") == "block":
            answer.update(decision="deny", reason=text_of(doc.get("reason")) or "Blocked by hook")
        elif "context" in answer:
            answer.update(decision="deny", reason=answer.pop("context"))
        return answer

    def _read_pre_tool_use(self, doc: dict[str, Any], specific: dict[str, Any], answer: dict[str, Any]) -> None:
        decision = specific.get("permissionDecision")
        legacy = {"approve": "allow", "block": "deny"}.get(str(doc.get("decision")))
        decision = decision if decision in ("allow", "deny", "ask") else legacy
        if decision is not None:
            answer["decision"] = decision
            reason = text_of(specific.get("permissionDecisionReason")) or text_of(doc.get("reason"))
            if reason:
                answer["reason"] = reason
        if isinstance(specific.get("updatedInput"), dict) and decision != "deny":
            answer["updated_input"] = specific["updatedInput"]

    def _read_permission(self, specific: dict[str, Any], answer: dict[str, Any]) -> None:
        decision = specific.get("decision")
        if not isinstance(decision, dict):
            return
        if decision.get("behavior") == "allow":
            answer["decision"] = "allow"
            if isinstance(decision.get("updatedInput"), dict):
                answer["updated_input"] = decision["updatedInput"]
        elif decision.get("behavior") == "deny":
            answer.update(decision="deny", reason=text_of(decision.get("message")) or DEFAULT_DENY)

class ClaudeSettings(Settings):
    files = (".claude/settings.json", "~/.claude/settings.json")
    local_files: tuple[str, ...] = (".claude/settings.local.json",)  # personal, not committed
    agent_timeout = 600.0  # "vo=e.timeout?e.timeout*1000:pp", pp=600000 (2.1.328)
    #: What Claude's matchers test beyond the tool (function wbn in 2.1.328): the source
    #: of a session's start, the reason of its end, a compaction's trigger, a
    #: notification's type, a subagent's type; and on its other events these fields.
    matched_types = frozenset({"session:start", "session:end", "session:pre_compact", "session:post_compact",
                               "session:notification", "agent:subagent_start", "agent:subagent_stop"})
    native_subjects = {"Setup": "trigger", "StopFailure": "error", "UserPromptExpansion": "command_name",
                       "PreModelSwitch": "to_model", "PostModelSwitch": "to_model", "Elicitation": "mcp_server_name",
                       "ElicitationResult": "mcp_server_name", "ConfigChange": "source", "DirectoryAdded": "source",
                       "InstructionsLoaded": "load_reason", "SubagentStop": "agent_type"}

    def default_timeout(self, native_event: str) -> float | None:
        # A SessionEnd hook without a timeout gets 1.5 s in Claude (XTa=1500 in 2.1.328).
        return 1.5 if native_event == "SessionEnd" else self.agent_timeout

    def if_rule(self, rule: str) -> Callable[[HookEvent], bool]:
        from forge_hookd.dialects.matching import if_rule  # 3 ms (-X importtime): a kept matcher's

        return if_rule(rule, self.words)

    #: the timeout the snippet gives SessionEnd: Claude gives a hook there 1.5 s unless
    #: its entry says otherwise (Codex's own default is fine: None)
    session_end_timeout: int | None = 30

    def snippet(self, command: Command, limit: float | None = None) -> dict[str, Any]:
        hooks: dict[str, Any] = {}
        for event in self.words.events:
            own = limit
            if event == "SessionEnd" and self.session_end_timeout is not None:
                own = self.session_end_timeout if limit is None else min(limit, self.session_end_timeout)
            if limit is None:  # --print-config: no --agent-limit; SessionEnd keeps its own timeout
                text, timeout = self.limited(command, event, None)[0], ({} if own is None else {"timeout": own})
            else:
                text, timeout = self.limited(command, event, own)
            hook = [{"type": "command", "command": text, **timeout}]
            hooks[event] = [{"matcher": "*", "hooks": hook}] if event in _MATCHED else [{"hooks": hook}]
        return {"hooks": hooks}


_MATCHED = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
                      "PermissionDenied"})


def _copy_str(source: dict[str, Any], key: str, answer: dict[str, Any], to: str) -> None:
    value = text_of(source.get(key))
    if value:
        answer[to] = value


DIALECT = Dialect(WORDS, reader=ClaudeReader(WORDS), writer=ClaudeWriter(WORDS), hooks=ClaudeHooks(WORDS),
                  settings=ClaudeSettings(WORDS))
