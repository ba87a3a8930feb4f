"""How an agent wires hooks around its tools: the seed's ``ToolExecutor``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .events import HookEvent
from .executor import HookExecutor, fire_event

Tool = Callable[[dict[str, Any]], Awaitable[Any]]


class ToolExecutor:
    """Runs an agent's tools with hooks around them.

    Pre-execute hooks may block a tool (HookBlockedError is raised and the tool does
    not run); post-execute hooks see its result; error hooks see its error, which is
    then re-raised.
    """

    def __init__(self, tools: dict[str, Tool], *, executor: HookExecutor | None = None,
                 session_id: str | None = None) -> None:
        self.tools = tools
        self.executor = executor or HookExecutor()
        self.session_id = session_id

    async def execute(self, tool_name: str, tool_args: dict[str, Any]) -> Any:
        tool = self.tools[tool_name]
        await fire_event(HookEvent.tool_pre_execute(tool_name, tool_args, self.session_id),
                         executor=self.executor)
        try:
            result = await tool(tool_args)
        except Exception as exc:
            event = HookEvent.tool_error(tool_name, tool_args, str(exc), self.session_id)
            await self.executor.execute_hooks(event, stop_on_failure=False)
            raise
        event = HookEvent.tool_post_execute(tool_name, tool_args, result, self.session_id)
        await self.executor.execute_hooks(event, stop_on_failure=False)
        return result
