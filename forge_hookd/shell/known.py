"""What a command line sets for its own later commands, so that a guard sees what they
run (issue 31, "where the parser cannot see, it does not allow"): variables assigned or
exported earlier in the line (``f=trust; forge-hook $f``), the positional parameters
of ``set --`` (``set -- forge-hook trust; "$@"``), the path ``$(command -v X)`` or
``$(which X)`` stands for, brace expansion (``rm -rf {/,x}``), and git aliases defined
by ``-c alias.X=...``, ``GIT_CONFIG_*`` or an earlier ``git config alias.X`` (``git -c
alias.p='push --force' p`` runs ``git push --force``). No I/O; bounded."""

from __future__ import annotations

import posixpath
import re
from fnmatch import fnmatchcase
from fnmatch import translate as fnmatch_translate
from collections.abc import Iterator
from typing import TYPE_CHECKING

from forge_hookd.shell.lazyre import Lazy
from forge_hookd.shell.words import RawCommand, Word, is_assignment, parse_raw

if TYPE_CHECKING:
    from typing import Protocol

    class Command(Protocol):
        """What this module reads of a :class:`forge_hookd.shell.commands.Command` (which
        imports this module: the parser records what each command sets)."""

        @property
        def argv(self) -> tuple[str, ...]: ...
        @property
        def words(self) -> tuple[Word, ...]: ...
        @property
        def assignments(self) -> tuple[str, ...]: ...
        @property
        def env(self) -> tuple[str, ...]: ...
        @property
        def name(self) -> str: ...
        @property
        def args(self) -> tuple[str, ...]: ...

MAX_VARIABLES = 256  # names remembered in one line
_COPIERS = frozenset({"ln", "cp", "install", "link"})
#: where the system's programs live: a copy or link of one runs that program
_BIN_DIRS = frozenset({"/bin", "/usr/bin", "/sbin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin",
                       "/opt/homebrew/bin"})
MAX_BRACES = 64  # words one brace expansion may make
_REF = Lazy(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[0-9@*])\}|([A-Za-z_][A-Za-z0-9_]*|[0-9@*]))")
_WHICH = Lazy(r"\$\(\s*(command\s+-[vV]|which|type\s+-[pP]|echo|printf\s+%s)\s+([A-Za-z0-9_./+-]+)\s*\)|"
                    r"`\s*(command\s+-[vV]|which|type\s+-[pP]|echo)\s+([A-Za-z0-9_./+-]+)\s*`")
#: where ``$(which X)`` is taken to find X: a directory on PATH, outside every project and home
#: (``rm $(which node)`` removes a system's program, not ./node); a command word is read by its name
PATH_DIR = "/usr/bin"


def _looked_up(match: re.Match[str]) -> str:
    """What ``$(which X)`` (or ``command -v``, ``type -p``) stands for: X's path on PATH; ``$(echo X)``: X."""
    how, name = (match.group(1), match.group(2)) if match.group(2) else (match.group(3), match.group(4))
    if how.startswith(("echo", "printf")) or "/" in name:
        return name
    return f"{PATH_DIR}/{name}"
_BRACE = Lazy(r"\{([^{}]*(?:,|\.\.)[^{}]*)\}")
_DECLARERS = frozenset({"export", "declare", "typeset", "local", "readonly"})
#: git's own subcommands (git help -a, 2.4x): a subcommand not among them is an alias or
#: an external git-NAME program
GIT_COMMANDS = frozenset((
    "add am archive bisect branch bundle checkout cherry-pick citool clean clone commit describe diff fetch "
    "format-patch gc gitk grep gui init log maintenance merge mv notes pull push range-diff rebase reset restore "
    "revert rm scalar shortlog show sparse-checkout stash status submodule switch tag worktree config fast-export "
    "fast-import filter-branch mergetool pack-refs prune reflog remote repack replace annotate blame bugreport "
    "count-objects diagnose difftool fsck gitweb help instaweb merge-tree rerere show-branch verify-commit "
    "verify-tag version whatchanged archimport cvsexportcommit cvsimport cvsserver imap-send p4 quiltimport "
    "request-pull send-email svn apply checkout-index commit-graph commit-tree hash-object index-pack merge-file "
    "merge-index mktag mktree multi-pack-index pack-objects prune-packed read-tree symbolic-ref unpack-objects "
    "update-index update-ref write-tree cat-file cherry diff-files diff-index diff-tree for-each-ref "
    "for-each-repo get-tar-commit-id ls-files ls-remote ls-tree merge-base name-rev pack-redundant rev-list "
    "rev-parse show-index show-ref unpack-file var verify-pack daemon fetch-pack http-backend send-pack "
    "update-server-info check-attr check-ignore check-mailmap check-ref-format column credential "
    "credential-cache credential-store fmt-merge-msg hook interpret-trailers mailinfo mailsplit merge-one-file "
    "patch-id stripspace lfs flow filter-repo").split())
