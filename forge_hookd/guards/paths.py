"""protected_paths: writing lockfiles, ``.git/``, CI configuration or anything outside
the project, by a file tool or by a shell command (a redirection, ``tee``, ``sed -i``,
``cp``/``mv``/``install`` into it, ``dd of=``, ``truncate``, a download saved there,
an archive unpacked there); self_protection: an agent
switching off its own guards by editing forge's config, a ``.forge/`` file, the trust
store, an agent's settings where forge is wired or forge's own installation (what
:mod:`wired` derives from what forge wired), or by running ``forge-hook
trust|untrust|disable|remove|install --uninstall``."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from typing import Any

from forge_hookd.shell.commands import PYTHON, Command, Parsed, written_text
from forge_hookd.guards.base import ALLOWED, ASK, DENY, WRITE_TOOLS, Context, Guard, Option, Ruling, command_cwd, \
    defaults_taken, in_home_cache, inside, valued, \
    PathPatterns, gives_to_oneself, git_args, operands, paths_of, resolve, without_cmd_switches, written_redirects
from forge_hookd.shell.lazyre import Lazy
from forge_hookd.shell.sed import backups, edits_in_place, in_place

#: The managed layer's directory (forge_hookd.managed.SYSTEM_DIR, which a test ties).
MANAGED_SYSTEM_DIR = "/etc/forge"

PROTECTED = ["package-lock.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock", "poetry.lock", "uv.lock",
             "Pipfile.lock", "Cargo.lock", "Gemfile.lock", "composer.lock", "go.sum", "flake.lock", ".git/**",
             ".github/workflows/**", ".gitlab-ci.yml", ".circleci/**", "Jenkinsfile", "azure-pipelines.yml",
             ".buildkite/**", ".travis.yml", "bitbucket-pipelines.yml"]
# bash's /dev/tcp/HOST/PORT is a connection, no file: remote_code judges what goes through it
_ALWAYS_WRITABLE = ("/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/", "/dev/tcp/",
                    "/dev/udp/")


#: an operand of scp that names the other machine's side (``user@host:path``, ``host:``)
_REMOTE_SIDE = Lazy(r"(?:[\w.-]+@)?(?:\[[0-9a-fA-F:]+\]|[\w.-]+):", needs=(":",))


def written_paths(command: Command) -> Iterator[str]:
    """The words a command writes to: redirections, tee, sed -i, cp/mv/install/ln's
    destination, dd of=, truncate, find -fprint/-fls, rm/mv/chmod/chattr's operands (they
    change the file), where a download is saved (curl -o, wget -O/-P), where an archive is
    unpacked (tar -x -C, unzip -d, 7z x -o) and where one is created (tar -cf, zip, 7z a, ditto)."""
    yield from written_redirects(command)
    name, args = command.name, list(command.args)
    ops = operands(args, mode_first=name == "chmod")
    if name == "touch":  # -r FILE and -d/-t DATE are read, not written (touch -acmr /bin/sh f writes f)
        yield from _operands_after_values(args, "rdt", ("--reference", "--date"))
    elif name == "tee" or name == "truncate" or name in ("rm", "unlink", "shred", "rmdir", "chmod", "chown"):
        yield from ops[1:] if name in ("chmod", "chown") else without_cmd_switches(args, ops)
    elif name in ("chattr", "chflags"):  # a file's attributes changed: chattr -i /etc/passwd, chflags -R 0 /
        yield from ops[1:] if name == "chflags" else (o for o in ops if not o.startswith(("+", "=")))
    elif name in ("sed", "gsed") and (suffix := in_place(args)) is not None:
        yield from ops[1:]  # the first is the script (or -e's value, which operands keeps too)
        yield from backups(suffix, ops[1:])
    elif name == "perl" and edits_in_place(name, args):
        yield from ops
    elif name in ("cp", "mv", "install", "ln", "rsync", "scp") and len(ops) >= 2:
        if not (name == "scp" and _REMOTE_SIDE.match(ops[-1])):  # scp host:F /etc/x writes /etc/x here
            yield ops[-1]
        if name == "mv":
            yield from ops[:-1]
    elif name == "dd":
        yield from (a[3:] for a in args if a.startswith("of="))
    elif name == "find":  # -fprint FILE and the like write the list of names there
        yield from (args[k + 1] for k, a in enumerate(args[:-1]) if a in _FIND_WRITES)
    elif name == "sort":
        yield from (args[k + 1] for k, a in enumerate(args[:-1]) if a == "-o")
        yield from (a.partition("=")[2] if a.startswith("--output=") else a[2:] for a in args
                    if a.startswith("--output=") or a.startswith("-o") and len(a) > 2)
    elif name in _FETCHERS or name in _UNPACKERS:
        yield from (w for w in _fetched_or_unpacked(name, args) if w and w != "-")
    if name in _PACKERS:
        yield from (w for w in _packed(name, args) if w and w != "-")
    yield from (w for w in written_by_options(command) if w and w != "-")


def _operands_after_values(args: list[str], takes_value: str, longs: tuple[str, ...]) -> Iterator[str]:
    """The operands of a command whose options ``takes_value`` (single letters, ending a
    cluster) and ``longs`` take the next word as their value."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("--"):
            skip = arg in longs
        elif arg.startswith("-") and len(arg) > 1:
            at = next((k for k, letter in enumerate(arg[1:], start=1) if letter in takes_value), None)
            skip = at is not None and at == len(arg) - 1
        else:
            yield arg


