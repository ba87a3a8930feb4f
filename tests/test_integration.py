"""ToolExecutor: how an agent wires hooks around its tools, with real hooks."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import forge_hookd
from forge_hookd import HOOK_TEMPLATES, Hook, HookBlockedError, HookExecutor, HookRegistry, ToolExecutor


def make(tmp_path: Path, hooks: list[Hook], calls: list[str]) -> ToolExecutor:
    async def bash(args: dict[str, Any]) -> str:
        calls.append(args["command"])
        if args["command"] == "fail":
            raise RuntimeError("exit status 2")
        return f"ran {args['command']}"

    executor = HookExecutor(HookRegistry(hooks), working_dir=tmp_path)
    return ToolExecutor({"bash": bash}, executor=executor, session_id="s1")


def test_pre_execute_hook_blocks_the_tool(tmp_path: Path) -> None:
    calls: list[str] = []
    tools = make(tmp_path, [HOOK_TEMPLATES["block_sudo"]], calls)
    with pytest.raises(HookBlockedError, match="Blocked: sudo not allowed"):
        asyncio.run(tools.execute("bash", {"command": "sudo rm -rf /"}))
    assert calls == []
    assert asyncio.run(tools.execute("bash", {"command": "ls"})) == "ran ls"
    assert calls == ["ls"]


def test_post_execute_hooks_see_the_result(tmp_path: Path) -> None:
    log = tmp_path / "post.log"
    tools = make(tmp_path, [Hook("tool:post_execute:bash", f'printf "%s" "$FORGE_TOOL_RESULT" > {log}')], [])
    asyncio.run(tools.execute("bash", {"command": "ls"}))
    assert log.read_text() == "ran ls"


def test_error_hooks_see_the_error_which_is_re_raised(tmp_path: Path) -> None:
    log = tmp_path / "error.log"
    failing_observer = Hook("tool:error", "exit 1")  # an observer's failure does not mask the error
    tools = make(tmp_path, [failing_observer, Hook("tool:error", f'printf "%s" "$FORGE_ERROR" > {log}')], [])
    with pytest.raises(RuntimeError, match="exit status 2"):
        asyncio.run(tools.execute("bash", {"command": "fail"}))
    assert log.read_text() == "exit status 2"


def test_package_exports_the_public_api() -> None:
    for name in ("EventType", "HookEvent", "Hook", "HookRegistry", "HookExecutor", "HookResult",
                 "HookBlockedError", "fire_event", "HookConfig", "HOOK_TEMPLATES", "ToolExecutor"):
        assert getattr(forge_hookd, name).__name__ if name != "HOOK_TEMPLATES" else forge_hookd.HOOK_TEMPLATES
    assert forge_hookd.__version__ == "0.1.0"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        forge_hookd.nope  # noqa: B018
