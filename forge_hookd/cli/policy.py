"""``forge-hook guard list|test``, ``forge-hook test FILE`` and ``forge-hook replay N``:
what the built-in guards are and decide, a team's fixtures run as CI, a logged run
fired again. The commands only parse and print: the work is in
:mod:`forge_hookd.guards.explain`, :mod:`forge_hookd.policy.ci` and
:mod:`forge_hookd.policy.replay`."""

from __future__ import annotations

import os
import shutil
import textwrap
from typing import Any

import click
import orjson

from forge_hookd.cli import completion
from forge_hookd.cli.boundary import MANAGER_PROG, print_json, say
from forge_hookd.config import find_project_root
from forge_hookd.errors import ExitStatus, ManagerStatus, UsageError
from forge_hookd.policy import pull
from forge_hookd.text import one_line, visible

PROG = MANAGER_PROG
_STATUS = {"allow": ExitStatus.PROCEED, "deny": ExitStatus.BLOCKED, "ask": ExitStatus.ASK}


def _echo(line: str) -> None:
    """A line for people on stdout: what it quotes (a command, a reason) cannot drive
    the terminal, nor split the line."""
    click.echo(visible(line))


def _wrapped(text: str, width: int, *, first: str = "  ", rest: str = "    ") -> None:
    for line in textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest):
        _echo(line)


def _shown(value: Any) -> str:
    """JSON for people, with a space after each comma (orjson's is compact; the json
    module would be 2 ms of every forge-hook start: python -X importtime)."""
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return orjson.dumps(value).decode()


def _project_root(ctx: click.Context) -> str:
    root = find_project_root(ctx.find_root().params.get("project_root"))
    if not os.path.isdir(root):
        raise UsageError(f"the project root is not a directory: {root}")
    return root


# -- forge-hook guard ---------------------------------------------------------------------------
@click.group("guard", short_help="The built-in guards: list them, test one on a command.")
def guard_group() -> None:
    """The built-in guards: hook entries {"event": "tool:pre_execute", "guard": NAME,
    "with": {...}} judged inside forge-hook-run, without a process (forge-hook add
    --guard NAME, or --guards recommended)."""


@guard_group.command("list", short_help="Every guard: what it catches, its options.")
@click.option("--json", "as_json", is_flag=True, help="A JSON list, with each option's kind and default.")
def guard_list_command(as_json: bool) -> None:
    """Every built-in guard: its name, what it catches (examples), its options and their
    defaults, and whether it is in the recommended set (forge-hook add --guards
    recommended)."""
    from forge_hookd.guards.explain import describe_all  # the guards: 7.2 ms of every other command (bench/README.md)

    described = describe_all()
    if as_json:
        print_json(described)
        return
    width = min(shutil.get_terminal_size((100, 24)).columns, 100)
    for guard in described:
        tags = [t for t in ("recommended" if guard["recommended"] else "",
                            f"also named {', '.join(guard['aliases'])}" if guard["aliases"] else "") if t]
        _echo(f"{guard['name']}" + (f"  ({'; '.join(tags)})" if tags else ""))
        _wrapped(guard["summary"], width, rest="  ")
        _echo(f"  tools: {', '.join(guard['tools'])}")
        _wrapped("catches: " + "; ".join(guard["catches"]), width)
        for option in guard["options"]:
            default = _shown(option["default"])
            _wrapped(f"with {option['name']} ({option['kind']}, default {default}): {option['help']}", width)
        _echo("")


@guard_group.command("test", short_help="What a guard decides on one command or path, and why.")
@click.argument("name", shell_complete=completion.values(completion.guard_names))
@click.argument("words", nargs=-1, required=True, metavar="-- COMMAND|PATH")
@click.option("--with", "with_json", metavar="JSON", help="The guard's options, a JSON object.")
@click.option("--tool", default="bash", show_default=True, metavar="TOOL",
              help="The tool called: bash, or a file tool (read, write, edit, glob, grep) with a PATH.",
              shell_complete=completion.values(completion.guard_tools))
@click.option("--content", metavar="TEXT", help="With --tool write or edit: the text written.")
@click.option("--cwd", metavar="DIR", help="Where the command runs (default: the project root).")
@click.option("--rewrite", "rewrite_json", metavar="JSON",
              help="A hook's data answer rewriting the call ('{\"tool_args\": {\"command\": ...}}'): "
                   "the guard judges the rewritten call too, as a run does.")
