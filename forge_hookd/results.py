"""What a run produced: one ``HookResult`` per hook, the ``HookRun`` document, and the
circular-trigger guard. Plain records with no process machinery, so that a run that
matches no hook never imports it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import answers
from .events import HookEvent
from .registry import Hook

if TYPE_CHECKING:
    from .answers import Answer
    from .process import Outcome

#: Event types being handled up the chain of nested runs, comma-separated.
CHAIN_VAR = "FORGE_HOOK_CHAIN"


def signal_name(code: int | None) -> str | None:
    """``-15`` -> ``"SIGTERM"``: the name of the signal a negative exit code stands for."""
    if code is None or code >= 0:
        return None
    import signal

    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"SIG{-code}"


@dataclass
class HookResult:
    """What one hook did. ``exit_code`` is None when it never started; a signal death
    is a negative code plus ``signal`` (``-15``, ``"SIGTERM"``)."""

    hook: Hook
    exit_code: int | None
    stdout: str = ""
    stderr: str = ""
    duration: float = 0.0
    timed_out: bool = False
    error: str | None = None
    signal: str | None = None
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    index: int = 0
    answer: Answer | None = None  # what its stdout answered (answers.py), if anything
    #: the decision a judge read by another protocol's rules; None: forge's rule decides
    decided: str | None = field(default=None, repr=False)

    @property
    def success(self) -> bool:
        return self.exit_code == 0 and not self.timed_out and self.error is None

    @property
    def decision(self) -> str:
        """``allow``, ``deny`` or ``ask``: a failure denies, else its answer decides."""
        return answers.decision_of(self)

    @property
    def should_continue(self) -> bool:
        """False when the operation must not proceed unasked: a blocking hook that did not
        allow (it failed, timed out, did not start, denied or asks). Observers always go on."""
        return not self.hook.blocking or self.decision == answers.ALLOW

    @property
    def reason(self) -> str:
        """Why: its answer's reason; else its error (it timed out, did not start, answered
        malformed); else its stdout (unless that was its answer), else its stderr. Stripped."""
        if self.answer is not None:
            return (self.answer.reason or "").strip() or self.stderr.strip()
        return ((self.error or "").strip() or self.stdout.strip() or self.stderr.strip())

    @classmethod
    def from_outcome(cls, hook: Hook, index: int, outcome: Outcome) -> HookResult:
        """The result of a process :class:`~forge_hookd.process.Outcome`."""
        return cls(
            hook=hook,
            index=index,
            exit_code=outcome.exit_code,
            signal=outcome.signal,
            stdout=outcome.stdout.decode("utf-8", errors="replace"),
            stderr=outcome.stderr.decode("utf-8", errors="replace"),
            stdout_truncated=outcome.stdout_truncated,
            stderr_truncated=outcome.stderr_truncated,
            duration=outcome.duration,
            timed_out=outcome.timed_out,
            error=outcome.error,
        )

    def to_dict(self) -> dict[str, Any]:
        hook = self.hook.to_dict()
        if self.hook.source is not None:
            hook["source"] = self.hook.source
        return {
            "index": self.index,
            "hook": hook,
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
            "answer": None if self.answer is None else self.answer.to_dict(),
        }


class HookBlockedError(Exception):
    """A hook said the operation must not proceed (or asks, and nobody said yes); the
    message is its reason."""

    def __init__(self, result: HookResult) -> None:
        super().__init__(result.reason or f"blocked by hook '{result.hook.event_pattern}'")
        self.result = result


@dataclass
class HookRun:
    """Everything one event's run produced, in config order."""

    event: HookEvent
    results: list[HookResult] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    duration: float = 0.0
    interrupted: int | None = None  # the signal number that interrupted the run
    data: dict[str, Any] | None = None  # the event's data as the hooks rewrote it, if they did

    @property
    def blocked_by(self) -> HookResult | None:
        """The first blocking hook that denied."""
        return next((r for r in self.results if answers.blocks(r)), None)

    @property
    def blocked(self) -> bool:
        return self.blocked_by is not None

    @property
    def decision(self) -> str:
        """deny if a blocking hook denied, else ask if one asks, else allow."""
        return answers.run_decision(self.results)

    @property
    def reason(self) -> str | None:
        """The denying hook's reason; for ask the asking hooks' reasons, one per line."""
        return answers.run_reason(self.results)

    @property
    def context(self) -> list[str]:
        """Every hook's ``context`` for the agent's model, in config order."""
        return answers.collected(self.results, "context")

    @property
    def messages(self) -> list[str]:
        """Every hook's ``message`` for the person at the agent, in config order."""
        return answers.collected(self.results, "message")

    def to_dict(self) -> dict[str, Any]:
        """The output document of forge-hook-run (DESIGN.md, "Output")."""
        blocker = self.blocked_by
        doc: dict[str, Any] = {
            "version": 1,
            "event": self.event.to_dict(),
            "blocked": blocker is not None,
            "blocked_by": None if blocker is None else {
                "index": blocker.index,
                "event": blocker.hook.event_pattern,
                "description": blocker.hook.description,
                "reason": blocker.reason,
            },
            "decision": self.decision,
            "reason": self.reason,
            **({} if self.data is None else {"data": self.data}),
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


def dry_run_document(event: HookEvent, hooks: list[Hook], warnings: list[str]) -> dict[str, Any]:
    """What ``forge-hook-run --dry-run`` prints: the hooks that would run, in order."""
    return {
        "version": 1,
        "event": event.to_dict(),
        "dry_run": True,
        "hooks": [{"index": i, "hook": {**h.to_dict(), "source": h.source}} for i, h in enumerate(hooks)],
        "warnings": warnings,
    }


def active_chain() -> list[str]:
    """Event types being handled by runs up the process chain."""
    return [t for t in os.environ.get(CHAIN_VAR, "").split(",") if t]
