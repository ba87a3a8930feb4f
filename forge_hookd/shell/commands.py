"""Shell commands parsed, not grepped: what a command line runs, for the built-in guards
and for trust. Pure functions, no I/O, bounded on any input, never raising.

:func:`parse` gives every simple command the shell could run, recursively: inside
``$(...)``, backticks and process substitution, through wrappers (``env``, ``nice``,
``timeout``, ``nohup``, ``xargs``, ``sudo`` ... kept in :attr:`Command.wrappers`), into
``sh -c``/``bash -lc`` strings, ``eval``, heredocs fed to a shell, ``find -exec`` and the
shell strings an interpreter one-liner hands to ``system()``. Interpreter one-liners are
exposed as :attr:`Command.inline_code`. What a hook's command runs from files, for trust
and the missing-script check, is :mod:`forge_hookd.shell.scripts`'s, on this walk.

Why our own parser (figures in bench/README.md, "Shell parsers"): bashlex is GPLv3+,
unmaintained since 2023, costs ~270 ms to import, raises on ``[[``, ``case``, ``time``,
``$((``, recurses past Python's limit at 1,000 nested ``$(`` and took over 30 s on a
1 MB command; tree-sitter-bash is sound but adds two compiled dependencies and ~40 ms of
import to every event for a tree we would walk anyway; libbash/libdash parse files
through the real shells (GPL, a file per parse). ``shlex`` cannot see ``$(``, backticks,
heredocs or operators. This one is a few hundred lines over the shell's own rules.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterator, Mapping, Sequence

from forge_hookd.shell import words as shellwords
from forge_hookd.shell.words import MAX_DEPTH, VARIABLE, RawCommand, Sub, Word
from forge_hookd.shell.known import Known
from forge_hookd.shell.lazyre import Lazy
from forge_hookd.tuples import NamedTuple

__all__ = ["Command", "Parsed", "Redirect", "Word", "parse"]

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "csh", "tcsh", "yash", "posh", "rbash"})
PRIVILEGE = frozenset({"sudo", "doas", "pkexec", "run0", "runuser", "su", "sudoedit"})
#: a Python interpreter by its name (python, python3.12, pypy3)
PYTHON = Lazy(r"(?:python|pypy)[0-9.]*$", needs=("python", "pypy"))


class Redirect(NamedTuple):
    """A redirection: ``op`` as written, ``target`` after quote removal, ``mode`` one of
    write, append, read, readwrite, dup, stdin (a heredoc's or here-string's text, in
    ``body``)."""

    op: str
    target: str
    mode: str
    fd: str | None = None
    body: str | None = None
    dynamic: bool = False


class Command(NamedTuple):
    """One simple command, as the shell would run it.

    ``argv`` is the effective command after quote removal, wrappers taken off;
    ``wrappers`` the wrappers seen through, outermost first, each with its own options
    (``("sudo", "-u", "bob")``); ``words`` the effective command's words with their
    flags (dynamic, glob, quoted). ``via`` says how it was reached: "" at the top,
    ``$(``, a backtick, ``<(``, ``sh -c``, ``eval``, ``heredoc``, ``find -exec``,
    ``system()``; ``depth`` how deep. ``feeders`` are the commands earlier in its
    pipeline (``curl x | sh``). ``cwd`` is the directory a preceding ``cd DIR`` moved to,
    as written (None: where the command line starts; ``cwd_unknown``: a ``cd`` that
    cannot be resolved). ``stdin`` is a heredoc or here-string fed to it.

    ``unseen`` says what the parser could not see when the command runs code it cannot
    read (code piped into a shell from a file or a command, ``eval`` of a variable, a
    command word that is only an expansion, a one-liner that builds a command at run
    time, a git alias from the environment): a guard asks there rather than allow
    (issue 31). ``env`` holds the ``NAME=value`` assignments of earlier commands in the
    line (``export HUSKY=0; git commit``), as far as they are known.
    """

    argv: tuple[str, ...]
    words: tuple[Word, ...] = ()
    assignments: tuple[str, ...] = ()
    redirects: tuple[Redirect, ...] = ()
    wrappers: tuple[tuple[str, ...], ...] = ()
    feeders: tuple[Command, ...] = ()
    via: str = ""
    depth: int = 0
    cwd: str | None = None
    cwd_unknown: bool = False
    stdin: str | None = None
    unseen: str | None = None
    env: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The command's name without its directory (``/usr/bin/rm`` -> ``rm``)."""
        return self.argv[0].rpartition("/")[2] if self.argv else ""  # posixpath.basename, 3x cheaper

    @property
    def args(self) -> tuple[str, ...]:
        return self.argv[1:]

    @property
    def wrapper_names(self) -> tuple[str, ...]:
        return tuple(posixpath.basename(w[0]) for w in self.wrappers)

    @property
    def inline_code(self) -> tuple[str, str] | None:
        """``(interpreter, code)`` for a one-liner: ``python -c``, ``node -e``/``-p``,
        ``perl -e``, ``ruby -e``, ``php -r``, ``deno eval``, ``awk 'prog'``, or an
        interpreter reading a heredoc (``python3 - <<EOF``)."""
        return _inline_code(self)


class Parsed(NamedTuple):
    """Every simple command of a command line, nested ones included, in the order the
    shell meets them. ``error``: why the text is not valid shell (the commands read
    before and after the fault are still listed: a shell refuses the faulty line,
    but lines before it run); ``truncated``: a bound was reached (nesting deeper than
    :data:`MAX_DEPTH`, more than :data:`shellwords.MAX_COMMANDS` commands or
    :data:`MAX_WRAPPERS` wrappers around one), so not
    everything was seen: a guard should not allow what it could not read. ``loops``:
    each ``for NAME in WORDS``, at any level, the name and its words."""

    text: str
    commands: tuple[Command, ...]
    error: str | None = None
    truncated: bool = False
    loops: tuple[tuple[str, tuple[Word, ...]], ...] = ()




@functools.lru_cache(maxsize=4)  # the guards of one event share a parse; a bound on what 1 MiB inputs hold
def parse(text: str) -> Parsed:
    """The commands of ``text``; never raises. Linear in the input per nesting level."""
    walker = _Walker()
    walker.walk(text, depth=0, via="", cwd=(None, False))
    return Parsed(text, tuple(walker.out), walker.error, walker.truncated, tuple(walker.loops))


# -- the walk ------------------------------------------------------------------------------
_Cwd = tuple[str | None, bool]  # (directory as written or None, unknown)


class _Walker:
    def __init__(self) -> None:
        self.out: list[Command] = []
        self.loops: list[tuple[str, tuple[Word, ...]]] = []
        self.error: str | None = None
        self.truncated = False
        self.budget = shellwords.new_budget()
        self.known = Known()
        self.written: dict[str, str] = {}  # a file's path -> the shell text the line wrote into it

    def walk(self, text: str, *, depth: int, via: str, cwd: _Cwd, stdin_feeders: tuple[Command, ...] = ()
             ) -> None:
        if depth > MAX_DEPTH:
            self.truncated = True
            return
        script = shellwords.parse_raw(text, self.budget)
        if depth == 0 and script.error:
            self.error = script.error
        self.truncated = self.truncated or script.truncated
        self.loops += script.loops
        made: dict[int, Command] = {}
        for raw in script.commands:
            for sub in raw.subs:
                self.walk(sub.text, depth=depth + 1, via=sub.kind, cwd=cwd)
            feeders = tuple(made[id(f)] for f in raw.feeders if id(f) in made) + stdin_feeders
            command = self._command(raw, depth=depth, via=via, cwd=cwd, feeders=feeders)
            made[id(raw)] = command
            self.out.append(command)
            self._nested(command)
            self._record_written(command)
            cwd = _after_cd(command, cwd)

    def _record_written(self, command: Command) -> None:
        """The text ``echo``/``printf``/``cat <<EOF`` writes into a file, kept under the
        file's path (as written, joined to a ``cd``'s directory) for a later command of
        the line that runs it; a file written any other way is forgotten. A program that
        copies its input into files (``echo CODE | tee x.sh``, ``install /dev/stdin x.sh <<<
        CODE``) writes that input."""
        copies = _input_copied_to(command)
        if copies:
            text = command.stdin if command.stdin is not None else _piped_text(command)
            for target in copies:
                self._keep(_script_key(target, command.cwd), text, append=False)
        for redirect in command.redirects:
            if redirect.mode not in ("write", "append") or redirect.fd not in (None, "1") or \
                    redirect.dynamic and not _kept_under_its_words(redirect.target):
                continue
            key = _script_key(redirect.target, command.cwd)
            self._keep(key, written_text(command), append=redirect.mode == "append")

    def _keep(self, key: str, text: str | None, *, append: bool) -> None:
        """``text`` kept as what the file ``key`` now holds (after what it held, for an append);
        a file written with text the line does not show is forgotten."""
        if text is None:
            self.written.pop(key, None)
        elif len(self.written) < _MAX_WRITTEN or key in self.written:
            before = self.written.get(key, "") if append else ""
            self.written[key] = (before + "\n" + text if before else text)[: 1 << 16]

    def _written_run(self, command: Command) -> Iterator[tuple[str, str]]:
        """The text of a file this line wrote, when ``command`` runs it (once: a script that
        runs itself is not walked again)."""
        ran = _script_run(command) if self.written else None
        if ran is not None:
            text = self.written.pop(_script_key(ran, command.cwd), None)
            if text is not None:
                yield "written script", text
        program = _program_run(command) if self.written else None
        if program is not None:  # python3 x.py of an x.py the line wrote: judged as python3 -c CODE
            path, runs = program
            text = self.written.pop(_script_key(path, command.cwd), None)
            if text is not None:
                yield f"written {posixpath.basename(path)}", f"{runs} {shellwords.quote(text)}"
        if command.name == "run-parts" and self.written:  # run-parts DIR runs each program in DIR
            directory = _script_key(next((a for a in reversed(command.args) if not a.startswith("-")), "."),
                                    command.cwd)
            for key in [k for k in self.written if posixpath.dirname(k) == directory]:
                yield "written script", self.written.pop(key)
        for redirect in command.redirects:  # a git hook written here runs at the next commit or push: read it now
            if redirect.mode in ("write", "append") and redirect.target.removeprefix("./").startswith(HOOK_DIRS):
                text = written_text(command)
                if text is not None:
                    yield "written hook", text
        read = _runner_reads(command) if self.written and ran is None else None
        if read is not None:
            path, kind = read
            text = self.written.pop(_script_key(path, command.cwd), None)
            if text is not None:
                yield from ((f"written {posixpath.basename(path)}", code) for code in _commands_in(kind, text))

    def _command(self, raw: RawCommand, *, depth: int, via: str, cwd: _Cwd,
                 feeders: tuple[Command, ...]) -> Command:
        known = self.known
        env = known.env()
        expanded = known.expand(raw.words, top=depth == 0)
        expanded = known.git_aliases(known.name_commands(expanded), [a.text for a in raw.assignments])
        wrappers, words = _unwrap(expanded)
        self.truncated = self.truncated or len(wrappers) >= MAX_WRAPPERS  # what the last one runs is unread
        redirects = tuple(Redirect(r.op, target.text, r.mode, r.fd, r.body, target.dynamic)
                          for r in raw.redirects for target in [_expanded_target(known, r.target)])
        stdin = next((r.body for r in reversed(redirects) if r.mode == "stdin"), None)
        command = Command(tuple(w.text for w in words), tuple(words), tuple(a.text for a in raw.assignments),
                          redirects, tuple(tuple(w.text for w in ws) for ws in wrappers), feeders, via, depth,
                          cwd[0], cwd[1], stdin, env=env)
        fed = _piped_text(command)
        if fed is not None and (command.inline_code is None or not _reads_code_on_stdin(command)):
            command = command._replace(stdin=fed)  # echo 'DROP TABLE x' | psql: what it reads is written here
        unseen = _unseen(command, known)
        known.record(command, raw)
        return command._replace(unseen=unseen) if unseen is not None else command

    def _nested(self, command: Command) -> None:
        """What a command runs in turn: a -c string, eval, a heredoc or a literal pipe fed
        to a shell, find -exec, script -c, a git alias or setting, a one-liner's system(),
        a script the line itself wrote (``echo 'rm -rf ~' > x.sh && bash x.sh``)."""
        down = command.depth + 1
        cwd = (command.cwd, command.cwd_unknown)
        for via, text in (*_shell_strings(command), *_fed_commands(command), *self.known.alias_scripts(command),
                          *self.known.config_scripts(command), *self._written_run(command)):
            self.walk(text, depth=down, via=via, cwd=cwd)
        code = command.inline_code
        if code is not None:
            for text in _system_strings(code[1]):
                self.walk(text, depth=down, via="system()", cwd=cwd)


_MAX_WRITTEN = 16  # files one line writes that are remembered


#: where a repository's hooks live (git's own and the hook managers')
HOOK_DIRS = (".husky/", ".git/hooks/", ".githooks/", ".lefthook/")


def written_text(command: Command) -> str | None:
    """What ``command`` prints as the line writes it: ``echo``'s and ``printf``'s
    arguments (a ``$VAR`` in them kept as written: the script reads as the same
    expansion), ``cat``'s here-document; None for any other command."""
    if command.name in ("echo", "printf") and not command.wrappers:
        return _printed(command)
    if command.name == "cat" and not command.args and command.stdin is not None and not command.wrappers:
        return command.stdin
    return None


#: runners that run commands from a file of the directory they start in (or name): the file, how to read it
#: the options whose value is the directory a runner starts in (and reads its manifest from)
RUNNER_WHERE = {"npm": ("--prefix", "-C"), "pnpm": ("--dir", "-C"), "yarn": ("--cwd",), "bun": ("--cwd",),
                "composer": ("--working-dir", "-d")}
_RUNNER_FILES = {"npm": ("package.json", "json"), "pnpm": ("package.json", "json"), "yarn": ("package.json", "json"),
                 "bun": ("package.json", "json"), "composer": ("composer.json", "json"),
                 "bundle": ("Gemfile", "ruby"), "bundler": ("Gemfile", "ruby")}
_CMAKE_COMMAND = Lazy(r"\bCOMMAND\s+([^)\n]+)", needs=("COMMAND",))
_PLAYBOOK_COMMAND = Lazy(r"\b(?:shell|command|raw)\s*:\s*([^\]\}\n]+)", needs=(":",))


def _runner_reads(command: Command) -> tuple[str, str] | None:
    """The file a runner reads commands from, and how: npm/pnpm/yarn/bun the scripts of
    ``package.json`` (``-C``/``--prefix DIR``), composer ``composer.json``'s, bundler the
    ``Gemfile`` (Ruby), ``cmake DIR`` (or ``-S DIR``) its ``CMakeLists.txt``, ``ansible-playbook
    FILE`` the playbook's ``shell:`` tasks."""
    name, args = command.name, list(command.args)
    if name in _RUNNER_FILES:
        file, kind = _RUNNER_FILES[name]
        return posixpath.join(_runner_where(name, args), file), kind
    if name == "cmake":
        source = next((args[k + 1] for k, a in enumerate(args[:-1]) if a == "-S"), None) or \
            next((a for a in args if not a.startswith("-")), None)
        return (posixpath.join(source, "CMakeLists.txt"), "cmake") if source else None
    if name == "ansible-playbook":
        playbook = next((a for a in args if not a.startswith("-") and a.endswith((".yml", ".yaml"))), None)
        return (playbook, "playbook") if playbook else None
    return None


def _runner_where(name: str, args: list[str]) -> str:
    """The directory ``-C DIR``, ``--prefix=DIR`` (:data:`RUNNER_WHERE`) starts the runner in."""
    options = RUNNER_WHERE.get(name, ())
    for k, word in enumerate(args):
        if word in options and k + 1 < len(args):
            return args[k + 1]
        option, equals, value = word.partition("=")
        if equals and option in options:
            return value
    return ""


def _commands_in(kind: str, text: str) -> Iterator[str]:
    """The shell commands in a runner's file the line wrote: package.json's and
    composer.json's ``scripts``, a Gemfile's system calls, CMake's ``COMMAND ...``, a
    playbook's ``shell:`` and ``command:``."""
    if kind == "json":
        import json  # only for a manifest the same line wrote

        try:
            scripts = json.loads(text).get("scripts", {})
        except (ValueError, AttributeError):
            return
        if isinstance(scripts, dict):
            for value in scripts.values():
                yield from (v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str))
    elif kind == "ruby":
        yield from _system_strings(text)
    elif kind == "cmake":
        yield from (m.group(1).strip() for m in _CMAKE_COMMAND.finditer(text))
    else:
        yield from (m.group(1).strip() for m in _PLAYBOOK_COMMAND.finditer(text))


#: the temporary file mktemp makes: a new file
_FRESH_FILE = Lazy(r"\$\(mktemp(?: [^()$`;|&]*)?\)")


def _kept_under_its_words(target: str) -> bool:
    """Whether a file the line cannot name is one it can still follow: one variable, or the
    temporary file mktemp makes (which ``f=$(mktemp)`` puts in it). The same words write and run
    the same file in ``f=$(mktemp); echo CODE > $f; bash $f``, so the text is kept under them."""
    return VARIABLE.fullmatch(target) is not None or _FRESH_FILE.fullmatch(target) is not None


def _script_run(command: Command) -> str | None:
    """The file ``command`` runs as shell code: ``bash x.sh``, ``sh -e x.sh``, ``bash <
    x.sh``, ``source x.sh``, ``. x.sh``, ``./x.sh``."""
    if not command.words or command.words[0].dynamic:
        return None
    if "/" in command.argv[0]:
        return command.argv[0]
    name, args = command.name, list(command.args)
    if name in ("source", ".") and args:
        return args[0]
    if name not in SHELLS or any(a == "-c" or re.fullmatch(r"-[a-z]*c[a-z]*", a) for a in args):
        return None
    script = next((a for a in args if not a.startswith(("-", "+"))), None)
    if script is not None:
        return script
    return next((r.target for r in command.redirects if r.mode == "read" and r.fd in (None, "0")), None)


#: interpreters that run a program file, and how their code is written inline (go's "-e" is
#: no option of go's: it names the language the code is judged in)
_PROGRAM_RUNNERS = {"node": "node -e", "nodejs": "node -e", "bun": "node -e", "ts-node": "node -e", "tsx": "node -e",
                    "ruby": "ruby -e", "perl": "perl -e", "php": "php -r", "lua": "lua -e", "Rscript": "Rscript -e",
                    "julia": "julia -e"}
#: the tools whose subcommand runs a program file: go run x.go, deno run x.ts, bun run x.ts
_RUN_SUBCOMMANDS = {"go": "go -e", "deno": "node -e", "bun": "node -e"}


def _program_run(command: Command) -> tuple[str, str] | None:
    """The program file an interpreter runs (``python3 x.py``, ``node x.js``, ``go run x.go``)
    and the inline form of its language, None for any other command."""
    name, args = command.name, list(command.args)
    if name in _RUN_SUBCOMMANDS and args[:1] == ["run"]:
        runs, args = _RUN_SUBCOMMANDS[name], args[1:]
    elif PYTHON.match(name):
        if any(a.startswith(("-m", "-c")) for a in args):
            return None
        runs = "python3 -c"
    elif name in _PROGRAM_RUNNERS:
        runs = _PROGRAM_RUNNERS[name]
    else:
        return None
    path = next((a for a in args if not a.startswith("-")), None)
    return (path, runs) if path else None


def _expanded_target(known: Known, target: Word) -> Word:
    """A redirection's target with what the line set put in (``D=/etc; echo x > $D/hosts``
    writes /etc/hosts); as written where it does not come out one word."""
    if not target.dynamic:
        return target
    expanded = known.expand([target])
    return expanded[0] if len(expanded) == 1 else target


def _script_key(path: str, cwd: str | None) -> str:
    return posixpath.normpath(posixpath.join(cwd or "", path))


def _after_cd(command: Command, cwd: _Cwd) -> _Cwd:
    if command.name not in ("cd", "pushd"):
        return cwd
    args = [a for a in command.words[1:] if not a.text.startswith("-") or a.text == "-"]
    if not args:
        return ("~", False)
    target = args[0]
    if target.dynamic or target.glob or target.text == "-":
        return (None, True)
    if cwd[0] is None or target.text.startswith(("/", "~")):
        return (target.text, cwd[1])
    return (posixpath.join(cwd[0], target.text), cwd[1])


# -- wrappers ---------------------------------------------------------------------------------
class _Spec(NamedTuple):
    with_arg: frozenset[str]  # short letters and long names (without --) that take a value
    positionals: int = 0  # words before the command (timeout's duration, chroot's directory)
    stop: frozenset[str] = frozenset()  # options after which no command follows (sudo -l, command -v)


def _spec(with_arg: str = "", long: str = "", positionals: int = 0, stop: str = "") -> _Spec:
    return _Spec(frozenset(with_arg) | frozenset(long.split()), positionals, frozenset(stop.split()))


WRAPPERS: dict[str, _Spec] = {
    "env": _spec("uCSP", "unset chdir split-string"),
    "nice": _spec("n", "adjustment"),
    "timeout": _spec("sk", "signal kill-after", positionals=1),
    "nohup": _spec(), "setsid": _spec(), "unbuffer": _spec(), "builtin": _spec(), "caffeinate": _spec("tw"),
    "stdbuf": _spec("ioe", "input output error"),
    "time": _spec("fo", "format output"),
    "command": _spec("", "", stop="-v -V"),
    "exec": _spec("a"),
    "ionice": _spec("cn", "class classdata", stop="-p -P -u"),
    "chrt": _spec("T P D", positionals=1, stop="-p"),
    "taskset": _spec("", "", positionals=1, stop="-p"),
    "chroot": _spec("", "userspec groups", positionals=1),
    "sudo": _spec("ugpCDhrtTUR", "user group prompt close-from chdir host role type command-timeout other-user "
                  "chroot", stop="-l -v -k -K -V -e --list --validate --edit --help --version"),
    "doas": _spec("uC"),
    "pkexec": _spec("", "user"),
    "run0": _spec("uDg", "user chdir group setenv description unit property slice nice"),
    "runuser": _spec("ugGsw", "user group supp-group shell whitelist-environment"),
    "xargs": _spec("IiaEeLlnPsdJ", "arg-file delimiter eof max-lines max-args max-procs max-chars "
                   "process-slot-var"),
    "flock": _spec("wEoc", "timeout wait conflict-exit-code command", positionals=1),
    "strace": _spec("oepsESbIuaXU", "output"),
    "ltrace": _spec("oepsaAnuDlxXFw", "output"),  # -L (no library calls) is a flag
    # Programs that run their arguments as a command too (GTFOBins' list of them): a new
    # namespace, a CPU limit, another architecture, a line editor, a terminal multiplexer,
    # a memory checker, a benchmark, a fake clock, a sandbox.
    "unshare": _spec("SGRw", "setuid setgid root wd map-user map-users map-group map-groups propagation setgroups"),
    "cpulimit": _spec("l", "limit", stop="-p -e -P --pid --exe --path"),
    "setarch": _spec("", "", positionals=1, stop="--list"), "linux32": _spec(), "linux64": _spec(),
    "rlwrap": _spec("bCDefgHlOPqsStwz", "break-chars command-name complete-filenames extra-char-after-completion "
                    "file history-filename logfile substitute-prompt"),
    "screen": _spec("cehpSsTt", "Logfile", stop="-r -R -x -ls -list -X -Q -D -wipe -v"),
    "valgrind": _spec(), "multitime": _spec("cfIinoers"), "faketime": _spec("", "", positionals=1),
    "firejail": _spec(), "chronic": _spec(), "ifne": _spec(),
    "watch": _spec("ndq", "interval differences"),
    "parallel": _spec("jSaIdNnLE", "jobs sshlogin results joblog arg-file delimiter colsep tmpdir workdir "
                      "basefile return"),
    "dbus-run-session": _spec(), "proxychains": _spec("f"), "proxychains4": _spec("f"), "torsocks": _spec("uPa"),
    # an agent, a display: each runs the command after its own options
    "ssh-agent": _spec("aEPt", stop="-s -c -k -D -d -l -L"),
    "xvfb-run": _spec("nsefpw", "server-num server-args error-file auth-file xauth-protocol wait"),
}
_OPTIONAL_ARG = {"xargs": "ieIl", "rlwrap": "ap"}  # -i[R] -e[EOF] -l[N]: a value only when attached
#: a tool's subcommand that runs the command after it in the project's environment (``uv run rm
#: -rf ~`` is ``rm -rf ~``): (tool, subcommand) -> the options that take a value, the operands
#: before the command; ``--`` ends the options as it does for every wrapper
_RUNS_AFTER: dict[tuple[str, str], _Spec] = {
    ("uv", "run"): _spec("p", "python with with-editable with-requirements package directory project env-file extra "
                         "group only-group index default-index index-url extra-index-url find-links config-file "
                         "cache-dir"),
    ("poetry", "run"): _spec("C", "directory project"), ("pipenv", "run"): _spec(), ("pdm", "run"): _spec("p", "project"),
    ("hatch", "run"): _spec(), ("rye", "run"): _spec(), ("bundle", "exec"): _spec("", "gemfile"),
    ("pnpm", "exec"): _spec("C", "dir filter"), ("yarn", "exec"): _spec(), ("asdf", "exec"): _spec(),
    ("mise", "exec"): _spec("C", "cd"), ("mise", "x"): _spec("C", "cd"),
    ("direnv", "exec"): _spec(positionals=1), ("conda", "run"): _spec("np", "name prefix cwd"),
    ("mamba", "run"): _spec("np", "name prefix cwd"), ("micromamba", "run"): _spec("np", "name prefix cwd"),
    ("pixi", "run"): _spec("e", "environment manifest-path"), ("nix", "develop"): _spec(),
}
#: setarch's architectures: ``setarch x86_64 CMD`` names one, ``setarch -3 CMD`` (util-linux 2.33+) none
_ARCHES = frozenset({"i386", "i486", "i586", "i686", "x86_64", "linux32", "linux64", "uname26", "amd64", "arm",
                     "armv7l", "armv8l", "aarch64", "arm64", "ppc", "ppc32", "ppc64", "ppc64le", "s390", "s390x",
                     "mips", "mips64", "sparc", "sparc64", "riscv64", "ia64", "alpha", "parisc", "parisc64"})


#: wrappers read around one command (``nice nice ... rm``); a line with more is not read whole,
#: and says so (Parsed.truncated), as one nested deeper than MAX_DEPTH does
MAX_WRAPPERS = 32


def _unwrap(words: list[Word]) -> tuple[list[list[Word]], list[Word]]:
    """(wrappers, effective command): ``sudo -u x env A=1 nice rm -rf /`` ->
    ([sudo -u x], [env A=1], [nice]), rm -rf /."""
    wrappers: list[list[Word]] = []
    rest = list(words)
    while rest and len(wrappers) < MAX_WRAPPERS:
        rest[0] = _folded(rest[0])
        name = posixpath.basename(rest[0].text)
        if name == "busybox" and len(rest) > 1 and not rest[1].text.startswith("-"):
            wrappers.append(rest[:1])  # a multi-call binary: busybox rm -> rm
            rest = rest[1:]
            continue
        if name == "cmake" and len(rest) > 2 and rest[1].text == "-E" and rest[2].text in _CMAKE_TOOLS:
            wrappers.append(rest[:2])  # cmake -E rm -rf D: CMake's portable commands, read as the ones they are
            rest = _cmake_tool(rest[2:])
            continue
        if name == "start-stop-daemon":  # -S -x PROGRAM -- ARGS: the program it starts, with its arguments
            started = _daemon_command(rest)
            if not started:
                break
            wrappers.append(rest[:1])
            rest = started
            continue
        runner = _RUNS_AFTER.get((name, rest[1].text)) if len(rest) > 1 and not rest[0].dynamic else None
        if runner is not None:  # uv run CMD: the subcommand read as the wrapper's name
            taken, command = _wrapper_split(rest[1].text, runner, rest[1:])
            if name == "mise" and any(w.text == "--" for w in rest):  # mise exec TOOL@VER ... -- CMD
                cut = next(k for k, w in enumerate(rest) if w.text == "--")
                taken, command = rest[1:cut + 1], rest[cut + 1:]
            if taken is None or not command:
                break
            wrappers.append(rest[:1] + taken)
            rest = _nix_command(name, command)
            continue
        spec = WRAPPERS.get(name)
        if spec is None or rest[0].dynamic:
            break
        taken, command = _wrapper_split(name, spec, rest)
        if taken is None:
            break
        if name == "parallel":  # parallel CMD ::: ARGS: the arguments stay with the wrapper
            cut = next((k for k, w in enumerate(command) if w.text in (":::", "::::", ":::+")), len(command))
            taken, command = taken + command[cut:], command[:cut]
        wrappers.append(taken)
        if name == "env" and any(w.text.startswith(("-S", "--split-string")) for w in taken):
            command = _split_string(taken) + command
        if name == "xargs" and not command:
            command = [Word("echo")]
        if name == "watch":
            command = [Word("sh"), Word("-c"), Word(" ".join(w.text for w in command))] if command else []
        rest = list(command)
    if rest:
        rest[0] = _folded(rest[0])
    return wrappers, rest


#: the names shell/windows.py reads (its HEADS; tests/shell/test_windows.py checks that they are the same),
#: so that the module loads only for a command of one of these names (0.56 M instructions a cold run)
WINDOWS_HEADS = frozenset({
    "remove-item", "ri", "del", "erase", "rd", "rmdir", "rm", "format", "type", "get-content", "gc", "cat",
    "powershell", "powershell.exe", "pwsh", "pwsh.exe", "cmd", "cmd.exe", "iex", "invoke-expression",
    "invoke-webrequest", "iwr", "invoke-restmethod", "irm", "stop-computer", "restart-computer", "shutdown",
    "shutdown.exe", "copy-item", "cpi", "move-item", "mi", "get-childitem", "gci", "get-item", "gi"})


#: Names a case-insensitive file system (macOS's default, Windows') finds whatever their case:
#: there `SuDo Rm -Rf /` runs sudo and rm. A command word spelt otherwise than in lower case is
#: read as one of these when it folds to one (the commands the guards judge by name; a name
#: of another case that is a program of its own, Rscript, GET, PowerShell's cmdlets, stays).
_FOLDS = frozenset({
    *WRAPPERS, *SHELLS, *PRIVILEGE, "rm", "rmdir", "unlink", "dd", "mkfs", "shred", "truncate", "wipefs", "chmod",
    "chown", "chgrp", "mv", "cp", "tee", "find", "rsync", "scp", "sftp", "ssh", "git", "curl", "wget", "nc", "ncat",
    "socat", "kill", "pkill", "killall", "shutdown", "reboot", "halt", "poweroff", "systemctl", "launchctl",
    "crontab", "at", "mount", "umount", "iptables", "ufw", "docker", "podman", "kubectl", "terraform", "npm", "npx",
    "pnpm", "yarn", "pip", "pip3", "python", "python3", "node", "perl", "ruby", "php", "eval", "source", "cat",
    "less", "more", "head", "tail", "base64", "xxd", "openssl", "security", "apt", "apt-get", "brew", "dnf", "yum",
    "gh", "aws", "gcloud", "az", "psql", "mysql", "sqlite3", "redis-cli", "mongosh", "diskutil", "fdisk", "parted"})


def _folded(word: Word) -> Word:
    """``word``, as the command a case-insensitive file system runs for it (see :data:`_FOLDS`)."""
    text = word.text
    if text.islower() or "/" in text or not text.isascii():
        return word
    lower = text.lower()
    return word._replace(text=lower) if lower in _FOLDS else word


#: ``cmake -E TOOL``'s tools that are a command of the same effect (CMake's own rm, not the
#: program, but it deletes the same: ``cmake -E rm -rf ~``), and the ones that run the command after
_CMAKE_TOOLS = frozenset({"rm", "remove", "remove_directory", "env", "chdir", "time"})


def _cmake_tool(words: list[Word]) -> list[Word]:
    """``cmake -E``'s tool as a command: ``remove_directory D...`` is ``rm -rf D...``, ``remove
    [-f] F...`` is ``rm [-f] F...``, ``chdir DIR CMD...`` and ``time CMD...`` run the command."""
    tool, args = words[0].text, words[1:]
    if tool == "remove_directory":
        return [Word("rm"), Word("-rf"), Word("--"), *args]
    if tool == "remove":
        return [Word("rm"), *args]
    if tool == "chdir":
        return args[1:]
    if tool == "time":
        return args
    return words  # rm and env are the commands they name


def _nix_command(name: str, command: list[Word]) -> list[Word]:
    """``nix develop -c CMD ARGS``/``--command``: the command is what follows the option."""
    if name == "nix" and command[:1] and command[0].text in ("-c", "--command"):
        return command[1:]
    return command


def _wrapper_split(name: str, spec: _Spec, words: list[Word]) -> tuple[list[Word] | None, list[Word]]:
    """The wrapper's own words and the command after them; None when this use of the
    wrapper runs no command (``command -v x``, ``sudo -l``)."""
    i, n, positionals = 1, len(words), spec.positionals
    optional = _OPTIONAL_ARG.get(name, "")
    while i < n:
        text = words[i].text
        if text == "--":
            i += 1
            break
        if text in spec.stop or (name in ("sudo", "doas") and text in ("-s", "-i") and i + 1 >= n):
            return None, []
        if name == "env" and (shellwords.is_assignment(text) or text == "-"):
            i += 1
            continue
        if text.startswith("--") and len(text) > 2:
            key = text[2:].partition("=")[0]
            i += 2 if key in spec.with_arg and "=" not in text else 1
            continue
        if text.startswith("-") and len(text) > 2 and text[1:] in spec.with_arg:  # a long option of one dash: screen -Logfile FILE
            i += 2
            continue
        if text.startswith("-") and len(text) > 1 and not (name == "nice" and text[1:].isdigit()):
            i += _short_cluster(text, spec, optional)
            continue
        if name == "nice" and text.startswith("-"):
            i += 1
            continue
        if name == "setarch" and text not in _ARCHES:
            positionals = 0
        if positionals:
            positionals -= 1
            i += 1
            continue
        break
    return words[:i], words[i:]


def _short_cluster(text: str, spec: _Spec, optional: str) -> int:
    """How many words a short-option cluster (``-un``, ``-n5``, ``-u bob``) takes."""
    for k, letter in enumerate(text[1:], start=1):
        if letter in optional:
            return 1
        if letter in spec.with_arg:
            return 1 if k + 1 < len(text) else 2
    return 1


#: start-stop-daemon's options that take a value (its short letters, and the long names)
_DAEMON_VALUED = frozenset("pPxanugrcNkdRsIO") | frozenset(
    "--pidfile --exec --startas --name --user --group --chroot --chuid --nicelevel --umask --chdir --retry "
    "--signal --output --procsched --iosched --ppid".split())


def _daemon_command(words: list[Word]) -> list[Word]:
    """What ``start-stop-daemon --start --exec PROGRAM [--startas PATH] -- ARGS`` runs:
    ``[PROGRAM, *ARGS]``; nothing for ``--stop`` and the other actions."""
    texts = [w.text for w in words]
    if not ({"-S", "--start"} & set(texts) or any(t.startswith("-") and not t.startswith("--") and "S" in t[1:]
                                                  for t in texts[1:])):
        return []
    program: Word | None = None
    k = 1
    while k < len(words):
        text = texts[k]
        if text == "--":
            break
        key, eq, value = text.partition("=")
        if key in ("-x", "--exec", "-a", "--startas"):
            if eq or k + 1 < len(words):
                program = words[k]._replace(text=value) if eq else words[k + 1]
            k += 1 if eq else 2
            continue
        k += 2 if key in _DAEMON_VALUED and not eq or (len(key) == 2 and key[1:] in _DAEMON_VALUED) else 1
    if program is None:
        return []
    return [program, *words[k + 1:]]


def _split_string(taken: list[Word]) -> list[Word]:
    """``env -S 'rm -rf /'``: the string is split into words."""
    for k, word in enumerate(taken):
        text = word.text
        if text.startswith("--split-string="):
            return _words_of(text.partition("=")[2])
        if text.startswith("-S"):
            value = text[2:] or (taken[k + 1].text if k + 1 < len(taken) else "")
            return _words_of(value)
    return []


def _words_of(text: str) -> list[Word]:
    script = shellwords.parse_raw(text)
    return script.commands[0].words if script.commands else []


# -- what a command runs in turn ---------------------------------------------------------------
def scripts_of(command: Command) -> frozenset[str]:
    """The strings ``command`` runs as shell code (a -c string, eval's words, find -exec's
    command): :func:`parse` yields the commands in them on their own, so a guard that
    reads the outer command's words as paths leaves these to them."""
    return frozenset(text for _, text in _shell_strings(command))


def _shell_strings(command: Command) -> Iterator[tuple[str, str]]:
    name, words = command.name, command.words
    if name in SHELLS:
        yield from _shell_invocation(command)
    elif len(words) > 2 and words[0].dynamic and words[1].text == "-c":  # `$SHELL -c 'rm -rf /'`: a shell
        yield f"{words[0].text} -c", words[2].text  # by its options; a python's code read so is harmless
    elif name == "eval" and len(words) > 1:
        yield "eval", " ".join(w.text for w in words[1:])
    elif name == "eval" and command.stdin is not None:  # `echo 'rm -rf /' | eval`: eval reads no input, the
        yield "eval", command.stdin  # line means it as code; judged as such
    elif name in ("at", "batch", "sed", "gsed") and command.stdin is not None and _reads_code_on_stdin(command):
        yield name, command.stdin  # `echo 'rm -rf ~' | at midnight`: the job runs it later
    elif name in ("ed", "ex") and command.stdin is not None:  # ed's `!CMD` on its input runs CMD in a shell
        yield from ((f"{name} !", line.lstrip()[1:]) for line in command.stdin.splitlines()
                    if line.lstrip().startswith("!") and len(line.lstrip()) > 1)
    elif name in ("su", "runuser", "flock", "script"):
        for k, word in enumerate(words[:-1]):
            if word.text in ("-c", "--command") or name == "script" and re.fullmatch(r"-[a-zA-Z]*c", word.text):
                yield f"{name} -c", words[k + 1].text
            elif word.text.startswith("--command="):
                yield f"{name} -c", word.text.partition("=")[2]
    elif name == "find":
        yield from _find_exec(words)
    elif name == "git":
        yield from _git_strings([w.text for w in words])
    elif name == "rsync":
        for k, word in enumerate(words[:-1]):  # rsync -e 'ssh -i key': the remote shell it starts
            if word.text in ("-e", "--rsh"):
                yield "rsync -e", words[k + 1].text
            elif word.text.startswith("--rsh="):
                yield "rsync -e", word.text.partition("=")[2]
    elif name == "hyperfine":
        yield from _hyperfine_strings([w.text for w in words[1:]])
    elif name in ("npm", "pnpm") and len(words) > 2:  # a script defined now runs at `npm run`: judged as defined
        yield from (("npm script", code) for code in _scripts_defined([w.text for w in words[1:]]))
    elif name in ("make", "gmake") and command.stdin is not None and \
            any(w.text in ("-", "/dev/stdin") for w in words[1:]):  # make -f - <<< MAKEFILE: its recipes run
        yield from (("make recipe", line[1:]) for line in command.stdin.splitlines()[:1000] if line.startswith("\t"))
    elif name == "ssh":
        remote = _ssh_command([w.text for w in words[1:]])
        if remote:
            yield "ssh", remote  # run on the other machine: what it does there is judged as here
    if name in OPTION_CODE_HEADS:
        yield from _option_code(name, [w.text for w in words[1:]])
    if command.assignments or command.env:
        yield from _environment_code(command)
    if name.lower() in WINDOWS_HEADS or name.startswith((".\\", "..\\")) or \
            name in ("ls", "dir") and any(w.text[:4].lower() == "env:" for w in words[1:]):  # PowerShell's `ls env:`
        yield from _windows_strings(command)
    if name == "trap" and len(words) > 1 and words[1].text not in ("-", "-p", "-l", "--", ""):
        yield "trap", words[1].text  # trap CODE EXIT: the shell runs CODE when the signal comes, or as it ends
    for word in words:  # zsh's glob qualifier e:CODE: runs CODE for each file: `rm *(e:sudo x:)`
        if word.glob and "(e" in word.text:
            yield from (("zsh (e:...:)", code) for code in _glob_qualifier_code(word.text))
    for wrapper in command.wrappers:  # su -c / flock -c written as a wrapper's option
        head = posixpath.basename(wrapper[0])
        if head in ("runuser", "flock") and "-c" in wrapper[:-1]:
            yield f"{head} -c", wrapper[wrapper.index("-c") + 1]


# -- options and variables whose value a program runs as a shell command (GTFOBins) -----------------
#: the programs shell/optioncode.py reads the options of (its table's names: tests/shell/test_shell.py
#: holds the two equal); the module loads only for one of them, not for every command's options
OPTION_CODE_HEADS = frozenset({"tar", "gtar", "bsdtar", "touch", "zip", "vim", "vi", "nvim", "view", "vimdiff", "rvim",
                               "ex", "gvim", "gdb", "ssh", "scp", "sftp", "sshfs", "autossh", "psql", "pip", "pip3",
                               "man", "sqlite3", "fzf", "expect", "socat", "nix-shell", "tmux", "split", "make", "gmake",
                               "mysql", "mariadb", "gcc", "g++", "cc", "c++", "clang", "clang++", "capsh",
                               "sed", "gsed", "go"})


def _option_code(name: str, args: list[str]) -> Iterator[tuple[str, str]]:
    """The shell commands ``name`` runs from its options (shell/optioncode.py)."""
    from forge_hookd.shell import optioncode  # only for one of OPTION_CODE_HEADS

    return optioncode.option_code(name, args)


#: variables whose value programs run through a shell: the pager and the editor git, man, less,
#: systemctl and crontab start, less's input preprocessor
_CODE_VARIABLES = frozenset({"PAGER", "MANPAGER", "LESSOPEN", "LESSCLOSE", "EDITOR", "VISUAL", "SYSTEMD_EDITOR",
                             "SYSTEMD_PAGER", "SUDO_EDITOR", "BROWSER", "PERL5DB"})


def _environment_code(command: Command) -> Iterator[tuple[str, str]]:
    """The shell code in a variable set for ``command`` (``PAGER='rm -rf ~' git -p help``,
    ``LESSOPEN='CMD %s' less f``): the program runs it. LESSOPEN's leading ``|`` (a pipe
    preprocessor) is no part of the command; PERL5DB is Perl code, read for its system calls."""
    for assignment in (*command.assignments, *command.env):
        name, _, value = assignment.partition("=")
        if name not in _CODE_VARIABLES or not value.strip():
            continue
        if name == "PERL5DB":
            yield from ((name, code) for code in _system_strings(value))
        else:
            yield name, value.lstrip("|").lstrip()


def _windows_strings(command: Command) -> Iterator[tuple[str, str]]:
    """What a Windows command does, as the POSIX line the guards read (shell/windows.py)."""
    from forge_hookd.shell import windows  # only for a Windows command (WINDOWS_HEADS)

    if command.name.startswith((".\\", "..\\")):  # .\i.ps1: a file run from here
        yield "windows", " ".join([windows.posix_path(command.argv[0]), *command.argv[1:]])
        return
    code = windows.shell_code(command.argv)
    if code is not None and code[1]:
        yield f"{command.name} -c" if code[0] != "encoded" else f"{command.name} -EncodedCommand", code[1]
    line = windows.equivalent(command.argv)
    if line is not None:
        yield "windows", line


def _glob_qualifier_code(text: str) -> Iterator[str]:
    """The code of each ``(e:CODE:)`` (any delimiter: ``(e'CODE')``, ``(e{CODE})``) in a
    zsh glob: zsh runs it once for every file the glob names."""
    start = text.find("(e")
    while 0 <= start < len(text) - 3:
        delimiter = text[start + 2]
        closing = {"{": "}", "[": "]", "<": ">", "(": ")"}.get(delimiter, delimiter)
        end = text.find(closing, start + 3)
        if end < 0:
            return
        yield text[start + 3:end]
        start = text.find("(e", end)


#: ssh's options that take a value (OpenSSH's ssh(1))
_SSH_VALUED = frozenset("BbcDEeFIiJLlmOopQRSWw")


def _ssh_command(args: list[str]) -> str:
    """The command ``ssh [options] destination command...`` runs on the destination, its
    words joined as ssh joins them for the remote shell; "" for a login."""
    k = 0
    while k < len(args) and args[k].startswith("-") and args[k] != "--":
        flags = args[k][1:]
        taking = next((i for i, c in enumerate(flags) if c in _SSH_VALUED), None)
        k += 2 if taking is not None and taking == len(flags) - 1 else 1
    if k < len(args) and args[k] == "--":
        k += 1
    return " ".join(args[k + 1:])


def _git_strings(args: list[str]) -> Iterator[tuple[str, str]]:
    """The shell commands git runs: ``submodule foreach CMD``, ``rebase --exec CMD``/``-x``,
    ``bisect run CMD``."""
    if "foreach" in args and "submodule" in args[: args.index("foreach")]:
        rest = [a for a in args[args.index("foreach") + 1:] if a != "--recursive" and a != "-q" and a != "--quiet"]
        if rest:
            yield "git submodule foreach", " ".join(rest) if len(rest) == 1 else " ".join(shellwords.quote(a) for a in rest)
    for k, arg in enumerate(args[:-1]):
        if arg in ("--exec", "-x") and "rebase" in args[:k]:
            yield "git rebase --exec", args[k + 1]
    if "bisect" in args and "run" in args[args.index("bisect"):]:
        rest = args[args.index("run", args.index("bisect")) + 1:]
        if rest:
            yield "git bisect run", " ".join(shellwords.quote(a) for a in rest)


#: hyperfine's options: the ones whose value is shell code, and how many values the others take
_HYPERFINE_CODE = frozenset({"-p", "--prepare", "-s", "--setup", "-c", "--cleanup", "-C", "--conclude"})
_HYPERFINE_VALUES = {"-w": 1, "--warmup": 1, "-m": 1, "--min-runs": 1, "-M": 1, "--max-runs": 1, "-r": 1, "--runs": 1,
                     "-S": 1, "--shell": 1, "--style": 1, "--sort": 1, "-u": 1, "--time-unit": 1, "--export-asciidoc": 1,
                     "--export-csv": 1, "--export-json": 1, "--export-markdown": 1, "--export-orgmode": 1,
                     "--output": 1, "--input": 1, "-n": 1, "--command-name": 1, "-P": 3, "--parameter-scan": 3,
                     "-D": 1, "--parameter-step-size": 1, "-L": 2, "--parameter-list": 2, "--min-benchmarking-time": 1}


def _hyperfine_strings(args: list[str]) -> Iterator[tuple[str, str]]:
    """The commands hyperfine runs through its shell: each command it benchmarks, and
    its ``--prepare``/``--setup``/``--cleanup``/``--conclude`` commands."""
    k = 0
    while k < len(args):
        arg = args[k]
        key, eq, value = arg.partition("=")
        if key in _HYPERFINE_CODE:
            if eq:
                yield f"hyperfine {key}", value
            elif k + 1 < len(args):
                yield f"hyperfine {key}", args[k + 1]
                k += 1
        elif arg.startswith("-") and arg != "-":
            k += 0 if eq else _HYPERFINE_VALUES.get(arg, 0)
        else:
            yield "hyperfine", arg
        k += 1


def _scripts_defined(args: list[str]) -> Iterator[str]:
    """The commands ``npm pkg set scripts.NAME=CMD`` and ``npm set-script NAME CMD`` store in
    package.json, where ``npm run NAME`` runs them in a shell."""
    if args[0] == "set-script" and len(args) > 2:
        yield args[2]
    elif args[:2] == ["pkg", "set"]:
        yield from (a.partition("=")[2] for a in args[2:] if a.startswith("scripts.") and "=" in a)


def _shell_invocation(command: Command) -> Iterator[tuple[str, str]]:
    """``sh -c STRING``, ``bash -lc STRING``, ``bash <<EOF``, ``bash -s <<< STRING``."""
    words = command.words[1:]
    i, has_c = 0, False
    while i < len(words):
        text = words[i].text
        if text == "--":
            i += 1
            break
        if text in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
            continue
        if text.startswith(("-", "+")) and len(text) > 1:
            has_c = has_c or (not text.startswith("--") and "c" in text[1:])
            i += 1
            continue
        break
    if has_c and i < len(words):
        yield "sh -c", words[i].text
    elif (i >= len(words) or words[i].text in _STDIN) and command.stdin is not None and not has_c:
        yield ("heredoc" if any(r.mode == "stdin" for r in command.redirects) else "pipe"), command.stdin


# -- what the parser cannot see (issue 31) ---------------------------------------------------------
_INTERPRETERS = frozenset({"node", "nodejs", "bun", "deno", "perl", "ruby", "php", "lua", "luajit", "Rscript",
                           "osascript", "pwsh", "powershell", "tclsh", "irb"})
#: commands whose output is shell code meant for eval or source: the environment of a tool
ENV_PRINTERS = frozenset({"ssh-agent", "pyenv", "rbenv", "nodenv", "goenv", "jenv", "plenv", "direnv", "fnm", "conda",
                          "mamba", "micromamba", "brew", "minikube", "docker-machine", "opam", "luarocks", "dircolors",
                          "zoxide", "starship", "mise", "rtx", "keychain", "gpg-agent", "thefuck", "atuin",
                          "register-python-argcomplete", "gpgconf", "rustup", "pdm", "poetry", "pipenv", "uv",
                          "kubectl", "helm", "gh", "npm", "pnpm", "deno", "bun", "docker", "aws", "gcloud"})
_ENV_VERBS = frozenset({"completion", "completions", "shellenv", "env", "hook", "init", "activate", "docker-env",
                        "shell", "-s", "-c", "--sh", "--bash", "--zsh", "generate-shell-completion"})


def _reads_code_on_stdin(command: Command) -> bool:
    """A shell or an interpreter given no script, no ``-c`` code: it runs its stdin (and
    ``eval`` given nothing, which a line feeds as if it read it: ``cat x.sh | eval``)."""
    name = command.name
    if name == "eval":
        return len(command.words) == 1
    if name in ("sed", "gsed"):  # GNU sed's bare `e` runs each line of its input as a command
        return any(a == "e" or a.endswith((";e", "; e", "\ne")) for a in command.args)
    if name in ("at", "batch"):  # the job's commands, unless a file (-f) or another verb (-l, -r, -c) is named
        return not any(w.text[:2] in ("-f", "-l", "-r", "-d", "-c") for w in command.words[1:])
    if name in SHELLS:
        words = [w.text for w in command.words[1:]]
        flags = [w for w in words if w.startswith(("-", "+")) and len(w) > 1]
        operands = [w for w in words if not w.startswith(("-", "+")) or w == "-"]
        if any(not f.startswith("--") and "c" in f[1:] for f in flags):
            return False
        return not operands or any(not f.startswith("--") and "s" in f[1:] for f in flags) or operands[0] in _STDIN
    if PYTHON.match(name) or name in _INTERPRETERS:
        operands = [w.text for w in command.words[1:] if not w.text.startswith("-") or w.text == "-"]
        if PYTHON.match(name) and any(w.text == "-m" or w.text.startswith("-m") for w in command.words[1:]):
            return False
        return not operands or operands[0] in _STDIN
    return False


#: the script operand that is the program's own input: `bash /dev/stdin <<< CODE` runs CODE
_STDIN = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


def _input_copied_to(command: Command) -> list[str]:
    """The files ``command`` copies its input into: tee's operands, ``cp``'s or ``install``'s
    destination from ``/dev/stdin``, ``dd of=FILE`` with no ``if=``."""
    name, args = command.name, list(command.args)
    if name == "tee":
        return [a for a in args if not a.startswith("-")]
    if name in ("cp", "install"):
        files = [a for a in args if not a.startswith("-") and not re.fullmatch(r"[0-7]{3,4}", a)]
        return files[-1:] if len(files) == 2 and files[0] in _STDIN else []
    if name == "dd" and not any(a.startswith("if=") for a in args):
        return [a[3:] for a in args if a.startswith("of=")]
    return []


def _piped_text(command: Command) -> str | None:
    """The text a literal ``echo``/``printf`` (or ``cat`` of a here-document) pipes into
    ``command`` (``printf 'rm -rf /' | sh``), None when what comes down the pipe is not
    written in the line."""
    if not command.feeders or command.stdin is not None:
        return None
    feeder = command.feeders[-1]
    if feeder.name == "cat" and not feeder.args and feeder.stdin is not None and not feeder.wrappers:
        return feeder.stdin  # cat <<'EOF' | python3: the here-document, as `python3 - <<'EOF'` reads it
    if feeder.name not in ("echo", "printf") or any(w.dynamic for w in feeder.words) or feeder.wrappers:
        return None
    return _printed(feeder)


def _printed(feeder: Command) -> str:
    """What ``echo`` or ``printf`` prints, its arguments as written."""
    args = list(feeder.args)
    if feeder.name == "echo":
        escapes = False
        while args and re.fullmatch(r"-[neE]+", args[0]):
            escapes = escapes or "e" in args[0]
            args = args[1:]
        text = " ".join(args)
        return _printf_escapes(text) if escapes else text
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        return ""
    fmt, rest = args[0], args[1:]
    if "%" in fmt:
        pieces = iter(rest)
        fmt = re.sub(r"%[-0-9.]*[sbdq]", lambda m: next(pieces, ""), fmt.replace("%%", "\x25"))
        fmt += "".join(" " + r for r in pieces)
    return _printf_escapes(fmt)


_NUMERIC_ESCAPE = Lazy(r"\\(?:[xuU][0-9a-fA-F]|0?[0-7]{2})", needs=("\\",))


def _escaped(feeder: Command) -> bool:
    """``printf '\\162\\155 -rf /'``, ``echo -e '\\x72\\x6d'``: text spelt in numeric
    escapes, which a person cannot read at a glance: fed to a shell, the shape of an evasion."""
    if feeder.name == "echo":
        flags = [a for a in feeder.args[:3] if a.startswith("-") and set(a[1:]) <= set("neE")]
        if not any("e" in f for f in flags):
            return False
    elif feeder.name != "printf":
        return False
    return any(_NUMERIC_ESCAPE.search(a) for a in feeder.args)


def _printf_escapes(text: str) -> str:
    return re.sub(r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|0?[0-7]{1,3}|.)",
                  lambda m: _escape(m.group(1)), text)


