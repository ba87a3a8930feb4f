"""Running the hooks an event matches: the chain, the circular guard, the async API.

Process control (subprocess, signals, psutil) is imported only when a hook actually
runs: an event that matches nothing costs no more than reading the config (issue 5).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .answers import blocks, conclude, judge_for
from .events import HookEvent
from .registry import DEFAULT_TIMEOUT, Hook, HookRegistry, clamp_timeout
from .results import CHAIN_VAR, HookBlockedError, HookResult, HookRun, active_chain

if TYPE_CHECKING:
    from .process import Outcome, Spec

__all__ = ["CHAIN_VAR", "HookBlockedError", "HookExecutor", "HookResult", "HookRun", "fire_event"]


class HookExecutor:
    """Runs the hooks of a registry for an event.

    Each hook is ``/bin/sh -c COMMAND`` in its own session, with the caller's
    environment, the event's ``FORGE_*`` variables and the hook's ``env``; the event JSON
    on stdin, then EOF. Output is captured up to ``output_limit`` bytes (1 MiB) per stream
    (the rest is read and dropped) and decoded as UTF-8 with replacement. A timeout ends
    the whole tree: SIGTERM to the group and every descendant, ``kill_grace`` seconds (1),
    SIGKILL. What a hook leaves running when it exits is ended too, unless it says
    ``detach``. ``default_timeout`` replaces the 10 s default for hooks that keep it.

    A hook's stdout may hold an answer (deny, ask, a rewrite of the event's data,
    context): :mod:`forge_hookd.answers` reads it and composes the run's decision. The
    chain stops at the first blocking hook that denies; an ask or an observer
    (``blocking=False``) never stops it.

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
        output_limit: int | None = None,
        kill_grace: float | None = None,
        subreaper: bool = False,
    ) -> None:
        self.registry = registry if registry is not None else HookRegistry.get_instance()
        self.default_timeout = clamp_timeout(default_timeout)
        self.project_dir = os.path.abspath(project_dir or working_dir or os.getcwd())
        self.working_dir = os.path.abspath(working_dir or self.project_dir)
        self.output_limit = output_limit
        self.kill_grace = kill_grace
        self.subreaper = subreaper

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
        ``signals``/``wakeup_fd`` come from a :class:`~forge_hookd.signals.SignalCatcher`:
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
            conclude(run)
        run.duration = round(time.monotonic() - started, 6)
        return run

    def _run_chain(
        self, run: HookRun, hooks: list[Hook], *, stop_on_failure: bool, jobs: int,
        signals: list[int] | None, wakeup_fd: int | None,
    ) -> None:
        if not hooks:
            return
        from .process import ProcessPool
        from .tree import become_subreaper
        from .signals import Interrupted

        if self.subreaper:
            become_subreaper()
        results: dict[int, HookResult] = {}
        pending = iter(enumerate(hooks))
        next_hook = next(pending, None)
        stdin = run.event.to_json_bytes()
        base_env = self._base_env(run.event)
        stopped = False  # a hook said stop and the chain stops on failure
        with ProcessPool(output_limit=self.output_limit, kill_grace=self.kill_grace,
                         wakeup_fd=wakeup_fd, pending_signal=signals) as pool:
            try:
                while (next_hook and not stopped and not signals) or pool.running:
                    while next_hook and not stopped and not signals and len(pool.running) < jobs:
                        index, hook = next_hook
                        next_hook = next(pending, None)
                        failed = pool.start(index, self._spec(hook, base_env, stdin, run.event))
                        if failed is not None:
                            results[index] = result = _judged(hook, index, failed, run.event)
                            stopped = stop_on_failure and blocks(result)
                    for index, outcome in pool.wait():
                        results[index] = result = _judged(hooks[index], index, outcome, run.event)
                        stopped = stopped or (stop_on_failure and blocks(result))
            except Interrupted as exc:
                run.interrupted = exc.signum
                for index, outcome in pool.close():
                    outcome.error = f"interrupted: the runner received {exc}"
                    results[index] = _judged(hooks[index], index, outcome, run.event)
        run.results = [results[i] for i in sorted(results)]
        run.skipped = [i for i in range(len(hooks)) if i not in results]
        if signals and run.interrupted is None:
            run.interrupted = signals[0]

    # The environment is built and encoded once per run, not once per hook: Popen would
    # otherwise encode every variable again for each spawn (issue 5).
    def _base_env(self, event: HookEvent) -> dict[bytes, bytes]:
        env = dict(os.environb)
        env.update(_encoded(event.to_env()))
        env.update(_encoded({CHAIN_VAR: ",".join([*active_chain(), event.type.value]),
                             "FORGE_PROJECT_DIR": self.project_dir}))
        return env

    def _spec(self, hook: Hook, base_env: dict[bytes, bytes], stdin: bytes, event: HookEvent) -> Spec:
        from .process import Spec

        cwd = os.path.join(self.working_dir, hook.working_dir) if hook.working_dir else self.working_dir
        env = {**base_env, **_encoded(hook.env)} if hook.env else dict(base_env)
        if hook.format is not None:  # a hook written for another agent gets its payload
            from .dialects import get

            speaker = get(hook.format)
            stdin = speaker.hook_stdin(event, self.project_dir)
            env = {**base_env, **_encoded(speaker.hook_env(event, self.project_dir)), **_encoded(hook.env)}
        for name in _PROTECTED:
            if name in base_env:  # a hook's own env cannot fake the event it handles
                env[name] = base_env[name]
        env[b"FORGE_WORKING_DIR"] = os.fsencode(os.path.abspath(cwd))
        timeout = self.default_timeout if hook.timeout == DEFAULT_TIMEOUT else hook.timeout
        return Spec(command=hook.command, cwd=cwd, env=env, stdin=stdin, timeout=timeout,
                    detach=hook.detach)


def _judged(hook: Hook, index: int, outcome: Outcome, event: HookEvent) -> HookResult:
    """The result of a finished hook with its answer read by the hook's judge."""
    result = HookResult.from_outcome(hook, index, outcome)
    result.answer, error, result.decided = judge_for(hook, event)(result)
    if error is not None:
        result.error = error
    return result


_PROTECTED = tuple(n.encode() for n in ("FORGE_EVENT", "FORGE_TIMESTAMP", "FORGE_SESSION_ID",
                                         "FORGE_TOOL_NAME", "FORGE_PROJECT_DIR", CHAIN_VAR))


def _encoded(env: dict[str, str]) -> dict[bytes, bytes]:
    return {_env_bytes(k): _env_bytes(v) for k, v in env.items()}


def _env_bytes(text: str) -> bytes:
    try:
        return os.fsencode(text)
    except UnicodeEncodeError:  # a lone surrogate from a library caller's event
        return text.encode("utf-8", "replace")


async def fire_event(
    event: HookEvent, *, executor: HookExecutor | None = None, stop_on_failure: bool = True
) -> list[HookResult]:
    """Run the hooks for ``event`` and return their results, as the seed shows: the
    caller checks ``should_continue`` and raises :class:`HookBlockedError` itself (a
    :class:`~forge_hookd.integration.ToolExecutor` does)."""
    return await (executor or HookExecutor()).execute_hooks(event, stop_on_failure=stop_on_failure)
