"""The real-agent harness (tests/realagents/): each real CLI fires its pre-tool hook offline.

These run the real Claude Code, Codex and Gemini CLIs (installed by npm into a cache
the tests own) against the scripted model server on 127.0.0.1. Deselect them with
``-m 'not agents'``; they skip only where npm is missing.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.realagents import answer_probe, codex_schema, harness
from tests.realagents.harness import AGENTS, PRE_TOOL, AgentRun, Workspace
from tests.realagents.hooks import recorded_calls, scripted_hook
from tests.realagents.model_server import FINAL_TEXT, ModelServer, Script
from helpers import Project, gone

pytestmark = [pytest.mark.agents, pytest.mark.slow]

SHELL_TOOL = {"claude": "Bash", "codex": "Bash", "gemini": "run_shell_command", "copilot": "bash"}
PAYLOADS = Path(harness.__file__).parent / "payloads"


def installed_or_skip(name: str) -> Path:
    """The agent's executable; skip (loudly) only where npm is missing, fail on anything else."""
    try:
        return harness.ensure_installed(name)
    except harness.NpmMissing as exc:
        pytest.skip(f"REAL-AGENT TESTS SKIPPED ({name}): {exc}")


@pytest.fixture(params=AGENTS)
def agent(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    installed_or_skip(name)
    return name


@pytest.fixture
def workspace(project: Project) -> Workspace:
    return Workspace(project=project.root, home=project.home)


def run_with_pre_tool_hook(agent: str, ws: Workspace, hook: str, target: Path) -> AgentRun:
    return harness.run_agent(agent, ws, command=f"touch {target}", hooks={PRE_TOOL[agent]: hook})


def test_the_model_server_listens_on_loopback_only() -> None:
    with ModelServer(Script("true")) as server:
        assert server.httpd.server_address[0] == "127.0.0.1"
        assert server.base_url.startswith("http://127.0.0.1:")


@pytest.fixture(params=[False, True], ids=["plain", "subreaper"])
def as_subreaper(request: pytest.FixtureRequest) -> Iterator[bool]:
    """Run the test with pytest as a child subreaper or not, as other tests may leave it."""
    libc = ctypes.CDLL(None, use_errno=True)
    before = ctypes.c_int()
    assert libc.prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(before), 0, 0, 0) == 0
    assert libc.prctl(PR_SET_CHILD_SUBREAPER, int(request.param), 0, 0, 0) == 0
    yield bool(request.param)
    libc.prctl(PR_SET_CHILD_SUBREAPER, before.value, 0, 0, 0)


PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37


def test_a_run_past_its_timeout_is_killed_with_its_whole_group(tmp_path: Path, as_subreaper: bool) -> None:
    """The group's orphan (the background sleep) is gone, and reaped if it became ours."""
    pid_file = tmp_path / "child.pid"
    script = f"sleep 300 & echo $! > {pid_file}; wait"
    done = harness._run_bounded(["sh", "-c", script], cwd=tmp_path, env=os.environ, timeout=1)
    assert done.timed_out and done.exit_status == -9
    assert gone(int(pid_file.read_text()))


