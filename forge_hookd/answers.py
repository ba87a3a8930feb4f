"""Hook answers (DESIGN.md, "Hook answers"): what a hook says beyond its exit status, and
how the answers of one run compose into its decision, its rewritten data, its context
and its messages.

A hook answers by printing one JSON object holding any of ``decision``, ``reason``,
``data``, ``context``, ``message``. Everything else it prints is plain output, as it
always was. Two promises shape this module:

- A typo never turns a deny into an allow: an object with a known key beside an unknown
  one, a wrong type or an unknown decision is a *malformed* answer, and the hook fails.
- Plain output costs nothing: stdout is parsed only when, stripped, it starts with ``{``.

:func:`judge` is the one place where a finished hook's outcome becomes its answer and
decision. The executor asks :func:`judge_for` which judge reads a hook, so that a hook
written for another agent's protocol can be read by that agent's rules instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import orjson

if TYPE_CHECKING:
    from .events import HookEvent
    from .registry import Hook
    from .results import HookResult, HookRun

ALLOW, DENY, ASK = "allow", "deny", "ask"
DECISIONS = (ALLOW, DENY, ASK)
_TEXT_KEYS = ("reason", "context", "message")
ANSWER_KEYS = ("decision", "data", *_TEXT_KEYS)


# A NamedTuple, not a dataclass: creating a frozen dataclass costs 0.57 ms of every
# run's start-up, a NamedTuple 0.08 ms (bench/README.md has the command).
class Answer(NamedTuple):
    """One hook's answer; a key the hook did not give is None."""

    decision: str | None = None
    reason: str | None = None
    data: dict[str, Any] | None = None  # an RFC 7386 merge patch over the event's data
    context: str | None = None
    message: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The keys the hook gave, as it gave them."""
        return {k: v for k, v in zip(self._fields, self, strict=True) if v is not None}


class MalformedAnswer(ValueError):
    """An object that meant to be an answer and is not one; ``key`` is the culprit."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"malformed answer: {message}")
        self.key = key


def parse_answer(stdout: str) -> Answer | None:
    """The answer in a hook's stdout, or None for plain output.

    Plain output is anything that is not, stripped, one JSON object with at least one
    of :data:`ANSWER_KEYS`. Raises :class:`MalformedAnswer` for an object that holds
    one of them and is not a valid answer.
    """
    text = stdout.strip()
    if not text.startswith("{"):  # the common case, decided without parsing
        return None
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        _check_refused(text, exc)
        return None
    if not isinstance(obj, dict) or not any(k in obj for k in ANSWER_KEYS):
        return None
    _check_keys(obj, text)
    return Answer(**obj)


def _check_refused(text: str, exc: orjson.JSONDecodeError) -> None:
    """Text orjson refuses is plain output, unless it is an answer that only orjson
    refuses (1e400, NaN, 1024 levels deep): that one fails rather than pass as plain."""
    obj = _stdlib_loads(text)
    if isinstance(obj, dict) and any(k in obj for k in ANSWER_KEYS):
        raise MalformedAnswer(_known_key(obj), f"forge cannot read it: {exc}")


def _stdlib_loads(text: str) -> Any:
    import json  # already loaded: orjson imports it

    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _known_key(obj: dict[str, Any]) -> str:
    return next(k for k in obj if k in ANSWER_KEYS)


def _check_keys(obj: dict[str, Any], text: str) -> None:
    unknown = [k for k in obj if k not in ANSWER_KEYS]
    if unknown:
        raise MalformedAnswer(unknown[0], f"unknown key '{unknown[0]}' beside '{_known_key(obj)}' "
                                          f"(an answer holds only {', '.join(ANSWER_KEYS)})")
    decision = obj.get("decision", ALLOW)
    if decision not in DECISIONS:
        raise MalformedAnswer("decision", f"'decision' must be \"allow\", \"deny\" or \"ask\", "
                                          f"not {orjson.dumps(decision).decode()}")
    if "data" in obj and not isinstance(obj["data"], dict):
        raise MalformedAnswer("data", "'data' must be an object (a JSON merge patch)")
    for key in _TEXT_KEYS:
        if key in obj and not isinstance(obj[key], str):
            raise MalformedAnswer(key, f"'{key}' must be a string")
    try:
        duplicate = _duplicate_key(text)
    except RecursionError:  # orjson reads 1024 levels deep, the json module fewer
        raise MalformedAnswer(_known_key(obj), "nested too deeply to be read") from None
    if duplicate is not None:  # orjson keeps the last: "deny" then "allow" would allow
        raise MalformedAnswer(duplicate, f"'{duplicate}' is given twice")


