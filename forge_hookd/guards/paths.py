"""protected_paths: writing lockfiles, ``.git/``, CI configuration or anything outside
the project, by a file tool or by a shell command (a redirection, ``tee``, ``sed -i``,
``cp``/``mv``/``install`` into it, ``dd of=``, ``truncate``); self_protection: an agent
switching off its own guards by editing forge's config, a ``.forge/`` file or the trust
store, or by running ``forge-hook trust|untrust|disable|remove|install --uninstall``."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from typing import Any

from forge_hookd.shell.commands import Command
from forge_hookd.guards.base import ALLOWED, DENY, WRITE_TOOLS, Context, Guard, Option, Ruling, command_cwd, inside, PathPatterns, \
    operands, paths_of, resolve
from forge_hookd.shell.lazyre import Lazy

#: The managed layer's directory (forge_hookd.managed.SYSTEM_DIR, which a test ties).
MANAGED_SYSTEM_DIR = "/etc/forge"

PROTECTED = ["package-lock.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock", "poetry.lock", "uv.lock",
             "Pipfile.lock", "Cargo.lock", "Gemfile.lock", "composer.lock", "go.sum", "flake.lock", ".git/**",
             ".github/workflows/**", ".gitlab-ci.yml", ".circleci/**", "Jenkinsfile", "azure-pipelines.yml",
             ".buildkite/**", ".travis.yml", "bitbucket-pipelines.yml"]
_ALWAYS_WRITABLE = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/")


def written_paths(command: Command) -> Iterator[str]:
    """The words a command writes to: redirections, tee, sed -i, cp/mv/install/ln's
    destination, dd of=, truncate, and rm/mv/chmod's operands (they change the file)."""
    for redirect in command.redirects:
        if redirect.mode in ("write", "append", "readwrite"):
            yield redirect.target
    name, args = command.name, list(command.args)
    ops = operands(args)
    if name == "tee" or name == "truncate" or name in ("rm", "unlink", "shred", "rmdir", "chmod", "chown", "touch"):
        yield from ops[1:] if name in ("chmod", "chown") else ops
    elif name in ("sed", "perl") and any(a.startswith("-i") or a == "--in-place" or a.startswith("-pi")
                                         for a in args):
        yield from ops[1:] if name == "sed" else ops
    elif name in ("cp", "mv", "install", "ln", "rsync") and len(ops) >= 2:
        yield ops[-1]
        if name == "mv":
            yield from ops[:-1]
    elif name == "dd":
        yield from (a[3:] for a in args if a.startswith("of="))


class ProtectedPaths(Guard):
    name = "protected_paths"
    summary = "Writing lockfiles, .git/, CI configuration, or files outside the project"
    catches = ("Edit package-lock.json", "Write .github/workflows/ci.yml", "echo x > .git/config",
               "sed -i s/a/b/ yarn.lock", "Write /etc/hosts", "echo x >> ~/.bashrc", "cp x ../other/y")
    options = (
        Option("paths", "list", PROTECTED, "Globs of protected files (with a slash: from the project root)"),
        Option("allow", "list", [], "Globs that may be written though they match"),
        Option("outside_project", "bool", True, "Also protect everything outside the project"),
        Option("allow_outside", "list", ["/tmp", "/var/tmp", "/private/tmp"],
               "Directories outside the project that may be written"),
    )
    tools = frozenset({"bash", "write", "edit"})

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self._paths = PathPatterns(self.opts["paths"])
        self._allowed = PathPatterns(self.opts["allow"])

    def judge_file(self, tool: str, tool_args: Mapping[str, Any], context: Context) -> Ruling:
        for word in paths_of(tool_args):
            verdict = self._path(word, resolve(word, context), context, word)
            if verdict.decision != "allow":
                return verdict
        return ALLOWED

    def judge_command(self, command: Command, context: Context) -> Ruling:
        cwd = command_cwd(command, context)
        for word in written_paths(command):
            path = resolve(word, context, cwd) if cwd is not None or word.startswith(("/", "~")) else None
            verdict = self._path(word, path, context, " ".join(command.argv) or f"> {word}")
            if verdict.decision != "allow":
                return verdict
        return ALLOWED

    def _path(self, word: str, path: str | None, context: Context, shown: str) -> Ruling:
        if path is None or path.startswith(_ALWAYS_WRITABLE):
            return ALLOWED
        if self._allowed.match(path, context):
            return ALLOWED
        pattern = self._paths.which(path, context)
        if pattern is not None and (inside(path, context.project_root) or "/" not in pattern.rstrip("/")):
            return self.verdict(DENY, shown, f"writes {word}, a protected file ({pattern})",
                                _SAFELY.get(pattern, "Ask the user to change it"))
        if self.opts["outside_project"] and not inside(path, context.project_root) and \
                not any(inside(path, posixpath.normpath(a)) for a in self.opts["allow_outside"]):
            return self.verdict(DENY, shown, f"writes {path}, outside the project",
                                "Write inside the project, or ask the user")
        return ALLOWED


