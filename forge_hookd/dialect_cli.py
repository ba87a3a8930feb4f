"""``forge-hook-run --dialect NAME``: the runner as an agent's own hook command.

Read the agent's payload, run the forge hooks with every guarantee of a native run,
answer in the agent's form. stdout belongs to the agent: the forge document goes to
``--report FILE``. Whatever fails on the way (a broken payload, a ``--strict`` config
error, a bug, a signal) is answered by :func:`failure_answer`: deny where the agent
waits for permission, proceed with a word on stderr elsewhere (DESIGN.md).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, BinaryIO

import click
import orjson

from .boundary import RUNNER_PROG, JsonCommand, print_json, say
from .errors import UsageError
from .dialects import NAMES, get
from .dialects.base import Dialect, Inbound, NativeAnswer, PayloadError, Verdict

if TYPE_CHECKING:
    from .results import HookRun

PROG = RUNNER_PROG
MAX_PAYLOAD_BYTES = 64 * 1024 * 1024


class _State:
    """What a failure answer needs to know, filled in as the run gets further."""

    dialect: str | None = None
    native_event: str | None = None
    report: str | None = None


_STATE = _State()


def option_in_argv(argv: list[str], option: str) -> str | None:
    """An option's value in a command line, before click parses it: a usage error must
    already be answered in the agent's form (and reported)."""
    for i, arg in enumerate(argv):
        if arg == option and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(f"{option}="):
            return arg.partition("=")[2]
    return None


def split_dialect(value: str) -> tuple[str, str | None]:
    """``NAME`` or ``NAME:EVENT``: the event for agents whose payload may not name it
    (Copilot's camelCase payloads), so each event's hook command names it instead."""
    name, _, event = value.partition(":")
    return name, event or None


def install_failure_answer(value: str | None, report: str | None) -> None:
    """From here on, a failure is answered in the dialect's form (and reported); a
    ``NAME:EVENT`` value already says which event."""
    name, event = split_dialect(value) if value is not None else (None, None)
    _STATE.dialect, _STATE.report, _STATE.native_event = name, report, event
    JsonCommand.failure_answer[:] = [failure_answer]


def failure_answer(kind: str, message: str) -> int:
    """Answer a failure in the agent's form; the boundary calls this instead of
    printing forge's JSON error document."""
    if _STATE.dialect not in NAMES:
        answer = NativeAnswer(stderr=f"forge-hook-run could not check this call: {message}", exit_code=2)
    else:
        answer = get(_STATE.dialect).failure(_STATE.native_event, message)
    _write_report({"version": 1, "error": {"kind": kind, "message": message}}, answer)
    return _emit(answer)


def print_config(value: str) -> int:
    name = split_dialect(value)[0]
    dialect = _dialect(name)
    snippet = dialect.config_snippet(f"forge-hook-run --dialect {name}")
    print_json(snippet)
    say(PROG, f"merge this into {' or '.join(dialect.settings_files)}")
    return 0


def run_dialect(value: str, *, project_root: str | None, extra_configs: tuple[str, ...],
                trust_project: bool, no_global: bool, no_project: bool, keep_going: bool,
                jobs: int, strict: bool, report: str | None, trace: bool) -> int:
    """The whole dialect path: the native path's steps (cli.py) between reading the
    agent's payload and answering in its form; returns the agent's exit status."""
    from .cli import load_hooks, new_observer, run_hooks
    from .config import find_project_root

    install_failure_answer(value, report)
    name, named_event = split_dialect(value)
    dialect = _dialect(name)
    inbound = _read_inbound(dialect, sys.stdin.buffer, named_event)
    _STATE.native_event = inbound.native_event
    root = find_project_root(project_root, start=inbound.cwd)
    observer = new_observer(root, trace=trace, trust_project=trust_project, no_global=no_global,
                            no_project=no_project, dialect=name)
    if inbound.event is None:
        warning = (f"{name}'s {inbound.native_event} has no forge event type: no hook runs, "
                   "the agent proceeds")
        say(PROG, f"warning: {warning}")
        answer = NativeAnswer()
        doc: dict[str, Any] = {"version": 1, "event": None, "warnings": [warning]}
        observer.finished(doc, answer.exit_code)
        _write_report(doc, answer, inbound)
        return _emit(answer)
    hooks, warnings = load_hooks(inbound.event, root=root, extra_configs=extra_configs,
                                 trust_project=trust_project, no_global=no_global, no_project=no_project,
                                 strict=strict, observer=observer)
    run = run_hooks(inbound.event, hooks, root=root, warnings=warnings, keep_going=keep_going, jobs=jobs,
                    observer=observer)
    if run.interrupted is not None:
        from .signals import signal_name

        status = failure_answer("interrupted", f"interrupted by {signal_name(-run.interrupted)}")
        observer.finished(run.to_dict(), status)
        return status
    answer = dialect.answer(inbound, verdict_of(run))
    for key in _rewritten_beyond_tool_args(run):  # no agent takes a rewrite of these
        answer.dropped.append(f"data.{key}: {name}'s answer carries only a tool input rewrite")
        answer.stderr += f"\nforge-hook-run: warning: dropped {answer.dropped[-1]}"
    doc = run.to_dict()
    observer.finished(doc, answer.exit_code)
    _write_report(doc, answer, inbound)
    return _emit(answer)


