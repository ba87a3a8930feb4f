"""Hook answers (DESIGN.md, "Hook answers"): what a hook says beyond its exit status.

A hook answers by printing one JSON object holding any of ``decision``, ``reason``,
``data``, ``context``, ``message``. Everything else it prints is plain output, as it
always was. Two promises shape this module:

- A typo never turns a deny into an allow: an object with a known key beside an unknown
  one, a wrong type or an unknown decision is a *malformed* answer, and the hook fails;
  so is an object whose keys are near-misses of answer keys (``decison``), and stdout
  that holds more than one JSON document (or a document and more text) of which any
  would be an answer. A UTF-8 byte-order mark before the object is ignored.
- forge can call forge: the document a nested forge-hook-run prints is its hook's
  answer (its decision, reason, context and messages); its error document fails the hook.
- Plain output costs nothing: stdout is parsed only when, stripped, it starts with ``{``.

:func:`read_result` is forge's reading of a finished hook: its answer, and whether the
answer is malformed. A hook written for another agent's protocol is read by that
agent's result reader instead (dialects/); the executor chooses. How the answers of one run
compose into its decision is :meth:`forge_hookd.results.HookRun.conclude`.
"""

from __future__ import annotations

import itertools
import json  # loaded by orjson anyway: the stdlib parser sees what orjson cannot say
from typing import TYPE_CHECKING, Any

import orjson

from forge_hookd.text import did_you_mean, near_miss
from forge_hookd.tuples import NamedTuple

if TYPE_CHECKING:  # Protocols are for the type checker: one costs 0.3 M instructions at import
    from collections.abc import Callable
    from typing import Protocol

    class Finished(Protocol):
        """What a result reader reads of a finished hook (a :class:`~forge_hookd.results.HookResult`)."""

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

    ResultReader = Callable[[Finished], "Judgement"]

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


class NestedRunFailed(MalformedAnswer):
    """The error document of a nested forge-hook-run: the hook that ran it failed."""

    def __init__(self, message: str) -> None:
        ValueError.__init__(self, f"the nested forge-hook-run failed: {message}")
        self.key = "error"


#: A BOM is no white space to str.strip; an editor or PowerShell may put one first.
_BOM = "\ufeff"
#: The exit status forge-hook-run gives each decision (errors.ExitStatus, not imported here).
_STATUS_OF = {ALLOW: 0, DENY: 1, ASK: 4}
#: What each answer key holds: a near-miss of a key counts only with a value of its type.
_KEY_TYPES: dict[str, type] = {"decision": str, "data": dict, "reason": str, "context": str, "message": str}
#: Keys of one stdout looked at for near-misses (see _near_misses).
_NEAR_MISS_KEYS = 64


def _stripped(stdout: str) -> str:
    text = stdout.strip()
    return text[1:].lstrip() if text.startswith(_BOM) else text


def parse_answer(stdout: str) -> Answer | None:
    """The answer in a hook's stdout, or None for plain output.

    Plain output is anything that is not, stripped (and a byte-order mark dropped), one
    JSON object with at least one of :data:`ANSWER_KEYS`, or a nested forge-hook-run's
    document. Raises :class:`MalformedAnswer` for an object that holds one of them (or a
    near-miss of one) and is not a valid answer, and for stdout holding several
    documents of which any would be an answer.
    """
    return _read(stdout)[0]


def _read(stdout: str) -> tuple[Answer | None, bool]:
    """The answer, and whether it is a nested forge-hook-run's document."""
    text = _stripped(stdout)
    if not text.startswith("{"):  # the common case, decided without parsing
        return None, False
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        _check_refused(text, exc)
        return None, False
    if not isinstance(obj, dict):
        return None, False
    if _is_forge_document(obj):
        return _nested_answer(obj), True
    if not any(k in obj for k in ANSWER_KEYS):
        _check_near_misses(obj)
        return None, False
    _check_keys(obj, text)
    return Answer(**obj), False


def _check_refused(text: str, exc: orjson.JSONDecodeError) -> None:
    """Text orjson refuses is plain output, unless it would be an answer: one that only
    orjson refuses (1e400, NaN, 1024 levels deep), or one of several documents, or a
    document followed by more text (two answers printed as JSON lines: the second must
    not make the first plain output, which allows)."""
    documents, rest = _documents(text)
    answering = _answering(documents)
    if answering is None:
        return
    key = _answer_key(answering)
    if len(documents) == 1 and not rest:
        raise MalformedAnswer(key, f"forge cannot read it: {exc}")
    more = f"{len(documents)} JSON documents" + (" and more text" if rest else "") if len(documents) > 1 \
        else "a JSON document and more text after it"
    raise MalformedAnswer(key, f"stdout holds {more}, and one holds '{key}': an answer must be the only "
                               "thing a hook prints on stdout (print other text on stderr)")


def _documents(text: str) -> tuple[list[Any], bool]:
    """The JSON documents ``text`` begins with, one after another, and whether text that
    is not JSON follows them. Linear in the text (hook output is bounded: executor)."""
    try:  # JSON lines, the usual shape, at orjson's speed (1 MiB of short lines: 0.12 s, not 0.25: bench/README.md)
        return [orjson.loads(line) for line in text.splitlines() if line.strip()], False
    except orjson.JSONDecodeError:
        pass
    decoder, blank = json.JSONDecoder(), json.decoder.WHITESPACE  # type: ignore[attr-defined]
    documents: list[Any] = []
    at, end = 0, len(text)
    while at < end:
        try:
            obj, at = decoder.raw_decode(text, at)
        except (ValueError, RecursionError):
            return documents, True
        documents.append(obj)
        at = blank.match(text, at).end()
    return documents, False


