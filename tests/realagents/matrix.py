"""The real-agent conformance matrix (issue 30 item 13): each agent x each decision, cold
and warm, and what the agent then did.

A cell is measured by the real-agent tests that already exist (``agents``-marked, each one
an agent CLI run against the scripted model: the files the command would touch, the next
request the model received, the exit status); this module only names them. A cell the
agent cannot do carries the agent's own reference (as docs/dialects.md says it), a known
gap says so, and a cell no test measures says "not measured yet": never honoured.

    .venv/bin/python -m tests.realagents.matrix            # cold, then warm (--warm --native), then the doc
    .venv/bin/python -m tests.realagents.matrix --cold     # cold only
    .venv/bin/python -m tests.realagents.matrix --docs     # docs/conformance.md from the last results

A pytest run records its real-agent tests' outcomes in ``RESULTS`` when ``FORGE_MATRIX_RESULTS``
names it (conftest.py): the outcome, the seconds, and under --warm how many runs the
resident runner served during the test (none: the test ran cold, so it measured no warm cell).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.realagents.harness import AGENTS, INSTALLED_ONLY, PACKAGES

ROOT = Path(__file__).resolve().parents[2]
RESULTS = Path(__file__).resolve().parent / "matrix.results.json"
DOC = ROOT / "docs" / "conformance.md"
#: Set to a path: a pytest run records its ``agents`` tests' outcomes there (conftest.py).
RESULTS_VAR = "FORGE_MATRIX_RESULTS"
#: The two ways forge runs: each a pytest pass (conftest.py's --warm and --native).
MODES = {"cold": (), "warm": ("--warm", "--native")}

DIALECT = "tests/dialects/test_dialect_agents.py"
DECISIONS = "tests/dialects/test_decisions_agents.py"
FAILCLOSED = "tests/dialects/test_dialect_failclosed_agents.py"
GUARDS = "tests/guards/test_guard_agents.py"
LIFECYCLE = "tests/run/test_lifecycle_agents.py"
LIMIT = "tests/agents/test_agent_limit_agents.py"
WIRE = "tests/agents/test_agentwire_agents.py"
TRUST = "tests/trust/test_trustrun_agents.py"
FAMILY = "tests/dialects/test_family_agents.py"
PLUGIN = "tests/agents/test_plugin_agents.py"
#: The matrix's columns: the four agents every shared real-agent test runs, then Qwen Code
#: (the Claude-compatible family) and the agents forge reaches only through what
#: `forge-hook install` writes (OpenCode's and Kilo's plugin, Cline's hook scripts), each
#: with the cells its own tests measure.
COLUMNS = (*AGENTS, "qwen", *INSTALLED_ONLY)


@dataclass(frozen=True)
class Cannot:
    """The agent has no way to do what the decision asks: ``doc`` is what docs/dialects.md
    says of it (verbatim, a test holds it there), ``ref`` where the agent says so."""
    doc: str
    ref: str


@dataclass(frozen=True)
class Row:
    key: str
    decision: str
    checked: str  # what the agent then did, as the tests check it
    tests: Mapping[str, Sequence[str]]  # agent -> the node ids that measure its cell
    cannot: Mapping[str, Cannot] = field(default_factory=dict)
    gap: Mapping[str, str] = field(default_factory=dict)


def each(path: str, test: str, agents: Sequence[str] = AGENTS) -> dict[str, tuple[str, ...]]:
    """The node id of an agent-parametrized test, per agent."""
    return {agent: (f"{path}::{test}[{agent}]",) for agent in agents}


def only(agent: str, node: str) -> dict[str, tuple[str, ...]]:
    return {agent: (node,)}


def merged(*parts: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for part in parts:
        for agent, nodes in part.items():
            out[agent] = (*out.get(agent, ()), *nodes)
    return out


NO_ASK_CODEX = Cannot("**none on PreToolUse**: a deny saying a person must decide",
                      "codex 0.169.0 fails the hook on `permissionDecision: ask` and runs the call "
                      "(\"PreToolUse hook returned unsupported permissionDecision:ask\", tests/realagents/README.md)")
NO_ASK_GEMINI = Cannot("`gemini -p` 0.61.0 hangs on `decision: ask` until killed",
                       "Gemini CLI's hook reference lists allow, deny, block; `gemini -p` waits for a confirmation "
                       "nobody can give (tests/realagents/README.md, answer rules)")
NO_PRE_CONTEXT_GEMINI = Cannot("dropped on `BeforeTool`",
                               "Gemini CLI 0.61.0 reads no additionalContext on BeforeTool "
                               "(tests/realagents/README.md, answer rules)")
NO_CONTEXT_PLUGIN = Cannot("none (observed only)",
                           "OpenCode's plugin hooks (tool.execute.before/after) can change a tool's arguments or "
                           "throw, and have no field the model reads (tests/realagents/README.md)")
NO_PRE_CONTEXT_QWEN = Cannot("**reported** on PreToolUse (0.24.4 reads none)",
                             "Qwen Code 0.24.4: firePreToolUseHook returns it and no caller reads it "
                             "(tests/dialects/test_family_agents.py)")
NO_REWRITE_QWEN = Cannot("0.24.4 applies no PreToolUse `updatedInput`",
                         "Qwen Code 0.24.4: firePreToolUseHook returns it and no caller applies it "
                         "(tests/dialects/test_family_agents.py)")


def newer(**cells: str) -> dict[str, tuple[str, ...]]:
    """The cells of the newer columns: agent -> a test of FAMILY (qwen) or PLUGIN (the others)."""
    return {agent: (f"{FAMILY if agent == 'qwen' else PLUGIN}::{test}",) for agent, test in cells.items()}


#: One test per agent measures context on session start, the prompt and post-tool at once.
CONTEXT_ON_LIFECYCLE = merged(
    each(DECISIONS, "test_context_reaches_the_model_on_session_start_prompt_and_post_tool",
         ("claude", "codex", "gemini")),
    only("copilot", f"{FAILCLOSED}::test_context_reaches_the_copilot_model_on_session_start_prompt_and_post_tool_use"))


ROWS: tuple[Row, ...] = (
    Row("allow", "no objection", "the command ran",
        each(DIALECT, "test_no_objection_lets_the_command_run")),
    Row("deny-script", "deny by a hook script (exit 1, its reason)",
        "the file stayed uncreated; forge's reason in the model's next request",
        merged(each(DIALECT, "test_a_forge_hook_denies_and_the_model_reads_forges_reason"),
               newer(cline="test_a_hooks_deny_by_script_cancels_the_cline_call"))),
    Row("deny-guard", "deny by a built-in guard (destructive_rm)",
        "the directory survived; the guard's reason in the model's next request",
        merged(each(GUARDS, "test_a_built_in_guard_denies_and_the_model_reads_why"),
               newer(qwen="test_a_guard_denies_rm_rf_home_through_forge_hook_install",
                     **{agent: f"test_a_guard_denies_rm_rf_home_through_forge_hook_install[{agent}]"
                        for agent in INSTALLED_ONLY}))),
    Row("deny-format", "deny by Claude's example hook (`format: claude`)",
        "the file stayed uncreated; the hook's reason in the model's next request",
        each(DIALECT, "test_claudes_example_hook_guards_the_agent")),
    Row("ask", "ask", "the file stayed uncreated (headless: nobody to ask); Codex and Gemini: "
        "the model read that a person must decide",
        each(DIALECT, "test_ask_never_lets_the_command_run_unasked"),
        cannot={"codex": NO_ASK_CODEX, "gemini": NO_ASK_GEMINI}),
    Row("rewrite", "rewrite the tool input", "the rewritten command ran, the asked one did not",
        merged(each(DIALECT, "test_a_forge_rewrite_runs_the_rewritten_command"),
               each(GUARDS, "test_a_harmless_rewrite_is_what_the_agent_runs", ("claude", "codex", "gemini")),
               newer(opencode="test_the_plugin_runs_a_hooks_rewrite[opencode]",
                     kilo="test_the_plugin_runs_a_hooks_rewrite[kilo]",
                     cline="test_cline_runs_a_hooks_rewrite_and_its_context_reaches_the_model")),
        cannot={"qwen": NO_REWRITE_QWEN}),
    Row("rewrite-judged", "a hook's rewrite to `rm -rf` judged by the guards",
        "the directory survived; the model read which hook rewrote",
        each(GUARDS, "test_a_hooks_rewrite_to_rm_rf_is_denied_and_the_model_reads_which_hook")),
    Row("context-pre", "context on pre-tool", "forge's context in the model's next request",
        merged(each(DIALECT, "test_context_reaches_the_model", ("claude", "codex", "copilot")),
               newer(cline="test_cline_runs_a_hooks_rewrite_and_its_context_reaches_the_model")),
        cannot={"gemini": NO_PRE_CONTEXT_GEMINI, "qwen": NO_PRE_CONTEXT_QWEN, "opencode": NO_CONTEXT_PLUGIN,
                "kilo": NO_CONTEXT_PLUGIN}),
    Row("context-post", "context on post-tool", "forge's context in the model's next request",
        merged(CONTEXT_ON_LIFECYCLE,
               newer(qwen="test_post_tool_context_reaches_the_model_and_what_qwen_drops_is_reported")),
        cannot={"opencode": NO_CONTEXT_PLUGIN, "kilo": NO_CONTEXT_PLUGIN}),
    Row("context-prompt", "context on the prompt", "forge's context in the model's first request",
        CONTEXT_ON_LIFECYCLE),
    Row("context-session", "context on session start", "forge's context in the model's first request",
        CONTEXT_ON_LIFECYCLE),
    Row("prompt-block", "refuse the prompt", "no model request; the command never ran",
        each(DECISIONS, "test_a_forge_hook_refuses_the_prompt")),
    Row("keep-working", "keep working (a refused stop)", "the model's next request carried the reason; then it stopped",
        each(LIFECYCLE, "test_a_refused_stop_makes_the_agent_keep_working_with_the_reason")),
    Row("keep-working-cap", "keep working: forge's cap", "after FORGE_MAX_CONTINUES refusals the session ended",
        each(LIFECYCLE, "test_a_stop_hook_that_always_refuses_ends_after_forge_max_continues")),
    Row("hook-timeout", "a forge hook past its timeout", "the file stayed uncreated; the model read \"timed out\"",
        each(DECISIONS, "test_a_forge_hook_past_its_timeout_denies")),
    Row("crash", "a forge hook killed by a signal", "the file stayed uncreated",
        each(DECISIONS, "test_a_forge_hook_that_crashes_denies")),
    Row("launcher-gone", "forge's launcher cannot start (its Python gone)", "the file stayed uncreated",
        each(FAILCLOSED, "test_the_native_client_whose_python_is_gone_keeps_the_tool_from_running")),
    Row("changed", "a trusted project's hook script changed", "the command was stopped",
        merged(only("claude", f"{TRUST}::test_a_changed_projects_guard_still_stops_claude"),
               each(DECISIONS, "test_a_changed_projects_guard_still_stops_the_agent", ("codex", "gemini", "copilot")))),
    Row("broken-project", "a broken project config (`--strict`; the newer columns: broken after trust)",
        "the file stayed uncreated; the model read the config error (Cline: the task ended)",
        merged(each(DIALECT, "test_a_broken_config_under_strict_fails_closed"),
               newer(qwen="test_a_broken_config_under_strict_fails_closed",
                     opencode="test_a_project_config_broken_after_trust_fails_closed[opencode]",
                     kilo="test_a_project_config_broken_after_trust_fails_closed[kilo]",
                     cline="test_a_project_config_broken_after_trust_fails_closed[cline]"))),
    Row("broken-global", "a broken global config", "the file stayed uncreated; the model read the file's name",
        each(FAILCLOSED, "test_a_trailing_comma_in_the_global_config_keeps_the_tool_from_running")),
    Row("agent-limit", "a run longer than the agent's hook limit",
        "forge's deny reached the model before the agent's clock; the hook's tree was gone",
        each(LIMIT, "test_the_agent_gets_forges_deny_before_its_own_timeout")),
    Row("off-path", "forge-hook-run not on the agent's PATH",
        "what `forge-hook install --project` wrote denied in the agent's own form",
        merged(only("claude", f"{LIMIT}::test_claude_denies_where_forge_hook_run_is_not_on_its_path"),
               each(LIMIT, "test_the_agent_denies_the_tool_where_forge_hook_run_is_not_on_its_path",
                    ("codex", "gemini", "copilot")))),
    Row("installed", "wired by `forge-hook install`, beside the user's own hook",
        "forge's deny reached the model and the user's hook ran too",
        each(WIRE, "test_after_install_the_agent_runs_forge_and_the_users_own_hook")),
)


def node_ids() -> list[str]:
    """Every test the matrix names, once, in the table's order."""
    seen: dict[str, None] = {}
    for row in ROWS:
        for agent in COLUMNS:
            for node in row.tests.get(agent, ()):
                seen.setdefault(node, None)
    return list(seen)