_SAFELY = {p: "Change the manifest and let the package manager rewrite the lockfile" for p in PROTECTED
           if "lock" in p or p == "go.sum"}
_SAFELY[".git/**"] = "Use git commands, not edits of .git/"


# -- self-protection ----------------------------------------------------------------------------------
_FORGE_HOOK = Lazy(r"forge[-_]hook(?:\.py)?$")
_SWITCH_OFF = frozenset({"trust", "untrust", "disable", "remove", "rm", "uninstall", "pull"})  # pull: the managed policy
_READERS = frozenset({"cat", "less", "more", "head", "tail", "grep", "rg", "ls", "stat", "wc", "diff", "file", "jq",
                      "bat", "view", "test", "[", "[["})


#: The module paths that run forge-hook: its own, and the one it had before the wings
#: (issue 29: a move must not open a way for an agent to trust its own project).
_MANAGE_MODULES = frozenset({"forge_hookd.cli.manage", "forge_hookd.manage"})


def _forge_hook_args(command: Command) -> list[str] | None:
    """The arguments of ``forge-hook`` however it is spelled: a path, ``python -m
    forge_hookd.manage`` (or ``forge_hookd.cli.manage``, or any other of forge's modules),
    ``python -c`` code that names forge_hookd and calls forge-hook's main."""
    if _FORGE_HOOK.search(command.name):
        return list(command.args)
    if command.name.startswith(("python", "pypy")):
        args = list(command.args)
        for k, arg in enumerate(args[:-1]):
            module = args[k + 1]
            if arg == "-m" and (module == "forge_hookd" or module.startswith("forge_hookd.")):
                return args[k + 2:] if module in _MANAGE_MODULES else ["(forge_hookd)", *args[k + 2:]]
        code = command.inline_code
        if code is not None and "forge_hookd" in code[1]:
            return ["(python code)", code[1]]
    return None


_PERSON_TRUSTS = "Only a person trusts a project's hooks, after reviewing them: ask the user to run it"


