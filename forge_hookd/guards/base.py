"""What every built-in guard is: a name, a summary, what it catches, its options, and a
pure ``judge(tool, tool_args, context) -> Ruling``. No I/O beyond what the context
gives, no process (DESIGN.md, "Built-in guards")."""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from forge_hookd.shell import commands as shell
from forge_hookd.shell.commands import Command, Parsed
from forge_hookd.shell.lazyre import Lazy
from forge_hookd.shell.words import VARIABLE
from forge_hookd.statedir import state_path
from forge_hookd.text import did_you_mean
from forge_hookd.tuples import NamedTuple

ALLOW, ASK, DENY = "allow", "ask", "deny"
_RANK = {ALLOW: 0, ASK: 1, DENY: 2}
FILE_TOOLS = frozenset({"read", "write", "edit", "glob", "grep"})
WRITE_TOOLS = frozenset({"write", "edit"})
#: forge's canonical tool names (dialects.base.CANONICAL_TOOLS): any other is judged by its shape
CANONICAL_TOOLS = FILE_TOOLS | {"bash", "web_fetch", "web_search"}


class Ruling(NamedTuple):
    """A guard's answer: ``decision`` allow/ask/deny, a ``reason`` that says what matched
    and how to do it safely, and ``matched``: the command or path that matched."""

    decision: str
    reason: str = ""
    matched: str = ""


ALLOWED = Ruling(ALLOW)


class Context(NamedTuple):
    """What a guard may know besides the tool call: the project root, the home directory,
    the agent's own tool name, where a shell command starts (default: the project
    root), and forge's own config, data and state directories (for self-protection)."""

    project_root: str
    home: str
    native_tool: str | None = None
    cwd: str | None = None
    config_dir: str | None = None
    data_dir: str | None = None
    tmpdir: str | None = "/tmp"  # what $TMPDIR is taken to be; None once the command sets it
    managed_dir: str | None = None  # FORGE_MANAGED_DIR (the managed layer's /etc/forge is always forge's)
    state_dir: str | None = None  # where forge-hook install's records are (self-protection: guards/wired.py)

    @classmethod
    def from_env(cls, project_root: str, env: Mapping[str, str], *, native_tool: str | None = None,
                 cwd: str | None = None) -> Context:
        """The context with forge's directories as forge itself finds them in ``env``."""
        home = env.get("HOME") or "/root"
        config = env.get("FORGE_CONFIG_DIR") or posixpath.join(env.get("XDG_CONFIG_HOME") or f"{home}/.config",
                                                                "forge")
        data = posixpath.join(env.get("XDG_DATA_HOME") or f"{home}/.local/share", "forge")
        return cls(project_root, home, native_tool, cwd, config, data, managed_dir=env.get("FORGE_MANAGED_DIR") or None,
                   state_dir=state_path(env=env))

    @property
    def start(self) -> str:
        return self.cwd or self.project_root


class Option(NamedTuple):
    """One ``with`` option: its name, kind (``list``, ``bool``, ``str``), default and help."""

    name: str
    kind: str
    default: Any
    help: str


class GuardError(ValueError):
    """A guard named that does not exist, or options that do not validate."""