def _escape(esc: str) -> str:
    simple = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "a": "\a", "e": "\x1b", "c": ""}
    if esc in simple:
        return simple[esc]
    try:
        if esc[0] in "xuU" and len(esc) > 1:
            return chr(int(esc[1:], 16))
        if esc[0].isdigit():
            return chr(int(esc, 8))
    except ValueError:
        pass
    return "\\" + esc


_PROC_MARKERS = Lazy(r"subprocess|os\.system|os\.popen|os\.exec|os\.spawn|child_process|execSync|spawnSync|"
                     r"\bsystem\s*\(|\bpopen\b|Open3|IO\.popen|%x|shell_exec|proc_open|passthru|Runtime\.getRuntime|"
                     r"\bexec\s*\(|Deno\.Command|Bun\.spawn|\bqx\b|`")
_PROC_CALL = Lazy(r"(?:\bos\.(?:system|popen|exec\w*|spawn\w*)|\bsubprocess\.\w+|\bPopen|\bexecSync|\bspawnSync|"
                  r"\bexecFileSync|\bexecFile|(?<![.\w])exec|\bspawn|(?<![.\w])system|\bIO\.popen|\bOpen3\.\w+|"
                  r"\bshell_exec|\bpassthru|\bproc_open|\bDeno\.Command|\bBun\.spawn\w*|\bcheck_output|\bcheck_call|"
                  r"\bgetoutput|\bgetstatusoutput)\s*(?:\(|\s)\s*(.)")