# -- recording (conftest.py calls these when RESULTS_VAR is set) -------------------------------
def record(log: dict[str, dict[str, Any]], nodeid: str, when: str, outcome: str, seconds: float, why: str) -> None:
    """One phase's report of a test: a failure in any phase fails it; a skip is a skip."""
    entry = log.setdefault(nodeid, {"outcome": "passed", "seconds": 0.0})
    entry["seconds"] = round(entry["seconds"] + seconds, 1)
    if outcome == "failed" and entry["outcome"] != "failed":
        entry.update(outcome="failed", why=why)
    elif outcome == "skipped" and entry["outcome"] == "passed":
        entry.update(outcome="skipped", why=why)


def save(path: Path, mode: str, log: Mapping[str, Mapping[str, Any]]) -> None:
    """Merge one pytest run's outcomes into the results file, under its mode."""
    doc: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    doc["versions"] = {agent: PACKAGES[agent].version for agent in COLUMNS}
    runs = doc.setdefault("runs", {})
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    tests = runs.setdefault(mode, {})
    for nodeid, entry in log.items():
        tests[nodeid] = {**entry, "when": now}
    path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")


# -- the doc ------------------------------------------------------------------------------------
HONOURED, CANNOT, GAP, NOT_MEASURED, FAILED = "honoured", "the agent cannot", "known gap", "not measured yet", "FAILED"


