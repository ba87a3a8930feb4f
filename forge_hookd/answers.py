"""Hook answers (DESIGN.md, "Hook answers"): what a hook says beyond its exit status.

A hook answers by printing one JSON object holding any of ``decision``, ``reason``,
``data``, ``context``, ``message``. Everything else it prints is plain output, as it
always was. Two promises shape this module:

- A typo never turns a deny into an allow: an object with a known key beside an unknown
  one, a wrong type or an unknown decision is a *malformed* answer, and the hook fails.
- Plain output costs nothing: stdout is parsed only when, stripped, it starts with ``{``.

:func:`judge` is forge's reading of a finished hook: its answer, and whether the
answer is malformed. A hook written for another agent's protocol is read by that
agent's judge instead (dialects/); the executor chooses. How the answers of one run
compose into its decision is :meth:`forge_hookd.results.HookRun.conclude`.
"""

from __future__ import annotations

import json  # loaded by orjson anyway: the stdlib parser sees what orjson cannot say
from typing import TYPE_CHECKING, Any, NamedTuple

import orjson

if TYPE_CHECKING:  # Protocols are for the type checker: one costs 0.3 M instructions at import
    from collections.abc import Callable
    from typing import Protocol

    class Finished(Protocol):
        """What a judge reads of a finished hook (a :class:`~forge_hookd.results.HookResult`)."""

        @property
        def exit_code(self) -> int | None: ...
        @property
        def stdout(self) -> str: ...
        @property
        def stderr(self) -> str: ...
        @property
        def stdout_truncated(self) -> bool: ...
        @property
        def timed_out(self) -> bool: ...
        @property
        def error(self) -> str | None: ...

    Judge = Callable[[Finished], "Judgement"]

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
    forge's own rule decides (a failure denies, else the answer's decision); a judge
    reading another protocol, where an exit status other than 0 need not deny, says so
    here.
    """

    answer: Answer | None
    error: str | None = None
    decision: str | None = None


def judge(result: Finished) -> Judgement:
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
