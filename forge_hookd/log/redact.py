"""Secret redaction for the run log: pure functions, no I/O.

Three rules (DESIGN.md, "Run log"):

- **By name**: the value of a key or variable whose name holds ``TOKEN``, ``SECRET``,
  ``PASSWORD``, ``PASSWD``, ``PASSPHRASE``, ``PWD``, ``KEY``, ``CREDENTIAL``, ``CREDS``,
  ``AUTH`` or ``COOKIE`` (any case), or ends in a ``_PASS`` word, is replaced, in
  structures (``{"api_key": ...}``) and in text (``GITHUB_TOKEN=...``, ``password: ...``,
  ``--token ...``, ``Authorization: ...``). In text a quoted value is masked to its
  closing quote (escaped quotes included: ``"pa\\"ss w0rd"``), an unquoted one after
  ``=`` or ``:`` to the end of its line (``DB_PASSWORD=correct horse battery staple``:
  a .env file or YAML value holds spaces), stopping at a quote, ``;``, ``&``, ``|`` or
  ``, ``; the value of a ``--flag`` is one word.
- **By value**: the values found under such names in the environment, a hook's
  ``env`` or the event's data, wherever else they appear (a hook that prints
  ``$GITHUB_TOKEN`` bare).
- **By shape**: the token shapes that gitleaks' and detect-secrets' rule sets flag
  (see ``_TOKENS``: OpenAI/Anthropic, Stripe, GitHub, GitLab, Slack, AWS, Google, npm,
  PyPI, Hugging Face, SendGrid, Vault, ...), JWTs, ``Bearer ...``, PEM and PGP private
  key blocks (also one cut in half), the password of a URL (``https://user:PW@host``),
  ``curl -u user:PW``, and an AWS secret access key right beside its key id (a
  credentials CSV: ``AKIA...,wJalr...``).

Names exempt because they are common and never secret: ``author`` (it holds AUTH),
names ending in ``tokens`` (a count: ``llm_tokens``, ``max_tokens``), ``PWD`` and
``OLDPWD`` (the shell's working directory). Numbers and booleans under a secret name
are kept in structures: a token count is not a secret, and a secret is text.

**Linear time.** Redaction reads every field of every record before the run ends, so
no pattern may backtrack over what it read from each start position (the URL rule of
old took an hour on 1 MiB). Each pattern here either starts only at a word start (a
lookbehind that fails inside a run of the characters it then scans) and scans one run,
or is bounded; the name rule finds heads with a regex and measures values with ``str``
methods, always moving forward. tests/log/test_redact.py runs every rule at 1 MiB on its
worst input; bench/README.md has the figures.

The patterns are our own (the rule sets above were read for the list of shapes: their
patterns are not copied): detect-secrets scans files line by line through plugins,
costs tens of milliseconds to import and cannot rewrite text, while the log must redact
a record in well under a millisecond.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import Any

MASK = "[REDACTED]"

_MARKER_WORDS = ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "PWD", "KEY", "CREDENTIAL", "CREDS",
                 "AUTH", "COOKIE")


class _Rule:
    """One pattern, applied only to text holding one of its ``triggers`` (upper-cased)
    and compiled on first need: a run pays only for the rules its record needs, and
    most records need none (bench/README.md). What a match masks: its groups named
    ``s``, ``s1``, ``s2`` ... (the rest is kept), else the whole match. A match that
    ``innocent`` accepts, or whose secret is already the mask, is left as it is."""

    def __init__(self, triggers: tuple[str, ...], pattern: str, *,
                 innocent: Callable[[re.Match[str]], bool] | None = None) -> None:
        self.triggers = triggers
        self.pattern = pattern
        self.innocent = innocent
        self.compiled: re.Pattern[str] | None = None
        self._secrets: tuple[str, ...] = ()

    def apply(self, text: str, upper: str) -> str:
        if not any(trigger in upper for trigger in self.triggers):
            return text
        return self._compile().sub(self._mask, text)

    def _compile(self) -> re.Pattern[str]:
        if self.compiled is None:
            self.compiled = re.compile(self.pattern, re.VERBOSE | re.DOTALL)
            self._secrets = tuple(g for g in self.compiled.groupindex if g[0] == "s")
        return self.compiled

    def _mask(self, match: re.Match[str]) -> str:
        if self.innocent is not None and self.innocent(match):
            return match.group(0)
        spans = sorted(match.span(g) for g in self._secrets if match.start(g) >= 0)
        if not spans:
            return MASK
        text, pos, out = match.string, match.start(), []
        for start, end in spans:
            if text[start:end] == MASK:
                continue
            out += [text[pos:start], MASK]
            pos = end
        return "".join(out) + text[pos:match.end()]


# A private key block, whole or cut (its head or its tail kept by a bound): PEM
# (RSA, EC, OPENSSH, ENCRYPTED ...), PGP armour (``... PRIVATE KEY BLOCK-----``) and
# SSH2's four dashes. The type word is bounded so a run of dashes costs little.
_KEY_MARK = r"-{4,5}\ ?%s[A-Z0-9\ ]{0,40}PRIVATE\ KEY(?:\ BLOCK)?\ ?-{4,5}"
_PRIVATE_KEY = (f"{_KEY_MARK % 'BEGIN'}(?:.*?{_KEY_MARK % 'END'}|.*\\Z)"
                f"|\\A(?:(?!-{{4,5}}\\ ?BEGIN).)*?{_KEY_MARK % 'END'}")

# Token shapes by their fixed prefix (gitleaks' config/gitleaks.toml and detect-secrets'
# plugins list them; the bodies' lengths are the documented ones, as minimums). One
# branch each: the regex engine tests a branch's first character before entering it.
_TOKENS = r"""(?<![A-Za-z0-9_-])(?:
      sk-[A-Za-z0-9_-]{20,}                                     # OpenAI, Anthropic
    | [sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,} | whsec_[A-Za-z0-9+/=]{20,}   # Stripe
    | gh[pousr]_[A-Za-z0-9_]{20,} | github_pat_[A-Za-z0-9_]{20,}             # GitHub
    | (?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])          # AWS key id
    | xox[abposre]-[A-Za-z0-9-]{10,} | xoxe\.xox[bp]-[A-Za-z0-9-]{10,} | xapp-[A-Za-z0-9-]{10,}  # Slack
    | AIza[A-Za-z0-9_-]{35}                                     # Google API key
    | npm_[A-Za-z0-9]{36}                                       # npm
    | gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-[A-Za-z0-9_-]{20,} | GR1348941[A-Za-z0-9_-]{20,}  # GitLab
    | glc_[A-Za-z0-9+/]{32,} | glsa_[A-Za-z0-9_]{32,}            # Grafana
    | hf_[A-Za-z0-9]{30,}                                       # Hugging Face
    | pypi-AgE[A-Za-z0-9_-]{50,}                                # PyPI
    | SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}                  # SendGrid
    | do[opr]_v1_[a-f0-9]{64}                                   # DigitalOcean
    | shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}                        # Shopify
    | hv[sb]\.[A-Za-z0-9_-]{90,}                                # HashiCorp Vault
    | dapi[a-f0-9]{32}                                          # Databricks
    | lin_api_[A-Za-z0-9]{40}                                   # Linear
    | rubygems_[a-f0-9]{48}                                     # RubyGems
    | sntry[su]_[A-Za-z0-9+/=_-]{40,}                           # Sentry
    | pscale_(?:pw|tkn|oauth)_[A-Za-z0-9=._-]{32,}              # PlanetScale
    | dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}          # Doppler
    | AGE-SECRET-KEY-1[0-9A-Z]{58}                              # age
    | sq0(?:csp|atp)-[A-Za-z0-9_-]{22,}                         # Square
    | ATATT3[A-Za-z0-9_=-]{100,}                                # Atlassian
    | AKCp[A-Za-z0-9]{60,}                                      # Artifactory
    | ops_eyJ[A-Za-z0-9+/=]{100,}                               # 1Password service account
    | eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)? # a JWT: header.payload.signature
)"""
_TOKEN_TRIGGERS = ("SK-", "SK_", "RK_", "WHSEC_", "GHP_", "GHO_", "GHU_", "GHS_", "GHR_", "GITHUB_PAT_",
                   "AKIA", "ASIA", "ABIA", "ACCA", "A3T", "XOX", "XAPP-", "AIZA", "NPM_", "GLPAT-", "GLDT-",
                   "GLFT-", "GLSOAT-", "GLRT-", "GLCBT-", "GLIMT-", "GLPTT-", "GLAGENT-", "GLOAS-", "GR1348941",
                   "GLC_", "GLSA_", "HF_", "PYPI-", "SG.", "_V1_", "SHP", "HVS.", "HVB.", "DAPI", "LIN_API_",
                   "RUBYGEMS_", "SNTRY", "PSCALE_", "DP.", "AGE-SECRET-KEY-", "SQ0", "ATATT3", "AKCP", "OPS_",
                   "EYJ")

_RULES_BY_SHAPE = (
    _Rule(("PRIVATE KEY",), _PRIVATE_KEY),
    # An AWS secret access key right after its key id (a credentials CSV); before the
    # id itself is masked. 40 base64 characters alone would also be a git sha.
    _Rule(("AKIA", "ASIA", "ABIA", "ACCA"),
          r"""(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}[\ \t,;:|"'=]{1,6}
              (?P<s>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"""),
    _Rule(_TOKEN_TRIGGERS, _TOKENS),
    _Rule(("BEARER",), r"(?<![A-Za-z0-9])(?i:bearer)[ \t]+(?P<s>[A-Za-z0-9._~+/=-]{16,})"),
    # scheme://user:PASSWORD@host; the scheme starts a word and is short, so a long run
    # of letters before :// is looked at once, not from each of its letters.
    _Rule(("://",), r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}://[^/\s:@]*:(?P<s>[^/\s@]+)@"),
    # curl -u user:PASSWORD, --user user:PASSWORD, -uuser:PASSWORD, quoted or not
    _Rule(("CURL",), r"""(?<![A-Za-z0-9_-])(?:-u[\ \t]*|--user(?:[\ \t]+|=))
          (?:'[^':\r\n]*:(?P<s1>[^'\r\n]+)'|"[^":\r\n]*:(?P<s2>[^"\r\n]+)"|[^\s:'"]+:(?P<s3>[^\s'"]+))"""),
    _Rule(("HOOKS.SLACK.COM",), r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9+/_]{20,})"),
    _Rule((":A",), r"(?<![0-9])[0-9]{5,16}:(?P<s>A[A-Za-z0-9_-]{34})(?![A-Za-z0-9_-])"),  # Telegram bot
    _Rule(("-US",), r"(?<![0-9a-f])[0-9a-f]{32}-us[0-9]{1,2}(?![0-9])"),  # Mailchimp
)


class _NameRule(_Rule):
    """``NAME=value``, ``name: value``, ``"name": "value"``, ``--name value``: a regex
    finds the heads whose name holds a marker (it starts only at a word start and scans
    that word), :func:`is_secret_name` decides, and ``str`` methods measure the value;
    the search goes on after it. Each character is looked at a bounded number of times."""

    _MARKERS = "TOKEN|SECRET|PASS|PWD|KEY|CRED|AUTH|COOKIE"

    def __init__(self) -> None:
        lookahead = rf"(?=[A-Za-z0-9_.-]*?(?i:{self._MARKERS}))"
        super().__init__(tuple(self._MARKERS.split("|")), rf"""(?<![A-Za-z0-9_.-])(?:
            (?P<name>{lookahead}[A-Za-z0-9_.-]+)["']?[\ \t]*(?:=|:(?!//))[\ \t]*
          | --?(?P<flag>{lookahead}[A-Za-z0-9_.-]+)[\ \t]+)""")

    def apply(self, text: str, upper: str) -> str:
        if not any(trigger in upper for trigger in self.triggers):
            return text
        heads = self._compile()
        out: list[str] = []
        kept = pos = 0
        while (head := heads.search(text, pos)) is not None:
            pos = head.end()
            name, flag = head.group("name") or "", head.group("flag")
            if not is_secret_name((flag or name).lstrip("-")) or text.endswith("://", 0, head.start()):
                continue  # not a secret name, or a URL's user (the URL rule masked its password)
            start, end = _value_span(text, pos, word=flag is not None or name.startswith("-"))
            if start < end and text[start:end] != MASK:
                out += [text[kept:start], MASK]
                kept = end
            pos = max(pos, end)
        return "".join(out) + text[kept:] if out else text


_QUOTES = "\"'`"
_LINE_VALUE_END = re.compile(r"""[\r\n"'`;&|]|,(?=\s)""")
_WORD_END = re.compile(r"\s")


def _value_span(text: str, start: int, *, word: bool) -> tuple[int, int]:
    """Where the value that starts at ``start`` is: inside its quotes; else one word
    (``word``: a flag's value; none when it looks like the next flag) or the rest of the
    line up to a quote, ``;``, ``&``, ``|`` or ``, ``, without trailing blanks."""
    if start >= len(text):
        return start, start
    if text[start] in _QUOTES:
        return start + 1, _closing_quote(text, start)
    if word and text[start] == "-":
        return start, start
    found = (_WORD_END if word else _LINE_VALUE_END).search(text, start)
    end = found.start() if found else len(text)
    while end > start and text[end - 1] in " \t":
        end -= 1
    return start, end


def _closing_quote(text: str, start: int) -> int:
    """The index of the quote that closes the one at ``start`` (a backslash escapes);
    the end of the line when none does (a value cut or broken)."""
    quote, pos = text[start], start + 1
    while (found := text.find(quote, pos)) >= 0:
        backslashes = found - 1
        while backslashes > start and text[backslashes] == "\\":
            backslashes -= 1
        if (found - 1 - backslashes) % 2 == 0:
            return found
        pos = found + 1
    line_end = text.find("\n", start)
    return len(text) if line_end < 0 else line_end


_RULES = (*_RULES_BY_SHAPE, _NameRule())
_names: dict[str, bool] = {}


def is_secret_name(name: str) -> bool:
    """True when ``name`` (a key or a variable) holds one of the secret markers."""
    known = _names.get(name)
    if known is None:
        upper = name.upper()
        known = _names[name] = (any(m in upper for m in _MARKER_WORDS) and not _exempt(upper)
                                or _ends_in_pass(name))
    return known


def _exempt(upper: str) -> bool:
    """``author(s)`` as the last word, a count of ``...tokens``, the shell's ``PWD``."""
    word = upper.removesuffix("S")
    return upper.endswith("TOKENS") or upper in ("PWD", "OLDPWD") or (
        word.endswith("AUTHOR") and (len(word) == 6 or not word[-7].isalpha()))


def _ends_in_pass(name: str) -> bool:
    """``DB_PASS``, ``smtp-pass``, ``dbPass``: a last word ``pass`` (not ``pass`` alone,
    a count of passed tests, nor ``bypass``)."""
    if len(name) < 5 or name[-4:].upper() != "PASS":
        return False
    before = name[-5]
    return before in "_.-" or (name[-4] == "P" and before.islower())


def redact_text(text: str) -> str:
    """``text`` with every secret shape and every ``NAME=value`` of a secret name masked,
    in time linear in its length."""
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
        # a text shorter than a known secret and than any shape, outside a secret, is kept without
        # a call: 56 of the 99 texts of a record of thirteen guard results (`""`, `allow`)
        return {k: v if v.__class__ in _SCALARS or v.__class__ is str and len(v) < MIN_KNOWN and not secret
                and not (isinstance(k, str) and is_secret_name(k))
                else redact(v, secret=secret or (isinstance(k, str) and is_secret_name(k)), known=known)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [v if v.__class__ in _SCALARS or v.__class__ is str and len(v) < MIN_KNOWN and not secret
                else redact(v, secret=secret, known=known) for v in value]
    return value


#: What redaction gives back as it is, seen without a call: half the values of a run record
#: (a record of thirteen guard results holds 258 values, 129 of them these).
_SCALARS = frozenset({type(None), bool, int, float})
