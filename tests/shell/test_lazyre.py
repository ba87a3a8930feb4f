"""lazyre.Lazy: a pattern compiled on first use behaves as the compiled one."""

from __future__ import annotations

import re

import pytest

from forge_hookd.shell.lazyre import Lazy

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess


def test_compiles_on_first_use_once() -> None:
    lazy = Lazy(r"(a+)(b)?", re.I)
    assert lazy._compiled is None
    assert lazy.match("AAb") is not None and lazy._compiled is not None
    compiled = lazy.compiled
    assert lazy.compiled is compiled and compiled.flags & re.I


def test_every_method_matches_re() -> None:
    lazy, plain = Lazy(r"\d+"), re.compile(r"\d+")
    text = "a12 b345 c6"
    assert [m.group() for m in lazy.finditer(text)] == [m.group() for m in plain.finditer(text)]
    assert lazy.sub("#", text) == plain.sub("#", text)
    assert lazy.sub(lambda m: m.group() * 2, text) == "a1212 b345345 c66"
    assert lazy.search(text, 4).group() == "345"  # type: ignore[union-attr]
    assert lazy.search(text, 0, 1) is None and lazy.match(text, 1) is not None
    assert lazy.fullmatch("123") is not None and lazy.fullmatch("12a") is None
