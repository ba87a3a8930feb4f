"""``forge-hook``: see, check and edit hooks without hand-editing JSON; trust projects.

Parsing and printing only: the work is in :mod:`forge_hookd.editing`,
:mod:`forge_hookd.trust` and :mod:`forge_hookd.config`.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, NoReturn

import click
import orjson

from . import editing, trust
from .boundary import BoundaryGroup, say
from .config import CONFIG_NAME, PROJECT_DIR_NAME, find_project_root, read_raw
from .errors import ConfigError, ExitStatus, UsageError
from .events import EVENT_INFO, EVENT_TYPES, HookEvent, env_name
from .registry import Hook
from .templates import HOOK_TEMPLATES

PROG = "forge-hook"


def _root(ctx: click.Context, directory: str | None = None) -> Path:
    """The project root: ``directory`` if given, else --project-root, else the search."""
    root = Path(find_project_root(directory or ctx.find_root().params.get("project_root")))
    if not root.is_dir():
        raise UsageError(f"the project root is not a directory: {root}")
    return root


def _print_json(value: Any) -> None:
    click.echo(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode())


def _scope(global_: bool, project: bool) -> str:
    if global_ == project:
        raise UsageError("say which file: --global or --project")
    return "global" if global_ else "project"


def scope_options(func: Any) -> Any:
    func = click.option("--project", "project", is_flag=True, help="Edit the project's .forge/hooks.json.")(func)
    return click.option("--global", "global_", is_flag=True, help="Edit the global hooks file.")(func)


def _edited(ctx: click.Context, scope: str, what: str) -> None:
    """Say what changed, and whether the project file still needs trusting."""
    root = _root(ctx)
    path = editing.scope_path(scope, root)
    click.echo(f"{PROG}: {what} in {path}")
    raw = read_raw(path)
    if scope == "project" and raw is not None and not trust.is_trusted(path, raw):
        say(PROG, f"note: {path} is not trusted, so its hooks do not run; "
                  f"review it, then run: forge-hook trust {root}")


@click.group(cls=BoundaryGroup, name=PROG,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 88})
@click.option("--project-root", type=click.Path(file_okay=False), metavar="DIR",
              help="Project root (default: $FORGE_PROJECT_DIR, else the nearest directory "
                   "upwards with .forge/hooks.json, else the current one).")
@click.version_option(package_name="forge-hookd", prog_name=PROG, message="%(prog)s %(version)s")
def forge_hook(project_root: str | None) -> None:
    """See, check and edit forge-hook-run's hooks, and trust project hooks.

    Project hooks (.forge/hooks.json) run only after you trust that exact file with
    forge-hook trust; any change makes it untrusted again until you trust it anew
    (edits made through forge-hook keep a trusted file trusted). The global file is
    yours and always trusted.
    """
    _library_notes_to_stderr(click.get_current_context())


def _library_notes_to_stderr(ctx: click.Context) -> None:
    """What the library notes while it works (a lock it waits for) as ``forge-hook: ...``
    lines on stderr, for as long as the command runs (a test process runs many)."""
    import logging

    class Notes(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            say(PROG, record.getMessage())

    logger, notes = logging.getLogger("forge_hookd"), Notes(logging.INFO)
    logger.addHandler(notes)
    ctx.call_on_close(lambda: logger.removeHandler(notes))


@forge_hook.command("list")
@click.option("--event", "event_type", type=click.Choice(sorted(EVENT_TYPES)), metavar="TYPE",
              help="Only the hooks this event would run, in run order.")
@click.option("--tool", metavar="NAME", help="With --event: the tool name.")
@click.option("--trust-project", is_flag=True, help="With --event: count untrusted project hooks as running.")
@click.option("--json", "as_json", is_flag=True, help="A JSON list instead of a table.")
@click.pass_context
def list_command(ctx: click.Context, event_type: str | None, tool: str | None, trust_project: bool,
                 as_json: bool) -> None:
    """List every configured hook: index, source, pattern, command, timeout, state."""
    if event_type is None and (tool or trust_project):
        raise UsageError("--tool and --trust-project go with --event")
    listed = editing.list_hooks(_root(ctx))
    if event_type is not None:
        event = HookEvent.from_dict({"type": event_type, "tool_name": tool})
        listed = editing.would_run(listed, event, trust_project=trust_project or trust.override_from_env())
    if as_json:
        _print_json([h.to_dict() for h in listed])
        return
    for line in _table(listed, shutil.get_terminal_size((100, 24)).columns):
        click.echo(line)


def _table(listed: list[editing.ListedHook], width: int) -> list[str]:
    rows = [("SOURCE", "#", "EVENT", "ON", "BLOCKS", "TRUST", "TIMEOUT", "COMMAND")]
    rows += [(h.scope, str(h.index), h.hook.event_pattern, "yes" if h.hook.enabled else "no",
              "yes" if h.hook.blocking else "no", h.trust.value, f"{h.hook.timeout:g}s",
              " ".join(h.hook.command.split())) for h in listed]
    widths = [max(len(r[i]) for r in rows) for i in range(7)]
    lines = []
    for row in rows:
        left = "  ".join(cell.ljust(w) for cell, w in zip(row[:7], widths, strict=True))
        room = max(width - len(left) - 2, 12)
        command = row[7] if len(row[7]) <= room else row[7][: room - 3] + "..."
        lines.append(f"{left}  {command}".rstrip())
    files = sorted({str(h.file) for h in listed})
    return lines + [f"({', '.join(files)})"] if files else ["no hooks configured"]


@forge_hook.command("check")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of problems.")
@click.pass_context
def check_command(ctx: click.Context, as_json: bool) -> int:
    """Validate the global and project files; exit 1 with one line per problem."""
    root = _root(ctx)
    problems = [p for scope in ("global", "project")
                for p in editing.check_file(editing.scope_path(scope, root), root)]
    if as_json:
        _print_json([{"file": p.path, "line": p.line, "column": p.column, "entry": p.entry,
                      "message": p.message} for p in problems])
    else:
        for problem in problems:
            click.echo(str(problem))
    return ExitStatus.PROBLEMS_FOUND if problems else ExitStatus.PROCEED


@forge_hook.command("add")
@scope_options
@click.option("--template", type=click.Choice(sorted(HOOK_TEMPLATES)), metavar="NAME",
              help="Start from a template (forge-hook templates).")
@click.option("--event", "pattern", metavar="PATTERN", help="The event pattern(s), comma-separated.")
@click.option("--command", metavar="CMD", help="The shell command.")
@click.option("--timeout", type=float, metavar="S", help="Seconds before the hook's tree is ended (0.1-300).")
@click.option("--description", metavar="D", help="What the hook is for.")
@click.option("--env", "env_pairs", multiple=True, metavar="KEY=VALUE", help="An environment variable. Repeatable.")
@click.option("--working-dir", metavar="DIR", help="Where it runs, relative to the project root.")
@click.option("--disabled", is_flag=True, help="Add it disabled.")
@click.option("--detach", is_flag=True, help="Leave what it starts in the background running.")
@click.option("--observer", is_flag=True,
              help='An observer ("blocking": false): its failures and answers are recorded, never obeyed.')
@click.pass_context
def add_command(ctx: click.Context, global_: bool, project: bool, template: str | None,
                pattern: str | None, command: str | None, timeout: float | None,
                description: str | None, env_pairs: tuple[str, ...], working_dir: str | None,
                disabled: bool, detach: bool, observer: bool) -> None:
    """Append a hook, from a template or from --event and --command."""
    scope = _scope(global_, project)
    if template is not None and (pattern or command):
        raise UsageError("--template goes without --event and --command")
    if template is None and not (pattern and command):
        raise UsageError("say what to add: --template NAME, or --event PATTERN --command CMD")
    base = HOOK_TEMPLATES[template].to_dict() if template else {"event": pattern, "command": command}
    changes = {"timeout": timeout, "description": description, "working_dir": working_dir,
               "env": _env(env_pairs) or None}
    entry = {**base, **{k: v for k, v in changes.items() if v is not None}}
    entry.update({"enabled": False} if disabled else {}, **({"detach": True} if detach else {}),
                 **({"blocking": False} if observer else {}))
    try:
        hook = Hook.from_dict(entry)
    except ConfigError as exc:
        raise UsageError(exc.message) from None
    path = editing.scope_path(scope, _root(ctx))
    index = editing.add_hook(path, hook, retrust=scope == "project")
    _edited(ctx, scope, f"added hook {index} ({hook.event_pattern})")
    if timeout is not None and hook.timeout != timeout:
        say(PROG, f"note: timeout {timeout:g} is outside [0.1, 300]; it is {hook.timeout:g}")
    for pattern_ in hook.patterns:
        if not editing.pattern_can_match(pattern_):
            say(PROG, f"note: pattern '{pattern_}' can match no event type (forge-hook events lists them)")


def _env(pairs: tuple[str, ...]) -> dict[str, str]:
    env = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--env takes KEY=VALUE, not '{pair}'")
        env[key] = value
    return env


@forge_hook.command("remove")
@scope_options
@click.argument("pattern")
@click.pass_context
def remove_command(ctx: click.Context, global_: bool, project: bool, pattern: str) -> int:
    """Remove the hooks whose pattern is exactly PATTERN; exit 1 when none is."""
    scope = _scope(global_, project)
    path = editing.scope_path(scope, _root(ctx))
    removed = editing.remove_hooks(path, pattern, retrust=scope == "project")
    if not removed:
        say(PROG, f"error: no hook with pattern '{pattern}' in {path}")
        return ExitStatus.PROBLEMS_FOUND
    _edited(ctx, scope, f"removed {removed} hook{'s' if removed > 1 else ''} ({pattern})")
    return ExitStatus.PROCEED


def _toggle(ctx: click.Context, global_: bool, project: bool, index: int, enabled: bool) -> None:
    scope = _scope(global_, project)
    editing.set_enabled(editing.scope_path(scope, _root(ctx)), index, enabled, retrust=scope == "project")
    _edited(ctx, scope, f"{'enabled' if enabled else 'disabled'} hook {index}")


@forge_hook.command("enable")
@scope_options
@click.argument("index", type=int)
@click.pass_context
def enable_command(ctx: click.Context, global_: bool, project: bool, index: int) -> None:
    """Enable the hook at INDEX (as forge-hook list shows it)."""
    _toggle(ctx, global_, project, index, True)


@forge_hook.command("disable")
@scope_options
@click.argument("index", type=int)
@click.pass_context
def disable_command(ctx: click.Context, global_: bool, project: bool, index: int) -> None:
    """Disable the hook at INDEX (as forge-hook list shows it)."""
    _toggle(ctx, global_, project, index, False)


@forge_hook.command("templates")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of the templates.")
def templates_command(as_json: bool) -> None:
    """The ready-made hooks forge-hook add --template can add."""
    if as_json:
        _print_json([{"name": name, **hook.to_dict()} for name, hook in HOOK_TEMPLATES.items()])
        return
    for name, hook in HOOK_TEMPLATES.items():
        click.echo(f"{name:22} {hook.event_pattern:48} {hook.description}"
                   f"{'' if hook.blocking else ' (observer: never blocks)'}")


@forge_hook.command("events")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of the 16 event types.")
def events_command(as_json: bool) -> None:
    """The event types, what each carries, and the variables a hook gets."""
    base = ["FORGE_EVENT", "FORGE_TIMESTAMP", "FORGE_SESSION_ID", "FORGE_WORKING_DIR", "FORGE_PROJECT_DIR"]
    if as_json:
        _print_json([{"type": t.value, "description": meaning, "tool_name": has_tool,
                      "data_keys": list(keys),
                      "variables": base + ["FORGE_TOOL_NAME"] * has_tool + [env_name(k) for k in keys]}
                     for t, (meaning, keys, has_tool) in EVENT_INFO.items()])
        return
    for t, (meaning, keys, has_tool) in EVENT_INFO.items():
        carries = ", ".join(["tool_name"] * has_tool + list(keys)) or "-"
        click.echo(f"{t.value:20} {meaning}; carries: {carries}")
    click.echo("\nEvery hook gets " + ", ".join(base) + ", FORGE_TOOL_NAME when there is a tool, "
               "FORGE_<KEY> for each data key, and the event JSON on stdin.")


@forge_hook.command("trust")
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@click.pass_context
def trust_command(ctx: click.Context, directory: str | None) -> None:
    """Trust DIRECTORY's .forge/hooks.json as it is now (default: the project root)."""
    path = _root(ctx, directory) / PROJECT_DIR_NAME / CONFIG_NAME
    raw = read_raw(path)
    if raw is None:
        raise ConfigError("no hooks file to trust", path=str(path))
    trust.trust(path, raw)
    click.echo(f"{PROG}: trusted {path} (sha256 {trust.digest(raw)[:12]}); its hooks will run")


