"""Hook entries for built-in guards, as ``forge-hook add --guard NAME [--with JSON]`` and
``forge-hook add --guards recommended`` write them: validated here, so that a typo is
refused at the command line and never written to a hooks file."""

from __future__ import annotations

from typing import Any

import orjson

from forge_hookd.guards import GUARDS, RECOMMENDED, GuardError, lookup, unknown_guard_message

#: the pattern a guard entry gets unless --event says otherwise: every tool call (a guard
#: judges the tools it knows and lets the others pass)
DEFAULT_PATTERN = "tool:pre_execute"
#: the sets ``--guards`` takes besides a list of names
SETS = ("recommended", "all")


def options_from_json(text: str | None) -> dict[str, Any]:
    """``--with``: a JSON object of the guard's options; GuardError otherwise."""
    if text is None:
        return {}
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise GuardError(f"--with is not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise GuardError(f"--with takes a JSON object of the guard's options, not {type(value).__name__}")
    return value


def named(spec: str) -> list[tuple[str, dict[str, Any]]]:
    """``--guards``: names separated by commas, where ``recommended`` is the pack's
    recommended set (with its options) and ``all`` every guard; each guard once, in the
    order named. GuardError naming an unknown one."""
    chosen: dict[str, dict[str, Any]] = {}
    for item in (n.strip() for n in spec.split(",")):
        if item == "recommended":
            members = [(name, dict(options)) for name, options in RECOMMENDED]
        elif item == "all":
            members = [(name, {}) for name in GUARDS]
        elif item:
            if lookup(item) is None:
                raise GuardError(unknown_guard_message(item))
            members = [(item, {})]
        else:
            continue
        for name, options in members:
            chosen.setdefault(name, options)
    if not chosen:
        raise GuardError(f"--guards takes {' or '.join(SETS)}, or guard names, separated by commas")
    return list(chosen.items())


def entry(name: str, options: dict[str, Any], *, pattern: str | None = None) -> dict[str, Any]:
    """The hook entry of guard ``name`` with ``options``; GuardError when either is wrong."""
    guard = lookup(name)
    if guard is None:
        raise GuardError(unknown_guard_message(name))
    problems = guard.validate(options)
    if problems:
        raise GuardError("; ".join(problems))
    return {"event": pattern or DEFAULT_PATTERN, "guard": name, **({"with": options} if options else {})}
