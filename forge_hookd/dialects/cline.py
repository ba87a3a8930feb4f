"""Cline's hooks (the CLI ``cline`` 3.0.x, which runs ``@cline/core``; and the VS Code
extension): one executable per event, named for it (``PreToolUse``, ``TaskStart`` ...),
under ``.cline/hooks/`` and ``~/.cline/hooks/`` (the CLI), ``.clinerules/hooks/`` and
``~/Documents/Cline/Hooks/`` (the extension; the CLI reads them too).

The payload names its event in ``hookName``: the CLI's own names (``tool_call``,
``tool_result``, ``prompt_submit``, ``agent_start`` ...) or the extension's (the file
names). The CLI's tool call is ``tool_call {name, input}`` (``run_commands`` with a
``commands`` list); the extension's ``preToolUse {toolName, parameters}`` beside
``workspaceRoots``, and an older one ``{tool, parameters}`` beside ``workspacePath``.

The answer is JSON on stdout: ``cancel`` (only the JSON boolean ``true`` stops),
``errorMessage``, ``contextModification`` (at most 50 000 characters; more is cut by
Cline), ``overrideInput`` (PreToolUse: the whole new input). Cline ignores the exit
status and lets the task go on when a hook fails, so every deny, forge's own failures
included, is printed as the cancel JSON (exit 0). Sources: /tmp/research/agents.md,
section 1 (cline/cline@21cb8d2, ``@cline/core`` 0.0.86).
"""

from __future__ import annotations

from typing import Any

import orjson

from forge_hookd.dialects.base import (DEFAULT_DENY, Command, Dialect, HookFormat, Inbound, NativeAnswer, PayloadError, Reader,
                                       Settings, Verdict, Vocabulary, Writer, agent_data, ask_reason,
                                       dropped_decision, json_answer, json_object, joined, text_of)
from forge_hookd.events import TOOL_EVENT_TYPES

#: Cline cuts a context longer than this (MAX_HOOK_CONTEXT_SIZE)
CONTEXT_LIMIT = 50_000

WORDS = Vocabulary(
    "cline",
    events={"PreToolUse": "tool:pre_execute", "PostToolUse": "tool:post_execute",
            "UserPromptSubmit": "user:prompt_submit", "TaskStart": "session:start",
            "TaskCancel": "user:interrupt", "SessionShutdown": "session:end", "PreCompact": "session:pre_compact"},
    tools={"run_commands": "bash", "execute_command": "bash", "read_files": "read", "read_file": "read",
           "editor": "edit", "apply_patch": "edit", "replace_in_file": "edit", "write_to_file": "write",
           "search_codebase": "grep", "search_files": "grep", "fetch_web_content": "web_fetch", "web_fetch": "web_fetch"},
    blocking_events=frozenset({"PreToolUse", "UserPromptSubmit"}),
    native_events=frozenset({"TaskResume", "TaskComplete", "TaskError"}),
    # the CLI's hookName for each executable's event
    aliases={"tool_call": "PreToolUse", "tool_result": "PostToolUse", "prompt_submit": "UserPromptSubmit",
             "agent_start": "TaskStart", "agent_resume": "TaskResume", "agent_abort": "TaskCancel",
             "agent_end": "TaskComplete", "agent_error": "TaskError", "session_shutdown": "SessionShutdown"},
)
_FILE_NAME = {**{e: e for e in (*WORDS.events, *WORDS.native_events)}, **WORDS.aliases}


def _payload_part(payload: dict[str, Any], *keys: str) -> dict[str, Any] | None:
    for key in keys:
        part = payload.get(key)
        if isinstance(part, dict):
            return part
    return None


