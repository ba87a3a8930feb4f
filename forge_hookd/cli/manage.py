"""``forge-hook``: see, check and edit hooks without hand-editing JSON; trust projects.

Parsing and printing only: the work is in :mod:`forge_hookd.policy.editing`,
:mod:`forge_hookd.trust.store` and :mod:`forge_hookd.config`.
"""

from __future__ import annotations

import logging  # every command hears the library's notes (a lock waited for)
import os
import shutil
import textwrap
from pathlib import Path
from typing import Any

import click

from forge_hookd.cli import completion

from forge_hookd.policy import editing

from forge_hookd.agents import places as agentplaces

from forge_hookd.agents import install as agentwire

from forge_hookd.agents import jsonedit

from forge_hookd.agents import doctor as wiredoctor
from forge_hookd.agents import health

from forge_hookd.trust import decide
from forge_hookd.trust import store as trust
from forge_hookd.cli.boundary import MANAGER_PROG, BoundaryGroup, print_json, say
from forge_hookd.config import CONFIG_NAME, PROJECT_DIR_NAME, find_project_root, parse_document, read_raw, update_file
from forge_hookd.dialects import NAMES as DIALECTS
from forge_hookd.dialects import get
from forge_hookd.agents.importing import Imported, import_hooks
from forge_hookd.errors import ConfigError, ExitStatus, ManagerStatus, UsageError
from forge_hookd.events import EVENT_INFO, EVENT_TYPES, EVENT_VARS, PROJECT_DIR_VAR, TOOL_NAME_VAR, HookEvent, env_name
from forge_hookd.registry import Hook, hook_name, pattern_can_match
from forge_hookd.cli.log import export_command, log_command
from forge_hookd.cli.warm import warm_command
from forge_hookd.cli.policy import guard_group, policy_group, replay_command, test_command
from forge_hookd.templates import HOOK_TEMPLATES
from forge_hookd.text import short_command, visible
from forge_hookd.agents.record import Wiring

PROG = MANAGER_PROG


def _root(ctx: click.Context, directory: str | None = None) -> Path:
    """The project root: ``directory`` if given, else --project-root, else the search."""
    root = Path(find_project_root(directory or ctx.find_root().params.get("project_root")))
    if not root.is_dir():
        raise UsageError(f"the project root is not a directory: {root}")
    return root


def _scope(global_: bool, project: bool) -> str:
    if global_ == project:
        raise UsageError("say which file: --global or --project")
    return "global" if global_ else "project"


def scope_options(func: Any) -> Any:
    func = click.option("--project", "project", is_flag=True, help="Edit the project's .forge/hooks.json.")(func)
    return click.option("--global", "global_", is_flag=True, help="Edit the global hooks file.")(func)


def _edited(ctx: click.Context, scope: str, what: str, root: Path | None = None) -> None:
    """Say what changed, and what to do next when the project file needs trusting."""
    root = root or _root(ctx)
    path = editing.scope_path(scope, root)
    click.echo(visible(f"{PROG}: {what} in {path}"))
    raw = read_raw(path)
    if scope == "project" and raw is not None and not trust.is_trusted(path, raw):
        say(PROG, f"next: review {path}, then run: forge-hook trust {root} (project hooks run once trusted)")


@click.group(cls=BoundaryGroup, name=PROG,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 88})
@click.option("--project-root", type=click.Path(file_okay=False), metavar="DIR",
              help="Project root (default: $FORGE_PROJECT_DIR, else the nearest directory "
                   "upwards with .forge/hooks.json, else the current one).")
@click.version_option(package_name="forge-hookd", prog_name=PROG, message="%(prog)s %(version)s")
def forge_hook(project_root: str | None) -> None:
    """See, check and edit forge-hook-run's hooks, and trust project hooks.

    Project hooks (.forge/hooks.json) run only after you trust them with forge-hook
    trust, which covers the hooks file, everything under .forge/ and the project's
    files their commands name; any change makes the project untrusted again until you
    trust it anew (edits made through forge-hook keep a trusted file trusted). The
    global file is yours and always trusted.
    """
    _library_notes_to_stderr(click.get_current_context())