def _code_unseen(interpreter: str, code: str) -> str | None:
    """A one-liner that starts a process with a command it builds at run time."""
    code = code[: 1 << 16]
    if not _PROC_MARKERS.search(code):
        return None
    for match in _PROC_CALL.finditer(code):
        first = match.group(1)
        if first in "\"'" and _LITERAL_AND_MORE.match(code, match.start(1)) and \
                _joined_at(code, match.start(1)) is None:
            return f"a command built at run time in a {interpreter} one-liner"  # "rm -rf " + path
        if first in "\"'`)":
            continue
        if first == "[" and _literal_list(code, match.start(1)) is not None:
            continue
        return f"a command built at run time in a {interpreter} one-liner"
    return None


_LIST = Lazy(r"\[\s*((?:[rbuf]?(?:\"[^\"]*\"|'[^']*')\s*,\s*)*[rbuf]?(?:\"[^\"]*\"|'[^']*'))\s*,?\s*\]")
_ITEM = Lazy(r"[rbuf]?(?:\"([^\"]*)\"|'([^']*)')")


def _literal_list(code: str, at: int) -> str | None:
    """``['rm', '-rf', '/']`` at ``at`` as one shell line, or None when it is not a list of literals."""
    match = _LIST.match(code, at)
    if match is None:
        return None
    return " ".join(shellwords.quote(m.group(1) if m.group(1) is not None else m.group(2))
                    for m in _ITEM.finditer(match.group(1)))


