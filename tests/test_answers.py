"""Hook answers (DESIGN.md, "Hook answers"): the module, then every rule through the
installed forge-hook-run with real hooks."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from helpers import ForgeRun, Project, gone, installed, read_pids
from forge_hookd.answers import Answer, MalformedAnswer, merge_patch, parse_answer, read_result
from forge_hookd.events import HookEvent
from forge_hookd.registry import Hook
from forge_hookd.results import HookResult, HookRun

BASH: dict[str, Any] = {"type": "tool:pre_execute", "tool_name": "bash", "session_id": "s1",
                        "data": {"tool_args": {"command": "ls", "cwd": "/tmp"}, "keep": 1}}


def says(obj: Any, *, exit_code: int = 0) -> str:
    """A hook command that prints ``obj`` as JSON and exits ``exit_code``."""
    text = obj if isinstance(obj, str) else json.dumps(obj)
    return f"printf '%s\\n' {shlex.quote(text)}; exit {exit_code}"


def hook(command: str, **extra: Any) -> dict[str, Any]:
    return {"event": "*", "command": command, **extra}


# -- parse_answer -------------------------------------------------------------------------
@pytest.mark.parametrize("stdout", ["", "ok\n", "{not json", "[1, 2]", '{"foo": 1}', '"decision"', "\n  {}\n",
                                    '{"limit": NaN}', "{" * 5000, '{"status": "deny", "files": 3}',
                                    '{"messages": ["a list: not a misspelt message"]}', '{"date": "2026-11-22"}',
                                    '{"status": 1}\n{"status": 2}\n', '{"status": 1} and text', "\ufeffplain",
                                    '{"version": 1, "event": null, "warnings": []}',
                                    '{"version": 1, "dry_run": true, "hooks": [], "warnings": []}'])
def test_plain_output_is_not_an_answer(stdout: str) -> None:
    assert parse_answer(stdout) is None


def test_a_byte_order_mark_before_an_answer_is_ignored() -> None:
    """Issue 20, item 1 (before: plain output, so a deny allowed)."""
    assert parse_answer('\ufeff{"decision": "deny", "reason": "r"}\n') == Answer(decision="deny", reason="r")
    assert parse_answer(' \ufeff {"decision": "ask"}') == Answer(decision="ask")


def test_parse_answer_reads_a_nested_forge_hook_runs_document() -> None:
    """Issue 20, item 2: forge can call forge (before: a malformed answer, key 'version')."""
    doc = {"version": 1, "event": {}, "blocked": True, "blocked_by": {"index": 0}, "decision": "deny",
           "reason": "inner says no", "data": {"x": 1}, "context": ["c1", "c2"], "messages": ["m"],
           "results": [], "skipped": [], "warnings": [], "duration": 0.1}
    assert parse_answer(json.dumps(doc)) == Answer(decision="deny", reason="inner says no", context="c1\nc2",
                                                   message="m")
    allowed = {**doc, "decision": "allow", "reason": None, "context": [], "messages": []}
    assert parse_answer(json.dumps(allowed)) == Answer(decision="allow")
    with pytest.raises(MalformedAnswer, match="the nested forge-hook-run failed: invalid event"):
        parse_answer(json.dumps({"version": 1, "error": {"kind": "invalid_event", "message": "invalid event"}}))
    with pytest.raises(MalformedAnswer, match="nested forge-hook-run's document with 'decision' \"block\""):
        parse_answer(json.dumps({**doc, "decision": "block"}))


def test_an_answer_with_every_key() -> None:
    text = ('\n  {"decision": "ask", "reason": "r", "data": {"a": null}, "context": "c", '
            '"message": "m"}\n')
    assert parse_answer(text) == Answer(decision="ask", reason="r", data={"a": None}, context="c", message="m")
    assert parse_answer('{"context": "only"}') == Answer(context="only")
    assert Answer(context="only").to_dict() == {"context": "only"}


@pytest.mark.parametrize(
    ("stdout", "key", "message"),
    [('{"decision": "deny", "reasn": "typo"}', "reasn", "unknown key 'reasn' beside 'decision'"),
     ('{"decision": "block"}', "decision", 'not "block"'),
     ('{"decision": "Deny"}', "decision", 'not "Deny"'),
     ('{"decision": null}', "decision", "not null"),
     ('{"decision": true}', "decision", "not true"),
     ('{"reason": 5}', "reason", "'reason' must be a string"),
     ('{"context": ["a"]}', "context", "'context' must be a string"),
     ('{"message": null}', "message", "'message' must be a string"),
     ('{"data": [1]}', "data", "'data' must be an object"),
     ('{"data": null}', "data", "'data' must be an object"),
     ('{"decision": "deny", "decision": "allow"}', "decision", "'decision' is given twice"),
     ('{"data": {"tool_args": {"command": "a", "command": "b"}}}', "command", "'command' is given twice"),
     ('{"reason": 1e400}', "reason", "forge cannot read it"),
     ('{"decision": "allow", "limit": NaN}', "decision", "forge cannot read it"),
     ('{"data": {"a": ' + "[" * 1000 + "]" * 1000 + "}}", "data", "nested too deeply"),
     # Issue 20, item 1: each of these was plain output, so the deny in it allowed.
     ('{"Decision": "deny"}', "Decision", "unknown key 'Decision' (did you mean 'decision'?)"),
     ('{"decison": "deny", "reasn": "no"}', "decison", "unknown key 'decison' (did you mean 'decision'?)"),
     ('{"mesage": "hi"}', "mesage", "did you mean 'message'?"),
     ('{"decision": "deny"}\n{"decision": "deny"}\n', "decision", "stdout holds 2 JSON documents, and one holds"),
     ('{"status": "ok"}\n{"decision": "deny"}', "decision", "stdout holds 2 JSON documents"),
     ('{"decision": "deny"}{"x": 1}{"y": 2} tail', "decision", "3 JSON documents and more text"),
     ('{"decision": "deny"} trailing', "decision", "a JSON document and more text after it"),
     ('{"decison": "deny"}\n{"decison": "deny"}', "decison", "stdout holds 2 JSON documents")],
)
def test_malformed_answers_name_the_key(stdout: str, key: str, message: str) -> None:
    with pytest.raises(MalformedAnswer, match="malformed answer: ") as exc:
        parse_answer(stdout)
    assert exc.value.key == key and message in str(exc.value)


# -- one hook -------------------------------------------------------------------------------
def result(stdout: str = "", exit_code: int | None = 0, *, blocking: bool = True, index: int = 0,
           **kw: Any) -> HookResult:
    """A finished hook's result, judged as the executor judges it."""
    return HookResult(Hook("*", "x", blocking=blocking), exit_code=exit_code, stdout=stdout, index=index,
                      **kw).read_by(read_result)


