"""Running the hooks an event matches: the chain, the circular guard, the async API.

Process control (process.py, tree.py: subprocess, selectors, psutil) is imported only
when a hook actually runs: an event that matches nothing costs no more than reading the
config (subprocess and selectors 17 ms, psutil 16 ms: bench/README.md, "tricks.py").
A built-in guard (guards/) is judged in this process, where it would have started, so a
chain of guards only loads no process machinery at all.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from forge_hookd import answers, dialects
from forge_hookd.run.nesting import chain_value, circular, live_value
from forge_hookd.events import (CHAIN_VAR, CONVENTIONAL_VARS, DATA_VARS_VAR, PROJECT_DIR_VAR, REFUSABLE_TYPES, RESERVED_ENV,
                     WORKING_DIR_VAR, HookEvent, is_event_var)
from forge_hookd.registry import DEFAULT_TIMEOUT, Hook, HookRegistry, clamp_timeout
from forge_hookd.results import HookBlockedError, HookResult, HookRun, Imposed
from forge_hookd.run.signals import Interrupted

if TYPE_CHECKING:
    from forge_hookd.run.deadline import Deadline
    from forge_hookd.run.guardhook import EventJudge
    from forge_hookd.run.missing import MissingScripts
    from forge_hookd.run.rewrite import RewriteJudged
    from forge_hookd.run.process import Spec
    from forge_hookd.run.signals import SignalCatcher

__all__ = ["CHAIN_VAR", "HookBlockedError", "HookExecutor", "HookResult", "HookRun", "fire_event"]


class HookExecutor:
    """Runs the hooks of a registry for an event.

    Each hook is ``/bin/sh -c COMMAND`` in its own session, with the caller's
    environment, the event's ``FORGE_*`` variables and the hook's ``env``; the event JSON
    on stdin, then EOF. Output is captured up to ``output_limit`` bytes (1 MiB) per stream
    and 16 MiB across the run (the rest is read and dropped) and decoded as UTF-8 with replacement. A timeout ends
    the whole tree: SIGTERM to the group and every descendant, ``kill_grace`` seconds (1),
    SIGKILL. What a hook leaves running when it exits is ended too, unless it says
    ``detach``. ``default_timeout`` applies to hooks that set no timeout of their own.

    A hook sees only its own event's variables: the event variables it would inherit
    from an outer run are removed, and its own ``env`` cannot set any of them.

    A hook's stdout may hold an answer (deny, ask, a rewrite of the event's data,
    context): :mod:`forge_hookd.answers` reads it and composes the run's decision. The
    chain stops at the first blocking hook that denies; an ask or an observer
    (``blocking=False``) never stops it. A rewrite of the tool input is judged again by
    the run's built-in guards before the run concludes (run/rewrite.py).

    ``subreaper=True`` makes this process the Linux child subreaper so that
    double-forked and ``setsid`` leftovers stay findable; set it only in a process that
    exists to run hooks (as forge-hook-run does). ``on_start(index, hook)`` and
    ``on_end(result)``, when set, are told of each hook as it starts and as its result
    is made, in the order that happens (``--trace`` narrates the run as it goes).
    """

    on_start: Callable[[int, Hook], None] | None = None
    on_end: Callable[[HookResult], None] | None = None

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
        import asyncio  # 25+ ms, only for the async API (bench/README.md, "tricks.py")

        run = await asyncio.to_thread(self.run, event, stop_on_failure=stop_on_failure, jobs=jobs)
        return run.results

    def run(
        self,
        event: HookEvent,
        *,
        stop_on_failure: bool = True,
        jobs: int = 1,
        hooks: Sequence[Hook] | None = None,
        catcher: SignalCatcher | None = None,
        warnings: list[str] | None = None,
        imposed: Imposed | None = None,
        deadline: Deadline | None = None,
    ) -> HookRun:
        """Run ``hooks`` (default: the registry's matches) in order; never raises for a
        hook's failure. With ``jobs > 1`` up to that many run at once (fewer when the
        descriptor limit says so) and every one runs. A signal recorded by ``catcher``
        ends every running tree and returns what finished. ``warnings``, when given, is
        the list the run's warnings go on (the caller's, with what it found before).
        ``imposed`` is forge's own word on the run (a deny, a message), concluded with
        the hooks' (results.py). ``deadline``, the agent's limit (deadline.py): no hook
        starts after it, a running one is ended at it as on its timeout, and the run is
        settled as the limit says (forge's deny, or proceed with a warning).
        """
        started = time.monotonic()
        if catcher is not None:  # from here on a signal ends the running hooks (signals.py)
            catcher.deferred = True
        run = HookRun(event=event, warnings=warnings if warnings is not None else [], imposed=imposed)
        if circular(event.type.value, event.session_id):
            run.warnings.append(
                f"circular trigger: '{event.type.value}' is already being handled for this session "
                f"up the chain ({live_value()}); no hooks run")
        else:
            matched = list(hooks) if hooks is not None else self.registry.get_hooks(event)
            run.warnings += event.env_conflicts() if matched else []
            cut, unstarted = self._run_chain(run, matched, stop_on_failure=stop_on_failure and jobs <= 1,
                                             jobs=max(1, jobs), catcher=catcher, deadline=deadline)
            if deadline is not None:
                deadline.settle(run, matched, cut, unstarted)
        run.conclude(judge_rewrite=self._judge_rewrite)
        run.duration = round(time.monotonic() - started, 6)
        return run

    def _run_chain(
        self, run: HookRun, hooks: list[Hook], *, stop_on_failure: bool, jobs: int,
        catcher: SignalCatcher | None, deadline: Deadline | None,
    ) -> tuple[list[int], list[int]]:
        """Run the chain; the indexes of the hooks the deadline ended and of those it
        kept from starting."""
        if not hooks:
            return [], []
        if all(h.guard is not None for h in hooks):  # nothing to spawn: no process machinery
            return [], self._judge_guards(run, hooks, stop_on_failure=stop_on_failure, catcher=catcher,
                                          deadline=deadline)
        from forge_hookd.run.missing import MissingScripts
        from forge_hookd.run.process import HookProcesses  # only now: see the module docstring
        from forge_hookd.run.tree import become_subreaper

        if self.subreaper:
            become_subreaper()
        results: dict[int, HookResult] = {}
        pending = iter(enumerate(hooks))
        next_hook = next(pending, None)
        stdin = run.event.to_json_bytes()
        base_env, event_vars = self._base_env(run.event)
        formatted = {name: self._formatted(name, run.event) for name in {h.format for h in hooks} if name}
        stopped = False  # a hook said stop and the chain stops on failure
        missing = MissingScripts(run.event, self.project_dir)
        judge: EventJudge | None = None  # made at the first guard entry

        def reader_for(hook: Hook) -> answers.ResultReader:
            return _reader_for(hook, run.event, missing, self._cwd(hook))

        signalled = catcher.received if catcher is not None else []
        late = False  # the deadline kept a hook from starting

        def too_late() -> bool:
            nonlocal late
            late = late or (deadline is not None and deadline.passed())
            return late

        with HookProcesses(output_limit=self.output_limit, kill_grace=self.kill_grace, catcher=catcher,
                           deadline=deadline.at if deadline is not None else None) as processes:
            # Each running hook holds descriptors: past the limit, more would fail to start.
            jobs = min(jobs, processes.capacity)
            try:
                while (next_hook and not stopped and not signalled and not too_late()) or processes.running:
                    while next_hook and not stopped and not signalled and not too_late() \
                            and len(processes.running) < jobs:
                        index, hook = next_hook
                        next_hook = next(pending, None)
                        if self.on_start is not None:
                            self.on_start(index, hook)
                        if hook.guard is not None:  # judged here and now, holding no job slot
                            judge = judge or self._event_judge(run.event)
                            results[index] = self._ended(judge.result(hook, index=index))
                            stopped = stop_on_failure and results[index].blocks
                            continue
                        failed = processes.start(index, self._spec(hook, base_env, stdin, event_vars, formatted))
                        if failed is not None:
                            results[index] = self._ended(failed.read_by(reader_for(hook)))
                            stopped = stop_on_failure and results[index].blocks
                    for done in processes.wait():
                        result = results[done.index] = self._ended(done.read_by(reader_for(done.hook)))
                        stopped = stopped or (stop_on_failure and result.blocks)
            except Interrupted as exc:
                run.interrupted = exc.signum
                for done in processes.close():
                    done.error = f"interrupted: the runner received {exc}"
                    results[done.index] = self._ended(done.read_by(reader_for(done.hook)))
        run.results = [results[i] for i in sorted(results)]
        run.skipped = [i for i in range(len(hooks)) if i not in results]
        if signalled and run.interrupted is None:
            run.interrupted = signalled[0]
        cut = sorted(processes.cut)
        return cut, (run.skipped if late or cut else [])

    def _judge_guards(self, run: HookRun, hooks: list[Hook], *, stop_on_failure: bool,
                      catcher: SignalCatcher | None, deadline: Deadline | None) -> list[int]:
        """A chain of built-in guards only, judged in config order in this process: no
        process module, no subreaper, no spawn (bench/README.md, "Built-in guards").
        The guards the deadline kept from being judged are returned."""
        signalled = catcher.received if catcher is not None else []
        judge = self._event_judge(run.event)
        for index, hook in enumerate(hooks):
            if signalled:
                break
            if deadline is not None and deadline.passed():
                run.skipped = list(range(index, len(hooks)))
                return run.skipped
            if self.on_start is not None:
                self.on_start(index, hook)
            run.results.append(self._ended(judge.result(hook, index=index)))
            if stop_on_failure and run.results[-1].blocks:
                break
        run.skipped = list(range(len(run.results), len(hooks)))
        if signalled:
            run.interrupted = signalled[0]
        return []

    def _event_judge(self, event: HookEvent) -> EventJudge:
        # The parser and the twelve guards: 7.2 ms, paid only by a run with a guard entry
        # (bench/README.md, "Built-in guards: a whole run").
        from forge_hookd.run.guardhook import EventJudge

        return EventJudge(event, project_root=self.project_dir, env=os.environ)

    def _judge_rewrite(self, run: HookRun) -> RewriteJudged | None:
        """The run's guards on the tool input its hooks rewrote (run/rewrite.py): asked
        only when a hook rewrote the event's data, and loading nothing more for a run
        with no guard entry (bench/README.md, "Rewrites judged")."""
        if not any(r.hook.guard is not None for r in run.results):
            return None
        from forge_hookd.run.rewrite import judge_rewrite

        return judge_rewrite(run, project_root=self.project_dir, env=os.environ)

    def _ended(self, result: HookResult) -> HookResult:
        if self.on_end is not None:
            self.on_end(result)
        return result

    # The environment is built and encoded once per run, not once per hook: Popen would
    # otherwise encode every variable again for each spawn.
    def _base_env(self, event: HookEvent) -> tuple[dict[bytes, bytes], frozenset[str]]:
        """The caller's environment without any event variable it inherited (an outer
        run's, say), plus this event's; and the names of this event's variables."""
        event_env = event.to_env()
        data_vars = [n for n in event_env if n not in RESERVED_ENV]
        chain = chain_value(event.type.value, event.session_id)
        own = {**event_env, PROJECT_DIR_VAR: self.project_dir, CHAIN_VAR: chain, DATA_VARS_VAR: ",".join(data_vars)}
        stale = _inherited_event_vars()
        env = {k: v for k, v in os.environb.items() if k not in stale}
        env.update(_encoded(own))
        return env, frozenset(own)

    def _formatted(self, name: str, event: HookEvent) -> tuple[bytes, dict[bytes, bytes]]:
        """The payload and variables a hook written for agent ``name`` gets: built once
        per run and format, however many such hooks run."""
        hooks = dialects.get(name).hooks
        return hooks.stdin(event, self.project_dir), _encoded(hooks.env(event, self.project_dir))

    def _cwd(self, hook: Hook) -> str:
        return os.path.join(self.working_dir, hook.working_dir) if hook.working_dir else self.working_dir

    def _spec(self, hook: Hook, base_env: dict[bytes, bytes], stdin: bytes, event_vars: frozenset[str],
              formatted: dict[str, tuple[bytes, dict[bytes, bytes]]]) -> Spec:
        from forge_hookd.run.process import Spec

        cwd = self._cwd(hook)
        env = dict(base_env)
        if hook.format is not None:  # a hook written for another agent gets its payload
            stdin, native_env = formatted[hook.format]
            env.update(native_env)
        # A hook's own env cannot fake the event it handles: event names are not its to set.
        env.update(_encoded({k: v for k, v in hook.env.items() if not is_event_var(k) and k not in event_vars}))
        env[WORKING_DIR_VAR.encode()] = os.fsencode(os.path.abspath(cwd))
        if hook.source == "project":
            # Running a hook never changes what trust covers: a Python helper under .forge/
            # would leave __pycache__/*.pyc there, a new file, and the next event would find
            # the project changed (issue 19 item 1). Global hooks are the user's own.
            env[b"PYTHONDONTWRITEBYTECODE"] = b"1"
        timeout = hook.timeout if hook.timeout_set else self.default_timeout
        return Spec(hook, cwd, env, stdin, timeout)


def _reader_for(hook: Hook, event: HookEvent, missing: MissingScripts, cwd: str) -> answers.ResultReader:
    """The result reader of ``hook``'s outcome: forge's own for every forge hook, the
    agent's rules for a hook with a ``format`` (dialects/, with the entry's ``fail_closed``);
    for a blocking hook that ran to its end, first the missing-script rule (missing.py),
    whatever its exit status. A format hook whose script is gone on a stop or a
    compaction does not keep the agent working (it broke, as one that cannot start: the
    format's reader lets the agent stop there too), and says so."""
    reader = dialects.get(hook.format).hooks.result_reader(event, fail_closed=hook.fail_closed) \
        if hook.format is not None else answers.read_result
    if not hook.blocking or hook.guard is not None:
        return reader
    broken_lets_stop = hook.format is not None and event.type.value in REFUSABLE_TYPES

    def read(result: answers.Finished) -> answers.Judgement:
        finished = result.error is None and not result.timed_out
        gone = missing.check(hook, result, cwd) if finished else None
        if gone and broken_lets_stop:
            said = f"a {hook.format} hook failed ({gone}): it does not keep the agent working"
            return answers.Judgement(answers.Answer(message=said), None, answers.ALLOW)
        return answers.Judgement(None, gone, answers.DENY) if gone else reader(result)

    return read


def _inherited_event_vars() -> frozenset[bytes]:
    """The event variables of this process's environment, which an outer run set: the
    fixed and conventional ones, and the data variables it listed in FORGE_HOOK_VARS."""
    listed = os.environ.get(DATA_VARS_VAR, "").split(",")
    names = {*RESERVED_ENV, *CONVENTIONAL_VARS, *(n for n in listed if n.startswith("FORGE_"))}
    return frozenset(n.encode() for n in names)


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
    :class:`~forge_hookd.toolexecutor.ToolExecutor` does)."""
    return await (executor or HookExecutor()).execute_hooks(event, stop_on_failure=stop_on_failure)
