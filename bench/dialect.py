#!/usr/bin/env python3
"""forge-hook-run --dialect claude beside native mode: the cost of speaking an agent's
protocol.

Both run one trusted project with one `tool:pre_execute:bash` hook (`true`), rounds
alternating which goes first. Native reads a forge event on stdin; the dialect path reads
the PreToolUse payload recorded from the real Claude Code 2.1.328
(tests/realagents/payloads/claude/PreToolUse.json) and answers in Claude's form; Cursor's
beforeShellExecution (its docs' payload) and Copilot's preToolUse (recorded from 1.0.102)
are timed the same way. Prints the medians and their ratios (target: at most 1.05). Uses the forge-hook-run installed beside
this interpreter unless --exe is given (run.py's real install is fairer: an editable
install adds an import hook to every start, equally to both sides).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAYLOAD = ROOT / "tests" / "realagents" / "payloads" / "claude" / "PreToolUse.json"
CURSOR = ROOT / "tests" / "realagents" / "payloads" / "cursor" / "beforeShellExecution.json"
COPILOT = ROOT / "tests" / "realagents" / "payloads" / "copilot" / "preToolUse.recorded.json"


def timed(argv: list[str], stdin: bytes, cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system of the run and its hook), in ms. CPU time
    is what a loaded machine disturbs least."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, input=stdin, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("--exe", default=str(Path(sys.executable).parent / "forge-hook-run"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        project = work / "project"
        (project / ".forge").mkdir(parents=True)
        (project / ".forge" / "hooks.json").write_text(json.dumps(
            {"hooks": [{"event": "tool:pre_execute:bash", "command": "true"}]}))
        env = {**os.environ, "HOME": str(work), "XDG_CONFIG_HOME": str(work / "config"),
               "XDG_STATE_HOME": str(work / "state"), "XDG_DATA_HOME": str(work / "data"),
               "FORGE_TRUST_PROJECT": "1"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiling on every start would be timed
        # Under --dialect FORGE_TRUST_PROJECT counts only where the global file allows it
        # (run/envgate.py); else the project hook would not run and every event would warn.
        (work / "config" / "forge").mkdir(parents=True)
        (work / "config" / "forge" / "hooks.json").write_text(json.dumps(
            {"allow_env": ["FORGE_TRUST_PROJECT"], "hooks": []}))
        payload = json.loads(PAYLOAD.read_text())
        payload["cwd"] = str(project)
        native_event = json.dumps({"type": "tool:pre_execute", "tool_name": "bash",
                                   "session_id": payload["session_id"],
                                   "data": {"tool_args": payload["tool_input"]}}).encode()
        cursor = {**json.loads(CURSOR.read_text()), "cwd": str(project), "workspace_roots": [str(project)]}
        copilot = {**json.loads(COPILOT.read_text()), "cwd": str(project)}
        sides = {"native": ([args.exe], native_event),
                 "dialect claude": ([args.exe, "--dialect", "claude"], json.dumps(payload).encode()),
                 "dialect cursor": ([args.exe, "--dialect", "cursor"], json.dumps(cursor).encode()),
                 "dialect copilot": ([args.exe, "--dialect", "copilot:preToolUse"], json.dumps(copilot).encode())}
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in sides}
        for argv, stdin in sides.values():  # warm-up: write the bytecode caches
            timed(argv, stdin, project, env)
        for r in range(args.rounds):
            order = list(sides)[r % len(sides):] + list(sides)[:r % len(sides)]  # rotate who goes first
            for name in order:
                argv, stdin = sides[name]
                samples[name].append(timed(argv, stdin, project, env))
    for i, what in enumerate(("wall", "CPU")):
        medians = {name: statistics.median(x[i] for x in xs) for name, xs in samples.items()}
        ratios = ", ".join(f"{name} {medians[name]:7.2f} ms ({medians[name] / medians['native']:.3f}x)"
                           for name in sides if name != "native")
        print(f"{what:4}: native {medians['native']:7.2f} ms, {ratios} (target <= 1.05x; "
              f"medians of {args.rounds} rounds)")


if __name__ == "__main__":
    main()
