#!/usr/bin/env python3
"""What the trust check costs per run, one revision against another, paired.

    python3 bench/trust.py [--rounds 41] [BASE [CANDIDATE]]    (default: main HEAD)

Installs each revision (``git archive``, a real install, as bench/ab.py does) and makes,
for each, trusted projects whose trust covers 1, 10 and 100 files: the hooks file, and
one script per hook that the hook's command names (``"$FORGE_PROJECT_DIR"/scripts/sN.sh
--flag``, so that the command is parsed and a project variable resolved). No hook matches
the event fired (``session:start``), so a run is start-up, loading and the trust check:
every covered file hashed, every command read. One more scenario is an agent's pre-tool
call through ``--dialect claude`` on a shell command that names neither forge nor trust
(the candidate's check that an agent is not running forge-hook trust). Rounds alternate
which revision goes first; the figures are medians of wall and CPU time (user + system,
from ``wait4``) and the median of the per-round ratios, CPU the one to trust on a shared
machine.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ab  # noqa: E402  (bench/ab.py: timed())
import run as bench  # noqa: E402  (bench/run.py: the environment)

COVERED = (1, 10, 100)
PAYLOAD = json.dumps({"hook_event_name": "PreToolUse", "session_id": "bench", "tool_name": "Bash",
                      "tool_input": {"command": "ls -la src"}})


def install(rev: str, work: Path) -> Path:
    src = work / f"src-{rev}"
    src.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(bench.ROOT), "archive", rev], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive.stdout, check=True)
    root, bench.ROOT = bench.ROOT, src  # build_env installs bench.ROOT
    try:
        return bench.build_env(work / f"venv-{rev}", peers=False)
    finally:
        bench.ROOT = root


def project(where: Path, covered: int, venv: Path, env: dict[str, str]) -> Path:
    """A trusted project whose trust covers ``covered`` files."""
    (where / ".forge").mkdir(parents=True)
    hooks = []
    for n in range(covered - 1):
        script = where / "scripts" / f"s{n}.sh"
        script.parent.mkdir(exist_ok=True)
        script.write_text(f"#!/bin/sh\n# guard {n}\nexit 0\n" + "# padding\n" * 50)
        hooks.append({"event": "user:interrupt", "command": f'"$FORGE_PROJECT_DIR"/scripts/s{n}.sh --flag'})
    (where / ".forge" / "hooks.json").write_text(json.dumps({"hooks": hooks or [{"event": "user:interrupt",
                                                                                  "command": "true"}]}))
    subprocess.run([str(venv / "bin/forge-hook"), "trust"], cwd=where, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return where


def scenarios(venv: Path, work: Path, env: dict[str, str]) -> dict[str, tuple[list[str], Path, bytes | None]]:
    run = str(venv / "bin/forge-hook-run")
    found: dict[str, tuple[list[str], Path, bytes | None]] = {}
    for n in COVERED:
        root = project(work / f"covered-{n}", n, venv, env)
        found[f"{n} covered"] = ([run, "--event", "session:start"], root, None)
    found["dialect pre-tool"] = ([run, "--dialect", "claude"], work / "covered-1", PAYLOAD.encode())
    return found


def timed(argv: list[str], cwd: Path, env: dict[str, str], stdin: bytes | None) -> tuple[float, float]:
    if stdin is None:
        return ab.timed(argv, cwd, env)
    with tempfile.TemporaryFile() as f:
        f.write(stdin)
        f.seek(0)
        import time

        started = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=f, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(proc.pid, 0)
        return (time.perf_counter() - started) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("base", nargs="?", default="main")
    parser.add_argument("candidate", nargs="?", default="HEAD")
    args = parser.parse_args()
    revs = [args.base, args.candidate]
    work = Path(tempfile.mkdtemp(prefix="forge-trust-bench-"))
    try:
        plans, envs = {}, {}
        for rev in revs:
            home = work / f"home-{rev}"
            envs[rev] = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
                         "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state"),
                         "FORGE_LOG": "0"}
            envs[rev].pop("FORGE_HOOK_CHAIN", None)
            # Under --dialect FORGE_LOG=0 counts only where the global file allows it
            # (run/envgate.py); else one revision would write the log and the other not.
            (home / "config" / "forge").mkdir(parents=True, exist_ok=True)
            (home / "config" / "forge" / "hooks.json").write_text('{"allow_env": ["FORGE_LOG"], "hooks": []}')
            plans[rev] = scenarios(install(rev, work), work / f"projects-{rev}", envs[rev])
        names = list(plans[revs[0]])
        samples: dict[tuple[str, str], list[tuple[float, float]]] = {(r, s): [] for r in revs for s in names}
        for i in range(args.rounds):
            for name in names:
                for rev in revs if i % 2 == 0 else reversed(revs):
                    argv, cwd, stdin = plans[rev][name]
                    samples[rev, name].append(timed(argv, cwd, envs[rev], stdin))
            print(f"\rbench: round {i + 1}/{args.rounds}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        ab.report(revs, samples, args.rounds, names)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
