"""What a run produced: one ``HookResult`` per hook and the ``HookRun`` document.
Plain records with no process machinery, so that a run that matches no hook never
imports it.

A decision is made once, where the result is made, and carried: a hook's ``decision``
and ``reason`` are fields set when its result is judged (:meth:`HookResult.judged`),
the run's by :meth:`HookRun.conclude`; the document, the run log and the trace read
them, none derives them again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from forge_hookd.answers import ALLOW, ASK, DENY, Answer, merge_patch
from forge_hookd.events import HookEvent
from forge_hookd.registry import Hook, hook_name
from forge_hookd.signalnames import signal_name
from forge_hookd.text import one_line

if TYPE_CHECKING:  # a Protocol class costs 0.3 M instructions at import: for the type checker only
    from collections.abc import Callable
    from typing import Protocol

    from forge_hookd.answers import ResultReader

    class RewriteJudgement(Protocol):
        """The guards' verdict on a run's rewritten tool input (run/rewrite.py's
        ``RewriteJudged``): one result per guard that judged it."""

        @property
        def results(self) -> list[HookResult]: ...

        def to_dict(self) -> dict[str, Any]: ...

    #: What judges a run's rewrite of the tool input (run/rewrite.py), handed in by the executor.
    RewriteJudge = Callable[["HookRun"], "RewriteJudgement | None"]

__all__ = ["HookBlockedError", "HookResult", "HookRun", "Imposed", "describe_hook", "dry_run_document",
           "hook_document"]


class Imposed:
    """forge's own word on a run, decided before any hook ran (a changed project, say):
    a deny of its own when ``reason`` is set (no hook result is invented: ``blocked_by``
    names the ``source`` and the reason, with no index), and a message for the person.
    The run concludes with it as with any hook's (:meth:`HookRun.conclude`). A plain
    class: a NamedTuple costs 0.9 M instructions to create at import (bench/README.md)."""

    __slots__ = ("source", "reason", "message")

    def __init__(self, source: str, reason: str | None = None, message: str | None = None) -> None:
        self.source, self.reason, self.message = source, reason, message


@dataclass
class HookResult:
    """What one hook did. ``exit_code`` is None when it never started; a signal death
    is a negative code plus ``signal`` (``-15``, ``"SIGTERM"``).

    ``decision`` (``allow``, ``deny`` or ``ask``) and ``reason`` are decided once: by
    the reader that read the hook (:meth:`read_by`), else, for a result made by hand, by
    forge's rule when it is made (a failure denies, else its answer decides).
    """

    hook: Hook
    exit_code: int | None
    stdout: str = ""
    stderr: str = ""
    duration: float = 0.0
    timed_out: bool = False
    error: str | None = None
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    index: int = 0
    answer: Answer | None = None  # what its stdout answered (answers.py), if anything
    decision: str = ""  # "" until decided: then allow, deny or ask
    reason: str = ""  # why, stripped (see _reason)

    def __post_init__(self) -> None:
        if not self.decision:
            self.decision = self._forge_decision()
        if not self.reason:
            self.reason = self._reason()

    def read_by(self, reader: ResultReader) -> HookResult:
        """This result as ``reader`` reads it: its answer, a malformed answer's error, and
        the decision and reason that follow. Called once, where the result is made."""
        judgement = reader(self)
        return replace(self, answer=judgement.answer, error=judgement.error or self.error,
                       decision=judgement.decision or "", reason="")

    def _forge_decision(self) -> str:
        """A hook that did not exit 0 cleanly denies, whatever it answered; one that did
        decides by its answer, ``allow`` without one."""
        if not self.success:
            return DENY
        answer = self.answer
        return answer.decision if answer is not None and answer.decision is not None else ALLOW

    def _reason(self) -> str:
        """Its answer's reason; else, for a hook that did not allow, its error (it timed
        out, was killed or never started, or answered malformed: what it printed before
        says nothing of why it stopped); else, for a signal death, the signal; else its
        stdout, else its stderr, cut at REASON_LIMIT (the whole output is in the result:
        a reason is not a second copy of it, which would double the document's bound)."""
        answered = (self.answer.reason or "").strip() if self.answer is not None else ""
        if answered or self.decision == ALLOW:
            return answered
        if self.answer is not None:
            return _cut(self.stderr.strip())
        if self.error:
            return self.error.strip()
        if self.exit_code is not None and self.exit_code < 0:
            return f"killed by {self.signal}"
        return _cut(self.stdout.strip() or self.stderr.strip())

    @property
    def signal(self) -> str | None:
        """The name of the signal that ended it (``exit_code`` -15: ``"SIGTERM"``)."""
        return signal_name(self.exit_code)

    @property
    def success(self) -> bool:
        return self.exit_code == 0 and not self.timed_out and self.error is None

    @property
    def blocks(self) -> bool:
        """True when it denies the run: a blocking hook that denied."""
        return self.hook.blocking and self.decision == DENY

    @property
    def should_continue(self) -> bool:
        """False when the operation must not proceed unasked: a blocking hook that did not
        allow (it failed, timed out, did not start, denied or asks). Observers always go on."""
        return not self.hook.blocking or self.decision == ALLOW

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "hook": hook_document(self.hook),
            "exit_code": self.exit_code,
            "signal": self.signal,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "stdout_truncated": self.stdout_truncated,
            "stderr_truncated": self.stderr_truncated,
            "duration": self.duration,
            "timed_out": self.timed_out,
            "error": self.error,
            "success": self.success,
            "should_continue": self.should_continue,
            "decision": self.decision,
            "reason": self.reason,
            "answer": None if self.answer is None else self.answer.to_dict(),
        }


