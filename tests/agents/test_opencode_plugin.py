"""forge's OpenCode/Kilo plugin (agents/opencode_plugin.js, agents/plugins.py), as the
install writes it, loaded by node the way OpenCode loads a plugin and called as
OpenCode calls tool.execute.before: a deny throws with the reason, a rewrite lands in
output.args, forge-hook-run that cannot start throws (fail closed)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from helpers import Project, Run, run_installed

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")

CALL = """
const [plugin, directory, tool, args] = process.argv.slice(2);
const hooks = await (await import(plugin)).ForgeHookRun({ directory });
const output = { args: JSON.parse(args) };
const started = performance.now();
try {
  await hooks["tool.execute.before"]({ tool, sessionID: "ses_1", callID: "call_1" }, output);
  console.log(JSON.stringify({ ok: true, args: output.args, ms: performance.now() - started }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, message: error.message }));
}
"""


def forge_hook(project: Project, *args: str) -> Run:
    run = run_installed(list(args), cwd=project.root, prog="forge-hook")
    assert run.exit_status == 0, run.stderr
    return run


def call(project: Project, plugin: Path, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    module = project.root.parent / "plugin.mjs"  # node 20 reads import syntax in .mjs (OpenCode's Bun in .js)
    module.write_text(plugin.read_text())
    script = project.root.parent / "call.mjs"
    script.write_text(CALL)
    done = subprocess.run(["node", str(script), str(module), str(project.root), tool, json.dumps(args)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


@pytest.mark.parametrize("agent, where", [("opencode", ".opencode/plugins"), ("kilo", ".kilo/plugin")])
def test_install_writes_the_plugin_and_a_guard_denies_rm_rf_home_by_throwing(agent: str, where: str,
                                                                              project: Project) -> None:
    forge_hook(project, "install", "--agent", agent, "--project")
    plugin = project.root / where / "forge-hook-run.js"
    assert f'const AGENT = "{agent}"' in plugin.read_text()
    project.write_hooks([{"event": "tool:pre_execute", "guard": "destructive_rm"}])
    denied = call(project, plugin, "bash", {"command": "rm -rf ~", "description": "clean"})
    assert denied["ok"] is False and "destructive_rm" in denied["message"]
    calm = call(project, plugin, "bash", {"command": "ls", "description": "list"})
    assert calm == {"ok": True, "args": {"command": "ls", "description": "list"}, "ms": calm["ms"]}
    forge_hook(project, "install", "--agent", agent, "--project", "--uninstall")
    assert list(project.root.iterdir()) == [project.root / ".forge"]


def test_a_rewrite_replaces_the_tool_args_and_an_ask_throws(project: Project) -> None:
    forge_hook(project, "install", "--agent", "opencode", "--project")
    plugin = project.root / ".opencode/plugins/forge-hook-run.js"
    answer = {"data": {"tool_args": {"command": "ls --color=never", "description": None}}}
    project.write_hooks([
        {"event": "tool:pre_execute:bash", "command": f"echo '{json.dumps(answer)}'"},
        {"event": "tool:pre_execute:write", "command": """echo '{"decision": "ask", "reason": "a new file"}'"""}])
    rewritten = call(project, plugin, "bash", {"command": "ls", "description": "list"})
    assert rewritten["ok"] is True and rewritten["args"] == {"command": "ls --color=never"}
    asked = call(project, plugin, "write", {"filePath": "a.txt", "content": "x"})
    assert asked == {"ok": False, "message": "a person must decide (this agent cannot ask here): a new file"}


def test_forge_hook_run_that_cannot_start_fails_closed_and_doctor_says_so(project: Project) -> None:
    forge_hook(project, "install", "--agent", "opencode", "--project")
    plugin = project.root / ".opencode/plugins/forge-hook-run.js"
    text = plugin.read_text()
    line = next(line for line in text.splitlines() if line.startswith("const RUNNER = "))
    plugin.write_text(text.replace(line, 'const RUNNER = ["/nonexistent/forge-hook-run"];'))
    gone = call(project, plugin, "bash", {"command": "ls"})
    assert gone["ok"] is False and gone["message"].startswith("forge-hook-run could not be started")
    report = json.loads(run_installed(["doctor", "--json"], cwd=project.root, prog="forge-hook").stdout)
    opencode = next(r for r in report["agents"] if r["agent"] == "opencode")
    assert any("/nonexistent/forge-hook-run" in f and "fails closed" in f for f in opencode["findings"])
    # forge-hook-run that fails without an answer (any status but 0, 1 and 4): fail closed too
    plugin.write_text(text.replace(line, 'const RUNNER = ["/bin/sh", "-c", "echo boom >&2; exit 3"];'))
    failed = call(project, plugin, "bash", {"command": "ls"})
    assert failed == {"ok": False, "message": "forge-hook-run could not check this call: boom"}
