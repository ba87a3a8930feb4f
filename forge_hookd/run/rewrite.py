"""The guards judge what will run, not only what was asked (issue 32).

Every hook sees the original event (DESIGN.md, "Hook answers"), and the run's ``data``
is the hooks' patches applied afterwards: a hook that rewrites the tool's input (an
imported rewriter, a project hook with a bug, a pull trusted unread) could turn ``ls``
into ``rm -rf ~`` after the guards had judged ``ls``. So when a run that does not deny
changes ``tool_args`` on an event that can block, the run's blocking guard entries (each
that matched the event, from every source) judge the rewritten input too, in this
process, as :class:`~forge_hookd.run.guardhook.EventJudge` judges any event; their deny
or ask becomes the run's (:meth:`~forge_hookd.results.HookRun.conclude`), with a reason
naming the hook that rewrote. Script hooks are not run again: a rewrite is not a new
event. The executor loads this module only for a run whose hooks rewrote its data and
that holds a guard entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from forge_hookd.answers import ALLOW, ASK, DENY, merge_patch
from forge_hookd.events import BLOCKING_TYPES
from forge_hookd.results import describe_hook
from forge_hookd.run.guardhook import EventJudge

if TYPE_CHECKING:
    from forge_hookd.results import HookResult, HookRun

_PHRASE = {DENY: "the rewrite is denied", ASK: "the rewrite needs a person's decision"}


class RewriteJudged:
    """The guards' verdict on a run's rewritten tool input: the hooks whose patches
    changed it (``rewritten_by``) and one result per guard entry that judged it
    (``results``: the guard's place in the run as its ``index``; a deny or ask reason
    says whose rewrite it judged). :meth:`~forge_hookd.results.HookRun.conclude` makes
    its deny or ask the run's; the document's ``rewrite_judged`` is :meth:`to_dict`."""

    __slots__ = ("rewritten_by", "results")

    def __init__(self, rewritten_by: list[HookResult], results: list[HookResult]) -> None:
        self.rewritten_by, self.results = rewritten_by, results

    @property
    def decision(self) -> str:
        """deny if a guard denies the rewrite, else ask if one asks, else allow."""
        decisions = {r.decision for r in self.results}
        return DENY if DENY in decisions else ASK if ASK in decisions else ALLOW

    def to_dict(self) -> dict[str, Any]:
        """``{"rewritten_by": ["project[0]"], "decision": "deny", "guards": [{"index",
        "name", "guard", "decision", "reason"}]}``: each guard's own reason (null when it
        found nothing); the run's reason is the one that names the rewriting hook."""
        return {"rewritten_by": [describe_hook(r.hook, r.index) for r in self.rewritten_by],
                "decision": self.decision,
                "guards": [{"index": r.index, "name": describe_hook(r.hook, r.index), "guard": r.hook.guard,
                            "decision": r.decision,
                            "reason": r.answer.reason if r.answer is not None else r.reason or None}
                           for r in self.results]}


def judge_rewrite(run: HookRun, *, project_root: str, env: Mapping[str, str]) -> RewriteJudged | None:
    """The run's blocking guard entries on ``run.data`` when it changes ``tool_args``
    on an event that can block; None when there is nothing to judge (no such change, or
    no guard in the run). A guard that cannot judge denies, as it does on any event."""
    event = run.event
    if run.data is None or event.type.value not in BLOCKING_TYPES \
            or run.data.get("tool_args") == event.data.get("tool_args"):
        return None
    guards = [r for r in run.results if r.hook.guard is not None and r.hook.blocking]
    if not guards:
        return None
    by = _rewriters(run.results, event.data.get("tool_args"))
    rewritten = replace(event, data=run.data)
    judge = EventJudge(rewritten, project_root=project_root, env=env)
    return RewriteJudged(by, [_said(judge.result(g.hook, index=g.index), by) for g in guards])


def _rewriters(results: list[HookResult], tool_args: Any) -> list[HookResult]:
    """The blocking hooks whose answered patch changes ``tool_args`` (of the patches the
    run applied: DESIGN.md, "The run's decision"), in config order."""
    return [r for r in results if r.hook.blocking and r.decision != DENY and r.answer is not None
            and r.answer.data is not None and "tool_args" in r.answer.data
            and merge_patch(tool_args, r.answer.data["tool_args"]) != tool_args]


def _said(result: HookResult, by: list[HookResult]) -> HookResult:
    """A guard's deny or ask of the rewrite, its reason naming whose rewrite it was."""
    if result.decision not in _PHRASE:
        return result
    names = ", ".join(describe_hook(r.hook, r.index) for r in by) or "a hook"
    return replace(result, reason=f"{names} rewrote the tool input, and {_PHRASE[result.decision]}: {result.reason}")
