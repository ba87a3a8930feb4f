"""Where a program writes a file through its own options or code, not a redirection
(GTFOBins' file-write entries): a compiler's or a converter's ``-o FILE`` (``gcc``,
``rustc``, ``iconv``, ``pandoc``, ``openssl -out``), a capture's or a trace's log
(``tcpdump -w``, ``strace -o``, ``ltrace -o``, ``screen -Logfile``, ``rlwrap -l``, ``script
FILE``), ``xxd -r IN OUT``, the write commands in a script the line shows (sed's ``w FILE``,
awk's ``print > "FILE"``, make's ``$(file >FILE,...)``, vim's ``:redir >FILE``/``:w FILE``,
gdb's ``dump ... FILE``, sqlite3's ``.output FILE``) and the file a one-liner opens for
writing (``open("f", "w")``, ``writeFileSync("f")``, ``file_put_contents("f")``, puppet's
``file { "f": ... }``). The
protected_paths guard judges each as it judges a redirection's target. Pure: words in,
words out."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Sequence

from forge_hookd.shell.commands import Command
from forge_hookd.guards.base import valued
from forge_hookd.shell.lazyre import Lazy

#: per program: (the letters whose value is written, the long options whose value is written,
#: every letter that takes a value), as valued() reads them
_OPTIONS: dict[str, tuple[str, tuple[str, ...], str]] = {
    **dict.fromkeys(("gcc", "g++", "cc", "c++", "clang", "clang++"), ("o", (), "oxIDLlUT")),
    "rustc": ("o", ("--out-dir",), "oLlCWA"),
    "iconv": ("o", ("--output",), "oft"),
    "pandoc": ("o", ("--output",), "ofrtwdMVFLcHBAT"),
    "tcpdump": ("w", (), "wrciCsEFGTWyzZBjmMV"),
    "mypy": ("", ("--junit-xml", "--html-report", "--txt-report", "--xml-report", "--linecount-report"), ""),
}
#: wrappers (shell/commands.WRAPPERS) that write a log: the command they run is the command,
#: their own words are kept in Command.wrappers
_WRAPPER_OPTIONS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "strace": ("o", ("--output",), "oepsESbIuaXU"),
    "ltrace": ("o", ("--output",), "aADeFlnopsuxwX"),
    "rlwrap": ("l", ("--logfile",), "bCDefgHlOPqsStwz"),
    "time": ("o", ("--output",), "fo"),
}
#: options spelt with one dash and a word, whose value is a file written
_SINGLE_DASH = {"openssl": frozenset({"-out", "-keyout"}), "screen": frozenset({"-Logfile"}),
                # nmap's reports: -oN FILE, -oG=FILE (-oA BASE writes BASE.nmap, .gnmap, .xml)
                "nmap": frozenset({"-oN", "-oX", "-oS", "-oG", "-oA", "-oM"})}

_SED_WRITE = Lazy(r"(?:(?:^|[;\n{}])\s*(?:[0-9$]+(?:,[0-9$]+)?)?|/[gpiIme0-9]*)\s*w\s+([^;\n}]+)", needs=("w",))
_AWK_WRITE = Lazy(r"""\bprintf?\b[^;}>|]*>>?\s*"([^"]+)\"""", needs=("print",))
_MAKE_WRITE = Lazy(r"\$\(file\s+>>?\s*([^,)]+)", needs=("file",))
_VIM_WRITE = Lazy(r"^[\s:]*(?:redir!?\s*>>?\s*|(?:w|write|sav|saveas|wq|x|up|update)!?\s+)([^\s|]+)", needs=())
_GDB_WRITE = Lazy(r"^\s*(?:dump|append)\s+(?:(?:binary|ihex|srec|tekhex|verilog|value|memory)\s+)*(\S+)",
                  needs=("dump", "append"))
_SQLITE_WRITE = Lazy(r"^\s*\.(?:output|once|save|backup(?:\s+\S+)?)\s+(\S+)", needs=(".",))
#: a one-liner's call that opens a file for writing or writes one, the path a literal
_CODE_WRITE = Lazy(r"""(?:\bopen|\bfopen)\(\s*["']([^"'\n]{1,300})["']\s*,\s*["'][^"']*[wa+]|"""
                   r"""(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|file_put_contents|"""
                   r"""File\.write|IO\.write|write_text|write_bytes)\(\s*["']([^"'\n]{1,300})["']|"""
                   r"""Path\(\s*["']([^"'\n]{1,300})["']\s*\)\s*\.\s*(?:write_text|write_bytes|open\(\s*["'][wa])|"""
                   r"""(?:urlretrieve|\bdownload)\(\s*[^,()]{1,400},\s*["']([^"'\n]{1,300})["']|"""
                   r"""(?:homedir\(\)|process\.env\.HOME|Dir\.home|ENV\[["']HOME["']\])\s*\+\s*["'](/[^"'\n]{1,300})["']|"""
                   # julia's open(f -> write(f, x), "path", "w"): a function first, then the path
                   r"""\bopen\((?:[^"'()\n]|\([^()\n]*\)){1,300}?,\s*["']([^"'\n]{1,300})["']\s*,\s*["'][wa]""",
                   needs=("(",))
_PUPPET_FILE = Lazy(r"""\bfile\s*\{\s*["']([^"'\n]{1,300})["']\s*:""", needs=("file",))
_VIMS = frozenset({"vim", "vi", "nvim", "view", "vimdiff", "rvim", "ex", "gvim"})
#: every command name :func:`written_by_options` reads, and the wrappers whose log it reads
#: (guards/paths.OUTPUT_HEADS and OUTPUT_WRAPPERS, which decide whether this module loads, are
#: the same sets: a test holds them so); docker's ``cp`` and git's ``apply --unsafe-paths`` aside
HEADS = frozenset({*_OPTIONS, *_SINGLE_DASH, "xxd", "script", "sed", "gsed", "make", "gmake", *_VIMS, "gdb", "sqlite3",
                   "socat", "plutil", "PlistBuddy", "defaults"})
WRAPPERS = frozenset({*_WRAPPER_OPTIONS, "screen"})


def written_by_options(command: Command) -> Iterator[str]:
    """The files ``command`` writes through its own options, its wrappers' options, the
    script it is given or its one-liner's code (none of them a redirection)."""
    name, args = command.name, list(command.args)
    if name in _OPTIONS:
        yield from valued(args, *_OPTIONS[name])
    if name in _SINGLE_DASH:
        yield from _after(args, _SINGLE_DASH[name])
    for wrapper in command.wrappers:
        head = posixpath.basename(wrapper[0])
        if head in _WRAPPER_OPTIONS:
            yield from valued(list(wrapper[1:]), *_WRAPPER_OPTIONS[head])
        elif head == "screen":
            yield from _after(wrapper[1:], _SINGLE_DASH["screen"])
    yield from _scripted(name, args)
    code = command.inline_code
    if code is not None:
        yield from _code_targets(code[0], code[1])


#: plutil's verbs that edit its file in place (``-o FILE`` writes FILE instead; -p, -lint, -extract read)
_PLUTIL_EDITS = frozenset({"-insert", "-replace", "-remove", "-convert", "-append"})
#: PlistBuddy's commands that change the file it is given (Print reads)
_PLISTBUDDY_EDITS = ("add", "set", "delete", "merge", "import", "clear", "copy", "save")
#: defaults' verbs that write the domain (read, find, domains only look)
_DEFAULTS_WRITES = frozenset({"write", "delete", "import", "rename"})


def _plist_edited(name: str, args: list[str]) -> Iterator[str]:
    """The property list a plist editor writes: plutil's edits (``plutil -insert K -string V FILE``:
    FILE, or ``-o`` 's), PlistBuddy's (``PlistBuddy -c "Add :Label string x" FILE``), and
    ``defaults write`` of a domain given as a path (``/Library/Preferences/com.apple.alf``: that
    file, .plist added); a domain by name (``com.apple.dock``) is the user's own preferences."""
    if name == "plutil" and _PLUTIL_EDITS & set(args):
        out = [args[k + 1] for k, a in enumerate(args[:-1]) if a == "-o"]
        yield from out if out else [a for a in args[-1:] if not a.startswith("-")]
    elif name == "PlistBuddy":
        commands = [args[k + 1] for k, a in enumerate(args[:-1]) if a == "-c"]
        if any(c.strip().lower().startswith(_PLISTBUDDY_EDITS) for c in commands):
            rest = [a for k, a in enumerate(args) if a != "-c" and (k == 0 or args[k - 1] != "-c") and not a.startswith("-")]
            yield from rest[-1:]
    elif name == "defaults":
        ops = [a for a in args if not a.startswith("-")]
        if len(ops) >= 2 and ops[0] in _DEFAULTS_WRITES and ("/" in ops[1] or ops[1].startswith("~")):
            yield ops[1] if ops[1].endswith(".plist") else ops[1] + ".plist"


def _scripted(name: str, args: list[str]) -> Iterator[str]:
    """The files written by commands in the script a program is given on the line."""
    if name == "xxd" and "-r" in args:  # xxd -r [IN [OUT]]
        operands = [a for a in args if not a.startswith("-") or a == "-"]
        if len(operands) >= 2:
            yield operands[1]
    elif name == "script":  # script [options] [FILE]: the typescript
        operands = _operands(args, frozenset({"-c", "--command", "-T", "--timing", "-E", "--echo", "-m", "--logging-format",
                                              "-O", "--log-out", "-I", "--log-in", "-B", "--log-io"}))
        yield from operands[:1]
        yield from _after(args, frozenset({"-O", "--log-out", "-B", "--log-io", "-T", "--log-timing"}))
    elif name in ("plutil", "PlistBuddy", "defaults"):
        yield from _plist_edited(name, args)
    elif name in ("sed", "gsed"):
        for script in _sed_scripts(args):
            yield from (m.group(1).strip() for m in _SED_WRITE.finditer(script))
    elif name in ("make", "gmake"):
        for value in _option_values(args, ("--eval", "-E")):
            yield from (m.group(1).strip() for m in _MAKE_WRITE.finditer(value))
    elif name in _VIMS:
        for value in _option_values(args, ("-c", "--cmd")):
            yield from (m.group(1) for m in _VIM_WRITE.finditer(value))
    elif name == "gdb":
        for value in _option_values(args, ("-ex", "--ex", "-eval-command", "--eval-command")):
            yield from (m.group(1) for m in _GDB_WRITE.finditer(value))
    elif name == "sqlite3":
        for arg in args:
            yield from (m.group(1) for m in _SQLITE_WRITE.finditer(arg))
    elif name in ("docker", "podman", "nerdctl", "kubectl"):  # docker cp CONTAINER:PATH HOSTPATH
        operands = _operands(args, frozenset({"-c", "--container", "-n", "--namespace", "--context"}))
        if operands[:1] == ["container"]:
            operands = operands[1:]
        if operands[:1] == ["cp"] and len(operands) == 3 and ":" in operands[1] and ":" not in operands[2]:
            yield operands[2]
    elif name == "git" and "apply" in args and "--unsafe-paths" in args:  # the patch's files, under DIR
        yield from _after(args, frozenset({"--directory"}))
    elif name == "socat":  # open:FILE,creat / create:FILE: an address socat writes
        for arg in args:
            kind, _, rest = arg.partition(":")
            path, _, options = rest.partition(",")
            if kind.lower() in ("create", "creat") or kind.lower() in ("open", "gopen", "file") and \
                    any(o.split("=")[0] in ("creat", "append", "trunc", "wronly", "rdwr") for o in options.split(",")):
                yield path


def _code_targets(interpreter: str, code: str) -> Iterator[str]:
    code = code[: 1 << 16]
    if interpreter in ("awk", "gawk", "mawk", "nawk", "busybox awk"):
        yield from (m.group(1) for m in _AWK_WRITE.finditer(code))
        return
    if interpreter == "puppet":  # file { "/etc/hosts": content => ... }: puppet writes the resource's title
        yield from (m.group(1) for m in _PUPPET_FILE.finditer(code))
        return
    for match in _CODE_WRITE.finditer(code):
        path = next(g for g in match.groups() if g is not None)
        yield "~" + path if match.group(5) is not None else path


def _after(args: Sequence[str], options: frozenset[str]) -> Iterator[str]:
    """The value after each of ``options`` (``-out FILE``), or after ``=`` (``--log-out=FILE``)."""
    for k, arg in enumerate(args):
        key, eq, value = arg.partition("=")
        if arg in options and k + 1 < len(args):
            yield args[k + 1]
        elif eq and key in options and (key.startswith("--") or key.startswith("-o")):  # nmap's -oG=FILE
            yield value


def _option_values(args: Sequence[str], options: tuple[str, ...]) -> Iterator[str]:
    for k, arg in enumerate(args):
        if arg in options and k + 1 < len(args):
            yield args[k + 1]
        elif arg.startswith("--") and arg.partition("=")[0] in options:
            yield arg.partition("=")[2]
        elif arg.startswith("+") and options[0] == "-c":  # vim +CMD
            yield arg[1:]


def _operands(args: Sequence[str], valued: frozenset[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in valued or arg[:1] == "-" and arg[1:2] != "-" and f"-{arg[-1]}" in valued:
            skip = True  # -c CMD, and a cluster ending in it: script -qc CMD FILE
        elif not arg.startswith("-"):
            out.append(arg)
    return out


def _sed_scripts(args: Sequence[str]) -> list[str]:
    """sed's scripts: each ``-e``/``--expression`` value, else its first operand."""
    scripts = list(_option_values(args, ("-e", "--expression")))
    if scripts:
        return scripts
    operands = _operands(args, frozenset({"-f", "--file", "-l", "--line-length"}))
    return operands[:1]
