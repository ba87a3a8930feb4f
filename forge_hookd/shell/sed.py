"""What ``sed -i`` leaves in a file, for the scripts simple enough to say so: a list of
``s/PATTERN/REPLACEMENT/FLAGS`` commands and ``a``/``i`` (append, insert) lines, each
with no address or a ``/REGEX/`` one, in basic or extended (``-E``, ``-r``) syntax. The
manifest check reads a version bump (``sed -i 's/1.2.0/1.3.0/' pyproject.toml``) as the
edit it is, and a line added (``/\\[dependencies\\]/a x = "1"``) as one that adds a
dependency. Anything else (another command, a range, a hold space) is None: not
guessed. Pure: text in, text out."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

#: one command: (address regex or None, kind "s"/"a"/"i", pattern, replacement or text, flags)
_Step = tuple["re.Pattern[str] | None", str, "re.Pattern[str] | None", str, str]
_BRE_SPECIAL = "(){}+?|"


def edited(args: Sequence[str], text: str) -> str | None:
    """The text ``sed ARGS`` (an in-place edit's options and script) leaves of ``text``;
    None when the script is not one of the simple ones."""
    scripts, extended = _scripts(args)
    if not scripts:
        return None
    steps: list[_Step] = []
    for script in scripts:
        parsed = _parse(script, extended)
        if parsed is None:
            return None
        steps += parsed
    return _run(steps, text)


def in_place(args: Sequence[str]) -> str | None:
    """The backup suffix of sed's in-place switch among ``args`` ('' for none), or None when
    sed edits no file in place: ``-i``, ``-i.bak``, a bundle whose flags end in it (``-Ei``;
    after the i comes the suffix: ``-iE`` backs up to ``FILEE``), ``--in-place[=SUFFIX]`` and
    GNU's abbreviations of it (``--in-plac``, ``--i``: getopt takes any unambiguous prefix)."""
    for arg in args:
        if arg == "--":
            break
        if arg.startswith("--"):
            name, _, suffix = arg.partition("=")
            if len(name) >= 3 and "--in-place".startswith(name):
                return suffix
        elif arg.startswith("-") and "i" in arg:
            flags, _, suffix = arg[1:].partition("i")
            if all(c in "nrsuzE" for c in flags):
                return suffix
    return None


#: perl's switches that take no value, which may come before -i in one bundle (-pi, -lpi, -0pi)
_PERL_BARE = frozenset("0123456789alnpsw")


def edits_in_place(name: str, args: Sequence[str]) -> bool:
    """Whether ``NAME ARGS`` rewrites its file operands in place: sed's in-place switch in
    any spelling :func:`in_place` knows (``-Ei``, ``--in-plac``), or perl's ``-i`` alone or
    at the end of a bundle of bare switches (``-pi``, ``-lpi.bak``; not ``-Mlib``, whose M
    takes the rest as its value)."""
    if name in ("sed", "gsed"):
        return in_place(args) is not None
    if name != "perl":
        return False
    for arg in args:
        if arg == "--":
            break
        if not arg.startswith("-") or arg.startswith("--"):
            continue
        flags, found, _ = arg[1:].partition("i")
        if found and all(c in _PERL_BARE for c in flags):
            return True
    return False


def backups(suffix: str, files: Sequence[str]) -> list[str]:
    """Where ``sed -i SUFFIX`` writes each file's backup when the suffix names a directory:
    GNU sed puts a ``*`` in it to the file's base name (``--in-place=../old/*`` backs
    ``src/a.txt`` up to ``../old/a.txt``), and a name with a slash is taken as it is."""
    if "/" not in suffix:
        return []  # FILE + suffix, beside the file: no other place written
    return [suffix.replace("*", f.rpartition("/")[2]) if "*" in suffix else f + suffix for f in files]


def scripts(args: Sequence[str]) -> list[str]:
    """sed's scripts among its words: each ``-e SCRIPT`` (``--expression=SCRIPT``), or else its
    first operand."""
    named: list[str] = []
    operands: list[str] = []
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("-e", "--expression") and k + 1 < len(args):
            named.append(args[k + 1])
            k += 2
            continue
        if arg.startswith("--expression="):
            named.append(arg.partition("=")[2])
        elif not arg.startswith("-"):
            operands.append(arg)
        k += 1
    return named or operands[:1]


def _scripts(args: Sequence[str]) -> tuple[list[str], bool]:
    """:func:`scripts` and whether they are extended (``-E``, ``-r``), or none where an option
    makes them something :func:`edited` does not follow (``-n``, ``-f FILE``, ``-l N``)."""
    extended, k = False, 0
    while k < len(args):
        arg = args[k]
        if arg in ("-e", "--expression") and k + 1 < len(args):
            k += 2
            continue
        if arg in ("-E", "-r", "--regexp-extended"):
            extended = True
        elif in_place([arg]) is not None:  # -i, -i.bak, --in-plac, and the flags a bundle holds before it (-Ei)
            flags = "" if arg.startswith("--") else arg[1:].partition("i")[0]
            if "n" in flags or "z" in flags:
                return [], False
            extended = extended or "E" in flags or "r" in flags
        elif arg.startswith("-") and not arg.startswith("--expression=") and arg not in ("-s", "--separate", "-u"):
            if re.fullmatch(r"-[nzsuEr]+", arg):
                if "n" in arg or "z" in arg:
                    return [], False  # -n prints nothing unless told: not an edit we follow
                extended = extended or "E" in arg or "r" in arg
            else:
                return [], False  # -f FILE, -l N ...: not followed
        k += 1
    return scripts(args), extended


def _parse(script: str, extended: bool) -> list[_Step] | None:
    steps: list[_Step] = []
    rest = script.strip()
    while rest:
        address = None
        if rest.startswith("/"):
            end = _end_of(rest, 1, "/")
            if end is None:
                return None
            address = _compile(rest[1:end], extended, "")
            rest = rest[end + 1:].lstrip()
        if rest[:1] not in ("s", "a", "i"):
            return None  # another command (d, p, y, a range, braces): not followed
        kind, rest = rest[0], rest[1:]
        if kind in ("a", "i"):
            rest = rest[2:] if rest.startswith("\\\n") else rest  # a\ NEWLINE TEXT
            line, _, rest = rest.partition("\n")
            line = line.lstrip()
            line = line[1:] if line.startswith("\\") else line  # a \  TEXT keeps TEXT's leading blanks
            steps.append((address, kind, None, line.replace("\\n", "\n"), ""))
            continue
        step = _substitution(rest, extended)
        if step is None:
            return None
        pattern, replacement, flags, rest = step
        steps.append((address, "s", pattern, replacement, flags))
        rest = rest.lstrip()
        if rest[:1] in (";", "\n"):
            rest = rest[1:].lstrip()
        elif rest:
            return None
    return steps


def _substitution(rest: str, extended: bool) -> tuple[re.Pattern[str], str, str, str] | None:
    if not rest or rest[0] in "\\\n":
        return None
    delimiter = rest[0]
    middle = _end_of(rest, 1, delimiter)
    end = _end_of(rest, middle + 1, delimiter) if middle is not None else None
    if middle is None or end is None:
        return None
    flags_match = re.match(r"[gI0-9]*", rest[end + 1:])
    flags = flags_match.group(0) if flags_match else ""
    pattern = _compile(rest[1:middle].replace("\\" + delimiter, delimiter), extended, flags)
    if pattern is None:
        return None
    return pattern, rest[middle + 1:end].replace("\\" + delimiter, delimiter), flags, rest[end + 1 + len(flags):]


def _end_of(text: str, start: int, delimiter: str) -> int | None:
    k = start
    while k < len(text):
        if text[k] == "\\":
            k += 2
            continue
        if text[k] == delimiter:
            return k
        k += 1
    return None


def _compile(pattern: str, extended: bool, flags: str) -> re.Pattern[str] | None:
    if not extended:
        out, k = [], 0
        while k < len(pattern):
            char = pattern[k]
            if char == "\\" and k + 1 < len(pattern) and pattern[k + 1] in _BRE_SPECIAL:
                out.append(pattern[k + 1])
                k += 2
                continue
            if char == "\\" and k + 1 < len(pattern):
                out.append(pattern[k:k + 2])
                k += 2
                continue
            out.append("\\" + char if char in _BRE_SPECIAL else char)
            k += 1
        pattern = "".join(out)
    try:
        return re.compile(pattern, re.IGNORECASE if "I" in flags else 0)
    except re.error:
        return None


def _replacer(replacement: str) -> Callable[[re.Match[str]], str]:
    def expand(match: re.Match[str]) -> str:
        out, k = [], 0
        while k < len(replacement):
            char = replacement[k]
            if char == "\\" and k + 1 < len(replacement):
                nxt = replacement[k + 1]
                out.append(match.group(int(nxt)) or "" if nxt.isdigit() and int(nxt) <= (match.re.groups or 0)
                           else "\n" if nxt == "n" else "\t" if nxt == "t" else nxt)
                k += 2
                continue
            out.append(match.group(0) if char == "&" else char)
            k += 1
        return "".join(out)
    return expand


def _run(steps: list[_Step], text: str) -> str:
    out = []
    for line in text.splitlines(keepends=True):
        body, end = (line[:-1], "\n") if line.endswith("\n") else (line, "")
        before, after = [], []
        for address, kind, pattern, value, flags in steps:
            if address is not None and not address.search(body):
                continue
            if kind == "a":
                after.append(value)
            elif kind == "i":
                before.append(value)
            elif pattern is not None:
                count = 0 if "g" in flags else int(flags.strip("gI") or 1)
                if count > 1:  # s///N: the Nth match only
                    matches = list(pattern.finditer(body))
                    if len(matches) >= count:
                        m = matches[count - 1]
                        body = body[:m.start()] + _replacer(value)(m) + body[m.end():]
                    continue
                body = pattern.sub(_replacer(value), body, count=count)
        out += [b + "\n" for b in before] + [body + end] + [a + "\n" for a in after]
    return "".join(out)
