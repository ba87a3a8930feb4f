"""forge_hookd: the hooks system for coding agents.

The library behind ``forge-hook-run``. Names are imported on first use, so that the
executable starts without loading what a run does not need.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .config import HookConfig
    from .errors import ConfigError, EventError, ForgeError
    from .events import EventType, HookEvent
    from .executor import HookExecutor, fire_event
    from .integration import ToolExecutor
    from .registry import Hook, HookRegistry
    from .results import HookBlockedError, HookResult, HookRun
    from .templates import HOOK_TEMPLATES

_EXPORTS = {
    "EventType": "events",
    "HookEvent": "events",
    "Hook": "registry",
    "HookRegistry": "registry",
    "HookExecutor": "executor",
    "HookResult": "results",
    "HookRun": "results",
    "HookBlockedError": "results",
    "fire_event": "executor",
    "HookConfig": "config",
    "HOOK_TEMPLATES": "templates",
    "ToolExecutor": "integration",
    "ForgeError": "errors",
    "EventError": "errors",
    "ConfigError": "errors",
}

__all__ = [*_EXPORTS, "__version__"]


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import version

        return version("forge-hookd")
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module 'forge_hookd' has no attribute '{name}'")
