"""What a runner reads when a command runs it (issue 31, item 8): ``make guard`` reads a
makefile, ``npm run guard`` a script of the project's ``package.json``. Trust covers those
inputs as it covers a script a command names (:func:`forge_hookd.shell.scripts.trust_words`).
Pure: no I/O, words in, inputs out; which ``package.json`` holds the script is the
reader's to find (:mod:`forge_hookd.trust.store`).

- ``make``/``gmake``: ``GNUmakefile``, ``makefile`` and ``Makefile`` (make reads the first
  that exists; all three are named, so one that appears later is a change), or each
  ``-f FILE``/``--file``/``--makefile``; all in the ``-C DIR``/``--directory`` chain.
- ``npm run X`` (``run-script``, ``test``, ``start`` ...), ``pnpm [run] X``, ``yarn [run] X``,
  ``bun run X``: the script X, in the directory ``--prefix``/``-C``/``--dir``/``--cwd``
  names. A workspace (``-w``, ``--filter``, ``yarn workspace``), a name or a directory
  held in a variable: said, not guessed.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from forge_hookd.shell.commands import RUNNER_WHERE
from forge_hookd.shell.words import VARIABLE, Word

MAKES = frozenset({"make", "gmake"})
#: The makefiles GNU make looks for, in its order.
MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
PACKAGE_RUNNERS = frozenset({"npm", "pnpm", "yarn", "bun"})

_NPM_RUN = frozenset({"run", "run-script", "rum", "urn"})
_SCRIPT_COMMANDS = {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop",
                    "restart": "restart"}
# Each runner's own commands (pnpm X and yarn X run the script X when X is none of them).
_OWN = {
    "npm": frozenset(),  # npm X runs no script X: only run and the script commands do
    "pnpm": frozenset("add i install update up upgrade remove rm uninstall un link ln unlink import rebuild rb "
                      "prune fetch patch patch-commit patch-remove exec dlx create init publish pack list ls ll "
                      "la outdated why audit licenses store config c get set env setup server deploy doctor root "
                      "bin help cache install-test it dedupe self-update add-global".split()),
    "yarn": frozenset("add audit autoclean bin cache check config create dedupe dlx exec explain global help import "
                      "info init install licenses link list login logout node npm outdated owner pack patch "
                      "patch-commit plugin policies publish rebuild remove search set tag team unlink unplug up "
                      "upgrade upgrade-interactive version versions why constraints stage sdks "
                      "generate-lock-entry".split()),
    "bun": frozenset(),  # bun X may be a file or a script: only bun run is read
}
# Options that pick a workspace.
_WORKSPACE = frozenset({"-w", "--workspace", "--workspaces", "-ws", "--filter", "-F", "-r", "--recursive",
                        "workspace", "workspaces"})


class Inputs:
    """What a runner reads: ``paths`` relative to where it runs (a makefile),
    ``scripts`` as ``(directory, name)`` (directory "" where it runs), and what cannot
    be known, said as the command's words. A plain class: a NamedTuple costs more to
    create at import than this whole module (bench/README.md, "tricks.py")."""

    __slots__ = ("paths", "scripts", "unresolved")

    def __init__(self, paths: tuple[str, ...] = (), scripts: tuple[tuple[str, str], ...] = (),
                 unresolved: tuple[str, ...] = ()) -> None:
        self.paths, self.scripts, self.unresolved = paths, scripts, unresolved


NOTHING = Inputs()


def inputs(name: str, args: tuple[Word, ...], known: Mapping[str, str]) -> Inputs:
    """The inputs of the runner ``name`` given ``args`` (NOTHING for any other command)."""
    if name in MAKES:
        return _make(name, args, known)
    if name in PACKAGE_RUNNERS:
        return _package(name, args, known)
    return NOTHING


def _value(word: Word | None, known: Mapping[str, str]) -> str | None:
    """The word with known variables put in; None when it cannot be known."""
    if word is None:
        return None
    text = VARIABLE.sub(lambda m: known.get(m.group(1) or m.group(2), m.group(0)), word.text) if word.dynamic \
        else word.text
    if "$" in text or "`" in text or (word.glob and not word.quoted) or not text:
        return None
    return text


def _make(name: str, args: tuple[Word, ...], known: Mapping[str, str]) -> Inputs:
    directory, files, said = "", [], []
    k = 0
    while k < len(args):
        text, value, kind = args[k].text, None, ""
        if text.startswith("--"):
            key, eq, rest = text[2:].partition("=")
            kind = {"directory": "C", "file": "f", "makefile": "f"}.get(key, "")
            if kind and eq:
                value = Word(rest, dynamic="$" in rest)
            elif kind:
                k += 1
                value = args[k] if k < len(args) else None
        elif text.startswith("-") and len(text) > 1:
            for i, letter in enumerate(text[1:], 1):
                if letter in "Cf":
                    kind = letter
                    if i + 1 < len(text):
                        value = Word(text[i + 1:], dynamic="$" in text)
                    else:
                        k += 1
                        value = args[k] if k < len(args) else None
                    break
                if letter in "IoW":  # a value follows: not a makefile
                    k += 1 if i == len(text) - 1 else 0
                    break
        k += 1
        if not kind:
            continue
        resolved = _value(value, known)
        if resolved is None or resolved == "-":
            said.append(f"{name} -{kind} {value.text if value is not None else ''}".rstrip())
        elif kind == "C":
            directory = resolved if resolved.startswith(("/", "~")) else posixpath.join(directory, resolved)
        else:
            files.append(resolved)
    if said and any(s.startswith(f"{name} -C") for s in said):
        return Inputs(unresolved=tuple(said))  # where make runs is unknown: no file is known
    chosen = files or list(MAKEFILES)
    paths = tuple(f if f.startswith(("/", "~")) else posixpath.join(directory, f) for f in chosen)
    return Inputs(paths=paths, unresolved=tuple(said))


def _package(name: str, args: tuple[Word, ...], known: Mapping[str, str]) -> Inputs:
    where, words = _package_where(name, args, known)
    if where is None:
        return Inputs(unresolved=(_said(name, args, "a directory that cannot be resolved"),))
    if any(w.text in _WORKSPACE or w.text.startswith(("--workspace=", "--filter=", "-w=")) for w in args):
        return Inputs(unresolved=(_said(name, args, "a workspace's script: trust does not follow it"),))
    if name in ("npm", "bun"):  # npm --loglevel silent run x: the first of its script commands
        at = next((k for k, w in enumerate(words) if w.text in _NPM_RUN or w.text in _SCRIPT_COMMANDS), None)
        words = [] if at is None else words[at:]
    else:  # pnpm X, yarn X: the first word that is not an option
        words = [w for w in words if not w.text.startswith("-")]
    command = words[0] if words else None
    if command is None:
        return NOTHING
    script: Word | None
    if command.text in _NPM_RUN or (command.text == "run" and name != "npm"):
        script = next((w for w in words[1:] if not w.text.startswith("-")), None)
    elif command.text in _SCRIPT_COMMANDS and name != "bun":
        script = Word(_SCRIPT_COMMANDS[command.text])
    elif name in ("pnpm", "yarn") and command.text not in _OWN[name] and not command.text.startswith("-"):
        script = command
    else:
        return NOTHING
    if script is None:
        return NOTHING  # npm run alone lists the scripts
    resolved = _value(script, known)
    if resolved is None:
        return Inputs(unresolved=(_said(name, args, "a script whose name cannot be resolved"),))
    if name == "bun" and ("/" in resolved or "." in resolved):
        return NOTHING  # bun run FILE: a file, a word trust reads as a path already
    return Inputs(scripts=((where, resolved),))


def _package_where(name: str, args: tuple[Word, ...], known: Mapping[str, str]) -> tuple[str | None, list[Word]]:
    """The directory a package runner starts in ("" where the command runs; None when
    it cannot be known) and its words without those options."""
    options = RUNNER_WHERE[name]
    where, rest = "", []
    k = 0
    while k < len(args):
        word = args[k]
        value: Word | None = None
        if word.text in options:
            k += 1
            value = args[k] if k < len(args) else None
        elif any(word.text.startswith(o + "=") for o in options):
            text = word.text.partition("=")[2]
            value = Word(text, dynamic="$" in text)
        else:
            rest.append(word)
            k += 1
            continue
        k += 1
        resolved = _value(value, known)
        if resolved is None:
            return None, rest
        where = resolved if resolved.startswith(("/", "~")) else posixpath.join(where, resolved)
    return where, rest


def _said(name: str, args: tuple[Word, ...], why: str) -> str:
    return f"{' '.join((name, *(w.text for w in args)))[:200]} ({why})"