def concluded(results: list[HookResult], data: dict[str, Any] | None = None) -> HookRun:
    """A run of ``results``, concluded as the executor concludes it."""
    run = HookRun(event=HookEvent.tool_pre_execute("bash", {}), results=results)
    run.event.data.update(data or {})
    run.conclude()
    return run


@pytest.mark.parametrize(
    ("stdout", "exit_code", "kw", "decision"),
    [("", 0, {}, "allow"), ("plain", 0, {}, "allow"), ('{"context": "c"}', 0, {}, "allow"),
     ('{"decision": "deny"}', 0, {}, "deny"), ('{"decision": "ask"}', 0, {}, "ask"),
     ('{"decision": "allow"}', 1, {}, "deny"), ('{"decision": "ask"}', 2, {}, "deny"),
     ('{"decision": "allow"}', -9, {}, "deny"), ("", None, {"error": "cannot start hook"}, "deny"),
     ('{"decision": "allow"}', None, {"timed_out": True, "error": "timed out after 1s"}, "deny"),
     ('{"decision": "alow"}', 0, {}, "deny")],
)
def test_one_hooks_decision(stdout: str, exit_code: int | None, kw: dict[str, Any], decision: str) -> None:
    assert result(stdout, exit_code, **kw).decision == decision


def test_a_timed_out_hook_has_no_answer_and_its_error_is_its_reason() -> None:
    timed_out = result('{"decision": "allow", "reason": "fine"}', None, timed_out=True,
                       error="timed out after 1s")
    assert timed_out.answer is None and timed_out.reason == "timed out after 1s"


