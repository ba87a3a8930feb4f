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
    from ..results import HookRun
    from .base import Dialect

#: Dialect names and the module that implements each.
_MODULES = {"claude": "claude", "codex": "codex", "gemini": "gemini", "cursor": "cursor",
            "copilot": "copilot"}
NAMES: tuple[str, ...] = tuple(_MODULES)


def get(name: str) -> Dialect:
    """The dialect called ``name``; ``KeyError`` for a name that is not one."""
    module = import_module(f"{__name__}.{_MODULES[name]}")
    dialect: Dialect = module.DIALECT
    return dialect


def stricter_than_the_agents(run: HookRun) -> list[str]:
    """A warning for each format hook that forge's stricter rule made deny where its
    agent would have let the action through (it timed out, died by a signal, or could
    not start: DESIGN.md, "Dialects")."""
    warnings = []
    for result in run.results:
        hook = result.hook
        code = result.exit_code
        broke = result.timed_out or result.error is not None or code is None or code < 0 or code in (126, 127)
        if hook.format is None or not hook.blocking or result.decision != "deny" or not broke:
            continue
        if get(hook.format).hooks.stricter(code, result.stderr):
            warnings.append(f"hook {result.index} ({hook.event_pattern}, format {hook.format}) denies because it "
                            f"{'timed out' if result.timed_out else 'broke'} ({result.reason}): forge is stricter "
                            f"than {hook.format} here, which would let the action proceed")
    return warnings
