"""Secret redaction for the run log: pure functions, no I/O.

Two rules (DESIGN.md, "Run log"):

- **By name**: the value of a key or variable whose name holds ``TOKEN``, ``SECRET``,
  ``PASSWORD``, ``PASSWD``, ``KEY``, ``CREDENTIAL``, ``AUTH`` or ``COOKIE`` (any case)
  is replaced, in structures (``{"api_key": ...}``) and in text (``GITHUB_TOKEN=...``,
  ``password: ...``, ``--token ...``, ``Authorization: ...``).
- **By value**: the values found under such names in the environment, a hook's
  ``env`` or the event's data, wherever else they appear (a hook that prints
  ``$GITHUB_TOKEN`` bare).
- **By shape**: well-known token shapes anywhere in text: ``sk-...``, ``ghp_``/``gho_``/
  ``ghu_``/``ghs_``/``ghr_``/``github_pat_``, ``AKIA...``/``ASIA...``, ``xox[abprs]-...``,
  ``Bearer ...``, PEM private key blocks (also one cut in half), JWTs, and the password
  of a URL (``https://user:PASSWORD@host``).

Two names are exempt because they are common and never secret: ``author`` (it holds
AUTH) and names ending in ``tokens`` (a count: ``llm_tokens``, ``max_tokens``). Numbers
and booleans under a secret name are kept: a token count is not a secret, and a secret
is text.

The patterns are our own: the one well-kept library for this (Yelp's detect-secrets)
scans files line by line through plugins, costs tens of milliseconds to import and
cannot rewrite text, while the log must redact a record in well under a millisecond.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import Any

MASK = "[REDACTED]"

_MARKERS = "TOKEN|SECRET|PASSWORD|PASSWD|KEY|CREDENTIAL|AUTH|COOKIE"
_MARKER_WORDS = tuple(_MARKERS.split("|"))
class _Rule:
    """One pattern, applied only to text holding one of its ``triggers`` (upper-cased)
    and compiled on first need: all of them together cost ~1 ms to compile, a run pays
    only for the rules its record needs, and most records need none (bench/README.md).
    With ``prefix``, group 1 is kept before the mask (``Bearer ``, ``TOKEN=``); a match
    that ``innocent`` accepts is left as it is (the pattern stays simple, so cheap to
    compile, and Python says what it cannot say cheaply)."""

    def __init__(self, triggers: tuple[str, ...], pattern: str, *, prefix: bool = False,
                 innocent: Callable[[re.Match[str]], bool] | None = None) -> None:
        self.triggers = triggers
        self.pattern = pattern
        self.prefix = prefix
        self.innocent = innocent
        self.compiled: re.Pattern[str] | None = None

    def apply(self, text: str, upper: str) -> str:
        if not any(trigger in upper for trigger in self.triggers):
            return text
        if self.compiled is None:
            self.compiled = re.compile(self.pattern, re.VERBOSE | re.DOTALL)
        return self.compiled.sub(self._mask, text)

    def _mask(self, match: re.Match[str]) -> str:
        if self.innocent is not None and self.innocent(match):
            return match.group(0)
        return match.group(1) + MASK if self.prefix else MASK


def _not_a_secret_name(match: re.Match[str]) -> bool:
    return not is_secret_name(match.group(2))


def _not_a_token(match: re.Match[str]) -> bool:
    """What follows a token prefix (up to a character no token holds) is too short, or
    not of the prefix's kind: a word, not a credential."""
    prefix, body = match.group(1), match.group(2)
    if prefix in ("AKIA", "ASIA"):
        key = body[:16]
        return len(key) < 16 or not (key.isalnum() and key.isascii() and key == key.upper())
    if prefix == "eyJ":  # a JWT: header.payload.signature, both base64 JSON
        return ".eyJ" not in body
    return len(body) < (10 if prefix.startswith("xox") else 20)


_NAME = r"[A-Za-z0-9_.-]+"  # any word: _not_a_secret_name tells
_VALUE = r"""(?!\[REDACTED\])(?:"[^"\r\n]*"|'[^'\r\n]*'|"""