def _unseen(command: Command, known: Known) -> str | None:
    """What ``command`` runs that the parser cannot read, said for a reason; None when
    everything it runs is seen."""
    name = command.name
    if command.feeders and command.stdin is None and _reads_code_on_stdin(command):
        return f"code piped into {name}"
    if command.feeders and _reads_code_on_stdin(command) and _escaped(command.feeders[-1]):
        return f"code written in escapes piped into {name}"
    if name.lower().startswith(("powershell", "pwsh")) and \
            any(a.lower() in ("-e", "-ec", "-enc", "-encodedcommand") for a in command.args):
        return "an encoded PowerShell command"
    first = command.words[1].text if len(command.words) > 1 else ""
    if (name == "eval" or name.lower() in ("iex", "invoke-expression")) and \
            any(w.dynamic for w in command.words[1:]) and not _env_printer(first):
        return f"code from {_shown(first)} run by {name}"  # PowerShell's Invoke-Expression is its eval
    if name in SHELLS | {"source", "."} and first.startswith(("<(", "$(", "`")) and not _env_printer(first) and \
            not _FRESH_FILE.fullmatch(first):  # `bash $(mktemp)`: a new file, run as any file is (what the
        return f"code from {_shown(first)} run by {name}"  # line wrote into it is read as its script)
    if command.words and command.words[0].dynamic and len(command.words) == 1 and \
            not _env_printer(command.words[0].text) and not _literal_output(command.words[0].text):
        return f"the command is {_shown(command.words[0].text)}"
    if name in SHELLS and {"xargs", "parallel"} & set(command.wrapper_names) and _runs_its_input(command):
        return f"commands read from the input of {'xargs' if 'xargs' in command.wrapper_names else 'parallel'}"
    if name in ("sed", "gsed") and command.stdin is None and _sed_runs_its_lines(command) and \
            not (command.feeders and all(f.name in ("echo", "printf") for f in command.feeders)):
        return "lines of a file or of a program's output run as commands by sed's e"
    if name == "git" and known.git_unresolved(command):
        return "a git alias from the command line's config"
    if name in ("touch", "mkdir") and any(_PLANTED_OPTION.match(a) for a in command.args):
        return "a file named as an option that runs a command, planted for a later tar, rsync or zip of * here"
    code = command.inline_code
    if code is not None:
        return _code_unseen(code[0], code[1])
    return None


