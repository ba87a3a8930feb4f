"""What the executor calls for a hook entry with a ``guard``: the guard judges the event
in-process and the result is a hook answer (answers.Answer), in microseconds, made into
the hook's :class:`~forge_hookd.results.HookResult` by :meth:`EventJudge.result` (one
judge an event)."""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping
from typing import Any

import orjson

from forge_hookd.answers import Answer
from forge_hookd.events import HookEvent
from forge_hookd.registry import Hook
from forge_hookd.results import HookResult
from forge_hookd.guards import ALLOW, Context, Guard, make, options_key, problems
from forge_hookd.guards.base import CANONICAL_TOOLS
NO_ANSWER = Answer()


def judge_hook(hook: Hook, event: HookEvent, *, project_root: str, env: Mapping[str, str]) -> Answer:
    """The answer of ``hook``'s guard on ``event``: ``deny`` or ``ask`` with the guard's
    reason, or no answer at all when it finds nothing (never an explicit allow: in some
    agents an allow skips the person's own permission prompt). A guard entry that does
    not validate (an unknown guard, a bad option) denies, naming the problem: a typo
    never switches a guard off. ``env`` gives HOME and forge's directories."""
    return EventJudge(event, project_root=project_root, env=env).answer(hook)


class EventJudge:
    """The guard entries of one event, judged against what they share, read once: the
    tool's canonical name and the :class:`Context` (HOME, forge's directories, where a
    command starts). Rebuilt for each of the thirteen guards, the context was 28% of
    the pack's judging (cProfile of 50 events; bench/README.md, "Built-in guards")."""

    __slots__ = ("event", "project_root", "env", "_context")

    def __init__(self, event: HookEvent, *, project_root: str, env: Mapping[str, str]) -> None:
        self.event = event
        self.project_root = project_root
        self.env = env
        self._context: Context | None = None

    def answer(self, hook: Hook) -> Answer:
        """What :func:`judge_hook` says."""
        if hook.guard is None:
            raise ValueError("judge_hook takes a guard hook")
        options = options_key(hook.with_)
        found = problems(hook.guard, options)
        if found:
            return Answer("deny", f"forge-hook-run: the guard entry '{hook.guard}' cannot judge: {found[0]}; "
                                  "fix the hooks file (forge-hook check)")
        tool = _canonical(self.event.tool_name)
        tool_args = self.event.data.get("tool_args")
        if tool is None or not isinstance(tool_args, dict):
            return NO_ANSWER
        if self._context is None:
            self._context = _context(self.event, tool_args, self.project_root, self.env)
        verdict = _guard(hook.guard, options).judge(tool, tool_args, self._context)
        return NO_ANSWER if verdict.decision == ALLOW else Answer(verdict.decision, verdict.reason)

    def result(self, hook: Hook, *, index: int) -> HookResult:
        """The result of guard ``hook``, as a hook's result reads (DESIGN.md, "Built-in
        guards"): no process, so no stdout, stderr or signal; ``exit_code`` 0 when the
        guard judged (its decision and reason are its answer's, as for a hook that
        prints one), ``None`` with an ``error`` when it could not: a guard that raises is
        a bug, and a bug denies, never allows."""
        started = time.monotonic()
        try:
            answer = self.answer(hook)
        except Exception as exc:  # noqa: BLE001 - any fault of a guard denies; never a traceback, never an allow
            fault = f"{type(exc).__name__}: {str(exc)[:200]}"
            return HookResult(hook, None, index=index, duration=round(time.monotonic() - started, 6),
                              error=f"the guard '{hook.guard}' failed ({fault}), so it denies: a bug in "
                                    "forge-hook-run, please report it; until it is fixed, do this step another "
                                    "way or ask the user")
        return HookResult(hook, 0, index=index, duration=round(time.monotonic() - started, 6),
                          answer=None if answer == NO_ANSWER else answer)


@functools.lru_cache(maxsize=64)  # one instance per entry: a run judges every event with the same few
def _guard(name: str, options: bytes) -> Guard:
    return make(name, orjson.loads(options))  # validated by the caller


def _canonical(tool_name: str | None) -> str | None:
    if tool_name is None:
        return None
    if tool_name in CANONICAL_TOOLS:
        return tool_name
    lowered = tool_name.lower()  # a library caller's "Bash"; dialects hand canonical names already
    return lowered if lowered in CANONICAL_TOOLS else tool_name


def _context(event: HookEvent, tool_args: dict[str, Any], project_root: str, env: Mapping[str, str]) -> Context:
    agent = event.data.get("agent")
    native = agent.get("tool") if isinstance(agent, dict) else None
    payload = agent.get("payload") if isinstance(agent, dict) else None
    cwd = next((v for v in (tool_args.get("cwd"), tool_args.get("working_directory"), tool_args.get("dir_path"),
                            payload.get("cwd") if isinstance(payload, dict) else None) if isinstance(v, str) and v),
               None)
    return Context.from_env(project_root, env, native_tool=native if isinstance(native, str) else None, cwd=cwd)
