"""A blocking hook whose script is gone fails (issue 20, item 3; DESIGN.md, "Running").

``node .claude/hooks/guard.js`` with the file deleted exits 1, and every agent reads a
hook's exit 1 as "proceed": a guard switched off in silence, in all five formats. So a
blocking hook (forge or format) whose command names a file in the project that does not
exist denies, with "script missing: PATH" as its reason, whatever its exit status.

Where: in the executor's judging of a *finished* hook, one check in front of both judges
(forge's and the format's), not before the start. After the run the file system is the
one the hook saw (a hook that builds its script first, ``make gen && ./gen/x``, is not
refused), ``|| true`` cannot hide the failure, and ``python3 -m missing`` can be told by
the interpreter's own verdict: runpy's "No module named missing" on stderr with a failing
status. That module case goes no further: which modules an interpreter can import
depends on its sys.path, which only running it can tell, so an installed module is never
guessed missing (a static search of the project would be a guess either way).

The named files are found by :func:`forge_hookd.shell.scripts.script_words` (the shell parser
trust and the guards use), with the project variables the agents give their hooks
(``$CLAUDE_PROJECT_DIR`` ...: every dialect's ``hooks.env``) and the hook's own ``env``
substituted. A file outside the project, a word holding another variable, a path the
command tests first (``[ -f X ] && sh X``) are left alone.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from forge_hookd.events import PROJECT_DIR_VAR, WORKING_DIR_VAR

if TYPE_CHECKING:
    from forge_hookd.answers import Finished
    from forge_hookd.events import HookEvent
    from forge_hookd.registry import Hook

# Two regular expressions spare the parser (importing it costs 4 ms at best, on every run:
# bench/README.md, "Missing scripts"), each a necessary condition, not a second tokenizer:
# a command names a script only with a "/" or an interpreter (or "." or -m) in it ...
_MAYBE_SCRIPT = (r"/|\s-m|\b(?:(?:ba|z|da|k|mk|a)?sh|fish|python[\d.]*|pypy[\d.]*|nodejs|node|perl|ruby|"
                 r"source)\b|(?:^|[\s;&|(])\.\s")
# Substrings that every match of _MAYBE_SCRIPT holds: "true" or "exit 0" never compile it.
_HINTS = ("/", "-m", "sh", "python", "pypy", "node", "perl", "ruby", "source", ".")
# ... and a command that exited 0 ran its script, unless something in it can hide a failing
# status: || ; & (not &&, not a redirection's &) | (not ||) ! $( ` or a newline. An
# interpreter given a missing script fails (node 1, python 2, sh 127, runpy 1).
_HIDES_STATUS = r"\|\||;|\n|(?<![&<>])&(?![&>])|(?<!\|)\|(?!\|)|!|\$\(|`"
# What Node tries after the name it was given (node x: x.js, x.json, x.node, x/index.js).
_NODE_SUFFIXES = ("", ".js", ".mjs", ".cjs", ".json", ".node")


class MissingScripts:
    """The check for one run: ``check(hook, result, cwd)`` is the reason a finished
    hook fails because its script is gone, or None. Variables are worked out once per
    run, and only when a command uses one."""

    def __init__(self, event: HookEvent, project_dir: str) -> None:
        self.event, self.project_dir = event, project_dir
        self._agent_vars: dict[str, dict[str, str]] | None = None

    def check(self, hook: Hook, result: Finished, cwd: str) -> str | None:
        command = hook.command
        if not any(part in command for part in _HINTS) or not _compiled(_MAYBE_SCRIPT).search(command):
            return None
        if result.exit_code == 0 and not _compiled(_HIDES_STATUS).search(command):
            return None  # the healthy run's path: no parser
        from forge_hookd.shell.scripts import script_words

        scripts = script_words(command, variables=self._variables(hook, cwd) if "$" in command else None)
        for runner, path in scripts.files:
            if path not in scripts.tested and self._gone(runner, os.path.normpath(os.path.join(cwd, path))):
                return f"script missing: {path} (the hook's command names it and it does not exist)"
        for runner, module in scripts.modules:
            if result.exit_code not in (0, None) and _no_module(module).search(result.stderr):
                return f"script missing: {runner} -m {module} (No module named {module})"
        return None

    def _gone(self, runner: str, path: str) -> bool:
        if os.path.commonpath([self.project_dir, path]) != self.project_dir:
            return False  # only the project's own files: elsewhere is not ours to judge
        suffixes = _NODE_SUFFIXES if runner in ("node", "nodejs") else ("",)
        return not any(os.path.exists(path + suffix) for suffix in suffixes)

    def _variables(self, hook: Hook, cwd: str) -> Mapping[str, str]:
        """The values the hook's shell will see for the agents' project variables (their
        names: every dialect's ``hooks.env``): its format's own, else the caller's (an
        agent that runs forge-hook-run passes its own), and the hook's ``env``."""
        if self._agent_vars is None:
            from forge_hookd import dialects

            self._agent_vars = {name: _absolute(dialects.get(name).hooks.env(self.event, self.project_dir))
                                for name in dialects.NAMES}
        names = {k for env in self._agent_vars.values() for k in env}
        known = {k: os.environ[k] for k in names if os.environ.get(k, "").startswith("/")}
        known.update(self._agent_vars.get(hook.format or "", {}))
        known.update(hook.env)
        known.update({PROJECT_DIR_VAR: self.project_dir, WORKING_DIR_VAR: cwd})
        return known


def _absolute(env: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if v.startswith("/")}


@functools.cache  # compiled on first use: a command such as "true" never needs them
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _no_module(module: str) -> re.Pattern[str]:
    """runpy's words for a module it cannot find (``python3: No module named x``, or for
    a dotted name whose package is missing, ``Error while finding module specification``)."""
    name = re.escape(module)
    return re.compile(rf": (?:No module named {name}\b|Error while finding module specification for '{name}')")