_GIT_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"})


class Known:
    """The line's own definitions, updated command by command (:meth:`record`) and put
    into the words of the commands after them (:meth:`expand`)."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}  # NAME -> value as written (may hold $(...) still)
        self.positional: list[str] | None = None
        self.arrays: dict[str, list[Word]] = {}  # NAME=(a b c) -> its elements, as written
        self.aliases: dict[str, str] = {}  # git alias -> its value
        self.git_settings: dict[str, str] = {}  # `git config KEY VALUE` earlier in the line: key -> value
        self.named: dict[str, list[Word]] = {}  # a command word the line gave a meaning: alias, a program's copy

    # -- what later commands see -------------------------------------------------------
    def env(self) -> tuple[str, ...]:
        return tuple(f"{k}={v}" for k, v in self.values.items() if not k.isdigit())

    def expand(self, words: list[Word], *, top: bool = False) -> list[Word]:
        """``words`` with what the line set put in; ``top``: the agent's own line (not a ``-c``
        string or a script it runs), whose shell has no positional parameters and is named
        by ``$0``."""
        out: list[Word] = []
        for word in words:
            if word.dynamic and top and self.positional is None:
                word = _agent_shell(word)
            if word.dynamic and not word.quoted and "IFS" not in self.values and "IFS" in word.text:
                for piece in _ifs_split(word):
                    out.extend(self._substituted(piece, head=not out) if piece.dynamic else [piece])
            elif word.dynamic:
                out.extend(self._substituted(word, head=not out))
            elif not word.quoted and "{" in word.text:  # {rm,-rf,~} too: bash runs rm -rf ~
                out.extend(_braces(word))
            elif not out and word.glob and not word.quoted and "/" in word.text:
                out.append(_globbed_head(word))
            else:
                out.append(word)
            if len(out) > 4096:
                break
        return out

    def _substituted(self, word: Word, *, head: bool = False) -> list[Word]:
        """``word`` with what the line set put in. ``head``: the command word, where a literal
        reversed, translated or case-folded stays unseen (it asks however harmless it reads:
        nobody spells a command that way but to hide it); in an argument it is what it prints
        (``cat $(echo . | tr '!-0' '"-1')etc/shadow`` reads /etc/shadow)."""
        text = word.text
        array = _ARRAY_ALL.fullmatch(text)
        if array is not None and array.group(1) in self.arrays:  # "${cmd[@]}": each element a word
            return list(self.arrays[array.group(1)])  # expanded at the assignment: `a=(rm -rf ~)` holds the home
        if text in ("$@", "$*", "${@}", "${*}") and self.positional is not None:
            return [Word(p, quoted=True) for p in self.positional]
        text = _WHICH.sub(_looked_up, text)
        text = _ECHOED.sub(lambda m: _escapes(m.group(1) if m.group(1) is not None else m.group(2)), text)
        text = _ECHOED_PLAIN.sub(lambda m: next(g for g in m.groups() if g is not None), text)
        decoded = _DECODED.sub(_decoded, text)
        if not head:
            decoded = _FIRST_LETTER.sub("/", _FOLDED.sub(_folded, _TRANSFORMED.sub(_transformed, decoded)))
        if decoded != word.text and not word.quoted and "$" not in decoded and "`" not in decoded and \
                len(decoded.split()) > 1:
            return [Word(part) for part in decoded.split()]  # $(base64 -d <<< cm0gLXJmIH4=): split as bash splits it
        text = decoded
        text = _OPERATED.sub(self._operated, text)
        whole = _REF.fullmatch(text)
        text = _REF.sub(self._value, text)
        if "$" in text or "`" in text:
            return [word._replace(text=text)]
        if whole is not None and not word.quoted and (name := whole.group(1) or whole.group(2)) in self.values:
            ifs = self.values.get("IFS")
            parts = re.split("[" + re.escape(ifs) + "]+", self.values[name]) if ifs else self.values[name].split()
            return [Word(part) for part in parts if part] or [Word("")]
        return [word._replace(text=text, dynamic=False)]

    def _operated(self, match: re.Match[str]) -> str:
        """``${v//pat/rep}``, ``${v/pat/rep}``, ``${v:off:len}`` of a value the line set (bash's
        pattern substitution and substring); ``${HOME:0:1}`` is ``/`` (HOME, PWD and OLDPWD
        hold absolute paths); anything else stays as written."""
        name, op, rest = match.group(1), match.group(2), match.group(3)
        value = self.values.get(name)
        if op == ":":
            offset, _, length = rest.partition(":")
            if not offset.strip().isdigit() or length and not length.strip().isdigit():
                return match.group(0)
            start = int(offset)
            if value is None:
                return "/" if name in _ABSOLUTE and start == 0 and length.strip() == "1" else match.group(0)
            return value[start:start + int(length)] if length else value[start:]
        if value is None or "$" in value or "`" in value:
            return match.group(0)
        parts = re.split(r"(?<!\\)/", rest, maxsplit=1)
        pattern, replacement = parts[0].replace("\\/", "/"), (parts[1] if len(parts) > 1 else "").replace("\\/", "/")
        found = re.compile(fnmatch_translate(pattern).removeprefix("(?s:").removesuffix(")\\Z"))
        return found.sub(lambda _: replacement, value, count=0 if op == "//" else 1)

    def _value(self, match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name.isdigit() and self.positional is not None:
            k = int(name)
            return self.positional[k - 1] if 0 < k <= len(self.positional) else ""
        if name in ("@", "*") and self.positional is not None:
            return " ".join(self.positional)
        return self.values.get(name, match.group(0))

    # -- what a command defines ----------------------------------------------------------
    def record(self, command: Command, raw: RawCommand) -> None:
        """Take in what ``command`` sets for the commands after it."""
        if not command.argv:
            for text in command.assignments:
                self._assign(text)
            return
        name = command.name
        if name in _DECLARERS:
            for arg in command.args:
                if is_assignment(arg):
                    self._assign(arg)
        elif name == "unset":
            for arg in command.args:
                self.values.pop(arg, None)
        elif name == "set" and command.args and (command.args[0] == "--" or not command.args[0].startswith(("-", "+"))):
            self.positional = [a for a in command.args if a != "--"][:64] if command.args[0] == "--" else \
                list(command.args)[:64]
        elif name == "git":
            self._git_config(command)
        elif name == "alias":  # alias x='rm -rf': x runs rm -rf (bash expands it where the agent's shell does)
            for arg in command.args:
                alias, eq, value = arg.partition("=")
                if eq and value.strip() and len(self.named) < MAX_VARIABLES:
                    self.named[alias] = [w for c in parse_raw(value).commands[:1] for w in c.words]
        elif name in _COPIERS:
            self._program_copy(list(command.args))
        elif name == "hash" and "-p" in command.args[:-2]:  # hash -p /bin/rm ls: `ls` runs rm, as BASH_CMDS[ls]=
            args = list(command.args)
            path = args[args.index("-p") + 1]
            for alias in args[args.index("-p") + 2:]:
                self._program_named(alias, path)

    def _program_named(self, name: str, path: str) -> None:
        """A command name bash's hash table maps to a program's path: the program under that name."""
        if name and path.strip() and len(self.named) < MAX_VARIABLES:
            self.named[name] = [Word(posixpath.basename(path.strip()))]

    def _program_copy(self, args: list[str]) -> None:
        """``ln -s /bin/rm /tmp/x``, ``cp $(which rm) ./del``: a program of the system under a name
        the line chose, which later commands run (``/tmp/x -rf ~`` is ``rm -rf ~``)."""
        ops = [a for a in args if not a.startswith("-")]
        if len(ops) != 2 or posixpath.dirname(ops[0]) not in _BIN_DIRS or len(self.named) >= MAX_VARIABLES:
            return
        program = [Word(posixpath.basename(ops[0]))]
        target = ops[1].rstrip("/")
        for name in {target, target.removeprefix("./"), f"./{target.removeprefix('./')}"}:
            self.named[name] = program

    def name_commands(self, words: list[Word]) -> list[Word]:
        """``words`` with a command word the line named earlier put as what it stands for."""
        if not self.named or not words or words[0].quoted:
            return words
        meaning = self.named.get(words[0].text)
        return words if meaning is None else [*meaning, *words[1:]]

    def _assign(self, text: str) -> None:
        name, _, value = text.partition("=")
        name, bracket, key = name.rstrip("+").partition("[")
        if name == "BASH_CMDS" and bracket and value:  # BASH_CMDS[ls]=/bin/rm: bash's table of paths, `ls` runs rm
            self._program_named(key.rstrip("]"), value)
        if value.startswith("(") and value.endswith(")") and len(self.arrays) < MAX_VARIABLES:
            script = parse_raw(value[1:-1])
            self.arrays[name] = [w for c in script.commands for w in c.words][:MAX_BRACES]
            value = self.arrays[name][0].text if self.arrays[name] else ""  # $NAME is its first element
        if len(self.values) < MAX_VARIABLES or name in self.values:
            self.values[name] = _REF.sub(self._value, _WHICH.sub(_looked_up, value))

    def _git_config(self, command: Command) -> None:
        """``git config [--global|--local|--file F] alias.NAME VALUE``."""
        args = _git_rest(list(command.args))
        if not args or args[0] != "config":
            return
        rest = [a for a in args[1:] if not a.startswith("-")]
        if len(rest) >= 2 and rest[0].lower().startswith("alias."):
            self.aliases[rest[0][6:]] = rest[1]
        elif len(rest) >= 2 and len(self.git_settings) < MAX_VARIABLES:
            self.git_settings[rest[0]] = rest[1]

    # -- git aliases -------------------------------------------------------------------------
    def git_aliases(self, words: list[Word], assignments: list[str]) -> list[Word]:
        """A git command whose subcommand is an alias, with the alias put in: ``git -c
        alias.p='push --force' p origin`` -> ``git push --force origin``. A shell alias
        (``!...``) stays; :meth:`alias_scripts` hands its text to the walk."""
        if not words or posixpath.basename(words[0].text) != "git":
            return words
        aliases = {**self.aliases, **_env_aliases([*self.env(), *assignments]), **_option_aliases(words)}
        index = _git_subcommand_index(words)
        if index is None or not aliases:
            return words
        value = aliases.get(words[index].text)
        if value is None or value.startswith("!"):
            return words
        script = parse_raw(value)
        inserted = script.commands[0].words if script.commands else []
        return [*words[:index], *inserted[:64], *words[index + 1:]]

    def alias_scripts(self, command: Command) -> Iterator[tuple[str, str]]:
        """The shell text a git shell alias (``!...``) runs, with the command's arguments."""
        if command.name != "git":
            return
        words = list(command.words)
        index = _git_subcommand_index(words)
        if index is None:
            return
        aliases = {**self.aliases, **_env_aliases([*command.env, *command.assignments]), **_option_aliases(words)}
        value = aliases.get(words[index].text)
        if value is not None and value.startswith("!"):
            yield "git alias", " ".join([value[1:], *(w.text for w in words[index + 1:])])

    def config_scripts(self, command: Command) -> Iterator[tuple[str, str]]:
        """The shell text git runs from a setting this line makes (git-config(1):
        ``core.sshCommand``, ``core.pager``, ``pager.<cmd>``, ``core.editor``,
        ``diff.external``, ``credential.helper`` as ``!...``; the environment's
        ``GIT_SSH_COMMAND``, ``GIT_PAGER``, ...): ``git -c core.sshCommand='rm -rf ~'
        fetch`` runs ``rm -rf ~``; exported for the session (``export GIT_PAGER=CODE``), the
        code every later git command runs."""
        if command.name in ("export", "declare", "typeset") and (command.name == "export" or "-x" in command.args):
            for arg in command.args:
                name, _, value = arg.partition("=")
                if name in _SHELL_ENVIRONMENT and value.strip():
                    yield "git's environment, exported", value
            return
        if command.name != "git":
            return
        assignments = [*self.env(), *command.env, *command.assignments]
        settings = {**self.git_settings, **_env_config(assignments), **_option_config(list(command.words))}
        for key, value in settings.items():
            key = key.lower()
            if key == "credential.helper":
                value = value[1:] if value.startswith("!") else ""  # else a helper's name: git credential-NAME
            elif key == "core.fsmonitor" and value.lower() in ("", "true", "false", "yes", "no", "on", "off", "1", "0"):
                value = ""  # the built-in monitor
            elif key not in _SHELL_SETTINGS and not key.startswith("pager."):
                value = ""
            if value.strip():
                yield "git configuration", value
        environment = dict(a.partition("=")[::2] for a in assignments)
        for name in _SHELL_ENVIRONMENT:
            if environment.get(name, "").strip():
                yield "git's environment", environment[name]

    def git_unresolved(self, command: Command) -> bool:
        """Whether a git command runs a subcommand that is not git's own while its
        configuration comes from the command line or ``GIT_CONFIG_*`` (an alias the
        guard cannot read)."""
        words = list(command.words)
        index = _git_subcommand_index(words)
        if index is None or words[index].text in GIT_COMMANDS:
            return False
        aliases = {**self.aliases, **_env_aliases([*command.env, *command.assignments]), **_option_aliases(words)}
        if words[index].text in aliases:
            return False
        config_env = any(a.startswith(("GIT_CONFIG_PARAMETERS=", "GIT_CONFIG_COUNT=", "GIT_CONFIG_KEY_",
                                       "GIT_CONFIG=", "GIT_CONFIG_GLOBAL=", "GIT_CONFIG_SYSTEM="))
                         for a in (*command.env, *command.assignments))
        return config_env or any(w.text in ("-c", "--config-env") or w.text.startswith("--config-env=")
                                 for w in words[1:index]) or words[index].dynamic


