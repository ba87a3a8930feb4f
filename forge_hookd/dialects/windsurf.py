"""Windsurf's Cascade hooks (https://docs.windsurf.com/windsurf/cascade/hooks; no CLI on
npm, so tests/realagents/payloads/windsurf/ holds the docs' examples).

Each event is a tool class (``pre_run_command``, ``pre_write_code``, ``pre_read_code``,
``pre_mcp_tool_use``, ``pre_user_prompt`` and their post events); the payload names it in
``agent_action_name``, the session in ``trajectory_id``, and the action in ``tool_info``.
The only answer is the exit status: 2 blocks a pre event with stderr as the reason the
agent reads; any other status lets the action proceed. So there is no ask (forge denies,
saying a person must decide), no rewrite and no context (each reported as dropped). The
command ``forge-hook install`` writes exits 2 itself when forge-hook-run cannot be started.
"""

from __future__ import annotations

import time
from typing import Any

from forge_hookd.dialects.base import (DEFAULT_DENY, Command, Dialect, HookFormat, Inbound, NativeAnswer, PayloadError,
                                       Reader, Settings, Verdict, Vocabulary, Writer, agent_data, ask_reason,
                                       dropped_decision, exit_problem)
from forge_hookd.events import TOOL_EVENT_TYPES, HookEvent

PRE = ("pre_run_command", "pre_write_code", "pre_read_code", "pre_mcp_tool_use")
POST = ("post_run_command", "post_write_code", "post_read_code", "post_mcp_tool_use")
#: the tool of each tool event: its own, as Windsurf has no tool names
EVENT_TOOLS = {"pre_run_command": "run_command", "post_run_command": "run_command",
               "pre_write_code": "write_code", "post_write_code": "write_code",
               "pre_read_code": "read_code", "post_read_code": "read_code"}
_MCP = "mcp__"

WORDS = Vocabulary(
    "windsurf",
    events={**{e: "tool:pre_execute" for e in PRE}, **{e: "tool:post_execute" for e in POST},
            "pre_user_prompt": "user:prompt_submit", "post_cascade_response": "llm:post_response"},
    tools={"run_command": "bash", "write_code": "edit", "read_code": "read"},
    blocking_events=frozenset({*PRE, "pre_user_prompt"}),
    native_events=frozenset({"post_cascade_response_with_transcript", "post_setup_worktree"}),
)


def _info(payload: dict[str, Any], native_event: str) -> dict[str, Any]:
    info = payload.get("tool_info")
    if not isinstance(info, dict):
        raise PayloadError(f"the windsurf {native_event} payload has no 'tool_info' object", native_event)
    return info


class WindsurfReader(Reader):
    session_keys = ("trajectory_id",)

    def named_event(self, payload: dict[str, Any]) -> str | None:
        named = payload.get("agent_action_name")
        return named if isinstance(named, str) and named else None

    def event_name(self, payload: dict[str, Any], given: str | None) -> str:
        try:
            return super().event_name(payload, given)
        except PayloadError as exc:
            raise PayloadError(str(exc).replace("'hook_event_name'", "'agent_action_name'"), exc.native_event) \
                from None

    def start_dir(self, payload: dict[str, Any]) -> str | None:
        info = payload.get("tool_info")
        cwd = info.get("cwd") if isinstance(info, dict) else None
        return cwd if isinstance(cwd, str) and cwd else None

    def tool_name(self, payload: dict[str, Any], native_event: str, forge_type: str | None) -> str | None:
        if forge_type not in TOOL_EVENT_TYPES:
            return None
        if native_event in EVENT_TOOLS:
            return EVENT_TOOLS[native_event]
        info = _info(payload, native_event)
        server, tool = info.get("mcp_server_name"), info.get("mcp_tool_name")
        if not isinstance(server, str) or not isinstance(tool, str) or not tool:
            raise PayloadError(f"the windsurf {native_event} payload names no MCP server and tool", native_event)
        return f"{_MCP}{server}__{tool}"

    def event_data(self, payload: dict[str, Any], native_event: str, forge_type: str,
                   native_tool: str | None) -> dict[str, Any]:
        data: dict[str, Any] = {}
        given = payload.get("tool_info")
        info: dict[str, Any] = given if isinstance(given, dict) else {}
        if forge_type in TOOL_EVENT_TYPES:
            data["tool_args"] = _tool_args(_info(payload, native_event), native_event)
        if "mcp_result" in info:
            data["tool_result"] = info["mcp_result"]
        if forge_type == "user:prompt_submit":
            prompt = info.get("user_prompt")
            if not isinstance(prompt, str):
                raise PayloadError(f"the windsurf {native_event} payload has no 'tool_info.user_prompt' string",
                                   native_event)
            data["user_input"] = prompt
        if native_event == "post_cascade_response" and isinstance(info.get("response"), str):
            data["llm_response"] = info["response"]
        if isinstance(payload.get("model_name"), str):
            data["llm_model"] = payload["model_name"]
        data["agent"] = agent_data(self.words.name, native_event, native_tool, payload)
        return data


def _tool_args(info: dict[str, Any], native_event: str) -> dict[str, Any]:
    if native_event.endswith("_run_command"):
        command = info.get("command_line")
        if not isinstance(command, str):
            raise PayloadError(f"the windsurf {native_event} payload has no 'tool_info.command_line' string",
                               native_event)
        return {"command": command, **({"cwd": info["cwd"]} if isinstance(info.get("cwd"), str) else {})}
    if native_event.endswith("_mcp_tool_use"):
        args = info.get("mcp_tool_arguments")
        return args if isinstance(args, dict) else {}
    path = info.get("file_path")
    if not isinstance(path, str):
        raise PayloadError(f"the windsurf {native_event} payload has no 'tool_info.file_path' string", native_event)
    return {"file_path": path, **({"edits": info["edits"]} if "edits" in info else {})}


