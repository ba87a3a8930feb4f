"""Which files a hook's command runs or reads, on :func:`~forge_hookd.shell.commands.parse`'s
walk: :func:`trust_words`, the words trust hashes (issue 19, item 5; a runner's input,
``make``'s makefile or ``npm run``'s script, through :mod:`runners`), and
:func:`script_words`, the scripts the missing-script check looks for (issue 20, item 3).
Apart from :mod:`commands`, which the guards load on every guarded event: neither is a
guard's, and a guarded cold run loads neither (bench/README.md, "The pack's cold cost, stage by stage").
Pure, no I/O, bounded on any input, never raising.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping

from forge_hookd.shell import runners
from forge_hookd.shell.commands import PYTHON, SHELLS, Command, option_values, parse
from forge_hookd.shell.words import VARIABLE, Word
from forge_hookd.tuples import NamedTuple

__all__ = ["Scripts", "TrustWords", "script_words", "trust_words"]


class TrustWords(NamedTuple):
    """What a command could run or read as a path (``cd DIR`` and ``env -C DIR`` applied
    to relative words, known variables substituted, a runner's input file named: ``make``'s
    makefile), the words trust cannot resolve, apart, and the package scripts it runs:
    ``npm run guard`` as ``(directory, "guard")``, the directory where the runner starts
    ("" for where the command line starts)."""

    paths: tuple[str, ...]
    unresolved: tuple[str, ...]
    scripts: tuple[tuple[str, str], ...] = ()


_READERS = SHELLS | {"source", ".", "exec"}


def trust_words(command: str, *, variables: Mapping[str, str] | None = None) -> TrustWords:
    """Every word ``command`` could run or read as a path, recursively into ``$(...)``,
    backticks, ``sh -c``/``bash -c`` strings and the rest :func:`parse` sees through;
    a relative word after ``cd DIR`` (or behind ``env -C DIR``) is joined to DIR.
    ``variables`` are substituted (``{"CLAUDE_PROJECT_DIR": root}``), a ``for`` loop's
    variable by the loop's words; a word holding another variable, a glob (said as the
    glob, also through a loop: ``scripts/*.sh``), a substitution in command position or
    ``python -m pkg`` is listed in ``unresolved`` when it could name a file, never
    silently dropped. A runner's input is named: ``make``'s makefile (``-C``, ``-f``),
    the package script of ``npm run X``/``pnpm``/``yarn``/``bun run`` (in ``scripts``)."""
    known = dict(variables or {})
    paths: dict[str, None] = {}
    unresolved: dict[str, None] = {}
    scripts: dict[tuple[str, str], None] = {}
    parsed = parse(command)
    loops = _loop_items(parsed.loops)
    for cmd in parsed.commands:
        if cmd.cwd_unknown:
            unresolved["cd to a directory that cannot be resolved"] = None
        moved, lost = _wrapper_cwd(cmd, known)
        if lost is not None:
            unresolved[lost] = None
            continue  # where the command runs is not known: its relative words name nothing
        for word, head, reader, inside in _candidate_words(cmd):
            if not head and ("$(" in word.text or "`" in word.text):
                continue  # a command's output: that command is walked on its own
            texts, said = _values(word, known, loops)
            unresolved.update((shown, None) for probe, shown in said if head or reader or "/" in probe or "." in probe)
            for text in texts:
                for candidate in (text, *_value_part(text)):
                    paths[_joined(candidate, moved if inside else cmd.cwd)] = None
        inputs = runners.inputs(cmd.name, cmd.words[1:], known)
        paths.update((_joined_path(path, moved), None) for path in inputs.paths)
        scripts.update(((_joined_path(d, moved), name), None) for d, name in inputs.scripts)
        unresolved.update((text, None) for text in inputs.unresolved)
        module = _python_module(cmd)
        if module is not None:
            unresolved[f"{cmd.name} -m {module}"] = None
    if parsed.truncated:
        unresolved["(the command is nested too deep or too long to read whole)"] = None
    return TrustWords(tuple(paths), tuple(unresolved), tuple(scripts))


def _candidate_words(cmd: Command) -> Iterator[tuple[Word, bool, bool, bool]]:
    """Each word, whether it is in command position, whether it is a script its
    command reads (``bash x``, ``. x``), and whether it is read where a wrapper moved
    the command (``env -C DIR``: the command's own words, not the redirections)."""
    for k, text in enumerate(w for wrapper in cmd.wrappers for w in wrapper):
        yield Word(text), k == 0, False, False
    reader = cmd.name in _READERS or PYTHON.match(cmd.name) is not None or cmd.name in ("node", "perl", "ruby")
    for k, word in enumerate(cmd.words):
        yield word, k == 0 and not cmd.wrappers, reader and k > 0, True
    for text in cmd.assignments:
        yield Word(text.partition("=")[2], dynamic="$" in text or "`" in text), False, False, False
    for redirect in cmd.redirects:
        if redirect.mode in ("read", "readwrite", "write", "append"):
            yield (Word(redirect.target, dynamic=redirect.dynamic), False, redirect.mode in ("read", "readwrite"),
                   False)


_LOOP_ITEMS = 64  # the words of one loop read as values: enough for a list of scripts, bounded


def _loop_items(loops: tuple[tuple[str, tuple[Word, ...]], ...]) -> dict[str, list[Word]]:
    """Each loop variable and every word it takes, over all the loops that set it."""
    found: dict[str, list[Word]] = {}
    for name, items in loops:
        found.setdefault(name, []).extend(items[:_LOOP_ITEMS])
    return found


def _values(word: Word, known: Mapping[str, str], loops: Mapping[str, list[Word]]
            ) -> tuple[list[str], list[tuple[str, str]]]:
    """The paths ``word`` names, and what it names that stays unresolved as ``(probe,
    shown)`` pairs: the word as written, or, for a loop's variable, each of the loop's
    words that is a glob or holds a variable put in (``"$f"`` over ``scripts/*.sh``)."""
    text, ok = _substitute(word, known)
    if ok:
        return [text], []
    names = {m.group(1) or m.group(2) for m in VARIABLE.finditer(text)}
    if len(names) != 1 or not names <= loops.keys() or "`" in text or "$(" in text:
        return [], [(text, word.text)]
    name = names.pop()
    resolved: list[str] = []
    said: list[tuple[str, str]] = []
    for item in loops[name][:_LOOP_ITEMS]:
        value = VARIABLE.sub(lambda m: item.text if (m.group(1) or m.group(2)) == name else m.group(0), text)
        if "$" in value or item.dynamic or item.glob or (word.glob and not word.quoted):
            said.append((value, value))
        else:
            resolved.append(value)
    if len(loops[name]) > _LOOP_ITEMS:
        said.append((text, word.text))
    return resolved, said


# Wrappers that run their command in another directory, and their options for it.
_CHDIR = {"env": ("-C", "--chdir"), "sudo": ("-D", "--chdir"), "run0": ("-D", "--chdir")}


def _wrapper_cwd(cmd: Command, known: Mapping[str, str]) -> tuple[str | None, str | None]:
    """Where the effective command runs, as written (``env -C scripts sh x.sh`` ->
    ``scripts``, after any ``cd``), and, when a wrapper's directory cannot be resolved,
    what to say instead of a directory."""
    cwd = cmd.cwd
    for wrapper in cmd.wrappers:
        options = _CHDIR.get(posixpath.basename(wrapper[0]))
        for directory in () if options is None else option_values(wrapper[1:], *options):
            value = VARIABLE.sub(lambda m: known.get(m.group(1) or m.group(2), m.group(0)), directory)
            if "$" in value or "`" in value or not value:
                return None, f"{' '.join(wrapper)}: a directory that cannot be resolved"
            cwd = value if cwd is None or value.startswith(("/", "~")) else posixpath.join(cwd, value)
    return cwd, None




def _joined_path(path: str, cwd: str | None) -> str:
    """A runner's input (always a path, even without a "/") joined to where it runs."""
    if cwd is None or path.startswith(("/", "~")):
        return path
    return posixpath.normpath(posixpath.join(cwd, path)) if path else posixpath.normpath(cwd)


def _substitute(word: Word, known: Mapping[str, str]) -> tuple[str, bool]:
    """The word with known variables put in; False when something stays unresolved."""
    text = word.text
    if word.dynamic:
        text = VARIABLE.sub(lambda m: known.get(m.group(1) or m.group(2), m.group(0)), text)
        if "$" in text or "`" in text:
            return text, False
    if word.glob and not word.quoted:
        return text, False
    return text, True


def _value_part(text: str) -> tuple[str, ...]:
    """``--config=ci/x.json`` -> ``ci/x.json``; ``NAME=path`` likewise."""
    head, sep, value = text.partition("=")
    return (value,) if sep and value and head else ()


def _joined(word: str, cwd: str | None) -> str:
    if cwd is None or word.startswith(("/", "~", "-")) or "/" not in word and "." not in word:
        return word
    return posixpath.normpath(posixpath.join(cwd, word))


def _python_module(cmd: Command) -> str | None:
    if not PYTHON.match(cmd.name):
        return None
    argv = cmd.argv
    for k, text in enumerate(argv[1:], start=1):
        if text == "-m" and k + 1 < len(argv):
            return argv[k + 1]
        if text.startswith("-m") and len(text) > 2:
            return text[2:]
        if not text.startswith("-"):
            return None
    return None


# -- scripts -------------------------------------------------------------------------------------
class Scripts(NamedTuple):
    """What a command runs from a file (issue 20, item 3): ``files`` as ``(runner, path)``
    pairs (``("node", ".claude/hooks/guard.js")``; runner "" for a path run as a program),
    variables substituted and a relative path joined to a preceding ``cd DIR`` and a
    wrapper's ``env -C DIR``; the
    modules it runs with ``python -m``; and the words it tests (``[ -f X ] && sh X``: its
    author handles X being absent)."""

    files: tuple[tuple[str, str], ...]
    modules: tuple[tuple[str, str], ...]
    tested: frozenset[str]


# Per interpreter family: option letters that end the options with code or stdin instead
# of a script (-c, -e, -m ...), letters that take the next word as a value, long options
# likewise. An option not listed is taken as a flag; a value read as the operand is
# harmless: an operand counts only when it looks like a path (a "/" or a ".").
_FAMILIES: dict[str, tuple[str, str, frozenset[str], frozenset[str]]] = {
    "python": ("cm", "WX", frozenset(), frozenset({"--check-hash-based-pycs"})),
    "node": ("ep", "rC", frozenset({"--eval", "--print"}),
             frozenset({"--require", "--import", "--loader", "--experimental-loader", "--conditions",
                        "--input-type", "--env-file", "--title"})),
    "shell": ("cs", "oO", frozenset(), frozenset({"--rcfile", "--init-file"})),
    "perl": ("eE", "IM", frozenset(), frozenset()),
    "ruby": ("e", "IrCE", frozenset(), frozenset()),
}
_TESTS = frozenset({"test", "[", "[["})


def script_words(command: str, *, variables: Mapping[str, str] | None = None) -> Scripts:
    """The files and modules ``command`` runs as scripts or programs (see :class:`Scripts`):
    a command word holding a ``/`` (``./x.sh``, ``"$CLAUDE_PROJECT_DIR"/h.sh``), the
    script operand of an interpreter (``node x.js``, ``python3 -W ignore x.py``, ``bash
    -e x.sh``, ``. ./env.sh``), recursively wherever :func:`parse` sees commands. A word
    that holds an unknown variable, or a ``cd`` that cannot be resolved, is left out."""
    known = dict(variables or {})
    files: dict[tuple[str, str], None] = {}
    modules: dict[tuple[str, str], None] = {}
    tested: set[str] = set()
    for cmd in parse(command).commands:
        if cmd.cwd_unknown or not cmd.words:
            continue
        if cmd.name in _TESTS:
            tested.update(_joined(t, cmd.cwd) for w in cmd.words[1:] for t, ok in [_substitute(w, known)] if ok)
            continue
        moved, lost = _wrapper_cwd(cmd, known)  # env -C scripts sh guard.sh: scripts/guard.sh
        for runner, word in () if lost is not None else _script_positions(cmd):
            text, ok = _substitute(word, known)
            if ok and ("/" in text or (runner not in ("", ".", "source") and "." in text)):
                files[(runner, _joined(text, moved))] = None
        module = _python_module(cmd)
        if module is not None:
            modules[(cmd.name, module)] = None
    return Scripts(tuple(files), tuple(modules), frozenset(tested))


def _script_positions(cmd: Command) -> Iterator[tuple[str, Word]]:
    head = cmd.words[0]
    if "/" in head.text:
        yield "", head
    if cmd.name in (".", "source") and len(cmd.words) > 1:
        yield cmd.name, cmd.words[1]
        return
    family = _family(cmd.name)
    operand = None if family is None else _operand(cmd.words[1:], _FAMILIES[family])
    if operand is not None:
        yield cmd.name, operand


def _family(name: str) -> str | None:
    if PYTHON.match(name):
        return "python"
    if name in SHELLS:
        return "shell"
    return {"node": "node", "nodejs": "node", "perl": "perl", "ruby": "ruby"}.get(name)


def _operand(words: tuple[Word, ...], family: tuple[str, str, frozenset[str], frozenset[str]]) -> Word | None:
    """The first operand after an interpreter's options; None when the options say code
    or stdin comes instead (``-c``, ``-e``, ``-m``, ``-``)."""
    stops, valued, long_stops, long_valued = family
    skip = False
    for k, word in enumerate(words):
        text = word.text
        if skip:
            skip = False
        elif text == "--":
            return words[k + 1] if k + 1 < len(words) else None
        elif text.startswith("--"):
            if text in long_stops:
                return None
            skip = text in long_valued
        elif len(text) > 1 and text[0] in "-+":
            for i, letter in enumerate(text[1:], 1):
                if letter in stops:
                    return None
                if letter in valued:
                    skip = i == len(text) - 1  # -W ignore; -Wignore holds its value
                    break
        elif text == "-":
            return None
        else:
            return word
    return None
