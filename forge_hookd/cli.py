"""``forge-hook-run``: parse the command line, call the library, print one JSON document.

The error boundary is :class:`~forge_hookd.boundary.JsonCommand`: whatever happens,
stdout carries exactly one JSON document and stderr a few ``forge-hook-run: ...`` lines.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, BinaryIO

import click
import orjson

from . import completion
from .boundary import RUNNER_PROG, JsonCommand, say, write_document
from .dialects import NAMES as DIALECTS
from .errors import ConfigError, EventError, ExitStatus, UsageError, interrupted_status
from .events import EVENT_TYPES, HookEvent

if TYPE_CHECKING:
    from .observer import RunObserver
    from .registry import Hook
    from .results import HookRun

PROG = RUNNER_PROG
MAX_EVENT_BYTES = 64 * 1024 * 1024


# -- input -------------------------------------------------------------------------
def read_event(stream: BinaryIO, *, limit: int | None = None) -> HookEvent:
    """One event from ``stream``, reading at most ``limit`` (64 MiB) + 1 bytes."""
    limit = MAX_EVENT_BYTES if limit is None else limit
    raw = stream.read(limit + 1)
    if len(raw) > limit:
        raise EventError(f"event larger than the limit of {limit} bytes")
    return HookEvent.from_json(raw)


def event_from_options(event_type: str, tool: str | None, session_id: str | None,
                       data: str | None) -> HookEvent:
    """The event that ``--event/--tool/--session-id/--data`` describe. An empty
    ``--tool`` or ``--session-id`` (``"$SESSION"`` unset) is no value: null."""
    obj: dict[str, Any] = {"type": event_type, "tool_name": tool or None, "session_id": session_id or None}
    if data is not None:
        try:
            obj["data"] = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise EventError(f"--data is not valid JSON: {exc}") from None
    return HookEvent.from_dict(obj)


def _stdin_event(stdin: BinaryIO) -> HookEvent:
    if stdin.isatty():
        raise UsageError("no event: pipe one JSON event on stdin, or use --event TYPE")
    return read_event(stdin)


def _event_types_by_family() -> str:
    families: dict[str, list[str]] = {}
    for event_type in sorted(EVENT_TYPES):
        families.setdefault(event_type.split(":")[0], []).append(event_type)
    return "\n  ".join(", ".join(types) for types in families.values())


_EPILOG = f"""
\b
Event types:
  {_event_types_by_family()}
\b
Input (stdin), one JSON object:
  {{"type": "tool:pre_execute", "timestamp": 1763700000.5, "data": {{...}},
   "tool_name": "bash", "session_id": "sess_1"}}   (only "type" is required)