def measured(row: Row, agent: str, tests: Mapping[str, Mapping[str, Any]], mode: str) -> str:
    """One cell in one mode: passed, failed, skipped, ran cold (warm only), or not run."""
    nodes = row.tests.get(agent, ())
    entries = [tests.get(node) for node in nodes]
    if not nodes or any(e is None for e in entries):
        return "not run"
    found = [e for e in entries if e is not None]
    for outcome in ("failed", "skipped"):
        if any(e["outcome"] == outcome for e in found):
            return outcome
    if mode == "warm" and any(e.get("served") == 0 for e in found):
        return "ran cold"
    return "passed"


def verdict(row: Row, agent: str, results: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """The cell's category and its outcome per mode."""
    runs = results.get("runs", {})
    per_mode = {mode: measured(row, agent, runs.get(mode, {}), mode) for mode in MODES}
    if agent in row.gap:
        return GAP, per_mode
    if any(outcome == "failed" for outcome in per_mode.values()):
        return FAILED, per_mode
    if agent in row.cannot:
        return CANNOT, per_mode
    if any(outcome == "passed" for outcome in per_mode.values()):
        return HONOURED, per_mode
    return NOT_MEASURED, per_mode


def _cell(category: str, per_mode: Mapping[str, str], note: str) -> str:
    runs = ", ".join(mode if outcome == "passed" else f"{mode} {outcome}"
                     for mode, outcome in per_mode.items() if outcome != "not run")
    text = {HONOURED: "honoured", CANNOT: f"the agent cannot {note}", GAP: f"known gap {note}",
            NOT_MEASURED: "not measured yet", FAILED: "**FAILED**"}[category]
    return f"{text} ({runs})" if runs else text


def counts(results: Mapping[str, Any]) -> dict[str, int]:
    found = {c: 0 for c in (HONOURED, CANNOT, GAP, NOT_MEASURED, FAILED)}
    for row in ROWS:
        for agent in COLUMNS:
            found[verdict(row, agent, results)[0]] += 1
    return found


def render(results: Mapping[str, Any]) -> str:
    versions = results.get("versions", {})
    notes: dict[str, str] = {}

    def note(text: str) -> str:
        return notes.setdefault(text, f"[{len(notes) + 1}]")

    head = [f"{agent} {versions.get(agent, PACKAGES[agent].version)}" for agent in COLUMNS]
    lines = ["| decision | what the agent then did | " + " | ".join(head) + " |",
             "|---|---|" + "---|" * len(COLUMNS)]
    for row in ROWS:
        cells = []
        for agent in COLUMNS:
            category, per_mode = verdict(row, agent, results)
            text = ""
            if agent in row.cannot:
                text = note(f"{row.cannot[agent].ref}; docs/dialects.md: {row.cannot[agent].doc}")
            if agent in row.gap:
                text = note(row.gap[agent])
            cells.append(_cell(category, per_mode, text))
        lines.append(f"| {row.decision} | {row.checked} | " + " | ".join(cells) + " |")
    total = counts(results)
    runs = results.get("runs", {})
    last = {mode: max((e["when"] for e in runs.get(mode, {}).values()), default="never") for mode in MODES}
    out = [
        "# Conformance: what each agent does with each of forge's answers",
        "",
        "Generated by `.venv/bin/python -m tests.realagents.matrix` from "
        "`tests/realagents/matrix.results.json`; do not edit (tests/agents/test_conformance.py holds the two together).",
        "Each cell is the real agent CLI (pinned, offline, against the scripted model server: tests/realagents/README.md)",
        "with forge-hook-run as its hook, and the tests named below it as evidence: what forge decided, and what the",
        "agent then did (the files, the model's next request, the exit status). *cold*: forge-hook-run as pip installs it;",
        "*warm*: through the native client and a resident runner (`--warm --native`); \"ran cold\" means no run of the test",
        "reached the runner, so the warm cell is not measured. In brackets, the passes whose tests passed",
        "(\"honoured (cold, warm)\"), or how the others ended.",
        "",
        f"Last run: cold {last['cold']}, warm {last['warm']}. Cells: "
        + ", ".join(f"{n} {c}" for c, n in total.items()) + ".",
        "",
        "- **honoured**: forge's answer did what docs/dialects.md says, measured;",
        "- **the agent cannot**: the agent has no such answer; forge answers what the note says instead (measured where a run is shown);",
        "- **known gap**: forge's docs say so; **not measured yet**: no test runs the cell (never counted as honoured);",
        "- **FAILED**: the last run failed the cell's test.",
        "",
        *lines,
        "",
    ]
    if notes:
        out += [*(f"- {mark} {text}" for text, mark in notes.items()), ""]
    out += ["## The tests behind each row", ""]
    for row in ROWS:
        nodes = [node for agent in COLUMNS for node in row.tests.get(agent, ())]
        unique = list(dict.fromkeys(n.split("[")[0] for n in nodes))
        out.append(f"- {row.decision}: " + ", ".join(f"`{n}`" for n in unique))
    out.append("")
    return "\n".join(out)


def load(path: Path = RESULTS) -> dict[str, Any]:
    return json.loads(path.read_text()) if path.exists() else {}


def run(modes: Sequence[str], extra: Sequence[str]) -> int:
    """Each mode's pytest pass over the matrix's tests, recording into RESULTS; then the doc."""
    status = 0
    for mode in modes:
        # -n 0: one process, the one whose hooks record the outcomes and the runner's counts
        argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", *MODES[mode], *extra,
                *node_ids()]
        print(f"matrix: {mode}: {len(node_ids())} tests", flush=True)
        done = subprocess.run(argv, cwd=ROOT, env={**os.environ, RESULTS_VAR: str(RESULTS)})
        status = status or done.returncode
    DOC.write_text(render(load()))
    print(f"matrix: {DOC.relative_to(ROOT)}: " + ", ".join(f"{n} {c}" for c, n in counts(load()).items()))
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.realagents.matrix", description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--cold", action="store_true", help="run the cold pass only")
    group.add_argument("--warm", action="store_true", help="run the warm pass only (--warm --native)")
    group.add_argument("--docs", action="store_true", help="only write docs/conformance.md from the last results")
    args, extra = parser.parse_known_args(argv)
    if args.docs:
        DOC.write_text(render(load()))
        return 0
    modes = ["cold"] if args.cold else ["warm"] if args.warm else list(MODES)
    return run(modes, extra)


if __name__ == "__main__":
    sys.exit(main())
