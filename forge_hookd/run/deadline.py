"""The agent's clock: ``--agent-limit N``, the seconds the agent waits for its hook.

An agent kills its hook after its own limit and then, for most, runs the tool
(DESIGN.md, "Dialects", "Before the agent stops listening"). forge answers first: the
run ends ``margin(N)`` = max(2 s, 10% of N) before N, counted from the moment this
invocation started. Hooks still running then are ended as on a timeout (the
executor's tree end, process.py), hooks not started yet do not start; on an event that
can block the run is forge's own deny naming them, on any other it proceeds with a
warning (:meth:`Deadline.settle`).
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from forge_hookd.answers import ALLOW
from forge_hookd.results import Imposed, describe_hook
from forge_hookd.text import short_command

if TYPE_CHECKING:
    from collections.abc import Sequence

    from forge_hookd.registry import Hook
    from forge_hookd.results import HookRun

#: ``blocked_by.source`` of forge's deny at the agent's limit
SOURCE = "agent-limit"
MIN_MARGIN = 2.0


def margin(limit: float) -> float:
    """How long before the agent's limit forge answers."""
    return max(MIN_MARGIN, 0.1 * limit)


def clock_start() -> float:
    """When the agent's clock for this run started, on the monotonic clock: when the
    process the agent started began (the warm client's, in a resident runner's worker:
    nesting.origin_pid), read from /proc; a cold Python takes a second to reach the run
    on a loaded machine, and that second is the agent's too. Now, where /proc cannot say."""
    from forge_hookd.run import nesting

    now = time.monotonic()
    try:
        with open(f"/proc/{nesting.origin_pid or os.getpid()}/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
        began = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # starttime: field 22, in ticks since boot
        elapsed = time.clock_gettime(time.CLOCK_BOOTTIME) - began
    except (OSError, ValueError, IndexError):
        return now
    return now - elapsed if 0 <= elapsed < 3600 else now


class Deadline:
    """When a run must end (``at``, on the monotonic clock) for an agent that waits
    ``limit`` seconds, and whether the event can block (``can_block``)."""

    __slots__ = ("limit", "at", "can_block")

    def __init__(self, limit: float, *, started: float, can_block: bool) -> None:
        self.limit, self.can_block = limit, can_block
        self.at = started + limit - margin(limit)

    def passed(self) -> bool:
        return time.monotonic() >= self.at

    def settle(self, run: HookRun, hooks: Sequence[Hook], cut: list[int], unstarted: list[int]) -> None:
        """The run after the limit ended it: ``cut`` are the indexes (in ``hooks``, the
        run's) of the hooks ended at the deadline, ``unstarted`` those it kept from
        starting. A deny of forge's own where the event can block (a deny decided
        before, a changed project's, stays), else the cut hooks count as not having
        answered, and a warning says so."""
        if not cut and not unstarted:
            return

        def named(indexes: list[int]) -> str:
            return ", ".join(f"{describe_hook(hooks[i], i)} ({short_command(hooks[i].command or str(hooks[i].guard))})"
                             for i in indexes)

        said = (f"the agent waits {self.limit:g}s for its hook and forge answers {margin(self.limit):g}s "
                f"before that (--agent-limit)"
                + (f"; still running, ended: {named(cut)}" if cut else "")
                + (f"; not started: {named(unstarted)}" if unstarted else ""))
        if self.can_block:
            if run.imposed is None or run.imposed.reason is None:
                message = run.imposed.message if run.imposed is not None else None
                run.imposed = Imposed(SOURCE, f"forge ran out of the agent's time: {said}. Make those hooks "
                                              "faster or give them a shorter timeout (forge-hook check names "
                                              "the events whose hooks can outlast the agent's limit)", message)
            return
        cut_set = set(cut)
        run.results = [replace(r, decision=ALLOW, reason="") if r.index in cut_set else r for r in run.results]
        run.warnings.append(f"forge ran out of the agent's time and lets the event proceed: {said}")
