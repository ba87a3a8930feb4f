"""How an agent wires hooks around its tools: the seed's ``ToolExecutor``."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from forge_hookd.answers import ASK
from forge_hookd.events import HookEvent
from forge_hookd.run.executor import HookExecutor
from forge_hookd.results import HookBlockedError, HookRun

Tool = Callable[[dict[str, Any]], Awaitable[Any]]
#: Asked when pre-execute hooks answer ask: True lets the tool run. May be async.
OnAsk = Callable[[HookRun], bool | Awaitable[bool]]


class ToolExecutor:
    """Runs an agent's tools with hooks around them.

    Pre-execute hooks decide (DESIGN.md, "Hook answers"): on deny HookBlockedError is
    raised and the tool does not run; on ask ``on_ask(run)`` decides, and without it the
    ask blocks as a deny would; a ``data`` rewrite of ``tool_args`` is what the tool
    runs with, once the executor's built-in guards have judged it too. Post-execute and
    error hooks see the arguments the tool ran with and observe it; an error is re-raised
    after its hooks ran.
    """

    def __init__(self, tools: dict[str, Tool], *, executor: HookExecutor | None = None,
                 session_id: str | None = None, on_ask: OnAsk | None = None) -> None:
        self.tools = tools
        self.executor = executor or HookExecutor()
        self.session_id = session_id
        self.on_ask = on_ask

    async def execute(self, tool_name: str, tool_args: dict[str, Any]) -> Any:
        tool = self.tools[tool_name]
        run = await asyncio.to_thread(
            self.executor.run, HookEvent.tool_pre_execute(tool_name, tool_args, self.session_id))
        await self._check(run)
        tool_args = _rewritten_args(run, tool_args)
        try:
            result = await tool(tool_args)
        except Exception as exc:
            event = HookEvent.tool_error(tool_name, tool_args, str(exc), self.session_id)
            await self.executor.execute_hooks(event, stop_on_failure=False)
            raise
        event = HookEvent.tool_post_execute(tool_name, tool_args, result, self.session_id)
        await self.executor.execute_hooks(event, stop_on_failure=False)
        return result

    async def _check(self, run: HookRun) -> None:
        """Raise HookBlockedError unless the run allows the tool (or a person did)."""
        if run.blocked_by is not None:
            raise HookBlockedError(run.blocked_by)
        if run.decision == ASK and not await self._asked(run):
            assert run.asked_by is not None  # HookRun.conclude sets it with every ask
            raise HookBlockedError(run.asked_by)

    async def _asked(self, run: HookRun) -> bool:
        if self.on_ask is None:  # nobody to ask: an ask blocks (DESIGN.md)
            return False
        answer = self.on_ask(run)
        return bool(await answer) if inspect.isawaitable(answer) else bool(answer)


def _rewritten_args(run: HookRun, tool_args: dict[str, Any]) -> dict[str, Any]:
    """The tool's arguments after the hooks' rewrites of ``data.tool_args``."""
    if run.data is None:
        return tool_args
    rewritten = run.data.get("tool_args", {})
    if not isinstance(rewritten, dict):
        raise TypeError(f"hooks rewrote tool_args to a {type(rewritten).__name__}, not an object")
    return rewritten
