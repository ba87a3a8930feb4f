"""Options whose value a program runs as a shell command (GTFOBins' "shell" and "command"
entries): ``tar --checkpoint-action=exec=CMD``, ``tar -I CMD``, ``zip -TT CMD``, ``vim -c ':!CMD'``,
``gdb -ex 'shell CMD'``, ``ssh -o ProxyCommand=CMD``, ``psql -o '|CMD'``, ``man -H CMD``, ``pip
config --editor CMD``, ``sqlite3 DB '.shell CMD'``, ``fzf --bind 'enter:execute(CMD)'``, expect's
``spawn CMD``, socat's ``exec:CMD``, ``go test -exec CMD``. Pure: words in, (what, code) out; loaded by
:mod:`commands` only for one of :data:`commands.OPTION_CODE_HEADS`, the names of :data:`OPTION_CODE`."""

from __future__ import annotations

import re
from collections.abc import Iterator

from forge_hookd.shell import sed
from forge_hookd.shell.lazyre import Lazy
from forge_hookd.shell.words import quote

#: per program, the options whose value is shell code it runs (``--opt VALUE``, ``--opt=VALUE``,
#: ``-O VALUE``), and the ones whose value is code only after a prefix (vim's ``-c ':!CMD'``,
#: gdb's ``-ex 'shell CMD'``, tar's ``--checkpoint-action=exec=CMD``)
OPTION_CODE: dict[str, frozenset[str]] = {
    **dict.fromkeys(("tar", "gtar", "bsdtar"), frozenset({"-I", "-F", "--use-compress-program", "--to-command",
                                                          "--rsh-command", "--info-script", "--new-volume-script",
                                                          "--checkpoint-action"})),
    # touch -- '--checkpoint-action=exec=CMD': a file a later `tar cf x *` takes as its option
    # (GTFOBins' wildcard injection), so CMD runs
    "touch": frozenset(),
    "zip": frozenset({"-TT", "--unzip-command"}),
    **dict.fromkeys(("vim", "vi", "nvim", "view", "vimdiff", "rvim", "ex", "gvim"), frozenset({"-c", "--cmd"})),
    "gdb": frozenset({"-ex", "--ex", "-iex", "--iex", "-eval-command", "--eval-command"}),
    **dict.fromkeys(("ssh", "scp", "sftp", "sshfs", "autossh"), frozenset({"-o"})),
    "psql": frozenset({"-o", "--output"}),  # -o '|CMD': the query's output piped into CMD
    **dict.fromkeys(("pip", "pip3"), frozenset({"--editor"})),
    "man": frozenset({"-P", "--pager", "-H", "--html"}),
    "sqlite3": frozenset({"-cmd", "--cmd"}),  # and its operands, SQL or dot-commands
    "fzf": frozenset({"--bind", "--preview"}),
    "expect": frozenset({"-c"}),
    "socat": frozenset(),  # its addresses: exec:CMD and system:CMD run CMD
    "nix-shell": frozenset({"--run", "--command"}),
    "tmux": frozenset(),  # tmux -c CMD, and its commands' shell commands: _tmux_code
    "split": frozenset({"--filter"}),  # split --filter=CMD: each piece piped into CMD
    **dict.fromkeys(("make", "gmake"), frozenset({"--eval", "-E"})),  # --eval='$(shell CMD)'
    **dict.fromkeys(("mysql", "mariadb"), frozenset({"-e", "--execute"})),  # -e '\\! CMD', -e 'system CMD'
    # gcc -wrapper /bin/sh,-c,CMD: every subprogram the driver starts runs under that argv
    **dict.fromkeys(("gcc", "g++", "cc", "c++", "clang", "clang++"), frozenset({"-wrapper"})),
    "capsh": frozenset(),  # capsh [OPTIONS] -- ARGS: bash ARGS
    **dict.fromkeys(("sed", "gsed"), frozenset()),  # GNU sed's `e CMD` and s///e run a shell command
    # go test -exec CMD, go run -exec CMD: CMD run with each binary as its argument; -toolexec CMD: with each tool
    "go": frozenset({"-exec", "-toolexec"}),
}
#: ssh's settings that run a command through the user's shell (ssh_config(5))
_SSH_COMMANDS = frozenset({"proxycommand", "localcommand", "knownhostscommand"})
_VIM_SHELL = Lazy(r"^[\s:]*(?:silent!?\s*)?!(.+)", needs=("!",))
_FZF_ACTION = Lazy(r"(?:execute|execute-silent|become|reload|preview)(?:\((.*?)\)|\[(.*?)\]|\{(.*?)\}|<(.*?)>|:(.*))",
                   needs=("execute", "become", "reload", "preview"))