#: archivers that create an archive, and where it goes: tar's -f, zip's and 7z's first operand,
#: ditto's last (``zip ~/data.zip x``, ``tar -czf ~/x.tgz .`` write into the home)
_PACKERS = frozenset({"tar", "gtar", "bsdtar", "zip", "7z", "7za", "7zz", "7zr", "ditto"})
_TAR_VALUED = "CfTXbgKNLVH"


def _packed(name: str, args: list[str]) -> Iterator[str]:
    """Where an archive is created: ``tar -czf FILE``, ``tar czf FILE`` (the old form),
    ``zip FILE ...``, ``7z a FILE ...``, ``ditto -c -k SRC FILE``; ``-`` is the output."""
    if name in ("tar", "gtar", "bsdtar") and _tar_creates(args):
        first = args[0] if args else ""
        if first and not first.startswith("-") and "f" in first:  # tar czf FILE ...: the old form
            valued_letters = [c for c in first if c in _TAR_VALUED]
            if valued_letters and len(args) > valued_letters.index("f") + 1:
                yield args[valued_letters.index("f") + 1]
        else:
            yield from valued(args, "f", ("--file",), _TAR_VALUED)
    elif name == "zip":
        yield from list(_operands_after_values(args, "bnPtOsUY", ("--password", "--temp-path", "--suffixes", "--out",
                                                                   "--split-size")))[:1]
    elif name.startswith("7z") and operands(args)[:1] in (["a"], ["u"]):
        yield from operands(args)[1:2]
    elif name == "ditto" and len(operands(args)) >= 2:
        yield operands(args)[-1]


def _tar_creates(args: list[str]) -> bool:
    """``tar -czf x.tgz .``, ``tar czf x.tgz .``, ``tar --create``: an archive written (``-r``
    and ``-u`` append to one)."""
    if any(a in ("--create", "--append", "--update") for a in args):
        return True
    first = args[0] if args else ""
    return bool(set("cru") & set(first.lstrip("-"))) and not first.startswith("--") or \
        any(a.startswith("-") and not a.startswith("--") and bool(set("cru") & set(a[1:])) for a in args)


#: the commands guards/outputs.py reads the options, scripts or code of (its own tables, held
#: equal by a test), and the wrappers that write a log: outputs.py loads only for one of them
#: or a one-liner, not for the git, npm and make of every day (0.7 M instructions of a cold run:
#: bench/README.md, "The pack's cold cost, stage by stage")
OUTPUT_HEADS = frozenset({"gcc", "g++", "cc", "c++", "clang", "clang++", "rustc", "iconv", "pandoc", "tcpdump", "mypy",
                          "openssl", "screen", "xxd", "script", "sed", "gsed", "make", "gmake", "vim", "vi", "nvim",
                          "view", "vimdiff", "rvim", "ex", "gvim", "gdb", "sqlite3", "socat", "nmap", "plutil",
                          "PlistBuddy", "defaults"})
OUTPUT_WRAPPERS = frozenset({"strace", "ltrace", "rlwrap", "time", "screen"})
_CONTAINER_CLIS = frozenset({"docker", "podman", "nerdctl", "kubectl"})