class WindsurfWriter(Writer):
    """Exit 2 with the reason on stderr blocks a pre event; nothing else is read."""

    def answer(self, inbound: Inbound, verdict: Verdict) -> NativeAnswer:
        event = inbound.native_event
        dropped: list[str] = []
        reason: str | None = None
        if event in self.words.blocking_events and verdict.decision == "deny":
            reason = verdict.reason or DEFAULT_DENY
        elif event in self.words.blocking_events and verdict.decision == "ask":
            reason = ask_reason(verdict.reason)  # Windsurf cannot ask
        else:
            dropped_decision(verdict, event, dropped)
        if verdict.tool_args is not None and reason is None:
            dropped.append("rewritten tool_args: Windsurf takes no rewrite (the action runs as the agent sent it)")
        if verdict.context:
            dropped.append("context: Windsurf's hooks cannot give the agent context")
        warnings = [f"forge-hook-run: warning: dropped {d}" for d in dropped] + \
            [f"forge: {m}" for m in verdict.messages]
        if reason is not None:
            return NativeAnswer(stderr="\n".join([reason, *warnings]), exit_code=2, dropped=dropped)
        return NativeAnswer(stderr="\n".join(warnings), dropped=dropped)


class WindsurfHooks(HookFormat):
    """A hook written for Windsurf (``"format": "windsurf"``): exit 2 blocks with stderr
    as the reason; any other status is an error the action proceeds past."""

    def read_answer(self, native_event: str, exit_code: int, stdout: str, stderr: str) -> dict[str, Any]:
        if exit_code == 2:
            return {"decision": "deny", "reason": stderr.strip() or "windsurf hook exited 2"}
        if exit_code != 0:
            return {"message": exit_problem(self.words.name, exit_code, stderr)}
        return {}

    def payload(self, event: HookEvent, project_dir: str) -> dict[str, Any]:
        native_event = self.native_event_of(event)
        data = event.data
        given = data.get("tool_args")
        args: dict[str, Any] = given if isinstance(given, dict) else {}
        info: dict[str, Any] = {}
        if native_event.endswith("_run_command"):
            info = {"command_line": args.get("command", ""), "cwd": args.get("cwd", project_dir)}
        elif native_event.endswith("_code"):
            info = {"file_path": args.get("file_path") or args.get("path") or "",
                    **({"edits": args["edits"]} if "edits" in args else {})}
        elif native_event.endswith("_mcp_tool_use"):
            server, _, tool = (event.tool_name or "").removeprefix(_MCP).partition("__")
            info = {"mcp_server_name": server, "mcp_tool_name": tool, "mcp_tool_arguments": args}
        elif native_event == "pre_user_prompt":
            info = {"user_prompt": data.get("user_input", "")}
        return {"agent_action_name": native_event, "trajectory_id": event.session_id or "", "execution_id": "",
                "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(event.timestamp)), "tool_info": info}

    def native_event_of(self, event: HookEvent) -> str:
        agent = event.data.get("agent")
        if isinstance(agent, dict) and agent.get("name") == self.words.name and isinstance(agent.get("event"), str):
            return str(agent["event"])
        kind = event.type.value
        if kind in ("tool:pre_execute", "tool:post_execute"):
            side = "pre" if kind == "tool:pre_execute" else "post"
            tool = event.tool_name or ""
            action = {"bash": "run_command", "write": "write_code", "edit": "write_code",
                      "read": "read_code"}.get(tool, "mcp_tool_use" if tool.startswith(_MCP) else "")
            if action:
                return f"{side}_{action}"
        return self.words.native_event(kind)


#: what the command install writes adds: a block when forge-hook-run cannot be started
#: (or failed without answering): Windsurf lets an action through on any status but 2.
CANNOT_START = ('|| { s=$?; [ "$s" -eq 2 ] || echo "forge-hook-run could not be started or failed (exit $s): '
                'blocked until it runs" >&2; exit 2; }')


class WindsurfSettings(Settings):
    files = (".windsurf/hooks.json", "~/.codeium/windsurf/hooks.json")
    matched_tools = False  # Windsurf has no matchers: the event is the tool class

    def groups(self, entries: object) -> list[tuple[object, object]]:
        handlers = entries if isinstance(entries, list) else [entries]
        return [(None, [h]) for h in handlers]

    def filter(self, native_event: str, forge_type: str, matcher: str) -> tuple[list[str], str | None] | str:
        """The event is the tool class: ``pre_run_command`` is ``tool:pre_execute:bash``."""
        if native_event in EVENT_TOOLS:
            return [f"{forge_type}:{self.words.canonical_tool(EVENT_TOOLS[native_event])}"], None
        if native_event.endswith("_mcp_tool_use"):
            return [f"{forge_type}:{_MCP}*"], None
        return super().filter(native_event, forge_type, matcher)

    def snippet(self, command: Command, limit: float | None = None) -> dict[str, Any]:
        # Windsurf documents no hook timeout: the limit travels on the command only
        texts = {event: self.limited(command, event, limit)[0] for event in self.words.events}
        return {"hooks": {event: [{"command": f"{text} {CANNOT_START}" if event in self.words.blocking_events
                                   else text}] for event, text in texts.items()}}


DIALECT = Dialect(WORDS, reader=WindsurfReader(WORDS), writer=WindsurfWriter(WORDS), hooks=WindsurfHooks(WORDS),
                  settings=WindsurfSettings(WORDS))
