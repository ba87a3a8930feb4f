"""The record of a run, built from documents directly: bounds, and the fields that
answers and dialects add to the document."""

from __future__ import annotations

from pathlib import Path

import json

from forge_hookd import runlog, runrecord
from test_redact import SHAPES

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
    from forge_hookd.trust import TrustCheck, TrustState

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