def _shell_text(value: object) -> str | None:
    """One shell command line of ``run_commands``' many shapes (a string, a list,
    ``{command, args}``), or None."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        command = value.get("command", value.get("cmd"))
        args = value.get("args")
        if isinstance(command, str):
            return " ".join([command, *(a for a in args if isinstance(a, str))]) if isinstance(args, list) else command
    if isinstance(value, list):
        lines = [_shell_text(v) for v in value]
        return "\n".join(line for line in lines if line is not None)
    return None


class ClineReader(Reader):
    session_keys = ("taskId",)

    def named_event(self, payload: dict[str, Any]) -> str | None:
        named = payload.get("hookName")
        if not isinstance(named, str) or not named:
            return None
        return _FILE_NAME.get(named, named)

    def event_name(self, payload: dict[str, Any], given: str | None) -> str:
        try:
            return super().event_name(payload, _FILE_NAME.get(given, given) if given else None)
        except PayloadError as exc:
            raise PayloadError(str(exc).replace("'hook_event_name'", "'hookName'"), exc.native_event) from None

    def start_dir(self, payload: dict[str, Any]) -> str | None:
        roots = payload.get("workspaceRoots")
        if isinstance(roots, list) and roots and isinstance(roots[0], str) and roots[0]:
            return roots[0]
        path = payload.get("workspacePath")  # the extension's older payload
        return path if isinstance(path, str) and path else super().start_dir(payload)

    def _call(self, payload: dict[str, Any], native_event: str) -> tuple[str, Any]:
        """The tool's name and input, whichever payload shape carries them."""
        cli = _payload_part(payload, "tool_call" if native_event == "PreToolUse" else "tool_result")
        if cli is not None and isinstance(cli.get("name"), str) and cli["name"]:
            return cli["name"], cli.get("input")
        ext = _payload_part(payload, "preToolUse" if native_event == "PreToolUse" else "postToolUse")
        if ext is not None:
            name = ext.get("toolName", ext.get("tool"))
            if isinstance(name, str) and name:
                return name, ext.get("parameters")
        raise PayloadError(f"the cline {native_event} payload names no tool", native_event)

    def tool_name(self, payload: dict[str, Any], native_event: str, forge_type: str | None) -> str | None:
        if forge_type not in TOOL_EVENT_TYPES:
            return None
        return self._call(payload, native_event)[0]

    def event_data(self, payload: dict[str, Any], native_event: str, forge_type: str,
                   native_tool: str | None) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if forge_type in TOOL_EVENT_TYPES:
            data["tool_args"] = _tool_args(*self._call(payload, native_event), native_event)
            result = _payload_part(payload, "tool_result")
            if result is not None and "output" in result:
                data["tool_result"] = result["output"]
                if result.get("error") not in (None, ""):
                    data["error"] = result["error"]
            post = _payload_part(payload, "postToolUse")
            if "tool_result" not in data and post is not None and "result" in post:
                data["tool_result"] = post["result"]
        if forge_type == "user:prompt_submit":
            part = _payload_part(payload, "userPromptSubmit")
            prompt = part.get("prompt") if part is not None else payload.get("prompt")
            if not isinstance(prompt, str):
                raise PayloadError(f"the cline {native_event} payload has no prompt", native_event)
            data["user_input"] = prompt
        data["agent"] = agent_data(self.words.name, native_event, native_tool, payload)
        return data


def _tool_args(name: str, given: Any, native_event: str) -> dict[str, Any]:
    """The tool input as a forge ``tool_args`` object: a shell call gets ``command``
    (each of ``run_commands``' commands on a line of its own, so a guard reads them all)."""
    args: dict[str, Any] = dict(given) if isinstance(given, dict) else {}
    if given is not None and not isinstance(given, dict):
        args = {"input": given}
    if WORDS.canonical_tool(name) == "bash" and not isinstance(args.get("command"), str):
        text = _shell_text(args.get("commands", args.get("cmd", given)))
        if text is None:
            raise PayloadError(f"the cline {native_event} payload's {name} call has no command", native_event)
        args["command"] = text
    return args