def _library_notes_to_stderr(ctx: click.Context) -> None:
    """What the library notes while it works (a lock it waits for) as ``forge-hook: ...``
    lines on stderr, for as long as the command runs (a test process runs many)."""
    class Notes(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            say(PROG, record.getMessage())

    logger, notes = logging.getLogger("forge_hookd"), Notes(logging.INFO)
    logger.addHandler(notes)
    ctx.call_on_close(lambda: logger.removeHandler(notes))


@forge_hook.command("list", short_help="List the hooks, where each is, whether it runs.")
@click.option("--event", "event_type", type=click.Choice(sorted(EVENT_TYPES)), metavar="TYPE",
              help="Only the hooks this event would run, in run order.")
@click.option("--tool", metavar="NAME", shell_complete=completion.values(completion.tool_names),
              help="With --event: the tool name.")
@click.option("--trust-project", is_flag=True, help="With --event: count untrusted project hooks as running.")
@click.option("--json", "as_json", is_flag=True, help="A JSON list instead of a table.")
@click.pass_context
def list_command(ctx: click.Context, event_type: str | None, tool: str | None, trust_project: bool,
                 as_json: bool) -> None:
    """List every configured hook: its name, pattern, state, trust, timeout, command.

    A hook's name is its file and its index there, project[2] (with its id, if it has
    one: project[2] (lint)), as every line of forge-hook and forge-hook-run names it. The
    index is the hook's position in its own file's "hooks" list, counting from 0; the
    global and the project file each count from 0. enable, disable and remove take the
    index or the id, with --global or --project. A long command is shortened here; --json
    has it whole.
    """
    if event_type is None and (tool or trust_project):
        raise UsageError("--tool and --trust-project go with --event")
    problems: list[ConfigError] = []
    listed = editing.list_hooks(_root(ctx), problems)
    for problem in problems:  # the other file's hooks still run, so they are still listed
        say(PROG, f"warning: {problem}; its hooks are not listed (forge-hook check)")
    if event_type is not None:
        event = HookEvent.from_dict({"type": event_type, "tool_name": tool})
        settled = decide.policy(trust_project=trust_project)
        if settled.unclear:
            say(PROG, f"warning: {settled.unclear}")
        listed = editing.would_run(listed, event, trust_project=settled.override)
    if as_json:
        print_json([h.to_dict() for h in listed])
        return
    for line in _table(listed, shutil.get_terminal_size((100, 24)).columns):
        click.echo(line)  # each cell is visible(): a command under review never drives the terminal


#: Characters of a command a table shows at most, however wide the terminal (a 1.6 KB
#: inline program would otherwise fill it): the whole command is in list --json.
COMMAND_LIMIT = 72


def _table(listed: list[editing.ListedHook], width: int) -> list[str]:
    """The hooks as aligned columns, every cell with control characters written out (a
    command under review must not repaint the terminal), the command shortened."""
    rows: list[tuple[str, ...]] = [("HOOK", "EVENT", "ON", "BLOCKS", "TRUST", "TIMEOUT", "COMMAND")]
    rows += [tuple(map(visible, (h.name, h.hook.event_pattern, "yes" if h.hook.enabled else "no",
                                 "yes" if h.hook.blocking else "no", h.trust.value,
                                 "-" if h.hook.guard else f"{h.hook.effective_timeout:g}s",  # a guard runs no process to time out
                                 " ".join(h.hook.action.split()))))
             for h in listed]
    widths = [max(len(r[i]) for r in rows) for i in range(6)]
    lines = []
    for row in rows:
        left = "  ".join(cell.ljust(w) for cell, w in zip(row[:6], widths, strict=True))
        room = min(max(width - len(left) - 2, 12), COMMAND_LIMIT)
        lines.append(f"{left}  {short_command(row[6], room)}".rstrip())
    files = sorted({str(h.file) for h in listed})
    why = sorted({f"{h.file}: {h.trust.value}: {h.trust_detail}" for h in listed if h.trust_detail})
    return lines + [visible(f"({', '.join(files)})"), *map(visible, why)] if files else ["no hooks configured"]


@forge_hook.command("check", short_help="Validate the hooks files; exit 1 on problems.")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of problems.")
@click.pass_context
def check_command(ctx: click.Context, as_json: bool) -> int:
    """Validate the global and project files; exit 1 with one line per problem.

    \b
    Findings (each also a warning of forge-hook-run, an error under --strict):
      a file that is not valid JSON, not a regular file, or over 4 MiB;
      an unknown top-level key ("hook" for "hooks"), a file without "hooks";
      a malformed entry, an unknown key in an entry, a duplicate key;
      a pattern that can match no event type (tool:pre_exec:bash);
      a working_dir that does not exist; an env that sets an event variable;
      a matcher or an "if" the hook's agent could not use.
    And, found by check only (the hook runs): a timeout outside [0.1, 600]; a tool
    name that looks like a typo of one forge or an agent uses (tool:pre_execute:bsah);
    an id that two hooks of one file hold; a word in a project hook's command that trust
    cannot resolve (an unknown variable, a glob, python -m pkg), whose target a trusted
    project does not cover; a command that expands a variable nothing sets (a plugin's
    ${CLAUDE_PLUGIN_ROOT}, a Gemini extension's ${extensionPath} outside the agent that
    fills them in). And, for each agent whose settings here run forge-hook-run, an event
    whose hooks (their timeouts summed in order, the longest with --jobs) can outlast the
    agent's limit (the entry's --agent-limit, else its timeout), and an entry whose
    timeout is not its --agent-limit.

    A hook is named project[2] (its file and index), as everywhere. On success check
    says which files it read and how many hooks each holds. The managed layer's files
    (/etc/forge) come first; one that fails its ownership checks is a problem.
    """
    root = _root(ctx)
    found = editing.check_managed(root)
    found += [(scope, p) for scope in ("global", "project")
              for p in editing.check_file(editing.scope_path(scope, root), root)]
    outlasting = wiredoctor.outlasting(str(root))
    if as_json:
        print_json([{"file": p.path, "line": p.line, "column": p.column, "entry": p.entry,
                     "hook": None if p.entry is None else hook_name(scope, p.entry),
                     "message": p.message} for scope, p in found]
                   + [{"file": line.partition(": ")[0], "line": None, "column": None, "entry": None, "hook": None,
                       "message": line.partition(": ")[2]} for line in outlasting])
        return ManagerStatus.PROBLEMS if found or outlasting else ManagerStatus.OK
    for scope, problem in found:
        click.echo(visible(_problem_line(scope, problem)))
    for line in outlasting:
        click.echo(visible(line))
    for line in _checked(root, len(found) + len(outlasting)):
        click.echo(visible(line))
    return ManagerStatus.PROBLEMS if found or outlasting else ManagerStatus.OK


def _problem_line(scope: str, problem: ConfigError) -> str:
    """``FILE:LINE:COL: message`` or ``FILE: project[2]: message``."""
    where = problem.path or ""
    if problem.line is not None:
        where = f"{where}:{problem.line}:{problem.column}"
    if problem.entry is not None:
        where = f"{where}: {hook_name(scope, problem.entry)}"
    return f"{where}: {problem.message}" if where else problem.message


def _checked(root: Path, problems: int) -> list[str]:
    """What check read: each file and its hooks, then the verdict."""
    lines = [f"  {source:8} {path}: {what}" for source, path, what in editing.managed_files(root)]
    for scope in ("global", "project"):
        path = editing.scope_path(scope, root)
        try:
            raw = read_raw(path)
            entries = None if raw is None else len(parse_document(raw, path).get("hooks", []))
        except ConfigError:
            entries = -1
        what = ("no such file" if entries is None else "not readable as a hooks file" if entries < 0
                else f"{entries} hook{'s' if entries != 1 else ''}")
        lines.append(f"  {scope:8} {path}: {what}")
    verdict = f"{problems} problem{'s' if problems != 1 else ''}" if problems else "no problems"
    return [f"{PROG}: checked the global and the project hooks file: {verdict}", *lines]


@forge_hook.command("add", short_help="Append a hook, from a template or options.")
@scope_options
@click.option("--template", type=click.Choice(sorted(HOOK_TEMPLATES)), metavar="NAME",
              help="Start from a template (forge-hook templates).")
@click.option("--event", "pattern", metavar="PATTERN", help="The event pattern(s), comma-separated.",
              shell_complete=completion.event_patterns)
@click.option("--command", metavar="CMD", help="The shell command.")
@click.option("--guard", metavar="NAME", help="A built-in guard (forge-hook guard list), judged without a process.",
              shell_complete=completion.values(completion.guard_names))
@click.option("--with", "with_json", metavar="JSON", help="With --guard: the guard's options, a JSON object.")
@click.option("--guards", "guard_set", metavar="SET",
              help="Several built-in guards at once: recommended, all, or names separated by commas; "
                   "a guard already in the file is left as it is.",
              shell_complete=completion.values(completion.guard_sets, separator=","))
@click.option("--id", "hook_id", metavar="ID",
              help="A name for the hook, unique in its file: enable, disable, remove and FORGE_SKIP=ID "
                   "take it (letters, digits, '-', '_', '.'; not only digits).")
@click.option("--timeout", type=float, metavar="S", help="Seconds before the hook's tree is ended (0.1-600).")
@click.option("--description", metavar="D", help="What the hook is for.")
@click.option("--env", "env_pairs", multiple=True, metavar="KEY=VALUE", help="An environment variable. Repeatable.")
@click.option("--working-dir", metavar="DIR",
              help="Where it runs: an existing directory, relative to the project root; ~ is expanded.")
@click.option("--disabled", is_flag=True, help="Add it disabled.")
@click.option("--detach", is_flag=True, help="Leave what it starts in the background running.")
@click.option("--observer", is_flag=True,
              help='An observer ("blocking": false): its failures and answers are recorded, never obeyed.')
@click.pass_context
def add_command(ctx: click.Context, global_: bool, project: bool, template: str | None,
                pattern: str | None, command: str | None, guard: str | None, with_json: str | None,
                guard_set: str | None, hook_id: str | None, timeout: float | None,
                description: str | None, env_pairs: tuple[str, ...], working_dir: str | None,
                disabled: bool, detach: bool, observer: bool) -> None:
    """Append a hook: from a template, from --event and --command, or a built-in guard
    (--guard NAME [--with JSON], on every tool call unless --event says otherwise);
    --guards recommended adds the recommended guards in one step, and leaves any
    already in the file as they are (run it twice: nothing changes).

    With --project, when no .forge/hooks.json exists yet up the tree (and no
    --project-root is given), the file is created in the nearest .forge directory
    upwards, else at the root of the git repository, else in the current directory.
    It prints the path it wrote.
    """
    scope = _scope(global_, project)
    if guard is not None or guard_set is not None or with_json is not None:
        process = {"--template": template, "--command": command, "--timeout": timeout, "--env": env_pairs,
                   "--working-dir": working_dir, "--detach": detach}
        _add_guards(ctx, scope, guard, guard_set, with_json, pattern, hook_id, description, disabled, observer,
                    process)
        return
    if template is not None and (pattern or command):
        raise UsageError("--template goes without --event and --command")
    if template is None and not (pattern and command):
        raise UsageError("say what to add: --template NAME, or --event PATTERN --command CMD")
    root = _root_to_add_to(ctx) if scope == "project" else _root(ctx)
    if working_dir is not None:
        working_dir = _checked_working_dir(working_dir, root, relative_is_checked=scope == "project")
    base = HOOK_TEMPLATES[template].to_dict() if template else {"event": pattern, "command": command}
    changes = {"id": hook_id, "timeout": timeout, "description": description, "working_dir": working_dir,
               "env": _env(env_pairs) or None}
    entry = {**{k: v for k, v in changes.items() if k == "id" and v is not None}, **base,
             **{k: v for k, v in changes.items() if v is not None}}
    entry.update({"enabled": False} if disabled else {}, **({"detach": True} if detach else {}),
                 **({"blocking": False} if observer else {}))
    try:
        hook = Hook.from_dict(entry)
    except ConfigError as exc:
        raise UsageError(exc.message) from None
    path = editing.scope_path(scope, root)
    index = editing.add_hook(path, hook, retrust=scope == "project")
    _edited(ctx, scope, f"added {hook_name(scope, index, hook.id)} '{hook.event_pattern}'", root)
    if timeout is not None and hook.effective_timeout != timeout:
        say(PROG, f"note: timeout {timeout:g} is outside [0.1, 600]; it is {hook.effective_timeout:g}")
    for pattern_ in hook.patterns:
        if not pattern_can_match(pattern_):
            say(PROG, f"note: pattern '{pattern_}' can match no event type (forge-hook events lists them)")


def _add_guards(ctx: click.Context, scope: str, guard: str | None, guard_set: str | None, with_json: str | None,
                pattern: str | None, hook_id: str | None, description: str | None, disabled: bool,
                observer: bool, process: dict[str, Any]) -> None:
    """``add --guard NAME [--with JSON]`` and ``add --guards SET``."""
    from forge_hookd.guards import GuardError, entries  # 7.2 ms of every other forge-hook command (bench/README.md)

    given = [flag for flag, value in process.items() if value]
    if given:
        raise UsageError(f"{given[0]} does not go with a built-in guard: a guard runs no command")
    if guard is None and guard_set is None:
        raise UsageError("--with goes with --guard NAME")
    if guard is not None and guard_set is not None:
        raise UsageError("say --guard NAME or --guards SET, not both")
    if guard_set is not None and (with_json is not None or description is not None or hook_id is not None):
        raise UsageError("--guards adds each guard with its default options: add one with --guard NAME "
                         "to give it --with, --description or --id")
    try:
        chosen = ([(guard, entries.options_from_json(with_json))] if guard is not None
                  else entries.named(guard_set or ""))
        made = [entries.entry(name, options, pattern=pattern) for name, options in chosen]
    except GuardError as exc:
        raise UsageError(str(exc)) from None
    extra = {**({"id": hook_id} if hook_id is not None else {}),
             **({"description": description} if description else {}), **({"enabled": False} if disabled else {}),
             **({"blocking": False} if observer else {})}
    try:
        hooks = [Hook.from_dict({**e, **extra}) for e in made]
    except ConfigError as exc:  # an id that is no id
        raise UsageError(exc.message) from None
    root = _root_to_add_to(ctx) if scope == "project" else _root(ctx)
    added, present = editing.add_guards(editing.scope_path(scope, root), hooks, retrust=scope == "project")
    if present:
        say(PROG, "note: already in the file, left as they are: "
                  + ", ".join(f"{name} ({hook_name(scope, index)})" for name, index in present))
    if added:
        there = {name for name, _ in present}
        names = ", ".join(str(h.guard) for h in hooks if h.guard not in there)
        plural = "s" if len(added) > 1 else ""
        where = ", ".join(hook_name(scope, index, hook_id) for index in added)
        _edited(ctx, scope, f"added guard{plural} {names} ({where})", root)
    for pattern_ in hooks[0].patterns if hooks else ():
        if not pattern_can_match(pattern_):
            say(PROG, f"note: pattern '{pattern_}' can match no event type (forge-hook events lists them)")


def _root_to_add_to(ctx: click.Context) -> Path:
    """The project root, except when no .forge/hooks.json exists yet up the tree and none
    was named: then the nearest .forge directory, else the git repository's root, so
    that a hook added from repo/src lands where forge-hook-run and list look from
    anywhere in the repository."""
    root = _root(ctx)
    named = ctx.find_root().params.get("project_root") or os.environ.get(PROJECT_DIR_VAR)
    if named or editing.scope_path("project", root).exists():
        return root
    return editing.root_for_new_project_file(root)


def _checked_working_dir(working_dir: str, root: Path, *, relative_is_checked: bool) -> str:
    """``~`` expanded; refused unless it is a directory. A relative one is relative to the
    project root: checked there for a project hook, kept as it is for a global one
    (whose root is each project's)."""
    expanded = os.path.expanduser(working_dir)
    if not os.path.isabs(expanded) and not relative_is_checked:
        return expanded
    where = root / expanded
    if not where.is_dir():
        why = "is not a directory" if where.exists() else "does not exist"
        relative = "" if os.path.isabs(expanded) else f" (relative to the project root {root})"
        raise UsageError(f"--working-dir {working_dir}: {where} {why}{relative}; hooks could not run there")
    return expanded


def _env(pairs: tuple[str, ...]) -> dict[str, str]:
    env = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--env takes KEY=VALUE, not '{pair}'")
        env[key] = value
    return env


@forge_hook.command("remove", short_help="Remove a hook: by index, id, or every one with exactly PATTERN.")
@scope_options
@click.argument("hook", metavar="INDEX|ID|PATTERN", shell_complete=completion.hook_selectors)
@click.pass_context
def remove_command(ctx: click.Context, global_: bool, project: bool, hook: str) -> int:
    """Remove the hook at INDEX or with the id ID (as forge-hook list shows them), else
    every hook whose pattern is exactly PATTERN; exit 1 when there is none."""
    scope = _scope(global_, project)
    path = editing.scope_path(scope, _root(ctx))
    removed = editing.remove_hooks(path, hook, retrust=scope == "project")
    if not removed:
        say(PROG, f"error: no hook with index, id or pattern '{hook}' in {path}")
        return ManagerStatus.PROBLEMS
    names = ", ".join(hook_name(scope, index) for index in removed)
    _edited(ctx, scope, f"removed {names}" + ("" if hook.isdigit() else f" ({hook})"))
    return ManagerStatus.OK


def _toggle(ctx: click.Context, global_: bool, project: bool, selector: str, enabled: bool) -> None:
    scope = _scope(global_, project)
    index = editing.set_enabled(editing.scope_path(scope, _root(ctx)), selector, enabled, retrust=scope == "project")
    _edited(ctx, scope, f"{'enabled' if enabled else 'disabled'} {hook_name(scope, index)}"
                        + ("" if selector.isdigit() else f" ({selector})"))


@forge_hook.command("enable", short_help="Enable the hook at INDEX or with ID (see list).")
@scope_options
@click.argument("hook", metavar="INDEX|ID", shell_complete=completion.hook_selectors)
@click.pass_context
def enable_command(ctx: click.Context, global_: bool, project: bool, hook: str) -> None:
    """Enable the hook at INDEX, or with the id ID (as forge-hook list shows them)."""
    _toggle(ctx, global_, project, hook, True)


@forge_hook.command("disable", short_help="Disable the hook at INDEX or with ID (see list).")
@scope_options
@click.argument("hook", metavar="INDEX|ID", shell_complete=completion.hook_selectors)
@click.pass_context
def disable_command(ctx: click.Context, global_: bool, project: bool, hook: str) -> None:
    """Disable the hook at INDEX, or with the id ID (as forge-hook list shows them)."""
    _toggle(ctx, global_, project, hook, False)


@forge_hook.command("templates", short_help="The ready-made hooks add --template adds.")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of the templates.")
def templates_command(as_json: bool) -> None:
    """The ready-made hooks forge-hook add --template can add."""
    if as_json:
        print_json([{"name": name, **hook.to_dict()} for name, hook in HOOK_TEMPLATES.items()])
        return
    for name, hook in HOOK_TEMPLATES.items():
        click.echo(f"{name:22} {hook.event_pattern:48} {hook.description}"
                   f"{'' if hook.blocking else ' (observer: never blocks)'}")


@forge_hook.command("events", short_help="The event types and the variables hooks get.")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of the event types (or of the agent's events).")
@click.option("--agent", metavar="AGENT", shell_complete=completion.values(completion.dialect_names),
              help="An agent's own events instead, and the forge type each runs the hooks of.")
def events_command(as_json: bool, agent: str | None) -> None:
    """The event types, what each carries, and the variables a hook gets; with --agent,
    every event that agent fires and its forge type (agent:native:NAME for the ones
    forge has no type of its own for: a pattern names them as it names a tool)."""
    if agent is not None:
        _agent_events(agent, as_json)
        return
    if as_json:
        print_json([{"type": t.value, "description": info.meaning, "tool_name": info.has_tool,
                      "data_keys": list(info.data_keys),
                      "variables": [v for v in EVENT_VARS if info.has_tool or v != TOOL_NAME_VAR]
                      + [env_name(k) for k in info.data_keys]}
                     for t, info in EVENT_INFO.items()])
        return
    for t, info in EVENT_INFO.items():
        carries = ", ".join((["tool_name"] if info.has_tool else []) + list(info.data_keys)) or "-"
        click.echo(f"{t.value:20} {info.meaning}; carries: {carries}")
    click.echo("\n" + textwrap.fill(
        "Every hook gets " + ", ".join(EVENT_VARS) + " (FORGE_SESSION_ID and FORGE_TOOL_NAME "
        "when the event has them), FORGE_<KEY> for each data key, and the event JSON on stdin; "
        "also FORGE_HOOK_CHAIN (the event types and sessions being handled up the chain, which "
        "stops circular triggers), FORGE_HOOK_VARS (the data variables this run set, which a nested "
        "run removes) and FORGE_HOOK_TOKEN (how the runner finds the processes a hook started; "
        "leave it be). An agent's own events: forge-hook events --agent NAME.", 88))


def _agent_events(agent: str, as_json: bool) -> None:
    if agent not in DIALECTS:
        raise UsageError(f"--agent takes one of {', '.join(DIALECTS)}, not '{agent}'")
    words = get(agent).words
    rows = [(event, forge_type, event in words.blocking_events) for event, forge_type in words.events.items()]
    rows += [(event, f"agent:native:{event}", False) for event in sorted(words.native_events)]
    if as_json:
        print_json([{"event": e, "forge": f, "blocking": b} for e, f, b in rows])
        return
    width = max(len(e) for e, _, _ in rows)
    for event, forge_type, blocking in rows:
        note = "  (waits for permission: a failure of forge denies)" if blocking else ""
        click.echo(f"{event:{width}}  {forge_type}{note}")


@forge_hook.command("trust", short_help="Trust a project's hooks, as they are now.")
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@click.pass_context
def trust_command(ctx: click.Context, directory: str | None) -> None:
    """Trust DIRECTORY's hooks as they are now (default: the project root), after you
    reviewed them: only a person trusts (through an agent's dialect, forge-hook-run
    denies a tool call that runs this command).

    Trust covers .forge/hooks.json, every file under .forge/ (no exemptions), and every
    file in the project that a hook's command names: as a word, inside quotes, $(...),
    backticks or sh -c strings, after cd DIR && or env -C DIR, and through the agents'
    project variables ($FORGE_PROJECT_DIR, $CLAUDE_PROJECT_DIR, $GEMINI_PROJECT_DIR ...);
    and what a hook runs through a runner: make's makefile (-f, -C), the package.json
    script of npm run NAME (pnpm, yarn, bun run), as package.json#scripts.NAME, and the
    files it names. A change to any of them makes the project "changed": events that can
    block are denied where a project hook matches, until it is trusted again. Trust cannot
    see what those files run in turn, nor paths built at run time: the words it could not
    resolve are listed (a loop over scripts/*.sh as scripts/*.sh).
    """
    path = _root(ctx, directory) / PROJECT_DIR_NAME / CONFIG_NAME
    raw = read_raw(path)
    if raw is None:
        raise ConfigError("no hooks file to trust", path=str(path))
    doc = parse_document(raw, path)  # a file that does not parse is refused
    covered = trust.trust(path, raw, doc)
    click.echo(visible(f"{PROG}: trusted {path.parent.parent}; its hooks will run. Trust covers "
                       f"{len(covered)} file{'s' if len(covered) != 1 else ''}:"))
    for rel, sha in covered.items():
        click.echo(visible(f"  {trust.shown(rel)}  {sha[:12] if len(sha) == 64 else sha}"))
    unseen = trust.unresolved(doc, path.parent.parent)
    if unseen:
        click.echo(f"{PROG}: trust cannot see what these commands name (a variable it does not know, a glob, "
                   "a module, a runner's input): review what they run yourself")
        for index, word in unseen:
            click.echo(visible(f"  hooks[{index}]: {word}"))


@forge_hook.command("untrust", short_help="Stop trusting a project's hooks file.")
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@click.pass_context
def untrust_command(ctx: click.Context, directory: str | None) -> None:
    """Stop trusting DIRECTORY's hooks (default: the project root)."""
    path = _root(ctx, directory) / PROJECT_DIR_NAME / CONFIG_NAME
    if trust.untrust(path):
        click.echo(visible(f"{PROG}: {path} is no longer trusted"))
    else:
        click.echo(visible(f"{PROG}: nothing to untrust: {path} was not trusted"))


# -- import (dialects) --------------------------------------------------------------------
@forge_hook.command("import", short_help="Convert an agent's hooks into forge hooks.")
@click.option("--from", "agent", required=True, metavar="AGENT",
              shell_complete=completion.values(completion.dialect_names),
              help=f"Whose hooks: {', '.join(DIALECTS[:-1])} or {DIALECTS[-1]}.")
@click.argument("file", required=False, shell_complete=completion.paths("file"))
@scope_options
@click.option("--dry-run", is_flag=True, help="Print the converted hooks as JSON; write nothing.")
@click.pass_context
def import_command(ctx: click.Context, agent: str, file: str | None, global_: bool, project: bool,
                   dry_run: bool) -> None:
    """Convert an agent's hooks (FILE, default its settings for the scope) into forge hooks.

    Each hook keeps speaking its agent's protocol ("format": AGENT) and behaves as it did
    under the agent: its event's forge type (agent:native:NAME for the events forge has no
    type of its own for), its matcher (a list of tools as patterns, anything else kept as
    the hook's "matcher", read the agent's way) and Claude's "if", its timeout or the
    agent's default, async as an observer, onFailure: block and failClosed as fail_closed,
    loop_limit as max_continues, a plugin's CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA, a
    Gemini extension's ${extensionPath}, and ~/.cursor as the base of a user-level
    Cursor file. What has no forge form (an http, prompt, agent or mcp_tool hook, an
    event the agent does not fire) is named and skipped. Importing again adds nothing.
    """
    if agent not in DIALECTS:
        raise UsageError(f"--from takes one of {', '.join(DIALECTS)}, not '{agent}'")
    scope = _scope(global_, project)
    dialect = get(agent)
    if agent == "cline":  # a hooks directory: an executable per event
        _import_cline(ctx, file, scope, dry_run)
        return
    # the files the agent itself reads: its home moved by CODEX_HOME & co., Gemini's comments
    candidates = [file] if file else [p for s, p in agentplaces.read_files(agent, str(_root(ctx))) if s == scope]
    sources = [(path, raw) for path in candidates if (raw := read_raw(path)) is not None]
    if not sources:
        raise UsageError(f"no such file: {' or '.join(candidates)}")
    imported = Imported()
    for source, raw in sources:
        try:
            doc = jsonedit.parse(raw.decode("utf-8"), comments=agentplaces.PLACES[agent].comments).value
        except (UnicodeDecodeError, jsonedit.JsonTextError) as exc:
            raise UsageError(f"{source} is not valid JSON: {exc}") from None
        found = import_hooks(dialect, doc, source)
        imported.hooks += found.hooks
        imported.skipped += found.skipped
        imported.notes += found.notes
        imported.directories += found.directories
    for skipped in imported.skipped:
        say(PROG, f"skipped {skipped}")
    for note in imported.notes:
        say(PROG, f"note: {note}")
    if dry_run:
        print_json({"hooks": imported.hooks, "skipped": imported.skipped, "notes": imported.notes})
        return
    hooks = [Hook.from_dict(entry) for entry in imported.hooks]
    path = editing.scope_path(scope, _root(ctx))
    added: list[Hook] = []
    if hooks:
        update_file(path, lambda doc: doc["hooks"].extend(h.to_dict() for h in editing.new_hooks(doc, hooks, added)),
                    retrust=scope == "project")
    for directory in imported.directories:  # a plugin's data directory, made as the agent makes it
        os.makedirs(directory, exist_ok=True)
    already = len(hooks) - len(added)
    _edited(ctx, scope, f"imported {len(added)} hook{'s' if len(added) != 1 else ''} "
                        f"from {', '.join(source for source, _ in sources)}"
                        + (f" ({already} already there)" if already else ""))


def _import_cline(ctx: click.Context, directory: str | None, scope: str, dry_run: bool) -> None:
    from forge_hookd.agents import cline_hooks

    root = str(_root(ctx))
    candidates = [directory] if directory else [d for s, d in cline_hooks.read_directories(root) if s == scope]
    sources = [d for d in candidates if os.path.isdir(d)]
    if not sources:
        raise UsageError(f"no such directory: {' or '.join(candidates)}")
    entries: list[dict[str, Any]] = []
    for source in sources:
        found, skipped = cline_hooks.import_directory(source)
        entries += found
        for why in skipped:
            say(PROG, f"skipped {why}")
    if dry_run:
        print_json({"hooks": entries, "skipped": [], "notes": []})
        return
    hooks = [Hook.from_dict(entry) for entry in entries]
    path = editing.scope_path(scope, _root(ctx))
    added: list[Hook] = []
    if hooks:
        update_file(path, lambda doc: doc["hooks"].extend(h.to_dict() for h in editing.new_hooks(doc, hooks, added)),
                    retrust=scope == "project")
    _edited(ctx, scope, f"imported {len(added)} hook{'s' if len(added) != 1 else ''} from {', '.join(sources)}")


# -- wiring forge into agents ---------------------------------------------------------------
@forge_hook.command("install", short_help="Wire forge-hook-run into an agent; --uninstall undoes it.")
@click.option("--agent", "agents", required=True, multiple=True, metavar="AGENT",
              shell_complete=completion.values(lambda: [*completion.dialect_names(), "opencode", "kilo", "all"]),
              help=f"{', '.join(DIALECTS)}, opencode, kilo, or all: every agent found here (its CLI on PATH or its "
                   "settings directory present). Give it again for more agents: each is wired.")
@click.option("--project", "project", is_flag=True, help="The agent's settings in the project.")
@click.option("--global", "global_", is_flag=True, help="The agent's settings in your home directory.")
@click.option("--system", is_flag=True, help="The agent's own managed file (root), which its users cannot drop.")
@click.option("--root", "system_root", metavar="DIR", default="/", show_default=True,
              help="With --system: write under DIR instead of / (as DESTDIR: image builds, tests).")
@click.option("--uninstall", is_flag=True, help="Take out exactly what install put in.")
@click.pass_context
def install_command(ctx: click.Context, agents: tuple[str, ...], global_: bool, project: bool, system: bool,
                    system_root: str,
                    uninstall: bool) -> int:
    """Put forge-hook-run into an agent's own settings as its hook command for every event
    forge handles, or with --uninstall take out exactly what install put there.

    \b
    The files (--project in the project, --global in your home):
      claude   .claude/settings.json, ~/.claude/settings.json ($CLAUDE_CONFIG_DIR)
      codex    .codex/hooks.json, ~/.codex/hooks.json ($CODEX_HOME); and Codex's trust
               of forge's hooks in ~/.codex/config.toml, as codex's /hooks records it
      gemini   .gemini/settings.json, ~/.gemini/settings.json ($GEMINI_CLI_HOME)
      cursor   .cursor/hooks.json, ~/.cursor/hooks.json
      copilot  .github/hooks/forge.json, ~/.copilot/hooks/forge.json ($COPILOT_HOME)
      windsurf .windsurf/hooks.json, ~/.codeium/windsurf/hooks.json
      cline    an executable per event in .clinerules/hooks/, ~/Documents/Cline/Hooks/
      qwen     .qwen/settings.json, ~/.qwen/settings.json
      droid    .factory/hooks.json, ~/.factory/hooks.json
      auggie   .augment/settings.json, ~/.augment/settings.json
      crush    crush.json, ~/.config/crush/crush.json
      continue .continue/settings.json, ~/.continue/settings.json (cn reads
               .claude/settings.json too: doctor says where forge would run twice)
      opencode a plugin, .opencode/plugins/forge-hook-run.js,
               ~/.config/opencode/plugins/forge-hook-run.js
      kilo     a plugin, .kilo/plugin/forge-hook-run.js, ~/.config/kilo/plugin/

    \b
    --system writes the agent's own managed file, so the agent itself keeps forge:
      claude   /etc/claude-code/managed-settings.json
      gemini   /etc/gemini-cli/settings.json
      qwen     /etc/qwen-code/settings.json
      cursor   /etc/cursor/hooks.json
      windsurf /etc/windsurf/hooks.json
      codex    /etc/codex/requirements.toml: [[hooks.EVENT]] tables appended after
               the file's own bytes; refused (exit 2, nothing written) where its
               hooks are inline (hooks = {...}) or the result would not parse
      copilot  /etc/github-copilot/policy.d/forge.json (its policy hooks: loaded
               first, not turned off by disableAllHooks, whatever the folder's trust)
    (the other agents document none: install refuses, exit 2, and doctor --json
    says so per agent).

    Your own hooks and every other key stay as they are, byte for byte: forge's entry is
    appended after yours, and an event where forge-hook-run already runs is left alone,
    so a second install changes nothing (an entry of forge-hook-run that turns hooks off,
    --no-global or FORGE_SKIP=... say, does not count: forge's own goes beside it). A file that does not parse is not touched.
    --uninstall takes out what install added: a file it created is removed, a file
    nobody changed since is back byte for byte, and in a file you edited since only
    forge's entries go. What install wrote is recorded in
    ${XDG_STATE_HOME:-~/.local/state}/forge/installs.json. forge-hook doctor checks
    the result.
    """
    if system_root != "/" and not system:
        raise UsageError("--root goes with --system")
    scope = "system" if system and not (global_ or project) else _scope(global_, project or system)
    root = str(_root_to_add_to(ctx))  # where add --project writes: install, uninstall and doctor agree
    names = list(dict.fromkeys(n for agent in agents for n in _agents_named(
        agent, scope, root, uninstall, system_root=os.path.abspath(system_root))))
    failed = 0
    for name in names:
        try:
            outcomes = (agentwire.uninstall if uninstall else agentwire.install)(
                name, scope, root, system_root=os.path.abspath(system_root))
        except ConfigError as exc:  # with "all", one agent's broken file does not stop the others
            if len(names) == 1:
                raise
            say(PROG, f"error: {name}: {exc}")
            failed += 1
            continue
        for outcome in outcomes:
            _say_outcome(outcome)
    return ExitStatus.BAD_INPUT if failed else ExitStatus.PROCEED


def _agents_named(agent: str, scope: str, root: str, uninstall: bool, *, system_root: str = "/") -> list[str]:
    from forge_hookd.agents import plugins

    every = [*DIALECTS, *plugins.NAMES]
    if agent in every:
        return [agent]
    if agent != "all":
        raise UsageError(f"--agent takes one of {', '.join(every)} or all, not '{agent}'")

    def fits(name: str) -> bool:
        return scope != "system" or name in agentplaces.SYSTEM_FILES

    if uninstall:
        return agentwire.installed_agents(scope, root, system_root=system_root) or [n for n in every if fits(n)]
    names = [name for name in DIALECTS if agentplaces.found(name) and fits(name)] + \
        [name for name in plugins.NAMES if plugins.found(name) and fits(name)]
    if not names:
        raise UsageError(f"no agent found here: none of {', '.join(every)} has its CLI on PATH or its "
                         "settings directory; name one with --agent")
    return names


_DONE = {"created": "runs on {events} now, in {path} (created)", "updated": "runs on {events} now, in {path}",
         "unchanged": "{path} already runs forge-hook-run on its events: unchanged",
         "restored": "{path} is back as it was before forge-hook install",
         "removed": "removed {path} (forge-hook install created it)",
         "cleaned": "took forge-hook-run out of {path}", "nothing": "nothing of forge-hook install's in {path}"}


def _say_outcome(outcome: Wiring) -> None:
    if outcome.events or outcome.action not in ("created", "updated"):
        events = ", ".join(outcome.events)
        line = _DONE[outcome.action].format(events=events, path=outcome.path)
        click.echo(visible(f"{PROG}: {outcome.agent}: {line}" if outcome.action not in ("created", "updated")
                           else f"{PROG}: {outcome.agent}: forge-hook-run {line}"))
    if outcome.kept and outcome.action in ("created", "updated"):
        say(PROG, f"note: {outcome.agent}: forge-hook-run already ran on {', '.join(outcome.kept)} "
                  f"in {outcome.path}: left as it was")
    for note in outcome.notes:
        say(PROG, f"note: {outcome.agent}: {note}")


@forge_hook.command("doctor", short_help="Check forge in the agents here; exit 1 on findings.")
@click.option("--json", "as_json", is_flag=True, help="A JSON report instead of lines.")
@click.pass_context
def doctor_command(ctx: click.Context, as_json: bool) -> int:
    """Say, per agent found here (its CLI on PATH, its settings directory, or its settings
    file in the project), which of its settings files run forge-hook-run and on which of
    its events, in its own names; exit 1 when something is wrong, 0 when all is well.

    \b
    Findings:
      an event forge handles that a wired file leaves out;
      forge-hook-run running twice on one event (in the project's and your file);
      a hook command with another agent's --dialect, or a Copilot event without :EVENT;
      forge-hook-run not found where the settings name it (on this PATH, as the agent
      started here would look);
      an entry whose timeout is not its --agent-limit; an event whose hooks can outlast
      the agent's limit (as check says too);
      the agent's switch that stops every hook (Claude disableAllHooks, Gemini
      hooksConfig.enabled false, Codex [features] hooks false, a Codex hook or project
      not trusted);
      an agent's own hook that would run twice: directly from its settings, and
      imported into a forge hooks file (forge-hook import) on an event forge-hook-run
      runs on;
      a forge-hook-run entry that turns hooks off (--no-global, --no-project,
      --trust-project, FORGE_SKIP=... in front of it), and a project's settings that
      steer forge (Claude's env, Gemini's .env, Codex's [features] hooks = false);
      an agent an install named that has forge-hook-run in none of its settings;
      forge-hook-run running twice on one event of another program that reads two
      agents' files it is wired in (Copilot CLI reads .claude/settings.json; VS Code's
      agent Claude's files and .github/hooks; cn Claude's files): that such a program
      reads a wired file at all is a line ("also read by"), not a finding;
      a managed policy file (/etc/forge) that is refused: forge denies its events.

    Not a finding, a list: the tools the run log has seen that no dialect maps (MCP
    tools, tools an agent added), which the guards judge by their name and input only.

    With --json, the fleet's heartbeat (docs/managed.md, "Fleet health"): forge's
    version, each agent's wiring, CLI version and last call to forge (from the run
    log), the project's trust, and the managed layer's files and digest.
    """
    root = str(_root_to_add_to(ctx))
    reports = wiredoctor.examine(root)
    heartbeat = health.report(root, reports, probe=as_json)
    if as_json:
        print_json(heartbeat)
    else:
        for line in _doctor_lines(reports, heartbeat["managed"], heartbeat["findings"],
                                  heartbeat["unmapped_tools"]):
            click.echo(visible(line))
    return ManagerStatus.PROBLEMS if heartbeat["findings"] else ManagerStatus.OK


def _managed_lines(layer: dict[str, Any]) -> list[str]:
    """The managed layer, as doctor says it: each file, each refusal (a finding)."""
    if not layer["dirs"]:
        return []
    files = layer["files"]
    lines = [f"managed: {', '.join(d['path'] for d in layer['dirs'])}: {len(files)} file{'s' if len(files) != 1 else ''}"
             f"{', managed_only' if layer['managed_only'] else ''}" + (f" ({layer['digest']})" if layer["digest"] else "")]
    lines += [f"  {f['source']:8} {f['path']}: {f['hooks']} hook{'s' if f['hooks'] != 1 else ''}" for f in files
              if f["refused"] is None]
    lines += [f"  finding: the managed policy {r['path']} is refused ({r['why']}): forge denies the events its "
              "hooks would judge" for r in layer["refused"]]
    return lines


def _also_line(agent: str, also: dict[str, Any]) -> str:
    """Another program reads a file where forge-hook-run runs: said, not a finding."""
    note = f"; {also['note']}" if also["note"] else ""
    return (f"  also read by {also['program']}: {', '.join(also['forge'])}: forge-hook-run there runs on its "
            f"events too, with --dialect {agent}{note}")


def _unmapped_lines(unmapped: list[dict[str, Any]]) -> list[str]:
    """The tools the run log has seen that no alias table maps: said, not a finding."""
    if not unmapped:
        return []
    lines = ["tools the run log has seen that forge does not map (the guards judge them by their name and input):"]
    lines += [f"  {t['dialect'] or '(no dialect)'}: {t['tool']}{' (MCP)' if t['mcp'] else ''}: {t['runs']} "
              f"run{'s' if t['runs'] != 1 else ''}, last {t['last_seen']}" for t in unmapped]
    return lines


def _doctor_lines(reports: list[wiredoctor.AgentReport], layer: dict[str, Any], findings: int,
                  unmapped: list[dict[str, Any]]) -> list[str]:
    managed_lines = [*_managed_lines(layer), *_unmapped_lines(unmapped)]
    if not reports:
        return [f"no agent found here (none of {', '.join(DIALECTS)}, opencode, kilo on PATH, no settings "
                "directory)", *managed_lines, *([f"{findings} finding{'s' if findings != 1 else ''}"] if findings else [])]
    lines = []
    for report in reports:
        wired = report.wired
        lines.append(f"{report.agent}: " + (f"forge-hook-run runs on {len(wired)} of its {len(report.events)} "
                                            f"events: {', '.join(wired)}" if wired else "forge-hook-run is not "
                                            f"wired in (forge-hook install --agent {report.agent} --project)")
                     + f"  [{'; '.join(report.found)}]")
        for state in report.files:
            if state.exists:
                what = state.problem or (f"forge-hook-run on {', '.join(state.wired)}" if state.wired
                                         else "no forge-hook-run")
                lines.append(f"  {state.scope:8} {state.path}: {what}; {state.own_hooks} hook command"
                             f"{'s' if state.own_hooks != 1 else ''} of your own")
        lines += [_also_line(report.agent, also) for also in report.also_read_by if also["forge"]]
        lines += [f"  finding: {finding}" for finding in report.findings]
    lines += managed_lines
    lines.append(f"{findings} finding{'s' if findings != 1 else ''}" if findings else "all is well")
    return lines


forge_hook.add_command(log_command)
forge_hook.add_command(warm_command)
forge_hook.add_command(guard_group)
forge_hook.add_command(test_command)
forge_hook.add_command(replay_command)
forge_hook.add_command(policy_group)
forge_hook.add_command(export_command)


def main() -> int:
    """The exit status of one run of the command."""
    completion.install_if_asked(PROG)
    return forge_hook.main(prog_name=PROG, standalone_mode=False)
