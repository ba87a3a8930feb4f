"""Record the real hook payloads of each agent into tests/realagents/payloads/ (run by hand).

    .venv/bin/python -m tests.realagents.record_payloads [AGENT ...]

Each agent runs the scripted one-turn session twice, with a recording hook on every
event that fires in such a session: once with a command that succeeds, once with one
that fails (for the post-tool failure payloads). Each fixture is the payload exactly as
the agent wrote it to the hook's stdin; ``env.json`` lists the variables the agent adds
to the hook's environment (beyond what the agent itself was started with).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.realagents import harness
from tests.realagents.hooks import recorded_calls, scripted_hook

PAYLOADS = Path(__file__).parent / "payloads"

# The events a one-turn session with one shell call fires, per agent. Model-level events
# (Gemini's BeforeModel/AfterModel/BeforeToolSelection) carry the whole LLM request:
# recorded too, they are the ones a dialect must pass over.
EVENTS = {
    "claude": ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop",
               "SessionEnd"],
    "codex": ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"],
    "gemini": ["SessionStart", "BeforeAgent", "BeforeModel", "AfterModel", "BeforeToolSelection", "BeforeTool",
               "AfterTool", "AfterAgent", "SessionEnd"],
    # Both of Copilot's shapes: camelCase names and the PascalCase "VS Code" ones.
    "copilot": ["sessionStart", "userPromptSubmitted", "preToolUse", "permissionRequest", "postToolUse",
                "postToolUseFailure", "sessionEnd", "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
                "PostToolUseFailure", "SessionEnd"],
}


def file_name(agent: str, name: str) -> str:
    """Copilot's folder also holds the examples of its docs: what the CLI sent is
    NAME.recorded.json (the PascalCase shape NAME.vscode.recorded.json)."""
    if agent != "copilot":
        return f"{name}.json"
    event, dot, rest = name.partition(".")
    return f"{event}{'.vscode' if event[0].isupper() else ''}{dot}{rest}.recorded.json".replace("..", ".")


def record(agent: str, scratch: Path) -> dict[str, Any]:
    found: dict[str, Any] = {}
    env_added: dict[str, str] = {}
    for run_name, command in (("ok", f"touch {scratch}/created"), ("fail", "ls /nonexistent-forge-path")):
        calls = scratch / f"{agent}-{run_name}-calls"
        ws = harness.Workspace(project=scratch / f"{agent}-{run_name}" / "project",
                               home=scratch / f"{agent}-{run_name}" / "home")
        hooks = {event: scripted_hook(calls, event) for event in EVENTS[agent]}
        run = harness.run_agent(agent, ws, command=command, hooks=hooks)
        if run.exit_status != 0:
            raise SystemExit(run.describe())
        for event in EVENTS[agent]:
            for call in recorded_calls(calls, event):
                name = event if run_name == "ok" or event in ("PostToolUseFailure", "postToolUseFailure") \
                    else f"{event}.failed-command"
                if name in found or (run_name == "fail" and event not in ("PostToolUse", "PostToolUseFailure",
                                                                          "AfterTool", "postToolUse",
                                                                          "postToolUseFailure")):
                    continue
                found[name] = call["payload"]
                env_added.update({k: v for k, v in call["env"].items() if run.env.get(k) != v and k != "_"})
    return {"payloads": found, "env": env_added}


def write(agent: str, recorded: dict[str, Any]) -> None:
    folder = PAYLOADS / agent
    folder.mkdir(parents=True, exist_ok=True)
    for name, payload in recorded["payloads"].items():
        (folder / file_name(agent, name)).write_text(json.dumps(payload, indent=2) + "\n")
    env = {"agent": agent, "version": harness.PACKAGES[agent].version,
           "added_to_hook_environment": dict(sorted(recorded["env"].items()))}
    (folder / "env.json").write_text(json.dumps(env, indent=2) + "\n")


def main(agents: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="forge-agent-payloads-") as scratch:
        for agent in agents or list(harness.AGENTS):
            recorded = record(agent, Path(scratch))
            write(agent, recorded)
            missing = [e for e in EVENTS[agent] if e not in recorded["payloads"]]
            print(f"{agent}: recorded {sorted(recorded['payloads'])}; never fired: {missing}")


if __name__ == "__main__":
    main(sys.argv[1:])