def _answering(documents: list[Any]) -> dict[str, Any] | None:
    """The first document that would be an answer (an answer key, a forge document),
    else the first with a near-miss of one among the first _NEAR_MISS_KEYS keys."""
    objects = [d for d in documents if isinstance(d, dict)]
    found = next((d for d in objects if any(k in d for k in ANSWER_KEYS) or _is_forge_document(d)), None)
    budget = _NEAR_MISS_KEYS
    for obj in objects if found is None else ():
        if budget <= 0:
            break
        if _near_misses(obj, budget):
            return obj
        budget -= len(obj)
    return found


def _answer_key(obj: dict[str, Any]) -> str:
    """The key that makes ``obj`` an answer (or nearly one)."""
    return next((k for k in obj if k in ANSWER_KEYS), None) or next(iter(_near_misses(obj)), None) or "version"


def _known_key(obj: dict[str, Any]) -> str:
    return next(k for k in obj if k in ANSWER_KEYS)


def _near_misses(obj: dict[str, Any], limit: int = 0) -> list[str]:
    """Keys of ``obj`` that look like misspelt answer keys (``decison``, ``Reason``) and
    hold a value of that key's type: ``{"messages": [...]}`` or ``{"date": "..."}`` is
    someone's plain JSON, ``{"mesage": "hi"}`` a typo. Only the first ``limit`` keys
    (_NEAR_MISS_KEYS) are looked at: an answer has five, and a 1 MiB object of short
    keys would otherwise cost seconds of edit distances (8 s for 60,000 keys)."""
    found = []
    for key, value in itertools.islice(obj.items(), limit or _NEAR_MISS_KEYS):
        if 3 <= len(key) <= 10:  # no answer key is two edits from a shorter or longer one
            near = near_miss(key, ANSWER_KEYS)
            if near is not None and isinstance(value, _KEY_TYPES[near]):
                found.append(key)
    return found


def _check_near_misses(obj: dict[str, Any]) -> None:
    misses = _near_misses(obj)
    if misses:
        key = misses[0]
        raise MalformedAnswer(key, f"unknown key '{key}'{did_you_mean(key, ANSWER_KEYS)} (an answer holds "
                                   f"only {', '.join(ANSWER_KEYS)}; a typo must not turn a deny into an allow)")


def _check_keys(obj: dict[str, Any], text: str) -> None:
    unknown = [k for k in obj if k not in ANSWER_KEYS]
    if unknown:
        key = unknown[0]
        raise MalformedAnswer(key, f"unknown key '{key}' beside '{_known_key(obj)}'{did_you_mean(key, ANSWER_KEYS)} "
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


# -- forge calling forge -------------------------------------------------------------------
def _is_forge_document(obj: dict[str, Any]) -> bool:
    """forge-hook-run's own document (results.HookRun.to_dict, errors.error_document),
    told by its shape: a ``version`` beside ``decision``, ``results`` or ``error``."""
    return "version" in obj and ("decision" in obj or "results" in obj or "error" in obj)


def _nested_answer(doc: dict[str, Any]) -> Answer:
    """A nested forge-hook-run's document as its hook's answer: its decision, reason,
    context and messages. Its ``data`` is the nested event's, not a patch of this one."""
    error = doc.get("error")
    if error is not None:
        message = error.get("message") if isinstance(error, dict) else None
        raise NestedRunFailed(message if isinstance(message, str) else orjson.dumps(error).decode())
    decision = doc.get("decision")
    if decision is None and isinstance(doc.get("blocked"), bool):
        decision = DENY if doc["blocked"] else ALLOW
    if decision not in DECISIONS:
        raise MalformedAnswer("decision", f"a nested forge-hook-run's document with 'decision' "
                                          f"{orjson.dumps(decision).decode()}")
    reason = doc.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise MalformedAnswer("reason", "a nested forge-hook-run's 'reason' must be a string or null")
    return Answer(decision=decision, reason=reason, context=_joined(doc, "context"),
                  message=_joined(doc, "messages"))


def _joined(doc: dict[str, Any], key: str) -> str | None:
    """A nested run's ``context`` or ``messages`` list as one hook's text, one per line."""
    items = doc.get(key) or []
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise MalformedAnswer(key, f"a nested forge-hook-run's '{key}' must be a list of strings")
    return "\n".join(items) or None


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
    """What a result reader read from a finished hook.

    ``error`` makes the hook a failure (a malformed answer). ``decision`` is None when
    forge's own rule decides (a failure denies, else the answer's decision); a result reader
    reading another protocol, where an exit status other than 0 need not deny, says so
    here.
    """

    answer: Answer | None
    error: str | None = None
    decision: str | None = None


def read_result(result: Finished) -> Judgement:
    """Forge's own reading of a finished hook: its stdout may hold an answer.

    A hook that timed out, was interrupted or never started has no answer: what it
    printed may be cut short, and its ``error`` is its reason.
    """
    if result.error is not None or result.timed_out:
        return Judgement(None)
    if result.stdout_truncated and _stripped(result.stdout).startswith("{"):
        # Cut at the output bound, an answer cannot be read whole: a deny in it must not
        # pass as plain output, which allows.
        return Judgement(None, "the hook's answer is larger than the output bound and was cut: "
                               "it cannot be read")
    try:
        answer, nested = _read(result.stdout)
    except MalformedAnswer as exc:
        return Judgement(None, str(exc))
    if nested and answer is not None and result.exit_code == _STATUS_OF[answer.decision or ALLOW]:
        # forge-hook-run exits 4 on ask: its hook's exit status agrees with its document,
        # so the nested decision stands. Any other status (a wrapper that failed after
        # it) is forge's rule: a failure denies.
        return Judgement(answer, None, answer.decision)
    return Judgement(answer)


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