@forge_hook.command("untrust")
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@click.pass_context
def untrust_command(ctx: click.Context, directory: str | None) -> None:
    """Stop trusting DIRECTORY's .forge/hooks.json (default: the project root)."""
    path = _root(ctx, directory) / PROJECT_DIR_NAME / CONFIG_NAME
    known = trust.untrust(path)
    click.echo(f"{PROG}: {path} {'is no longer trusted' if known else 'was not trusted'}")


def main() -> NoReturn:
    forge_hook.main(prog_name=PROG)
    raise AssertionError("unreachable: BoundaryCommand.main exits")  # pragma: no cover


# -- import (dialects) --------------------------------------------------------------------
@forge_hook.command("import")
@click.option("--from", "agent", required=True, metavar="AGENT",
              help="Whose hooks: claude, codex, gemini, cursor or copilot.")
@click.argument("file", required=False)
@scope_options
@click.option("--dry-run", is_flag=True, help="Print the converted hooks as JSON; write nothing.")
@click.pass_context
def import_command(ctx: click.Context, agent: str, file: str | None, global_: bool, project: bool,
                   dry_run: bool) -> None:
    """Convert an agent's hooks (FILE, default its settings for the scope) into forge hooks.

    Each hook keeps speaking its agent's protocol ("format": AGENT). Entries with no forge
    form (a regex matcher, a prompt hook, an event forge does not have) are named and skipped.
    """
    from .config import update_file
    from .dialects import NAMES, get
    from .dialects.importing import Imported, default_files, import_hooks

    if agent not in NAMES:
        raise UsageError(f"--from takes one of {', '.join(NAMES)}, not '{agent}'")
    scope = _scope(global_, project)
    dialect = get(agent)
    candidates = [file] if file else default_files(dialect, scope, str(_root(ctx)))
    sources = [(path, raw) for path in candidates if (raw := read_raw(path)) is not None]
    if not sources:
        raise UsageError(f"no such file: {' or '.join(candidates)}")
    imported = Imported()
    for source, raw in sources:
        try:
            doc = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise UsageError(f"{source} is not valid JSON: {exc}") from None
        found = import_hooks(dialect, doc, source)
        imported.hooks += found.hooks
        imported.skipped += found.skipped
    for skipped in imported.skipped:
        say(PROG, f"skipped {skipped}")
    if dry_run:
        _print_json({"hooks": imported.hooks, "skipped": imported.skipped})
        return
    hooks = [Hook.from_dict(entry) for entry in imported.hooks]
    path = editing.scope_path(scope, _root(ctx))
    if hooks:
        update_file(path, lambda doc: doc["hooks"].extend(h.to_dict() for h in hooks),
                    retrust=scope == "project")
    _edited(ctx, scope, f"imported {len(hooks)} hook{'s' if len(hooks) != 1 else ''} "
                        f"from {', '.join(source for source, _ in sources)}")
