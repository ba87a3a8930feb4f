"""Regular expressions compiled on first use.

The guards hold some forty patterns; compiled at import they cost about as much as
importing forge_hookd.config, paid by every run whose config holds a guard entry, while
one event needs a handful (bench/README.md, "Built-in guards: cost"). A pattern here
compiles when first used and then behaves as the compiled one."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator


class Lazy:
    """``re.compile(pattern, flags)``, done on first use."""

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def match(self, text: str, pos: int = 0, endpos: int = 1 << 62) -> re.Match[str] | None:
        return self.compiled.match(text, pos, endpos)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self.compiled.fullmatch(text)

    def search(self, text: str, pos: int = 0, endpos: int = 1 << 62) -> re.Match[str] | None:
        return self.compiled.search(text, pos, endpos)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str) -> str:
        return self.compiled.sub(repl, text)
