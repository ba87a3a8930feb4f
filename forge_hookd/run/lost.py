"""What a run does with guards the user chose and lost (issue 30, item 3; DESIGN.md,
"Hook config"): a global or ``--config`` file that exists but cannot be read or parsed
(one trailing comma in ``~/.config/forge/hooks.json``), or a malformed entry of one
that parses (:class:`forge_hookd.config.Lost`).

As a changed project does (:mod:`forge_hookd.trust.decide`): on an event that can block,
when the lost file or entry could have guarded it, the run denies, its reason naming
the file, the error and what to do; ``blocked_by`` is ``{"source": "config", ...}``.
Elsewhere it is a message the person sees (through a dialect, the agent's user-visible
field), beside the load warning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forge_hookd.registry import native_tool, pattern_matches
from forge_hookd.results import Imposed

if TYPE_CHECKING:
    from forge_hookd.config import Lost
    from forge_hookd.events import HookEvent

#: The ``source`` of forge's own deny in ``blocked_by``.
LOST_SOURCE = "config"


def judge(lost: list[Lost], event: HookEvent, *, can_block: bool) -> Imposed | None:
    """forge's own word on ``event`` about ``lost``: a deny where it can block and a lost
    guard could have matched, else a message; None when nothing was lost."""
    if not lost:
        return None
    matching = [item for item in lost if _could_match(item, event)]
    if can_block and matching:
        return Imposed(LOST_SOURCE, "; ".join(map(_what, matching)) + ": " + _DENIED)
    return Imposed(LOST_SOURCE, None, "forge: warning: " + "; ".join(map(_what, lost)) + ": " + _OFF)


_DENIED = ("forge does not let this through unchecked; fix the file (forge-hook check names the problem), "
           "or move it away to run without those guards")
_OFF = "fix the file to have them back (forge-hook check names the problem)"


def _what(item: Lost) -> str:
    if item.entry is None:
        return f"the hooks file {item.path} cannot be used ({item.problem}), so none of its guards runs"
    return f"hooks[{item.entry}] of {item.path} is malformed ({item.problem}), so that guard does not run"


def _could_match(item: Lost, event: HookEvent) -> bool:
    """Whether the lost file or entry could have run on ``event``: by the entry's event
    pattern, by the canonical and the agent's own tool name; always, for a whole file
    or an entry whose pattern cannot be read."""
    if item.patterns is None:
        return True
    kind, native = event.type.value, native_tool(event)
    return any(pattern_matches(p, kind, event.tool_name) or (native is not None and pattern_matches(p, kind, native))
               for p in item.patterns)


def merged(first: Imposed | None, second: Imposed | None) -> Imposed | None:
    """Two of forge's own words on one run as one: the first deny keeps its source and
    reason, the messages are joined."""
    if first is None or second is None:
        return first or second
    deny = first if first.reason is not None else second
    messages = [m for m in (first.message, second.message) if m]
    return Imposed(deny.source, deny.reason, "\n".join(messages) or None)
