#!/usr/bin/env python3
"""Ending big process trees: a hook that starts N background children, then times out
or exits. How long the runner takes to end them (from the timeout, or from the hook's
exit, to the runner's own exit) against the grace it promises, its CPU time, and
whether every child is gone afterwards. See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

MARK = "FORGE_BENCH_TREE_MARK"
TIMEOUT = 10.0  # spawning 1000 children takes 4 s on the loaded 2-core machine
GRACE = 1.0  # process.DEFAULT_KILL_GRACE
# Each child writes nothing and holds no pipe: the cost measured is finding and ending.
# {stamp}: the hook's exit, written last (date is a separate process: about a millisecond).
SCENARIOS = {
    "timeout": "i=0; while [ $i -lt {n} ]; do sleep 300 </dev/null >/dev/null 2>&1 & i=$((i+1)); done; sleep 300",
    "exit": ("i=0; while [ $i -lt {n} ]; do sleep 300 </dev/null >/dev/null 2>&1 & i=$((i+1)); done; "
             "date +%s.%N > {stamp}"),
    "setsid": ("i=0; while [ $i -lt {n} ]; do setsid sleep 300 </dev/null >/dev/null 2>&1 & i=$((i+1)); done; "
               "date +%s.%N > {stamp}"),
    # children that ignore SIGTERM (inherited): each needs its SIGKILL after the grace
    "stubborn": ("trap '' TERM; i=0; while [ $i -lt {n} ]; do sleep 300 </dev/null >/dev/null 2>&1 & "
                 "i=$((i+1)); done; date +%s.%N > {stamp}"),
}


def project(root: Path, scenario: str, children: int) -> None:
    (root / ".forge").mkdir(parents=True, exist_ok=True)
    hook = {"event": "*", "timeout": TIMEOUT if scenario == "timeout" else 120,
            "command": SCENARIOS[scenario].format(n=children, stamp=root / "exited")}
    (root / ".forge" / "hooks.json").write_text(json.dumps({"hooks": [hook]}))


def marked(mark: str) -> list[int]:
    """Live processes (not zombies) whose environment holds ``mark``."""
    found = []
    for pid in (int(p) for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open(f"/proc/{pid}/environ", "rb") as fh:
                if f"{MARK}={mark}".encode() not in fh.read().split(b"\0"):
                    continue
            with open(f"/proc/{pid}/stat", "rb") as fh:
                if fh.read().rsplit(b")", 1)[1].split()[0] != b"Z":
                    found.append(pid)
        except OSError:
            continue
    return found


def one_run(runner: str, root: Path, mark: str) -> tuple[float, float, float, int]:
    """(wall seconds, seconds ending the tree, runner CPU seconds, children left alive)."""
    argv = [runner, "--event", "session:start", "--trust-project", "--no-global"]
    env = {**os.environ, MARK: mark, "FORGE_LOG": "0"}
    (root / "exited").unlink(missing_ok=True)
    started = time.time()
    proc = subprocess.Popen(argv, cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    _, _, usage = os.wait4(proc.pid, 0)
    ended = time.time()
    proc.returncode = 0  # reaped by wait4
    stamp = root / "exited"
    ending = ended - (float(stamp.read_text()) if stamp.exists() else started + TIMEOUT)
    left = marked(mark)
    for pid in left:  # clean up for the next round, and say so
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
    return ended - started, ending, usage.ru_utime + usage.ru_stime, len(left)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--forge-hook-run", default=shutil.which("forge-hook-run"))
    parser.add_argument("--children", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--scenarios", nargs="+", default=list(SCENARIOS), choices=list(SCENARIOS))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not args.forge_hook_run:
        parser.error("forge-hook-run not found: pass --forge-hook-run PATH")
    print(f"timeout {TIMEOUT:g} s, grace {GRACE:g} s; medians of {args.rounds} rounds; ending: from the "
          "timeout or the hook's exit to the runner's exit")
    print(f"{'scenario':10} {'children':>8} {'wall s':>8} {'ending s':>9} {'runner CPU s':>13} {'left':>5}")
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in args.scenarios:
            for children in args.children:
                root = Path(tmp) / f"{scenario}-{children}"
                project(root, scenario, children)
                runs = [one_run(args.forge_hook_run, root, f"{scenario}.{children}.{i}") for i in range(args.rounds)]
                wall, ending, cpu, _ = (statistics.median(x) for x in zip(*runs))
                print(f"{scenario:10} {children:8} {wall:8.2f} {ending:9.2f} {cpu:13.2f} "
                      f"{max(r[3] for r in runs):5}", flush=True)


if __name__ == "__main__":
    main()
