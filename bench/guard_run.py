#!/usr/bin/env python3
"""What the built-in guard pack costs a whole run of forge-hook-run, paired.

    python3 bench/guard_run.py [--rounds 41] [--forge-hook-run PATH]

Three trusted projects, one pre-tool bash event each round (a command every guard lets
pass, so that all twelve judge it whole):

- ``none``: no hook;
- ``pack``: the whole pack, all thirteen guards on ``tool:pre_execute`` (judged in-process);
- ``awk``: one shell hook, the old ``block_sudo`` template (bench/block_sudo_awk.sh).

Each round runs the three, the order rotated round by round, and takes wall time and
CPU time (user + system of the run and everything it started, from ``wait4``). It
prints medians and the median of the per-round ratios: pack/none (issue 22: within
1.05), pack/awk and awk/none. Without ``--forge-hook-run`` it builds a virtualenv with
forge-hook-run from this checkout, a real install, as bench/run.py does.

``--instructions`` counts instead the instructions of one cold run of each (callgrind, as
bench/ab.py counts them: byte code written first, one hash seed, ``FORGE_WARM=0``), the
figure of issue 31 item 13 (the pack within 1.05 x a run with no hook): the same count
whatever the load.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as bench  # noqa: E402  (bench/run.py: building the environment)

HERE = Path(__file__).resolve().parent
EVENT = {"type": "tool:pre_execute", "tool_name": "bash", "session_id": "s1",
         "data": {"tool_args": {"command": 'git add -A && git commit -m "fix: parse" && npm test'}}}
NAMES = ("none", "pack", "awk")
#: the built-in guard pack, every guard (bench/warm.py times it warm too)
PACK = ("destructive_rm", "force_push", "destructive_git", "secret_files", "hardcoded_secrets", "remote_code",
        "infra_destructive", "package_policy", "protected_paths", "privilege_escalation", "no_verify",
        "self_protection", "machine_wide")


def awk_command() -> str:
    """The old template's command: bench/block_sudo_awk.sh without its comment lines."""
    text = (HERE / "block_sudo_awk.sh").read_text()
    return "\n".join(line for line in text.splitlines() if not line.startswith("# ")).strip()


def projects(work: Path, forge_hook: str, env: dict[str, str]) -> dict[str, Path]:
    from_pack = [{"event": "tool:pre_execute", "guard": name} for name in PACK]
    hooks = {"none": [], "pack": from_pack, "awk": [{"event": "tool:pre_execute:bash", "command": awk_command()}]}
    roots = {}
    for name in NAMES:
        root = work / name
        (root / ".forge").mkdir(parents=True)
        (root / ".forge" / "hooks.json").write_text(json.dumps({"hooks": hooks[name]}))
        subprocess.run([forge_hook, "trust"], cwd=root, env=env, check=True, capture_output=True)
        roots[name] = root
    return roots


def timed(argv: list[str], cwd: Path, env: dict[str, str], stdin: Path) -> tuple[float, float, int]:
    """Wall and CPU ms of one run, and its exit status."""
    with open(stdin, "rb") as event:
        started = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=event, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    return (time.perf_counter() - started) * 1000, (usage.ru_utime + usage.ru_stime) * 1000, \
        os.waitstatus_to_exitcode(status)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("--forge-hook-run", help="an installed forge-hook-run (forge-hook beside it)")
    parser.add_argument("--instructions", action="store_true", help="count instructions (callgrind) instead")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="forge-guard-run-"))
    env = {**os.environ, "XDG_DATA_HOME": str(work / "data"), "XDG_CONFIG_HOME": str(work / "config"),
           "XDG_STATE_HOME": str(work / "state")}
    for name in ("FORGE_HOOK_CHAIN", "PYTHONDONTWRITEBYTECODE"):  # bytecode as users have it
        env.pop(name, None)
    try:
        runner = args.forge_hook_run or str(bench.build_env(work / "env", peers=False) / "bin" / "forge-hook-run")
        roots = projects(work / "projects", str(Path(runner).with_name("forge-hook")), env)
        stdin = work / "event.json"
        stdin.write_text(json.dumps(EVENT))
        for name in NAMES:  # warm the caches (bytecode, page cache); each must allow
            assert timed([runner], roots[name], env, stdin)[2] == 0, name
        if args.instructions:
            import ab  # bench/ab.py: callgrind's count of one run

            counts = {name: ab.instructions([runner], roots[name], env, stdin.read_bytes()) for name in NAMES}
            for name in NAMES:
                print(f"{name:5} {counts[name]:>13,} instructions   / none {counts[name] / counts['none']:.3f}")
            return
        samples: dict[str, list[tuple[float, float]]] = {n: [] for n in NAMES}
        for i in range(args.rounds):
            order = NAMES[i % 3:] + NAMES[:i % 3]
            for name in order:
                wall, cpu, _ = timed([runner], roots[name], env, stdin)
                samples[name].append((wall, cpu))
            print(f"\rbench: round {i + 1}/{args.rounds}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        report(samples, args.rounds)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(samples: dict[str, list[tuple[float, float]]], rounds: int) -> None:
    print(f"{rounds} rounds, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name in NAMES:
        wall = statistics.median(w for w, _ in samples[name])
        cpu = statistics.median(c for _, c in samples[name])
        print(f"{name:5} wall {wall:7.1f} ms   cpu {cpu:7.1f} ms")
    for a, b in (("pack", "none"), ("pack", "awk"), ("awk", "none")):
        for k, what in ((0, "wall"), (1, "cpu")):
            ratio = statistics.median(x[k] / y[k] for x, y in zip(samples[a], samples[b], strict=True))
            print(f"{a}/{b} {what}: {ratio:.3f} (median of per-round ratios)")


if __name__ == "__main__":
    main()
