"""ToolExecutor: how an agent wires hooks around its tools, with real hooks."""

from __future__ import annotations

import asyncio
import importlib
import importlib.metadata
import json
import shlex
from pathlib import Path
from typing import Any

import pytest

import forge_hookd
from forge_hookd import HOOK_TEMPLATES, Hook, HookBlockedError, HookEvent, HookExecutor, HookRegistry, ToolExecutor
from forge_hookd.answers import Answer
from forge_hookd.results import HookRun

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess


def make(tmp_path: Path, hooks: list[Hook], calls: list[str], **kw: Any) -> ToolExecutor:
    async def bash(args: dict[str, Any]) -> str:
        calls.append(args["command"])
        if args["command"] == "fail":
            raise RuntimeError("exit status 2")
        return f"ran {args['command']}"

    executor = HookExecutor(HookRegistry(hooks), working_dir=tmp_path)
    return ToolExecutor({"bash": bash}, executor=executor, session_id="s1", **kw)


def answering(answer: dict[str, Any], pattern: str = "tool:pre_execute:bash") -> Hook:
    return Hook(pattern, f"printf '%s' {shlex.quote(json.dumps(answer))}")


def test_pre_execute_hook_blocks_the_tool(tmp_path: Path) -> None:
    calls: list[str] = []
    tools = make(tmp_path, [HOOK_TEMPLATES["block_sudo"]], calls)
    with pytest.raises(HookBlockedError, match="Blocked: sudo not allowed"):
        asyncio.run(tools.execute("bash", {"command": "sudo rm -rf /"}))
    assert calls == []
    assert asyncio.run(tools.execute("bash", {"command": "ls"})) == "ran ls"
    assert calls == ["ls"]


def test_post_execute_hooks_see_the_result(tmp_path: Path) -> None:
    log = tmp_path / "post.log"
    tools = make(tmp_path, [Hook("tool:post_execute:bash", f'printf "%s" "$FORGE_TOOL_RESULT" > {log}')], [])
    asyncio.run(tools.execute("bash", {"command": "ls"}))
    assert log.read_text() == "ran ls"


def test_error_hooks_see_the_error_which_is_re_raised(tmp_path: Path) -> None:
    log = tmp_path / "error.log"
    failing_observer = Hook("tool:error", "exit 1")  # an observer's failure does not mask the error
    tools = make(tmp_path, [failing_observer, Hook("tool:error", f'printf "%s" "$FORGE_ERROR" > {log}')], [])
    with pytest.raises(RuntimeError, match="exit status 2"):
        asyncio.run(tools.execute("bash", {"command": "fail"}))
    assert log.read_text() == "exit status 2"


def test_package_exports_the_public_api() -> None:
    # each public name is the object its home module defines, not a stand-in
    homes = {"EventType": "events", "HookEvent": "events", "Hook": "registry", "HookRegistry": "registry",
             "HookExecutor": "run.executor", "HookResult": "results", "HookBlockedError": "results",
             "fire_event": "run.executor", "HookConfig": "config", "HOOK_TEMPLATES": "templates",
             "ToolExecutor": "toolexecutor"}
    for name, home in homes.items():
        assert getattr(forge_hookd, name) is getattr(importlib.import_module(f"forge_hookd.{home}"), name), name
    assert forge_hookd.__version__ == importlib.metadata.version("forge-hookd")
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        forge_hookd.nope  # noqa: B018


def test_the_tool_runs_with_the_rewritten_arguments(tmp_path: Path) -> None:
    calls: list[str] = []
    seen = tmp_path / "post.json"
    tools = make(tmp_path, [answering({"data": {"tool_args": {"command": "ls --color=never"}}}),
                            Hook("tool:post_execute:bash", f'printf "%s" "$FORGE_TOOL_ARGS" > {seen}')], calls)
    assert asyncio.run(tools.execute("bash", {"command": "ls"})) == "ran ls --color=never"
    assert calls == ["ls --color=never"]
    assert json.loads(seen.read_text()) == {"command": "ls --color=never"}  # what actually ran


def test_a_deny_answer_raises_with_its_reason(tmp_path: Path) -> None:
    calls: list[str] = []
    tools = make(tmp_path, [answering({"decision": "deny", "reason": "not today"})], calls)
    with pytest.raises(HookBlockedError, match="not today") as exc:
        asyncio.run(tools.execute("bash", {"command": "ls"}))
    assert calls == [] and exc.value.result.decision == "deny"


def test_an_ask_without_on_ask_blocks(tmp_path: Path) -> None:
    calls: list[str] = []
    tools = make(tmp_path, [answering({"decision": "ask", "reason": "push to main?"})], calls)
    with pytest.raises(HookBlockedError, match="push to main"):
        asyncio.run(tools.execute("bash", {"command": "git push"}))
    assert calls == []


@pytest.mark.parametrize("allowed", [True, False])
def test_on_ask_decides_an_ask(tmp_path: Path, allowed: bool) -> None:
    calls: list[str] = []
    asked: list[tuple[str, str | None, list[str]]] = []

    def on_ask(run: HookRun) -> bool:
        asked.append((run.decision, run.reason, run.messages))
        return allowed

    hooks = [answering({"decision": "ask", "reason": "push to main?", "message": "m"}),
             answering({"data": {"tool_args": {"command": "git push --dry-run"}}})]
    tools = make(tmp_path, hooks, calls, on_ask=on_ask)
    if allowed:
        assert asyncio.run(tools.execute("bash", {"command": "git push"})) == "ran git push --dry-run"
    else:
        with pytest.raises(HookBlockedError, match="push to main"):
            asyncio.run(tools.execute("bash", {"command": "git push"}))
    assert asked == [("ask", "push to main?", ["m"])]
    assert calls == (["git push --dry-run"] if allowed else [])


def test_on_ask_may_be_async(tmp_path: Path) -> None:
    async def on_ask(run: HookRun) -> bool:
        return True

    calls: list[str] = []
    tools = make(tmp_path, [answering({"decision": "ask"})], calls, on_ask=on_ask)
    assert asyncio.run(tools.execute("bash", {"command": "ls"})) == "ran ls"


def test_the_run_and_its_results_carry_the_answers(tmp_path: Path) -> None:
    executor = HookExecutor(HookRegistry([
        answering({"decision": "ask", "reason": "r", "context": "c", "message": "m", "data": {"x": 1}}, "*"),
        Hook("*", "exit 1", blocking=False)]), working_dir=tmp_path)
    run = executor.run(HookEvent.tool_pre_execute("bash", {"command": "ls"}))
    assert (run.decision, run.reason, run.context, run.messages) == ("ask", "r", ["c"], ["m"])
    assert run.data == {"tool_args": {"command": "ls"}, "x": 1}
    first, observer = run.results
    assert first.answer == Answer(decision="ask", reason="r", data={"x": 1}, context="c", message="m")
    assert (first.decision, first.should_continue) == ("ask", False)
    assert (observer.decision, observer.should_continue, observer.success) == ("deny", True, False)


def test_the_seeds_module_paths_still_import() -> None:
    # programs written against the seed import the executor by its old module path
    from forge_hookd.executor import HookExecutor, fire_event
    from forge_hookd.run import executor

    assert HookExecutor is executor.HookExecutor and fire_event is executor.fire_event
