"""FORGE_SKIP=id,id through the installed forge-hook-run: the hooks named are not run,
and that is said everywhere (stderr, the document, the trace, the run log), never
silent; only hooks with an id can be skipped; event data cannot set it."""

from __future__ import annotations

import json
from typing import Any

from helpers import SUDO, ForgeRun, Project
from forge_hookd import skiplist
from forge_hookd.registry import Hook

HOOKS: list[dict[str, Any]] = [
    {"id": "lint", "event": "tool:pre_execute:bash", "command": "echo 'lint says no'; exit 1"},
    {"event": "tool:pre_execute:bash", "command": "echo 'Blocked: sudo'; exit 1"},  # no id: never skipped
    {"id": "notes", "event": "tool:*", "command": "echo noted", "blocking": False},
]


def test_a_skipped_hook_does_not_run_and_is_reported_everywhere(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks(HOOKS)
    run = forge_run(SUDO, "--trace", env={"FORGE_SKIP": "lint"})
    assert run.exit_status == 1  # the guard without an id still ran, and blocked
    doc = run.json
    assert [r["hook"]["source_index"] for r in doc["results"]] == [1]
    assert doc["skipped_on_request"] == [{"id": "lint", "source": "project", "source_index": 0,
                                          "event": "tool:pre_execute:bash"}]
    said = "project[0] (lint) 'tool:pre_execute:bash' did not run: FORGE_SKIP names it"
    assert said in doc["warnings"]
    assert f"forge-hook-run: warning: {said}\n" in run.stderr
    assert "trace: skip project[0] (lint) 'tool:pre_execute:bash': FORGE_SKIP names it" in run.stderr
    assert "blocked by project[1] 'tool:pre_execute:bash': Blocked: sudo" in run.stderr
    logged = json.loads((project.home / ".local/state/forge/runs.jsonl").read_text().splitlines()[-1])
    assert said in logged["warnings"]


def test_skipping_every_blocking_hook_with_an_id_lets_the_event_through_and_says_so(
        project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([HOOKS[0], HOOKS[2]])
    run = forge_run(SUDO, env={"FORGE_SKIP": "lint, notes"})
    assert run.exit_status == 0 and run.json["results"] == []
    assert [s["id"] for s in run.json["skipped_on_request"]] == ["lint", "notes"]
    assert run.stderr.count("did not run: FORGE_SKIP names it") == 2
    dry = forge_run(None, "--dry-run", "--event", "tool:pre_execute", "--tool", "bash", env={"FORGE_SKIP": "lint"})
    assert [h["hook"]["id"] for h in dry.json["hooks"]] == ["notes"]
    assert [s["id"] for s in dry.json["skipped_on_request"]] == ["lint"]


def test_a_name_no_hook_has_is_a_warning_with_a_suggestion_and_skips_nothing(project: Project,
                                                                           forge_run: ForgeRun) -> None:
    project.write_hooks(HOOKS)
    run = forge_run(SUDO, env={"FORGE_SKIP": "lnt,1,tool:pre_execute:bash"})
    assert run.exit_status == 1 and [r["hook"]["source_index"] for r in run.json["results"]] == [0]
    assert "FORGE_SKIP names 'lnt', which no hook has (did you mean 'lint'?): nothing skipped for it" in run.stderr
    # an index or a pattern is no id: a hook without an id cannot be skipped
    assert "FORGE_SKIP names '1', which no hook has" in run.stderr
    assert "FORGE_SKIP names 'tool:pre_execute:bash', which no hook has" in run.stderr
    assert run.json["skipped_on_request"] == []
    quiet = forge_run({"type": "session:start"})
    assert "skipped_on_request" not in quiet.json and "FORGE_SKIP" not in quiet.stderr


def test_event_data_never_sets_forge_skip_for_a_hook_or_a_nested_run(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "session:start", "command": "echo \"[${FORGE_SKIP-unset}]\""}])
    run = forge_run({"type": "session:start", "data": {"skip": "lint"}}, env={"FORGE_SKIP": "x"})
    assert run.json["results"][0]["stdout"] == "[unset]\n"


def test_apply_keeps_order_and_reads_the_variable() -> None:
    hooks = [Hook("*", "a", id="a", source="global", source_index=0), Hook("*", "b"),
             Hook("*", "c", id="c", source="project", source_index=4)]
    kept = skiplist.apply(hooks, hooks, skiplist.requested({"FORGE_SKIP": " c,,a , c"}))
    assert [h.command for h in kept.run] == ["b"] and [h.command for h in kept.skipped] == ["a", "c"]
    assert skiplist.apply(hooks, hooks, []) == (hooks, [], [])
    assert skiplist.requested({}) == []
