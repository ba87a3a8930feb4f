"""What an agent's own filters match: a hook imported with its ``matcher`` or Claude's
``if`` rule runs where the agent would have run it, and nowhere else (issue 21 item 4,
issue 20 item 6).

Each agent reads a matcher its own way (research: /work/notes/research/*.md, checked on
the real CLIs):

- Claude Code and Codex: empty or ``*`` matches all; a matcher made only of letters,
  digits, ``_`` and ``|`` is a list of exact names; anything else is a regular
  expression searched anywhere in the name (``^startup$``, ``mcp__.*``). On a session
  start it tests the source (``startup|resume|clear|compact``), on a compaction the
  trigger, on a notification its type, on a subagent its type; on a stop or a prompt it
  is ignored (the hook always runs).
- Gemini CLI: on tool events an unanchored regular expression (``shell`` matches
  ``run_shell_command``; one that does not compile is compared as a string); on a
  session's start or end and on a compaction an exact comparison; ignored elsewhere.
- Copilot CLI: a regular expression that must match the whole tool name (``bas`` does
  not match ``bash``).
- Cursor: a regular expression searched in the tool type (``Shell``, ``Read``, ``MCP:x``)
  or the subagent's type.

Claude's ``if`` (``Bash(git commit:*)``, ``Read(*.env)``, ``Write``) filters tool events
only; on any other event Claude skips a hook that has one, and so does forge. Python's
``re`` stands in for JavaScript's and Rust's regular expressions: the syntax matchers
use (alternation, classes, anchors, ``.*``) reads the same in all three.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any

from forge_hookd.errors import ConfigError
from forge_hookd.events import TOOL_EVENT_TYPES, HookEvent

if TYPE_CHECKING:
    from forge_hookd.dialects.base import Settings, Vocabulary

Test = Callable[[HookEvent], bool]
_EXACT_LIST = re.compile(r"[A-Za-z0-9_|]+")
_ALL = ("", "*")
#: The data key a lifecycle matcher tests, per forge type (the agents' payloads name the
#: same fields: ``source``, ``trigger``, ``notification_type``, ``agent_type``, ``reason``).
SUBJECTS = {"session:start": "source", "session:end": "reason", "session:pre_compact": "trigger",
            "session:post_compact": "trigger", "session:notification": "notification_type",
            "agent:subagent_start": "agent_type", "agent:subagent_stop": "agent_type"}


def native_filter(format_: str | None, matcher: str | None, rule: str | None) -> Test:
    """The test an imported hook's ``matcher`` and ``if`` make, read by the rules of the
    agent the hook is written for. ConfigError when there is no such agent, or when the
    agent itself could not use the filter (a matcher that is not a valid expression, an
    ``if`` forge cannot read): loud, never a hook that silently never runs."""
    from forge_hookd.dialects import NAMES, get

    if format_ not in NAMES:
        raise ConfigError("'matcher' and 'if' are an agent's own filters: give the hook the 'format' of "
                          "the agent they are written for")
    assert format_ is not None
    settings = get(format_).settings
    tests: list[Test] = []
    if matcher is not None:
        tests.append(_matcher_test(settings, matcher))
    if rule is not None:
        tests.append(settings.if_rule(rule))
    return tests[0] if len(tests) == 1 else lambda event: all(test(event) for test in tests)


def _matcher_test(settings: Settings, matcher: str) -> Test:
    problem = settings.matcher_problem(matcher)
    if problem is not None:
        raise ConfigError(f"matcher {matcher!r}: {problem}")

    def admits(event: HookEvent) -> bool:
        subject = settings.matcher_subject(event)
        return subject is None or settings.matches(matcher, *subject)

    return admits


def subject_of(event: HookEvent, key: str) -> str:
    """A lifecycle event's matched field: in ``data``, else in the native payload; "" when
    neither has it (then only an empty or ``*`` matcher matches)."""
    value = event.data.get(key)
    if not isinstance(value, str):
        agent = event.data.get("agent")
        payload: Any = agent.get("payload") if isinstance(agent, dict) else None
        value = payload.get(key) if isinstance(payload, dict) else None
    return value if isinstance(value, str) else ""


# -- each agent's reading of a matcher ------------------------------------------------------
def claude_matches(matcher: str, subject: str) -> bool:
    """Claude Code's and Codex's: empty or ``*`` all, a plain ``a|b`` list exact names,
    anything else a regular expression searched in the subject."""
    if matcher.strip() in _ALL:
        return True
    if _EXACT_LIST.fullmatch(matcher):
        return subject in matcher.split("|")
    return _search(matcher, subject)


def gemini_matches(matcher: str, subject: str, tool: bool) -> bool:
    """Gemini CLI's: an unanchored expression on tools (one that does not compile is
    compared as a string), an exact comparison elsewhere."""
    matcher = matcher.strip()
    if matcher in _ALL:
        return True
    if not tool:
        return matcher == subject
    try:
        return re.search(matcher, subject) is not None
    except re.error:
        return matcher == subject


def full_matches(matcher: str, subject: str) -> bool:
    """Copilot CLI's: an expression that matches the whole name."""
    if matcher.strip() in _ALL:
        return True
    try:
        return re.fullmatch(matcher, subject) is not None
    except re.error:
        return False


