"""Dialects: the hook protocols of other coding agents (DESIGN.md, "Dialects").

A dialect reads an agent's native hook payload as a forge event, writes a run's
outcome in the agent's native answer (stdout, stderr, exit status), and runs hooks
written for that agent (``"format": NAME``). The core knows none by name: it asks
this registry. Each dialect lives in its own module, imported only when used, so that
a forge-native run pays nothing for them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forge_hookd.dialects.base import Dialect

#: Dialect names and the module that implements each.
_MODULES = {"claude": "claude", "codex": "codex", "gemini": "gemini", "cursor": "cursor",
            "copilot": "copilot", "windsurf": "windsurf", "cline": "cline",
            # the Claude-compatible family: dialect aliases of claude, one table (family.py)
            "qwen": "family", "droid": "family", "auggie": "family", "crush": "family", "continue": "family"}
NAMES: tuple[str, ...] = tuple(_MODULES)


def get(name: str) -> Dialect:
    """The dialect called ``name``; ``KeyError`` for a name that is not one."""
    module = import_module(f"{__name__}.{_MODULES[name]}")
    dialect: Dialect = module.DIALECTS[name] if hasattr(module, "DIALECTS") else module.DIALECT
    return dialect
