#!/usr/bin/env python3
"""The OpenCode/Kilo plugin's own cost per tool call (issue 34 item 1), paired.

    python3 bench/plugin.py [--rounds 41] [--forge-hook-run PATH]

``forge-hook install --agent opencode --project`` writes the plugin into a trusted
scratch project with the recommended guards; node loads it as OpenCode does and calls
``tool.execute.before`` for a harmless ``git status``, alternating round by round with
node spawning the same forge-hook-run on the same event itself (what any agent's shell
hook costs). The difference is the plugin's own part: building the event, the spawn
through its promise, reading the answer. Medians of wall time, and their ratio. The
runner is the one install writes into the plugin: with a native client and a resident
runner in front (install.sh's), the warm path is what is measured.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

NODE = """
import { spawn } from "node:child_process";
const [plugin, directory, runner, rounds] = process.argv.slice(2);
const hooks = await (await import(plugin)).ForgeHookRun({ directory });
const args = { command: "git status", description: "status" };
const event = JSON.stringify({ type: "tool:pre_execute", tool_name: "bash", session_id: "ses_1",
  data: { tool_args: args, agent: { name: "opencode", event: "tool.execute.before", tool: "bash" } } });
function direct() {
  return new Promise((resolve) => {
    const child = spawn(runner, [], { cwd: directory, stdio: ["pipe", "pipe", "pipe"] });
    const out = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.on("close", (code) => resolve([code, Buffer.concat(out).toString("utf8")]));
    child.stdin.end(event);
  });
}
const times = { plugin: [], direct: [] };
for (let i = 0; i < Number(rounds); i++) {
  for (const name of i % 2 ? ["direct", "plugin"] : ["plugin", "direct"]) {
    const started = performance.now();
    if (name === "plugin") {
      await hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_1", callID: `c${i}` }, { args: { ...args } });
    } else {
      const [code, out] = await direct();
      if (code !== 0 || !out.startsWith('{"version":1')) throw new Error(`forge-hook-run: exit ${code}: ${out}`);
    }
    times[name].push(performance.now() - started);
  }
}
console.log(JSON.stringify(times));
"""


def median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("--forge-hook-run", default=str(Path(sys.executable).with_name("forge-hook-run")))
    args = parser.parse_args()
    if shutil.which("node") is None:
        sys.exit("bench: node is not on PATH")
    forge_hook = str(Path(args.forge_hook_run).with_name("forge-hook"))
    work = Path(tempfile.mkdtemp(prefix="forge-bench-plugin-"))
    try:
        project = work / "project"
        project.mkdir()
        env = {**os.environ, "HOME": str(work), "XDG_CONFIG_HOME": str(work / "config"),
               "XDG_DATA_HOME": str(work / "data"), "XDG_STATE_HOME": str(work / "state")}
        for command in (["add", "--project", "--guards", "recommended"], ["trust"],
                        ["install", "--agent", "opencode", "--project"]):
            subprocess.run([forge_hook, *command], cwd=project, env=env, check=True, capture_output=True)
        plugin = project / ".opencode" / "plugins" / "forge-hook-run.js"
        module = work / "plugin.mjs"  # node reads import syntax in .mjs (OpenCode's Bun in .js)
        module.write_text(plugin.read_text())
        runner = json.loads(plugin.read_text().split("const RUNNER = ", 1)[1].split(";\n", 1)[0])[0]
        script = work / "bench.mjs"
        script.write_text(NODE)
        done = subprocess.run(["node", str(script), str(module), str(project), runner, str(args.rounds)],
                              env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"bench: node failed: {done.stderr[-2000:]}")
        times = json.loads(done.stdout)
        plugin_ms, direct_ms = median(times["plugin"]), median(times["direct"])
        print(f"runner {runner}, {args.rounds} rounds: the plugin's call {plugin_ms:.1f} ms, node spawning "
              f"forge-hook-run itself {direct_ms:.1f} ms: {plugin_ms / direct_ms:.3f} x, "
              f"the plugin's own part {plugin_ms - direct_ms:+.2f} ms")
    finally:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
