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
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn

from forge_hookd import dialects, managed, skiplist
from forge_hookd.trust import decide as trustrun
from forge_hookd.run import envgate, lost
from forge_hookd.run.codec import Outcome, Request
from forge_hookd.run.deadline import Deadline, clock_start
from forge_hookd.config import ProjectRoot, load_sources, locate_project_root
from forge_hookd.errors import ConfigError, UsageError
from forge_hookd.run.executor import HookExecutor
from forge_hookd.registry import HookRegistry
from forge_hookd.results import Imposed, describe_hook, dry_run_document
from forge_hookd.run.stops import StopCount
from forge_hookd.log.witness import Witness

if TYPE_CHECKING:
    from forge_hookd.run.codec import Codec
    from forge_hookd.events import HookEvent
    from forge_hookd.registry import Hook
    from forge_hookd.results import HookRun
    from forge_hookd.run.signals import SignalCatcher

Say = Callable[[str], None]


class RunOptions:
    """How to run, as the command line says it (every field has its flag). A plain
    class: a NamedTuple costs about 0.9 M instructions to create at import, 0.35% of a
    run that matches no hook (bench/README.md, "tricks.py")."""

    __slots__ = ("project_root", "extra_configs", "trust_project", "no_global", "no_project", "keep_going",
                 "jobs", "strict", "dry_run", "trace", "require_trust", "agent_limit")

    def __init__(self, *, project_root: str | None = None, extra_configs: tuple[str, ...] = (),
                 trust_project: bool = False, no_global: bool = False, no_project: bool = False,
                 keep_going: bool = False, jobs: int = 1, strict: bool = False, dry_run: bool = False,
                 trace: bool = False, require_trust: bool = False, agent_limit: float | None = None) -> None:
        self.project_root, self.extra_configs, self.trust_project = project_root, extra_configs, trust_project
        self.no_global, self.no_project, self.keep_going = no_global, no_project, keep_going
        self.jobs, self.strict, self.dry_run, self.trace = jobs, strict, dry_run, trace
        self.require_trust, self.agent_limit = require_trust, agent_limit


def serve(codec: Codec, options: RunOptions, *, stdin: BinaryIO, catcher: SignalCatcher | None,
          say: Say, trace_to: Say) -> int:
    """Read the input, run, answer, record: one whole invocation; its exit status."""
    started = clock_start() if options.agent_limit is not None else None
    request = codec.read(stdin)
    outcome, witness = run(request, options, catcher=catcher, say=say, trace_to=trace_to, started=started)
    reply = codec.reply(outcome)
    # The run log before the answer is sent: a log that cannot be written is a warning in
    # the answer itself (test_runlog: a FIFO, EFBIG). It cannot hold the answer up: the
    # log opens without blocking and only as a regular file, every field of the record is
    # cut before redaction reads it, and redaction is linear (issue 20, items 8, 9, 15).
    witness.finished(outcome.document, reply.status)
    codec.send(reply)
    return reply.status


def run(request: Request, options: RunOptions, *, catcher: SignalCatcher | None, say: Say,
        trace_to: Say, started: float | None = None) -> tuple[Outcome, Witness]:
    """Root, load (with trust), match, execute, conclude; what the run log will record
    is gathered by the witness as it goes. ``started`` (monotonic) is when the agent's
    clock started for ``--agent-limit`` (default: now)."""
    started = time.monotonic() if started is None else started
    # Under a dialect, before anything reads them: the FORGE_* variables a project's own
    # files may have put in the agent's environment, where they would weaken a guard.
    gated = envgate.gate() if request.dialect is not None else []
    settled = trustrun.policy(trust_project=options.trust_project, require_trust=options.require_trust,
                              strict=options.strict)
    override = settled.override
    located = locate_project_root(options.project_root, start=request.start_dir, trusted_first=not override)
    root = located.root
    witness = Witness(say, trace_to=trace_to, root=root, trace=options.trace, trust_override=override,
                      no_global=options.no_global, no_project=options.no_project, dialect=request.dialect,
                      native_event=request.native_event)
    event = request.event
    stops = StopCount.of(event)  # a stop: data.stop_count, and the cap (stops.py)
    hooks, warnings, imposed, skipped = _load(event, request, located, options, settled=settled,
                                              witness=witness, say=say, gated=gated)
    if options.dry_run:
        return Outcome(request, _skip_reported(dry_run_document(event, hooks, warnings), skipped),
                       dry_run=hooks), witness
    if stops is not None:
        hooks = stops.limited(hooks)
    executor = HookExecutor(working_dir=root, subreaper=True)
    if (listeners := witness.listeners(hooks)) is not None:
        executor.on_start, executor.on_end = listeners
    said = len(warnings)  # one list of the run's warnings, from loading to the log
    deadline = None if options.agent_limit is None else Deadline(
        options.agent_limit, started=started,
        can_block=trustrun.can_block(event, request.dialect, request.native_event))
    hook_run = executor.run(event, hooks=hooks, stop_on_failure=not options.keep_going, jobs=options.jobs,
                            catcher=catcher, warnings=warnings, imposed=imposed, deadline=deadline)
    if stops is not None:
        stops.settle(hook_run)
    warnings += _stricter_than_the_agents(hook_run)  # hook_run.warnings is this list
    warnings += _judged_by_shape(hook_run)
    for warning in warnings[said:]:
        say(f"warning: {warning}")
    return Outcome(request, _skip_reported(hook_run.to_dict(), skipped), run=hook_run), witness