@click.option("--json", "as_json", is_flag=True, help="The verdict as JSON.")
@click.pass_context
def guard_test_command(ctx: click.Context, name: str, words: tuple[str, ...], with_json: str | None, tool: str,
                       content: str | None, cwd: str | None, rewrite_json: str | None, as_json: bool) -> int:
    """What guard NAME decides on one tool call, what matched, and how the command was
    read. After --, one argument is a command line as written ('rm -rf ~/x && ls');
    several are one command's words, quoted back as a shell needs them. With a file
    tool, the one argument is the path. Exit status as forge-hook-run's: 0 allow,
    1 deny, 4 ask.

    With --rewrite, a hook's data answer (a JSON merge patch over the event's data)
    rewrites the call, and the guard judges the call as rewritten too, as forge-hook-run
    judges a hook's rewrite of the tool input; the exit status is the stricter verdict.

    \b
    forge-hook guard test destructive_rm -- 'find ~ -name "*.log" -delete'
    forge-hook guard test force_push --with '{"protected_branches": ["trunk"]}' -- git push origin HEAD:trunk
    forge-hook guard test secret_files --tool read -- ~/.ssh/id_ed25519
    forge-hook guard test hardcoded_secrets --tool write --content "$(cat config.py)" -- config.py
    forge-hook guard test destructive_rm --rewrite '{"tool_args": {"command": "rm -rf ~"}}' -- ls
    """
    from forge_hookd.guards import GuardError, worst  # the parser and the guards: 7.2 ms of every other command
    from forge_hookd.guards.entries import options_from_json
    from forge_hookd.guards.explain import explain, rewritten_tool_args, tool_call

    root = _project_root(ctx)
    try:
        options, call = options_from_json(with_json), tool_call(tool, words, content)
        rewritten = None if rewrite_json is None else rewritten_tool_args(call, _json_option("--rewrite", rewrite_json))
        verdicts = [explain(name, options, tool, args, project_root=root, env=os.environ,
                            cwd=os.path.abspath(cwd) if cwd else None)
                    for args in (call, *(() if rewritten is None else (rewritten,)))]
    except GuardError as exc:
        raise UsageError(str(exc)) from None
    if as_json:
        print_json({**verdicts[0].to_dict(), **({} if rewritten is None else {"rewrite": verdicts[-1].to_dict()})})
    else:
        for line in [*_explained(verdicts[0]), *(_explained(verdicts[1], "rewritten") if rewritten else ())]:
            _echo(line)
    return _STATUS[worst(v.ruling for v in verdicts).decision]


def _json_option(option: str, text: str) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise UsageError(f"{option} is not valid JSON: {exc}") from None


def _explained(verdict: Any, head: str | None = None) -> list[str]:
    ruling = verdict.ruling
    subject = verdict.tool_args.get("command", verdict.tool_args.get("file_path"))
    lines = [f"{head or verdict.guard}: {ruling.decision}", f"  {verdict.tool}: {subject}"]
    if verdict.commands:
        lines.append(f"  read as {len(verdict.commands)} command{'s' if len(verdict.commands) > 1 else ''}:")
        lines += [f"    {c}" for c in verdict.commands]
    if verdict.parse_note:
        lines.append(f"  note: {verdict.parse_note}")
    if ruling.matched:
        lines.append(f"  matched: {ruling.matched}")
    if ruling.reason:
        lines.append(f"  reason: {ruling.reason}")
    return lines


# -- forge-hook test FILE ---------------------------------------------------------------------------
@click.command("test", short_help="Run a fixtures file of tool calls and expected decisions (CI).")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--dialect", metavar="AGENT[:EVENT]",
              help="The agent whose payloads the cases hold (unless a case says).",
              shell_complete=completion.values(completion.dialect_names))
@click.option("--trust-project", is_flag=True, help="Run the project's hooks even if it is not trusted (CI).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per case instead of the report.")
@click.pass_context
def test_command(ctx: click.Context, file: str, dialect: str | None, trust_project: bool, as_json: bool) -> int:
    """Run every case of FILE against the hooks configured here (global and project;
    built-in guards and your own command hooks alike, for real) and compare each run's
    decision with the one the case expects: policy CI for a team's hooks. Exit 0 when
    every case passes, 1 when any fails (each failure shown as - expected, + got).

    \b
    {"cases": [
      {"name": "no sudo", "command": "sudo apt install x", "expect": "deny"},
      {"name": "reading .env", "dialect": "claude", "expect": "deny",
       "payload": {"hook_event_name": "PreToolUse", "tool_name": "Read",
                   "tool_input": {"file_path": "{project}/.env"}}},
      {"name": "a session starts", "event": {"type": "session:start"}, "expect": "allow"}]}

    A case has one of command (a bash call), event (a forge event) or payload (an
    agent's own, read as --dialect or the case's dialect reads it); expect is allow,
    deny or ask; reason, if given, must be part of the run's reason. {project} in any
    string is the project root.
    """
    from forge_hookd.policy import ci as fixtures
    from forge_hookd.run.pipeline import RunOptions  # the run pipeline: 32 ms of every other command (python -X importtime)

    root = _project_root(ctx)
    cases = fixtures.load(file, project_root=root, dialect=dialect)
    options = RunOptions(project_root=root, trust_project=trust_project)  # the run reads FORGE_TRUST_PROJECT
    outcomes = fixtures.run_cases(cases, options, say=lambda line: say(PROG, line))
    if as_json:
        for outcome in outcomes:
            click.echo(orjson.dumps(outcome.to_dict()).decode())
    else:
        for line in fixtures.report(outcomes, path=file):
            _echo(line)
    return ManagerStatus.OK if all(o.passed for o in outcomes) else ManagerStatus.PROBLEMS


