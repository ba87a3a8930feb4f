"""``forge-hook replay N``: run N of the run log (1 = the latest, as ``forge-hook log``
numbers them) fired again, through the one pipeline, against the hooks configured
today, and what changed: the run's decision, and each hook that ran then and now. No
printing here; the command prints.

What a replay can reproduce is what the log kept (runrecord.py): the event's type,
tool, session and data, each string cut at 512 characters and at most 200 values, with
secrets redacted; for an agent's run, the agent's name, event and tool, not its
payload. So a replay cannot see a command cut or a secret masked in the log (it says
which values were), the agent's working directory (guards judge from the project root),
the caller's environment then, nor the files as they were: it runs today's hooks,
command hooks included, on today's files.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterator
from typing import Any

from forge_hookd.run.codec import Request
from forge_hookd.errors import EventError, UsageError
from forge_hookd.events import HookEvent
from forge_hookd.run.pipeline import RunOptions, run
from forge_hookd.log.redact import MASK
from forge_hookd.log.view import readable
from forge_hookd.results import HookRun
from forge_hookd.tuples import NamedTuple

_CUT = "...[cut]"


class Replayed(NamedTuple):
    """A logged run and its replay: the record, the replayed run, each side's hooks as
    lines (``project[0] guard destructive_rm: deny``), and the values of the event that
    the log did not keep whole."""

    record: dict[str, Any]
    run: HookRun
    then: list[str]
    now: list[str]
    lossy: list[str]

    @property
    def changed(self) -> bool:
        """Whether the decision is another one today (the hooks' lines may differ while
        the decision holds)."""
        return self.record.get("decision") != self.run.decision

    def to_dict(self) -> dict[str, Any]:
        return {"then": {"decision": self.record.get("decision"), "reason": self.record.get("reason"),
                         "hooks": self.then},
                "now": {"decision": self.run.decision, "reason": self.run.reason, "hooks": self.now},
                "changed": self.changed, "not_kept_whole": self.lossy,
                "event": self.run.event.to_dict(), "project": self.record.get("project")}


def event_of(record: dict[str, Any], name: str = "that run") -> HookEvent:
    """The event of a logged run (``name``: ``run 3``), as far as the log kept it;
    UsageError for a run that has none (an error before the event was read, a record
    not of forge-hook-run's shape) or whose event forge cannot read."""
    kept, odd = readable(record)
    logged = kept.get("event")
    if not isinstance(logged, dict) or not logged.get("type"):
        odd = [said for said in odd if said.startswith("'event")]
        why = f"its record is not as forge-hook-run writes it: {'; '.join(odd)}" if odd \
            else "it failed before its event was read"
        raise UsageError(f"{name} has no event to replay ({why})")
    data = dict(logged.get("data") or {})
    agent = logged.get("agent")
    if isinstance(agent, dict) and agent.get("name"):  # the agent's names, without its payload
        data["agent"] = {k: agent.get(k) for k in ("name", "event", "tool")}
    try:
        return HookEvent.from_dict({"type": logged["type"], "tool_name": logged.get("tool"),
                                    "session_id": logged.get("session"), "data": data})
    except EventError as exc:
        raise UsageError(f"{name} cannot be replayed: its logged event is not one forge reads: {exc}") from None


def replay(record: dict[str, Any], *, name: str = "that run", project_root: str | None = None,
           trust_project: bool = False, say: Callable[[str], None]) -> Replayed:
    """Fire the logged run's event again in its project (or ``project_root``). A record
    not quite of forge-hook-run's shape (written by hand, by another program) is said,
    naming it, and replayed as far as it can be (issue 31, item 10)."""
    event = event_of(record, name)
    record, odd = readable(record)
    if odd:
        say(f"warning: {name} is not as forge-hook-run writes it ({'; '.join(odd)}): replayed as far as it can be")
    root = project_root or record.get("project")
    if not isinstance(root, str) or not root:
        raise UsageError("that run has no project root in the log: give one with --project-root")
    dialect = record.get("dialect") if isinstance(record.get("dialect"), str) else None
    request = Request(event, dialect=dialect)
    options = RunOptions(project_root=root, trust_project=trust_project)
    outcome, _ = run(request, options, catcher=None, say=say, trace_to=lambda line: None)
    assert outcome.run is not None  # an event with a type, not a dry run
    then = [_line(h.get("source"), h.get("source_index"), h.get("index"), _action(h), h.get("decision"))
            for h in record.get("hooks") or []]
    now = [_line(r.hook.source, r.hook.source_index, r.index, r.hook.action, r.decision) for r in outcome.run.results]
    return Replayed(record, outcome.run, then, now, sorted(_lossy(event.data, "data")))


def _action(hook: dict[str, Any]) -> str:
    """A logged hook in the words of :attr:`Hook.action`, so that an unchanged hook reads
    the same then and now."""
    if hook.get("guard"):
        options = hook.get("with")
        shown = " with " + json.dumps(options, sort_keys=True, ensure_ascii=False) if options else ""
        return f"guard {hook['guard']}{shown}"
    return " ".join(str(hook.get("command") or "").split())


def _line(source: object, source_index: object, index: object, action: str, decision: object) -> str:
    where = f"{source}[{source_index}]" if source_index is not None else f"hook {index}"
    shown = action if len(action) <= 80 else action[:77] + "..."
    return f"{where} {shown}: {decision}"


def _lossy(value: Any, path: str) -> Iterator[str]:
    """The paths of the values the log cut or masked (``data.tool_args.command``)."""
    if isinstance(value, str):
        if value.endswith(_CUT) or MASK in value:
            yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _lossy(item, f"{path}.{key}")
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from _lossy(item, f"{path}[{k}]")


def diff(replayed: Replayed) -> list[str]:
    """The hooks then and now, diff-style: ``  `` the same, ``- `` only then, ``+ `` only
    now (a hook whose decision changed shows as both)."""
    lines = [line.rstrip("\n") for line in difflib.ndiff(replayed.then, replayed.now) if not line.startswith("?")]
    skipped_then, skipped_now = len(replayed.record.get("skipped") or []), len(replayed.run.skipped)
    if skipped_then or skipped_now:
        lines.append(f"hooks that did not run (an earlier hook stopped the chain): {skipped_then} then, "
                     f"{skipped_now} now")
    return lines
