"""The record of one forge-hook-run run for the run log: built from the run's JSON
document (not from internal objects, so that it outlives refactors of them) plus a
:class:`RunContext` for what the document does not hold; bounded (output cut to a short
tail from a word start, every field cut) and redacted (:mod:`forge_hookd.log.redact`)
before anything is encoded. Pure, but for reading the environment and the version.
"""

from __future__ import annotations

import os
import stat
import sys
import time
from typing import TYPE_CHECKING, Any

from forge_hookd.registry import MANAGED_REFUSED

if TYPE_CHECKING:
    from forge_hookd.config import LoadedConfig
    from forge_hookd.exportconf import Export

OUTPUT_TAIL = 1024  # characters of each hook's stdout and stderr kept
TEXT_LIMIT = 512  # characters of any other text field
_ITEMS = 200  # values of event data, hook env or an answer kept, all nested levels together
_LIST_ITEMS = 50  # hooks, skipped hooks and files kept (and the hook that decided)
# Secret values masked wherever they appear (see _known_secrets): each costs a search of
# every text of the record, so a payload with 100,000 secret-named keys must not cost
# 100,000 searches.
_KNOWN_SECRETS = 256


class RunContext:
    """What the run's document does not say: where it ran and what it read (``files``:
    see :func:`file_entry`). A plain class: a dataclass would cost 0.45 ms of start-up
    (bench/README.md, "tricks.py")."""

    def __init__(self, *, exit_status: int = 0, project_root: str | None = None,
                 files: list[dict[str, Any]] | None = None, dialect: str | None = None,
                 native_event: str | None = None) -> None:
        self.exit_status = exit_status
        self.project_root = project_root
        self.files = files if files is not None else []
        self.dialect = dialect
        self.native_event = native_event  # the agent's own name of the event, for one with no forge type
        self.export: Export | None = None  # where the record is also shipped (forge_hookd.exportconf)


def file_entry(scope: str, path: str, loaded: LoadedConfig, *, trust_override: bool) -> dict[str, Any]:
    """What became of one config file: ``{"scope", "path", "state", "trust", "hooks",
    "warnings"}``. ``state``: loaded, missing, not a regular file, unreadable, not run
    (project hooks not trusted), refused (a managed file that failed its ownership
    checks); ``trust``: root-owned (the managed layer), own (global and --config files), trusted,
    untrusted, changed, overridden (--trust-project)."""
    trust: str | None = "root-owned" if scope == "managed" else "own"
    if scope == "project":
        trust = "overridden" if trust_override else "trusted"
    if loaded.untrusted_state is not None:
        trust = loaded.untrusted_state.value
    try:
        mode = os.stat(path).st_mode
        state = "loaded" if stat.S_ISREG(mode) else "not a regular file"
    except FileNotFoundError:
        state = "missing"
    except OSError:
        state = "unreadable"
    if state != "loaded":
        trust = None
    elif loaded.untrusted_state is not None:
        state = "not run"
    elif any(w.message.startswith("cannot read") for w in loaded.warnings):
        state = "unreadable"
    if scope == "managed" and any(w.message.startswith(MANAGED_REFUSED) for w in loaded.warnings):
        state, trust = "refused", None  # its events are denied (forge_hookd.managed)
    return {"scope": scope, "path": path, "state": state, "trust": trust,
            "hooks": len(loaded.hooks), "warnings": len(loaded.warnings)}



def build_record(doc: dict[str, Any], context: RunContext) -> dict[str, Any]:
    """The log record of one run document (a run or an error), bounded, then redacted:
    every text is cut (so redaction reads a bounded record), every list too."""
    duration = doc.get("duration")
    now = time.time()
    started = now - duration if isinstance(duration, (int, float)) else now
    hooks = [_hook(r) for r in doc.get("results") or [] if isinstance(r, dict)]
    decision = _decision(doc, hooks)
    skipped = doc.get("skipped") or []
    rec: dict[str, Any] = {
        "v": 1,
        "time": _iso(started),
        "duration": duration,
        "forge": forge_version(),
        "pid": os.getpid(),
        "event": _event(doc.get("event"), context),
        "project": _text(context.project_root),
        "dialect": _text(context.dialect),
        "files": [_bounded(f, [_ITEMS]) for f in context.files[:_LIST_ITEMS]],
        "hooks": _kept_hooks(hooks, decision["decided_by"]),
        "skipped": skipped[:_LIST_ITEMS] if isinstance(skipped, list) else [],
        **decision,
        "exit_status": int(context.exit_status),
        "warnings": [_head(str(w), TEXT_LIMIT) for w in (doc.get("warnings") or [])[:20]],
    }
    for name, kept, whole in (("hooks_omitted", rec["hooks"], hooks), ("skipped_omitted", rec["skipped"], skipped),
                              ("files_omitted", rec["files"], context.files)):
        if len(kept) < len(whole):
            rec[name] = len(whole) - len(kept)
    if isinstance(doc.get("rewrite_judged"), dict):  # the guards judged a hook's rewrite of the tool input
        rec["rewrite_judged"] = _bounded(doc["rewrite_judged"], [_ITEMS])
    if doc.get("interrupted"):
        rec["interrupted"] = _text(doc["interrupted"])
    error = doc.get("error")
    if isinstance(error, dict):
        rec["error"] = {"kind": _text(error.get("kind")), "message": _head(str(error.get("message")), TEXT_LIMIT)}
        rec["decision"] = "error"
    from forge_hookd.log.redact import redact  # 0.7 ms, only when the log is on (bench/README.md, "tricks.py")

    names = _guard_names(rec["hooks"])  # the kept ones: those redact() gives back
    redacted: dict[str, Any] = redact(rec, known=_known_secrets(doc))
    for entry, guard in zip(redacted["hooks"], names, strict=True):
        if guard is not None:
            entry["guard"] = guard
    if (parent := traceparent(os.environ.get("TRACEPARENT"))) is not None:
        redacted["traceparent"] = parent  # the agent's trace (checked: only hex): exported spans are its children
    return redacted


