"""Secret redaction: every name rule and token shape, and innocent text left alone."""

from __future__ import annotations

import pytest

from forge_hookd.redact import MASK, is_secret_name, redact, redact_text, secret_values

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
}
PEM = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq98s7d\nQ2fjd83kdf0s9dkf93kd\n"
       "-----END RSA PRIVATE KEY-----")
SECRET_PARTS = [*SHAPES.values(), "MIIEpAIBAAKCAQEA7bq98s7d", "Q2fjd83kdf0s9dkf93kd"]


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
    ("credentials", True), ("author", False), ("git_author", False), ("llm_tokens", False),
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
