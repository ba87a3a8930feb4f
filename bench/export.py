"""The export's cost on the answer path (issue 35 item 4): forge-hook-run with one
matching hook, side by side with and without ``"export": {"syslog": ...}`` in the global
file, alternating rounds, medians compared. With export a run also appends its record
to the spool (one open and one write); nothing is sent.

    python3 bench/export.py [--rounds 41] [--runner PATH] [--instructions]

``--instructions`` counts instead the instructions of one run each under callgrind (the
hook's own process not traced): a figure the machine's load does not move.

The runner defaults to the forge-hook-run beside this interpreter. Figures in
bench/README.md ("export.py").
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
from pathlib import Path


def _home(root: Path, export: bool) -> dict[str, str]:
    home = root / ("with" if export else "without")
    config = home / ".config" / "forge"
    config.mkdir(parents=True)
    doc: dict[str, object] = {"hooks": [{"event": "tool:pre_execute:bash", "command": "true"}]}
    if export:
        doc["export"] = {"syslog": "udp://127.0.0.1:9"}
    (config / "hooks.json").write_text(json.dumps(doc))
    return {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_STATE_HOME": str(home / ".local/state"), "XDG_DATA_HOME": str(home / ".local/share"),
            "FORGE_WARM": "0"}


def _once(runner: str, env: dict[str, str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run([runner, "--event", "tool:pre_execute", "--tool", "bash", "--data", '{"tool_args": {}}'],
                   env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def _instructions(runner: str, env: dict[str, str], cwd: Path) -> int:
    env = {**{k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONHASHSEED": "0"}
    argv = [runner, "--event", "tool:pre_execute", "--tool", "bash", "--data", '{"tool_args": {}}']
    subprocess.run(argv, env=env, cwd=cwd, capture_output=True, check=False)  # byte code written
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv], env=env,
                          cwd=cwd, capture_output=True, text=True, check=False)
    collected = [line for line in proc.stderr.splitlines() if "Collected" in line]
    if proc.returncode != 0 or not collected:
        sys.exit(f"bench: the run ended otherwise under valgrind (exit {proc.returncode}): {proc.stderr[-2000:]}")
    return int(collected[-1].split()[-1].replace(",", ""))


def _append_cost(root: Path) -> float:
    """The marginal cost itself: one spool append, timed in this process."""
    from forge_hookd.log import spool

    line = json.dumps({"v": 1, "pad": "x" * 2000}).encode() + b"\n"
    path = str(root / "spool")
    samples = []
    for _ in range(2001):
        started = time.perf_counter()
        spool.spool(line, path=path, limit=1 << 40)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("--runner", default=str(Path(sys.executable).with_name("forge-hook-run")))
    parser.add_argument("--instructions", action="store_true", help="count instructions (callgrind) instead")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="forge-bench-export-"))
    try:
        envs = {"without": _home(root, False), "with": _home(root, True)}
        if args.instructions:
            counts = {name: _instructions(args.runner, env, root) for name, env in envs.items()}
            print(f"instructions: without export {counts['without']:,}, with export {counts['with']:,}: "
                  f"{counts['with'] / counts['without']:.5f} x")
            return 0
        times: dict[str, list[float]] = {"without": [], "with": []}
        for name in ("without", "with"):
            _once(args.runner, envs[name], root)  # warm the page cache
        for _ in range(args.rounds):
            for name in ("without", "with"):
                times[name].append(_once(args.runner, envs[name], root))
        without, with_ = statistics.median(times["without"]), statistics.median(times["with"])
        print(f"rounds {args.rounds}: median without export {without * 1000:.1f} ms, with export "
              f"{with_ * 1000:.1f} ms: {with_ / without:.3f} x")
        append = _append_cost(root)
        print(f"the spool append alone (a 2 KiB record, median of 2001): {append * 1e6:.1f} us, "
              f"{append / without * 100:.3f}% of the run without export")
    finally:
        shutil.rmtree(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
