"""One run of forge-hook-run, whichever protocol it came in by (STYLE 29): the one place
where a run happens.

:func:`serve` reads the input through a codec (codec.py: the forge protocol, or an
agent's dialect), then :func:`run` finds the project root, loads the hooks files (the
project's only if trusted), matches the event, executes the matching hooks and
concludes their decision; the codec replies, the run log records, the codec sends.
No click and no printing here: lines for people go to the ``say`` the caller hands
in, and the signal catcher is handed in too.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from . import trust
from .codec import Codec, Outcome, Request
from .config import find_project_root, load_sources, untrusted_warning
from .dialects import stricter_than_the_agents
from .errors import ConfigError, UsageError
from .executor import HookExecutor
from .registry import HookRegistry
from .results import dry_run_document
from .stops import StopCount
from .witness import Witness

if TYPE_CHECKING:
    from .events import HookEvent
    from .registry import Hook
    from .signals import SignalCatcher

Say = Callable[[str], None]


class RunOptions(NamedTuple):
    """How to run, as the command line says it (every field has its flag)."""

    project_root: str | None = None
    extra_configs: tuple[str, ...] = ()
    trust_project: bool = False
    no_global: bool = False
    no_project: bool = False
    keep_going: bool = False
    jobs: int = 1
    strict: bool = False
    dry_run: bool = False
    trace: bool = False


def serve(codec: Codec, options: RunOptions, *, stdin: BinaryIO, catcher: SignalCatcher | None,
          say: Say, trace_to: Say) -> int:
    """Read the input, run, answer, record: one whole invocation; its exit status."""
    request = codec.read(stdin)
    outcome, witness = run(request, options, catcher=catcher, say=say, trace_to=trace_to)
    reply = codec.reply(outcome)
    witness.finished(outcome.document, reply.status)
    codec.send(reply)
    return reply.status


def run(request: Request, options: RunOptions, *, catcher: SignalCatcher | None, say: Say,
        trace_to: Say) -> tuple[Outcome, Witness]:
    """Root, load (with trust), match, execute, conclude; what the run log will record
    is gathered by the witness as it goes."""
    root = find_project_root(options.project_root, start=request.start_dir)
    override = options.trust_project or trust.override_from_env()
    witness = Witness(say, trace_to=trace_to, root=root, trace=options.trace, trust_override=override,
                      no_global=options.no_global, no_project=options.no_project, dialect=request.dialect)
    event = request.event
    stops = StopCount.of(event)  # a stop: data.stop_count, and the cap (stops.py)
    hooks, warnings = _load(event, root, options, override=override, witness=witness, say=say)
    if options.dry_run:
        return Outcome(request, dry_run_document(event, hooks, warnings), dry_run=hooks), witness
    if stops is not None:
        hooks = stops.limited(hooks)
    executor = HookExecutor(working_dir=root, subreaper=True)
    executor.on_start = witness.on_start
    hook_run = executor.run(event, hooks=hooks, stop_on_failure=not options.keep_going, jobs=options.jobs,
                            catcher=catcher)
    if stops is not None:
        stops.settle(hook_run)
    hook_run.warnings += stricter_than_the_agents(hook_run)
    for warning in hook_run.warnings:
        say(f"warning: {warning}")
    hook_run.warnings[:0] = warnings
    return Outcome(request, hook_run.to_dict(), run=hook_run), witness


def _load(event: HookEvent, root: str, options: RunOptions, *, override: bool, witness: Witness,
          say: Say) -> tuple[list[Hook], list[str]]:
    """The hooks ``event`` runs, in order, and the config warnings (said as they are
    found; under ``strict`` the first is a ConfigError and the others are said as errors)."""
    if not os.path.isdir(root):  # a typo must not quietly run no project hooks
        raise UsageError(f"the project root is not a directory: {root}")
    unclear = None if options.trust_project else trust.override_warning()
    loaded = load_sources(root, include_global=not options.no_global, include_project=not options.no_project,
                          extra=options.extra_configs, trust_project=override, on_file=witness.file)
    warnings = [*([unclear] if unclear else []), *map(str, loaded.warnings)]
    if options.strict and warnings:
        for warning in warnings[1:]:
            say(f"error: {warning}")
        raise ConfigError(warnings[0] + (f" (and {len(warnings) - 1} more)" if len(warnings) > 1 else ""))
    notice = untrusted_warning(loaded, root)
    warnings += [notice] if notice else []
    for warning in warnings:
        say(f"warning: {warning}")
    witness.matching(loaded.hooks, event)
    return HookRegistry(loaded.hooks).get_hooks(event), warnings
