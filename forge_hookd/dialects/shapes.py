"""Whose payload this is: an agent's payload that reaches a command written for another
(issue 30, items 6 and 9; DESIGN.md, "Dialects").

The command install writes names its agent; this is the fallback for a payload that
reaches a command written for another. Codex 0.171 copies Cursor's hooks into Codex (its
external-agent migration), so ``--dialect cursor`` receives Codex's
``{"hook_event_name": "PreToolUse", "turn_id": ...}``; VS Code's agent and the Copilot
app read ``.claude/settings.json`` and send their own shape (``hookEventName``,
``sessionId``), which the ``claude`` dialect reads, whichever command it reached (VS
Code reads Copilot's ``.github/hooks`` too). Read as the wrong agent's, such
a payload becomes ``agent:native``, which no guard matches: an allow.

A payload is another agent's when the event it names is one the commanded agent does
not fire but another does; which of those, its fields tell (Codex's ``turn_id``,
Cursor's ``conversation_id``, Copilot's ``hookName``). A Codex payload (``turn_id``,
``model``) reaching ``--dialect claude`` is Codex's too: Codex reads answers more
strictly. A payload of one of the agents that copy Claude's protocol (Qwen, Droid,
Auggie, Crush, cn) reaching another's command, Claude's included, is told by its tool's
name. Everything else stays the commanded agent's: an event no agent fires is a new one
of its own (``agent:native``).
"""

from __future__ import annotations

from typing import Any

from forge_hookd import dialects


def named_event(payload: dict[str, Any]) -> str | None:
    """The event a payload names itself, in any agent's spelling."""
    for key in ("hook_event_name", "hookEventName", "hookName"):
        value = payload.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def owner(commanded: str, payload: dict[str, Any]) -> str:
    """The dialect that reads ``payload``: ``commanded`` (the one named on the command
    line) unless the payload is another known agent's by its event name and fields."""
    event = named_event(payload)
    if event is None:
        return commanded
    if "hookEventName" in payload and "hook_event_name" not in payload:
        return "claude"  # VS Code's agent, from any settings file it reads (.github/hooks too)
    if commanded == "claude" and _codex(payload) and dialects.get("codex").words.known(event):
        return "codex"
    if dialects.get(commanded).words.known(event):
        return _family_member(commanded, payload) or commanded
    knowing = [name for name in dialects.NAMES if name != commanded and dialects.get(name).words.known(event)]
    if not knowing:
        return commanded
    for name, fits in (("codex", _codex), ("cursor", _cursor), ("copilot", _copilot), ("claude", _claude)):
        if name in knowing and fits(payload):
            return name
    return knowing[0]


def _family_member(commanded: str, payload: dict[str, Any]) -> str | None:
    """Among the agents that speak Claude's protocol (claude and its aliases in
    dialects/family.py), the one whose tool a payload names when the commanded one has no
    such tool (Qwen's ``run_shell_command`` reaching ``--dialect claude``: else an
    unmapped tool, judged only by its shape); None to keep the commanded one."""
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or tool in dialects.get(commanded).words.tools:
        return None
    from forge_hookd.dialects.family import FAMILY  # only for a tool the commanded agent has not

    speakers = ("claude", *FAMILY)
    if commanded not in speakers:
        return None
    return next((name for name in speakers if name != commanded and tool in dialects.get(name).words.tools), None)


def _codex(payload: dict[str, Any]) -> bool:
    return "turn_id" in payload and "hook_event_name" in payload


def _cursor(payload: dict[str, Any]) -> bool:
    return "conversation_id" in payload or "cursor_version" in payload or "workspace_roots" in payload


def _copilot(payload: dict[str, Any]) -> bool:
    return "hookName" in payload or "toolName" in payload or "toolArgs" in payload


def _claude(payload: dict[str, Any]) -> bool:
    return "hook_event_name" in payload or "hookEventName" in payload
