"""What the run log and ``--trace`` witness of a forge-hook-run run as it goes: the config
files read, the hooks matched and started, the final document. The one place where
:mod:`forge_hookd.log.runlog` and :mod:`forge_hookd.log.trace` meet the run."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from forge_hookd.log.runlog import record
from forge_hookd.log.record import RunContext, file_entry

if TYPE_CHECKING:
    from forge_hookd.config import LoadedConfig
    from forge_hookd.events import HookEvent
    from forge_hookd.registry import Hook
    from forge_hookd.results import HookResult
    from forge_hookd.log.trace import Tracer


class Witness:
    """Collects the run log's context; says warnings through ``say(line)`` and narrates
    ``--trace`` through ``trace_to(line)`` (a line written as it is: it may hold colour)."""

    def __init__(self, say: Callable[[str], None], *, trace_to: Callable[[str], None], root: str, trace: bool,
                 trust_override: bool, no_global: bool, no_project: bool, dialect: str | None = None,
                 native_event: str | None = None, colour: bool | None = None) -> None:
        self.say = say
        self.context = RunContext(project_root=root, dialect=dialect, native_event=native_event)
        self.trust_override = trust_override
        self.tracer: Tracer | None = None
        if trace or os.environ.get("FORGE_TRACE") == "1":  # an agent's hook command, unedited
            from forge_hookd.log.trace import Tracer  # 0.5 ms, only when tracing (bench/README.md, "tricks.py")

            tty = sys.stderr.isatty() if colour is None else colour
            self.tracer = Tracer(trace_to, colour=tty)
            for scope, skipped in (("global", no_global), ("project", no_project)):
                if skipped:
                    self.tracer.not_read(scope, f"--no-{scope}")

    def listeners(self, hooks: list[Hook]) -> tuple[Callable[[int, Hook], None], Callable[[HookResult], None]] | None:
        """What hears of each of ``hooks`` as the executor starts and ends it (only when
        tracing: ``--trace`` narrates as it happens, not from the document afterwards)."""
        if self.tracer is None:
            return None
        self.tracer.running(hooks)
        return self.tracer.started, self.tracer.ended

    def matching(self, hooks: list[Hook], event: HookEvent, *, skipped: list[Hook] | None = None) -> None:
        """Which of the loaded hooks match ``event`` and why not, ``skipped`` the ones
        FORGE_SKIP kept from running (only when tracing)."""
        if self.tracer is not None:
            self.tracer.matching(hooks, event, skipped={id(h): "FORGE_SKIP names it" for h in skipped or []})

    def file(self, scope: str, path: str, loaded: LoadedConfig) -> None:
        """``config.load_sources``'s ``on_file``."""
        entry = file_entry(scope, path, loaded, trust_override=self.trust_override)
        self.context.files.append(entry)
        if self.tracer is not None:
            self.tracer.file(entry)

    def finished(self, doc: dict[str, Any], status: int) -> None:
        """Record the run; a log that cannot be written costs a warning (on stderr and
        in ``doc``), never the run."""
        self.context.exit_status = status
        warning = record(doc, self.context)
        if warning is not None:
            self.say(f"warning: {warning}")
            doc.setdefault("warnings", []).append(warning)
        if self.tracer is not None:
            self.tracer.finished(doc, status)
