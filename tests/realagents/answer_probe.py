"""Find out, by running the real agents, what each does with each kind of pre-tool hook answer.

    .venv/bin/python -m tests.realagents.answer_probe [AGENT ...] [--case NAME ...]

Each case is one hook answer (stdout, stderr, exit status) given to the agent's pre-tool
hook while the model asks to run ``touch created``. What is observed: did the command
run (``ran``), did a rewritten command run instead (``rewritten``), did the hook's reason,
stderr, stdout or additional context reach the model's next request (``*_to_model``),
and the agent's own exit status and output. The results are written to
answer_rules.observed.json; README.md states the rules they show, and
tests/agents/test_agents_harness.py pins the ones dialects rely on.
"""

from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.realagents import harness
from tests.realagents.hooks import recorded_calls, scripted_hook

OBSERVED = Path(__file__).parent / "answer_rules.observed.json"

REASON = "REASON-MARK-41"
STDERR = "STDERR-MARK-42"
STDOUT = "STDOUT-MARK-43"
CONTEXT = "CONTEXT-MARK-44"
SYSTEM = "SYSTEM-MARK-45"
STOP = "STOP-MARK-46"
MARKS = {"reason": REASON, "stderr": STDERR, "stdout": STDOUT, "context": CONTEXT, "system_message": SYSTEM,
         "stop_reason": STOP}


@dataclass(frozen=True)
class Case:
    name: str
    exit_status: int = 0
    stdout: Any = ""      # a str is printed as is; anything else as JSON (with {event}/{rewrite} filled in)
    stderr: Any = ""      # likewise
    about: str = ""


def _specific(**fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "{event}", **fields}}


DENY = _specific(permissionDecision="deny", permissionDecisionReason=REASON)
CASES = [
    Case("exit0-silent", about="exit 0, no output"),
    Case("exit0-plain-stdout", stdout=STDOUT + " plain text", about="exit 0, plain text on stdout"),
    Case("exit0-invalid-json", stdout='{"hookSpecificOutput": ', about="exit 0, broken JSON on stdout"),
    Case("exit1-stderr", exit_status=1, stderr=STDERR, about="exit 1, text on stderr"),
    Case("exit2-stderr", exit_status=2, stderr=STDERR, about="exit 2, text on stderr"),
    Case("exit2-silent", exit_status=2, about="exit 2, nothing on stderr"),
    Case("exit3-stderr", exit_status=3, stderr=STDERR, about="exit 3, text on stderr"),
    Case("json-deny", stdout=DENY, about="exit 0, permissionDecision deny with a reason"),
    Case("json-deny-exit2", exit_status=2, stdout=DENY, stderr=STDERR, about="the same JSON deny, exit 2, stderr"),
    Case("json-deny-exit1", exit_status=1, stdout=DENY, about="the same JSON deny, exit 1"),
    Case("json-deny-empty-reason", stdout=_specific(permissionDecision="deny", permissionDecisionReason=""),
         about="deny with an empty reason"),
    Case("json-allow", stdout=_specific(permissionDecision="allow", permissionDecisionReason=REASON),
         about="permissionDecision allow"),
    Case("json-ask", stdout=_specific(permissionDecision="ask", permissionDecisionReason=REASON),
         about="permissionDecision ask (headless: nobody to ask)"),
    Case("json-allow-updated-input", stdout=_specific(permissionDecision="allow", updatedInput="{rewrite}"),
         about="allow with updatedInput (the whole input, command rewritten)"),
    Case("json-updated-input-only", stdout=_specific(updatedInput="{rewrite}"), about="updatedInput, no decision"),
    Case("json-additional-context", stdout=_specific(additionalContext=CONTEXT), about="additionalContext only"),
    Case("json-decision-block", stdout={"decision": "block", "reason": REASON}, about="top-level decision block"),
    Case("json-decision-deny", stdout={"decision": "deny", "reason": REASON}, about="top-level decision deny"),
    Case("json-decision-approve", stdout={"decision": "approve", "reason": REASON}, about="top-level approve"),
    Case("json-decision-allow", stdout={"decision": "allow", "reason": REASON}, about="top-level allow"),
    Case("json-decision-ask", stdout={"decision": "ask", "reason": REASON}, about="top-level ask"),
    Case("json-tool-input", stdout=_specific(tool_input="{rewrite}"), about="Gemini's tool_input rewrite"),
    Case("json-continue-false", stdout={"continue": False, "stopReason": STOP}, about="continue false"),
    Case("json-system-message", stdout={"systemMessage": SYSTEM}, about="systemMessage only"),
    Case("exit2-json-on-stderr", exit_status=2, stderr=DENY,
         about="the JSON deny on stderr, exit 2"),
]
CASE_BY_NAME = {case.name: case for case in CASES}