def runs_as_code(key: str) -> bool:
    """Whether git runs the value of the setting ``key`` as a shell command
    (``core.sshCommand``, ``core.pager``, ``pager.log`` ...)."""
    key = key.lower()
    return key in _SHELL_SETTINGS or key.startswith("pager.")


def code_variable(name: str) -> bool:
    """Whether git runs the value of the environment variable ``name`` as a shell command
    (``GIT_SSH_COMMAND``, ``GIT_PAGER`` ...)."""
    return name in _SHELL_ENVIRONMENT


def _git_rest(args: list[str]) -> list[str]:
    while args and args[0].startswith("-"):
        args = args[2:] if args[0] in _GIT_VALUED else args[1:]
    return args


def _git_subcommand_index(words: list[Word]) -> int | None:
    k = 1
    while k < len(words) and words[k].text.startswith("-"):
        k += 2 if words[k].text in _GIT_VALUED else 1
    return k if k < len(words) else None


#: settings whose value git runs as a shell command (git-config(1)); ``pager.<cmd>`` too
_SHELL_SETTINGS = frozenset({"core.sshcommand", "core.pager", "core.editor", "core.askpass", "core.fsmonitor",
                             "diff.external", "sequence.editor", "gpg.program", "credential.helper"})
#: the environment's equivalents (git(1), "Environment Variables")
_SHELL_ENVIRONMENT = ("GIT_SSH_COMMAND", "GIT_SSH", "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
                      "GIT_EXTERNAL_DIFF", "GIT_ASKPASS")