#: a file name that tar, rsync or zip takes for an option that runs a command when a later ``tar cf x *``
#: expands it (HackTricks' wildcard tricks): ``--checkpoint-action=exec=sh x.sh``, ``-e sh x.sh``
_PLANTED_OPTION = Lazy(r"--checkpoint-action=|--to-command=|--use-compress-program=|--rsh=|--rsync-path=|"
                       r"--unzip-command=|--info-script=|--new-volume-script=|-e\s|-TT",
                       needs=("--", "-e", "-TT"))


def _sed_runs_its_lines(command: Command) -> bool:
    from forge_hookd.shell import optioncode  # loaded for sed's options already

    return optioncode.sed_runs_its_lines(list(command.args))


def _runs_its_input(command: Command) -> bool:
    """``xargs -I{} sh -c '{}'``, ``xargs sh -c '"$@"' _``: each input line is the code."""
    scripts = [text for via, text in _shell_strings(command) if via == "sh -c"]
    wrapper = next(w for w in command.wrappers if posixpath.basename(w[0]) in ("xargs", "parallel"))
    if _fed_items(posixpath.basename(wrapper[0]), wrapper, command.feeders)[0] is not None:
        return False  # the input is written in the line: _fed_commands hands the commands on
    if not scripts:
        return True  # xargs sh: runs the files its input names
    tokens = ["{}", *(wrapper[k + 1] for k, w in enumerate(wrapper[:-1]) if w in ("-I", "-J"))]
    tokens += [w[2:] for w in wrapper if w.startswith(("-I", "-J")) and len(w) > 2]
    head = scripts[0].lstrip().lstrip("\"'")
    return head.startswith((*tokens, "$@", "$*", "$1", "${@}", "${1}"))


