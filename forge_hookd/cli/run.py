"""``forge-hook-run``: parse the command line, choose the codec, run the pipeline.

The run itself is :func:`forge_hookd.run.pipeline.serve`; this module only turns options
into :class:`~forge_hookd.run.pipeline.RunOptions` and a codec (codec zero, the forge
protocol, or ``--dialect NAME``'s), and hands both down with the signal catcher. The
error boundary is :class:`~forge_hookd.cli.boundary.JsonCommand`: whatever happens, the
caller reads one answer in its own protocol.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, cast

import click

from forge_hookd.cli import completion
from forge_hookd.cli.boundary import RUNNER_PROG, Invocation, JsonCommand, print_json, say, write_stderr, write_stdout
from forge_hookd.run.codec import ForgeCodec, event_from_options
from forge_hookd.dialects import NAMES as DIALECTS
from forge_hookd.errors import ExitStatus, UsageError
from forge_hookd.events import EVENT_TYPES
from forge_hookd.run.pipeline import RunOptions, serve
from forge_hookd.text import did_you_mean

if TYPE_CHECKING:
    from forge_hookd.run.codec import Codec
    from forge_hookd.run.dialectcodec import DialectCodec

PROG = RUNNER_PROG


def _event_types_by_family() -> str:
    families: dict[str, list[str]] = {}
    for event_type in sorted(EVENT_TYPES):
        families.setdefault(event_type.split(":")[0], []).append(event_type)
    # at most four a line: the session family has six, and --help keeps to 88 columns
    return "\n  ".join(", ".join(types[i:i + 4]) for types in families.values() for i in range(0, len(types), 4))


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
Project hooks run only once a person trusts them: forge-hook trust (see man forge-hook).
Trust covers .forge/ and every project file a hook's command names; a change since
then denies events that can block where a project hook matches (re-trust to go on).
FORGE_SKIP=ID,ID: the hooks with those ids do not run this once (said on stderr
and in the document's skipped_on_request); only a hook with an "id" can be skipped.
\b
Hooks get FORGE_EVENT, FORGE_TIMESTAMP, FORGE_SESSION_ID, FORGE_TOOL_NAME,
FORGE_<DATA KEY> for each data key, FORGE_WORKING_DIR, FORGE_PROJECT_DIR,
FORGE_HOOK_CHAIN (the runs up the chain, their event types and sessions: the
circular-trigger guard), FORGE_HOOK_VARS (the data variables this run set, which a nested run removes),
FORGE_HOOK_TOKEN (how the runner finds what a hook started), and the event JSON on stdin.
\b
Hook answers: a hook may print one JSON object with "decision" (allow, deny,
ask), "reason", "data" (a merge patch over the event's data), "context", "message".
A hook with "blocking": false is an observer: recorded, never obeyed.
\b
The agent's lifecycle: a deny on agent:stop (agent:subagent_stop) keeps the agent
working, its reason the next instruction; data.stop_count says how often in a row the
session's stop was refused, and after FORGE_MAX_CONTINUES (5) refusals the agent is let
stop. agent:native:NAME is any other native event of an agent.
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
        from importlib.metadata import version  # 20+ ms, only for --version (bench/README.md, "tricks.py")

        click.echo(f"{PROG} {version('forge-hookd')}")
        ctx.exit()


class _RunnerCommand(JsonCommand):
    def new_invocation(self) -> Invocation:
        """Until the command line says otherwise, the forge protocol answers."""
        return Invocation(_forge_codec())


def _forge_codec(**kwargs: Any) -> ForgeCodec:
    return ForgeCodec(lambda line: say(PROG, line), write_stdout, **kwargs)


def _speak(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--dialect`` and ``--report`` are eager: the codec that answers this invocation,
    failures included, is chosen before any other option is looked at (an option's value
    is in ``ctx.params`` once processed)."""
    if param.name == "dialect" and value is not None:
        # The dialect modules load only for an agent's call (bench/README.md, "tricks.py").
        from forge_hookd.run.dialectcodec import DialectCodec

        ctx.obj.codec = DialectCodec(value, err=write_stderr, out=write_stdout, report=ctx.params.get("report"))
    elif param.name == "report" and ctx.params.get("dialect"):  # --dialect came first
        cast("DialectCodec", ctx.obj.codec).report = value
    return value


