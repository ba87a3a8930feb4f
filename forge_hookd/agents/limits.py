"""The agent's limit as its settings wire forge (issue 30, item 1): what ``forge-hook
doctor`` and ``forge-hook check`` say about it. An entry's ``--agent-limit`` must be its
timeout, as the agent reads it (forge answers before the agent stops waiting only if it
knows when that is), and forge's hooks on an event must fit in it, less forge's margin
(run/deadline.py): past that forge denies where the event can block.
"""

from __future__ import annotations

from pathlib import Path

from forge_hookd.agents.places import Handler, forge_agent_limit, forge_words, option, runs_forge
from forge_hookd.dialects import get
from forge_hookd.policy import editing
from forge_hookd.registry import DEFAULT_TIMEOUT, pattern_matches, split_patterns
from forge_hookd.run.deadline import margin


def mismatched(name: str, files: list[tuple[str, list[Handler]]]) -> list[str]:
    """Each forge entry whose timeout (as the agent reads it, its default where it names
    none) is not its command's ``--agent-limit``."""
    found = []
    for path, handlers in files:
        for handler in handlers:
            limit = forge_agent_limit(handler.command) if runs_forge(handler.command, name) else None
            timeout = get(name).settings.timeout(handler.handler, handler.event)
            if limit is not None and timeout is not None and abs(limit - timeout) > 1e-3:
                found.append(f"{path}: {handler.event}'s entry gives the hook {timeout:g}s but its command "
                             f"says --agent-limit {limit:g}: forge must answer before {name} stops waiting, and "
                             f"knows when only if the two are equal (forge-hook install writes both)")
    return found


def outlasting(name: str, files: list[tuple[str, list[Handler]]], project_root: str) -> list[str]:
    """Each event where forge runs whose forge hooks can take longer than forge may (the
    agent's limit, less forge's margin): the sum of their timeouts (a hook without one:
    10 s), the longest with ``--jobs``. Built-in guards are judged in process: no time."""
    forge = [(path, h) for path, handlers in files for h in handlers if runs_forge(h.command, name)]
    if not forge:
        return []
    listed = [h.hook for h in editing.list_hooks(Path(project_root), problems=[])
              if h.hook.enabled and h.hook.guard is None]
    events, settings, found = get(name).words.events, get(name).settings, []
    for path, handler in forge:
        forge_type = events.get(handler.event)
        limit = forge_agent_limit(handler.command) or settings.timeout(handler.handler, handler.event)
        if forge_type is None or limit is None:
            continue
        hooks = [h for h in listed if covers(h.event_pattern, forge_type)]
        timeouts = [h.timeout if h.timeout_set else DEFAULT_TIMEOUT for h in hooks]
        words = forge_words(handler.command) or []
        jobs = option(words, "--jobs") or option(words, "-j")
        parallel = jobs is not None and jobs.isdigit() and int(jobs) > 1
        took = max(timeouts, default=0.0) if parallel else sum(timeouts)
        allowed = limit - margin(limit)
        if took > allowed:
            found.append(f"{path}: on {handler.event} ({forge_type}) forge's hooks can take {took:g}s "
                         f"({len(hooks)} hook{'s' if len(hooks) != 1 else ''}, "
                         f"{'the longest' if parallel else 'timeouts summed'}), but {name} waits {limit:g}s and "
                         f"forge answers by {allowed:g}s: past that it denies where the event can block; "
                         "give those hooks shorter timeouts")
    return found


def covers(event_pattern: str, forge_type: str) -> bool:
    """Whether a pattern can match an event of ``forge_type`` (some tool or none)."""
    return any(pattern_matches(p, forge_type, None) or p.startswith(forge_type + ":")
               for p in split_patterns(event_pattern))
