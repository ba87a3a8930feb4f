"""Text for people: control characters written out, a reason on one line, a did-you-mean,
and how near a word is to another (a typo's distance).

Every line forge writes for a person goes through :func:`visible`, so that what it
quotes (a hook's command or output, an event's key) can never drive the terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

# C0 (but tab), DEL and C1: a hook's output must not drive the terminal, and a line for
# people stays one line (a newline in an event's key must not split the message).
_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if c != 0x09} | {0x0A: "\\n", 0x0D: "\\r"}


def visible(text: str) -> str:
    """``text`` with terminal control characters written out (ESC as ``\\x1b``), and
    bytes that are not UTF-8 (a path's, read with surrogateescape) as ``\\xNN``."""
    return shown_path(text.translate(_CONTROL))


def one_line(text: str, limit: int = 300) -> str:
    """A reason as one line for people: white space folded, cut at ``limit`` with ``...``."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def short_command(command: str, limit: int = 80) -> str:
    """A hook's command for a table or a trace line: one line, and past ``limit``
    characters its head and its whole length (``awk '{ s = s... (1692 characters)``), so
    that a long inline program never floods a line (the whole command is in the
    document and in ``forge-hook list --json``)."""
    line = " ".join(command.split())
    if len(line) <= limit:
        return line
    marker = f"... ({len(command)} characters)"
    if limit < len(marker) + 8:
        return line[: max(limit - 3, 1)] + "..."
    return line[: limit - len(marker)].rstrip() + marker


def did_you_mean(word: str, known: Iterable[str], *, aliases: Mapping[str, str] | None = None) -> str:
    """`` (did you mean 'X'?)`` for a misspelt ``word``, or ``""``: a known alias first
    (``tool`` for ``tool_name``), else the closest of ``known``."""
    if aliases and word in aliases:
        return f" (did you mean '{aliases[word]}'?)"
    import difflib  # 1.7 ms, only on the way to an error message (bench/README.md, "tricks.py")

    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def edits(a: str, b: str, bound: int) -> int:
    """The optimal-string-alignment distance of ``a`` and ``b`` (insertions, deletions,
    substitutions, swaps of neighbours: ``bsah`` is one edit from ``bash``), or
    ``bound + 1`` as soon as it must exceed ``bound`` (so a long word costs little)."""
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > bound:
            return bound + 1
        before, row = row, current
    return row[-1]


def near_miss(word: str, known: Iterable[str]) -> str | None:
    """The name of ``known`` that ``word`` is most likely a typo of, or None: the same
    but for case, or one edit away (two for names over six letters). Of names as near,
    the one spelt in the same case (``Bahs``: ``Bash``, not ``bash``)."""
    lowered = word.lower()
    best: tuple[int, int, str] | None = None
    for name in known:
        bound = 1 if len(name) <= 6 else 2
        distance = edits(lowered, name.lower(), bound)
        if distance <= bound:
            candidate = (distance, edits(word, name, bound + 2), name)
            best = candidate if best is None else min(best, candidate)
    return None if best is None else best[2]
def json_bytes(value: Any, *, option: int = 0) -> bytes:
    """``value`` as JSON, for a document, a report or a log record of ours.

    A path that is not UTF-8 (Linux paths are bytes; Python reads them with
    surrogateescape) is written with each byte that is not UTF-8 as ``\\xNN``
    (backslashreplace): valid JSON for every reader, never a crash (orjson refuses lone
    surrogates). The exact bytes are in the hooks' environment and in the trust store's
    keys (trust.path_key). Costs nothing until a surrogate is met.
    """
    import orjson

    try:
        return orjson.dumps(value, option=option, default=str)
    except TypeError:
        return orjson.dumps(_text_safe(value), option=option, default=str)


def _text_safe(value: Any) -> Any:
    if isinstance(value, str):
        return shown_path(value)
    if isinstance(value, dict):
        return {_text_safe(k): _text_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_text_safe(v) for v in value]
    return value


def shown_path(text: str) -> str:
    """``text`` with the bytes that are not UTF-8 (surrogates) as ``\\xNN``."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate that no byte made
        return text.encode("utf-8", "backslashreplace").decode("ascii", "replace")
    return raw.decode("utf-8", "backslashreplace")