def strace_usable() -> bool:
    strace = shutil.which("strace")
    if strace is None:
        return False
    return subprocess.run([strace, "-f", "-o", os.devnull, "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not strace_usable(), reason="NETWORK CHECK SKIPPED: strace is missing or may not trace here")
def test_the_agent_talks_to_loopback_only(agent: str, workspace: Workspace, tmp_path: Path) -> None:
    """Every socket address the agent (and its children) connects or sends to is 127.0.0.1.

    DNS lookups count too (a UDP send to a resolver): Codex resolved github.com and
    chatgpt.com for its plugin catalog until the harness turned those features off.
    """
    log = tmp_path / "strace.log"
    wrapper = ["strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmsg,sendmmsg", "-o", str(log)]
    run = harness.run_agent(agent, workspace, command=f"touch {tmp_path / 'created'}",
                            hooks={PRE_TOOL[agent]: scripted_hook(tmp_path / "calls", "pre")}, wrapper=wrapper)
    assert run.exit_status == 0 and (tmp_path / "created").exists(), run.describe()
    trace = log.read_text()
    addresses = set(re.findall(r'inet_(?:addr|pton)\((?:AF_INET6?, )?"([^"]+)"', trace))
    assert addresses == {"127.0.0.1"}, sorted(addresses)


def test_a_recording_hook_sees_the_real_shell_call(agent: str, workspace: Workspace, tmp_path: Path) -> None:
    calls, target = tmp_path / "calls", tmp_path / "created"
    run = run_with_pre_tool_hook(agent, workspace, scripted_hook(calls, "pre"), target)

    assert run.exit_status == 0 and not run.timed_out, run.describe()
    assert target.exists(), run.describe()
    [call] = recorded_calls(calls, "pre")
    payload = sent = call["payload"]
    if agent == "copilot":  # camelCase: no event name; toolArgs an object (1.0.102), not the docs' string
        assert "hook_event_name" not in payload and payload["toolName"] == SHELL_TOOL[agent]
        payload = {**payload, "tool_input": payload["toolArgs"]}
    else:
        assert payload["hook_event_name"] == PRE_TOOL[agent]
        assert payload["tool_name"] == SHELL_TOOL[agent]
    assert payload["tool_input"]["command"] == f"touch {target}"
    assert payload["cwd"] == str(workspace.project)
    # Copilot's folder holds the docs' examples too; what the CLI sent is *.recorded.json.
    name = f"{PRE_TOOL[agent]}.recorded" if agent == "copilot" else PRE_TOOL[agent]
    recorded = json.loads((PAYLOADS / agent / f"{name}.json").read_text())
    assert set(sent) == set(recorded), "the agent's payload changed: re-run tests.realagents.record_payloads"
    turns = run.model_requests()
    assert len(turns) == 2, run.describe()  # the tool call, then the turn with its result
    assert FINAL_TEXT in run.stdout, run.describe()


def test_an_exit_2_denial_stops_the_command_and_reaches_the_model(agent: str, workspace: Workspace,
                                                                  tmp_path: Path) -> None:
    reason = "forge-harness-denial-7f3a: not this command"
    target = tmp_path / "created"
    hook = scripted_hook(tmp_path / "calls", "deny", stderr=reason, exit_status=2)
    run = run_with_pre_tool_hook(agent, workspace, hook, target)

    assert not run.timed_out, run.describe()
    assert not target.exists(), run.describe()
    assert len(recorded_calls(tmp_path / "calls", "deny")) == 1
    last_turn = run.model_requests()[-1]
    if agent == "copilot":  # observed (1.0.102): exit 2 denies, but stderr never reaches the model
        assert "Denied by preToolUse hook: hook exited with code 2" in last_turn.text(), run.describe()
        assert reason not in last_turn.text()
    else:
        assert reason in last_turn.text(), run.describe()


def _without_claude_permissions(ws: Workspace) -> None:
    settings = ws.project / ".claude" / "settings.json"
    config = json.loads(settings.read_text())
    del config["permissions"]
    settings.write_text(json.dumps(config))


@pytest.mark.parametrize(("answer", "runs"), [
    ("", False),
    (json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}), True),
])
def test_claude_no_objection_is_not_approval_but_allow_is(answer: str, runs: bool, workspace: Workspace,
                                                          tmp_path: Path) -> None:
    """Without a permission rule for Bash, claude -p refuses it, unless the hook says allow."""
    installed_or_skip("claude")
    target = tmp_path / "created"
    run = harness.run_agent("claude", workspace, command=f"touch {target}",
                            hooks={"PreToolUse": scripted_hook(tmp_path / "calls", "pre", stdout=answer)},
                            adjust=_without_claude_permissions)
    assert run.exit_status == 0 and len(recorded_calls(tmp_path / "calls", "pre")) == 1, run.describe()
    assert target.exists() == runs, run.describe()
    assert (json.loads(run.stdout)["permission_denials"] == []) == runs, run.describe()


# -- the recorded payloads and Codex's schemas --------------------------------------------

CODEX_SCHEMA_OF_EVENT = {"PreToolUse": "pre-tool-use", "PostToolUse": "post-tool-use",
                         "SessionStart": "session-start", "UserPromptSubmit": "user-prompt-submit", "Stop": "stop"}