class Guard:
    """A built-in guard. Subclasses set the class attributes and override
    :meth:`judge_command` (one simple command of a shell tool call) and/or
    :meth:`judge_file` (a file tool's call); options arrive validated in ``self.opts``."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    catches: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[tuple[Option, ...]] = ()
    tools: ClassVar[frozenset[str]] = frozenset({"bash"})
    #: what the guard answers when a command is too deep or too long to read whole
    unreadable: ClassVar[str] = DENY
    #: the command names this guard judges by their arguments: a command word the parser
    #: cannot resolve (``$X -rf /``) is judged as each of them (issue 31)
    heads: ClassVar[tuple[str, ...]] = ()

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        problems = self.validate(options or {})
        if problems:
            raise GuardError("; ".join(problems))
        self.opts: dict[str, Any] = {o.name: o.default for o in self.options}
        self.opts.update(options or {})

    @classmethod
    def validate(cls, options: object) -> list[str]:
        """Every problem of a ``with`` object, naming the key (and a close known one)."""
        if not isinstance(options, Mapping):
            return [f"'with' must be an object, not {type(options).__name__}"]
        known = {o.name: o for o in cls.options}
        problems = []
        for key, value in options.items():
            option = known.get(key)
            if option is None:
                hint = did_you_mean(str(key), list(known))  # difflib (1.4 ms) loads only here
                names = ", ".join(known) or "none"
                problems.append(f"guard {cls.name}: unknown option '{key}'{hint}; its options: {names}")
            elif not _kind_ok(option.kind, value):
                problems.append(f"guard {cls.name}: option '{key}' must be {_KIND_WORDS[option.kind]}")
        return problems

    # -- judging -------------------------------------------------------------------------
    def judge(self, tool: str, tool_args: Mapping[str, Any], context: Context) -> Ruling:
        """The verdict on one tool call (``tool`` is forge's canonical name)."""
        if tool == "bash" and "bash" in self.tools:
            command = shell.command_of(tool_args)
            return ALLOWED if command is None else self.judge_shell(shell.parse(command), context)
        if tool in self.tools:
            return self.judge_file(tool, tool_args, context)
        if tool not in CANONICAL_TOOLS:
            return self.judge_unmapped(tool, tool_args, context)
        return ALLOWED

    def judge_unmapped(self, tool: str, tool_args: Mapping[str, Any], context: Context) -> Ruling:
        """A tool no alias table maps (an MCP tool, one an agent added): judged by what
        its input holds (issue 31, item 4): a ``command`` as a shell command, each path
        argument as a read or a write of that path, as the tool's name says."""
        from forge_hookd.guards import shape  # only when a tool forge does not know comes by

        worst = ALLOWED
        for as_tool, as_args in shape.views(tool, tool_args, self.tools):
            found = self.judge(as_tool, as_args, context)
            if _RANK[found.decision] > _RANK[worst.decision]:
                shown = "a shell command" if as_tool == "bash" else f"a {as_tool} of a path"
                worst = found._replace(reason=f"{found.reason} (the tool {tool}, judged by its input as {shown})")
                if found.decision == DENY:
                    break
        return worst

    def judge_shell(self, parsed: Parsed, context: Context) -> Ruling:
        if "TMPDIR=" in parsed.text:  # set somewhere in the line: $TMPDIR is no longer known
            context = context._replace(tmpdir=None)
        worst = ALLOWED
        for command in parsed.commands:
            verdict = self._judge_seen(command, context)
            if _RANK[verdict.decision] > _RANK[worst.decision]:
                worst = verdict
                if verdict.decision == DENY:
                    return verdict
        if parsed.truncated and _RANK[worst.decision] < _RANK[self.unreadable]:
            return Ruling(self.unreadable, f"{self.name}: the command is nested too deep or is too long to "
                           "read whole, so it cannot be judged; split it into shorter commands", parsed.text[:80])
        return worst

    def _judge_seen(self, command: Command, context: Context) -> Ruling:
        """One command, and what the parser could not see of it: code it runs unread
        asks (issue 31: "cannot see" is never a silent allow); a command word it cannot
        resolve is judged as each command this guard knows by its arguments."""
        verdict = self.judge_command(command, context)
        if verdict.decision == DENY:
            return verdict
        if command.unseen is not None and verdict.decision == ALLOW:
            shown = " ".join(command.argv) or command.unseen
            return self.verdict(ASK, shown, f"cannot be judged: cannot see what this runs ({command.unseen})",
                                "Run the commands themselves, written out, so that they can be judged")
        if command.words and command.words[0].dynamic and verdict.decision == ALLOW:
            for head in self.heads:
                stand_in = command._replace(argv=(head, *command.argv[1:]),
                                            words=(command.words[0]._replace(text=head), *command.words[1:]))
                found = self.judge_command(stand_in, context)
                if found.decision != ALLOW:
                    why = found.reason.partition("` ")[2] or found.reason
                    return Ruling(found.decision, f"{self.name}: cannot see what this runs (the command word "
                                  f"{command.argv[0]}); run as {head}, `{' '.join(stand_in.argv)[:100]}` {why}",
                                  " ".join(command.argv))
        return verdict

    def judge_command(self, command: Command, context: Context) -> Ruling:
        return ALLOWED

    def judge_file(self, tool: str, tool_args: Mapping[str, Any], context: Context) -> Ruling:
        return ALLOWED

    def verdict(self, decision: str, matched: str, why: str, safely: str) -> Ruling:
        """A verdict whose reason says what matched and how to do it safely."""
        shown = matched if len(matched) <= 120 else matched[:117] + "..."
        return Ruling(decision, f"{self.name}: `{shown}` {why}. {safely}", matched)


_KIND_WORDS = {"list": "a list of strings", "bool": "true or false", "str": "a string",
               "decision": '"deny", "ask" or "allow"'}


def _kind_ok(kind: str, value: object) -> bool:
    if kind == "list":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "decision":
        return value in (DENY, ASK, ALLOW)
    return isinstance(value, str)


# -- tool arguments, as each agent names them ----------------------------------------------------
_PATH_KEYS = ("file_path", "filePath", "path", "absolute_path", "notebook_path", "target_file", "dir_path",
              "directory")
_CONTENT_KEYS = ("content", "file_text", "new_string", "new_str", "newString", "text", "contents", "insert_text",
                 "new_source")
_PATCH_FILE = Lazy(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$", re.M)


def paths_of(tool_args: Mapping[str, Any]) -> list[str]:
    """The paths a file tool's call names: Claude's ``file_path``, Copilot's ``path``,
    Gemini's ``file_path``/``absolute_path``/``paths``, the files of a Codex patch."""
    found = [v for k in _PATH_KEYS if isinstance(v := tool_args.get(k), str) and v]
    paths = tool_args.get("paths")
    if isinstance(paths, list):
        found += [p for p in paths if isinstance(p, str) and p]
    for value in _strings(tool_args):
        if "*** " in value:
            found += [(m.group(1) or m.group(2)).strip() for m in _PATCH_FILE.finditer(value)]
    return found


def content_of(tool_args: Mapping[str, Any]) -> list[str]:
    """The text a write or edit tool puts in a file: ``content``, ``new_string``,
    ``new_str``, each of ``edits``, the added lines of a patch."""
    found = [v for k in _CONTENT_KEYS if isinstance(v := tool_args.get(k), str)]
    edits = tool_args.get("edits")
    if isinstance(edits, list):
        for edit in edits:
            if isinstance(edit, Mapping):
                found += [v for k in _CONTENT_KEYS if isinstance(v := edit.get(k), str)]
    for value in _strings(tool_args):
        if "*** Begin Patch" in value:
            found.append("\n".join(line[1:] for line in value.splitlines() if line.startswith("+")))
    return found


def _strings(tool_args: Mapping[str, Any]) -> Iterator[str]:
    for key in ("command", "input", "patch"):
        value = tool_args.get(key)
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, str))


