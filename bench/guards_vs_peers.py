"""The guard corpus through forge's pack and through claude-code-safety-net, side by side.

Per category of tests/guards/corpus: the share of dangerous cases each catches (ask or
deny) and the share of benign look-alikes each refuses. Our pack runs in-process (the
API the executor will call); claude-code-safety-net runs as Claude Code runs it, one
process per call, a PreToolUse payload on stdin (``cc-safety-net hook --claude-code``).

    python3 bench/guards_vs_peers.py                # installs cc-safety-net@2.4.5 once
    python3 bench/guards_vs_peers.py --jobs 2 --json figures.json

The npm package is installed with ``npm install --prefix`` into a cache
(``$FORGE_PEER_CACHE``, default ``~/.cache/forge-hook-run-peers``), as
tests/realagents/harness.py installs the agents. The corpus's paths (``/home/user/...``)
are moved into a real temporary home for the peer: it fails closed on a working
directory that does not exist. Cases whose input Claude cannot send (a Codex patch, a
Gemini ``paths`` list) are counted for us only and shown apart.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forge_hookd.guards import GUARDS, Context, make, worst  # noqa: E402

PEER = "cc-safety-net@2.4.5"
HOME = "/home/user"
CLAUDE_TOOLS = {"bash": "Bash", "read": "Read", "write": "Write", "edit": "Edit", "glob": "Glob", "grep": "Grep"}
KEYS = {"path": "file_path", "filePath": "file_path", "absolute_path": "file_path", "file_text": "content",
        "new_str": "new_string", "old_str": "old_string"}


def install(cache: Path) -> Path:
    binary = cache / "node_modules" / ".bin" / "cc-safety-net"
    if not binary.exists():
        npm = shutil.which("npm")
        if npm is None:
            sys.exit("npm is not on PATH")
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "install", "--prefix", str(cache), "--no-audit", "--no-fund", PEER], check=True,
                       stdout=subprocess.DEVNULL)
    return binary


def corpus() -> list[dict[str, Any]]:
    cases = []
    for path in sorted((ROOT / "tests" / "guards" / "corpus").glob("*.jsonl")):
        cases += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return cases


def claude_payload(case: dict[str, Any], home: str) -> dict[str, Any] | None:
    """The case as Claude Code's PreToolUse payload; None when Claude cannot say it."""
    tool = CLAUDE_TOOLS.get(case["tool"])
    tool_input = {KEYS.get(k, k): v for k, v in case["tool_input"].items()}
    if tool is None or "paths" in tool_input or (tool != "Bash" and "command" in tool_input):
        return None
    if "edits" in tool_input:
        tool = "MultiEdit"
    text = json.dumps(tool_input).replace(HOME, home)
    return {"session_id": "bench", "transcript_path": "/dev/null", "cwd": f"{home}/project",
            "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": json.loads(text)}


def peer_decision(binary: Path, payload: dict[str, Any], home: str) -> tuple[str, float]:
    env = {**os.environ, "HOME": home}
    start = time.perf_counter()
    done = subprocess.run([str(binary), "hook", "--claude-code"], input=json.dumps(payload), capture_output=True,
                          text=True, env=env, timeout=60)
    elapsed = time.perf_counter() - start
    if done.returncode == 2:
        return "deny", elapsed
    try:
        answer = json.loads(done.stdout) if done.stdout.strip() else {}
    except json.JSONDecodeError:
        return "allow", elapsed
    decision = answer.get("hookSpecificOutput", {}).get("permissionDecision", "allow")
    return (decision if decision in ("deny", "ask") else "allow"), elapsed


def ours(cases: list[dict[str, Any]]) -> tuple[list[str], list[float]]:
    context = Context.from_env(f"{HOME}/project", {"HOME": HOME})
    pack = [make(name) for name in GUARDS]
    decisions, times = [], []
    for case in cases:
        start = time.perf_counter()
        decisions.append(worst(g.judge(case["tool"], case["tool_input"], context) for g in pack).decision)
        times.append(time.perf_counter() - start)
    return decisions, times


def table(cases: list[dict[str, Any]], mine: list[str], theirs: list[str | None]) -> list[str]:
    total: Counter[str] = Counter()
    hit: Counter[tuple[str, str]] = Counter()
    for case, a, b in zip(cases, mine, theirs):
        kind = "danger" if case["expected"] != "allow" else "benign"
        key = f"{case['category']}/{kind}"
        if b is None:
            key += "/ours-only"
        total[key] += 1
        hit[(key, "ours")] += a != "allow"
        hit[(key, "peer")] += b is not None and b != "allow"

    def pct(key: str, who: str) -> str:
        return f"{100 * hit[(key, who)] / total[key]:.0f}%" if total[key] else "-"

    lines = [f"{'category':22} {'dangerous':>9} {'caught: forge':>13} {'safety-net':>10}   {'benign':>6} "
             f"{'refused: forge':>14} {'safety-net':>10}"]
    for category in sorted({k.split("/")[0] for k in total}):
        d, b = f"{category}/danger", f"{category}/benign"
        lines.append(f"{category:22} {total[d]:>9} {pct(d, 'ours'):>13} {pct(d, 'peer'):>10}   {total[b]:>6} "
                     f"{pct(b, 'ours'):>14} {pct(b, 'peer'):>10}")
    for key in sorted(k for k in total if k.endswith("/ours-only")):
        lines.append(f"  (not expressible as a Claude payload: {key.rsplit('/', 1)[0]} x{total[key]}, "
                     f"forge {'caught' if 'danger' in key else 'refused'} {pct(key, 'ours')})")
    dangerous = [i for i, c in enumerate(cases) if c["expected"] != "allow" and theirs[i] is not None]
    benign = [i for i, c in enumerate(cases) if c["expected"] == "allow" and theirs[i] is not None]
    for name, index in (("ours", mine), ("peer", theirs)):
        caught = sum(index[i] != "allow" for i in dangerous) / len(dangerous)
        refused = sum(index[i] != "allow" for i in benign) / len(benign)
        lines.append(f"all ({name}): caught {100 * caught:.1f}% of {len(dangerous)}, refused {100 * refused:.1f}% "
                     f"of {len(benign)}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    cache = Path(os.environ.get("FORGE_PEER_CACHE", Path.home() / ".cache" / "forge-hook-run-peers"))
    binary = install(cache)
    cases = corpus()[: args.limit or None]
    mine, my_times = ours(cases)
    with tempfile.TemporaryDirectory() as tmp:
        home = os.path.join(tmp, "home", "user")
        os.makedirs(os.path.join(home, "project"))
        payloads = [claude_payload(c, home) for c in cases]
        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda p: peer_decision(binary, p, home) if p is not None else (None, 0.0),
                                    payloads))
    theirs = [r[0] for r in results]
    print("\n".join(table(cases, mine, theirs)))
    peer_times = [r[1] for r in results if r[0] is not None]
    print(f"per call: forge pack in-process median {statistics.median(my_times) * 1e6:.0f} us; "
          f"safety-net process median {statistics.median(peer_times) * 1e3:.0f} ms")
    if args.json:
        args.json.write_text(json.dumps({"cases": [{"input": c["tool_input"], "category": c["category"],
                                                    "expected": c["expected"], "forge": a, "peer": b}
                                                   for c, a, b in zip(cases, mine, theirs)]}, indent=1))


if __name__ == "__main__":
    main()
