"""The record of a run, built from documents directly: bounds, and the fields that
answers and dialects add to the document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forge_hookd.log import record as runrecord
from forge_hookd.log import runlog
from test_redact import SHAPES

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

EVENT = {"type": "tool:pre_execute", "tool_name": "bash", "session_id": "sess_1",
         "data": {"tool_args": {"command": "git push origin main"}}}


def test_output_is_cut_to_a_tail_from_a_word_start() -> None:
    token = SHAPES["github classic"]
    stdout = "x" * 5000 + " " + token[:10] + token * 40 + " the end"  # the cut lands inside a token
    doc = {"event": EVENT, "results": [{"index": 0, "hook": {"event": "*", "command": "c"},
                                        "stdout": stdout, "should_continue": True}]}
    rec = runrecord.build_record(doc, runrecord.RunContext())
    tail = rec["hooks"][0]["stdout"]
    assert len(tail) <= runrecord.OUTPUT_TAIL + 10 and tail.endswith("the end")
    assert token[-12:] not in tail  # no fragment of the token cut in half


def test_a_record_is_bounded_however_many_hooks_and_however_large_the_data() -> None:
    results = [{"index": i, "hook": {"event": "*", "command": "y " * 5000}, "stdout": "z " * 100_000,
                "stderr": "w " * 100_000, "should_continue": i != 700,
                "decision": "deny" if i == 700 else "allow", "reason": "stop" if i == 700 else ""}
               for i in range(1000)]
    data = {f"k{i}": {"nested": ["v " * 1000] * 50} for i in range(500)}
    doc = {"event": {**EVENT, "data": data}, "results": results, "blocked": True, "decision": "deny", "reason": "stop",
           "blocked_by": {"index": 700, "reason": "stop"}, "warnings": ["w" * 10_000] * 100}
    line = runlog.encode(runrecord.build_record(doc, runrecord.RunContext(exit_status=1)))
    assert len(line) <= runlog.RECORD_LIMIT
    rec = json.loads(line)
    assert rec["decided_by"] == 700 and 700 in [h["index"] for h in rec["hooks"]]
    assert rec["hooks_omitted"] == 1000 - len(rec["hooks"])


def test_every_field_is_bounded_before_redaction_reads_it() -> None:
    """Issue 20: a 3 MB session id made a 3 MB line against the 64 KiB bound (a 1 MB one
    through the executable: test_runlog.py)."""
    huge, large = "s" * 300_000, "h" * 2_000
    results = [{"index": i, "hook": {"event": large, "command": large, "source": large}, "error": large,
                "exit_code": 1, "signal": large, "should_continue": i != 70} for i in range(80)]
    doc = {"event": {"type": huge, "tool_name": huge, "session_id": huge,
                     "data": {"agent": {"name": huge, "event": huge, "tool": huge}}},
           "results": results, "skipped": list(range(100_000)), "decision": huge, "interrupted": huge,
           "blocked": True, "blocked_by": {"index": 70}}
    files = [{"scope": "extra", "path": large, "state": "loaded"}] * 100
    rec = runrecord.build_record(doc, runrecord.RunContext(project_root=huge, dialect=huge, files=files))
    cut = runrecord.TEXT_LIMIT + len("...[cut]")

    def longest(value: object) -> int:
        if isinstance(value, dict):
            return max([longest(v) for v in value.values()] + [0])
        if isinstance(value, list):
            return max([len(value), *(longest(v) for v in value)])
        return len(value) if isinstance(value, str) else 0

    assert longest(rec) <= max(cut, 50)
    assert (rec["hooks_omitted"], rec["skipped_omitted"], rec["files_omitted"]) == (29, 99_950, 50)
    assert 70 in [h["index"] for h in rec["hooks"]]  # the hook that decided is kept
    assert len(runlog.encode(rec)) <= runlog.RECORD_LIMIT


def test_a_record_that_cannot_be_cut_enough_keeps_a_summary_that_fits() -> None:
    # Control characters take six bytes each in JSON: 21 hooks of seven texts of them
    # and 10 files of four, cut to 64 characters, are still about 75 KB.
    noisy = ("\x01" * 60 + " ") * 8
    results = [{"index": i, "hook": {"event": noisy, "command": noisy, "source": noisy}, "error": noisy,
                "stdout": noisy, "reason": noisy, "signal": noisy, "decision": noisy, "should_continue": False}
               for i in range(50)]
    doc = {"event": {**EVENT, "session_id": noisy}, "results": results, "blocked": True, "decision": "deny",
           "reason": noisy, "blocked_by": {"index": 0, "reason": noisy}, "warnings": [noisy] * 20}
    files = [{"scope": noisy, "path": noisy, "state": noisy, "trust": noisy}] * 10
    line = runlog.encode(runrecord.build_record(doc, runrecord.RunContext(exit_status=1, project_root=noisy,
                                                                          files=files)))
    assert len(line) <= runlog.RECORD_LIMIT
    rec = json.loads(line)
    assert (rec["decision"], rec["decided_by"], rec["exit_status"]) == ("deny", 0, 1)
    assert rec["event"]["type"] == "tool:pre_execute" and rec["omitted"] == "record too large"


def test_answers_and_dialect_fields_are_taken_when_present() -> None:
    doc = {"event": {"type": "tool:pre_execute", "tool_name": "bash", "session_id": "s",
                     "data": {"tool_args": {}, "agent": {"name": "claude", "event": "PreToolUse",
                                                         "tool": "Bash", "payload": {"big": "x"}}}},
           "decision": "ask", "reason": "a person decides", "blocked": False,
           "results": [{"index": 0, "hook": {"event": "*", "command": "c"}, "exit_code": 0,
                        "should_continue": True, "decision": "ask", "reason": "a person decides",
                        "answer": {"decision": "ask", "reason": "a person decides"}}]}
    rec = runrecord.build_record(doc, runrecord.RunContext(exit_status=4, dialect="claude"))
    assert rec["event"]["agent"] == {"name": "claude", "event": "PreToolUse", "tool": "Bash"}
    assert "agent" not in rec["event"]["data"]
    assert (rec["decision"], rec["decided_by"], rec["reason"]) == ("ask", 0, "a person decides")
    assert rec["hooks"][0]["decision"] == "ask" and rec["hooks"][0]["answer"]["decision"] == "ask"
    assert rec["dialect"] == "claude" and rec["exit_status"] == 4


def test_file_entry_states_and_trust(tmp_path: Path) -> None:
    from forge_hookd.config import LoadedConfig
    from forge_hookd.errors import ConfigError
    from forge_hookd.registry import Hook
    from forge_hookd.trust.store import TrustCheck, TrustState

    hooks_file = tmp_path / "hooks.json"
    hooks_file.write_text("{}")
    loaded = LoadedConfig(hooks=[Hook("*", "true")])
    entry = runrecord.file_entry("project", str(hooks_file), loaded, trust_override=True)
    assert entry == {"scope": "project", "path": str(hooks_file), "state": "loaded", "trust": "overridden",
                     "hooks": 1, "warnings": 0}
    changed = LoadedConfig(untrusted_path=str(hooks_file), untrusted_check=TrustCheck(TrustState.CHANGED))
    assert runrecord.file_entry("project", str(hooks_file), changed, trust_override=False)["state"] == "not run"
    unreadable = LoadedConfig(warnings=[ConfigError("cannot read: Permission denied", path=str(hooks_file))])
    assert runrecord.file_entry("global", str(hooks_file), unreadable, trust_override=False)["state"] == "unreadable"
    below_a_file = runrecord.file_entry("extra", str(hooks_file / "x"), LoadedConfig(), trust_override=False)
    assert (below_a_file["state"], below_a_file["trust"]) == ("unreadable", None)


def test_an_error_document_records_its_kind() -> None:
    rec = runrecord.build_record({"version": 1, "error": {"kind": "usage", "message": "no such option"}},
                                 runrecord.RunContext(exit_status=2))
    assert (rec["decision"], rec["error"], rec["exit_status"]) == ("error", {"kind": "usage",
                                                                             "message": "no such option"}, 2)
    assert rec["event"] == {"type": None, "tool": None, "session": None} and rec["duration"] is None
