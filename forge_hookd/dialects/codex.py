"""Codex's hook protocol: Claude Code's, read more strictly (openai/codex,
codex-rs/hooks: output_parser.rs and the published schemas under schema/generated).

What differs from Claude, and what forge does about it:

- JSON is read only on exit 0, and an answer Codex finds invalid is ignored (the call
  proceeds). Every answer forge writes validates against Codex's output schemas.
- PreToolUse has no ask (forge answers deny, saying a person must decide) and no
  allow without ``updatedInput`` (forge's allow alone is dropped: Codex's own rules
  apply); ``updatedInput`` travels only with allow; a deny needs a non-empty reason.
- Exit 2 with an empty stderr is ignored.
- A PermissionRequest answer cannot carry a rewrite.
- Stop and SubagentStop keep the agent working on ``{"decision": "block", "reason"}``
  with a non-empty reason (exit 0), or exit 2 with a non-empty stderr, and take nothing
  but the schema's keys (no context); Codex has no cap on this loop (779 refusals in
  300 s, research), so FORGE_MAX_CONTINUES is the only bound. PreCompact cannot be
  refused (``continue: false`` would abort the whole turn): a deny is reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from forge_hookd.errors import ConfigError

from forge_hookd.events import HookEvent
from forge_hookd.dialects.base import (DEFAULT_DENY, Dialect, Inbound, NativeAnswer, Reader, Verdict, Vocabulary, ask_reason,
                   exit_problem, json_object, text_of)
from forge_hookd.dialects.claude import ClaudeHooks, ClaudeSettings, ClaudeWriter

WORDS = Vocabulary(
    "codex",
    events={
        "PreToolUse": "tool:pre_execute",
        "PostToolUse": "tool:post_execute",
        "UserPromptSubmit": "user:prompt_submit",
        "SessionStart": "session:start",
        "PermissionRequest": "permission:prompt",
        "SessionEnd": "session:end",
        "Interrupt": "user:interrupt",
        "Stop": "agent:stop",
        "SubagentStart": "agent:subagent_start",
        "SubagentStop": "agent:subagent_stop",
        "PreCompact": "session:pre_compact",
        "PostCompact": "session:post_compact",
    },
    # Codex reports its shell as Bash (matcher aliases aside) and patches as apply_patch.
    tools={"Bash": "bash", "apply_patch": "edit"},
    blocking_events=frozenset({"PreToolUse", "UserPromptSubmit", "PermissionRequest"}),
    # Undocumented in 0.169.0, fired on every model request; observe-only upstream.
    native_events=frozenset({"PreModelRequest", "PostModelRequest"}),
)


class CodexWriter(ClaudeWriter):
    #: events Codex publishes an output schema for (SessionEnd has none: no answer)
    answered_events = frozenset({"PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart",
                                 "PermissionRequest", "Interrupt", "Stop", "SubagentStop", "SubagentStart",
                                 "PreCompact", "PostCompact"})
    context_events = frozenset({"PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "SubagentStart"})
    block_events = frozenset({"PostToolUse", "UserPromptSubmit"})
    compact_block_events: frozenset[str] = frozenset()  # continue:false would abort the turn
    permission_rewrite = False
    _permission_rewrite_dropped = "rewritten tool_args: Codex's PermissionRequest takes no rewrite"

    def _pre_tool_use(self, specific: dict[str, Any], verdict: Verdict, dropped: list[str]) -> None:
        if verdict.decision in ("deny", "ask"):
            reason = verdict.reason or DEFAULT_DENY
            specific["permissionDecision"] = "deny"
            specific["permissionDecisionReason"] = ask_reason(verdict.reason) if verdict.decision == "ask" else reason
            return
        if verdict.tool_args is not None:
            specific["permissionDecision"] = "allow"  # Codex takes a rewrite only with allow
            specific["updatedInput"] = verdict.tool_args
        elif verdict.decision == "allow":
            dropped.append("decision allow: Codex's PreToolUse takes allow only with a rewrite "
                           "(its own approval rules apply)")

    def answer(self, inbound: Inbound, verdict: Verdict) -> NativeAnswer:
        if inbound.native_event not in self.answered_events:
            # An event whose output schema forge does not know gets no JSON at all:
            # an answer Codex finds invalid is worse than none.
            dropped = [f"everything: forge writes no answer for Codex's {inbound.native_event}"] \
                if (verdict.decision in ("deny", "ask") or verdict.context or verdict.messages) else []
            return NativeAnswer(dropped=dropped)
        return super().answer(inbound, verdict)


#: where Codex reads exit 2 (with a non-empty stderr) as a block; elsewhere it is "Failed"
_EXIT_2_EVENTS = frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit", "PostToolUse", "Stop",
                            "SubagentStop"})
#: the keys Codex's stop.command.output schema allows (additionalProperties: false)
_STOP_KEYS = frozenset({"decision", "reason", "continue", "stopReason", "suppressOutput", "systemMessage"})


class CodexHooks(ClaudeHooks):
    variables = ()

    def env(self, event: HookEvent, project_dir: str) -> dict[str, str]:
        return {}

    def read_answer(self, native_event: str, exit_code: int, stdout: str, stderr: str) -> dict[str, Any]:
        if exit_code == 2 and not stderr.strip():
            return {"message": "codex hook exited 2 without a reason on stderr: ignored, as Codex does"}
        if exit_code == 2 and native_event not in _EXIT_2_EVENTS:
            return {"message": f"codex hook exited 2 on {native_event}: a failed hook, Codex proceeds"}
        if exit_code not in (0, 2):  # Codex reads JSON only on exit 0: a failed hook, it proceeds
            return {"message": exit_problem(self.words.name, exit_code, stderr)}
        if exit_code == 0:
            problem = _invalid(native_event, stdout)
            if problem:
                return {"message": f"codex hook answer ignored, as Codex does: {problem}"}
        answer = super().read_answer(native_event, exit_code, stdout, stderr)
        if answer.get("decision") == "allow" and native_event == "PreToolUse":
            del answer["decision"]  # Codex's allow only carries the rewrite; it approves nothing
        return answer


def _invalid(native_event: str, stdout: str) -> str | None:
    """Why Codex would reject this exit-0 answer, or None."""
    if native_event == "PreToolUse":
        return invalid_pre_tool_use(json_object(stdout))
    if native_event in ("Stop", "SubagentStop"):
        return invalid_stop(stdout)
    if native_event == "PreCompact" and json_object(stdout) is not None:
        doc = json_object(stdout) or {}
        if "decision" in doc or "hookSpecificOutput" in doc:
            return "PreCompact takes no decision: Codex cannot be kept from compacting"
    return None


def invalid_stop(stdout: str) -> str | None:
    """Why Codex would not read this Stop/SubagentStop answer (stop.command.output and
    its parser, observed with 0.169.0), or None."""
    if not stdout.strip():
        return None
    doc = json_object(stdout)
    if doc is None:
        return "a Stop answer must be JSON (plain text is a failed hook)"
    extra = sorted(set(doc) - _STOP_KEYS)
    if extra:
        return f"{extra[0]!r} is not a key of a Stop answer"
    if doc.get("decision") == "block" and not text_of(doc.get("reason")):
        return "decision:block without a non-empty reason"
    if "decision" in doc and doc["decision"] != "block":
        return f"decision {doc['decision']!r} on a stop"
    return None


def invalid_pre_tool_use(doc: dict[str, Any] | None) -> str | None:
    """Why Codex would reject this PreToolUse answer (output_parser.rs), or None."""
    if doc is None:
        return None
    if doc.get("continue") is False or doc.get("stopReason") is not None or doc.get("suppressOutput") is True:
        return "PreToolUse takes no continue:false, stopReason or suppressOutput"
    specific = doc.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    decision = specific.get("permissionDecision")
    reason = specific.get("permissionDecisionReason")
    updated = specific.get("updatedInput")
    if decision is None and reason is None and updated is None:
        return _invalid_legacy(doc.get("decision"), doc.get("reason"))
    if updated is not None and decision != "allow":
        return "updatedInput without permissionDecision:allow"
    if decision == "allow" and updated is None:
        return "permissionDecision:allow without updatedInput"
    if decision == "ask":
        return "permissionDecision:ask"
    if decision == "deny" and not (isinstance(reason, str) and reason.strip()):
        return "permissionDecision:deny without a non-empty permissionDecisionReason"
    if decision is None and reason is not None:
        return "permissionDecisionReason without permissionDecision"
    return None


def _invalid_legacy(decision: object, reason: object) -> str | None:
    if decision == "approve":
        return "decision:approve"
    if decision == "block" and not (isinstance(reason, str) and reason.strip()):
        return "decision:block without a non-empty reason"
    if decision is None and reason is not None:
        return "reason without decision"
    return None


class CodexSettings(ClaudeSettings):
    files = (".codex/hooks.json", "~/.codex/hooks.json")
    local_files = ()  # Codex has no personal project file (it inherited Claude's by mistake)
    agent_timeout = 600.0  # discovery.rs: timeout_sec.unwrap_or(600)
    session_end_timeout = None
    # Codex's matchers (events/common.rs): tools, a session's source, a compaction's
    # trigger, a subagent's type; Stop, prompts and the model events ignore them.
    matched_types = frozenset({"session:start", "session:pre_compact", "session:post_compact",
                               "agent:subagent_start", "agent:subagent_stop"})
    native_subjects: dict[str, str] = {}

    def default_timeout(self, native_event: str) -> float | None:
        return self.agent_timeout

    def if_rule(self, rule: str) -> Callable[[HookEvent], bool]:
        raise ConfigError("'if' is Claude Code's filter; Codex ignores it")


DIALECT = Dialect(WORDS, reader=Reader(WORDS), writer=CodexWriter(WORDS), hooks=CodexHooks(WORDS),
                  settings=CodexSettings(WORDS))