def _hush(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    """``-q`` is eager too: a usage error found later in the command line must not
    print the error document it asked not to see."""
    invocation: Invocation = ctx.obj
    if value and isinstance(invocation.codec, ForgeCodec):
        invocation.codec.quiet = True
    return value


# --help and --version are declared here rather than by click: click's own ones look up
# a translation of their help text on every run (1.0 ms: bench/README.md, "tricks.py").
#
# Unknown options are not click's to refuse: they come back in ``extras`` and are refused
# by the command, once the codec is chosen, so that an agent reads the usage error in its
# own form (click's parser would refuse them before any option is processed).
@click.command(cls=_RunnerCommand, name=PROG, epilog=_EPILOG, add_help_option=False,
               context_settings={"max_content_width": 88, "ignore_unknown_options": True,
                                 "allow_extra_args": True})
@click.option("--event", "event_type", metavar="TYPE", shell_complete=completion.values(completion.event_types),
              help="Build the event from options instead of reading stdin.")
@click.option("--tool", metavar="NAME", shell_complete=completion.values(completion.tool_names),
              help="With --event: the tool name.")
@click.option("--session-id", metavar="ID", help="With --event: the session id.")
@click.option("--data", metavar="JSON", help="With --event: the event data, a JSON object.")
# Plain str types, not click.Path: its constructor looks up
# a translation of its name (bench/README.md, "tricks.py"). Neither needs click's checks.
@click.option("--project-root", metavar="DIR", shell_complete=completion.paths("dir"),
              help="Project root (default: $FORGE_PROJECT_DIR, else the nearest directory "
                   "upwards with .forge/hooks.json, else the current one).")
@click.option("--config", "extra_configs", multiple=True, metavar="FILE", shell_complete=completion.paths("file"),
              help="Another hooks file, run after the project's. Repeatable.")
@click.option("--trust-project", is_flag=True,
              help="Run the project's hooks even if its hooks file is not trusted "
                   "(also FORGE_TRUST_PROJECT=1, which --dialect ignores unless the global hooks "
                   "file's allow_env lists it); for CI and headless agents.")
@click.option("--require-trust", is_flag=True,
              help="Project hooks that are not trusted are an error, not skipped: exit 2 (through "
                   "--dialect, a deny where the agent waits) when one matches the event (also "
                   "FORGE_REQUIRE_TRUST=1); for git hooks and CI, where skip would mean pass.")
@click.option("--no-global", is_flag=True, help="Do not load the global hooks file.")
@click.option("--no-project", is_flag=True, help="Do not load the project hooks file.")
@click.option("--keep-going", is_flag=True,
              help="Run every matching hook even after one says stop.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
              help="Run up to N hooks at once. Every matching hook runs (as with --keep-going); "
                   "results stay in config order. For observational events.")
@click.option("--agent-limit", type=click.FloatRange(min=0, min_open=True), metavar="N",
              help="The seconds the agent waits for this hook command: forge answers max(2 s, 10%) "
                   "before, ending the hooks still running (a deny naming them where the event can "
                   "block, else proceed with a warning). forge-hook install writes it.")
@click.option("--strict", is_flag=True,
              help="Treat any config or trust warning as an error (exit 2, no hook runs).")
@click.option("--dry-run", is_flag=True, help="Print which hooks would run, in order; run none.")
@click.option("--pretty", is_flag=True, help="Indent the JSON output.")
@click.option("-q", "--quiet", is_flag=True, is_eager=True, callback=_hush,
              help="Print no document, not even an error document: the one-line verdict or error "
                   "on stderr and the exit status say it all (an allow prints nothing). For git "
                   "hooks, Makefiles and terminals. Not with --dialect (stdout is the agent's) "
                   "nor --dry-run (its document is its answer).")
@click.option("--trace", is_flag=True,
              help="Tell on stderr what the run does and why: files read, hooks matched or "
                   "not, each start, end and decision (also FORGE_TRACE=1).")
@click.option("--dialect", metavar="NAME", is_eager=True, callback=_speak,
              shell_complete=completion.values(completion.dialect_names),
              help=f"Speak an agent's own hook protocol ({', '.join(DIALECTS)}): read "
                   "its payload, answer in its form on stdout, stderr and exit status. NAME:EVENT "
                   "names the event for a payload that does not (copilot:preToolUse).")
@click.option("--report", metavar="FILE", is_eager=True, callback=_speak,
              help="With --dialect: write the forge JSON document to FILE (stdout is the agent's).")
@click.option("--print-config", is_flag=True,
              help="With --dialect: print the hooks snippet for the agent's settings (the command install "
                   "writes into a project, which fails closed where forge-hook-run cannot start) and exit.")
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show the version and exit.")
@click.option("-h", "--help", is_flag=True, expose_value=False, is_eager=True, callback=_show_help,
              help="Show this message and exit.")
@click.pass_context
def forge_hook_run(
    ctx: click.Context, event_type: str | None, tool: str | None, session_id: str | None, data: str | None,
    project_root: str | None, extra_configs: tuple[str, ...], trust_project: bool, require_trust: bool,
    no_global: bool,
    no_project: bool, keep_going: bool, jobs: int, agent_limit: float | None, strict: bool, dry_run: bool, pretty: bool,
    quiet: bool, trace: bool, dialect: str | None = None, report: str | None = None, print_config: bool = False,
) -> int:
    """Run the hooks configured for one agent event.

    Reads one event as JSON on stdin (or builds it from --event), runs the matching
    hooks of the global and project config in order, prints one JSON document with
    every result, and exits 1 when a hook blocks the operation, 4 when one asks a
    person to decide.
    """
    _refuse_extras(ctx)
    invocation: Invocation = ctx.obj
    options = RunOptions(project_root=project_root, extra_configs=extra_configs, trust_project=trust_project,
                         no_global=no_global, no_project=no_project, keep_going=keep_going, jobs=jobs,
                         strict=strict, dry_run=dry_run, trace=trace, require_trust=require_trust,
                         agent_limit=agent_limit)
    if dialect is None and (report is not None or print_config):
        raise UsageError("--report and --print-config go with --dialect NAME")
    if dialect is not None and quiet:  # refused, not ignored: the agent reads stdout, not us
        raise UsageError("--quiet does not go with --dialect: stdout is the agent's answer")
    if dialect is not None and print_config:
        return _print_config(dialect)
    if dialect is not None and (event_type is not None or dry_run or pretty):
        raise UsageError("--event, --dry-run and --pretty do not go with --dialect")
    if quiet and dry_run:
        raise UsageError("--quiet does not go with --dry-run: a dry run's document is its answer")
    if dialect is None:
        if event_type is None and (tool or session_id or data is not None):
            raise UsageError("--tool, --session-id and --data go with --event")
        event = event_from_options(event_type, tool, session_id, data) if event_type is not None else None
        invocation.codec = _forge_codec(event=event, pretty=pretty, quiet=quiet)
    return serve(cast("Codec", invocation.codec), options, stdin=sys.stdin.buffer, catcher=invocation.catcher,
                 say=lambda line: say(PROG, line), trace_to=lambda line: click.echo(f"{PROG}: {line}", err=True))


def _refuse_extras(ctx: click.Context) -> None:
    """What click let through unread (see the command's context settings)."""
    if not ctx.args:
        return
    extra = ctx.args[0]
    if extra.startswith("-"):
        name = extra.partition("=")[0]
        options = [opt for param in ctx.command.params for opt in param.opts]
        raise UsageError(f"No such option '{name}'{did_you_mean(name, options)}.")
    raise UsageError(f"Got unexpected extra argument ({extra})")


def _print_config(value: str) -> int:
    from forge_hookd.run.dialectcodec import dialect_named, split_dialect  # as in _speak

    name = split_dialect(value)[0]
    dialect = dialect_named(name)
    if name == "cline":  # an executable per event, not a settings file
        from forge_hookd.agents import cline_hooks

        sys.stdout.write(cline_hooks.script("forge-hook-run", "PreToolUse"))
        say(PROG, "save this as PreToolUse (executable) in .clinerules/hooks/ or ~/Documents/Cline/Hooks/, and one "
                  "like it per event (--dialect cline:EVENT); forge-hook install --agent cline writes them all")
        return 0
    from forge_hookd.agents.places import project_command  # what install writes into a project's file

    # Not the bare command: where forge-hook-run is missing or cannot start, the shell's
    # 127 or 126 reads as "proceed" to Claude and Codex; this fails closed in the agent's form.
    print_json(dialect.settings.snippet(project_command(name)))
    say(PROG, f"merge this into {' or '.join(dialect.settings.files)}")
    return ExitStatus.PROCEED


def codec_for(argv: list[str]) -> Codec:
    """The codec that ``argv`` chooses, read without running the command: how the warm
    client answers a run that the resident runner took (stdin with it) and did not
    finish (``__main__.answer_broken_run``). The command's own options say which take a
    value, and a value is skipped with its option: ``--data --dialect`` chooses nothing."""
    valued = {name for param in forge_hook_run.params if isinstance(param, click.Option) and not param.is_flag
              for name in param.opts}
    given: dict[str, str | None] = {}
    words = iter(argv)
    for word in words:
        if word == "--":
            break
        name, equals, value = word.partition("=")
        if equals and name in valued:
            given[name] = value
        elif word in valued:
            given[word] = next(words, None)
        else:
            given[word] = None
    dialect = given.get("--dialect")
    if dialect is not None:
        from forge_hookd.run.dialectcodec import DialectCodec  # as in _speak

        return DialectCodec(dialect, err=write_stderr, out=write_stdout, report=given.get("--report"))
    return _forge_codec(pretty="--pretty" in given, quiet="-q" in given or "--quiet" in given)


def main() -> int:
    """The exit status of one run of the command."""
    completion.install_if_asked(PROG)
    return forge_hook_run.main(prog_name=PROG, standalone_mode=False, ignore_late_signals=True)