class ClineWriter(Writer):
    """The cancel JSON, always on exit 0 (Cline reads no exit status)."""

    def answer(self, inbound: Inbound, verdict: Verdict) -> NativeAnswer:
        event = inbound.native_event
        out: dict[str, Any] = {}
        dropped: list[str] = []
        stops = event in ("PreToolUse", "PostToolUse", "UserPromptSubmit")
        if stops and verdict.decision == "deny":
            out.update(cancel=True, errorMessage=verdict.reason or DEFAULT_DENY)
        elif stops and verdict.decision == "ask":
            out.update(cancel=True, errorMessage=ask_reason(verdict.reason))  # Cline cannot ask a hook's question
        elif verdict.decision == "allow" and stops:
            dropped.append("decision allow: Cline's hooks cannot approve (its own approval still applies)")
        else:
            dropped_decision(verdict, event, dropped)
        if verdict.tool_args is not None:
            if event == "PreToolUse" and "cancel" not in out:
                out["overrideInput"] = _native_input(inbound, verdict.tool_args)
            elif "cancel" not in out:
                dropped.append(f"rewritten tool_args: {event} takes no rewrite")
        context = joined([*verdict.context, *verdict.messages])
        if context:
            if len(context) > CONTEXT_LIMIT:
                dropped.append(f"context beyond {CONTEXT_LIMIT} characters (Cline's limit): cut")
                context = context[:CONTEXT_LIMIT]
            out["contextModification"] = context
        return json_answer(out, dropped)

    def deny_unknown(self, reason: str) -> NativeAnswer:
        """Cline reads no exit status: even a payload too broken to name its event is
        answered with the cancel JSON."""
        return NativeAnswer(stdout=orjson.dumps({"cancel": True, "errorMessage": reason}) + b"\n", stderr=reason)


def _native_input(inbound: Inbound, tool_args: dict[str, Any]) -> Any:
    """A rewritten forge ``tool_args`` as the tool's own input: the ``command`` forge
    made of ``run_commands``' list goes back into ``commands``."""
    agent = inbound.event.data.get("agent") if inbound.event is not None else None
    old = inbound.event.data.get("tool_args") if inbound.event is not None else None
    payload = agent.get("payload") if isinstance(agent, dict) else None
    cli = payload.get("tool_call") if isinstance(payload, dict) else None
    original = cli.get("input") if isinstance(cli, dict) else None
    if isinstance(original, dict) and "command" not in original and isinstance(old, dict) and "command" in old:
        new = {k: v for k, v in tool_args.items() if k != "command"}
        if tool_args.get("command") != old.get("command"):
            new["commands"] = [tool_args.get("command")]
        return new
    return tool_args


class ClineHooks(HookFormat):
    """A hook written for Cline (``"format": "cline"``): its JSON, whatever its status."""

    def read_answer(self, native_event: str, exit_code: int, stdout: str, stderr: str) -> dict[str, Any]:
        lines = [line for line in stdout.splitlines() if line.startswith("HOOK_CONTROL\t")]
        doc = json_object(lines[-1].partition("\t")[2] if lines else stdout)
        if doc is None:
            return {}
        answer: dict[str, Any] = {}
        context = text_of(doc.get("contextModification", doc.get("context")))
        message = text_of(doc.get("errorMessage"))
        if doc.get("cancel") is True:
            answer.update(decision="deny", reason=message or context or DEFAULT_DENY)
            return answer
        if context or message:
            answer["context"] = context or message
        if native_event == "PreToolUse" and isinstance(doc.get("overrideInput"), dict):
            answer["updated_input"] = doc["overrideInput"]
        return answer


class ClineSettings(Settings):
    """Cline has no settings file: its hooks are executables named for their events
    (agents/cline_hooks.py installs forge's)."""

    #: the hooks directories: the CLI's project and user ones, then the extension's
    directories = (".cline/hooks", "~/.cline/hooks", ".clinerules/hooks", "~/Documents/Cline/Hooks")
    files = (".cline/hooks", "~/.cline/hooks")
    agent_timeout = 120.0  # tool hooks; the others run detached, without one
    matched_tools = False

    def snippet(self, command: Command, limit: float | None = None) -> dict[str, Any]:
        # Cline's own timeout (120 s, not configurable) is below forge's ceiling: said on the command
        return {"hooks": {event: [{"command": self.limited(command, event, None if limit is None else
                                                           min(limit, self.agent_timeout), f":{event}")[0]}]
                          for event in self.words.events}}


DIALECT = Dialect(WORDS, reader=ClineReader(WORDS), writer=ClineWriter(WORDS), hooks=ClineHooks(WORDS),
                  settings=ClineSettings(WORDS))
