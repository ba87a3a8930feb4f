"""Regular expressions compiled on first use.

The guards hold some forty patterns; compiled at import they cost about as much as
importing forge_hookd.config, paid by every run whose config holds a guard entry, while
one event needs a handful (bench/README.md, "Built-in guards: cost"). A pattern here
compiles when first used and then behaves as the compiled one."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator


class Lazy:
    """``re.compile(pattern, flags)``, done on first use. ``needs``: literals of which
    every match holds one (``python`` or ``pypy`` for ``(?:python|pypy)[0-9.]*$``): a text
    that holds none of them cannot match, and is answered without compiling (with the
    glob splitter of guards/base.py, 1.75 M of the 40 M instructions the pack adds to a
    cold run of bench/guard_run.py's event; bench/README.md, "The pack's cold cost, stage by stage")."""

    __slots__ = ("pattern", "flags", "needs", "_compiled")

    def __init__(self, pattern: str, flags: int = 0, *, needs: tuple[str, ...] = ()) -> None:
        self.pattern = pattern
        self.flags = flags
        self.needs = needs
        self._compiled: re.Pattern[str] | None = None

    def _cannot(self, text: str) -> bool:
        return bool(self.needs) and not any(literal in text for literal in self.needs)

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def match(self, text: str, pos: int = 0, endpos: int = 1 << 62) -> re.Match[str] | None:
        return None if self._cannot(text) else self.compiled.match(text, pos, endpos)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return None if self._cannot(text) else self.compiled.fullmatch(text)

    def search(self, text: str, pos: int = 0, endpos: int = 1 << 62) -> re.Match[str] | None:
        return None if self._cannot(text) else self.compiled.search(text, pos, endpos)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return iter(()) if self._cannot(text) else self.compiled.finditer(text)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str) -> str:
        return text if self._cannot(text) else self.compiled.sub(repl, text)