def _option_config(words: list[Word]) -> dict[str, str]:
    """The settings of a git command's ``-c KEY=VALUE`` options, keys as written."""
    found: dict[str, str] = {}
    for k, word in enumerate(words[:-1]):
        if word.text == "-c":
            key, _, value = words[k + 1].text.partition("=")
            found[key] = value
    return found


def _option_aliases(words: list[Word]) -> dict[str, str]:
    return {key[6:]: value for key, value in _option_config(words).items() if key.lower().startswith("alias.")}


_PARAMETER = Lazy(r"'([^'=]+)'='([^']*)'|'([^'=]+)=([^']*)'", needs=("'",))


def _env_config(assignments: list[str]) -> dict[str, str]:
    """Settings from ``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n`` and ``GIT_CONFIG_PARAMETERS``."""
    values = dict(a.partition("=")[::2] for a in assignments)
    found: dict[str, str] = {}
    for name, key in values.items():
        if name.startswith("GIT_CONFIG_KEY_"):
            value = values.get("GIT_CONFIG_VALUE_" + name[len("GIT_CONFIG_KEY_"):])
            if value is not None:
                found[key] = value
    for match in _PARAMETER.finditer(values.get("GIT_CONFIG_PARAMETERS", "")):
        key, value = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        found[key] = value
    return found


