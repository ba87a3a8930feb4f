"""The variables a hook's command expands that nothing sets (issue 21 item 2).

A plugin's hook is written ``node "${CLAUDE_PLUGIN_ROOT}/hooks/guard.js"`` and a Gemini
extension's ``node ${extensionPath}/x.js``: outside the agent that fills them in, both
expand to nothing, and what follows depends on the interpreter (node exits 1 and the
guard is off; python exits 2 and every call is denied). ``forge-hook check`` names such
a variable. What counts as set: the hook's own ``env``, forge's variables (``FORGE_*``),
those of the agent the hook is written for (its ``format``), the shell's own, the ones
the command assigns itself (``X=1``, ``for X in``, ``read X``), and the environment
``check`` runs in. A reference with a default (``${X:-y}``) or in single quotes is fine.

A scan, not a parser: it follows quotes and ``\\`` escapes, which is what decides whether
``$X`` expands; a variable it misses is a finding missed, never a false one it invents
out of quoted text.
"""

from __future__ import annotations

import re
from collections.abc import Container

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNED = re.compile(r"(?:^|[\s;&|(`])(?:export\s+|local\s+|readonly\s+|declare\s+(?:-\w+\s+)*)?"
                       r"([A-Za-z_][A-Za-z0-9_]*)(?:\+)?=")
_LOOPED = re.compile(r"\bfor\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\b")
_READ = re.compile(r"\bread\s+((?:-[A-Za-z]+\s+(?:\S+\s+)?)*)([A-Za-z_][A-Za-z0-9_ ]*)")
#: what a shell sets by itself
SHELL_VARIABLES = frozenset({"PWD", "OLDPWD", "IFS", "RANDOM", "LINENO", "SECONDS", "PPID", "UID", "EUID",
                             "HOSTNAME", "REPLY", "OPTARG", "OPTIND", "BASH_SOURCE", "BASH_VERSION", "PS1",
                             "PS4", "SHLVL", "BASHPID", "FUNCNAME", "PIPESTATUS", "HOME", "PATH"})
_DEFAULTS = (":-", ":=", ":+", ":?", "-", "=", "+", "?")


def referenced(command: str) -> list[str]:
    """The variables ``command`` expands without a default, in order, each once."""
    found: list[str] = []
    i, quote = 0, ""
    while i < len(command):
        char = command[i]
        if char == "\\" and quote != "'":
            i += 2
            continue
        if char == "'" and quote != '"':
            quote = "" if quote == "'" else "'"
        elif char == '"' and quote != "'":
            quote = "" if quote == '"' else '"'
        elif char == "$" and quote != "'":
            name, i = _reference(command, i + 1)
            if name and name not in found:
                found.append(name)
            continue
        i += 1
    return found


def _reference(command: str, i: int) -> tuple[str | None, int]:
    """The variable named after a ``$`` at ``i`` (None for ``$1``, ``$(...)``, one with a
    default), and where scanning goes on."""
    if command.startswith("{", i):
        end = command.find("}", i)
        body = command[i + 1:] if end < 0 else command[i + 1:end]
        after = len(command) if end < 0 else end + 1
        match = _NAME.match(body)
        if match is None or body.startswith("#"):
            return None, after
        rest = body[match.end():]
        return (None if rest.startswith(_DEFAULTS) else match.group()), after
    match = _NAME.match(command, i)
    if match is None:
        return None, i  # $1, $@, $$, $(...), $((...)): not a named variable
    return match.group(), match.end()


def assigned(command: str) -> set[str]:
    """The variables ``command`` sets itself before it may use them."""
    names = set(_ASSIGNED.findall(command)) | set(_LOOPED.findall(command))
    for _, listed in _READ.findall(command):
        names.update(listed.split())
    return names


def unset_variables(command: str, known: Container[str]) -> list[str]:
    """The variables ``command`` expands that neither ``known`` nor the command sets."""
    own = assigned(command)
    return [name for name in referenced(command)
            if name not in known and name not in own and name not in SHELL_VARIABLES and not name.startswith("FORGE_")]


#: What to do about the variables people meet most.
HINTS = {
    "CLAUDE_PLUGIN_ROOT": "Claude sets it for a plugin's hooks: import the plugin's hooks/hooks.json "
                          "(forge-hook import --from claude PLUGIN/hooks/hooks.json), which sets it in the "
                          "hook's env, or set it there yourself",
    "CLAUDE_PLUGIN_DATA": "Claude sets it for a plugin's hooks: import the plugin's hooks/hooks.json, or set "
                          "it in the hook's env",
    "extensionPath": "Gemini substitutes it in an extension's hooks: import the extension's hooks/hooks.json "
                     "(forge-hook import --from gemini EXT/hooks/hooks.json), or write the path",
}