_MAKE_SHELL = Lazy(r"\$\(shell\s+([^)]+)\)", needs=("shell",))
_MYSQL_SHELL = Lazy(r"(?:^|;)\s*(?:\\!|system\s)\s*([^;]+)", needs=("\\!", "system"))
_EXPECT_SPAWN = Lazy(r"\bspawn\s+([^;\n\]]+)", needs=("spawn",))
#: make's $(file <FILE): the file read into the makefile's text
_MAKE_READ = Lazy(r"\$\(file\s*<\s*([^,)\s]+)", needs=("file",))
#: vim's Ex commands that run an interpreter's code (``:py3 CODE``) or a shell's (``:call system('CMD')``)
_VIM_INTERPRETER = Lazy(r"^[\s:]*(?:silent!?\s*)?(py3|python3|py|python|pyx|pythonx|lua|perl|ruby|rb|tcl)\s+(.+)",
                        re.DOTALL)
_VIM_SYSTEM = Lazy(r"\b(?:system|systemlist|job_start|jobstart|term_start|termopen)\(\s*(?:'([^']*)'|\"([^\"]*)\")",
                   needs=("system", "job", "term"))
_VIM_RUNS = {"py3": "python3 -c", "python3": "python3 -c", "py": "python3 -c", "python": "python3 -c",
             "pyx": "python3 -c", "pythonx": "python3 -c", "lua": "lua -e", "perl": "perl -e", "ruby": "ruby -e",
             "rb": "ruby -e", "tcl": "tclsh -c"}
#: GNU sed's commands that run a shell: `e CMD` (an address before it or none) and the e flag of s
_SED_E = Lazy(r"(?:^|[;\n{}])\s*(?:(?:[0-9]+|\$|/[^/\n]*/)(?:,(?:[0-9]+|\$|/[^/\n]*/))?!?)?\s*e\s+([^;\n}]+)",
              needs=("e",))
_SED_S_E = Lazy(r"(?:^|[;\n{}])\s*(?:[0-9$]+|/[^/\n]*/)?\s*s([^\w\s\\])((?:(?!\1).)*)\1((?:(?!\1).)*)\1[gpiImM0-9]*e",
                needs=("s",))
#: a bare e: the pattern space, a line of the input, run as a command
_SED_BARE_E = Lazy(r"(?:^|[;\n{}])\s*(?:[0-9]+|\$|/[^/\n]*/)?\s*e\s*(?:$|[;\n}])", needs=("e",))