def _fill(value: Any, event: str, rewrite: dict[str, Any]) -> Any:
    if value == "{event}":
        return event
    if value == "{rewrite}":
        return rewrite
    if isinstance(value, dict):
        return {k: _fill(v, event, rewrite) for k, v in value.items()}
    return value


def hook_output(answer: Any, agent: str, rewrite_command: str) -> str:
    if isinstance(answer, str):
        return answer
    rewrite = {"command": rewrite_command}
    if agent in ("claude", "gemini"):  # their shell tools also take a description
        rewrite["description"] = "rewritten by the hook"
    return json.dumps(_fill(answer, harness.PRE_TOOL[agent], rewrite))


def probe(agent: str, case: Case, scratch: Path) -> dict[str, Any]:
    """Run ``agent`` once with ``case`` as its pre-tool hook's answer; say what happened."""
    target, rewritten = scratch / "created", scratch / "rewritten"
    calls = scratch / "calls"
    hook = scripted_hook(calls, "pre", stdout=hook_output(case.stdout, agent, f"touch {rewritten}"),
                         stderr=hook_output(case.stderr, agent, f"touch {rewritten}"), exit_status=case.exit_status)
    ws = harness.Workspace(project=scratch / "project", home=scratch / "home")
    run = harness.run_agent(agent, ws, command=f"touch {target}", hooks={harness.PRE_TOOL[agent]: hook})
    turns = run.model_requests()
    after_hook = " ".join(t.text() for t in turns[1:])
    return {
        "agent": agent,
        "case": case.name,
        "about": case.about,
        "hook_calls": len(recorded_calls(calls, "pre")),
        "ran": target.exists(),
        "rewritten": rewritten.exists(),
        "turns": len(turns),
        **{f"{name}_to_model": mark in after_hook for name, mark in MARKS.items()},
        **{f"{name}_in_agent_output": mark in run.stdout + run.stderr for name, mark in MARKS.items()},
        "agent_exit": run.exit_status,
        "timed_out": run.timed_out,
        "agent_lines": _mentions(run.stdout + "\n" + run.stderr),
        "tool_result_to_model": _tool_result_text(agent, turns[1].body if len(turns) > 1 else None),
    }


def _mentions(output: str) -> list[str]:
    keys = ("hook", "Hook", *MARKS.values())
    noise = ("--dangerously-bypass-hook-trust", "project-level hooks have been detected")
    return [line.strip()[:300] for line in output.splitlines()
            if any(k in line for k in keys) and not any(n in line for n in noise)][:8]


def _tool_result_text(agent: str, body: Any) -> str | None:
    """What the model was told about the tool call in the turn after it."""
    if not isinstance(body, dict):
        return None
    if agent == "claude":
        for message in body.get("messages", []):
            for part in message.get("content", []) if isinstance(message.get("content"), list) else []:
                if part.get("type") == "tool_result":
                    return json.dumps(part.get("content"))[:600]
    if agent == "codex":
        for item in body.get("input", []):
            if item.get("type") == "function_call_output":
                return json.dumps(item.get("output"))[:600]
    if agent == "gemini":
        for content in body.get("contents", []):
            for part in content.get("parts", []):
                if "functionResponse" in part:
                    return json.dumps(part["functionResponse"].get("response"))[:600]
    return None


def main(argv: list[str]) -> None:
    agents = [a for a in argv if a in harness.AGENTS] or list(harness.AGENTS)
    wanted = [argv[i + 1] for i, a in enumerate(argv) if a == "--case"]
    cases = [CASE_BY_NAME[name] for name in wanted] if wanted else CASES
    observed = json.loads(OBSERVED.read_text()) if OBSERVED.exists() else {}
    for agent in agents:
        for case in cases:
            with tempfile.TemporaryDirectory(prefix=f"forge-probe-{agent}-") as scratch:
                result = probe(agent, case, Path(scratch))
            observed.setdefault(agent, {})[case.name] = result
            print(json.dumps({k: v for k, v in result.items() if k not in ("about", "agent_lines")}))
            OBSERVED.write_text(json.dumps(observed, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
