#!/usr/bin/env python3
"""Paired comparison of two revisions of forge-hook-run on bench/run.py's projects.

    python3 bench/ab.py [--rounds 101] [BASE [CANDIDATE]]    (default: main HEAD)
    python3 bench/ab.py --instructions [BASE [CANDIDATE]]

Installs each revision (``git archive``, then a real, non-editable install) into its own
virtualenv, builds bench/run.py's throwaway projects for each, then runs 0, 1 and 100
hooks of ``true`` for both, alternating which goes first round by round. Reports, per
scenario, wall time and CPU time (user + system of the runner and its hooks, from
``wait4``) as medians and as the median of the per-round ratios. On a shared machine the
CPU time and the paired ratio are the figures to trust: wall time moves with the load.

``--instructions`` counts instead the instructions of one run of each (valgrind's
callgrind, the runner's own process: its hooks are not traced): the same count for the
same code whatever else the machine does, where a loaded machine's CPU times move by
10%. Python writes its byte code first, so no run pays for compiling.

Two more scenarios are a pre-tool bash call (``ls``) judged by the recommended guards
beside one command hook: ``pack + hook`` (the hook prints nothing: no rewrite) and
``pack + rewrite`` (it rewrites the command to ``ls --color=never``, which the guards
judge again since issue 32).
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
import run as bench  # noqa: E402  (bench/run.py: the environment and the projects)

SCENARIOS = ["0 hooks", "1 hook", "100 hooks", "pack + hook", "pack + rewrite"]
#: the recommended guards (forge_hookd.guards.RECOMMENDED), as entries
PACK = [{"event": "tool:pre_execute", "guard": name} for name in (
    "destructive_rm", "force_push", "destructive_git", "secret_files", "hardcoded_secrets", "remote_code",
    "self_protection")]
GUARDED_HOOKS = {"pack + hook": "true",
                 "pack + rewrite": """echo '{"data": {"tool_args": {"command": "ls --color=never"}}}'"""}


def install(rev: str, work: Path, env: dict[str, str]) -> bench.Runner:
    src = work / f"src-{rev}"
    src.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(bench.ROOT), "archive", rev], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive.stdout, check=True)
    bench.ROOT = src  # build_env installs bench.ROOT
    venv = bench.build_env(work / f"venv-{rev}", peers=False)
    runner = bench.forge_projects(work / f"projects-{rev}", venv, env)
    for scenario, hook in GUARDED_HOOKS.items():  # a pre-tool call, judged by the pack
        root = work / f"projects-{rev}" / "forge" / scenario.replace(" + ", "_")
        (root / ".forge").mkdir(parents=True)
        (root / ".forge/hooks.json").write_text(json.dumps(
            {"hooks": [*PACK, {"event": "tool:pre_execute:bash", "command": hook}]}))
        bench.sh(str(venv / "bin/forge-hook"), "trust", cwd=root, env=env)
        runner.commands[scenario] = [str(venv / "bin/forge-hook-run"), "--event", "tool:pre_execute", "--tool", "bash",
                                     "--data", '{"tool_args": {"command": "ls"}}']
        runner.cwd[scenario] = root
    return runner


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU time of one run, in ms."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    return (time.perf_counter() - started) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


# Under callgrind, valgrind keeps SIGRTMAX for itself: a handler for it fails with EINVAL,
# and forge-hook-run, which answers every ending signal from its first instruction
# (__main__.answer_signals_during_startup), died there with a traceback, so that every
# scenario counted the same ~66.7 M instructions of that crash. forge-hook-run now leaves
# such a signal as it is (signalnames.catch_runner_signals); for a base revision before
# that, the valgrind runs get this sitecustomize (through PYTHONPATH), which lets that one
# call pass; both revisions pay it alike. And a count is taken only of a run that ended as it does outside valgrind.
SITECUSTOMIZE = """
import _signal
_install = _signal.signal
def _all_but_valgrinds(signum, handler):
    try:
        return _install(signum, handler)
    except OSError:
        if signum != _signal.SIGRTMAX:
            raise
        return _signal.SIG_DFL