def test_the_recorded_codex_payloads_validate_against_codex_input_schemas() -> None:
    recorded = sorted((PAYLOADS / "codex").glob("*.json"))
    payloads = [json.loads(p.read_text()) for p in recorded if p.name != "env.json"]
    assert {p["hook_event_name"] for p in payloads} == set(CODEX_SCHEMA_OF_EVENT)
    for payload in payloads:
        schema = codex_schema.schema(f"{CODEX_SCHEMA_OF_EVENT[payload['hook_event_name']]}.command.input")
        assert codex_schema.errors(payload, schema) == []


@pytest.mark.parametrize(("answer", "problems"), [
    ({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                             "permissionDecisionReason": "no"}}, []),
    ({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                             "updatedInput": {"command": "ls"}}}, []),
    ({"decision": "block", "reason": "no"}, []),
    ({}, []),
    ({"hookSpecificOutput": {"hookEventName": "BeforeTool"}}, ["$.hookSpecificOutput.hookEventName"]),
    ({"hookSpecificOutput": {"permissionDecision": "deny"}}, ["$.hookSpecificOutput: 'hookEventName' is a required property"]),
    ({"decision": "deny", "reason": "no"}, ["$.decision"]),
    ({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": None}},
     ["$.hookSpecificOutput.permissionDecision"]),
    ({"permissionDecision": "deny"}, ["'permissionDecision' was unexpected"]),
    ({"continue": "no"}, ["$.continue"]),
])
def test_the_codex_schema_validator(answer: dict[str, object], problems: list[str]) -> None:
    found = codex_schema.errors(answer, codex_schema.schema("pre-tool-use.command.output"))
    assert len(found) >= len(problems) and all(any(p in f for f in found) for p in problems), found
    assert bool(found) == bool(problems), found


def test_the_committed_codex_schemas_are_the_installed_binarys() -> None:
    installed_or_skip("codex")
    [binary] = harness.package_dir("codex").glob("node_modules/@openai/codex-*/vendor/*/bin/codex")
    embedded = codex_schema.extract_from_binary(binary)
    committed = {p.name.removesuffix(".schema.json") for p in codex_schema.SCHEMAS.glob("*.schema.json")}
    assert set(embedded) == committed
    for title, document in embedded.items():
        assert document == codex_schema.schema(title), title


# -- each agent's answer rules, confirmed by running it (see tests/realagents/README.md) ------

# What the agent did with the answer: did the command run, did the rewritten one run
# instead, and which of the hook's texts reached the model's next request.
RAN = {"ran": True, "rewritten": False}
BLOCKED = {"ran": False, "rewritten": False}
REWRITTEN = {"ran": False, "rewritten": True}
RULES: dict[str, dict[str, dict[str, bool]]] = {
    "claude": {
        "exit2-stderr": {**BLOCKED, "stderr_to_model": True},
        "exit1-stderr": {**RAN, "stderr_to_model": False},
        "json-deny": {**BLOCKED, "reason_to_model": True},
        "json-deny-exit1": {**BLOCKED, "reason_to_model": True},      # JSON is read on every exit
        "json-deny-exit2": {**BLOCKED, "reason_to_model": True, "stderr_to_model": False},
        "json-ask": {**BLOCKED, "reason_to_model": True},             # -p has nobody to ask
        "json-updated-input-only": REWRITTEN,                          # no decision needed
        "json-additional-context": {**RAN, "context_to_model": True},
    },
    "codex": {
        "exit2-stderr": {**BLOCKED, "stderr_to_model": True},
        "exit2-silent": RAN,                                           # exit 2 without stderr: ignored
        "json-deny": {**BLOCKED, "reason_to_model": True},
        "json-deny-exit1": RAN,                                        # JSON only on exit 0
        "json-deny-empty-reason": RAN,                                 # a deny needs a reason
        "json-ask": RAN,                                               # no ask in PreToolUse
        "json-allow-updated-input": REWRITTEN,
        "json-updated-input-only": RAN,                                # updatedInput needs allow
        "json-additional-context": {**RAN, "context_to_model": True},
    },
    "gemini": {
        "exit2-stderr": {**BLOCKED, "stderr_to_model": True},
        "exit3-stderr": {**BLOCKED, "stderr_to_model": True},          # plain text, exit >= 2: deny
        "exit2-silent": RAN,
        "json-deny": RAN,                                              # Claude's form means nothing here
        "json-decision-deny": {**BLOCKED, "reason_to_model": True},
        "json-deny-exit2": {**RAN, "stderr_to_model": False},          # stdout JSON beats stderr text
        "json-tool-input": REWRITTEN,
        "json-continue-false": BLOCKED,
    },
}