def _literal_output(text: str) -> bool:
    """``$( cd ..; echo ok )``: a substitution whose output is written in it."""
    if not text.startswith("$(") or not text.endswith(")"):
        return False
    inner = shellwords.parse_raw(text[2:-1]).commands
    return bool(inner) and posixpath.basename(inner[-1].words[0].text if inner[-1].words else "") in ("echo", "printf") \
        and not any(w.dynamic for w in inner[-1].words)


def _env_printer(text: str) -> bool:
    """``$(ssh-agent -s)``, ``$(pyenv init -)``, ``<(kubectl completion bash)``: a tool's
    own environment or completion code."""
    match = re.match(r"(?:\$\(|<\(|`)\s*([^\s)`]+)\s*([^\s)`]*)", text)
    if match is None:
        return False
    head = match.group(1).rsplit("/", 1)[-1]
    return head in ENV_PRINTERS and (match.group(2) in _ENV_VERBS or head in ("ssh-agent", "dircolors", "keychain",
                                                                               "gpg-agent", "minikube", "direnv")) \
        or match.group(2) in ("completion", "completions", "shellenv")


def _shown(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


_FED = 16  # commands built from one xargs/parallel input: enough to see, bounded


def _fed_commands(command: Command) -> Iterator[tuple[str, str]]:
    """What ``xargs``/``parallel`` run, when their input is written in the command line:
    ``echo / | xargs rm -rf`` runs ``rm -rf /``; ``parallel rm {} ::: a b`` runs
    ``rm a`` and ``rm b``."""
    for wrapper in command.wrappers:
        head = posixpath.basename(wrapper[0])
        if head not in ("xargs", "parallel"):
            continue
        items, token = _fed_items(head, wrapper, command.feeders)
        if items is None:
            continue
        template = list(command.argv) or (["echo"] if head == "xargs" else [])
        if token is None and _code_from_input(template):  # `echo 'rm -rf /' | xargs bash -c`
            yield f"{head} {command.name} -c", " ".join(items)  # with -0 or -d, the input whole is the code
        for text in _fill(template, items, token, per_item=head == "parallel" or token is not None):
            yield head, text


def _code_from_input(template: list[str]) -> bool:
    """``bash -c`` with no code of its own: the code is what xargs appends to it."""
    if not template or posixpath.basename(template[0]) not in SHELLS:
        return False
    last = template[-1]
    return last.startswith("-") and not last.startswith("--") and "c" in last[1:]


def _fed_items(head: str, wrapper: tuple[str, ...], feeders: tuple[Command, ...]) -> tuple[list[str] | None, str | None]:
    token: str | None = "{}" if head == "parallel" else None
    for k, word in enumerate(wrapper[1:], start=1):
        if head == "xargs" and word == "-I" and k + 1 < len(wrapper):
            token = wrapper[k + 1]
        elif head == "xargs" and word.startswith("--replace"):
            token = word.partition("=")[2] or "{}"
        elif head == "xargs" and word.startswith("-i"):
            token = word[2:] or "{}"
        elif head == "xargs" and word.startswith(("-I", "-J")) and len(word) > 2:
            token = word[2:]
        elif head == "xargs" and word == "-J" and k + 1 < len(wrapper):
            token = wrapper[k + 1]
        elif head == "xargs" and word.startswith(("-a", "--arg-file")):
            return None, token  # the input is a file's: not in the command line
        elif head == "parallel" and word in (":::", ":::+"):
            return list(wrapper[k + 1:k + 1 + _FED]), token
    literal = [f for f in feeders if f.name in ("echo", "printf") and not any(w.dynamic for w in f.words)]
    if not literal:
        return None, token
    text = " ".join(a for a in literal[-1].args if not a.startswith("-") or a == "-")
    return (text.splitlines() if token is not None else text.split())[:_FED], token


def _fill(template: list[str], items: list[str], token: str | None, *, per_item: bool) -> Iterator[str]:
    if not per_item:
        yield " ".join(shellwords.quote(w) for w in [*template, *items])
        return
    for item in items:
        if token is not None and any(token in w for w in template):
            yield " ".join(shellwords.quote(w.replace(token, item)) for w in template)
        elif template:
            yield " ".join(shellwords.quote(w) for w in [*template, item])
        else:
            yield item


def _find_exec(words: tuple[Word, ...]) -> Iterator[tuple[str, str]]:
    i = 0
    while i < len(words):
        if words[i].text in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < len(words) and words[j].text not in (";", "+"):
                j += 1
            if j > i + 1:
                yield "find -exec", " ".join(shellwords.quote(w.text) for w in words[i + 1:j])
            i = j
        i += 1



# -- interpreters ------------------------------------------------------------------------------
_CODE_FLAGS = {"node": ("-e", "--eval", "-p", "--print"), "nodejs": ("-e", "--eval", "-p", "--print"),
               "bun": ("-e", "--eval", "-p", "--print"), "perl": ("-e", "-E"), "ruby": ("-e",),
               "php": ("-r",), "lua": ("-e",), "luajit": ("-e",), "Rscript": ("-e",), "osascript": ("-e",),
               "pwsh": ("-c", "-Command", "-command"), "powershell": ("-c", "-Command", "-command"),
               # GTFOBins' other interpreters: their system calls are read as any one-liner's
               "julia": ("-e", "--eval", "-E", "--print"), "R": ("-e",), "octave": ("--eval",),
               "octave-cli": ("--eval",), "emacs": ("--eval",), "tclsh": (), "wish": (),
               "swift": ("-e",), "go": ("-e",)}  # no option of go's: a Go program the line wrote and runs (_program_run)
#: an interpreter's options that take the next word as their value, which the code flag may
#: follow (``node -r dotenv/config -e CODE``, ``ruby -r json -e CODE``, ``python -W ignore -c CODE``)
_VALUE_OPTIONS = {**dict.fromkeys(("node", "nodejs", "bun"), frozenset({
    "-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions", "--env-file",
    "--input-type", "--title", "--inspect-port", "--preload"})),
    "ruby": frozenset({"-r", "-I", "-C", "-E", "-F"}), "perl": frozenset({"-I", "-M", "-m"}),
    "python": frozenset({"-W", "-X"}),
    # osascript -l JavaScript -e CODE: JXA's code, whose doShellScript runs a shell as do shell script does
    "osascript": frozenset({"-l", "-s"})}
_AWKS = frozenset({"awk", "gawk", "mawk", "nawk", "busybox awk"})
_VERSION = Lazy(r"[0-9][0-9.]*$")
#: interpreters whose one-letter code flag takes the code in the same word (``ruby -e'puts 1'``);
#: not node's, whose ``-pe`` is -p and -e
_ATTACHED_CODE = ("perl", "ruby", "php", "lua")


def _inline_code(command: Command) -> tuple[str, str] | None:
    name, words = command.name, command.words
    if PYTHON.match(name):
        return _flag_code(name, words, ("-c",), cluster="c", stdin=command.stdin)
    flags = _CODE_FLAGS.get(name) or _CODE_FLAGS.get(_VERSION.sub("", name))  # lua5.1, ruby3.2, perl5.36
    if flags is not None:
        cluster = "e" if name.startswith(("perl", "ruby")) else ""
        return _flag_code(name, words, flags, cluster=cluster, stdin=command.stdin)
    if name == "puppet" and len(words) > 2 and words[1].text == "apply":  # puppet apply -e CODE
        return _flag_code(name, words[1:], ("-e", "--execute"), cluster="", stdin=None)
    if name == "deno" and len(words) > 2 and words[1].text == "eval":
        return name, words[2].text
    if name in _AWKS:
        rest = [w.text for w in words[1:]]
        while rest and rest[0].startswith("-") and rest[0] not in ("-f",):
            rest = rest[2:] if rest[0] in ("-v", "-F") else rest[1:]
        return (name, rest[0]) if rest and rest[0] != "-f" else None
    return None


def _value_options(name: str) -> frozenset[str]:
    key = "python" if PYTHON.match(name) else _VERSION.sub("", name)
    return _VALUE_OPTIONS.get(key, frozenset())


def _flag_code(name: str, words: tuple[Word, ...], flags: tuple[str, ...], *, cluster: str,
               stdin: str | None) -> tuple[str, str] | None:
    valued = _value_options(name)
    for k, word in enumerate(words[1:], start=1):
        text = word.text
        if k > 1 and words[k - 1].text in valued:
            continue  # the value of the option before: node -r dotenv/config -e CODE, osascript -l JavaScript
        if text in flags or (cluster and re.fullmatch(rf"-[A-Za-z]*{cluster}", text)):
            return (name, words[k + 1].text) if k + 1 < len(words) else None
        for flag in flags:
            if flag.startswith("--") and text.startswith(flag + "="):
                return name, text[len(flag) + 1:]
        if name.startswith(("python", "pypy")) and text.startswith("-c") and len(text) > 2:
            return name, text[2:]
        if name.startswith(_ATTACHED_CODE) and len(text) > 2 and text[:2] in flags:
            return name, text[2:]  # ruby -e'code', perl -e'code', php -r'code': the code is the flag's own word
        if not text.startswith("-") or text == "-":
            break
    script = next((w.text for w in words[1:] if not w.text.startswith("-")), None)
    if stdin is not None and (script is None or script == "-"):
        return name, stdin
    return None


# system("..."), os.system('...'), subprocess.run("...", shell=True), `...`, exec("..."), AppleScript's
# do shell script "..." (osascript -e) and JXA's app.doShellScript('...') (osascript -l JavaScript -e)
_SYSTEM = Lazy(r"""(?:\bsystem|\bpopen|\bcheck_output|\bcheck_call|\bcall|\brun|\bPopen|\bexecSync|\bexec|\bspawnSync|
                         \bgetoutput|\bgetstatusoutput|\bshell_exec|\bpassthru|\bproc_open|%x|\bos\.execute|\bshell-command|
                         \bdo\s+shell\s+script|\bdoShellScript)\s*[({]?\s*(?:\[\s*)?
                         (?:"((?:[^"\\]|\\.){1,4000})"|'((?:[^'\\]|\\.){1,4000})')""", re.VERBOSE)
_BACKTICK_CODE = Lazy(r"`([^`]{1,4000})`")
#: the home as a one-liner names it: what an argument list holds besides literals
_HOME_EXPRESSION = r"""\$ENV\{['"]?HOME['"]?\}|\$HOME\b|(?:require\(\s*['"](?:node:)?os['"]\s*\)|\bos)\.homedir\(\)|""" \
    r"""process\.env\.HOME|Dir\.home|ENV\[['"]HOME['"]\]|Path\.home\(\)|getenv\(\s*['"]HOME['"]\s*\)|""" \
    r"""(?:__import__\(\s*['"]os['"]\s*\)|\bos)\.path\.expanduser\(\s*['"]~['"]\s*\)|""" \
    r"""(?:__import__\(\s*['"]os['"]\s*\)|\bos)\.environ\[['"]HOME['"]\]"""
_ARGV_PART = Lazy(r""""[^"\n]*"|'[^'\n]*'|""" + _HOME_EXPRESSION)
#: a call that runs a program from a list of literals and the home (no shell): system("rm", "-rf", $ENV{HOME})
_ARGV_CALL = Lazy(r"""\b(?:system|exec|execvp|spawnSync|spawn|run|call|Popen)\s*\(\s*\[?\s*((?:"[^"\n]*"|'[^'\n]*')"""
                  r"""(?:\s*,\s*\[?\s*(?:"[^"\n]*"|'[^'\n]*'|""" + _HOME_EXPRESSION + r"""))*\s*,\s*(?:""" + _HOME_EXPRESSION + r"""))""",
                  needs=("HOME", "home", "expanduser"))
_STRING = r"""[rbu]?(?:"(?:[^"\\\n]|\\.){0,4000}"|'(?:[^'\\\n]|\\.){0,4000}')"""
#: a command a one-liner joins from literals and the home before it runs it: python's and node's
#: ``"r" + "m -rf ~"``, php's and perl's ``"rm -rf " . getenv("HOME")``
_JOINED = Lazy(rf"""(?:{_STRING}|{_HOME_EXPRESSION})(?:\s*[+.]\s*(?:{_STRING}|{_HOME_EXPRESSION}))+""")
#: a literal a one-liner adds to, formats or joins with something else (``"rm -rf " + path``,
#: ``"rm -rf %s" % d``, ``"rm -rf {}".format(d)``)
_LITERAL_AND_MORE = Lazy(rf"""{_STRING}\s*(?:[+%]|\.(?!split\())""")  # "ls -la".split(): the literal's own words
#: a shell named in a one-liner's argument list with -c and its code: the code is what runs
_SHELL_ARGV = Lazy(r"""["'](?:/(?:usr/)?bin/)?(?:ba|da|z|k)?sh["']\s*,\s*(?:\[\s*)?"""
                   r"""(?:["'](?:/(?:usr/)?bin/)?(?:ba|da|z|k)?sh["']\s*,\s*)?["']-c["']\s*,\s*"""
                   r"""(?:"((?:[^"\\]|\\.){1,4000})"|'((?:[^'\\]|\\.){1,4000})')""", needs=("-c",))


def _joined_at(code: str, at: int) -> str | None:
    """The command a chain of literals and the home at ``at`` joins into (the home as ``~``),
    or None when there is no chain of them there."""
    match = _JOINED.match(code, at)
    if match is None:
        return None
    parts = re.finditer(rf"{_STRING}|{_HOME_EXPRESSION}", match.group(0))
    return "".join("~" if not part.group(0).lstrip("rbu").startswith(("'", '"')) else
                   re.sub(r"\\(.)", r"\1", part.group(0).lstrip("rbu")[1:-1]) for part in parts)


#: a process object given a shell and its -c code (Foundation's Process and NSTask, in swift -e or JXA):
#: ``executableURL = URL(fileURLWithPath: "/bin/bash"); process.arguments = ["-c", CODE]``
_PROCESS_SHELL = Lazy(r"""/bin/(?:ba|da|z|k)?sh["'][\s\S]{0,400}?arguments\s*=\s*\[\s*["']-c["']\s*,\s*"""
                      r"""(?:"((?:[^"\\]|\\.){1,4000})"|'((?:[^'\\]|\\.){1,4000})')""", needs=("arguments",))


def _system_strings(code: str) -> Iterator[str]:
    """The shell commands a one-liner hands to a shell: the string literals given to
    ``system``/``popen``/``subprocess.*``/``execSync``, and Perl's and Ruby's backticks."""
    if len(code) > 1 << 16:
        code = code[: 1 << 16]
    for match in _SYSTEM.finditer(code):
        literal = match.group(1) if match.group(1) is not None else match.group(2)
        yield re.sub(r"\\(.)", r"\1", literal)
    for match in _BACKTICK_CODE.finditer(code):
        yield match.group(1)
    for match in _ARGV_CALL.finditer(code):  # perl's system("rm", "-rf", $ENV{HOME}): a list, the home named
        yield " ".join("~" if not part.startswith(("'", '"')) else shellwords.quote(part[1:-1])
                       for part in (m.group(0) for m in _ARGV_PART.finditer(match.group(1))))
    for match in _PROC_CALL.finditer(code):  # os.system("r" + "m -rf ~"): the pieces joined as the shell gets them
        joined = _joined_at(code, match.start(1)) if match.group(1) in "\"'" else None
        if joined is not None:
            yield joined
    for match in _PROCESS_SHELL.finditer(code):  # swift's Process: a shell, then arguments = ["-c", CODE]
        yield re.sub(r"\\(.)", r"\1", match.group(1) if match.group(1) is not None else match.group(2))
    for match in _SHELL_ARGV.finditer(code):  # execl("/bin/sh", "sh", "-c", CODE), spawn("sh", ["-c", CODE])
        yield re.sub(r"\\(.)", r"\1", match.group(1) if match.group(1) is not None else match.group(2))
    if "[" in code:
        for match in _PROC_CALL.finditer(code):
            if match.group(1) == "[":
                listed = _literal_list(code, match.start(1))
                if listed is not None:
                    yield listed


# -- trust -------------------------------------------------------------------------------------
def option_values(words: Sequence[str], short: str, long: str) -> Iterator[str]:
    """The values of ``-X VALUE``, ``-XVALUE``, ``--long VALUE`` and ``--long=VALUE``
    (``""`` for a flag that ends the words)."""
    for k, text in enumerate(words):
        following = words[k + 1] if k + 1 < len(words) else ""
        if text in (short, long):
            yield following
        elif text.startswith(long + "="):
            yield text[len(long) + 1:]
        elif text.startswith(short) and not text.startswith("--"):
            yield text[len(short):]


_ = Sub  # re-exported type of RawCommand.subs


def command_of(tool_args: Mapping[str, object]) -> str | None:
    """The shell command of a shell tool call: ``command`` (or ``cmd``) as a string, or as
    an argv list (Codex), quoted back into one line."""
    command = tool_args.get("command", tool_args.get("cmd"))
    if isinstance(command, str):
        return command
    if isinstance(command, list) and all(isinstance(a, str) for a in command):
        import shlex  # an argv (Codex) is rare: 0.4 ms of import spared on every other call

        return " ".join(shlex.quote(a) for a in command)
    return None