_signal.signal = _all_but_valgrinds
"""


def instructions(argv: list[str], cwd: Path, env: dict[str, str], stdin: bytes = b"") -> int:
    """Instructions the runner executes for one cold run (callgrind; hooks not traced), ``stdin``
    its input. With one hash seed, the count of one revision moves by a few hundred
    instructions from run to run (by about 250,000 with a random seed each)."""
    # FORGE_WARM=0: a resident runner of this user's would serve the run, and callgrind would
    # count its client alone (a runner left up by `forge-hook warm on` once did so)
    env = {**{k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONHASHSEED": "0",
           "FORGE_WARM": "0"}
    plain = subprocess.run(argv, cwd=cwd, env=env, input=stdin, capture_output=True)  # byte code written
    site = cwd / ".valgrind-site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv], cwd=cwd,
                          env={**env, "PYTHONPATH": str(site)}, input=stdin.decode(), capture_output=True,
                          text=True)
    if proc.returncode != plain.returncode or not proc.stdout.startswith('{"version":1,"event"'):
        sys.exit(f"bench: {' '.join(argv)} ended otherwise under valgrind (exit {proc.returncode}, "
                 f"{plain.returncode} without): {proc.stderr[-2000:]}")
    collected = [line for line in proc.stderr.splitlines() if "Collected" in line]
    return int(collected[-1].split()[-1].replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=101)
    parser.add_argument("--instructions", action="store_true", help="count instructions (callgrind) instead")
    parser.add_argument("base", nargs="?", default="main")
    parser.add_argument("candidate", nargs="?", default="HEAD")
    args = parser.parse_args()
    revs = [args.base, args.candidate]
    work = Path(tempfile.mkdtemp(prefix="forge-ab-"))
    env = {**os.environ, "XDG_DATA_HOME": str(work / "data"), "XDG_CONFIG_HOME": str(work / "config")}
    env.pop("FORGE_HOOK_CHAIN", None)
    root = bench.ROOT
    try:
        runners = {}
        for rev in revs:
            bench.ROOT = root
            runners[rev] = install(rev, work, env)
        if args.instructions:
            for scenario in SCENARIOS:
                counts = {rev: instructions(runners[rev].commands[scenario], runners[rev].cwd[scenario], env)
                          for rev in revs}
                print(f"{scenario:10} instructions  {revs[0]} {counts[revs[0]]:>13,}  {revs[1]} "
                      f"{counts[revs[1]]:>13,}  ratio {counts[revs[1]] / counts[revs[0]]:.3f}")
            return
        samples: dict[tuple[str, str], list[tuple[float, float]]] = {(r, s): [] for r in revs for s in SCENARIOS}
        for i in range(args.rounds):
            for scenario in SCENARIOS:
                for rev in revs if i % 2 == 0 else reversed(revs):
                    runner = runners[rev]
                    samples[rev, scenario].append(timed(runner.commands[scenario], runner.cwd[scenario], env))
            print(f"\rbench: round {i + 1}/{args.rounds}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        report(revs, samples, args.rounds)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(revs: list[str], samples: dict[tuple[str, str], list[tuple[float, float]]], rounds: int,
           names: list[str] | None = None) -> None:
    """Medians per scenario (``names``, else every scenario of this script), the ratio of
    the medians and the median of the paired ratios, for wall and CPU time."""
    base, cand = revs
    print(f"{rounds} paired rounds, {cand} against {base}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f} at the end\n")
    for scenario in names if names is not None else SCENARIOS:
        for k, name in enumerate(("wall", "cpu")):
            a = [s[k] for s in samples[base, scenario]]
            b = [s[k] for s in samples[cand, scenario]]
            paired = statistics.median(y / x for x, y in zip(a, b, strict=True))
            print(f"{scenario:17} {name:4}  {base} {statistics.median(a):7.1f} ms  {cand} "
                  f"{statistics.median(b):7.1f} ms  ratio {statistics.median(b) / statistics.median(a):.3f}"
                  f"  paired {paired:.3f}")


if __name__ == "__main__":
    main()
