#!/usr/bin/env python3
"""What the built-in guard pack costs a resident runner's worker, paired.

    python3 bench/warm_worker.py [--rounds 101]

The resident runner (forge_hookd/warm/runner.py) imports everything a run may import,
warms the guards, freezes what it made out of the collector's reach and forks one worker
per event. This bench does the same in one process, with this checkout's package: it
calls the runner's own ``preload()``, ``gc.collect()`` and ``gc.freeze()``, then forks a
worker per event that runs :func:`forge_hookd.__main__.run_cold` on the pre-tool bash
event of bench/guard_run.py, in a trusted project with no hook (``none``) and with all
thirteen guards (``pack``), alternating. Each worker's CPU time (user + system, from
``wait4``) is what it spent on its event, copy-on-write faults of the frozen pages
included; the runner's own share (forking the next spare, reaping) is the same for both
and left out. It prints medians and the median of the per-round ratios pack / none (issue
31 item 13: within 1.05), and the same for a second run in the same worker (pages already
copied, caches filled: the cost of the run itself).
"""

from __future__ import annotations

import argparse
import gc
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
from guard_run import EVENT, PACK  # noqa: E402  (bench/guard_run.py: the event and the pack)

NAMES = ("none", "pack")


def projects(work: Path, forge_hook: str) -> dict[str, Path]:
    hooks = {"none": [], "pack": [{"event": "tool:pre_execute", "guard": name} for name in PACK]}
    roots = {}
    for name in NAMES:
        root = work / name
        (root / ".forge").mkdir(parents=True)
        (root / ".forge" / "hooks.json").write_text(json.dumps({"hooks": hooks[name]}))
        subprocess.run([forge_hook, "trust"], cwd=root, check=True, capture_output=True)
        roots[name] = root
    return roots


def worker(root: Path, event: Path, runs: int, report: int) -> None:
    """The forked worker: ``runs`` cold runs of the event in ``root``, each one's CPU
    nanoseconds written to ``report``; never returns."""
    from forge_hookd.__main__ import run_cold

    os.chdir(root)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    spent = []
    for _ in range(runs):
        fd = os.open(event, os.O_RDONLY)
        os.dup2(fd, 0)
        os.close(fd)
        sys.argv = ["forge-hook-run"]
        started = time.process_time_ns()
        try:
            status = run_cold()
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
        spent.append(time.process_time_ns() - started if status == 0 else -1)
    os.write(report, (json.dumps(spent) + "\n").encode())
    os._exit(0)


def one(root: Path, event: Path) -> tuple[float, float, float]:
    """A worker's CPU ms (wait4) for its event, and its first and second run's own."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        worker(root, event, 2, write)
    os.close(write)
    _, status, usage = os.wait4(pid, 0)
    with os.fdopen(read) as lines:
        first, second = json.loads(lines.read())
    if os.waitstatus_to_exitcode(status) != 0 or first < 0 or second < 0:
        sys.exit(f"bench: the run in {root} did not allow")
    return (usage.ru_utime + usage.ru_stime) * 1000, first / 1e6, second / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=101)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="forge-warm-worker-"))
    for name, value in (("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state"),
                        ("HOME", "home")):
        os.environ[name] = str(work / value)
    os.environ.pop("FORGE_HOOK_CHAIN", None)
    (work / "home").mkdir()
    try:
        forge_hook = shutil.which("forge-hook", path=str(Path(sys.executable).parent)) or "forge-hook"
        roots = projects(work / "projects", forge_hook)
        event = work / "event.json"
        event.write_text(json.dumps(EVENT))
        from forge_hookd.warm.runner import preload

        preload()
        gc.collect()
        gc.freeze()
        samples: dict[str, list[tuple[float, float, float]]] = {n: [] for n in NAMES}
        for i in range(args.rounds):
            for name in NAMES if i % 2 else NAMES[::-1]:
                samples[name].append(one(roots[name], event))
        report(samples, args.rounds)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(samples: dict[str, list[tuple[float, float, float]]], rounds: int) -> None:
    print(f"{rounds} rounds, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, "
          f"Python {sys.version.split()[0]}")
    for k, what in ((0, "worker CPU (wait4)"), (1, "its run"), (2, "a second run in it")):
        none = statistics.median(s[k] for s in samples["none"])
        pack = statistics.median(s[k] for s in samples["pack"])
        ratio = statistics.median(p[k] / n[k] for p, n in zip(samples["pack"], samples["none"], strict=True))
        print(f"{what:22} none {none:7.2f} ms   pack {pack:7.2f} ms   pack / none {ratio:.3f}")


if __name__ == "__main__":
    main()