def option_code(name: str, args: list[str]) -> Iterator[tuple[str, str]]:
    """The shell commands a program runs from its options: ``tar --checkpoint-action=exec=CMD``,
    ``tar -I CMD``, ``zip -TT CMD``, ``vim -c ':!CMD'``, ``gdb -ex 'shell CMD'``, ``ssh -o
    ProxyCommand=CMD``, ``pip config --editor CMD``, ``man -H CMD``, ``sqlite3 DB '.shell
    CMD'``, ``fzf --bind 'enter:execute(CMD)'``, ``expect -c 'spawn CMD'``, ``psql -o '|CMD'``, and
    a file ``touch`` names as tar's option."""
    if name == "touch":
        for arg in args:
            yield from option_code("tar", [arg])
        return
    if name in ("sed", "gsed"):
        yield from (("sed e", code) for code in _sed_code(args))
        return
    if name == "tmux":
        yield from (("tmux", code) for code in _tmux_code(args))
        return
    if name == "capsh" and "--" in args:  # capsh's words after -- are bash's: capsh -- -c CMD
        yield "capsh --", "bash " + _quoted(args[args.index("--") + 1:])
        return
    options = OPTION_CODE[name]
    for k, arg in enumerate(args):
        if arg in options:
            if k + 1 >= len(args):
                continue
            key, value = arg, args[k + 1]
        elif arg.startswith("-") and "=" in arg and arg.partition("=")[0] in options:  # --opt=VALUE, go's -exec=VALUE
            key, _, value = arg.partition("=")
        elif arg.startswith("--"):
            continue
        elif arg[:2] in options and len(arg) > 2:  # -HCMD, -oProxyCommand=CMD, -Izstd
            key, value = arg[:2], arg[2:]
        elif name == "sqlite3" and not arg.startswith("-"):  # an operand: SQL or a dot-command
            key, value = "", arg
        elif name == "socat" and arg[:5].lower() == "exec:" or name == "socat" and arg[:7].lower() == "system:":
            key, _, value = arg.partition(":")
            value = value.split(",")[0]  # exec:CMD,pty,stderr: the options follow a comma
        elif arg.startswith("+") and len(arg) > 1 and "-c" in options and name != "expect":  # vim +CMD
            key, value = "-c", arg[1:]
        else:
            continue
        code = _option_value_code(name, key, value)
        if code:
            yield f"{name} {key}".rstrip(), code


#: tmux's commands that run a shell command given as their operands, each with the options that
#: take a value (tmux(1)); send-keys types its keys into a pane's shell, which runs them at Enter
_TMUX_RUNS = {**dict.fromkeys(("new-session", "new"), "cefFnstxy"), **dict.fromkeys(("new-window", "neww"), "cetFn"),
              **dict.fromkeys(("split-window", "splitw"), "celtF"), **dict.fromkeys(("respawn-pane", "respawnp"), "cet"),
              **dict.fromkeys(("respawn-window", "respawnw"), "cet"), **dict.fromkeys(("run-shell", "run"), "cdt"),
              **dict.fromkeys(("if-shell", "if"), "t"), **dict.fromkeys(("display-popup", "popup"), "bcdehsStTwxy"),
              **dict.fromkeys(("pipe-pane", "pipep"), "t"), **dict.fromkeys(("send-keys", "send"), "cNt")}
_TMUX_GLOBAL_VALUES = frozenset("cfLST")
_TMUX_KEYS = frozenset({"Enter", "C-m", "KPEnter", "C-j", "Space"})


def _tmux_code(args: list[str]) -> Iterator[str]:
    """The shell commands tmux runs from its commands' operands: ``tmux new -d 'CMD'``,
    ``split-window CMD``, ``run-shell CMD``, ``if-shell CMD ...``, ``send-keys -t x 'CMD' Enter``;
    commands chained with ``;`` each read."""
    k = 0
    while k < len(args) and args[k].startswith("-") and args[k] != "--":  # tmux's own options
        if args[k] == "-c" and k + 1 < len(args):  # tmux -c CMD: the shell command it runs, as sh -c
            yield args[k + 1]
        k += 2 if args[k][-1] in _TMUX_GLOBAL_VALUES and len(args[k]) == 2 else 1
    chain: list[str] = []
    for arg in [*args[k:], ";"]:
        if arg != ";":
            chain.append(arg)
            continue
        code = _tmux_command_code(chain)
        if code:
            yield code
        chain = []


def _tmux_command_code(words: list[str]) -> str:
    if not words or words[0] not in _TMUX_RUNS:
        return ""
    takes, k, flags = _TMUX_RUNS[words[0]], 1, ""
    while k < len(words) and words[k].startswith("-") and len(words[k]) > 1 and words[k] != "--":
        flags += words[k][1:]
        k += 2 if words[k][-1] in takes and len(words[k]) == 2 else 1
    operands = words[k + (words[k:k + 1] == ["--"]):]
    if words[0] in ("run-shell", "run", "if-shell", "if") and ("C" in flags or "F" in flags):
        return ""  # -C: a tmux command, -F: a format, not a shell command
    if words[0] in ("if-shell", "if"):
        return operands[0] if operands else ""
    if words[0] in ("send-keys", "send"):  # the literal keys typed; a key name is no text
        return " ".join(w for w in operands if w not in _TMUX_KEYS)
    return operands[0] if len(operands) == 1 else _quoted(operands)