def written_by_options(command: Command) -> Iterator[str]:
    """The files ``command`` writes through its own options, script or code (guards/outputs.py)."""
    name = command.name
    if command.inline_code is None and name not in OUTPUT_HEADS and \
            not (name in _CONTAINER_CLIS and "cp" in command.args) and \
            not (name == "git" and "--unsafe-paths" in command.args) and \
            not any(posixpath.basename(w[0]) in OUTPUT_WRAPPERS for w in command.wrappers):
        return iter(())
    from forge_hookd.guards import outputs

    return outputs.written_by_options(command)


#: downloaders and the options whose value is a file or directory they write: the single
#: letters (in a cluster, ``-sSLo FILE``), the long names, and every single letter that
#: takes a value (which ends a cluster: the rest of the word, or the next word, is it)
_FETCHERS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "curl": ("oDc", ("--output", "--output-dir", "--dump-header", "--cookie-jar"), "dDHuXAebcToFwxmrKECyYzUtQP"),
    "wget": ("OPoa", ("--output-document", "--directory-prefix", "--output-file", "--append-output"),
             "oaeiBOPTtwQlUDIXRA"),
}
#: archivers that unpack, and what says where: tar's ``-C DIR``, unzip's ``-d DIR``, 7z's ``-oDIR``
_UNPACKERS = frozenset({"tar", "gtar", "bsdtar", "unzip", "7z", "7za", "7zz", "7zr"})
#: unzip's options that only list, test or print to the output: nothing is written
_UNZIP_READS = frozenset({"-l", "-t", "-v", "-p", "-z", "-Z", "-c"})


def _fetched_or_unpacked(name: str, args: list[str]) -> Iterator[str]:
    """Where a download is saved (``curl -o FILE``, ``wget -O FILE``, ``wget -P DIR``) or an
    archive unpacked (``tar -x -C DIR``, ``unzip -d DIR``, ``7z x -oDIR``): writes of that
    target as a redirection's are; a download to the output (``-o -``) writes no file."""
    if name in _FETCHERS:
        yield from valued(args, *_FETCHERS[name])
    elif name in ("tar", "gtar", "bsdtar") and _tar_extracts(args):
        yield from valued(args, "C", ("--directory", "--cd"), "CfTXbgKNLVH")
    elif name == "unzip" and not _UNZIP_READS.intersection(args):
        yield from (args[k + 1] if a == "-d" else a[2:] for k, a in enumerate(args)
                    if a == "-d" and k + 1 < len(args) or a.startswith("-d") and len(a) > 2)
    elif name.startswith("7z") and operands(args)[:1] in (["x"], ["e"]):
        yield from (a[2:] for a in args if a.startswith("-o") and len(a) > 2)


def _tar_extracts(args: list[str]) -> bool:
    """``tar -xzf a.tgz``, ``tar xf a.tar`` (the old form: the first word's letters),
    ``tar --extract``: an extraction, which writes where ``-C`` says."""
    if any(a in ("--extract", "--get") for a in args):
        return True
    first = args[0] if args else ""
    return "x" in first.lstrip("-") and not first.startswith("--") or \
        any(a.startswith("-") and not a.startswith("--") and "x" in a[1:] for a in args)


#: the files python runs at every start from a site-packages directory (a `.pth` file's import
#: lines too): written where the line cannot tell, they may run in every python of the user
_STARTUP_HOOKS = frozenset({"usercustomize.py", "sitecustomize.py"})
#: find's actions that write the names found into a file (GNU find)
_FIND_WRITES = frozenset({"-fls", "-fprint", "-fprint0", "-fprintf"})
_HOOK_ADDERS = frozenset({"cp", "install", "ln"})
_NO_HOOK = ("/dev/null", "/dev/zero")


def adds_hook(command: Command, path: str, context: Context, folder: str = ".git/hooks") -> bool:
    """Whether ``command`` puts a hook into the repository's own hook ``folder`` (``.git/hooks``,
    ``.husky`` ...) at ``path`` (a file copied, installed or linked there, or made executable): a
    hook added, not one switched off. Emptying one (``cp /dev/null``), taking its x bit
    (``chmod -x``, ``644``), removing or moving it away is no addition."""
    hooks = posixpath.join(context.project_root, folder)
    if not inside(path, hooks) or path == hooks and command.name not in _HOOK_ADDERS:
        return False  # into the folder itself: cp x .git/hooks/
    if command.name in _HOOK_ADDERS:
        ops = operands(command.args)
        sources = ops[:-1]
        return bool(sources) and not any(s in _NO_HOOK for s in sources) and not written_redirects(command)
    if command.name == "chmod":
        ops = operands(command.args, mode_first=True)
        return bool(ops) and _GIVES_X.search(ops[0]) is not None and not command.redirects
    content = written_text(command)
    return content is not None and _runs_something(content)


