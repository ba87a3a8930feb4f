"""What still calls forge once its executables are gone: ``./install.sh --uninstall``
runs this first (``python -m forge_hookd.agents.leftovers``), so that nobody is left with every
new shell printing "forge-hook-run: command not found" or every commit blocked by a git
hook that cannot start, without knowing why.

It looks where forge is called from, and only reads:

- shell start-up files that hold the completion lines (``_FORGE_HOOK_COMPLETE``,
  ``_FORGE_HOOK_RUN_COMPLETE``) or call the executables;
- git hooks that call them: in the projects the user trusted (the trust records), the
  repository of the current directory, and a ``core.hooksPath`` of the user's;
- agents' settings that ``forge-hook install`` wired (its install records) and that
  still run forge-hook-run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson

from forge_hookd.agents import record as wirerecord

from forge_hookd.trust import store as trust
from forge_hookd.errors import ConfigError
from forge_hookd.readfile import read_regular
from forge_hookd.text import visible

_WORDS = (b"forge-hook-run", b"forge-hook", b"_FORGE_HOOK_COMPLETE", b"_FORGE_HOOK_RUN_COMPLETE")
_SHELL_FILES = (".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile",
                ".zlogin", ".config/fish/config.fish")


def shell_lines(home: Path, zdotdir: str | None = None) -> Iterator[str]:
    """``FILE:LINE: text`` for each line of a shell start-up file that names forge."""
    names = [home / name for name in _SHELL_FILES]
    names += [Path(zdotdir) / name for name in (".zshrc", ".zshenv") if zdotdir]
    names += sorted((home / ".config/fish/conf.d").glob("*.fish")) + sorted(
        (home / ".config/fish/completions").glob("forge-hook*.fish"))
    for path in dict.fromkeys(names):
        for number, line in enumerate(_read(path).splitlines(), 1):
            if any(word in line for word in _WORDS) and not line.lstrip().startswith(b"#"):
                yield f"{path}:{number}: {line.decode('utf-8', 'replace').strip()}"


def git_hooks(roots: list[Path]) -> Iterator[str]:
    """Each git hook whose text calls forge: in the hooks directory of each of ``roots``
    (as git finds it: a worktree's, a ``core.hooksPath``) and in the user's own
    ``core.hooksPath``."""
    directories = [_hooks_directory(root) for root in roots] + _global_hooks_directory()
    for directory in dict.fromkeys(directories):
        for hook in sorted(directory.iterdir()) if directory.is_dir() else []:
            if not hook.name.endswith(".sample") and any(word in _read(hook) for word in _WORDS[:2]):
                yield str(hook)


def agent_settings() -> Iterator[str]:
    """Each agent settings file that ``forge-hook install`` wrote and that still runs
    forge-hook-run, with the command that takes it out."""
    try:
        records = wirerecord.load()
    except ConfigError:
        return
    for record in records.values():
        if record.kind not in ("json", "requirements") or b"forge-hook-run" not in _read(Path(record.path)):
            continue
        if record.scope == "project":  # perhaps another repository's, and committed: never edited from here
            yield (f"{record.path} ({record.agent}): a project's settings; take its forge-hook-run entries out "
                   f"there (before uninstalling: forge-hook install --agent {record.agent} --project --uninstall "
                   "in that project)")
        else:
            yield (f"{record.path} ({record.agent}): undo with forge-hook install --agent {record.agent} "
                   f"--{record.scope} --uninstall before uninstalling, or take its forge-hook-run entries out")


def trusted_roots() -> list[Path]:
    """The project roots the user trusted (forge's trust records), read only."""
    try:
        raw = read_regular(trust.trust_store_path())
        doc = orjson.loads(raw) if raw else {}
    except (ConfigError, orjson.JSONDecodeError):
        return []
    projects = doc.get("projects") if isinstance(doc, dict) else None
    return [Path(root) for root in projects] if isinstance(projects, dict) else []


def report(home: Path, cwd: Path) -> list[str]:
    """Lines for people: everything found, under a heading that says why it matters."""
    sections = [("shell start-up lines that call forge (each new shell would say 'command not found'; "
                 "remove them):", list(shell_lines(home, os.environ.get("ZDOTDIR")))),
                ("git hooks that call forge (every commit there would fail; remove them or the lines "
                 "that call forge):", list(git_hooks([*trusted_roots(), *_repository(cwd)]))),
                ("agent settings that run forge-hook-run (the agent's hooks would fail to start):",
                 list(agent_settings()))]
    lines: list[str] = []
    for heading, found in sections:
        if found:
            lines += [heading, *(f"  {visible(item)}" for item in found)]
    return lines


def _read(path: Path) -> bytes:
    try:
        return read_regular(path) or b""
    except (ConfigError, OSError):
        return b""


def _git(*args: str) -> str | None:
    """What ``git ARGS`` prints, None when it fails or there is no git."""
    try:
        done = subprocess.run(["git", *args], capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


def _hooks_directory(root: Path) -> Path:
    found = _git("-C", str(root), "rev-parse", "--git-path", "hooks")
    return root / ".git" / "hooks" if found is None else Path(found) if Path(found).is_absolute() else root / found


def _global_hooks_directory() -> list[Path]:
    found = _git("config", "--global", "core.hooksPath")
    return [] if found is None else [Path(os.path.expanduser(found))]


def _repository(cwd: Path) -> list[Path]:
    return [directory for directory in (cwd, *cwd.parents) if (directory / ".git").exists()][:1]


def main() -> int:
    for line in report(Path(os.path.expanduser("~")), Path.cwd()):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