def _duplicate_key(text: str) -> str | None:
    """A key given twice in one object, at any depth. Only answers pay for this second
    parse: orjson keeps the last of two keys and cannot say that there were two."""
    import json  # already loaded: orjson imports it

    found: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in items]
        found.extend(k for i, k in enumerate(keys) if k in keys[:i])
        return dict(items)

    json.loads(text, object_pairs_hook=pairs)
    return found[0] if found else None


# -- one hook ---------------------------------------------------------------------------
class Judgement(NamedTuple):
    """What a judge read from a finished hook.

    ``error`` makes the hook a failure (a malformed answer). ``decision`` is None when
    forge's own rule decides (:func:`decision_of`); a judge reading another protocol,
    where an exit status other than 0 need not deny, says so here.
    """

    answer: Answer | None
    error: str | None = None
    decision: str | None = None


Judge = Callable[["HookResult"], Judgement]


def judge(result: HookResult) -> Judgement:
    """Forge's own reading of a finished hook: its stdout may hold an answer.

    A hook that timed out, was interrupted or never started has no answer: what it
    printed may be cut short, and its ``error`` is its reason.
    """
    if result.error is not None or result.timed_out:
        return Judgement(None)
    if result.stdout_truncated and result.stdout.lstrip().startswith("{"):
        # Cut at the output bound, an answer cannot be read whole: a deny in it must not
        # pass as plain output, which allows.
        return Judgement(None, "the hook's answer is larger than the output bound and was cut: "
                               "it cannot be read")
    try:
        return Judgement(parse_answer(result.stdout))
    except MalformedAnswer as exc:
        return Judgement(None, str(exc))


def judge_for(hook: Hook, event: HookEvent | None = None) -> Judge:
    """The judge that reads ``hook``'s outcome: forge's own for every forge hook, the
    agent's rules for a hook with a ``format`` (dialects/; it needs the ``event``)."""
    if hook.format is not None and event is not None:
        from .dialects import get

        return get(hook.format).judge(event)
    return judge


def decision_of(result: HookResult) -> str:
    """One hook's decision: a hook that did not exit 0 cleanly denies, whatever it
    answered; one that did decides by its answer, ``allow`` without one."""
    if result.decided is not None:
        return result.decided
    if not result.success:
        return DENY
    answer = result.answer
    return answer.decision if answer is not None and answer.decision is not None else ALLOW


def blocks(result: HookResult) -> bool:
    """True when ``result`` denies the run: a blocking hook that denied."""
    return result.hook.blocking and decision_of(result) == DENY


# -- the run ------------------------------------------------------------------------------
def run_decision(results: Sequence[HookResult]) -> str:
    """deny if a blocking hook denies, else ask if one asks, else allow."""
    decided = [decision_of(r) for r in results if r.hook.blocking]
    return DENY if DENY in decided else ASK if ASK in decided else ALLOW


def run_reason(results: Sequence[HookResult]) -> str | None:
    """The denying hook's reason; on ask the asking hooks' reasons, one per line."""
    decision = run_decision(results)
    if decision == DENY:
        return next(r.reason for r in results if blocks(r))
    if decision == ASK:
        asking = [r.reason for r in results if r.hook.blocking and decision_of(r) == ASK]
        return "\n".join(reason for reason in asking if reason) or None
    return None


def collected(results: Iterable[HookResult], key: str) -> list[str]:
    """Every hook's ``context`` or ``message``, in config order (observers' too)."""
    return [getattr(r.answer, key) for r in results
            if r.answer is not None and getattr(r.answer, key) is not None]


def conclude(run: HookRun) -> None:
    """Compose the rewritten data and add the run's answer warnings, once per run."""
    run.warnings.extend(_observer_warnings(run.results))
    patching = [r for r in run.results if r.answer is not None and r.answer.data is not None
                and r.hook.blocking and decision_of(r) != DENY]
    if patching:
        run.data, conflicts = rewrite(run.event.data, patching)
        run.warnings.extend(conflicts)


def rewrite(data: dict[str, Any], patching: Sequence[HookResult]) -> tuple[dict[str, Any], list[str]]:
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


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON merge patch: ``patch`` applied to ``target``, neither changed."""
    if not isinstance(patch, dict):
        return patch
    merged = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = merge_patch(merged.get(key), value)
    return merged


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
        decision = decision_of(r)
        if not r.success and decision == DENY:
            how = r.error or (f"killed by {r.signal}" if r.signal else f"exit status {r.exit_code}")
            why = one_line(r.reason)
            yield f"{name} failed ({how}){f': {why}' if why and why != how else ''}; observers never block"
        elif decision != ALLOW:
            yield f"{name} answered {decision}: {one_line(r.reason) or 'no reason given'}; observers never block"
        if r.answer is not None and r.answer.data is not None:
            yield f"{name} answered a data rewrite, which is ignored: observers cannot rewrite"


def one_line(text: str, limit: int = 300) -> str:
    """A reason as one line for people: white space folded, cut at ``limit`` with ``...``."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."