# -- paths -----------------------------------------------------------------------------------------
_PROJECT_VARS = ("FORGE_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR")
#: ``${NAME:-DEFAULT}`` (``-`` or ``=``, with or without ``:``): NAME and DEFAULT
_DEFAULTED = Lazy(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?[-=]([^}`]*)\}", needs=("${",))


#: the shell's values that are always a number (its pid ``$$``, its parent's, a random number, the
#: user's id): in a path they name one entry and cannot move it (``/tmp/build-$$`` stays in /tmp).
#: ``$!`` is not among them: empty before a job runs in the background (``rm -rf ./$!`` is ``./``).
_NUMERIC = Lazy(r"\$(?:\$|\{\$\}|\{(?:PPID|BASHPID|RANDOM|SRANDOM|UID|EUID)\}|(?:PPID|BASHPID|RANDOM|SRANDOM|UID|EUID)\b)",
                needs=("$",))


def resolve(word: str, context: Context, cwd: str | None = None) -> str | None:
    """``word`` as an absolute, normalised path (``~``, ``$HOME``, the project variables
    and ``cwd`` applied, no I/O); None when it holds a variable we cannot know."""
    if word.startswith("~"):
        head, _, rest = word[1:].partition("/")
        word = (context.home if not head else posixpath.join(posixpath.dirname(context.home), head)) + "/" + rest
    if "`" in word or "$(" in word:
        here = cwd or context.start
        word = word.replace("$(pwd)", here).replace("`pwd`", here)
        if "`" in word or "$(" in word:
            return None
    if "$" in word:
        word = _NUMERIC.sub("1", word)  # a pid or a number: never empty, never a / or a ..
        if context.tmpdir is not None:
            word = _DEFAULTED.sub(lambda m: m.group(2) if m.group(1) == "TMPDIR" else m.group(0), word)
        word = VARIABLE.sub(lambda m: _known_var(m.group(1) or m.group(2), context, cwd), word)
        if "$" in word:
            return None
    base = cwd if cwd is not None else context.start
    return posixpath.normpath(posixpath.join(base, word))


def defaults_taken(word: str) -> str:
    """``word`` with each ``${NAME:-DEFAULT}`` (``-``, ``=``, with or without ``:``) as its
    DEFAULT, variables in it kept: where the word goes when NAME is unset
    (``${XDG_CONFIG_HOME:-$HOME/.config}/forge`` is ``$HOME/.config/forge``)."""
    return _DEFAULTED.sub(lambda m: m.group(2), word)


def _known_var(name: str, context: Context, cwd: str | None) -> str:
    if name == "HOME":
        return context.home
    if name in _PROJECT_VARS:
        return context.project_root
    if name == "PWD":
        return cwd or context.start
    if name == "TMPDIR" and context.tmpdir is not None:
        return context.tmpdir
    if name == "HISTFILE":  # bash's history file, unless the line set it (the parser puts that in first)
        return context.home + "/.bash_history"
    return "$" + name


def command_cwd(command: Command, context: Context) -> str | None:
    """Where ``command`` runs: the start directory moved by a preceding ``cd``; None
    when a ``cd`` moved it somewhere we cannot know."""
    if command.cwd_unknown:
        return None
    if command.cwd is None:
        return context.start
    return resolve(command.cwd, context)


def inside(path: str, root: str) -> bool:
    root = root.rstrip("/") or "/"
    return path == root or path.startswith(root + "/") or root == "/"


#: caches under the home that their programs rebuild (XDG's "non-essential data", macOS's
#: Caches, Xcode's build products)
_HOME_CACHES = (".cache", "Library/Caches", "Library/Developer/Xcode/DerivedData")


def in_home_cache(path: str, context: Context) -> bool:
    """Whether ``path`` (absolute, normalised) is in a cache of the home: writing or
    deleting there loses nothing (`rm -rf ~/.cache/pip`), whatever the project."""
    return any(inside(path, f"{context.home.rstrip('/')}/{cache}") for cache in _HOME_CACHES)


class PathPatterns:
    """Globs of paths compiled into two regular expressions, for speed: one for the globs
    with a slash, matched against the whole path (``/etc/*``, ``*/.ssh/*``) and against
    the path from the project root (``.github/**``), one for the globs without, matched
    against each name in the path (``*.pem``, ``.env``). ``X/**`` is X and all below it;
    ``~/`` is the home directory. (45 globs one by one through fnmatch cost 28 ms on a
    600-character pipeline at load 12; compiled, well under a millisecond.)"""

    def __init__(self, patterns: list[str]) -> None:
        self.patterns = list(patterns)
        self._home_compiled: dict[str, tuple[re.Pattern[str] | None, re.Pattern[str] | None]] = {}
        # A path can match a glob only if it holds the glob's longest literal run: most
        # paths hold none of them, and are answered without compiling the two regexes
        # (their compile was half of the pack's first judgement in a run: 1.6 of 3.4 ms
        # on `git add -A && git commit -m "fix: parse" && npm test`, bench/README.md).
        # None (check nothing) when some glob has no literal at all (`*`).
        literals = [_longest_literal(p) for p in self.patterns]
        self._literals: tuple[str, ...] | None = tuple(literals) if all(literals) else None

    def _compiled(self, home: str) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
        found = self._home_compiled.get(home)
        if found is None:
            slash, bare = [], []
            for pattern in self.patterns:
                if pattern.startswith("~/"):
                    pattern = home + pattern[1:]
                if "/" in pattern.rstrip("/"):
                    slash += [pattern[:-3], pattern[:-3] + "/*"] if pattern.endswith("/**") else [pattern]
                else:
                    bare.append(pattern.rstrip("/"))
            found = (_union(slash), _union(bare))
            self._home_compiled[home] = found
        return found

    def match(self, path: str, context: Context) -> bool:
        """Whether ``path`` (absolute, normalised) matches one of the globs."""
        if self._literals is not None and not any(literal in path for literal in self._literals):
            return False
        slash, bare = self._compiled(context.home)
        if slash is not None:
            if slash.match(path):
                return True
            root = context.project_root.rstrip("/")
            if path.startswith(root + "/") and slash.match(path[len(root) + 1:]):
                return True
        return bare is not None and any(bare.match(part) for part in path.split("/") if part)

    def which(self, path: str, context: Context) -> str | None:
        """The first glob that ``path`` matches (for a reason), or None."""
        if not self.match(path, context):
            return None
        return next((p for p in self.patterns if PathPatterns([p]).match(path, context)), None)


def _longest_literal(glob: str) -> str:
    """The longest run of ``glob`` that a matching path holds verbatim (``~/`` aside)."""
    glob = glob[1:] if glob.startswith("~/") else glob
    glob = glob[:-3] if glob.endswith("/**") else glob.rstrip("/")  # `X/**` matches X itself too
    return max(_literal_runs(glob), key=len)


def _literal_runs(glob: str) -> list[str]:
    """The runs of ``glob`` between its wildcards: ``*``, ``?`` and a bracket expression
    (``[...]``, to its first ``]``; an unclosed one to the end), as the pattern
    ``[*?]|\\[[^\\]]*\\]?`` splits them (tests/guards/test_guards.py checks it), without
    compiling that pattern in every cold run's first judgement."""
    runs, rest = [], glob
    while "[" in rest:
        head, _, tail = rest.partition("[")
        runs.append(head)
        close = tail.find("]")
        rest = "" if close < 0 else tail[close + 1:]
    runs.append(rest)
    return [piece for run in runs for piece in run.replace("?", "*").split("*")]


def _union(globs: list[str]) -> re.Pattern[str] | None:
    return re.compile("|".join(f"(?:{fnmatch.translate(g)})" for g in globs)) if globs else None


def git_args(command: Command) -> tuple[str, list[str]] | None:
    """``(subcommand, its arguments)`` of a git command, global options (``-C dir``,
    ``-c k=v``, ``--git-dir=``) taken off; None for any other command."""
    if command.name != "git":
        return None
    args = list(command.args)
    while args and args[0].startswith("-"):
        takes = args[0] in ("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env")
        args = args[2:] if takes else args[1:]
    return (args[0], [_git_long(a) for a in args[1:]]) if args else None


#: the long options the git guards read, in the order an abbreviation is taken (git
#: accepts any unambiguous prefix, ``--no-veri``; an ambiguous one, ``--forc``, is an
#: error in git and read here as the first, the more dangerous)
GIT_LONGS = ("force", "force-with-lease", "force-if-includes", "no-verify", "delete", "mirror", "hard", "merge",
             "keep", "soft", "mixed", "discard-changes", "worktree", "staged", "source", "dry-run", "help", "cached",
             "orphan", "prune", "all", "expire", "recursive", "no-verbose", "verbose", "quiet", "message")


def _git_long(arg: str) -> str:
    """``--no-veri`` -> ``--no-verify``; ``--forc=x`` -> ``--force=x``; anything else as is."""
    if not arg.startswith("--") or len(arg) < 5:
        return arg
    name, eq, value = arg[2:].partition("=")
    if name in GIT_LONGS:
        return arg
    full = next((o for o in GIT_LONGS if o.startswith(name)), None)
    return arg if full is None else f"--{full}{eq}{value}"


def short_flags(args: list[str] | tuple[str, ...]) -> set[str]:
    """The letters of every short-option cluster (``-rf`` -> {r, f}), up to ``--``."""
    letters: set[str] = set()
    for arg in args:
        if arg == "--":
            break
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 1:
            letters.update(arg[1:])
    return letters


def long_flags(args: list[str] | tuple[str, ...]) -> set[str]:
    out = set()
    for arg in args:
        if arg == "--":
            break
        if arg.startswith("--"):
            out.add(arg.partition("=")[0])
    return out


_DASH_MODE = Lazy(r"^-[rwxXst]+$")


_CMD_SWITCH = re.compile(r"/[A-Za-z]")


def without_cmd_switches(args: list[str] | tuple[str, ...], ops: list[str]) -> list[str]:
    """``ops`` less cmd's one-letter switches when the words are cmd's (``rmdir /s /q build``,
    ``del /q x``: a switch and no POSIX option): ``/s`` there is no folder at the root, and
    shell/windows.py reads the line as the POSIX command it is (``rm -rf build``)."""
    if not any(_CMD_SWITCH.fullmatch(a) for a in args) or any(a.startswith("-") for a in args):
        return ops
    return [o for o in ops if not _CMD_SWITCH.fullmatch(o)]


#: the cloud and cluster CLIs guards/clouds.py reads: it loads only for one of them
CLOUD_CLIS = frozenset({"aws", "gcloud", "gsutil", "bq", "az", "kubectl", "oc"})
#: aws's global options that take a value (``aws --region us-east-1 secretsmanager delete-secret``)
AWS_VALUED = frozenset({"--region", "--profile", "--output", "--endpoint-url", "--query", "--color", "--ca-bundle",
                        "--cli-read-timeout", "--cli-connect-timeout", "--cli-binary-format"})
#: kubectl's global options that take a value (``kubectl --as x delete``, ``-n ns``)
KUBE_VALUED = frozenset({"--as", "--as-group", "--as-uid", "-n", "--namespace", "--context", "--kubeconfig", "--cluster",
                         "--user", "-s", "--server", "--token", "--request-timeout", "-l", "--selector"})


def without_values(args: list[str], valued: frozenset[str]) -> list[str]:
    """``args`` without the options in ``valued`` and the value each takes (``aws --region X
    s3 rm``, ``kubectl -n ns delete``): what is left starts with the CLI's subcommand words."""
    out, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg in valued:
            skip = True
        else:
            out.append(arg)
    return out


def operands(args: list[str] | tuple[str, ...], *, mode_first: bool = False) -> list[str]:
    """Arguments that are not options (everything after ``--`` counts). ``mode_first``:
    chmod's, whose first operand may start with a dash (``chmod -x f`` takes the mode
    ``-x``: no option of chmod is made of r, w, x, X, s and t)."""
    out: list[str] = []
    rest = False
    for arg in args:
        if rest or not arg.startswith("-") or arg == "-" or mode_first and not out and _DASH_MODE.search(arg):
            out.append(arg)
        elif arg == "--":
            rest = True
    return out


#: an HTTP client's URL, and the host in it
URL = Lazy(r"https?://(\[[0-9a-fA-F:]+\]|[^/\s:'\"]+)")
#: this machine: sending to it sends nothing off the machine
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]", "0.0.0.0", "host.docker.internal"})
_HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def request_method(name: str, args: list[str]) -> str:
    """The HTTP method a client's request uses (GET when none is named): ``curl -X DELETE``,
    ``-XDELETE``, ``--request=DELETE``, ``gh api -X``/``--method``, ``wget --method=DELETE``,
    HTTPie's and xh's method word before the URL (``http DELETE URL``)."""
    if name in ("http", "https", "xh", "xhs"):
        first = next((a for a in args if not a.startswith("-")), "")
        return first.upper() if first.upper() in _HTTP_METHODS else "GET"
    for k, arg in enumerate(args):
        if (arg in ("--request", "--method") or arg == "-X" and name in ("curl", "gh")) and k + 1 < len(args):
            return args[k + 1].upper()
        if arg.startswith(("--request=", "--method=")):
            return arg.partition("=")[2].upper()
        if name == "curl" and arg.startswith("-X") and len(arg) > 2:  # wget's -X is a list of directories
            return arg[2:].upper()
    return "GET"


def remote_hosts(args: list[str]) -> list[str]:
    """The hosts other than this machine that ``args``' URLs name."""
    return [h for a in args for h in (m.group(1) for m in URL.finditer(a)) if h not in LOCAL_HOSTS and
            not h.startswith("127.")]


def written_redirects(command: Command) -> list[str]:
    """The targets of ``command``'s redirections that write (``>``, ``>>``, ``<>``)."""
    return [r.target for r in command.redirects if r.mode in ("write", "append", "readwrite")]


# The user's own name, however a command line spells it: chown -R $USER, "$(whoami)", $(id -un).
_ONESELF = Lazy(r'^"?(?:\$\{?(?:USER|LOGNAME)\}?|\$\((?:whoami|id -u|id -un)\)|`(?:whoami|id -un?)`)"?$')


def gives_to_oneself(owner: str, context: Context) -> bool:
    """Whether chown's ``OWNER[:GROUP]`` gives the files to the user running the agent
    (the home's own name counts: /home/alice is alice's); the group is free."""
    user = owner.split(":", 1)[0]
    return user == "" or _ONESELF.search(user) is not None or user == posixpath.basename(context.home.rstrip("/"))


#: options of container runners that take a value (docker exec -e X, compose run -w DIR)
_CONTAINER_VALUED = frozenset({"-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--index", "-p",
                               "--publish", "-v", "--volume", "--name", "--entrypoint", "-l", "--label", "-c",
                               "--container", "-n", "--namespace", "--context"})


def inner_command(name: str, args: list[str]) -> tuple[str, list[str]] | None:
    """The command a container runner runs inside (``docker compose exec php bin/console
    X``, ``docker exec -it db psql``, ``kubectl exec pod -- X``, Laravel's ``sail artisan
    X``): a database in a container is still the project's data."""
    if name.rsplit("/", 1)[-1] == "sail" and args and not args[0].startswith("-"):
        return ("php", args) if args[0] == "artisan" else (args[0], args[1:])
    if name in ("kubectl", "oc") and "exec" in args and "--" in args:
        rest = args[args.index("--") + 1:]
        return (rest[0], rest[1:]) if rest else None
    words = list(args)
    if name in ("docker", "podman") and words[:1] == ["compose"] or name in ("docker-compose", "podman-compose"):
        words = words[1:] if words[:1] == ["compose"] else words
        service_first = True
    elif name in ("docker", "podman", "nerdctl"):
        words = words[1:] if words[:1] == ["container"] else words
        service_first = True
    else:
        return None
    verb = next((k for k, w in enumerate(words) if not w.startswith("-")), None)
    if verb is None or words[verb] not in ("exec", "run"):
        return None
    k, target = verb + 1, None
    while k < len(words):
        word = words[k]
        if word.startswith("-"):
            k += 2 if word in _CONTAINER_VALUED else 1
            continue
        if target is None and service_first:
            target = word
            k += 1
            continue
        return word, words[k + 1:]
    return None


def valued(args: list[str], letters: str, longs: tuple[str, ...], takes_value: str) -> Iterator[str]:
    """The values of the options ``letters`` (single letters, alone or ending a cluster of
    flags: ``-sSLo FILE``, ``-OFILE``) and ``longs`` (``--output FILE``, ``--output=FILE``)."""
    for k, arg in enumerate(args):
        following = args[k + 1] if k + 1 < len(args) else ""
        if arg.startswith("--"):
            key, eq, value = arg.partition("=")
            if key in longs:
                yield value if eq else following
            continue
        if not arg.startswith("-") or len(arg) < 2:
            continue
        for at, letter in enumerate(arg[1:], start=1):
            if letter in takes_value:  # the first letter that takes a value ends the cluster
                if letter in letters:
                    yield arg[at + 1:] or following
                break