def test_the_answers_reason_comes_first_even_when_the_hook_failed() -> None:
    failed = result('{"reason": "policy says no"}', 3, stderr="noise")
    assert failed.decision == "deny" and failed.reason == "policy says no"


def test_a_malformed_answer_is_a_failure_whose_error_is_the_reason() -> None:
    bad = result('{"decision": "block", "reason": "x"}')
    assert not bad.success and bad.answer is None
    assert bad.reason == bad.error == "malformed answer: 'decision' must be \"allow\", \"deny\" or \"ask\", not \"block\""


def test_a_judge_may_decide_by_another_protocols_rules() -> None:
    """A dialect's judge: an exit status that forge reads as deny may allow there."""
    lenient = HookResult(Hook("*", "x"), exit_code=1, decision="allow")
    assert lenient.decision == "allow" and lenient.should_continue


# -- the run ----------------------------------------------------------------------------------
def test_deny_beats_ask_beats_allow_and_observers_do_not_count() -> None:
    allow, ask, deny = result(index=0), result('{"decision": "ask", "reason": "a"}', index=1), result("", 1, index=2)
    assert (concluded([allow]).decision, concluded([allow]).reason) == ("allow", None)
    assert concluded([allow, ask]).decision == "ask"
    assert concluded([ask, deny]).decision == "deny" and concluded([deny, ask]).decision == "deny"
    observer_deny = result('{"decision": "deny"}', blocking=False)
    observer_ask = result('{"decision": "ask"}', blocking=False)
    assert concluded([allow, observer_deny, observer_ask]).decision == "allow"
    assert observer_deny.decision == "deny" and observer_deny.should_continue


def test_the_run_reason() -> None:
    denied = result('{"decision": "deny", "reason": "no"}', index=2)
    asks = [result('{"decision": "ask", "reason": "first"}', index=0), result('{"decision": "ask"}', index=1),
            result('{"decision": "ask", "reason": "second"}', index=3)]
    assert concluded([*asks, denied]).reason == "no"
    assert concluded(asks).reason == "first\nsecond"
    assert concluded(asks[1:2]).reason is None


# -- merge patch (RFC 7386, Appendix A) --------------------------------------------------------
@pytest.mark.parametrize(
    ("target", "patch", "merged"),
    [({"a": "b"}, {"a": "c"}, {"a": "c"}), ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
     ({"a": "b"}, {"a": None}, {}), ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
     ({"a": ["b"]}, {"a": "c"}, {"a": "c"}), ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
     ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
     ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}), (["a", "b"], ["c", "d"], ["c", "d"]),
     ({"a": "b"}, ["c"], ["c"]), ({"a": "foo"}, None, None), ({"a": "foo"}, "bar", "bar"),
     ({"e": None}, {"a": 1}, {"e": None, "a": 1}), ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
     ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}})],
)
def test_merge_patch_follows_rfc_7386(target: Any, patch: Any, merged: Any) -> None:
    before = json.dumps(target)
    assert merge_patch(target, patch) == merged
    assert json.dumps(target) == before  # the original is never changed


def test_rewrite_applies_in_order_and_names_both_hooks_of_a_conflict() -> None:
    first = result('{"data": {"tool_args": {"command": "ls -l"}, "a": 1}}', index=0)
    second = result('{"data": {"tool_args": {"command": "ls -a", "cwd": null}}}', index=2)
    same = result('{"data": {"a": 1}}', index=3)
    original = {"tool_args": {"command": "ls", "cwd": "/tmp"}, "keep": 1}
    run = concluded([first, second, same], original)
    assert run.data == {"tool_args": {"command": "ls -a"}, "keep": 1, "a": 1}
    assert run.warnings == ["hooks 0 (*) and 2 (*) both rewrite data.tool_args.command; hook 2's value is used"]
    assert original == {"tool_args": {"command": "ls", "cwd": "/tmp"}, "keep": 1}