def _option_value_code(name: str, key: str, value: str) -> str:
    """The shell code in the value of ``name``'s option ``key`` ("" when it holds none)."""
    if key == "-wrapper":  # an argv, comma-separated
        return _quoted(value.split(","))
    if name in ("tar", "gtar", "bsdtar") and key == "--checkpoint-action":
        return value[5:] if value.startswith("exec=") else ""
    if name in ("make", "gmake"):  # $(shell CMD) runs CMD; $(file <F) reads F, as cat F does
        return "; ".join([*(m.group(1).strip() for m in _MAKE_SHELL.finditer(value)),
                          *("cat " + _quoted([m.group(1)]) for m in _MAKE_READ.finditer(value))])
    if name in ("mysql", "mariadb"):  # the client's own shell escape: \! CMD or system CMD
        return "; ".join(m.group(1).strip() for m in _MYSQL_SHELL.finditer(value))
    if name == "psql":
        return value[1:] if value.startswith("|") else ""
    if name in ("ssh", "scp", "sftp", "sshfs", "autossh"):  # -o ProxyCommand=CMD or -o 'ProxyCommand CMD': run as `exec CMD`
        setting, _, command = value.replace("=", " ", 1).partition(" ")
        return "exec " + command.strip() if setting.lower() in _SSH_COMMANDS and command.strip() else ""
    if name == "gdb":
        stripped = value.lstrip()
        if stripped.startswith("!"):
            return stripped[1:]
        return stripped[5:].lstrip() if stripped.startswith("shell") and stripped[5:6].isspace() else ""
    if name == "sqlite3":  # .shell CMD, .system CMD (also after -cmd)
        stripped = value.lstrip()
        for dot in (".shell", ".system"):
            if stripped.startswith(dot) and stripped[len(dot):len(dot) + 1].isspace():
                return stripped[len(dot):].strip()
        return ""
    if name == "fzf":
        match = _FZF_ACTION.search(value)
        return next((g for g in match.groups() if g), "") if match else (value if key == "--preview" else "")
    if name == "expect":
        return "; ".join(m.group(1).strip() for m in _EXPECT_SPAWN.finditer(value))
    if key in ("-c", "--cmd"):  # vim's Ex command: !CMD, an interpreter's code, system()
        return _vim_code(value)
    return value


def _vim_code(value: str) -> str:
    match = _VIM_SHELL.search(value)
    if match:
        return match.group(1)
    match = _VIM_INTERPRETER.search(value)
    if match:  # :py3 CODE is python3 -c CODE: its one-liner judged as any
        return f"{_VIM_RUNS[match.group(1)]} {_quoted([match.group(2)])}"
    return "; ".join(m.group(1) or m.group(2) for m in _VIM_SYSTEM.finditer(value))


def sed_runs_its_lines(args: list[str]) -> bool:
    """Whether GNU sed runs lines of its input as commands: a bare ``e``, or ``s/X/Y/e`` where X
    is not the whole line (``s/.*/CMD/e`` runs CMD, which :func:`option_code` reads)."""
    for script in sed.scripts(args):
        if any(m.group(0).strip(" ;\n{}") == "e" for m in _SED_BARE_E.finditer(script)):
            return True
        if any(m.group(2) not in (".*", "^.*$", "^.*") for m in _SED_S_E.finditer(script)):
            return True
    return False


def _sed_code(args: list[str]) -> Iterator[str]:
    """The shell commands GNU sed runs from its scripts: ``e CMD``, ``s/.*/CMD/e``."""
    for script in sed.scripts(args):
        yield from (m.group(1).strip() for m in _SED_E.finditer(script))
        yield from (m.group(3).strip() for m in _SED_S_E.finditer(script) if m.group(2) in (".*", "^.*$", "^.*"))


def _quoted(argv: list[str]) -> str:
    """``argv`` as one shell line that gives back those words."""
    return " ".join(quote(word) for word in argv)
