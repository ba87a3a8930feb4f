"""A scripted model server on 127.0.0.1 that speaks just enough of three provider APIs.

Each real agent CLI is pointed at it (Anthropic Messages for Claude Code, Copilot, Qwen
Code, OpenCode, Kilo and Cline; OpenAI Responses for Codex; Gemini generateContent for
Gemini CLI). The script is one turn of
tool use: the first request that offers the agent's shell tool is answered with a call
of that tool running ``command``; any request that already carries a tool result (the
command's output, or the hook's denial) is answered with a final text. Side requests the
agents make (titles, token counts, routing, next-speaker checks) get a short text.

Every request is recorded, body parsed, so a test can read what the agent sent next:
that is how "the model sees the hook's reason" is checked.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FINAL_TEXT = "All done."
SIDE_TEXT = "ok"

# The tool each agent runs shell commands with, and how its arguments are spelled.
CLAUDE_SHELL = "Bash"
COPILOT_SHELL = "bash"  # GitHub Copilot CLI, in its BYOK "anthropic" provider mode
GEMINI_SHELL = "run_shell_command"
QWEN_SHELL = "run_shell_command"  # Qwen Code, with --auth-type anthropic
OPENCODE_SHELL = "bash"  # OpenCode and Kilo: {command, description}, as Copilot's
CLINE_SHELL = "run_commands"  # the Cline CLI: {commands: [command, ...]}
CODEX_SHELLS = ("shell_command", "exec_command", "shell", "local_shell")


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any

    def text(self) -> str:
        """The whole body as text, for 'does the next request carry the reason' checks."""
        return json.dumps(self.body)


@dataclass
class Script:
    """What the model does: run ``command`` once with the shell tool, then finish."""

    command: str
    final_text: str = FINAL_TEXT
    requests: list[Recorded] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, entry: Recorded) -> None:
        with self.lock:
            self.requests.append(entry)

    def snapshot(self) -> list[Recorded]:
        with self.lock:
            return list(self.requests)


class ModelServer:
    """``with ModelServer(Script("touch x")) as server: server.base_url``."""

    def __init__(self, script: Script) -> None:
        self.script = script
        handler = type("Handler", (_Handler,), {"script": script})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="model-server", daemon=True)

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def requests(self) -> list[Recorded]:
        return self.script.snapshot()

    def __enter__(self) -> ModelServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)


class _Handler(BaseHTTPRequestHandler):
    script: Script
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass  # the recorded requests are the log

    # -- plumbing -------------------------------------------------------------------

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else self._read_chunked()
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return raw.decode("utf-8", "replace")

    def _read_chunked(self) -> bytes:
        if "chunked" not in (self.headers.get("Transfer-Encoding") or ""):
            return b""
        data = b""
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                self.rfile.readline()
                return data
            data += self.rfile.read(size)
            self.rfile.readline()

    def _record(self, body: Any) -> None:
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.script.record(Recorded(self.command, self.path, headers, body))

    def _json(self, payload: Any, status: int = 200) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, events: Iterator[tuple[str | None, Any]]) -> None:
        chunks = []
        for name, payload in events:
            head = f"event: {name}\n" if name else ""
            chunks.append(f"{head}data: {json.dumps(payload)}\n\n")
        data = "".join(chunks).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    # -- routing --------------------------------------------------------------------

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self._record(None)
        path = self.path.split("?")[0]
        if path.endswith("/models"):
            self._json({"data": [], "models": []})
        else:
            self._json({"error": {"message": f"not scripted: GET {self.path}"}}, 404)

    def do_HEAD(self) -> None:  # noqa: N802
        self._record(None)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:  # noqa: N802
        body = self._body()
        self._record(body)
        path = self.path.split("?")[0]
        if path.endswith("/messages/count_tokens"):
            self._json({"input_tokens": 10})
        elif path.endswith("/messages"):
            self._anthropic(body)
        elif path.endswith("/responses"):
            self._openai_responses(body)
        elif path.endswith(":countTokens"):
            self._json({"totalTokens": 10})
        elif ":streamGenerateContent" in path or ":generateContent" in path:
            self._gemini(body, stream=":streamGenerateContent" in path)
        else:
            self._json({"error": {"message": f"not scripted: POST {self.path}"}}, 404)

    # -- Anthropic Messages -----------------------------------------------------------

    def _anthropic(self, body: dict[str, Any]) -> None:
        tools = {t.get("name") for t in body.get("tools") or []}
        shell = next((name for name in (CLAUDE_SHELL, COPILOT_SHELL, QWEN_SHELL, CLINE_SHELL) if name in tools), None)
        content: list[dict[str, Any]]
        if _anthropic_has_tool_result(body):
            content = [{"type": "text", "text": self.script.final_text}]
            stop = "end_turn"
        elif shell is not None:
            arguments = ({"commands": [self.script.command]} if shell == CLINE_SHELL else
                         {"command": self.script.command, "description": "Run the scripted command"})
            content = [{"type": "tool_use", "id": "toolu_forge_1", "name": shell, "input": arguments}]
            stop = "tool_use"
        else:
            content = [{"type": "text", "text": SIDE_TEXT}]
            stop = "end_turn"
        message = {"id": "msg_forge", "type": "message", "role": "assistant", "model": body.get("model", "m"),
                   "content": content, "stop_reason": stop, "stop_sequence": None,
                   "usage": {"input_tokens": 10, "output_tokens": 5}}
        if body.get("stream"):
            self._sse(_anthropic_stream(message))
        else:
            self._json(message)

    # -- OpenAI Responses (Codex) -----------------------------------------------------

    def _openai_responses(self, body: dict[str, Any]) -> None:
        tools = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
        shell = next((name for name in CODEX_SHELLS if name in tools), None)
        if _responses_has_tool_result(body) or shell is None:
            text = self.script.final_text if _responses_has_tool_result(body) else SIDE_TEXT
            item = {"type": "message", "role": "assistant", "id": "msg_forge", "status": "completed",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]}
        else:
            item = {"type": "function_call", "id": "fc_forge", "call_id": "call_forge_1", "status": "completed",
                    "name": shell, "arguments": json.dumps(_codex_arguments(shell, self.script.command))}
        self._sse(_responses_stream(item))

    # -- Gemini generateContent -------------------------------------------------------

    def _gemini(self, body: dict[str, Any], *, stream: bool) -> None:
        declared = {d.get("name") for t in body.get("tools") or [] for d in t.get("functionDeclarations") or []}
        if _gemini_has_tool_result(body):
            parts: list[dict[str, Any]] = [{"text": self.script.final_text}]
        elif GEMINI_SHELL in declared:
            parts = [{"functionCall": {"name": GEMINI_SHELL,
                                       "args": {"command": self.script.command,
                                                "description": "Run the scripted command"}}}]
        else:
            parts = [{"text": _gemini_side_answer(body)}]
        response = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
                    "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
                    "modelVersion": "gemini-forge"}
        if stream:
            self._sse(iter([(None, response)]))
        else:
            self._json(response)


def _anthropic_has_tool_result(body: dict[str, Any]) -> bool:
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, list) and any(isinstance(c, dict) and c.get("type") == "tool_result" for c in content):
            return True
    return False


def _anthropic_stream(message: dict[str, Any]) -> Iterator[tuple[str | None, Any]]:
    head = {**message, "content": [], "stop_reason": None}
    yield "message_start", {"type": "message_start", "message": head}
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            yield "content_block_start", {"type": "content_block_start", "index": index,
                                          "content_block": {"type": "text", "text": ""}}
            yield "content_block_delta", {"type": "content_block_delta", "index": index,
                                          "delta": {"type": "text_delta", "text": block["text"]}}
        else:
            yield "content_block_start", {"type": "content_block_start", "index": index,
                                          "content_block": {**block, "input": {}}}
            yield "content_block_delta", {"type": "content_block_delta", "index": index,
                                          "delta": {"type": "input_json_delta",
                                                    "partial_json": json.dumps(block["input"])}}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield "message_delta", {"type": "message_delta",
                            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                            "usage": {"output_tokens": 5}}
    yield "message_stop", {"type": "message_stop"}


def _responses_has_tool_result(body: dict[str, Any]) -> bool:
    return any(isinstance(item, dict) and item.get("type") in ("function_call_output", "custom_tool_call_output")
               for item in body.get("input") or [])


def _codex_arguments(shell: str, command: str) -> dict[str, Any]:
    if shell == "exec_command":
        return {"cmd": command}
    if shell == "shell_command":
        return {"command": command}
    return {"command": ["bash", "-lc", command]}


def _responses_stream(item: dict[str, Any]) -> Iterator[tuple[str | None, Any]]:
    response = {"id": "resp_forge", "object": "response", "status": "in_progress", "output": []}
    yield "response.created", {"type": "response.created", "response": response}
    yield "response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}
    yield "response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}
    done = {**response, "status": "completed", "output": [item],
            "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
                      "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}}
    yield "response.completed", {"type": "response.completed", "response": done}


def _gemini_has_tool_result(body: dict[str, Any]) -> bool:
    return any("functionResponse" in part for content in body.get("contents") or []
               for part in content.get("parts") or [] if isinstance(part, dict))


def _gemini_side_answer(body: dict[str, Any]) -> str:
    # Gemini CLI asks side questions whose answers it parses as JSON against a schema it
    # sends (the model router's complexity score, the next-speaker check): fill it in.
    config = body.get("generationConfig") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    if config.get("responseMimeType") != "application/json" or not isinstance(schema, dict):
        return SIDE_TEXT
    return json.dumps(_fill_schema(schema))


_SCHEMA_ANSWERS = {"next_speaker": "user", "model_choice": "flash", "complexity_score": 1}


def _fill_schema(schema: dict[str, Any], name: str = "") -> Any:
    if name in _SCHEMA_ANSWERS:
        return _SCHEMA_ANSWERS[name]
    kind = str(schema.get("type", "string")).lower()
    if kind == "object":
        return {key: _fill_schema(sub, key) for key, sub in (schema.get("properties") or {}).items()}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return 1
    if kind == "boolean":
        return False
    enum = schema.get("enum")
    return enum[0] if enum else "ok"