def verdict_of(run: HookRun) -> Verdict:
    """The run's outcome in forge terms, for a dialect to write.

    No objection is not approval: a run that allows becomes the agent's allow only when
    a blocking hook said ``"decision": "allow"``; otherwise it is no decision, and the
    agent's own permission rules still apply. A rewrite is the whole new ``tool_args``.
    """
    decision: str | None = run.decision
    reason = run.reason
    if decision == "allow":
        allowing = [r.answer for r in run.results
                    if r.hook.blocking and r.answer is not None and r.answer.decision == "allow"]
        decision = "allow" if allowing else None
        reason = "\n".join(a.reason for a in allowing if a is not None and a.reason) or None
    tool_args = None
    if run.data is not None and run.data.get("tool_args") != run.event.data.get("tool_args"):
        rewritten = run.data.get("tool_args")
        tool_args = rewritten if isinstance(rewritten, dict) else {}
    return Verdict(decision=decision, reason=reason, tool_args=tool_args,
                   context=list(run.context), messages=list(run.messages))


def _rewritten_beyond_tool_args(run: HookRun) -> list[str]:
    if run.data is None:
        return []
    keys = dict.fromkeys([*run.event.data, *run.data])
    return [k for k in keys if k != "tool_args" and run.data.get(k) != run.event.data.get(k)]


def _dialect(name: str) -> Dialect:
    if name not in NAMES:
        raise UsageError(f"unknown dialect '{name}': one of {', '.join(NAMES)}")
    return get(name)


def _read_inbound(dialect: Dialect, stdin: BinaryIO, named_event: str | None) -> Inbound:
    if stdin.isatty():
        raise UsageError(f"no payload: {dialect.name} pipes its hook payload on stdin")
    raw = stdin.read(MAX_PAYLOAD_BYTES + 1)
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise PayloadError(f"payload larger than the limit of {MAX_PAYLOAD_BYTES} bytes")
    try:
        return dialect.read(raw, named_event)
    except PayloadError as exc:
        _STATE.native_event = exc.native_event or named_event
        raise


def _write_report(doc: dict[str, Any], answer: NativeAnswer, inbound: Inbound | None = None) -> None:
    """The forge document, plus what the agent was told, to ``--report FILE``. A report
    that cannot be written costs a warning, never the answer."""
    if not _STATE.report:
        return
    doc["dialect"] = {"name": _STATE.dialect, "event": _STATE.native_event,
                      "tool": None if inbound is None else inbound.native_tool,
                      "exit_code": answer.exit_code, "stdout": answer.stdout.decode("utf-8", "replace"),
                      "dropped": answer.dropped}
    try:
        with open(_STATE.report, "wb") as out:
            out.write(orjson.dumps(doc, default=str) + b"\n")
    except OSError as exc:
        say(PROG, f"warning: could not write the report {_STATE.report}: {exc.strerror or exc}")


def _emit(answer: NativeAnswer) -> int:
    if answer.stderr:
        click.echo(answer.stderr.strip("\n"), err=True)
    out = sys.stdout.buffer
    view = memoryview(answer.stdout)
    while view:
        view = view[out.write(view):]
    out.flush()
    return answer.exit_code