#: the first words of a hook's line that check nothing: what a hook switched off is left with
_DOES_NOTHING = frozenset({"exit", "true", ":", "return", "echo", "printf"})


def _runs_something(script: str) -> bool:
    """Whether a hook's text runs a check: not empty, nor only ``exit 0``, ``true``, ``:`` or an
    ``echo`` (what a hook switched off is left with), comments and a shebang aside."""
    lines = [line.strip() for line in script.replace("\\n", "\n").splitlines()]
    return any(line and not line.startswith("#") and line.split()[0].rstrip(";") not in _DOES_NOTHING
               for line in lines)


# A mode that leaves the owner able to run the file: +x, u+x, a+x, or octal with the owner's x.
_GIVES_X = Lazy(r"^[ugoa]*\+[rwXst]*x[rwxXst]*$|^0?[1357][0-7]{2}$")


class ProtectedPaths(Guard):
    name = "protected_paths"
    summary = "Writing lockfiles, .git/, CI configuration, or files outside the project"
    catches = ("Edit package-lock.json", "Write .github/workflows/ci.yml", "echo x > .git/config",
               "sed -i s/a/b/ yarn.lock", "Write /etc/hosts", "echo x >> ~/.bashrc", "cp x ../other/y",
               "tar -xf a.tar -C /etc", "curl -o ~/.bashrc URL")
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

    def judge_shell(self, parsed: Parsed, context: Context) -> Ruling:
        """Besides each command: a write through a link the same line made (``ln -s
        /etc/hosts h && echo x > h`` writes /etc/hosts), judged as a write of its target."""
        if any(c.name == "ln" for c in parsed.commands):
            links = _links_made(parsed, context)
            for command in parsed.commands if links else ():
                verdict = self._through_links(command, context, links)
                if verdict.decision != "allow":
                    return verdict
        return super().judge_shell(parsed, context)

    def _through_links(self, command: Command, context: Context, links: dict[str, str]) -> Ruling:
        cwd = command_cwd(command, context)
        for word in written_paths(command) if command.name != "ln" else ():
            path = resolve(word, context, cwd) if cwd is not None or word.startswith(("/", "~")) else None
            for link, target in links.items() if path is not None else ():
                if path is not None and inside(path, link) and link != "/":
                    real = target + path[len(link):]
                    verdict = self._path(word, real, context, " ".join(command.argv) or f"> {word}", command.name,
                                         command)
                    if verdict.decision != "allow":
                        return verdict
        return ALLOWED

    def judge_command(self, command: Command, context: Context) -> Ruling:
        if command.via == "ssh":  # `ssh deploy@host 'cat > /srv/app.zip'`: a file of the other machine, which
            return ALLOWED  # has no project (what deletes or reads secrets there, the other guards still judge)
        cwd = command_cwd(command, context)
        redirected = set(written_redirects(command))
        for word in written_paths(command):
            path = resolve(word, context, cwd) if cwd is not None or word.startswith(("/", "~")) else None
            how = "" if word in redirected else command.name
            if path is None and posixpath.basename(word) in _STARTUP_HOOKS or \
                    path is None and word.endswith(".pth") and "$" in word:
                return self.verdict(ASK, " ".join(command.argv) or f"> {word}", f"writes {word}, code every later "
                                    "python runs at its start, where the line cannot tell (a site-packages of the "
                                    "user or the system?)", "Write it inside the project's own virtual environment, "
                                    "or ask the user")
            verdict = self._path(word, path, context, " ".join(command.argv) or f"> {word}", how, command)
            if verdict.decision != "allow":
                return verdict
        return ALLOWED

    def _path(self, word: str, path: str | None, context: Context, shown: str, how: str = "",
              command: Command | None = None) -> Ruling:
        if path is None or path.startswith(_ALWAYS_WRITABLE):
            return ALLOWED
        if self._allowed.match(path, context):
            return ALLOWED
        pattern = self._paths.which(path, context)
        if pattern is not None and (inside(path, context.project_root) or "/" not in pattern.rstrip("/")) and \
                not (how in ("rm", "unlink") and pattern in _LOCKFILES) and \
                not (command is not None and pattern == ".git/**" and adds_hook(command, path, context)):
            return self.verdict(DENY, shown, f"writes {word}, a protected file ({pattern})",
                                _SAFELY.get(pattern, "Ask the user to change it"))
        if how in ("chmod", "chown", "chgrp") and inside(path, context.home) and path != context.home:
            return ALLOWED  # the owner or mode of one's own files, not their content (privilege_escalation's)
        if self.opts["outside_project"] and not inside(path, context.project_root) and \
                not any(inside(path, posixpath.normpath(a)) for a in self.opts["allow_outside"]) and \
                not in_home_cache(path, context):
            return self.verdict(DENY, shown, f"writes {path}, outside the project",
                                "Write inside the project, or ask the user")
        return ALLOWED


