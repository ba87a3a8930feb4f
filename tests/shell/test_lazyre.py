"""lazyre.Lazy: a pattern compiled on first use behaves as the compiled one."""

from __future__ import annotations

import gc
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import forge_hookd.guards  # noqa: F401 - every pattern of the pack, for the property below
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


def test_a_text_without_a_needed_literal_is_answered_without_compiling() -> None:
    lazy = Lazy(r"(?:python|pypy)[0-9.]*$", needs=("python", "pypy"))
    assert lazy.match("git") is None and lazy.search("npm") is None and lazy.fullmatch("ls") is None
    assert list(lazy.finditer("node")) == [] and lazy.sub("x", "node") == "node"
    assert lazy._compiled is None
    assert lazy.match("python3.12") is not None and lazy.match("pypy3") is not None and lazy._compiled is not None
    assert lazy.match("python3x") is None  # the literal is there, the pattern still decides


DECLARED = [o for o in gc.get_objects() if isinstance(o, Lazy) and o.needs]


@given(st.text(alphabet="ab*?[]/.~'=", max_size=14))
def test_needs_never_changes_an_answer_of_the_patterns_that_declare_them(text: str) -> None:
    """Every Lazy of the package that declares ``needs`` answers as its plain pattern,
    whatever the text (a literal declared wrongly would hide a match: a guard's miss)."""
    for lazy in DECLARED:
        assert len(DECLARED) >= 4  # the package's: python, pip, forge-hook, git's config parameters
        plain = re.compile(lazy.pattern, lazy.flags)
        for candidate in (text, f"{lazy.needs[0]}{text}", f"{text}{lazy.needs[-1]}3"):
            assert bool(lazy.search(candidate)) == bool(plain.search(candidate)), (lazy.pattern, candidate)
            assert bool(lazy.match(candidate)) == bool(plain.match(candidate)), (lazy.pattern, candidate)
