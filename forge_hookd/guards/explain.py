"""What ``forge-hook guard list`` and ``forge-hook guard test`` say: every guard described
(name, summary, what it catches, its options and defaults, whether it is recommended),
and one guard's verdict on one tool call (and on the call as a hook's rewrite makes it)
with what it matched and how the shell line was read ("explain"). No printing here:
manage's guard commands print."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from forge_hookd.answers import merge_patch
from forge_hookd.shell import commands as shell
from forge_hookd.guards import ALIASES, GUARDS, RECOMMENDED, Context, GuardError, Ruling, make
from forge_hookd.guards.base import FILE_TOOLS, WRITE_TOOLS
from forge_hookd.tuples import NamedTuple

#: the tools `guard test --tool` takes: forge's canonical names that some guard judges
TEST_TOOLS = ("bash", *sorted(FILE_TOOLS))


def describe_all() -> list[dict[str, Any]]:
    """Every guard, in the pack's order, as ``guard list --json`` prints it."""
    recommended = {name for name, _ in RECOMMENDED}
    aliases: dict[str, list[str]] = {}
    for alias, name in ALIASES.items():
        aliases.setdefault(name, []).append(alias)
    return [{"name": name, "summary": guard.summary, "tools": sorted(guard.tools),
             "catches": list(guard.catches), "recommended": name in recommended,
             "aliases": aliases.get(name, []),
             "options": [{"name": o.name, "kind": o.kind, "default": o.default, "help": o.help}
                         for o in guard.options]}
            for name, guard in GUARDS.items()]


class Explanation(NamedTuple):
    """One guard's verdict on one tool call: the call as judged, the verdict (with what
    matched), and, for a shell command, each simple command as the parser read it."""

    guard: str
    tool: str
    tool_args: dict[str, Any]
    ruling: Ruling
    commands: tuple[str, ...] = ()
    parse_note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"guard": self.guard, "tool": self.tool, "tool_args": self.tool_args,
                "decision": self.ruling.decision, "reason": self.ruling.reason, "matched": self.ruling.matched,
                "read_as": list(self.commands), "parse_note": self.parse_note}


def tool_call(tool: str, words: Sequence[str], content: str | None) -> dict[str, Any]:
    """The tool arguments ``guard test`` judges. For ``bash``: one word is the command
    line as written; several are an argv, quoted back as a shell would need (so that
    ``-- git commit -m "drop --force"`` keeps its message one word). For a file tool:
    one path, and for write/edit the ``content`` written. Raises GuardError."""
    if not words:
        raise GuardError("say what to judge after --: a command, or a path for a file tool")
    if tool == "bash":
        return {"command": words[0] if len(words) == 1 else shlex.join(words)}
    if tool not in FILE_TOOLS:
        raise GuardError(f"--tool takes one of {', '.join(TEST_TOOLS)}, not '{tool}'")
    if len(words) != 1:
        raise GuardError(f"a {tool} call takes one path after --, not {len(words)} words")
    if content is not None and tool not in WRITE_TOOLS:
        raise GuardError(f"--content goes with --tool write or edit, not {tool}")
    args: dict[str, Any] = {"file_path": words[0]}
    if content is not None:
        args["content" if tool == "write" else "new_string"] = content
    return args


def rewritten_tool_args(tool_args: dict[str, Any], patch: object) -> dict[str, Any]:
    """``tool_args`` as a hook's ``data`` answer ``patch`` rewrites it (a merge patch over
    the event's data, as a run applies it): what ``guard test --rewrite`` judges too.
    GuardError for a patch that is not an object or leaves no tool input."""
    if not isinstance(patch, dict):
        raise GuardError(f"--rewrite takes a hook's data answer, a JSON object such as "
                         f'{{"tool_args": {{"command": "ls"}}}}, not {type(patch).__name__}')
    rewritten = merge_patch({"tool_args": tool_args}, patch).get("tool_args")
    if not isinstance(rewritten, dict):
        raise GuardError("--rewrite leaves no tool input (tool_args is not an object): nothing to judge")
    return rewritten


def explain(name: str, options: Mapping[str, Any] | None, tool: str, tool_args: dict[str, Any], *,
            project_root: str, env: Mapping[str, str], cwd: str | None = None) -> Explanation:
    """Guard ``name`` (with its ``with`` options) on one call of ``tool``; GuardError for
    an unknown guard or bad options."""
    guard = make(name, options)
    ruling = guard.judge(tool, tool_args, Context.from_env(project_root, env, cwd=cwd))
    if tool != "bash" or not isinstance(tool_args.get("command"), str):
        return Explanation(name, tool, tool_args, ruling)
    parsed = shell.parse(tool_args["command"])
    note = "; ".join(n for n in (parsed.error, "truncated: a bound was reached" if parsed.truncated else None) if n)
    return Explanation(name, tool, tool_args, ruling, tuple(_read_as(c) for c in parsed.commands), note or None)


def _read_as(command: shell.Command) -> str:
    """One simple command as the parser read it: its words (shell-quoted), then how it
    was reached and what it was wrapped in."""
    text = shlex.join(command.argv) if command.argv else "(no command: redirections only)"
    notes = []
    if command.via:
        notes.append(f"via {command.via}")
    if command.wrappers:
        notes.append("wrapped in " + ", ".join(shlex.join(w) for w in command.wrappers))
    if command.cwd_unknown:
        notes.append("after a cd to a directory not known")
    elif command.cwd is not None:
        notes.append(f"after cd {command.cwd}")
    if command.feeders:
        notes.append("fed by " + " | ".join(shlex.join(f.argv) for f in command.feeders))
    return text + (f"  ({'; '.join(notes)})" if notes else "")