@pytest.mark.parametrize(("agent_name", "case"), [(a, c) for a, cases in RULES.items() for c in cases])
def test_answer_rule(agent_name: str, case: str, tmp_path: Path) -> None:
    installed_or_skip(agent_name)
    result = answer_probe.probe(agent_name, answer_probe.CASE_BY_NAME[case], tmp_path)
    assert result["hook_calls"] == 1 and not result["timed_out"], result
    observed = {key: result[key] for key in RULES[agent_name][case]}
    assert observed == RULES[agent_name][case], result


# -- blocking a prompt (UserPromptSubmit / BeforeAgent) ----------------------------------

PROMPT_REASON = "PROMPT-REASON-51"
PROMPT_ANSWERS: dict[str, dict[str, Any]] = {
    "exit2-stderr": {"stderr": PROMPT_REASON, "exit_status": 2},
    "decision-block": {"stdout": json.dumps({"decision": "block", "reason": PROMPT_REASON})},
    "decision-deny": {"stdout": json.dumps({"decision": "deny", "reason": PROMPT_REASON})},
    "plain-stdout": {"stdout": PROMPT_REASON},
}
# (blocked: no request reached the model, and the command never ran; reason_to_model)
PROMPT_RULES = {
    "claude": {"exit2-stderr": (True, False), "decision-block": (True, False), "decision-deny": (False, False),
               "plain-stdout": (False, True)},   # exit 0 stdout becomes context
    "codex": {"exit2-stderr": (True, False), "decision-block": (True, False), "decision-deny": (False, False),
              "plain-stdout": (False, True)},
    "gemini": {"exit2-stderr": (True, False), "decision-block": (True, False), "decision-deny": (True, False),
               "plain-stdout": (False, False)},  # shown to the user as a system message only
}


@pytest.mark.parametrize(("agent_name", "case"), [(a, c) for a, cases in PROMPT_RULES.items() for c in cases])
def test_prompt_rule(agent_name: str, case: str, workspace: Workspace, tmp_path: Path) -> None:
    installed_or_skip(agent_name)
    target = tmp_path / "created"
    hook = scripted_hook(tmp_path / "calls", "prompt", **PROMPT_ANSWERS[case])
    run = harness.run_agent(agent_name, workspace, command=f"touch {target}",
                            hooks={harness.PROMPT_EVENT[agent_name]: hook})
    assert run.exit_status == 0 and len(recorded_calls(tmp_path / "calls", "prompt")) == 1, run.describe()
    turns = run.model_requests()
    blocked, reason_to_model = PROMPT_RULES[agent_name][case]
    assert (not turns and not target.exists()) == blocked, run.describe()
    assert any(PROMPT_REASON in t.text() for t in turns) == reason_to_model, run.describe()


@pytest.mark.skipif(shutil.which("npm") is None, reason="NOT TESTED: npm is not installed")
def test_agent_installs_keep_the_machines_npm_config(tmp_path: Path) -> None:
    # issue 29 item 9: `npm install --prefix DIR` reads DIR/etc/npmrc instead of the
    # machine's npmrc (a company's proxy CA lives there): the harness names the machine's
    npmrc = tmp_path / "npmrc"
    npmrc.write_text("registry=http://127.0.0.1:9/\n")
    npm = shutil.which("npm")
    assert npm is not None
    env = {**os.environ, "NPM_CONFIG_GLOBALCONFIG": str(npmrc)}
    assert harness._machine_npm_config(npm, env) == [f"--globalconfig={npmrc}"]
    moved = subprocess.run([npm, "config", "get", "globalconfig", "--prefix", str(tmp_path / "p")],
                           capture_output=True, text=True, env={k: v for k, v in env.items()
                                                                if k != "NPM_CONFIG_GLOBALCONFIG"}, check=True)
    assert moved.stdout.strip() == str(tmp_path / "p" / "etc" / "npmrc")  # what --prefix alone would read
    assert harness._machine_npm_config(npm, {**env, "NPM_CONFIG_GLOBALCONFIG": str(tmp_path / "none")}) == []