_HEX = frozenset("0123456789abcdef")


def traceparent(value: object) -> str | None:
    """A W3C Trace Context ``traceparent`` (version 00: ``00-TRACEID-SPANID-FLAGS``,
    lower-case hex, neither id all zeros), else None: never a raw value."""
    if not isinstance(value, str) or len(value) != 55:
        return None
    parts = value.split("-")
    if [len(p) for p in parts] != [2, 32, 16, 2] or parts[0] != "00" or not set("".join(parts)) <= _HEX:
        return None
    return value if parts[1].strip("0") and parts[2].strip("0") else None


def _kept_hooks(hooks: list[dict[str, Any]], decided_by: object) -> list[dict[str, Any]]:
    """The first hooks and the one that decided: what "why was it blocked?" needs."""
    return [h for i, h in enumerate(hooks) if i < _LIST_ITEMS or h["index"] == decided_by]


def _text(value: object) -> Any:
    """A text field cut to :data:`TEXT_LIMIT`; anything else (None, a number) as it is."""
    return _head(value, TEXT_LIMIT) if isinstance(value, str) else value


def _guard_names(hooks: list[dict[str, Any]]) -> list[str | None]:
    """Takes out of the hook entries the names of built-in guards, forge's own words
    (``hardcoded_secrets`` holds SECRET: redacting it compiled two rules, 1.8 ms of a
    guarded run's record); a name that is no guard's (a typo) stays, to be redacted."""
    if not any("guard" in h for h in hooks):
        return [None] * len(hooks)
    from forge_hookd.guards import ALIASES, GUARDS  # 7.2 ms for a run without a guard entry; loaded already here

    names: list[str | None] = []
    for entry in hooks:
        name = entry.get("guard")
        known = name in GUARDS or name in ALIASES
        names.append(entry.pop("guard") if known else None)
    return names


def _known_secrets(doc: dict[str, Any]) -> list[str]:
    """Secret values a hook could print bare: those of the environment it inherits,
    of its own env and of the event's data; longest first, so none is half-masked."""
    from forge_hookd.log.redact import MIN_KNOWN, is_secret_name, secret_values

    # Keys first: decoding every value of the environment costs more than the rest.
    found = {os.environ[k] for k in os.environ if is_secret_name(k) and len(os.environ[k]) >= MIN_KNOWN}
    for result in (doc.get("results") or [])[:_LIST_ITEMS]:
        found |= secret_values((result.get("hook") or {}).get("env") or {}, secret=False)
    found |= secret_values((doc.get("event") or {}).get("data") or {})
    return sorted(found, key=len, reverse=True)[:_KNOWN_SECRETS]


def _event(event: object, context: RunContext) -> dict[str, Any]:
    if not isinstance(event, dict):
        untyped: dict[str, Any] = {"type": None, "tool": None, "session": None}
        if context.native_event is not None:  # a payload forge could not read: what the agent called it
            untyped["agent"] = {"name": context.dialect, "event": _head(context.native_event, TEXT_LIMIT),
                                "tool": None}
        return untyped
    data = event.get("data")
    out: dict[str, Any] = {"type": _text(event.get("type")), "tool": _text(event.get("tool_name")),
                           "session": _text(event.get("session_id"))}
    if isinstance(data, dict) and isinstance(data.get("agent"), dict):
        # a dialect's run: the native names; the native payload is the data again
        out["agent"] = {k: _text(data["agent"].get(k)) for k in ("name", "event", "tool")}
        data = {k: v for k, v in data.items() if k != "agent"}
    out["data"] = _bounded(data, [_ITEMS])
    return out