_RULES = (
    # A private key block, whole or cut (its head or its tail kept by a bound).
    _Rule(("PRIVATE KEY",), r"""-----BEGIN[A-Z0-9 ]*PRIVATE\ KEY-----(?:.*?-----END[A-Z0-9 ]*PRIVATE\ KEY-----|.*\Z)
                             | \A(?:(?!-----BEGIN).)*?-----END[A-Z0-9 ]*PRIVATE\ KEY-----"""),
    _Rule(("AUTHORIZATION", "COOKIE"), r"""((?i:(?:proxy-)?authorization|(?:set-)?cookie)\s*:\s*)[^\r\n"']+""",
          prefix=True),
    _Rule(("BEARER",), r"((?i:bearer)\s+)[A-Za-z0-9._~+/=-]{16,}", prefix=True),
    _Rule(("://",), r"([a-z][a-z0-9+.-]*://[^/\s:@]+:)[^/\s@]+(?=@)", prefix=True),
    _Rule(("SK-", "GHP_", "GHO_", "GHU_", "GHS_", "GHR_", "GITHUB_PAT_", "AKIA", "ASIA", "XOX", "EYJ"),
          r"(?<![A-Za-z0-9])(sk-|gh[pousr]_|github_pat_|AKIA|ASIA|xox[abprs]-|eyJ)([A-Za-z0-9_.-]+)",
          innocent=_not_a_token),
    # NAME=value, name: value, "name": "value"
    _Rule(_MARKER_WORDS, r"""((?<![A-Za-z0-9_.-])(""" + _NAME + r""")["']?[ \t]*(?:=|:(?!//))[ \t]*)"""
          + _VALUE + r"""[^\s,;&|)}\]]+)""", prefix=True, innocent=_not_a_secret_name),
    # --name value
    _Rule(_MARKER_WORDS, r"""((?<![A-Za-z0-9_.-])--?(""" + _NAME + r""")[ \t]+)""" + _VALUE + r"""[^\s\-]\S*)""",
          prefix=True, innocent=_not_a_secret_name),
)
_names: dict[str, bool] = {}


def is_secret_name(name: str) -> bool:
    """True when ``name`` (a key or a variable) holds one of the secret markers."""
    known = _names.get(name)
    if known is None:
        upper = name.upper()
        known = _names[name] = any(m in upper for m in _MARKER_WORDS) and not _exempt(upper)
    return known


def _exempt(upper: str) -> bool:
    """``author(s)`` as the last word, or a count of ``...tokens``."""
    word = upper.removesuffix("S")
    return upper.endswith("TOKENS") or (
        word.endswith("AUTHOR") and (len(word) == 6 or not word[-7].isalpha()))


def redact_text(text: str) -> str:
    """``text`` with every secret shape and every ``NAME=value`` of a secret name masked."""
    if len(text) < 8:  # no secret shape is this short; most fields end here
        return text
    upper = text.upper()
    for rule in _RULES:
        text = rule.apply(text, upper)
    return text


def secret_values(value: Any, *, secret: bool = False) -> set[str]:
    """The strings held under secret names in ``value`` (an environment, a hook's env,
    event data): a hook may print ``$GITHUB_TOKEN`` bare, where no rule could tell it.
    Values shorter than :data:`MIN_KNOWN` are left out (they would mask common words)."""
    if isinstance(value, str):
        return {value} if secret and len(value) >= MIN_KNOWN else set()
    found: set[str] = set()
    if isinstance(value, dict) or hasattr(value, "items"):
        for k, v in value.items():
            found |= secret_values(v, secret=secret or (isinstance(k, str) and is_secret_name(k)))
    elif isinstance(value, (list, tuple)):
        for v in value:
            found |= secret_values(v, secret=secret)
    return found


MIN_KNOWN = 6


def redact(value: Any, *, secret: bool = False, known: Collection[str] = ()) -> Any:
    """A copy of a JSON-like value with secrets masked: the values of secret-named keys
    (whole, however nested), every ``known`` secret value (see :func:`secret_values`)
    and every secret shape, in any string."""
    if isinstance(value, str):
        if secret and value:
            return MASK
        for known_value in known:
            if known_value in value:
                value = value.replace(known_value, MASK)
        return redact_text(value)
    if isinstance(value, dict):
        return {k: redact(v, secret=secret or (isinstance(k, str) and is_secret_name(k)), known=known)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact(v, secret=secret, known=known) for v in value]
    return value