def test_deleting_a_key_another_hook_rewrites_inside_is_a_conflict() -> None:
    inner = result('{"data": {"tool_args": {"command": "x"}}}', index=0)
    deleting = result('{"data": {"tool_args": null}}', index=1)
    run = concluded([inner, deleting], {"tool_args": {"command": "ls"}})
    assert run.data == {} and run.warnings == [
        "hooks 0 (*) and 1 (*) both rewrite data.tool_args; hook 1's value is used"]


# -- through the installed executable ----------------------------------------------------------
def test_an_answer_allows_with_context_and_messages(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([hook(says({"decision": "allow", "context": "c0", "message": "m0"})),
                         hook("echo plain"),
                         hook(says({"context": "c2"}))])
    run = forge_run(BASH)
    doc = run.json
    assert run.exit_status == 0 and run.stderr == ""
    assert (doc["decision"], doc["reason"], doc["blocked"]) == ("allow", None, False)
    assert (doc["context"], doc["messages"]) == (["c0", "c2"], ["m0"])
    assert "data" not in doc
    assert [r["answer"] for r in doc["results"]] == [
        {"decision": "allow", "context": "c0", "message": "m0"}, None, {"context": "c2"}]
    assert [r["decision"] for r in doc["results"]] == ["allow"] * 3


def test_plain_json_output_is_not_an_answer(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([hook(says({"status": "deny", "files": 3}))])
    run = forge_run(BASH)
    assert run.exit_status == 0 and run.json["decision"] == "allow"
    assert run.json["results"][0]["answer"] is None
    assert json.loads(run.json["results"][0]["stdout"]) == {"status": "deny", "files": 3}


def test_a_deny_answer_blocks_with_its_reason_and_stops_the_chain(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([hook(says({"decision": "deny", "reason": "not on main"}), description="policy"),
                         hook("echo never")])
    run = forge_run(BASH)
    doc = run.json
    assert run.exit_status == 1 and doc["blocked"] is True
    assert (doc["decision"], doc["reason"]) == ("deny", "not on main")
    assert doc["blocked_by"]["reason"] == "not on main" and doc["skipped"] == [1]
    assert doc["results"][0]["exit_code"] == 0 and doc["results"][0]["should_continue"] is False
    assert "blocked by project[0] '*': not on main" in run.stderr


def test_a_failing_hook_denies_whatever_it_answered(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([hook(says({"decision": "allow", "reason": "looked fine"}, exit_code=3))])
    run = forge_run(BASH)
    assert run.exit_status == 1
    assert (run.json["decision"], run.json["reason"]) == ("deny", "looked fine")


@pytest.mark.parametrize(
    ("answer", "key"),
    [('{"decision": "allow", "reasn": "typo"}', "reasn"), ('{"decision": "allow", "data": "x"}', "data"),
     ('{"reason": 1}', "reason"), ('{"decision": "block"}', "decision"), ('{"decision": "Deny"}', "decision"),
     ('{"decision": "deny", "decision": "allow"}', "decision")],
)
def test_a_malformed_answer_fails_closed(project: Project, forge_run: ForgeRun, answer: str, key: str) -> None:
    project.write_hooks([hook(says(answer)), hook("echo never")])
    run = forge_run(BASH)
    first = run.json["results"][0]
    assert run.exit_status == 1 and run.json["decision"] == "deny" and run.json["skipped"] == [1]
    assert first["exit_code"] == 0 and first["success"] is False and first["answer"] is None
    assert first["error"].startswith("malformed answer: ") and f"'{key}'" in first["error"]
    assert run.json["reason"] == first["error"]


def test_an_answer_cut_at_the_output_bound_fails_closed(project: Project, forge_run: ForgeRun) -> None:
    # A deny whose reason is past the 1 MiB bound: what is kept is no JSON, yet it must
    # not pass as plain output (which allows).
    script = project.root / "big-deny.py"
    script.write_text('import json; print(json.dumps({"decision": "deny", "reason": "x" * 2_000_000}))')
    project.write_hooks([hook(f"python3 {script}"), hook("echo never")])
    run = forge_run(BASH)
    first = run.json["results"][0]
    assert run.exit_status == 1 and run.json["decision"] == "deny" and run.json["skipped"] == [1]
    assert first["stdout_truncated"] is True and first["answer"] is None
    assert first["error"].startswith("the hook's answer is larger than the output bound")


def test_an_answer_nested_deeper_than_the_json_module_reads_fails_closed(
        project: Project, forge_run: ForgeRun, tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"data": {"a": ' + "[" * 1000 + "]" * 1000 + "}}")
    project.write_hooks([hook(f"cat {deep}")])
    run = forge_run(BASH)
    assert run.exit_status == 1, run.stderr
    assert run.json["reason"] == "malformed answer: nested too deeply to be read"


def test_a_merge_patch_with_null_and_every_hook_sees_the_original(project: Project, forge_run: ForgeRun) -> None:
    seen = "printf '%s|' \"$FORGE_TOOL_ARGS\"; cat"  # what the hook got: variable and stdin
    project.write_hooks([hook(says({"data": {"tool_args": {"command": "ls --color=never", "cwd": None},
                                             "keep": None, "new": [1]}})),
                         hook(seen)])
    doc = forge_run(BASH).json
    assert doc["data"] == {"tool_args": {"command": "ls --color=never"}, "new": [1]}
    assert doc["event"]["data"] == BASH["data"]  # the event itself is what came in
    variable, stdin = doc["results"][1]["stdout"].split("|", 1)
    assert json.loads(variable) == BASH["data"]["tool_args"]
    assert json.loads(stdin)["data"] == BASH["data"]


def test_two_conflicting_rewrites_the_later_wins_and_warnings_name_both(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([hook(says({"data": {"tool_args": {"command": "ls -l"}}})),
                         hook(says({"data": {"extra": 1}})),
                         hook(says({"data": {"tool_args": {"command": "ls -a"}}}), event="tool:*")])
    run = forge_run(BASH)
    assert run.json["data"] == {"tool_args": {"command": "ls -a", "cwd": "/tmp"}, "keep": 1, "extra": 1}
    warning = "hooks 0 (*) and 2 (tool:*) both rewrite data.tool_args.command; hook 2's value is used"
    assert run.json["warnings"] == [warning]
    assert f"warning: {warning}" in run.stderr


def test_a_denying_hooks_patch_is_not_applied(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([hook(says({"decision": "deny", "data": {"denied": 1}})),
                         hook(says({"data": {"kept": 1}}))])
    doc = forge_run(BASH, "--keep-going").json
    assert doc["decision"] == "deny" and doc["data"] == {**BASH["data"], "kept": 1}


def test_ask_exits_4_and_later_hooks_still_run(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([hook(says({"decision": "ask", "reason": "force push?"})),
                         hook("echo after"),
                         hook(says({"decision": "ask", "reason": "and to main?", "message": "m"}))])
    run = forge_run(BASH)
    doc = run.json
    assert run.exit_status == 4
    assert (doc["decision"], doc["blocked"], doc["blocked_by"], doc["skipped"]) == ("ask", False, None, [])
    assert doc["reason"] == "force push?\nand to main?" and doc["messages"] == ["m"]
    assert doc["results"][1]["stdout"] == "after\n"
    assert "forge-hook-run: ask (exit status 4): a person must decide: force push? and to main?" in run.stderr


def test_a_deny_after_an_ask_denies(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([hook(says({"decision": "ask", "reason": "sure?"})), hook("echo no; exit 1")])
    run = forge_run(BASH)
    assert run.exit_status == 1 and (run.json["decision"], run.json["reason"]) == ("deny", "no")


def test_observers_failures_are_recorded_never_obeyed(project: Project, forge_run: ForgeRun, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    project.write_hooks([
        hook(f"sleep 300 & echo $! > {pids}/slow.pid; wait", blocking=False, timeout=0.2),
        hook("exec /nonexistent/notify-send", blocking=False),
        hook(says({"decision": "deny", "reason": "observed", "context": "oc", "message": "om",
                   "data": {"ignored": 1}}), blocking=False),
        hook(says({"decision": "ask"}), blocking=False),
        hook(says({"context": "guard ran", "data": {"tool_args": {"command": "ls -1"}}})),
    ])
    run = forge_run(BASH)
    doc = run.json
    assert run.exit_status == 0 and (doc["decision"], doc["blocked"], doc["skipped"]) == ("allow", False, [])
    timed_out, missing, denied, asked, guard = doc["results"]
    assert timed_out["timed_out"] is True and gone(read_pids(pids)["slow"])
    assert missing["exit_code"] == 127 and denied["decision"] == "deny" and asked["decision"] == "ask"
    assert all(r["should_continue"] for r in doc["results"])
    assert doc["context"] == ["oc", "guard ran"] and doc["messages"] == ["om"]
    assert doc["data"] == {**BASH["data"], "tool_args": {"command": "ls -1", "cwd": "/tmp"}}
    warnings = doc["warnings"]
    assert warnings[1].startswith("observer hook 1 (*) failed (exit status 127): ")
    assert "/nonexistent/notify-send" in warnings[1] and warnings[1].endswith("; observers never block")
    assert warnings[:1] + warnings[2:] == [
        "observer hook 0 (*) failed (timed out after 0.2s); observers never block",
        "observer hook 2 (*) answered deny: observed; observers never block",
        "observer hook 2 (*) answered a data rewrite, which is ignored: observers cannot rewrite",
        "observer hook 3 (*) answered ask: no reason given; observers never block",
    ]
    assert run.stderr.count("warning: observer hook") == 5


def test_a_blocking_hook_still_blocks_beside_observers(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([hook("exit 1", blocking=False), hook("echo stop; exit 1"), hook("echo never")])
    run = forge_run(BASH)
    assert run.exit_status == 1 and run.json["blocked_by"]["index"] == 1 and run.json["skipped"] == [2]


def test_dry_run_shows_observers(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([hook("true", blocking=False), hook("true")])
    hooks = forge_run(BASH, "--dry-run").json["hooks"]
    assert [h["hook"].get("blocking", True) for h in hooks] == [False, True]


def test_blocking_must_be_a_boolean(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([hook("true", blocking="no")])
    run = forge_run(BASH, "--strict")
    assert run.exit_status == 2 and "'blocking' must be true or false" in run.stderr


def test_help_documents_exit_status_4(project: Project, forge_run: ForgeRun) -> None:
    out = forge_run(None, "--help").stdout
    assert "4 a hook asks a person" in out and '"blocking": false' in out


def readme_hook() -> str:
    """The worked example's hook, exactly as README.md shows it."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    found = re.search(r"```python\n(#!/usr/bin/env python3\n.*?)```", readme, re.S)
    assert found is not None, "README.md lost its git push example"
    return found.group(1)


def test_the_readme_example_adds_dry_run_to_git_push(project: Project, forge_run: ForgeRun) -> None:
    script = project.root / ".forge" / "push-dry-run"
    script.parent.mkdir(parents=True)
    script.write_text(readme_hook())
    script.chmod(0o755)
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": ".forge/push-dry-run",
                          "description": "git push only with --dry-run"}])
    push = {"type": "tool:pre_execute", "tool_name": "bash",
            "data": {"tool_args": {"command": "git push origin main", "timeout": 60}}}
    doc = forge_run(push).json
    assert doc["decision"] == "allow"
    assert doc["data"] == {"tool_args": {"command": "git push origin main --dry-run", "timeout": 60}}
    assert doc["context"] == ["forge added --dry-run: this git push only shows what it would send"]
    for quiet in ("git status", "git push -n origin main"):
        other = forge_run({**push, "data": {"tool_args": {"command": quiet}}}).json
        assert "data" not in other and other["context"] == []


# -- issue 20, items 1 and 2: through the installed executable --------------------------------
@pytest.mark.parametrize(
    ("command", "key", "message"),
    [(r"""printf '\357\273\277{"decision":"deny","reason":"bom"}\n'""", None, "bom"),
     (r"""printf '{"decision":"deny","reason":"twice"}\n{"decision":"deny","reason":"twice"}\n'""", "decision",
      "stdout holds 2 JSON documents"),
     (says('{"decison":"deny","reasn":"no"}'), "decison", "did you mean 'decision'?"),
     (r"""printf '{"decision":"deny"}\nchecked 3 files\n'""", "decision", "a JSON document and more text")],
)
def test_a_deny_in_an_odd_shape_never_reads_as_plain_output(project: Project, forge_run: ForgeRun, command: str,
                                                            key: str | None, message: str) -> None:
    """Before: each was plain output, exit 0 (allow)."""
    project.write_hooks([hook(command), hook("echo never")])
    run = forge_run(BASH)
    first = run.json["results"][0]
    assert run.exit_status == 1 and run.json["decision"] == "deny" and run.json["skipped"] == [1], run
    if key is None:
        assert first["answer"] == {"decision": "deny", "reason": "bom"} and run.json["reason"] == "bom"
    else:
        assert first["error"].startswith("malformed answer: ") and f"'{key}'" in first["error"]
        assert message in first["error"] and run.json["reason"] == first["error"]


def nested(project: Project, inner_hooks: list[dict[str, Any]], *, tail: str = "") -> dict[str, Any]:
    """A hook that runs the installed forge-hook-run on another project (forge calling
    forge): its own document on the hook's stdout is the hook's answer."""
    inner = Project(root=project.root / "inner", home=project.home)
    inner.root.mkdir()
    inner.write_hooks(inner_hooks)
    run_inner = shlex.join([installed("forge-hook-run"), "--no-global", "--project-root", str(inner.root),
                            "--event", "session:start", "--session-id", "inner"])
    return hook(run_inner + tail)


@pytest.mark.parametrize(("answer", "status", "decision"),
                         [({"decision": "deny", "reason": "inner says no", "context": "c", "message": "m"}, 1, "deny"),
                          ({"decision": "ask", "reason": "inner asks", "context": "c", "message": "m"}, 4, "ask"),
                          ({"reason": "inner says no", "context": "c", "message": "m"}, 0, "allow")])
def test_a_nested_forge_hook_runs_document_is_its_hooks_answer(project: Project, forge_run: ForgeRun,
                                                               answer: dict[str, Any], status: int,
                                                               decision: str) -> None:
    """Before: a malformed answer (unknown key 'version'), so every nested run denied."""
    project.write_hooks([nested(project, [hook(says(answer)), hook(says({"context": "c2"}))])])
    run = forge_run(BASH)
    first = run.json["results"][0]
    assert (run.exit_status, run.json["decision"], first["exit_code"]) == (status, decision, status), run
    assert first["error"] is None and first["answer"]["decision"] == decision
    assert run.json["reason"] == (None if decision == "allow" else answer["reason"])
    context = "c" if decision == "deny" else "c\nc2"  # the inner deny stopped its chain
    assert (run.json["context"], run.json["messages"]) == ([context], ["m"])


def test_a_nested_run_cannot_allow_past_its_own_hooks_failure(project: Project, forge_run: ForgeRun) -> None:
    """The nested decision stands only with the exit status forge-hook-run gives it."""
    project.write_hooks([nested(project, [hook("true")], tail="; exit 3")])
    run = forge_run(BASH)
    assert run.exit_status == 1 and run.json["decision"] == "deny"


def test_a_nested_runs_error_document_fails_its_hook_whatever_its_status(project: Project,
                                                                        forge_run: ForgeRun) -> None:
    project.write_hooks([nested(project, [{"event": "*", "command": "true", "timeout": "x"}],
                                tail=" --strict || true")])
    run = forge_run(BASH)
    first = run.json["results"][0]
    assert run.exit_status == 1 and first["exit_code"] == 0 and run.json["decision"] == "deny", run
    assert first["error"].startswith("the nested forge-hook-run failed: ") and "'timeout'" in first["error"]
