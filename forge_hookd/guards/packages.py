"""package_policy (ask): adding a dependency through a package manager; installing what
the project already declares (``npm ci``, ``pip install -r requirements.txt``) passes,
and so does a package on the allowlist."""

from __future__ import annotations

import re
from fnmatch import fnmatchcase

from forge_hookd.shell.commands import Command
from forge_hookd.guards.base import ALLOWED, ASK, Context, Guard, Option, Ruling
from forge_hookd.shell.lazyre import Lazy

_PYTHON = Lazy(r"(?:python|pypy)[0-9.]*$")
# manager -> (subcommands that add packages, options that take a value)
_ADDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "npm": (frozenset({"install", "i", "add", "isntall", "in", "ins", "inst", "insta", "instal"}),
            frozenset({"--registry", "--prefix", "-w", "--workspace", "--tag"})),
    "pnpm": (frozenset({"add", "install", "i"}), frozenset({"--filter", "-F", "-C", "--dir"})),
    "yarn": (frozenset({"add"}), frozenset({"--cwd"})),
    "bun": (frozenset({"add", "install", "i", "a"}), frozenset({"--cwd"})),
    "pip": (frozenset({"install"}), frozenset({"-i", "--index-url", "--extra-index-url", "-c", "--constraint", "-t",
                                               "--target", "--prefix", "-f", "--find-links", "--python-version"})),
    "uv": (frozenset({"add"}), frozenset({"--group", "--optional", "--index", "-p", "--python", "--package"})),
    "poetry": (frozenset({"add"}), frozenset({"-G", "--group", "--source"})),
    "pdm": (frozenset({"add"}), frozenset({"-G", "--group"})),
    "pipx": (frozenset({"install", "inject"}), frozenset({"--python", "--index-url"})),
    "cargo": (frozenset({"add", "install"}), frozenset({"--git", "--path", "--registry", "--features", "-F", "--rev",
                                                         "--branch", "--tag", "--version", "--vers"})),
    "go": (frozenset({"get", "install"}), frozenset()),
    "gem": (frozenset({"install", "i"}), frozenset({"-v", "--version", "-s", "--source"})),
    "bundle": (frozenset({"add"}), frozenset({"--version", "-v", "--group", "-g", "--source"})),
    "composer": (frozenset({"require", "req"}), frozenset()),
    "dotnet": (frozenset({"add"}), frozenset({"-v", "--version", "-s", "--source"})),
    "brew": (frozenset({"install", "reinstall"}), frozenset()),
    "apt": (frozenset({"install"}), frozenset({"-t", "-o"})), "apt-get": (frozenset({"install"}), frozenset({"-t", "-o"})),
    "dnf": (frozenset({"install"}), frozenset()), "yum": (frozenset({"install"}), frozenset()),
    "apk": (frozenset({"add"}), frozenset({"-X", "--repository"})), "pacman": (frozenset({"-S", "-Sy", "-Syu"}), frozenset()),
    "conda": (frozenset({"install"}), frozenset({"-c", "--channel", "-n", "--name", "-p", "--prefix"})),
    "mamba": (frozenset({"install"}), frozenset({"-c", "--channel", "-n", "--name"})),
    "deno": (frozenset({"add", "install"}), frozenset()),
    "swift": (frozenset(), frozenset()),
}
_RUNS_PACKAGE = frozenset({"npx", "pnpx", "bunx", "uvx", "pipx"})
_FROM_FILES = ("-r", "--requirement", "-e", "--editable", "--requirements")


class PackagePolicy(Guard):
    name = "package_policy"
    summary = "Adding dependencies through a package manager (asks, with an allowlist)"
    catches = ("npm install left-pad", "pip install requests", "uv add httpx", "cargo add serde", "go get x/y",
               "yarn add react", "python -m pip install x", "gem install rails", "npx some-tool")
    options = (
        Option("allow", "list", [], "Packages (globs, without versions) that need no asking"),
        Option("decision", "decision", ASK, "What adding a package is: ask (default) or deny"),
        Option("run_packages", "bool", True, "Also ask before npx/uvx/bunx run a package not on the allowlist"),
    )

    def judge_command(self, command: Command, context: Context) -> Ruling:
        manager, args = _manager(command)
        if manager is None:
            return ALLOWED
        if manager in _RUNS_PACKAGE:
            if not self.opts["run_packages"] or manager == "pipx" and args[:1] != ["run"]:
                return ALLOWED
            packages = _run_target(args)
        else:
            packages = _added(manager, args)
        new = [p for p in packages if not any(fnmatchcase(_bare(p), a) for a in self.opts["allow"])]
        if not new:
            return ALLOWED
        return self.verdict(self.opts["decision"], " ".join(command.argv),
                            f"adds the package{'s' if len(new) > 1 else ''} {', '.join(new[:5])}",
                            "A person should approve new dependencies; or add them to the guard's allow list")


def _manager(command: Command) -> tuple[str | None, list[str]]:
    name, args = command.name, list(command.args)
    if _PYTHON.match(name) and args[:2] == ["-m", "pip"]:
        return "pip", args[2:]
    if name in ("pip3", "pip2") or re.fullmatch(r"pip[0-9.]+", name):
        return "pip", args
    if name == "uv" and args[:1] == ["pip"]:
        return "pip", args[1:]
    if name in ("sudo",):
        return None, []
    if name in _ADDS or name in _RUNS_PACKAGE:
        return name, args
    return None, []


def _added(manager: str, args: list[str]) -> list[str]:
    subcommands, with_value = _ADDS[manager]
    if not args or args[0] not in subcommands:
        return []
    packages, skip = [], False
    for arg in args[1:]:
        if skip:
            skip = False
            continue
        if arg in _FROM_FILES:
            skip = True
            continue
        if arg.startswith("-"):
            skip = arg in with_value
            continue
        if manager == "pip" and (arg in (".", "..") or arg.startswith(("./", "/", "../")) or arg.endswith(".whl")):
            continue
        if manager == "go" and arg in ("./...", "."):
            continue
        packages.append(arg)
    return packages


def _run_target(args: list[str]) -> list[str]:
    for k, arg in enumerate(args):
        if arg in ("-p", "--package", "--from"):
            return [args[k + 1]] if k + 1 < len(args) else []
        if arg == "run":
            continue
        if not arg.startswith("-"):
            return [arg]
    return []


def _bare(package: str) -> str:
    """``requests==2.0`` -> ``requests``; ``@scope/pkg@1`` -> ``@scope/pkg``; ``x/y@v1`` -> ``x/y``."""
    name = re.split(r"[=<>!~\[;]", package, maxsplit=1)[0]
    at = name.rfind("@")
    return name[:at] if at > 0 else name
