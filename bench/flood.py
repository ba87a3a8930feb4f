#!/usr/bin/env python3
"""100 hooks each printing 2 MB on stdout and 2 MB on stderr, under --keep-going.

Measures what bounds forge-hook-run's document: its size, the runner's peak RSS (from
wait4) and wall time, as medians of a few rounds. See bench/README.md.
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

HOOK = ("head -c {n} /dev/zero | tr '\\0' o; head -c {n} /dev/zero | tr '\\0' e >&2")


def project(root: Path, hooks: int, size: int) -> None:
    (root / ".forge").mkdir(parents=True)
    entries = [{"event": "*", "command": HOOK.format(n=size)}] * hooks
    (root / ".forge" / "hooks.json").write_text(json.dumps({"hooks": entries}))


def one_run(runner: str, root: Path) -> tuple[float, int, int, int]:
    """(seconds, peak RSS in KiB, document bytes, kept output bytes) of one run."""
    argv = [runner, "--event", "session:start", "--keep-going", "--trust-project", "--no-global"]
    with tempfile.TemporaryFile() as out:
        started = time.monotonic()
        proc = subprocess.Popen(argv, cwd=root, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(proc.pid, 0)
        elapsed = time.monotonic() - started
        proc.returncode = 0  # reaped by wait4
        out.seek(0)
        document = out.read()
    results = json.loads(document)["results"]
    kept = sum(len(r["stdout"]) + len(r["stderr"]) for r in results)
    return elapsed, usage.ru_maxrss, len(document), kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--forge-hook-run", default=shutil.which("forge-hook-run"))
    parser.add_argument("--hooks", type=int, default=100)
    parser.add_argument("--size", type=int, default=2_000_000, help="bytes per stream per hook")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not args.forge_hook_run:
        parser.error("forge-hook-run not found: pass --forge-hook-run PATH")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        project(root, args.hooks, args.size)
        runs = [one_run(args.forge_hook_run, root) for _ in range(args.rounds)]
    seconds, rss, doc, kept = (statistics.median(x) for x in zip(*runs))
    print(f"{args.hooks} hooks x {args.size} bytes on stdout and on stderr, {args.rounds} rounds (medians):")
    print(f"  wall time      {seconds:.2f} s")
    print(f"  peak RSS       {rss / 1024:.1f} MiB")
    print(f"  document       {doc / 1024 / 1024:.1f} MiB")
    print(f"  output kept    {kept / 1024 / 1024:.1f} MiB of {2 * args.hooks * args.size / 1024 / 1024:.1f} MiB printed")


if __name__ == "__main__":
    main()