def _env_aliases(assignments: list[str]) -> dict[str, str]:
    return {key[6:]: value for key, value in _env_config(assignments).items() if key.lower().startswith("alias.")}


#: a system's commands that the guards judge by name, by the directory a command word spelt
#: as a glob (``/???/??t``, ``/???/???/?u?l``) is matched against: /bin holds the classic
#: set (``/???/??t`` is /bin/cat, not git), /usr/bin every one of them (merged /usr)
_BIN = ("rm cat ls cp mv ln dd chmod chown chgrp sh bash dash zsh su kill mount echo grep sed tar nc netcat "
        "gzip zcat mktemp").split()
_USR_BIN = (*_BIN, *("tac head tail less more id whoami shred truncate sudo doas killall pkill ksh csh tcsh ncat "
                     "socat telnet curl wget python python3 perl ruby php node lua base64 xxd openssl scp ssh sftp "
                     "rsync git env find xargs crontab systemctl passwd awk gawk tee printf strings nohup "
                     "timeout").split())
_SBIN = ("mkfs fdisk wipefs useradd usermod chpasswd").split()
_SYSTEM_COMMANDS = {"/bin": frozenset(_BIN), "/usr/bin": frozenset(_USR_BIN), "/sbin": frozenset(_SBIN),
                    "/usr/sbin": frozenset(_SBIN)}