def _stricter_than_the_agents(run: HookRun) -> list[str]:
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
        if dialects.get(hook.format).hooks.stricter(code, result.stderr):
            warnings.append(f"{describe_hook(hook, result.index)} '{hook.event_pattern}' (format {hook.format}) "
                            f"denies because it {'timed out' if result.timed_out else 'broke'} ({result.reason}): "
                            f"forge is stricter than {hook.format} here, which would let the action proceed")
    return warnings


def _judged_by_shape(run: HookRun) -> list[str]:
    """A warning when a guard judged a tool that no alias table maps, and is no MCP tool,
    by what its input holds (issue 31, item 4): the person learns which tool forge could
    only guess at, and can map it."""
    tool = run.event.tool_name
    if tool is None or not any(r.hook.guard is not None for r in run.results):
        return []
    from forge_hookd.guards import base  # loaded already: the run's guards judged the tool

    if tool in base.CANONICAL_TOOLS:
        return []
    from forge_hookd.guards import shape  # only for a tool no alias table maps (0.6 M instructions of a guarded run)

    if shape.is_mcp(tool):
        return []
    args = run.event.data.get("tool_args")
    judged = shape.judged_as(tool, args) if isinstance(args, dict) else None
    if judged is None:
        return []
    return [f"the tool {tool} is not one forge maps: the guards judged it by its input, as {judged}"]


def _skip_reported(document: dict[str, Any], skipped: list[Hook] | None) -> dict[str, Any]:
    """``skipped_on_request`` in the document whenever FORGE_SKIP names anything."""
    if skipped is not None:
        document["skipped_on_request"] = skiplist.report(skipped)
    return document


def _load(event: HookEvent, request: Request, located: ProjectRoot, options: RunOptions, *,
          settled: trustrun.Policy, witness: Witness, say: Say, gated: list[str]
          ) -> tuple[list[Hook], list[str], Imposed | None, list[Hook] | None]:
    """The hooks ``event`` runs, in order, the config and trust warnings (said as they are
    found; under ``strict`` the first is a ConfigError and the others are said as errors),
    forge's own word on the run (trustrun.py: a changed project's deny, a message for the
    person, an agent running forge-hook trust; run/lost.py: a broken global or --config
    file's deny), and the hooks FORGE_SKIP kept from running
    (None when it names nothing)."""
    root = located.root
    if not os.path.isdir(root):  # a typo must not quietly run no project hooks
        raise UsageError(f"the project root is not a directory: {root}")
    layer = managed.load_layer(project_root=root)  # no option, skip list or variable turns it off
    loaded = load_sources(root, include_global=not options.no_global, include_project=not options.no_project,
                          extra=options.extra_configs, trust_project=settled.override, on_file=witness.file,
                          managed=layer)
    witness.context.export = loaded.export  # the record is also spooled for export (write-behind)
    where = trustrun.Where(event, trustrun.can_block(event, request.dialect, request.native_event),
                           request.dialect)
    verdict = trustrun.decide(loaded, located, where, settled)  # override, require and strict: trust's own
    refusing = managed.imposed(layer, event, can_block=where.can_block)  # a refused managed file: fail closed
    if refusing is not None:
        message = verdict.imposed.message if verdict.imposed is not None else None
        verdict.imposed = Imposed(refusing.source, refusing.reason, message)
    warnings = [*gated, *map(str, loaded.warnings), *verdict.warnings]
    if options.strict and (gated or loaded.warnings):  # --strict turns any warning into an error
        _refuse(warnings, say)
    if verdict.error is not None:
        others = [w for w in verdict.warnings if w != verdict.error] if settled.strict else []
        _refuse([verdict.error, *others], say)
    requested = skiplist.requested()
    skipping = skiplist.apply(HookRegistry(loaded.hooks).get_hooks(event), loaded.hooks, requested)
    warnings += skipping.warnings
    for warning in warnings:
        say(f"warning: {warning}")
    witness.matching(loaded.hooks, event, skipped=skipping.skipped)
    imposed = verdict.imposed
    if loaded.lost:  # a broken global or --config file: guards the user chose and lost
        imposed = lost.merged(imposed, lost.judge(loaded.lost, event, can_block=where.can_block))
    return (skipping.run, warnings, _imposed(event, request, root, _told(imposed, gated)),
            skipping.skipped if requested else None)


def _refuse(warnings: list[str], say: Say) -> NoReturn:
    """A --strict or --require-trust refusal: the first problem is the error, the others
    are said as errors too."""
    for warning in warnings[1:]:
        say(f"error: {warning}")
    more = len(warnings) - 1
    raise ConfigError(warnings[0] + (f" (and {more} more)" if more else ""))


def _told(imposed: Imposed | None, gated: list[str]) -> Imposed | None:
    """Trust's word with the ignored variables added to its message for the person."""
    if not gated:
        return imposed
    message = "\n".join(f"forge: {warning}" for warning in gated)
    if imposed is None:
        return Imposed(envgate.SOURCE, None, message)
    return Imposed(imposed.source, imposed.reason, "\n".join(filter(None, (imposed.message, message))))


def _imposed(event: HookEvent, request: Request, root: str, trusting: Imposed | None) -> Imposed | None:
    """forge's own word: an agent's tool call that would trust the project is denied
    before trust's own deny (it is about this very call); trust's message stays."""
    if request.dialect is None or event.type.value != "tool:pre_execute":
        return trusting
    refused = trustrun.agent_trusting(event, root)
    if refused is None:
        return trusting
    return Imposed(refused.source, refused.reason, trusting.message if trusting is not None else None)
