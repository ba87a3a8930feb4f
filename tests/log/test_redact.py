"""Secret redaction: every name rule and token shape, innocent text left alone, and
time linear in the text (every rule on its worst input at 1 KiB and 1 MiB)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from forge_hookd.log.redact import MASK, is_secret_name, redact, redact_text, secret_values
from helpers import TESTS

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

# Realistic-looking fakes, one per shape (none of them is a live credential).
GHP = "ghp_" + "a1B2c3D4e5" * 3 + "f6G7h8"
SHAPES = {
    "openai": "sk-proj-" + "Ab3dEf6hIj9lMn2pQr5tUv8x",
    "anthropic": "sk-ant-api03-" + "x" * 40,
    "github classic": GHP,
    "github oauth": "gho_" + "Z9y8X7w6V5" * 4,
    "github fine-grained": "github_pat_11ABCDEFG0" + "abcdefghij" * 5,
    "aws": "AKIAIOSFODNN7EXAMPLE",
    "aws session": "ASIAY34FZKBOKMUTVV7A",
    "slack bot": "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "slack user": "xoxp-123456789012-abcdef",
    "slack app": "xoxa-2-abcdefghijkl",
    "slack refresh": "xoxr-1234567890-abc",
    "jwt": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
           "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    # the shapes gitleaks and detect-secrets flag that the log once kept in clear (issue 20)
    "stripe live": "sk_live_51H8x2aBcDeFgHiJkLmNoPqRsTuVwXyZ0123",
    "stripe restricted": "rk_test_4eC39HqLyjWDarjtT1zdp7dc",
    "google api key": "AIzaSyA-1234567890abcdefghijklmnopqrstu",
    "npm": "npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "gitlab pat": "glpat-xYz12-AbCdEfGhIjKlMn",
    "slack app": "xapp-1-A0123BCDEFG-1234567890123-abcdef0123456789abcdef",
    "hugging face": "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh",
    "pypi": "pypi-AgEIcHlwaS5vcmc" + "CJDk4ZjYwZjYyLTk3NWQtNDk1Mi1hNGE5LTFkZjE2ZDlhZmE4ZQ",
    "sendgrid": "SG." + "aBcDeFgHiJkLmNoPqRsTuV" + "." + "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789-_aBcDe",
    "digitalocean": "dop_v1_" + "0123456789abcdef" * 4,
    "vault": "hvs." + "CAESI" + "aB3dE" * 20,
}
PEM = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq98s7d\nQ2fjd83kdf0s9dkf93kd\n"
       "-----END RSA PRIVATE KEY-----")
SECRET_PARTS = [*SHAPES.values(), "MIIEpAIBAAKCAQEA7bq98s7d", "Q2fjd83kdf0s9dkf93kd"]
PGP = ("-----BEGIN PGP PRIVATE KEY BLOCK-----\nComment: forge test key\n\nlQOYBGXfake0BCADc7Hd9w2kQ\n"
       "=Xq9Z\n-----END PGP PRIVATE KEY BLOCK-----")
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
# Text that kept a secret, or part of one, in clear before issue 20: (text, what must go).
IN_CLEAR = {
    "password with spaces": ("DB_PASSWORD=correct horse battery staple", ["correct", "horse", "battery", "staple"]),
    "escaped quote": ('{"password": "pa\\"ss w0rd"}', ["pa\\", "ss w0rd"]),
    "pgp private key": (f"key:\n{PGP}\ndone", ["lQOYBGXfake0BCADc7Hd9w2kQ", "forge test key", "Xq9Z"]),
    "aws credentials csv": ("User name,Password,Access key ID,Secret access key,Console login link\n"
                            f"bob,,AKIAIOSFODNN7EXAMPLE,{AWS_SECRET},https://console.example.com",
                            ["AKIAIOSFODNN7EXAMPLE", AWS_SECRET]),
    "mysql_pwd": ("MYSQL_PWD=Tr0ub4dor mysql -u root", ["Tr0ub4dor"]),
    "passphrase": ("export PASSPHRASE='open sesame'; gpg -d f.gpg", ["open sesame", "sesame"]),
    "curl -u": ("curl -u alice:pa55w0rd https://api.example.com", ["pa55w0rd"]),
    "curl --user quoted": ("curl --user 'alice:pa55 w0rd' https://api.example.com", ["pa55 w0rd", "w0rd"]),
    "db_pass": ("DB_PASS=hunter22x ./migrate", ["hunter22x"]),
    **{name: (f"using {SHAPES[name]} here", [SHAPES[name]]) for name in
       ("stripe live", "google api key", "npm", "gitlab pat", "slack app")},
}
# Common text with no secret that looks a little like one (a scanner's false positives).
INNOCENT = [
    "commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)",
    "request 123e4567-e89b-12d3-a456-426614174000 done",
    "/usr/lib/python3.11/site-packages/forge_hookd/log/redact.py:42: warning",
    "PWD=/home/bob/project OLDPWD=/tmp",
    "tests: pass: 12 fail: 0, bypass=1 compass: north",
    "git push -u origin main && sort -u names.txt",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
]


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_each_token_shape_is_masked_anywhere_in_text(name: str) -> None:
    secret = SHAPES[name]
    out = redact_text(f"step 1 ok\nusing {secret} for the call, then done")
    assert secret not in out
    assert out == f"step 1 ok\nusing {MASK} for the call, then done"


@pytest.mark.parametrize("text", [
    "Authorization: Bearer abcdef0123456789abcdef",
    "curl -H 'authorization: bearer abcdef0123456789abcdef' https://x",
    "token is Bearer abcdef0123456789abcdef.",
])
def test_bearer_credentials_are_masked(text: str) -> None:
    assert "abcdef0123456789abcdef" not in redact_text(text)


@pytest.mark.parametrize("text", [
    f"key:\n{PEM}\nnext line",
    PEM.replace("RSA ", ""),
    PEM.replace("RSA", "OPENSSH"),
    PEM.replace("RSA", "EC"),
    PEM.split("-----END")[0],  # cut before its end (a head kept)
    "EA7bq98s7d\nQ2fjd83kdf0s9dkf93kd\n-----END RSA PRIVATE KEY-----\nafter",  # a tail kept
])
def test_private_key_blocks_are_masked_whole_or_cut(text: str) -> None:
    out = redact_text(text)
    assert "Q2fjd83kdf0s9dkf93kd" not in out
    assert MASK in out


def test_text_around_a_key_block_is_kept() -> None:
    assert redact_text(f"before\n{PEM}\nafter") == f"before\n{MASK}\nafter"


@pytest.mark.parametrize("marker", ["TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "CREDENTIAL",
                                    "AUTH", "COOKIE"])
@pytest.mark.parametrize("form", ["export GH_{m}=hunter2-value", "{m}=hunter2-value",
                                  "my_{l}: hunter2-value", '{{"{l}": "hunter2-value"}}',
                                  "--{l} hunter2-value", "--{l}=hunter2-value", "x-{l}: hunter2-value"])
def test_values_of_secret_names_are_masked_in_text(marker: str, form: str) -> None:
    text = form.format(m=marker, l=marker.lower())
    out = redact_text(text)
    assert "hunter2" not in out, out
    assert MASK in out


@pytest.mark.parametrize("marker", ["TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "CREDENTIAL",
                                    "AUTH", "COOKIE"])
def test_values_of_secret_keys_are_masked_in_structures(marker: str) -> None:
    value = {"tool_args": {f"api_{marker.lower()}": "hunter2", f"X_{marker}": ["a", {"b": "hunter2"}],
                           "command": "ls"}}
    out = redact(value)
    assert "hunter2" not in repr(out) and "'a'" not in repr(out)
    assert out["tool_args"]["command"] == "ls"


def test_a_url_password_is_masked() -> None:
    assert redact_text("git clone https://bob:pa55word@example.com/r.git") == \
        f"git clone https://bob:{MASK}@example.com/r.git"
    assert redact_text("https://x-access-token:abc123def@github.com/o/r") == \
        f"https://x-access-token:{MASK}@github.com/o/r"  # the host stays readable


@pytest.mark.parametrize("name", sorted(IN_CLEAR))
def test_what_the_log_kept_in_clear_is_masked(name: str) -> None:
    text, secrets = IN_CLEAR[name]
    out = redact_text(text)
    assert MASK in out
    for secret in secrets:
        assert secret not in out, out


@pytest.mark.parametrize(("text", "expected"), [
    ("DB_PASSWORD=correct horse battery staple", f"DB_PASSWORD={MASK}"),
    ('{"password": "pa\\"ss w0rd", "user": "bob"}', f'{{"password": "{MASK}", "user": "bob"}}'),
    ("export TOKEN=abc123; git push", f"export TOKEN={MASK}; git push"),
    ("https://x/?access_token=abc123&page=2", f"https://x/?access_token={MASK}&page=2"),
    ("deploy --token abc123 --verbose", f"deploy --token {MASK} --verbose"),
    ("deploy --token --verbose", "deploy --token --verbose"),  # no value: the next flag
    ("password: 'unterminated value\nnext line", f"password: '{MASK}\nnext line"),
])
def test_where_a_named_value_ends(text: str, expected: str) -> None:
    assert redact_text(text) == expected


@pytest.mark.parametrize("text", INNOCENT)
def test_shas_uuids_paths_and_pwd_are_not_secrets(text: str) -> None:
    assert redact_text(text) == text


@pytest.mark.parametrize("text", [
    "git push origin main",
    "ls -la /tmp && echo done | wc -l",
    "Blocked: sudo not allowed",
    "the author: Ada Lovelace",
    "press any key to continue",
    "llm_tokens=1234 max_tokens: 4096",
    "the bearer of bad news arrived yesterday",
    "see https://example.com:8080/path?q=1",
    "task-force-alpha scikit-learn sk-learn",
    "AKIA is not a key on its own",
    "python -m pytest -q tests/test_x.py::test_y",
    "2026-11-22T08:54:31Z: 3 hooks ran in 0.012 s",
    "",
    "short",
])
def test_innocent_text_is_untouched(text: str) -> None:
    assert redact_text(text) == text


def test_innocent_structures_are_untouched_and_numbers_under_secret_names_kept() -> None:
    value = {"tool_name": "bash", "tool_args": {"command": "git push", "timeout": 5},
             "llm_tokens": 120, "author": "Ada", "keys": True, "message_count": 3, "none": None}
    assert redact(value) == value


@pytest.mark.parametrize(("name", "secret"), [
    ("GITHUB_TOKEN", True), ("api_key", True), ("apiKey", True), ("db_password", True),
    ("PASSWD", True), ("aws_secret_access_key", True), ("Authorization", True), ("cookie", True),
    ("credentials", True), ("MYSQL_PWD", True), ("PASSPHRASE", True), ("DB_PASS", True), ("dbPass", True),
    ("aws_creds", True), ("PWD", False), ("OLDPWD", False), ("pass", False), ("bypass", False),
    ("compass", False), ("author", False), ("git_author", False), ("llm_tokens", False),
    ("max_tokens", False), ("command", False), ("tool_args", False), ("FORGE_EVENT", False),
])
def test_secret_names(name: str, secret: bool) -> None:
    assert is_secret_name(name) is secret


def test_redaction_is_idempotent() -> None:
    once = redact_text(f"TOKEN={GHP} and {PEM}")
    assert redact_text(once) == once


def test_known_secret_values_are_masked_wherever_they_appear_bare() -> None:
    env = {"GITHUB_TOKEN": "plainvalue42", "HOME": "/root", "PIN_KEY": "abc", "nested": {"api_key": "zz9zz9zz"}}
    known = secret_values(env)
    assert known == {"plainvalue42", "zz9zz9zz"}  # "abc" is too short to mask safely
    out = redact({"stdout": "got plainvalue42 and zz9zz9zz; home is /root"}, known=sorted(known))
    assert out == {"stdout": f"got {MASK} and {MASK}; home is /root"}


@pytest.mark.parametrize("text", ["sk-short", "ghp_tooShort", "AKIAlowercase0000000", "eyJustAWord.here",
                                  "xoxb-1", "github_pat_short"])
def test_token_prefixes_without_a_token_body_are_left_alone(text: str) -> None:
    assert redact_text(f"see {text} here") == f"see {text} here"


# -- linear time -----------------------------------------------------------------------
# The worst input of each rule: (unit, head), the unit repeated after the head to a size.
# Each made a rule of old look at a long run again from each of its characters.
WORST: dict[str, tuple[str, str]] = {
    "key: END marks": ("-----END ", "PRIVATE KEY "),
    "key: BEGIN marks": ("-----BEGIN PRIVATE KEY-----", ""),
    "key: type words": ("-----BEGIN A ", "PRIVATE KEY "),
    "key: dashes": ("-", "PRIVATE KEY "),
    "key: END without dashes": ("\n-----END RSA PRIVATE KEY", ""),
    "aws pairs": ("AKIAAAAAAAAAAAAAAAAA,", ""),
    "token prefixes": ("sk-", ""),
    "token body": ("a", "ghp_"),
    "jwt halves": ("eyJa.", ""),
    "bearer words": ("bearer ", ""),
    "url: a scheme run": ("a", "x://y:z "),  # the :// comes first: a trigger, not a match
    "url: colons": ("b:", "a://"),
    "url: schemes": ("a://", ""),
    "curl: flags": ("-u ", "curl "),
    "curl: a user run": ("a", "curl -u "),
    "slack hooks": ("hooks.slack.com/services/", ""),
    "telegram": ("12345:A", ""),
    "mailchimp": ("0123456789abcdef", "-us1 "),
    "name: a long word": ("a", "TOKEN "),
    "name: markers": ("token", ""),
    "name: empty values": ("key= ", ""),
    "name: flag dashes": ("-", "--key "),
    "name: a marker in a long word": ("akey", ""),
    "name: backslashes": ("\\", 'TOKEN="'),
    "name: escaped quotes": ("\\'", "TOKEN='"),
    "name: heads": ("x_token: ", ""),
}


def worst(name: str, size: int) -> str:
    unit, head = WORST[name]
    return head + unit * (size // len(unit))


_LINEAR_PROBE = """
import sys
sys.path[:0] = [{tests!r}, {log!r}]
from forge_hookd.log.redact import redact_text
from test_redact import WORST, worst
for name in WORST:
    for size in ({small}, {large}):
        redact_text(worst(name, size))
    print(name, flush=True)
"""


def test_every_rule_takes_linear_time_on_its_worst_input() -> None:
    """Each rule's worst input at 1 KiB and at 1 MiB (1000x), in a child with a cap.

    No clock is read: at 1 MiB a quadratic rule does about a million times the work of
    1 KiB (the URL rule of old: about an hour; bench/README.md), a linear one a
    thousand times (about a second for all of them together on a loaded 2-core
    machine). The cap sits between the two by orders of magnitude, so load cannot make
    this fail, and a quadratic rule cannot pass; the rule that hangs is named."""
    probe = _LINEAR_PROBE.format(tests=str(TESTS), log=str(TESTS / "log"), small=1024, large=1024 * 1024)
    proc = subprocess.Popen([sys.executable, "-c", probe], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    done = out.split("\n")[:-1]
    hung = [name for name in WORST if name not in done][:1]
    assert proc.returncode == 0 and not hung, f"not linear: still redacting {hung} after 300 s {err[-2000:]}"
