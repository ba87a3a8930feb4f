"""``forge-hook test FILE``: a team's policy CI. A fixtures file holds tool calls (forge
events, an agent's own payloads, or a bare shell command) with the decision each must
get; every case runs through the one pipeline (pipeline.run) against the hooks
configured here, built-in guards and command hooks alike, and the report says which
cases got another decision, diff-style. No printing here; the command prints.

The file (JSON, at most 4 MiB)::

    {"cases": [
      {"name": "no sudo", "command": "sudo apt install x", "expect": "deny", "reason": "Blocked: sudo"},
      {"name": "Claude reads .env", "dialect": "claude", "expect": "deny",
       "payload": {"hook_event_name": "PreToolUse", "tool_name": "Read",
                   "tool_input": {"file_path": "{project}/.env"}}},
      {"name": "a session starts", "event": {"type": "session:start"}, "expect": "allow"}
    ]}

Each case has one of ``command`` (a bash call: ``tool:pre_execute``), ``event`` (a
forge event) or ``payload`` (an agent's, read by ``dialect``: the case's, else
``--dialect``); ``expect`` is allow, deny or ask; ``reason``, if given, must be part of
the run's reason. ``{project}`` in any string is the project root, so that paths in
payloads hold wherever the repository is checked out. A bare list of cases is fine too.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import orjson

from forge_hookd.run.codec import Request
from forge_hookd.run.dialectcodec import dialect_named, split_dialect
from forge_hookd.errors import ConfigError, EventError, ForgeError, UsageError
from forge_hookd.events import HookEvent
from forge_hookd.registry import Hook
from forge_hookd.run.pipeline import RunOptions, run
from forge_hookd.readfile import read_regular
from forge_hookd.text import one_line
from forge_hookd.tuples import NamedTuple

_DECISIONS = ("allow", "deny", "ask")
_CASE_KEYS = frozenset({"name", "command", "event", "payload", "dialect", "native_event", "expect", "reason"})
PROJECT_MARK = "{project}"


class Case(NamedTuple):
    """One fixture: its number (from 1), its name, the request, what it expects."""

    number: int
    name: str
    request: Request
    expect: str
    reason: str | None


class CaseOutcome(NamedTuple):
    """What one case got: the run's decision and reason, the hook that decided (its
    words, ``project[0] guard destructive_rm``), and whether that is what it expected."""

    case: Case
    decision: str
    reason: str
    decided_by: str | None
    passed: bool

    def to_dict(self) -> dict[str, Any]:
        return {"case": self.case.number, "name": self.case.name, "expect": self.case.expect,
                "expect_reason": self.case.reason, "decision": self.decision, "reason": self.reason,
                "decided_by": self.decided_by, "passed": self.passed}


def load(path: str, *, project_root: str, dialect: str | None) -> list[Case]:
    """The cases of the fixtures file at ``path``; UsageError naming the case and what
    is wrong with it (a file that cannot be used is a bad invocation, not a failure)."""
    try:
        raw = read_regular(path)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    if raw is None:
        raise UsageError(f"{path}: no such file")
    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise UsageError(f"{path}: not valid JSON: {exc}") from None
    entries = document.get("cases") if isinstance(document, dict) else document
    if not isinstance(entries, list) or not entries:
        raise UsageError(f'{path}: expected {{"cases": [...]}} or a list of cases, with at least one case')
    root = os.path.realpath(project_root)
    return [_case(number, _placed(entry, root), path, dialect) for number, entry in enumerate(entries, start=1)]


def _placed(value: Any, root: str) -> Any:
    """``value`` with ``{project}`` in every string made the project root."""
    if isinstance(value, str):
        return value.replace(PROJECT_MARK, root)
    if isinstance(value, list):
        return [_placed(v, root) for v in value]
    if isinstance(value, dict):
        return {k: _placed(v, root) for k, v in value.items()}
    return value


def _case(number: int, entry: Any, path: str, dialect: str | None) -> Case:
    where = f"{path}: case {number}"
    if not isinstance(entry, dict):
        raise UsageError(f"{where}: a case is an object, not {type(entry).__name__}")
    unknown = sorted(set(entry) - _CASE_KEYS)
    if unknown:
        raise UsageError(f"{where}: unknown key '{unknown[0]}'; a case has {', '.join(sorted(_CASE_KEYS))}")
    expect = entry.get("expect")
    if expect not in _DECISIONS:
        raise UsageError(f"{where}: 'expect' must be one of {', '.join(_DECISIONS)}, not {expect!r}")
    reason = entry.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise UsageError(f"{where}: 'reason' must be a string")
    name = entry.get("name")
    label = name if isinstance(name, str) and name else _label(entry)
    try:
        request = _request(entry, dialect)
    except ForgeError as exc:
        raise UsageError(f"{where} ({label}): {exc.message}") from None
    return Case(number, label, request, expect, reason)


def _label(entry: dict[str, Any]) -> str:
    command = entry.get("command")
    if isinstance(command, str):
        return command
    return "event" if "event" in entry else "payload"


def _request(entry: dict[str, Any], dialect: str | None) -> Request:
    given = [k for k in ("command", "event", "payload") if k in entry]
    if len(given) != 1:
        raise UsageError("a case has one of 'command', 'event' or 'payload'")
    if "command" in entry:
        if not isinstance(entry["command"], str):
            raise UsageError("'command' must be a string: the shell command of a bash call")
        return Request(HookEvent.tool_pre_execute("bash", {"command": entry["command"]}))
    if "event" in entry:
        if not isinstance(entry["event"], dict):
            raise EventError("'event' must be a forge event object")
        return Request(HookEvent.from_dict(entry["event"]))
    name = entry.get("dialect", dialect)
    if not isinstance(name, str):
        raise UsageError("a payload needs its agent: 'dialect' in the case, or --dialect")
    agent, native_event = split_dialect(name)
    inbound = dialect_named(agent).reader.read(orjson.dumps(entry["payload"]),
                                               entry.get("native_event") or native_event)
    if inbound.event is None:  # a reader always makes one (agent:native at least)
        raise EventError(f"the {agent} payload makes no event")
    return Request(inbound.event, start_dir=inbound.cwd, dialect=agent, native_event=inbound.native_event)


def run_cases(cases: list[Case], options: RunOptions, *, say: Callable[[str], None]) -> list[CaseOutcome]:
    """Every case through the pipeline, in order; config warnings are said once."""
    said: set[str] = set()

    def once(line: str) -> None:
        if line not in said:
            said.add(line)
            say(line)

    return [_outcome(case, options, once) for case in cases]


def _outcome(case: Case, options: RunOptions, say: Callable[[str], None]) -> CaseOutcome:
    outcome, _ = run(case.request, options, catcher=None, say=say, trace_to=lambda line: None)
    hook_run = outcome.run
    assert hook_run is not None  # not a dry run
    decision, reason = hook_run.decision, hook_run.reason or ""
    decider = hook_run.blocked_by or hook_run.asked_by  # the denying hook, else the first that asks
    by = None if decider is None else _hook_words(decider.hook, decider.index)
    passed = decision == case.expect and (case.reason is None or case.reason in reason)
    return CaseOutcome(case, decision, reason, by, passed)


def _hook_words(hook: Hook, index: int) -> str:
    where = f"{hook.source}[{hook.source_index}]" if hook.source_index is not None else f"hook {index}"
    return f"{where} {hook.action}"


def report(outcomes: list[CaseOutcome], *, path: str) -> list[str]:
    """The report for people: ``ok`` or ``FAIL`` per case, and for each failure the
    expected (``-``) and the actual (``+``) decision, reason and deciding hook."""
    lines = []
    for out in outcomes:
        case = out.case
        if out.passed:
            lines.append(f"ok    {case.number:>3}  {case.name}: {out.decision}")
            continue
        lines.append(f"FAIL  {case.number:>3}  {case.name}")
        lines.append(f"      - {case.expect}" + (f" (reason holding {case.reason!r})" if case.reason else ""))
        got = f"      + {out.decision}" + (f" by {out.decided_by}" if out.decided_by else "")
        lines.append(got + (f": {one_line(out.reason, 200)}" if out.reason else ""))
    failed = sum(not o.passed for o in outcomes)
    lines.append(f"{path}: {len(outcomes)} case(s), {len(outcomes) - failed} passed, {failed} failed")
    return lines

