"""What a run produced: one ``HookResult`` per hook and the ``HookRun`` document.
Plain records with no process machinery, so that a run that matches no hook never
imports it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import answers
from .events import HookEvent
from .registry import Hook
from .signals import signal_name

if TYPE_CHECKING:
    from .answers import Answer

__all__ = ["HookBlockedError", "HookResult", "HookRun", "describe_hook", "dry_run_document", "hook_document"]


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
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    index: int = 0
    answer: Answer | None = None  # what its stdout answered (answers.py), if anything
    #: the decision a judge read by another protocol's rules; None: forge's rule decides
    decided: str | None = field(default=None, repr=False)

    @property
    def signal(self) -> str | None:
        """The name of the signal that ended it (``exit_code`` -15: ``"SIGTERM"``)."""
        return signal_name(self.exit_code)

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
        """Why, stripped: its answer's reason; else its error (it timed out, was killed or
        never started, or answered malformed: what it printed before says nothing of why
        it stopped); else, for a signal death, the signal; else its stdout, else its stderr."""
        if self.answer is not None:
            return (self.answer.reason or "").strip() or self.stderr.strip()
        if self.error:
            return self.error.strip()
        if self.exit_code is not None and self.exit_code < 0:
            return f"killed by {self.signal}"
        return self.stdout.strip() or self.stderr.strip()

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
            "answer": None if self.answer is None else self.answer.to_dict(),
        }


def hook_document(hook: Hook) -> dict[str, Any]:
    """A hook as the output document shows it: its config entry, where it came from
    (``source``) and its place in that file (``source_index``, what ``forge-hook
    enable/disable`` take)."""
    return {**hook.to_dict(), "source": hook.source, "source_index": hook.source_index}


def describe_hook(hook: Hook, index: int) -> str:
    """``project hook 0``: the words ``forge-hook list`` uses for the hook, else its
    place in this run."""
    if hook.source_index is None:
        return f"hook {index}"
    return f"{hook.source or 'unknown'} hook {hook.source_index}"


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
                "source": blocker.hook.source,
                "source_index": blocker.hook.source_index,
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
        "hooks": [{"index": i, "hook": hook_document(h)} for i, h in enumerate(hooks)],
        "warnings": warnings,
    }

