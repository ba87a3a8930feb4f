"""Hostile input never crashes: property tests of the parser, a fuzz loop of the executable."""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import Project, installed
from forge_hookd.errors import EventError
from forge_hookd.events import EVENT_TYPES, HookEvent

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
events = st.fixed_dictionaries(
    {"type": st.sampled_from(sorted(EVENT_TYPES))},
    optional={"timestamp": st.floats(allow_nan=False, allow_infinity=False) | st.integers(-2**53, 2**53),
              "data": st.dictionaries(st.text(max_size=12), json_values, max_size=6),
              "tool_name": st.none() | st.text(), "session_id": st.none() | st.text()},
)


@given(st.binary(max_size=300))
def test_random_bytes_are_an_event_or_an_event_error(raw: bytes) -> None:
    try:
        event = HookEvent.from_json(raw)
    except EventError as exc:
        assert exc.message
    else:  # whatever is accepted is an event that writes and reads back the same
        assert HookEvent.from_json(event.to_json()) == event


@given(events)
def test_valid_events_round_trip_and_make_a_safe_environment(obj: dict[str, Any]) -> None:
    event = HookEvent.from_json(json.dumps(obj))
    assert HookEvent.from_json(event.to_json()) == event
    for name, value in event.to_env().items():
        assert "\0" not in value and "\n" not in value and len(value) <= 8192
        assert name.replace("_", "").isalnum()


@given(events, st.data())
def test_mutated_events_are_refused_or_accepted_never_crash(obj: dict[str, Any], data: st.DataObject) -> None:
    mutation = data.draw(st.sampled_from(["extra", "type", "wrong", "drop", "nest"]))
    key = data.draw(st.sampled_from(["type", "timestamp", "data", "tool_name", "session_id"]))
    if mutation == "extra":
        obj[data.draw(st.text(min_size=1, max_size=10))] = data.draw(json_values)
    elif mutation == "type":
        obj["type"] = data.draw(st.text(max_size=20))
    elif mutation == "wrong":
        obj[key] = data.draw(json_values)
    elif mutation == "drop":
        obj.pop(key, None)
    else:
        obj["data"] = {"deep": json.loads("[" * 200 + "]" * 200)}
    try:
        event = HookEvent.from_dict(obj)
    except EventError as exc:
        assert exc.message
    else:  # accepted: a well-formed event, whatever the mutation left
        assert HookEvent.from_json(event.to_json()) == event


@pytest.mark.parametrize(("raw", "why"), [
    (b"[" * 100_000, "depth limit exceeded"),
    (b'{"type": "session:start", "timestamp": 1' + b"0" * 5000 + b"}", "number is infinity"),
    (b'{"type": "session:start", "data": {"a": "\\ud800"}}', "no low surrogate"),
    (b"\x00", "unexpected character"),
    (b'{"type":"session:start"}\x00', "unexpected content after document"),
], ids=["deep", "huge-number", "lone-surrogate", "nul", "trailing-nul"])
def test_pathological_json_is_refused(raw: bytes, why: str) -> None:
    with pytest.raises(EventError, match=f"^invalid event JSON: {why}"):
        HookEvent.from_json(raw)


def _mutate(rng: random.Random, seed_docs: list[bytes]) -> bytes:
    doc = bytearray(rng.choice(seed_docs))
    for _ in range(rng.randint(0, 6)):
        op = rng.randint(0, 3)
        pos = rng.randint(0, len(doc)) if doc else 0
        if op == 0 and doc:
            doc[min(pos, len(doc) - 1)] = rng.randint(0, 255)
        elif op == 1:
            doc[pos:pos] = rng.choice([b"{", b"}", b'"', b"\\u0000", b"\xff", b"\\ud800", b"1e999", b",", b"[]"])
        elif op == 2 and doc:
            del doc[pos:pos + rng.randint(1, 8)]
        else:
            doc += rng.randbytes(rng.randint(1, 16))
    return bytes(doc)


def test_fuzz_loop_through_the_executable(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "*", "command": "cat >/dev/null; echo ok"}])
    seed = int(os.environ.get("FORGE_FUZZ_SEED", random.randrange(2**32)))
    rng = random.Random(seed)
    seeds = [orjson.dumps({"type": "tool:pre_execute", "tool_name": "bash", "data": {"tool_args": {"command": "ls"}}}),
             orjson.dumps({"type": "session:start", "session_id": "s", "timestamp": 1.5}),
             b'{"type":"user:prompt_submit","data":{"user_input":"hi\\u0000there"}}']
    runner = installed("forge-hook-run")
    for _ in range(int(os.environ.get("FORGE_FUZZ_RUNS", "120"))):
        raw = _mutate(rng, seeds)
        proc = subprocess.run([runner], cwd=project.root, input=raw, capture_output=True, timeout=30)
        context = f"seed={seed} input={raw!r}"
        assert proc.returncode in (0, 2), context
        doc = json.loads(proc.stdout)
        assert doc["version"] == 1, context
        assert (proc.returncode == 2) == ("error" in doc), context
        assert b"Traceback" not in proc.stderr, context


entries = st.dictionaries(st.sampled_from(["event", "command", "timeout", "working_dir", "env", "enabled",
                                           "detach", "description", "extra"]),
                          json_values | st.text(alphabet=st.characters(codec="utf-8")), max_size=8)


# Characters that matter to a shell, to execve and to JSON, more often than chance would.
tricky = st.text(alphabet="ab $;'\"\\\n\t\0\x7fé", min_size=1, max_size=20) | st.text(min_size=1, max_size=20)
well_formed = st.fixed_dictionaries(
    {"event": tricky, "command": tricky},
    optional={"working_dir": tricky, "timeout": st.floats(allow_nan=False, allow_infinity=False),
              "env": st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=3)})


@given(st.lists(well_formed | entries | json_values, max_size=5), st.booleans())
def test_any_config_loads_or_warns_never_raises(hooks: list[object], wrap: bool) -> None:
    import tempfile
    from pathlib import Path

    from forge_hookd.config import load_file

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hooks.json"
        path.write_text(json.dumps({"hooks": hooks} if wrap else hooks))
        loaded = load_file(path)
    assert all(h.command and "\0" not in h.command for h in loaded.hooks)
    assert len(loaded.hooks) <= len(hooks)


def test_a_key_with_a_newline_is_still_one_line_on_stderr(project: Project) -> None:
    done = subprocess.run([installed("forge-hook-run")], input=b'{"type": "session:start", "a\\nb\\rc": 1}',
                          capture_output=True, cwd=project.root, timeout=60)
    assert done.returncode == 2
    assert done.stderr.decode() == ("forge-hook-run: error: unknown key 'a\\nb\\rc' in event; "
                                    "allowed keys: type, timestamp, data, tool_name, session_id\n")
    assert json.loads(done.stdout)["error"]["message"].startswith("unknown key 'a\nb\rc'")  # the document keeps it
