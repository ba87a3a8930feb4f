"""What a run produced: one ``HookResult`` per hook and the ``HookRun`` document.
Plain records with no process machinery, so that a run that matches no hook never
imports it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .events import HookEvent
from .registry import Hook
from .signals import signal_name


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

    @property
    def signal(self) -> str | None:
        """The name of the signal that ended it (``exit_code`` -15: ``"SIGTERM"``)."""
        return signal_name(self.exit_code)

    @property
    def success(self) -> bool:
        return self.exit_code == 0 and not self.timed_out and self.error is None

    @property
    def should_continue(self) -> bool:
        """False when the operation must not proceed: non-zero, timed out, not started."""
        return self.success

    @property
    def reason(self) -> str:
        """Why it blocked: its stdout, else its stderr, else its error, stripped."""
        return (self.stdout.strip() or self.stderr.strip() or (self.error or "").strip())

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
        }


class HookBlockedError(Exception):
    """A hook said the operation must not proceed; the message is its stdout."""

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

    @property
    def blocked_by(self) -> HookResult | None:
        return next((r for r in self.results if not r.should_continue), None)

    @property
    def blocked(self) -> bool:
        return self.blocked_by is not None

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

