"""What a run produced: one ``HookResult`` per hook, the ``HookRun`` document, and the
circular-trigger guard. Plain records with no process machinery, so that a run that
matches no hook never imports it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .chain import active_chain
from .events import CHAIN_VAR, HookEvent
from .registry import Hook

if TYPE_CHECKING:
    from .process import Outcome

__all__ = ["CHAIN_VAR", "HookBlockedError", "HookResult", "HookRun", "active_chain", "describe_hook",
           "dry_run_document", "hook_document", "signal_name"]


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

    @property
    def success(self) -> bool:
        return self.exit_code == 0 and not self.timed_out and self.error is None

    @property
    def should_continue(self) -> bool:
        """False when the operation must not proceed: non-zero, timed out, not started."""
        return self.success

    @property
    def reason(self) -> str:
        """Why it blocked, stripped: for a hook that timed out, was killed or never
        started, its error (what it printed before says nothing of why it stopped);
        else its stdout, else its stderr, else its error."""
        if self.error and (self.timed_out or self.exit_code is None or self.exit_code < 0):
            return self.error.strip()
        if self.exit_code is not None and self.exit_code < 0:
            return f"killed by {self.signal or signal_name(self.exit_code)}"
        return self.stdout.strip() or self.stderr.strip() or (self.error or "").strip()

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
                "source": blocker.hook.source,
                "source_index": blocker.hook.source_index,
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
        "hooks": [{"index": i, "hook": hook_document(h)} for i, h in enumerate(hooks)],
        "warnings": warnings,
    }