def _links_made(parsed: Parsed, context: Context) -> dict[str, str]:
    """The symbolic links ``ln -s TARGET [LINK]`` makes in the line, each link's path to its
    target's (a relative target is taken from the link's directory, as the system does)."""
    links: dict[str, str] = {}
    for command in parsed.commands:
        args = list(command.args)
        if command.name != "ln" or not any(a == "--symbolic" or a.startswith("-") and not a.startswith("--") and
                                           "s" in a for a in args):
            continue
        ops, cwd = operands(args), command_cwd(command, context)
        if not ops or cwd is None:
            continue
        link = resolve(ops[-1] if len(ops) >= 2 else posixpath.basename(ops[0].rstrip("/")), context, cwd)
        target = resolve(ops[0], context, posixpath.dirname(link) or "/") if link is not None else None
        if link is not None and target is not None:  # a part the line cannot know: no link to follow
            links[link] = target
    return links


#: Lockfiles: deleting one is no edit (the package manager writes a new one from the manifest).
_LOCKFILES = frozenset(p for p in PROTECTED if "lock" in p or p == "go.sum")
_SAFELY = {p: "Change the manifest and let the package manager rewrite the lockfile" for p in _LOCKFILES}
_SAFELY[".git/**"] = "Use git commands, not edits of .git/"


# -- self-protection ----------------------------------------------------------------------------------
_FORGE_HOOK = Lazy(r"forge[-_]hook(?:\.py)?$", needs=("forge",))
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


def _switches_off(args: list[str], *, only_trust: bool) -> str | None:
    """Why running forge-hook with ``args`` changes which guards run, or None: its
    subcommand, not any word (``forge-hook guard test x -- rm -rf /`` tests a guard)."""
    if args[:1] == ["(python code)"]:
        pattern = r"trust" if only_trust else r"trust|disable|remove|uninstall"
        return "runs forge-hook's code to change which guards run" if re.search(pattern, args[1]) else None
    if args[:1] == ["(forge_hookd)"]:
        return None if only_trust else "runs one of forge's modules directly"
    sub = _subcommand(args)
    if sub is None or "--help" in args or "-h" in args:
        return None
    if sub.startswith(("$", "`")) or "$(" in sub:
        return f"runs forge-hook with a subcommand that cannot be seen ({sub})"
    if sub == "policy" and sub in args and args[args.index(sub) + 1:][:1] == ["pull"]:
        sub = "pull"  # forge-hook policy pull: replaces the managed policy
    if sub == "trust" or not only_trust and (sub in _SWITCH_OFF or "--uninstall" in args):
        return "trusts a project's hooks" if sub == "trust" else "changes which of forge's guards run"
    return None


_COPIERS = frozenset({"cp", "ln", "install", "rsync", "mv", "link"})


#: copiers whose sources are read, not changed: not mv (it removes them), nor ln and link (a write
#: through the link, hard or symbolic, changes the source)
_READS_ITS_SOURCES = frozenset({"cp", "install", "rsync", "scp"})


def _copied_from(command: Command) -> frozenset[str]:
    """The sources of a copy (``cp .forge/hooks.json /tmp/backup.json``): read, not changed."""
    if command.name not in _READS_ITS_SOURCES:
        return frozenset()
    return frozenset(operands(command.args)[:-1])