#: characters of a hook's output that its reason keeps (the result keeps the whole output)
REASON_LIMIT = 64 * 1024


def _cut(text: str) -> str:
    if len(text) <= REASON_LIMIT:
        return text
    return f"{text[:REASON_LIMIT]}...[cut: {len(text) - REASON_LIMIT} more characters in the hook's output]"


def hook_document(hook: Hook) -> dict[str, Any]:
    """A hook as the output document shows it: its config entry, where it came from
    (``source``) and its place in that file (``source_index``, what ``forge-hook
    enable/disable`` take)."""
    return {**hook.to_dict(), "source": hook.source, "source_index": hook.source_index}


def describe_hook(hook: Hook, index: int) -> str:
    """``project[0]``: the hook's name everywhere (:func:`~forge_hookd.registry.hook_name`),
    else its place in this run."""
    return hook_name(hook.source, hook.source_index, hook.id, run_index=index)


class HookBlockedError(Exception):
    """A hook said the operation must not proceed (or asks, and nobody said yes); the
    message is its reason."""

    def __init__(self, result: HookResult) -> None:
        super().__init__(result.reason or f"blocked by hook '{result.hook.event_pattern}'")
        self.result = result


@dataclass
class HookRun:
    """Everything one event's run produced, in config order.

    ``decision``, ``reason``, ``blocked_by``, ``data``, ``rewrite_judged``, ``context``
    and ``messages`` are the run's conclusion: set once by :meth:`conclude` when the
    hooks are done.
    """

    event: HookEvent
    results: list[HookResult] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    duration: float = 0.0
    interrupted: int | None = None  # the signal number that interrupted the run
    data: dict[str, Any] | None = None  # the event's data as the hooks rewrote it, if they did
    decision: str = ALLOW  # deny if a blocking hook denied, else ask if one asks, else allow
    reason: str | None = None  # the denying hook's; for ask the asking hooks', one per line
    blocked_by: HookResult | None = None  # the first blocking hook that denied (or guard, judging the rewrite)
    context: list[str] = field(default_factory=list)  # every hook's, for the agent's model
    messages: list[str] = field(default_factory=list)  # every hook's, for the person
    imposed: Imposed | None = None  # forge's own deny or message, decided before the hooks ran
    # The guards' verdict on the rewritten tool input, when they judged one (run/rewrite.py).
    # Not a field: each field of this dataclass costs every run 0.28 M instructions at
    # import (bench/README.md, "Rewrites judged"). A type comment, which the dataclass
    # decorator does not see and the type checker reads.
    rewrite_judged = None  # type: RewriteJudgement | None

    @property
    def blocked(self) -> bool:
        return self.blocked_by is not None or self.denied_by_forge

    @property
    def asked_by(self) -> HookResult | None:
        """When the run asks: the first blocking hook that asks, else the first guard
        that asks about the rewritten tool input."""
        if self.decision != ASK:
            return None
        judged = self.rewrite_judged.results if self.rewrite_judged is not None else []
        return next((r for r in [*self.results, *judged] if r.hook.blocking and r.decision == ASK), None)

    @property
    def denied_by_forge(self) -> bool:
        """True when forge itself denies the run (:class:`Imposed`), whatever the hooks said."""
        return self.imposed is not None and self.imposed.reason is not None

    def conclude(self, *, judge_rewrite: RewriteJudge | None = None) -> None:
        """The run's decision, reason, rewritten data, context and messages from its
        results, and the warnings of its answers: once, when the hooks are done.

        ``judge_rewrite`` (the executor's: run/rewrite.py) is asked about the
        rewritten data when no hook and nothing of forge's denies: the guards judge what
        will run, not only what was asked, and their deny or ask is the run's (issue 32).
        """
        blocking = [r for r in self.results if r.hook.blocking]
        self.blocked_by = next((r for r in blocking if r.decision == DENY), None)
        patching = [r for r in blocking if r.answer is not None and r.answer.data is not None and r.decision != DENY]
        conflicts: list[str] = []
        if patching:
            self.data, conflicts = _rewrite(self.event.data, patching)
            if judge_rewrite is not None and self.blocked_by is None and not self.denied_by_forge:
                self.rewrite_judged = judge_rewrite(self)
        judged = self.rewrite_judged.results if self.rewrite_judged is not None else []
        self.blocked_by = self.blocked_by or next((r for r in judged if r.decision == DENY), None)
        asking = [r for r in [*blocking, *judged] if r.decision == ASK]
        if self.imposed is not None and self.imposed.reason is not None:  # decided before any hook ran
            self.decision, self.reason = DENY, self.imposed.reason
        elif self.blocked_by is not None:
            self.decision, self.reason = DENY, self.blocked_by.reason
        elif asking:
            self.decision, self.reason = ASK, "\n".join(r.reason for r in asking if r.reason) or None
        self.context = _collected(self.results, "context")
        own = [self.imposed.message] if self.imposed is not None and self.imposed.message else []
        self.messages = own + _collected(self.results, "message")
        self.warnings.extend(_observer_warnings(self.results))
        self.warnings.extend(conflicts)

    def _blocker(self) -> dict[str, Any] | None:
        """``blocked_by`` as the document says it: forge's own deny (its source and reason,
        no index: no hook made it), else the first blocking hook that denied."""
        if self.imposed is not None and self.imposed.reason is not None:
            return {"source": self.imposed.source, "reason": self.imposed.reason}
        blocker = self.blocked_by
        if blocker is None:
            return None
        return {"index": blocker.index, "source": blocker.hook.source, "source_index": blocker.hook.source_index,
                "event": blocker.hook.event_pattern, "description": blocker.hook.description,
                "reason": blocker.reason}

    def to_dict(self) -> dict[str, Any]:
        """The output document of forge-hook-run (DESIGN.md, "Output")."""
        doc: dict[str, Any] = {
            "version": 1,
            "event": self.event.to_dict(),
            "blocked": self.blocked,
            "blocked_by": self._blocker(),
            "decision": self.decision,
            "reason": self.reason,
            **({} if self.data is None else {"data": self.data}),
            **({} if self.rewrite_judged is None else {"rewrite_judged": self.rewrite_judged.to_dict()}),
            "context": self.context,
            "messages": self.messages,
            "results": [r.to_dict() for r in self.results],
            "skipped": self.skipped,
            "warnings": self.warnings,
            "duration": self.duration,
        }
        if self.interrupted is not None:
            doc["interrupted"] = signal_name(-self.interrupted)
        return doc


