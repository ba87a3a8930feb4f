"""Running the hooks an event matches: results, the chain, the circular guard."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .events import HookEvent
from .process import (
    DEFAULT_KILL_GRACE,
    DEFAULT_OUTPUT_LIMIT,
    Interrupted,
    Outcome,
    ProcessPool,
    Spec,
    become_subreaper,
    signal_name,
)
from .registry import DEFAULT_TIMEOUT, Hook, HookRegistry, clamp_timeout

#: Event types being handled up the chain of nested runs, comma-separated.
CHAIN_VAR = "FORGE_HOOK_CHAIN"


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
        """Why it blocked: its stdout, else its stderr, else its error, stripped."""
        return (self.stdout.strip() or self.stderr.strip() or (self.error or "").strip())

    @classmethod
    def from_outcome(cls, hook: Hook, index: int, outcome: Outcome) -> HookResult:
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
            error=outcome.error or (f"timed out after {hook.timeout:g}s" if outcome.timed_out else None),
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


def active_chain() -> list[str]:
    """Event types being handled by runs up the process chain."""
    return [t for t in os.environ.get(CHAIN_VAR, "").split(",") if t]


class HookExecutor:
    """Runs the hooks of a registry for an event.

    Each hook is ``/bin/sh -c COMMAND`` in its own session, with the caller's
    environment, the event's ``FORGE_*`` variables and the hook's ``env``; the event JSON
    on stdin, then EOF. Output is captured up to ``output_limit`` bytes per stream
    (the rest is read and dropped) and decoded as UTF-8 with replacement. A timeout ends
    the whole tree: SIGTERM to the group and every descendant, ``kill_grace`` seconds,
    SIGKILL. What a hook leaves running when it exits is ended too, unless it says
    ``detach``. ``default_timeout`` replaces the 10 s default for hooks that keep it.

    ``subreaper=True`` makes this process the Linux child subreaper so that
    double-forked and ``setsid`` leftovers stay findable; set it only in a process that
    exists to run hooks (as forge-hook-run does).
    """

    def __init__(
        self,
        registry: HookRegistry | None = None,
        default_timeout: float = DEFAULT_TIMEOUT,
        working_dir: str | os.PathLike[str] | None = None,
        *,
        project_dir: str | os.PathLike[str] | None = None,
        output_limit: int = DEFAULT_OUTPUT_LIMIT,
        kill_grace: float = DEFAULT_KILL_GRACE,
        subreaper: bool = False,
    ) -> None:
        self.registry = registry if registry is not None else HookRegistry.get_instance()
        self.default_timeout = clamp_timeout(default_timeout)
        self.project_dir = os.path.abspath(project_dir or working_dir or os.getcwd())
        self.working_dir = os.path.abspath(working_dir or self.project_dir)
        self.output_limit = output_limit
        self.kill_grace = kill_grace
        if subreaper:
            become_subreaper()

    async def execute_hooks(
        self, event: HookEvent, *, stop_on_failure: bool = True, jobs: int = 1
    ) -> list[HookResult]:
        """Run the matching hooks (in a worker thread) and return their results."""
        import asyncio

        run = await asyncio.to_thread(self.run, event, stop_on_failure=stop_on_failure, jobs=jobs)
        return run.results

    def run(
        self,
        event: HookEvent,
        *,
        stop_on_failure: bool = True,
        jobs: int = 1,
        hooks: Sequence[Hook] | None = None,
        signals: list[int] | None = None,
        wakeup_fd: int | None = None,
    ) -> HookRun:
        """Run ``hooks`` (default: the registry's matches) in order; never raises for a
        hook's failure. With ``jobs > 1`` up to that many run at once and every one runs.
        ``signals``/``wakeup_fd`` come from a :class:`~forge_hookd.process.SignalCatcher`:
        a signal recorded there ends every running tree and returns what finished.
        """
        started = time.monotonic()
        run = HookRun(event=event)
        if event.type.value in active_chain():
            run.warnings.append(
                f"circular trigger: '{event.type.value}' is already being handled "
                f"up the chain ({os.environ.get(CHAIN_VAR)}); no hooks run")
        else:
            matched = list(hooks) if hooks is not None else self.registry.get_hooks(event)
            self._run_chain(run, matched, stop_on_failure=stop_on_failure and jobs <= 1,
                            jobs=max(1, jobs), signals=signals, wakeup_fd=wakeup_fd)
        run.duration = round(time.monotonic() - started, 6)
        return run

    def _run_chain(
        self, run: HookRun, hooks: list[Hook], *, stop_on_failure: bool, jobs: int,
        signals: list[int] | None, wakeup_fd: int | None,
    ) -> None:
        results: dict[int, HookResult] = {}
        queue = list(enumerate(hooks))
        stdin = run.event.to_json_bytes()
        base_env = self._base_env(run.event)
        with ProcessPool(output_limit=self.output_limit, kill_grace=self.kill_grace,
                         wakeup_fd=wakeup_fd, pending_signal=signals) as pool:
            try:
                while (queue and not signals) or pool.running:
                    while queue and len(pool.running) < jobs and not signals:
                        index, hook = queue.pop(0)
                        failed = pool.start(index, self._spec(hook, base_env, stdin))
                        if failed is not None:
                            results[index] = HookResult.from_outcome(hook, index, failed)
                        if failed is not None and stop_on_failure:
                            break
                    for index, outcome in pool.wait():
                        results[index] = HookResult.from_outcome(hooks[index], index, outcome)
                    if stop_on_failure and any(not r.should_continue for r in results.values()):
                        break
            except Interrupted as exc:
                run.interrupted = exc.signum
                for index, outcome in pool.close():
                    outcome.error = f"interrupted: the runner received {exc}"
                    results[index] = HookResult.from_outcome(hooks[index], index, outcome)
        run.results = [results[i] for i in sorted(results)]
        run.skipped = [i for i in range(len(hooks)) if i not in results]
        if signals and run.interrupted is None:
            run.interrupted = signals[0]

    def _base_env(self, event: HookEvent) -> dict[str, str]:
        env = dict(os.environ)
        env.update(event.to_env())
        env[CHAIN_VAR] = ",".join([*active_chain(), event.type.value])
        env["FORGE_PROJECT_DIR"] = self.project_dir
        return env

    def _spec(self, hook: Hook, base_env: dict[str, str], stdin: bytes) -> Spec:
        cwd = os.path.join(self.working_dir, hook.working_dir) if hook.working_dir else self.working_dir
        env = {**base_env, **hook.env}
        for name in ("FORGE_EVENT", "FORGE_TIMESTAMP", "FORGE_SESSION_ID", "FORGE_TOOL_NAME",
                     "FORGE_PROJECT_DIR", CHAIN_VAR):
            if name in base_env:  # a hook's own env cannot fake the event it handles
                env[name] = base_env[name]
        env["FORGE_WORKING_DIR"] = os.path.abspath(cwd)
        timeout = self.default_timeout if hook.timeout == DEFAULT_TIMEOUT else hook.timeout
        return Spec(command=hook.command, cwd=cwd, env=env, stdin=stdin, timeout=timeout,
                    detach=hook.detach)


async def fire_event(
    event: HookEvent, *, executor: HookExecutor | None = None, stop_on_failure: bool = True
) -> list[HookResult]:
    """Run the hooks for ``event``; raise HookBlockedError when one says stop."""
    results = await (executor or HookExecutor()).execute_hooks(event, stop_on_failure=stop_on_failure)
    blocker = next((r for r in results if not r.should_continue), None)
    if blocker is not None:
        raise HookBlockedError(blocker)
    return results