def _globbed_head(word: Word) -> Word:
    """A command word spelt as a glob of a system command's path: the one command it
    matches, or, where several could, a word read as unresolved (judged as each command
    a guard knows, as ``$X`` is)."""
    directory, name = posixpath.split(word.text)
    found = sorted(posixpath.join(d, c) for d, names in _SYSTEM_COMMANDS.items() if fnmatchcase(d, directory)
                   for c in names if fnmatchcase(c, name))
    if len({posixpath.basename(f) for f in found}) == 1:
        return Word(found[0])
    return word._replace(dynamic=True) if found else word


#: ``${NAME//pat/rep}``, ``${NAME/pat/rep}``, ``${NAME:off[:len]}``
_OPERATED = Lazy(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(//|/|:)((?:[^{}\\]|\\.)*)\}", needs=("${",))
_ABSOLUTE = frozenset({"HOME", "PWD", "OLDPWD"})
#: a substitution that only prints a literal with escapes: ``$(echo -e "\x2e\x65")``, ``$(printf '\056')``
_ECHOED = Lazy(r"(?:\$\(|`)\s*(?:echo\s+-e|printf)\s+(?:\"([^\"`$%]*)\"|'([^'%]*)')\s*(?:\)|`)", needs=("echo", "printf"))
#: a substitution that only echoes a literal, no escapes read: ``$(echo "rm -rf ~")``, `` `echo rm -rf ~` ``
_ECHOED_PLAIN = Lazy(r"""(?:\$\(|`)\s*echo(?:\s+-n)?\s+(?:"([^"`$\\]*)"|'([^']*)'|([^\s"'`$()\\;|&<>]+"""
                     r"""(?:[ \t]+[^\s"'`$()\\;|&<>]+)*))\s*(?:\)|`)""", needs=("echo",))
_ESCAPE = Lazy(r"\\x([0-9a-fA-F]{1,2})|\\0?([0-7]{1,3})")


#: a substitution that only decodes a literal: ``$(base64 -d <<< LmVudg==)``, ``$(echo 2e656e76 |
#: xxd -r -p)``, ``$(printf %s MFSW45Q= | base32 -d)``
_DECODED = Lazy(r"""(?:\$\(|`)\s*(?:(?:echo(?:\s+-n)?|printf(?:\s+%s)?)\s+(["']?)([A-Za-z0-9+/=]{2,4096})\1\s*\|\s*"""
                r"""(base64|base32|xxd)\s+([-a-z ]{2,20}?)|(base64|base32|xxd)\s+([-a-z ]{2,20}?)\s*<<<\s*(["']?)"""
                r"""([A-Za-z0-9+/=]{2,4096})\7)\s*(?:\)|`)""", needs=("base64", "base32", "xxd"))


def _decoded(match: re.Match[str]) -> str:
    """The text a decoding substitution prints (its trailing newlines dropped, as ``$(...)``
    drops them), or the substitution as written where it decodes to no text."""
    tool, flags, literal = (match.group(3), match.group(4), match.group(2)) if match.group(3) else \
        (match.group(5), match.group(6), match.group(8))
    words = flags.split()
    letters = "".join(w[1:] for w in words if w.startswith("-") and not w.startswith("--"))
    try:
        if tool == "xxd" and "r" in letters and "p" in letters:
            raw = bytes.fromhex(literal)
        elif tool in ("base64", "base32") and ("d" in letters or "D" in letters or "--decode" in words):
            import base64  # only for a line that decodes a literal

            raw = base64.b64decode(literal) if tool == "base64" else base64.b32decode(literal)
        else:
            return match.group(0)
        text = raw.decode().rstrip("\n")
    except ValueError:  # not base64, not hex, not UTF-8
        return match.group(0)
    return text if text.isprintable() else match.group(0)


#: a substitution that only transforms a literal, as the restricted-shell evasions spell a command
#: (HackTricks' bypass-bash-restrictions): reversed (``$(rev<<<'imaohw')``, ``$(echo x | rev)``),
#: translated (``$(tr "[A-Z]" "[a-z]"<<<"WhOaMi")``, ``$(echo . | tr '!-0' '"-1')`` is ``/``)
_TR_SET = r"""(?:"[^"$`\\]{1,40}"|'[^']{1,40}'|[^\s"'$`|;&()<>]{1,40})"""
_TRANSFORM = rf"(?P<tool>rev|tr\s+(?P<set1>{_TR_SET})\s+(?P<set2>{_TR_SET}))"
_LITERAL = r"""(?:"(?P<dq>[^"$`\\]{1,4096})"|'(?P<sq>[^']{1,4096})'|(?P<bare>[^\s"'$`|;&()<>\\]{1,4096}))"""
_TRANSFORMED = Lazy(rf"(?:\$\(|`)\s*(?:{_TRANSFORM}\s*<<<\s*{_LITERAL}|(?:echo(?:\s+-n)?|printf\s+%s)\s+"
                    rf"{_LITERAL.replace('(?P<', '(?P<p')}\s*\|\s*{_TRANSFORM.replace('(?P<', '(?P<p')})\s*(?:\)|`)",
                    needs=("rev", "tr "))
#: a substitution that folds the case of a literal it assigns: ``$(a="WhOaMi";printf %s "${a,,}")``
_FOLDED = Lazy(r"""(?:\$\(|`)\s*([A-Za-z_]\w*)=(?:"([^"$`\\]{1,4096})"|'([^']{1,4096})')\s*;\s*(?:printf\s+%s|echo)\s+"""
               r"""["']?\$\{\1(,,|\^\^)\}["']?\s*(?:\)|`)""", needs=(",,", "^^"))
#: a substitution that prints the first letter of a variable that always holds an absolute path:
#: ``$(printf %.1s "$PWD")`` is ``/``
_FIRST_LETTER = Lazy(r"""(?:\$\(|`)\s*printf\s+["']?%\.1s["']?\s+["']?\$\{?(?:HOME|PWD|OLDPWD)\}?["']?\s*(?:\)|`)""",
                     needs=("%.1s",))
_CLASSES = {"[:upper:]": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "[:lower:]": "abcdefghijklmnopqrstuvwxyz",
            "[:digit:]": "0123456789"}


def _tr_set(spec: str) -> str:
    """A set of tr(1) written out: its classes and ``a-z`` ranges (bounded to 256 letters)."""
    spec = spec[1:-1] if spec[:1] in "\"'" and spec[-1:] == spec[:1] and len(spec) > 1 else spec
    for name, letters in _CLASSES.items():
        spec = spec.replace(name, letters)
    out: list[str] = []
    k = 0
    while k < len(spec) and len(out) < 256:
        if k + 2 < len(spec) and spec[k + 1] == "-" and ord(spec[k]) <= ord(spec[k + 2]):
            out.extend(chr(c) for c in range(ord(spec[k]), ord(spec[k + 2]) + 1))
            k += 3
        else:
            out.append(spec[k])
            k += 1
    return "".join(out[:256])


def _transformed(match: re.Match[str]) -> str:
    """The text a transforming substitution prints, or the substitution as written."""
    groups = match.groupdict()
    prefix = "" if groups.get("tool") else "p"
    tool = groups[prefix + "tool"]
    literal = next(v for v in (groups[prefix + "dq"], groups[prefix + "sq"], groups[prefix + "bare"]) if v is not None)
    if tool == "rev":
        return literal[::-1]
    source, target = _tr_set(groups[prefix + "set1"]), _tr_set(groups[prefix + "set2"])
    if not source or not target:
        return match.group(0)
    target = target + target[-1] * max(0, len(source) - len(target))  # GNU tr pads the second set with its last
    return literal.translate(str.maketrans(source, target[:len(source)]))


def _folded(match: re.Match[str]) -> str:
    value = match.group(2) if match.group(2) is not None else match.group(3)
    return value.lower() if match.group(4) == ",," else value.upper()


def _escapes(text: str) -> str:
    r"""echo -e's and printf's ``\xHH`` and octal escapes decoded."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)) if m.group(1) else chr(int(m.group(2), 8)), text)


_ARRAY_ALL = Lazy(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}", needs=("[",))
_AGENT_PARAMETER = Lazy(r"\$(?:\{[@*0]\}|[@*0])", needs=("$",))
_IFS = Lazy(r"\$(?:\{IFS\}|IFS(?![A-Za-z0-9_]))", needs=("IFS",))


def _agent_shell(word: Word) -> Word:
    """``$@``, ``$*`` (empty: an agent's ``bash -c`` line has no positional parameters) and
    ``$0`` (its shell) put in: ``who$@ami`` runs ``whoami``, ``echo x | $0`` a shell. A word
    that is only ``"$@"`` stays as it is: that is how a function the line defines takes its
    arguments (``f() { rm -rf "$@"; }; f ~``), which are not empty."""
    if word.text in ("$@", "$*", "${@}", "${*}"):
        return word
    text = _AGENT_PARAMETER.sub(lambda m: "bash" if "0" in m.group() else "", word.text)
    return word if text == word.text else word._replace(text=text, dynamic="$" in text or "`" in text)


def _ifs_split(word: Word) -> list[Word]:
    """An unquoted word split where ``$IFS`` stands, as the shell splits it (IFS is unset by
    the line, so blanks): ``cat${IFS}.env`` is ``cat .env``."""
    pieces = [p for p in _IFS.compiled.split(word.text) if p]
    return [Word(p, dynamic="$" in p or "`" in p, glob=word.glob) for p in pieces]


def _braces(word: Word) -> list[Word]:
    """Bash's brace expansion of an unquoted word (``{/,x}``, ``a{1..3}``), bounded."""
    texts = [word.text]
    for _ in range(8):
        grown: list[str] = []
        changed = False
        for text in texts:
            match = _BRACE.search(text)
            if match is None:
                grown.append(text)
                continue
            parts = _brace_parts(match.group(1))
            if parts is None:
                grown.append(text)
                continue
            changed = True
            grown.extend(text[:match.start()] + p + text[match.end():] for p in parts)
        texts = grown[:MAX_BRACES]
        if not changed:
            break
    return [word._replace(text=t) for t in texts]


def _brace_parts(inner: str) -> list[str] | None:
    seq = re.fullmatch(r"(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])", inner)
    if seq is not None:
        a, b = seq.group(1), seq.group(2)
        if a.lstrip("-").isdigit() and b.lstrip("-").isdigit():
            lo, hi = int(a), int(b)
            step = 1 if hi >= lo else -1
            return [str(i) for i in range(lo, hi + step, step)][:MAX_BRACES]
        if len(a) == 1 and len(b) == 1:
            step = 1 if ord(b) >= ord(a) else -1
            return [chr(c) for c in range(ord(a), ord(b) + step, step)][:MAX_BRACES]
        return None
    return inner.split(",") if "," in inner else None


__all__ = ["GIT_COMMANDS", "Known"]