# -- forge-hook replay N ----------------------------------------------------------------------------
@click.command("replay", short_help="Fire run N of forge-hook log again against today's hooks.")
@click.argument("number", type=click.IntRange(min=1), metavar="N")
@click.option("--trust-project", is_flag=True, help="Run the project's hooks even if it is not trusted.")
@click.option("--json", "as_json", is_flag=True, help="Then and now as JSON.")
@click.pass_context
def replay_command(ctx: click.Context, number: int, trust_project: bool, as_json: bool) -> int:
    """Fire the event of run N of forge-hook log (1 = the latest) again, in its project,
    against the hooks configured today (command hooks run for real), and show what
    changed: the decision then and now, and each hook then (-) and now (+). Exit 0 when
    the decision is the same, 1 when it changed.

    The log keeps the event bounded and redacted: a value cut at 512 characters or a
    secret masked is replayed as the log holds it (the replay names them), and an
    agent's own payload is not kept (its working directory: guards judge from the
    project root). Files, the environment and time are today's.
    """
    from forge_hookd.policy import replay
    from forge_hookd.log import view as logview
    from forge_hookd.log import runlog  # the run pipeline: 32 ms of every other command
    from forge_hookd.log.view import Filter

    path = runlog.log_path()
    if path is None:
        raise UsageError("the run log is off (FORGE_LOG=0): there is no run to replay")
    found = logview.last(path, Filter(), number)
    if len(found) < number:
        raise UsageError(f"no run {number}: the log holds {len(found)} run(s) (forge-hook log)")
    replayed = replay.replay(found[0], name=f"run {number}", project_root=ctx.find_root().params.get("project_root"),
                             trust_project=trust_project, say=lambda line: say(PROG, line))
    if as_json:
        print_json(replayed.to_dict())
    else:
        for line in _replay_lines(number, replayed):
            _echo(line)
    return ManagerStatus.PROBLEMS if replayed.changed else ManagerStatus.OK


def _replay_lines(number: int, replayed: Any) -> list[str]:
    from forge_hookd.policy.replay import diff  # loaded already by replay_command

    rec, now = replayed.record, replayed.run
    event = rec.get("event") or {}
    agent = event.get("agent") or {}
    via = f", {agent.get('name')} {agent.get('event')}" if agent.get("name") else ""
    lines = [f"run {number}: {event.get('type')} {event.get('tool') or ''}{via} at {rec.get('time')} "
             f"in {rec.get('project')}".replace("  ", " ")]
    then_reason = one_line(str(rec.get("reason") or ""), 200)
    now_reason = one_line(now.reason or "", 200)
    lines.append(f"then: {rec.get('decision')}" + (f": {then_reason}" if then_reason else ""))
    lines.append(f"now:  {now.decision}" + (f": {now_reason}" if now_reason else ""))
    lines.append("the decision changed" if replayed.changed else "the decision is the same")
    lines.append("hooks (- then, + now):")
    lines += [f"  {line}" for line in diff(replayed)] or ["  none, then or now"]
    if replayed.lossy:
        lines.append("not kept whole by the log, replayed as it holds them: " + ", ".join(replayed.lossy))
    return lines


# -- forge-hook policy ------------------------------------------------------------------------
@click.group("policy", short_help="The managed policy: pull one by digest.")
def policy_group() -> None:
    """The managed layer's policy files (/etc/forge/managed.d): an organisation's hooks,
    which run first and which no user setting turns off."""


@policy_group.command("pull", short_help="Install a hooks file into the managed layer, if its digest matches.")
@click.argument("reference", metavar="SOURCE@sha256:DIGEST")
@click.option("--name", metavar="NAME", help="The policy's name: it lands in managed.d/pulled-NAME.json "
                                             "(default: from the source's file name).")
@click.option("--ca-file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Trust the certificates in FILE (PEM) for an https source, instead of the system's.")
def pull_command(reference: str, name: str | None, ca_file: str | None) -> int:
    """Install one hooks file into the managed layer only if its bytes hash to DIGEST.

    \b
    SOURCE is a file path, a file:// URL, an https:// URL, or a git repository as
    git+URL#path/in/repo (the file at the head of its default branch).

    The policy is written, root-owned and 0644, to managed.d/pulled-NAME.json of
    /etc/forge (else of FORGE_MANAGED_DIR where /etc/forge does not exist). A pull that
    fails (unreachable, a digest that differs, not a hooks file) changes nothing: the
    last good copy stays in force, and the exit status is 1. If that copy says
    "on_failure": "refuse", forge also denies every event that can block until a pull
    succeeds; "last-good" (the default) keeps running it. Must run as root.
    """
    pulled = pull.pull(reference, name=name, ca_file=ca_file)
    if pulled.error is None:
        _echo(f"installed {pulled.path} (sha256:{pulled.digest})")
        return ManagerStatus.OK
    kept = "the last good copy stays in force" if os.path.exists(pulled.path) else "no policy was installed"
    say(PROG, f"error: pull failed: {pulled.error}; {kept}")
    if pulled.refusing:
        say(PROG, "error: the policy says on_failure: refuse: forge denies every event that can block until a "
                  "pull succeeds")
    return ManagerStatus.PROBLEMS
