"""forge_hookd: the hooks system for coding agents.

The library behind ``forge-hook-run``. Names are imported on first use, so that the
executable starts without loading what a run does not need. Every run's client imports
this module first (console scripts import the package before the entry module), so it
imports nothing: ``typing`` and ``importlib`` are left out (bench/README.md, "warm.py"),
and so is ``from __future__`` (0.25 ms); annotations below are strings.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # what type checkers see (mypy knows this name); at run time __getattr__ imports on first use
    from typing import Any

    from forge_hookd.config import HookConfig
    from forge_hookd.errors import ConfigError, EventError, ForgeError
    from forge_hookd.events import EventType, HookEvent
    from forge_hookd.run.executor import HookExecutor, fire_event
    from forge_hookd.toolexecutor import ToolExecutor
    from forge_hookd.registry import Hook, HookRegistry
    from forge_hookd.results import HookBlockedError, HookResult, HookRun
    from forge_hookd.templates import HOOK_TEMPLATES

    __version__: str

_EXPORTS = {
    "EventType": "events",
    "HookEvent": "events",
    "Hook": "registry",
    "HookRegistry": "registry",
    "HookExecutor": "run.executor",
    "HookResult": "results",
    "HookRun": "results",
    "HookBlockedError": "results",
    "fire_event": "run.executor",
    "HookConfig": "config",
    "HOOK_TEMPLATES": "templates",
    "ToolExecutor": "toolexecutor",
    "ForgeError": "errors",
    "EventError": "errors",
    "ConfigError": "errors",
}

# A literal list, not built from _EXPORTS: type checkers read __all__ without running
# the module, and under mypy --strict a name missing from it "is not explicitly
# exported", so a user's `from forge_hookd import Hook` would fail to type-check.
# tests/test_typing.py checks the two lists agree.
__all__ = [
    "ConfigError",
    "EventError",
    "EventType",
    "ForgeError",
    "HOOK_TEMPLATES",
    "Hook",
    "HookBlockedError",
    "HookConfig",
    "HookEvent",
    "HookExecutor",
    "HookRegistry",
    "HookResult",
    "HookRun",
    "ToolExecutor",
    "__version__",
    "fire_event",
]


def __getattr__(name: str) -> "Any":
    if name == "__version__":
        from importlib.metadata import version  # 20+ ms, only when asked (bench/README.md, "tricks.py")

        return version("forge-hookd")
    if name in _EXPORTS:
        module = __import__(f"{__name__}.{_EXPORTS[name]}", fromlist=[name])
        return getattr(module, name)
    raise AttributeError(f"module 'forge_hookd' has no attribute '{name}'")