#: forge's distribution, as pip, pipx and uv name it (pyproject.toml), and its commands' name
_FORGE_DISTRIBUTIONS = frozenset({"forge-hookd", "forge_hookd", "forge-hook-run"})
_UNINSTALLERS = frozenset({"pip", "pip3", "pipx", "uv"})


def _uninstalls_forge(command: Command) -> str | None:
    """``pip uninstall forge-hookd``, ``python3 -m pip uninstall``, ``pipx uninstall``, ``uv tool
    uninstall``: forge's installation removed by its package manager; the name it removes."""
    name, args = command.name, list(command.args)
    if PYTHON.match(name) and args[:2] == ["-m", "pip"]:  # as package_policy reads python -m pip
        name, args = "pip", args[2:]
    if name not in _UNINSTALLERS or "uninstall" not in args:
        return None
    return next((a for a in args if a.lower() in _FORGE_DISTRIBUTIONS), None)


def _copies_forge_hook(command: Command) -> str | None:
    """``cp $(which forge-hook) fh``, ``ln -s ~/.local/bin/forge-hook x``, ``alias fh=forge-hook``:
    forge-hook under a name no guard knows."""
    if command.name in _COPIERS and any(_FORGE_HOOK.search(posixpath.basename(a)) for a in operands(command.args)[:-1]):
        return "copies forge-hook under another name"
    if command.name in ("alias", "function") and any("forge-hook" in a or "forge_hook" in a for a in command.args):
        return "gives forge-hook another name"
    return None


_WRITES = Lazy(r"write|dump|unlink|remove|rmtree|rename|replace|copy|move|truncate|rmSync|\brm\b|"
               r"open\([^)]*,\s*['\"][wax+]|>")
_CODE_LITERAL = Lazy(r"""["']([^"'\s]{2,300})["']""")


def _code_writes(command: Command) -> list[str]:
    """The paths a one-liner that writes names (``python -c "open('~/.local/share/forge/x', 'w')"``)."""
    code = command.inline_code
    if code is None or not _WRITES.search(code[1][: 1 << 16]):
        return []
    return [m.group(1) for m in _CODE_LITERAL.finditer(code[1][: 1 << 16]) if "/" in m.group(1) or "forge" in m.group(1)]


_GIT_WRITES = frozenset({"checkout", "restore", "rm", "mv", "reset", "clean", "apply", "am", "stash", "switch",
                         "merge", "rebase", "pull", "cherry-pick", "revert", "update-index", "read-tree",
                         "checkout-index", "filter-branch", "filter-repo", "worktree", "submodule", "config"})
_PLAIN_READERS = frozenset({"sort", "uniq", "cut", "nl", "od", "xxd", "hexdump", "md5sum", "sha256sum", "sha1sum",
                            "cmp", "tree", "wc", "column", "fold", "strings", "readlink", "realpath", "basename",
                            "dirname", "echo", "printf"})


def _only_reads(command: Command) -> bool:
    """Whether ``command`` reads what it names and writes nothing: ``cat``, ``git diff``,
    ``sed -n 1p`` (not ``sed -i``), ``jq .`` (not ``yq -i``), with no redirection that writes."""
    if written_redirects(command):
        return False
    name, args = command.name, command.args
    if name in _READERS or name in _PLAIN_READERS:
        return True
    if name in ("sed", "gsed") and in_place(args) is None or \
            name in ("awk", "gawk", "yq") and not any(a.startswith(("-i", "--in-place")) or a == "inplace" for a in args):
        return True
    git = git_args(command)
    return git is not None and git[0] not in _GIT_WRITES


_FIND_CHANGES = frozenset({"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprintf", "-fls"})


def _found_and_changed(command: Command) -> list[str]:
    """The starting points of a ``find`` that changes what it finds (``-exec``, ``-delete``)."""
    if command.name != "find" or not _FIND_CHANGES.intersection(command.args):
        return []
    starts = []
    for arg in command.args:
        if arg.startswith(("-", "(", "!")):
            break
        starts.append(arg)
    return starts