def _hook(result: dict[str, Any]) -> dict[str, Any]:
    hook = result.get("hook") or {}
    answer = result.get("answer") if isinstance(result.get("answer"), dict) else None
    entry: dict[str, Any] = {
        "index": result.get("index"),
        "id": _text(hook.get("id")),
        "source": _text(hook.get("source")),
        "source_index": result.get("source_index", hook.get("source_index")),
        "pattern": _text(hook.get("event")),
        "command": _head(str(hook.get("command", "")), TEXT_LIMIT),
        "exit_code": result.get("exit_code"),
        "signal": _text(result.get("signal")),
        "duration": result.get("duration"),
        "timed_out": result.get("timed_out"),
        # the run's own decision and reason for the hook, never derived again here
        "decision": _text(result.get("decision")),
        "reason": _head(str(result.get("reason") or ""), TEXT_LIMIT) or None,
        "error": _text(result.get("error")),
        "stdout": _tail(str(result.get("stdout") or ""), OUTPUT_TAIL),
        "stderr": _tail(str(result.get("stderr") or ""), OUTPUT_TAIL),
    }
    if hook.get("guard"):  # a built-in guard has no command: its name and options say what ran
        entry["guard"] = _head(str(hook["guard"]), TEXT_LIMIT)
        if hook.get("with"):
            entry["with"] = _bounded(hook["with"], [_ITEMS])
    if hook.get("env"):
        entry["env"] = _bounded(hook["env"], [_ITEMS])
    if answer is not None:
        entry["answer"] = _bounded(answer, [_ITEMS])
    return entry


def _decision(doc: dict[str, Any], hooks: list[dict[str, Any]]) -> dict[str, Any]:
    """The run's decision and reason as the document says them, and the hook that made
    it: the blocker, or for an ask the first hook that asked."""
    decision = doc.get("decision") or "allow"
    found = doc.get("blocked_by")
    decided_by = found.get("index") if isinstance(found, dict) else None
    if decided_by is None and decision != "allow" and not isinstance(found, dict):  # forge's own deny: no hook
        judged = (doc.get("rewrite_judged") or {}).get("guards") or []  # an ask of the rewrite: the guard's
        decided_by = next((h["index"] for h in [*hooks, *judged] if h["decision"] == decision), None)
    reason = doc.get("reason")
    return {"decision": _text(decision), "decided_by": decided_by,
            "reason": _head(str(reason), TEXT_LIMIT) if reason else None}


# -- bounds -----------------------------------------------------------------------------
def _head(text: str, limit: int) -> str:
    """At most ``limit`` characters from the start, cut at a space so that no half of a
    secret (too short to be recognised) is kept."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = max(cut.rfind(" "), cut.rfind("\n"))
    return (cut[:space] if space > 0 else "") + "...[cut]"


def _tail(text: str, limit: int) -> str:
    """The last ``limit`` characters, from a word start (see :func:`_head`)."""
    if len(text) <= limit:
        return text
    cut = text[-limit:]
    starts = [i for i in (cut.find(" "), cut.find("\n")) if i >= 0]
    return "[cut]..." + (cut[min(starts):] if starts else "")


def shortened(value: Any, limit: int) -> Any:
    """``value`` with every text in it cut to ``limit`` characters (see :func:`_head`)."""
    if isinstance(value, str):
        return _head(value, limit)
    if isinstance(value, dict):
        return {k: shortened(v, limit) for k, v in value.items()}
    return [shortened(v, limit) for v in value] if isinstance(value, list) else value


def _bounded(value: Any, budget: list[int], depth: int = 0) -> Any:
    """``value`` with every string cut and at most ``budget[0]`` values in all."""
    budget[0] -= 1
    if isinstance(value, str):
        return _head(value, TEXT_LIMIT)
    if budget[0] <= 0 or depth > 8:
        return "...[cut]" if isinstance(value, (dict, list)) else value
    if isinstance(value, dict):
        return {_head(str(k), 100): _bounded(v, budget, depth + 1)
                for k, v in list(value.items())[: max(budget[0], 0)]}
    if isinstance(value, list):
        return [_bounded(v, budget, depth + 1) for v in value[: max(budget[0], 0)]]
    return value


def _iso(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(epoch)) + f".{int(epoch % 1 * 1000):03d}Z"


_version: list[str] = []


def forge_version() -> str:
    """This package's version, from the name of its ``.dist-info`` directory:
    ``importlib.metadata`` costs ~20 ms of start-up (bench/README.md)."""
    if not _version:
        _version.append(_version_from_dist_info() or _version_from_metadata())
    return _version[0]


def _version_from_dist_info() -> str | None:
    for entry in reversed(sys.path):  # site-packages comes late
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith("forge_hookd-") and name.endswith(".dist-info"):
                return name[len("forge_hookd-"):-len(".dist-info")]
    return None


def _version_from_metadata() -> str:  # pragma: no cover - a build without dist-info
    from importlib.metadata import version

    return version("forge-hookd")