def search_matches(matcher: str, subject: str) -> bool:
    """Cursor's: an expression searched in the name."""
    return matcher.strip() in _ALL or _search(matcher, subject)


def _search(matcher: str, subject: str) -> bool:
    try:
        return re.search(matcher, subject) is not None
    except re.error:
        return False


def regex_problem(matcher: str, agent: str) -> str | None:
    """Why ``agent`` could never use ``matcher`` (it does not compile), or None."""
    if matcher.strip() in _ALL or _EXACT_LIST.fullmatch(matcher):
        return None
    try:
        re.compile(matcher)
    except re.error as exc:
        return f"not a regular expression ({exc}): {agent} would never run this hook"
    return None


# -- Claude's "if" --------------------------------------------------------------------------
_RULE = re.compile(r"\s*([A-Za-z0-9_]+)\s*(?:\((.*)\))?\s*", re.S)
_FILE_TOOLS = frozenset({"Read", "Edit", "MultiEdit", "Write", "NotebookEdit", "Glob", "Grep"})
_SEPARATORS = re.compile(r"&&|\|\||[;|\n]")


def if_rule(rule: str, words: Vocabulary) -> Test:
    """Claude's ``if``: ``Tool`` (every call of it) or ``Tool(pattern)``: for Bash a
    command prefix (``git commit:*``) or glob (``touch *``), tried on the whole command
    and on each command of a ``&&``/``;``/``|`` chain (a filter that runs a hook more
    often than Claude would is safe, one that runs it less is a guard switched off); for
    the file tools a path glob. Only tool events pass; Claude skips such a hook elsewhere."""
    found = _RULE.fullmatch(rule)
    if found is None:
        raise ConfigError(f"'if' {rule!r}: not a Claude permission rule (Tool or Tool(pattern))")
    tool, pattern = found.group(1), (found.group(2) or "").strip()
    if pattern not in ("", "*") and tool != "Bash" and tool not in _FILE_TOOLS:
        raise ConfigError(f"'if' {rule!r}: forge reads a pattern only for Bash and the file tools")

    def admits(event: HookEvent) -> bool:
        if event.type.value not in TOOL_EVENT_TYPES or words.tool_of(event) != tool:
            return False
        if pattern in ("", "*"):
            return True
        args = event.data.get("tool_args")
        args = args if isinstance(args, dict) else {}
        if tool == "Bash":
            return _command_matches(pattern, args.get("command"))
        path = next((args[k] for k in ("file_path", "path", "notebook_path") if isinstance(args.get(k), str)), "")
        return _path_matches(pattern, path)

    return admits


def _command_matches(pattern: str, command: object) -> bool:
    if not isinstance(command, str):
        return False
    parts = [command.strip(), *(p.strip() for p in _SEPARATORS.split(command))]
    if pattern.endswith(":*"):
        prefix = pattern[:-2].strip()
        return any(p == prefix or p.startswith(prefix) for p in parts)
    return any(fnmatchcase(p, pattern) for p in parts)


def _path_matches(pattern: str, path: str) -> bool:
    """A path glob as Claude's rules write them (``./src/**``, ``~/x``, ``//abs``, ``*.env``),
    read generously: the pattern may match the whole path or its end."""
    if not path:
        return False
    glob = pattern.replace("**", "*")
    if glob.startswith("~/"):
        glob = os.path.expanduser("~") + glob[1:]
    elif glob.startswith("//"):
        glob = glob[1:]
    glob = glob.removeprefix("./")
    return fnmatchcase(path, glob) or fnmatchcase(path, "*/" + glob.lstrip("/"))