\b
Config: $FORGE_CONFIG_DIR/hooks.json or ~/.config/forge/hooks.json (global),
then <project root>/.forge/hooks.json, then each --config file, in that order.
Project hooks run only once trusted: forge-hook trust (see man forge-hook).
\b
Hooks get FORGE_EVENT, FORGE_TIMESTAMP, FORGE_SESSION_ID, FORGE_TOOL_NAME,
FORGE_<DATA KEY> for each data key, FORGE_WORKING_DIR, FORGE_PROJECT_DIR,
FORGE_HOOK_CHAIN (the runs up the chain and their event types: the circular-trigger
guard), FORGE_HOOK_VARS (the data variables this run set, which a nested run removes),
FORGE_HOOK_TOKEN (how the runner finds what a hook started), and the event JSON on stdin.
\b
Hook answers: a hook may print one JSON object with "decision" (allow, deny,
ask), "reason", "data" (a merge patch over the event's data), "context", "message".
A hook with "blocking": false is an observer: recorded, never obeyed.
\b
Each run is logged, secrets redacted, to ${{XDG_STATE_HOME:-~/.local/state}}/forge/runs.jsonl
(FORGE_LOG=0: off, FORGE_LOG_FILE: elsewhere); forge-hook log reads it.
\b
Agents: --dialect claude|codex|gemini|cursor|copilot reads that agent's own hook payload
and answers in its form (stdout, stderr, exit status); the forge document goes to
--report FILE. Copilot's camelCase payloads name no event: --dialect copilot:preToolUse.
--dialect NAME --print-config prints the snippet for the agent's settings. A hook with
"format": NAME gets that agent's payload and is read by its rules.
\b
Exit status: 0 proceed (allow), 1 blocked by a hook (deny), 4 a hook asks a person
to decide (ask), 2 bad invocation or input, 3 internal error, 5 the machine refused
(full disk, deleted directory ...), 128+n interrupted by signal n (130 SIGINT,
143 SIGTERM, 131 SIGQUIT ...), 141 the reader of stdout went away.
\b
Example:
  echo '{{"type":"session:start","session_id":"s1"}}' | forge-hook-run | jq .
See man forge-hook-run for the whole contract.
"""


def _show_help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        click.echo(ctx.get_help())
        ctx.exit()


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        from importlib.metadata import version

        click.echo(f"{PROG} {version('forge-hookd')}")
        ctx.exit()


# --help and --version are declared here rather than by click: click's own ones look up
# a translation of their help text on every run (1.0 ms: bench/README.md, "tricks.py").
@click.command(cls=JsonCommand, name=PROG, epilog=_EPILOG, add_help_option=False,
               context_settings={"max_content_width": 88})
@click.option("--event", "event_type", metavar="TYPE", shell_complete=completion.values(completion.event_types),
              help="Build the event from options instead of reading stdin.")
@click.option("--tool", metavar="NAME", help="With --event: the tool name.")
@click.option("--session-id", metavar="ID", help="With --event: the session id.")
@click.option("--data", metavar="JSON", help="With --event: the event data, a JSON object.")
# Plain str types, not click.Path: its constructor looks up
# a translation of its name (bench/README.md, "tricks.py"). Neither needs click's checks.
@click.option("--project-root", metavar="DIR",
              help="Project root (default: $FORGE_PROJECT_DIR, else the nearest directory "
                   "upwards with .forge/hooks.json, else the current one).")
@click.option("--config", "extra_configs", multiple=True, metavar="FILE", help="Another hooks file, run after the project's. Repeatable.")
@click.option("--trust-project", is_flag=True,
              help="Run the project's hooks even if its hooks file is not trusted "
                   "(also FORGE_TRUST_PROJECT=1); for CI and headless agents.")
@click.option("--no-global", is_flag=True, help="Do not load the global hooks file.")
@click.option("--no-project", is_flag=True, help="Do not load the project hooks file.")
@click.option("--keep-going", is_flag=True,
              help="Run every matching hook even after one says stop.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
              help="Run up to N hooks at once. Every matching hook runs (as with --keep-going); "
                   "results stay in config order. For observational events.")
@click.option("--strict", is_flag=True,
              help="Treat any config warning as an error (exit 2, no hook runs).")
@click.option("--dry-run", is_flag=True, help="Print which hooks would run, in order; run none.")
@click.option("--pretty", is_flag=True, help="Indent the JSON output.")
@click.option("--trace", is_flag=True,
              help="Tell on stderr what the run does and why: files read, hooks matched or "
                   "not, each start, end and decision (also FORGE_TRACE=1).")
@click.option("--dialect", metavar="NAME", shell_complete=completion.values(completion.dialect_names),
              help=f"Speak an agent's own hook protocol ({', '.join(DIALECTS)}): read "
                   "its payload, answer in its form on stdout, stderr and exit status. NAME:EVENT "
                   "names the event for a payload that does not (copilot:preToolUse).")
@click.option("--report", metavar="FILE",
              help="With --dialect: write the forge JSON document to FILE (stdout is the agent's).")
@click.option("--print-config", is_flag=True,
              help="With --dialect: print the hooks snippet for the agent's settings and exit.")
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show the version and exit.")
@click.option("-h", "--help", is_flag=True, expose_value=False, is_eager=True, callback=_show_help,
              help="Show this message and exit.")
def forge_hook_run(
    event_type: str | None, tool: str | None, session_id: str | None, data: str | None,
    project_root: str | None, extra_configs: tuple[str, ...], trust_project: bool, no_global: bool,
    no_project: bool, keep_going: bool, jobs: int, strict: bool, dry_run: bool, pretty: bool,
    trace: bool, dialect: str | None = None, report: str | None = None, print_config: bool = False,
) -> int:
    """Run the hooks configured for one agent event.

    Reads one event as JSON on stdin (or builds it from --event), runs the matching
    hooks of the global and project config in order, prints one JSON document with
    every result, and exits 1 when a hook blocks the operation, 4 when one asks a
    person to decide.
    """
    if dialect is not None or report is not None or print_config:
        return _dialect_path(dialect, report, print_config, event_type is not None or dry_run or pretty,
                             project_root=project_root, extra_configs=extra_configs,
                             trust_project=trust_project, no_global=no_global, no_project=no_project,
                             keep_going=keep_going, jobs=jobs, strict=strict, trace=trace)
    from .config import find_project_root
    from .results import dry_run_document

    if event_type is None and (tool or session_id or data is not None):
        raise UsageError("--tool, --session-id and --data go with --event")
    event = (event_from_options(event_type, tool, session_id, data) if event_type is not None
             else _stdin_event(sys.stdin.buffer))
    root = find_project_root(project_root)
    observer = new_observer(root, trace=trace, trust_project=trust_project, no_global=no_global,
                            no_project=no_project)
    hooks, warnings = load_hooks(event, root=root, extra_configs=extra_configs, trust_project=trust_project,
                                 no_global=no_global, no_project=no_project, strict=strict, observer=observer)
    if dry_run:
        write_document(dry_run_document(event, hooks, warnings), pretty=pretty)
        return ExitStatus.PROCEED
    run = run_hooks(event, hooks, root=root, warnings=warnings, keep_going=keep_going, jobs=jobs,
                    observer=observer)
    _say_verdict(run)
    doc = run.to_dict()
    status = interrupted_status(run.interrupted) if run.interrupted is not None else _EXIT_STATUS[run.decision]
    observer.finished(doc, status)
    write_document(doc, pretty=pretty)
    return status


# -- the steps both the native and the dialect path take (dialect_cli.py) ----------------
def new_observer(root: str, *, trace: bool, trust_project: bool, no_global: bool, no_project: bool,
                 dialect: str | None = None) -> RunObserver:
    """What the run log and --trace learn of this run (observer.py)."""
    from .observer import RunObserver

    observer = RunObserver(lambda line: say(PROG, line),
                           trace_to=lambda line: click.echo(f"{PROG}: {line}", err=True),
                           root=root, trace=trace, trust_override=trust_project,
                           no_global=no_global, no_project=no_project)
    observer.context.dialect = dialect
    return observer


def load_hooks(event: HookEvent, *, root: str, extra_configs: tuple[str, ...], trust_project: bool,
               no_global: bool, no_project: bool, strict: bool, observer: RunObserver
               ) -> tuple[list[Hook], list[str]]:
    """The hooks ``event`` runs, in order, and the config warnings (said on stderr;
    under ``strict`` the first is a ConfigError and the others are said as errors)."""
    from .config import load_sources, untrusted_warning
    from .registry import HookRegistry

    if not os.path.isdir(root):  # a typo must not quietly run no project hooks
        raise UsageError(f"the project root is not a directory: {root}")
    loaded = load_sources(root, include_global=not no_global, include_project=not no_project,
                          extra=extra_configs, trust_project=trust_project or None,
                          on_file=observer.file)
    warnings = [str(w) for w in loaded.warnings]
    if strict and warnings:
        for warning in warnings[1:]:
            say(PROG, f"error: {warning}")
        raise ConfigError(warnings[0] + (f" (and {len(warnings) - 1} more)" if len(warnings) > 1 else ""))
    notice = untrusted_warning(loaded, root)
    warnings += [notice] if notice else []
    for warning in warnings:
        say(PROG, f"warning: {warning}")
    observer.matching(loaded.hooks, event)
    return HookRegistry(loaded.hooks).get_hooks(event), warnings


def run_hooks(event: HookEvent, hooks: Sequence[Hook], *, root: str, warnings: list[str],
              keep_going: bool, jobs: int, observer: RunObserver) -> HookRun:
    """Run ``hooks``; from here on a signal ends the running hooks (signals.py)."""
    from .executor import HookExecutor

    catcher = JsonCommand.signals()
    catcher.deferred = True
    executor = HookExecutor(working_dir=root, subreaper=True)
    executor.on_start = observer.on_start
    run = executor.run(event, hooks=hooks, stop_on_failure=not keep_going, jobs=jobs, catcher=catcher)
    run.warnings[:0] = warnings
    for warning in run.warnings[len(warnings):]:
        say(PROG, f"warning: {warning}")
    return run


def _say_verdict(run: HookRun) -> None:
    from .answers import one_line
    from .results import describe_hook
    from .signals import signal_name

    blocker = run.blocked_by
    if run.interrupted is not None:
        say(PROG, f"interrupted by {signal_name(-run.interrupted)}: running hooks were ended")
    elif blocker is not None:
        say(PROG, f"blocked by {describe_hook(blocker.hook, blocker.index)} ({blocker.hook.event_pattern}): "
                  f"{one_line(blocker.reason) or 'no reason given'}")
    elif run.decision == "ask":
        say(PROG, f"ask (exit status 4): a person must decide: {one_line(run.reason or '') or 'no reason given'}")


_EXIT_STATUS = {"allow": ExitStatus.PROCEED, "deny": ExitStatus.BLOCKED, "ask": ExitStatus.ASK}


def _dialect_path(dialect: str | None, report: str | None, print_config: bool, native_only: bool,
                  **options: Any) -> int:
    from . import dialect_cli

    if dialect is None:
        raise UsageError("--report and --print-config go with --dialect NAME")
    if print_config:
        return dialect_cli.print_config(dialect)
    if native_only:
        raise UsageError("--event, --dry-run and --pretty do not go with --dialect")
    return dialect_cli.run_dialect(dialect, report=report, **options)


def main() -> int:
    """The exit status of one run of the command."""
    completion.install_if_asked(PROG)
    if "--dialect" in sys.argv or any(a.startswith("--dialect=") for a in sys.argv):
        from .dialect_cli import install_failure_answer, option_in_argv

        argv = sys.argv[1:]
        install_failure_answer(option_in_argv(argv, "--dialect"), option_in_argv(argv, "--report"))
    return forge_hook_run.main(prog_name=PROG, standalone_mode=False, ignore_late_signals=True)
