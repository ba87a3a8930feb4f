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
from collections.abc import Collection
from typing import Any

MASK = "[REDACTED]"

_MARKERS = "TOKEN|SECRET|PASSWORD|PASSWD|KEY|CREDENTIAL|AUTH|COOKIE"
_MARKER_WORDS = tuple(_MARKERS.split("|"))
# A name holding a marker, as a word of text: ``API_KEY``, ``x-auth-token``, ``password``.
_NAME = rf"[A-Za-z0-9_.-]*(?i:{_MARKERS})[A-Za-z0-9_.-]*"
_VALUE = r"""(?!\[REDACTED\])(?:"[^"\r\n]*"|'[^'\r\n]*'|"""


class _Rule:
    """One pattern, applied only to text holding one of its ``triggers`` (upper-cased)
    and compiled on first need: all of them together cost ~1 ms to compile, a run pays
    only for the rules its record needs, and most records need none (bench/README.md).
    Group 1, when there is one, is kept before the mask (``Bearer ``, ``TOKEN=``)."""

    def __init__(self, triggers: tuple[str, ...], pattern: str, *, named: bool = False) -> None:
        self.triggers = triggers
        self.pattern = pattern
        self.named = named  # group 2 is a name: mask only when it is a secret name
        self.compiled: re.Pattern[str] | None = None

    def apply(self, text: str, upper: str) -> str:
        if not any(trigger in upper for trigger in self.triggers):
            return text
        if self.compiled is None:
            self.compiled = re.compile(self.pattern, re.VERBOSE | re.DOTALL)
        return self.compiled.sub(self._mask, text)

    def _mask(self, match: re.Match[str]) -> str:
        if self.named and not is_secret_name(match.group(2)):
            return match.group(0)
        return (match.group(1) or "") + MASK if match.re.groups else MASK


_RULES = (
    # A private key block, whole or cut (its head or its tail kept by a bound).
    _Rule(("PRIVATE KEY",), r"""-----BEGIN[A-Z0-9 ]*PRIVATE\ KEY-----(?:.*?-----END[A-Z0-9 ]*PRIVATE\ KEY-----|.*\Z)
                             | \A(?:(?!-----BEGIN).)*?-----END[A-Z0-9 ]*PRIVATE\ KEY-----"""),
    _Rule(("AUTHORIZATION", "COOKIE"), r"""((?i:(?:proxy-)?authorization|(?:set-)?cookie)\s*:\s*)[^\r\n"']+"""),
    _Rule(("BEARER",), r"((?i:bearer)\s+)[A-Za-z0-9._~+/=-]{16,}"),
    _Rule(("://",), r"([a-z][a-z0-9+.-]*://[^/\s:@]+:)[^/\s@]+(?=@)"),
    _Rule(("SK-", "GHP_", "GHO_", "GHU_", "GHS_", "GHR_", "GITHUB_PAT_", "AKIA", "ASIA", "XOX", "EYJ"),
          r"""(?<![A-Za-z0-9])(?:
                sk-[A-Za-z0-9_-]{20,}
              | gh[pousr]_[A-Za-z0-9]{20,}
              | github_pat_[A-Za-z0-9_]{20,}
              | (?:AKIA|ASIA)[0-9A-Z]{16}
              | xox[abprs]-[A-Za-z0-9-]{10,}
              | eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*)"""),
    # NAME=value, name: value, "name": "value"
    _Rule(_MARKER_WORDS, r"""((?<![A-Za-z0-9_.-])(""" + _NAME + r""")["']?[ \t]*(?:=|:(?!//))[ \t]*)"""
          + _VALUE + r"""[^\s,;&|)}\]]+)""", named=True),
    # --name value
    _Rule(_MARKER_WORDS, r"""((?<![A-Za-z0-9_.-])--?(""" + _NAME + r""")[ \t]+)""" + _VALUE + r"""[^\s\-]\S*)""",
          named=True),
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