def _collected(results: Iterable[HookResult], key: str) -> list[str]:
    """Every hook's ``context`` or ``message``, in config order (observers' too)."""
    return [getattr(r.answer, key) for r in results
            if r.answer is not None and getattr(r.answer, key) is not None]


def _rewrite(data: dict[str, Any], patching: Sequence[HookResult]) -> tuple[dict[str, Any], list[str]]:
    """The patches applied in order to ``data`` (never changed), and a warning for each
    key two hooks set differently: the later one wins."""
    out: Any = data
    warnings = []
    set_by: dict[tuple[str, ...], tuple[HookResult, Any]] = {}
    for result in patching:
        patch = result.answer.data if result.answer is not None else None
        assert patch is not None
        for path, value in _leaves(patch):
            for earlier, (other, old) in list(set_by.items()):
                if _overlap(path, earlier) and (path != earlier or old != value) and other is not result:
                    warnings.append(f"hooks {other.index} ({other.hook.event_pattern}) and "
                                    f"{result.index} ({result.hook.event_pattern}) both rewrite "
                                    f"data.{'.'.join(path)}; hook {result.index}'s value is used")
                    del set_by[earlier]
            set_by[path] = (result, value)
        out = merge_patch(out, patch)
    return out, warnings


def _leaves(patch: dict[str, Any], prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    for key, value in patch.items():
        if isinstance(value, dict) and value:
            yield from _leaves(value, (*prefix, key))
        else:
            yield (*prefix, key), value


def _overlap(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """One path is the other or lies under it (``tool_args`` and ``tool_args.command``)."""
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def _observer_warnings(results: Iterable[HookResult]) -> Iterator[str]:
    """An observer's failure, deny or ask is recorded, never obeyed."""
    for r in results:
        if r.hook.blocking:
            continue
        name = f"observer hook {r.index} ({r.hook.event_pattern})"
        if not r.success and r.decision == DENY:
            how = r.error or (f"killed by {r.signal}" if r.signal else f"exit status {r.exit_code}")
            why = one_line(r.reason)
            yield f"{name} failed ({how}){f': {why}' if why and why != how else ''}; observers never block"
        elif r.decision != ALLOW:
            yield f"{name} answered {r.decision}: {one_line(r.reason) or 'no reason given'}; observers never block"
        if r.answer is not None and r.answer.data is not None:
            yield f"{name} answered a data rewrite, which is ignored: observers cannot rewrite"


def dry_run_document(event: HookEvent, hooks: list[Hook], warnings: list[str]) -> dict[str, Any]:
    """What ``forge-hook-run --dry-run`` prints: the hooks that would run, in order."""
    return {
        "version": 1,
        "event": event.to_dict(),
        "dry_run": True,
        "hooks": [{"index": i, "hook": hook_document(h)} for i, h in enumerate(hooks)],
        "warnings": warnings,
    }

