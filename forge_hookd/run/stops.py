"""How many times in a row a session's stop was refused: ``data.stop_count`` and
``FORGE_MAX_CONTINUES`` (DESIGN.md, "Events": the agent's lifecycle).

A hook on ``agent:stop`` (or ``agent:subagent_stop``) that denies keeps the agent
working, the deny's reason its next instruction. Codex and Gemini have no cap on that
loop (779 and 2284 refusals in five minutes, research), so forge counts, per session, in
its state directory, and the count decides (the agent's own flag, ``stop_hook_active`` or
``loop_count``, is only passed on in ``data.agent``): once a session's stop was refused
``FORGE_MAX_CONTINUES`` times in a row (default 5; a hook's ``max_continues`` lowers it
for that hook), the hooks still run and are recorded, as observers, and the agent is let
stop, with a warning and a message saying why. A stop let through starts the count again.

One small file per counted session under ``${XDG_STATE_HOME:-~/.local/state}/forge/stops/``
(named by a hash: the session id is the agent's text, not a file name), removed when the
stop is let through; at most :data:`MAX_FILES`, none older than :data:`MAX_AGE`. A count
forge cannot keep is forge's own failure, and those never keep an agent working: every
refusal is then recorded but not obeyed.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from forge_hookd.answers import DENY
from forge_hookd.events import STOP_TYPES
from forge_hookd.results import describe_hook
from forge_hookd.safefile import write_atomically
from forge_hookd.statedir import state_path

if TYPE_CHECKING:
    from forge_hookd.events import HookEvent
    from forge_hookd.registry import Hook
    from forge_hookd.results import HookRun

MAX_VAR = "FORGE_MAX_CONTINUES"
DEFAULT_MAX = 5
#: how many sessions' counts are kept at most, and for how long (seconds)
MAX_FILES = 256
MAX_AGE = 7 * 24 * 3600.0


def state_dir() -> str:
    """``${XDG_STATE_HOME:-~/.local/state}/forge/stops``."""
    return state_path("stops")


def max_continues() -> tuple[int, str | None]:
    """``$FORGE_MAX_CONTINUES`` (a whole number, 0 or more), else 5; and a warning when
    the variable says something else."""
    raw = os.environ.get(MAX_VAR)
    if raw is None or raw.strip() == "":
        return DEFAULT_MAX, None
    try:
        value = int(raw.strip())
    except ValueError:
        value = -1
    if value < 0:
        return DEFAULT_MAX, f"{MAX_VAR}={raw!r} is not a whole number of refused stops (0 or more): {DEFAULT_MAX} applies"
    return value, None


class StopCount:
    """One counted stop: the session's count so far, the limit, and what the run makes
    of it. :meth:`of` is None for an event that is not a stop."""

    def __init__(self, event: HookEvent, path: str, count: int, limit: int, warnings: list[str],
                 writable: bool) -> None:
        self.event, self.path, self.count, self.limit = event, path, count, limit
        self.warnings, self.writable = warnings, writable
        self._demoted: list[Hook] = []

    @classmethod
    def of(cls, event: HookEvent) -> StopCount | None:
        """The count of ``event``'s session, put into ``event.data["stop_count"]``
        (forge's count decides: a caller's own value is replaced)."""
        if event.type.value not in STOP_TYPES:
            return None
        limit, problem = max_continues()
        directory = state_dir()
        path = count_file(event)
        writable = _ready(directory)
        count = _read(path) if writable else 0
        event.data["stop_count"] = count
        warnings = [problem] if problem else []
        if not writable:
            warnings.append(f"forge cannot keep the count of refused stops in {directory}: a refusal is recorded "
                            "but not obeyed (a stop that could loop for ever is let through)")
        return cls(event, path, count, limit, warnings, writable)

    def limited(self, hooks: list[Hook]) -> list[Hook]:
        """``hooks``, those whose limit this session reached as observers: they run and
        are recorded, and cannot keep the agent working."""
        out = []
        for hook in hooks:
            limit = self.limit if hook.max_continues is None else min(self.limit, hook.max_continues)
            if hook.blocking and (self.count >= limit or not self.writable):
                hook = replace(hook, blocking=False)
                self._demoted.append(hook)
            out.append(hook)
        return out

    def settle(self, run: HookRun) -> None:
        """Count this run: a refusal adds one, anything else starts again; and say why
        the agent was let stop when a hook that still refuses was not obeyed."""
        run.warnings.extend(self.warnings)
        if run.interrupted is not None:
            return
        if run.decision == DENY:
            self._write(self.count + 1, run)
        else:
            self._remove()
        refusing = [r for r in run.results if any(r.hook is d for d in self._demoted) and r.decision == DENY]
        if refusing and run.decision != DENY:
            first = refusing[0]
            why = (f"{MAX_VAR}={self.limit}" if first.hook.max_continues is None or first.hook.max_continues >= self.limit
                   else f"the hook's max_continues={first.hook.max_continues}")
            said = (f"forge let the agent stop: its stop was refused {self.count} times in a row ({why}); "
                    f"{describe_hook(first.hook, first.index)} '{first.hook.event_pattern}' still refuses: "
                    f"{first.reason or 'no reason'}"
                    if self.writable else "forge let the agent stop: it cannot count refused stops here")
            run.warnings.append(said)
            run.messages.append(said)

    def _write(self, count: int, run: HookRun) -> None:
        try:
            write_atomically(self.path, f"{count}\n".encode())
        except OSError as exc:
            run.warnings.append(f"could not record the refused stop in {self.path}: {exc}")
            return
        _clean(os.path.dirname(self.path))

    def _remove(self) -> None:
        try:
            os.unlink(self.path)
        except OSError:
            pass


def count_file(event: HookEvent) -> str:
    """The file of a session's count: named by a hash of the event type, the session and,
    for a subagent, its id (each subagent's stop is its own loop)."""
    agent_id = event.data.get("agent_id") if event.type.value == "agent:subagent_stop" else None
    text = f"{event.type.value}\0{event.session_id or ''}\0{agent_id or ''}"
    return os.path.join(state_dir(), hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:40])


def _ready(directory: str) -> bool:
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    except OSError:
        return False
    return os.access(directory, os.W_OK | os.X_OK)


def _read(path: str) -> int:
    """The count in ``path``; 0 when there is none, it is not a count, or it is stale."""
    try:
        with open(path, "rb") as file:
            if time.time() - os.fstat(file.fileno()).st_mtime > MAX_AGE:
                return 0
            text = file.read(32)
    except OSError:
        return 0
    try:
        return max(int(text.strip() or b"0"), 0)
    except ValueError:
        return 0


def _clean(directory: str) -> None:
    """At most MAX_FILES counts, none older than MAX_AGE: the oldest go first."""
    try:
        entries = [(e.stat().st_mtime, e.path) for e in os.scandir(directory) if e.is_file()]
    except OSError:
        return
    if len(entries) <= MAX_FILES and all(time.time() - m <= MAX_AGE for m, _ in entries):
        return
    entries.sort()
    now = time.time()
    for index, (mtime, path) in enumerate(entries):
        if len(entries) - index > MAX_FILES or now - mtime > MAX_AGE:
            try:
                os.unlink(path)
            except OSError:
                pass