def _wiring(word: str, path: str, context: Context) -> tuple[str, str] | None:
    """Why writing ``path`` changes how forge runs at all (guards/wired.py), and what to
    do instead; None when it does not. The install records are read only here."""
    from forge_hookd.guards import wired

    if any(inside(path, place) or inside(place, path) and path not in ("/", context.home)
           for place in wired.installation(context.project_root, context.home)) or wired.forge_executable(path, context):
        return (f"changes forge's own installation ({word})",
                "Only a person installs, upgrades or removes forge (install.sh); ask the user")
    agent = wired.agent_file(path, context)
    if agent is not None:
        return (f"changes {word}, where forge is wired into {agent} (forge-hook install)",
                "Only a person changes an agent's hook settings; tell the user what you would change")
    return None


class SelfProtection(Guard):
    heads = ("forge-hook",)
    name = "self_protection"
    summary = ("An agent switching off its own guards: forge's config, .forge/, the trust store, the agent settings "
               "forge wired, forge's installation, forge-hook trust")
    catches = ("Edit ~/.config/forge/hooks.json", "Write .forge/hooks.json", "rm -rf .forge",
               "Write /etc/forge/managed.d/x.json",
               "forge-hook trust", "forge-hook disable 0", "python -m forge_hookd.manage remove 'tool:*'",
               "sh -c '~/.local/bin/forge-hook trust'", "echo {} > ~/.local/share/forge/trust.json",
               "forge-hook install --uninstall", "sed -i /forge/d .claude/settings.json (where forge is wired)",
               "echo {} > ~/.gemini/settings.json (where forge is wired)", "rm ~/.local/bin/forge-hook",
               "pip uninstall forge-hookd", "rm $(which forge-hook-run)")
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
            wiring = None if path is None or self.opts["only"] != "all" else _wiring(word, path, context)
            if wiring is not None:
                return self.verdict(DENY, word, *wiring)
        return ALLOWED

    def judge_command(self, command: Command, context: Context) -> Ruling:
        if self.opts["only"] == "trust":
            return self._trusting(command, context)
        shown = " ".join(command.argv)
        args = _forge_hook_args(command)
        if args is not None:
            why = _switches_off(args, only_trust=False)
            if why is not None:
                return self.verdict(DENY, shown, why,
                                    "Only a person trusts, disables or removes hooks: ask the user to run it")
        copied = _copies_forge_hook(command)
        if copied is not None:
            return self.verdict(DENY, shown, copied, _PERSON_TRUSTS)
        if _only_reads(command):
            return ALLOWED
        if command.name in ("chown", "chgrp") and operands(command.args)[:1] and \
                (command.name == "chgrp" or gives_to_oneself(operands(command.args)[0], context)) and \
                not written_redirects(command):
            return ALLOWED  # files given back to oneself (chown -R $USER ~/.config): nothing of forge's changes
        uninstalled = _uninstalls_forge(command)
        if uninstalled is not None:
            return self.verdict(DENY, shown, f"removes forge's own installation ({uninstalled})",
                                "Only a person installs, upgrades or removes forge (install.sh); ask the user")
        cwd = command_cwd(command, context)
        read = _copied_from(command)
        for word in [*written_paths(command), *(w for w in command.args if w not in read and
                                                 (".forge" in w or "forge/" in w)),
                     *_code_writes(command), *_found_and_changed(command)]:
            path = resolve(word, context, cwd) if cwd is not None or word.startswith(("/", "~")) else None
            if path is None and "${" in word:  # ${XDG_CONFIG_HOME:-$HOME/.config}/forge: where it goes unset
                path = resolve(defaults_taken(word), context, cwd)
            if path is not None and self._forge_file(path, context):
                return self.verdict(DENY, shown, f"changes forge's own file {word}",
                                    "Only a person edits forge's hooks and trust; ask the user")
            wiring = None if path is None else _wiring(word, path, context)
            if wiring is not None:
                return self.verdict(DENY, shown, *wiring)
        return ALLOWED

    def _trusting(self, command: Command, context: Context) -> Ruling:
        """``only: trust``: forge-hook trust however spelled, or a write into the trust store."""
        shown = " ".join(command.argv)
        args = _forge_hook_args(command)
        why = None if args is None else _switches_off(args, only_trust=True)
        if why is not None:
            return self.verdict(DENY, shown, why, _PERSON_TRUSTS)
        copied = _copies_forge_hook(command)
        if copied is not None:
            return self.verdict(DENY, shown, copied, _PERSON_TRUSTS)
        cwd = command_cwd(command, context)
        for word in [*written_paths(command), *(w for w in command.args if "forge" in w or "trust" in w),
                     *_code_writes(command)]:
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