def _subcommand(args: list[str]) -> str | None:
    """forge-hook's subcommand among its arguments (past --project-root DIR and flags)."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--project-root":
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def _trust_store(path: str, context: Context) -> bool:
    """Whether ``path`` is the trust store, its directory, or a directory holding it."""
    store_dir = context.data_dir or posixpath.join(context.home, ".local/share/forge")
    return inside(path, store_dir) or (inside(store_dir, path) and path not in ("/", context.home))


class SelfProtection(Guard):
    name = "self_protection"
    summary = "An agent switching off its own guards: forge's config, .forge/, the trust store, forge-hook trust"
    catches = ("Edit ~/.config/forge/hooks.json", "Write .forge/hooks.json", "rm -rf .forge",
               "Write /etc/forge/managed.d/x.json",
               "forge-hook trust", "forge-hook disable 0", "python -m forge_hookd.manage remove 'tool:*'",
               "sh -c '~/.local/bin/forge-hook trust'", "echo {} > ~/.local/share/forge/trust.json",
               "forge-hook install --uninstall")
    options = (Option("only", "str", "all", '"trust": only running forge-hook trust and writing the trust store '
                                            "(what forge-hook-run itself denies to every agent, without config)"),)
    tools = frozenset({"bash", "write", "edit"})

    @classmethod
    def validate(cls, options: object) -> list[str]:
        problems = super().validate(options)
        if not problems and isinstance(options, Mapping) and options.get("only", "all") not in ("all", "trust"):
            problems.append(f'guard {cls.name}: option \'only\' must be "all" or "trust"')
        return problems

    def judge_file(self, tool: str, tool_args: Mapping[str, Any], context: Context) -> Ruling:
        for word in paths_of(tool_args):
            path = resolve(word, context)
            if path is not None and self.opts["only"] == "trust" and _trust_store(path, context):
                return self.verdict(DENY, word, "writes forge's trust records", _PERSON_TRUSTS)
            if path is not None and self.opts["only"] == "all" and self._forge_file(path, context):
                return self.verdict(DENY, word, "edits forge's own configuration",
                                    "Only a person edits forge's hooks; tell the user what you would change")
        return ALLOWED

    def judge_command(self, command: Command, context: Context) -> Ruling:
        if self.opts["only"] == "trust":
            return self._trusting(command, context)
        shown = " ".join(command.argv)
        args = _forge_hook_args(command)
        if args is not None:
            words = set(args)
            if words & _SWITCH_OFF or "--uninstall" in words or args[:1] == ["(python code)"] and \
                    re.search(r"trust|disable|remove|uninstall", args[1]) or args[:1] == ["(forge_hookd)"]:
                return self.verdict(DENY, shown, "changes which of forge's guards run",
                                    "Only a person trusts, disables or removes hooks: ask the user to run it")
        if command.name in _READERS and not any(r.mode in ("write", "append") for r in command.redirects):
            return ALLOWED
        cwd = command_cwd(command, context)
        for word in [*written_paths(command), *(w for w in command.args if ".forge" in w or "forge/" in w)]:
            path = resolve(word, context, cwd) if cwd is not None or word.startswith(("/", "~")) else None
            if path is not None and self._forge_file(path, context):
                return self.verdict(DENY, shown, f"changes forge's own file {word}",
                                    "Only a person edits forge's hooks and trust; ask the user")
        return ALLOWED

    def _trusting(self, command: Command, context: Context) -> Ruling:
        """``only: trust``: forge-hook trust however spelled, or a write into the trust store."""
        shown = " ".join(command.argv)
        args = _forge_hook_args(command)
        if args is not None and (_subcommand(args) == "trust" or args[:1] == ["(python code)"] and
                                 "trust" in " ".join(command.argv)):
            return self.verdict(DENY, shown, "trusts a project's hooks", _PERSON_TRUSTS)
        cwd = command_cwd(command, context)
        for word in [*written_paths(command), *(w for w in command.args if "forge" in w or "trust" in w)]:
            path = resolve(word, context, cwd) if cwd is not None or word.startswith(("/", "~")) else None
            if path is not None and _trust_store(path, context) and (command.name not in _READERS or any(
                    r.mode in ("write", "append") for r in command.redirects)):
                return self.verdict(DENY, shown, f"changes forge's trust records ({word})", _PERSON_TRUSTS)
        return ALLOWED

    def _forge_file(self, path: str, context: Context) -> bool:
        if "/.forge/" in path + "/" and inside(path, context.project_root) or path.endswith("/.forge"):
            return True
        dirs = [d for d in (context.config_dir, context.data_dir, context.managed_dir) if d]
        dirs.append(MANAGED_SYSTEM_DIR)  # the managed layer (issue 35)
        dirs += [posixpath.join(context.home, ".config", "forge"), posixpath.join(context.home, ".local/share/forge")]
        return any(inside(path, d) for d in dirs) or any(inside(d, path) and path != "/" and
                                                         path != context.home for d in dirs if path != "/")
