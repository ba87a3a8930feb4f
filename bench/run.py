#!/usr/bin/env python3
"""Side-by-side benchmark of forge-hook-run against its baselines and peers.

    python3 bench/run.py [--rounds 21] [--no-peers] [--json FILE]

Builds its own environment (a virtualenv with forge-hook-run installed from this
checkout, not editable, plus lefthook and pre-commit unless --no-peers), throwaway
projects for each scenario, then times every runner on every scenario, alternating
round by round so that machine noise hits all of them alike. Prints medians, spread
(interquartile range), ratios against each baseline, the marginal cost per hook, and
the peak RSS for the 300 MB output scenario. See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ["0 hooks", "1 hook", "10 hooks", "100 hooks", "10 x sleep 0.1", "1000 cfg, 1 match"]
COUNTS = {"0 hooks": 0, "1 hook": 1, "10 hooks": 10, "100 hooks": 100, "10 x sleep 0.1": 10,
          "1000 cfg, 1 match": 1}
BIG_OUTPUT = 300_000_000


@dataclass
class Runner:
    name: str
    commands: dict[str, list[str]]  # scenario -> argv
    cwd: dict[str, Path] = field(default_factory=dict)
    samples: dict[str, list[float]] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)  # on top of the bench's own


def sh(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    subprocess.run(args, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env)


def build_env(work: Path, peers: bool) -> Path:
    venv = work / "venv"
    sh(sys.executable, "-m", "venv", str(venv))
    pip = [str(venv / "bin/python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    sh(*pip, str(ROOT))
    if peers:
        try:
            sh(*pip, "lefthook", "pre-commit")
        except subprocess.CalledProcessError:
            print("bench: could not install lefthook and pre-commit; timing without them", file=sys.stderr)
    return venv


def command(scenario: str) -> str:
    return "sleep 0.1" if "sleep" in scenario else "true"


# -- forge-hook-run ----------------------------------------------------------------------
def forge_projects(work: Path, venv: Path, env: dict[str, str]) -> Runner:
    runner = Runner("forge-hook-run", {})
    for scenario in SCENARIOS + ["300 MB output"]:
        root = work / "forge" / scenario.replace(" ", "_").replace(",", "")
        (root / ".forge").mkdir(parents=True)
        if scenario == "300 MB output":
            hooks = [{"event": "*", "command": f"head -c {BIG_OUTPUT} /dev/zero"}]
        elif scenario.startswith("1000"):
            hooks = [{"event": "llm:pre_request", "command": "true"}] * 999 + [{"event": "session:start", "command": "true"}]
        else:
            hooks = [{"event": "session:start", "command": command(scenario)}] * COUNTS[scenario]
        (root / ".forge/hooks.json").write_text(json.dumps({"hooks": hooks}))
        sh(str(venv / "bin/forge-hook"), "trust", cwd=root, env=env)  # the real path: trust checked
        runner.commands[scenario] = [str(venv / "bin/forge-hook-run"), "--event", "session:start"]
        runner.cwd[scenario] = root
    if "10 x sleep 0.1" in runner.commands:
        runner.commands["10 x sleep 0.1 --jobs 10"] = runner.commands["10 x sleep 0.1"] + ["--jobs", "10"]
        runner.cwd["10 x sleep 0.1 --jobs 10"] = runner.cwd["10 x sleep 0.1"]
    return runner


def log_off(runner: Runner) -> Runner:
    """The same runs with the run log off (FORGE_LOG=0): the log's cost, side by side."""
    commands = {s: argv for s, argv in runner.commands.items() if s != "300 MB output"}
    return Runner(f"{runner.name}, FORGE_LOG=0", commands, dict(runner.cwd), env={"FORGE_LOG": "0"})


# What one record costs a run: a fresh process imports the log, builds one record from a
# one-hook document and appends it; the import of forge_hookd itself is not counted.
RECORD_COST = """
import os, sys, time
import forge_hookd, forge_hookd.config, forge_hookd.results
os.environ["FORGE_LOG_FILE"] = sys.argv[1]  # FORGE_LOG comes from the bench
command = sys.argv[2]
doc = {"version": 1, "event": {"type": "tool:pre_execute", "timestamp": 1.0, "tool_name": "bash",
       "session_id": "s1", "data": {"tool_args": {"command": command}}},
       "blocked": False, "blocked_by": None, "skipped": [], "warnings": [], "duration": 0.004,
       "results": [{"index": 0, "hook": {"event": "tool:*", "command": "./check.sh", "source": "project"},
                    "exit_code": 0, "signal": None, "stdout": "checked", "stderr": "", "duration": 0.002,
                    "timed_out": False, "error": None, "success": True, "should_continue": True}]}
started = time.perf_counter()
from forge_hookd.log import runlog
context = runlog.RunContext(project_root="/p", files=[{"scope": "project", "path": "/p/.forge/hooks.json",
                            "state": "loaded", "trust": "trusted", "hooks": 1, "warnings": 0}])
runlog.record(doc, context)
print((time.perf_counter() - started) * 1000)
"""


def record_cost(venv: Path, work: Path, env: dict[str, str], rounds: int) -> dict[str, float]:
    """Median ms of the first record in a fresh process, plain text and text holding a
    token (a redaction rule compiles then), and the same with FORGE_LOG=0 (the import
    of the log and the call that returns at once), alternating."""
    samples: dict[str, list[float]] = {}
    commands = {"plain command": "git push origin main",
                "command with a token": "git push https://x:ghp_" + "a" * 36 + "@github.com/r"}
    for _ in range(rounds):
        for name, command in commands.items():
            for log in ("1", "0"):
                argv = [str(venv / "bin/python"), "-c", RECORD_COST, str(work / "cost.jsonl"), command]
                # cwd: not this checkout, whose forge_hookd python -c would import first
                ms = float(subprocess.run(argv, env={**env, "FORGE_LOG": log}, cwd=work, capture_output=True,
                                          text=True, check=True).stdout)
                samples.setdefault(name + (", FORGE_LOG=0" if log == "0" else ""), []).append(ms)
    return {name: median(xs) for name, xs in samples.items()}


# -- baselines -----------------------------------------------------------------------------
def baselines(venv: Path) -> list[Runner]:
    py = str(venv / "bin/python")
    spawn = ("import subprocess, sys\nfor _ in range(int(sys.argv[1])):\n"
             "    subprocess.run(['sh', '-c', sys.argv[2]])")
    at_once = ("import subprocess, sys\nps = [subprocess.Popen(['sh', '-c', sys.argv[2]]) "
               "for _ in range(int(sys.argv[1]))]\n[p.wait() for p in ps]")
    out = [Runner("python -c pass", {s: [py, "-c", "pass"] for s in SCENARIOS}),
           Runner("import click, orjson", {s: [py, "-c", "import click, orjson"] for s in SCENARIOS}),
           Runner("spawn floor", {s: [py, "-c", spawn, str(COUNTS[s]), command(s)] for s in SCENARIOS})]
    out.append(Runner("spawn floor, at once", {"10 x sleep 0.1": [py, "-c", at_once, "10", "sleep 0.1"]}))
    return out


# -- peers -----------------------------------------------------------------------------------
def lefthook_binary(venv: Path) -> Path | None:
    found = sorted((venv / "lib").glob("python*/site-packages/lefthook/bin/*/lefthook"))
    return found[0] if found else None


def git_repo(root: Path) -> None:
    root.mkdir(parents=True)
    sh("git", "init", "-q", cwd=root)


def lefthook_runners(work: Path, venv: Path) -> list[Runner]:
    binary = lefthook_binary(venv)
    if binary is None:
        return []
    runners = []
    for parallel in (False, True):
        runner = Runner("lefthook, parallel" if parallel else "lefthook", {})
        for scenario in SCENARIOS + ["300 MB output"]:
            if scenario.startswith("1000") or (parallel and scenario == "300 MB output"):
                continue
            root = work / f"lefthook{'-p' if parallel else ''}" / scenario.replace(" ", "_")
            git_repo(root)
            n = 1 if scenario == "300 MB output" else COUNTS[scenario]
            run = f"head -c {BIG_OUTPUT} /dev/zero" if scenario == "300 MB output" else command(scenario)
            lines = ["bench:", f"  parallel: {str(parallel).lower()}", "  commands:"]
            lines += [f"    c{i}:\n      run: {json.dumps(run)}" for i in range(n)] or ["    {}"]
            if n == 0:
                lines = ["bench:", "  commands: {}"]
            (root / "lefthook.yml").write_text("\n".join(lines) + "\n")
            runner.commands[scenario] = [str(binary), "run", "bench", "--no-auto-install"]
            runner.cwd[scenario] = root
        runners.append(runner)
    return runners


def pre_commit_runner(work: Path, venv: Path, env: dict[str, str]) -> list[Runner]:
    exe = venv / "bin/pre-commit"
    if not exe.exists():
        return []
    runner = Runner("pre-commit", {})
    for scenario in SCENARIOS + ["300 MB output"]:
        if scenario.startswith("1000"):
            continue
        root = work / "pre-commit" / scenario.replace(" ", "_")
        git_repo(root)
        n = 1 if scenario == "300 MB output" else COUNTS[scenario]
        entry = f"head -c {BIG_OUTPUT} /dev/zero" if scenario == "300 MB output" else command(scenario)
        hooks = [f"  - id: h{i}\n    name: h{i}\n    entry: sh -c '{entry}'\n    language: system\n"
                 f"    always_run: true\n    pass_filenames: false\n" for i in range(n)]
        text = "repos:\n- repo: local\n  hooks:\n" + "".join(hooks) if n else "repos: []\n"
        (root / ".pre-commit-config.yaml").write_text(text)
        sh("git", "add", ".pre-commit-config.yaml", cwd=root)
        runner.commands[scenario] = [str(exe), "run", "--all-files"]
        runner.cwd[scenario] = root
        subprocess.run(runner.commands[scenario], cwd=root, env=env, capture_output=True)  # warm its cache
    return [runner]


# -- measuring -------------------------------------------------------------------------------
def timed(argv: list[str], cwd: Path | None, env: dict[str, str]) -> float:
    """Wall time of one run, in ms."""
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return (time.perf_counter() - started) * 1000


def measure(runners: list[Runner], rounds: int, env: dict[str, str]) -> None:
    for r in range(rounds):
        order = runners if r % 2 == 0 else list(reversed(runners))  # alternate who goes first
        for scenario in SCENARIOS + ["10 x sleep 0.1 --jobs 10"]:
            for runner in order:
                argv = runner.commands.get(scenario)
                if argv is not None:
                    ms = timed(argv, runner.cwd.get(scenario), {**env, **runner.env})
                    runner.samples.setdefault(scenario, []).append(ms)
        print(f"\rbench: round {r + 1}/{rounds}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


# Peak RSS through a small fresh wrapper: subprocess spawns with vfork, and until exec
# the child runs in its parent's memory, so wait4 would count the bench's own RSS.
RSS_WRAPPER = ("import os, subprocess, sys, time; t = time.perf_counter(); "
               "p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, "
               "stderr=subprocess.DEVNULL); _, _, u = os.wait4(p.pid, 0); "
               "print((time.perf_counter() - t) * 1000, u.ru_maxrss)")


def peak_rss(runners: list[Runner], env: dict[str, str], rounds: int = 3) -> dict[str, tuple[float, float]]:
    out = {}
    for runner in runners:
        argv = runner.commands.get("300 MB output")
        if argv is not None:
            runs = []
            for _ in range(rounds):
                line = subprocess.run(["python3", "-c", RSS_WRAPPER, *argv], cwd=runner.cwd.get("300 MB output"),
                                      env=env, capture_output=True, text=True).stdout.split()
                runs.append((float(line[0]), int(line[1])))
            out[runner.name] = (statistics.median(r[0] for r in runs), max(r[1] for r in runs) / 1024)
    return out


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def iqr(xs: list[float]) -> float:
    if len(xs) < 4:
        return max(xs) - min(xs)
    q = statistics.quantiles(xs, n=4)
    return q[2] - q[0]


def report(runners: list[Runner], rss: dict[str, tuple[float, float]], rounds: int) -> dict[str, object]:
    scenarios = SCENARIOS + ["10 x sleep 0.1 --jobs 10"]
    by_name = {r.name: r for r in runners}
    print(f"\nforge-hook-run benchmark, {time.strftime('%Y-%m-%d')}, {platform.node()}: "
          f"{os.cpu_count()} cores, Python {platform.python_version()}, {rounds} alternating rounds")
    print("\nMedian wall time in ms (interquartile range):\n")
    head = f"{'runner':24}" + "".join(f"{s:>24}" for s in scenarios)
    print(head)
    for runner in runners:
        cells = []
        for s in scenarios:
            xs = runner.samples.get(s)
            cells.append(f"{median(xs):9.1f} ({iqr(xs):5.1f}) " if xs else "")
        print(f"{runner.name:24}" + "".join(f"{c:>24}" for c in cells))
    forge = by_name["forge-hook-run"]
    print("\nforge-hook-run as a ratio of each baseline (median / median):\n")
    print(f"{'against':24}" + "".join(f"{s:>24}" for s in scenarios))
    ratios: dict[str, dict[str, float]] = {}
    for runner in runners:
        if runner is forge:
            continue
        row = {}
        for s in scenarios:
            base = s if s in runner.samples else ("10 x sleep 0.1" if "jobs" in s else None)
            if base and s in forge.samples and base in runner.samples:
                row[s] = median(forge.samples[s]) / median(runner.samples[base])
        ratios[runner.name] = row
        print(f"{runner.name:24}" + "".join(f"{row[s]:>24.2f}" if s in row else f"{'':>24}" for s in scenarios))
    print("\nMarginal cost per hook, (100 hooks - 0 hooks) / 100, in ms:\n")
    marginal = {}
    for runner in runners:
        if "100 hooks" in runner.samples and "0 hooks" in runner.samples:
            marginal[runner.name] = (median(runner.samples["100 hooks"]) - median(runner.samples["0 hooks"])) / 100
            print(f"  {runner.name:24}{marginal[runner.name]:8.3f}")
    off = by_name.get("forge-hook-run, FORGE_LOG=0")
    log_cost = {}
    if off is not None:
        print("\nThe run log's cost: median with the log on - median with FORGE_LOG=0, in ms:\n")
        for s in scenarios:
            if s in forge.samples and s in off.samples:
                log_cost[s] = median(forge.samples[s]) - median(off.samples[s])
                print(f"  {s:24}{log_cost[s]:8.2f}")
    if rss:
        print("\n300 MB of hook output: median wall time and peak RSS:\n")
        for name, (ms, mib) in rss.items():
            print(f"  {name:24}{ms:8.0f} ms {mib:8.1f} MiB")
    return {"date": time.strftime("%Y-%m-%d"), "cores": os.cpu_count(), "rounds": rounds,
            "medians_ms": {r.name: {s: median(x) for s, x in r.samples.items()} for r in runners},
            "ratios": ratios, "marginal_ms": marginal, "log_cost_ms": log_cost,
            "rss_mib": {k: v[1] for k, v in rss.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=21, help="alternating rounds (default 21)")
    parser.add_argument("--no-peers", action="store_true", help="skip lefthook and pre-commit")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--log-cost", action="store_true",
                        help="only the run log's cost: 0 and 1 hook, log on and off, and one record in-process")
    args = parser.parse_args()
    if args.log_cost:
        SCENARIOS[:] = ["0 hooks", "1 hook"]
        args.no_peers = True
    work = Path(tempfile.mkdtemp(prefix="forge-bench-"))
    env = {**os.environ, "XDG_DATA_HOME": str(work / "data"), "XDG_CONFIG_HOME": str(work / "config"),
           "XDG_STATE_HOME": str(work / "state"),
           "PRE_COMMIT_HOME": str(work / "pre-commit-home"), "LEFTHOOK_QUIET": "meta,summary,success,execution"}
    for name in ("FORGE_HOOK_CHAIN", "FORGE_LOG", "FORGE_LOG_FILE", "FORGE_TRACE"):
        env.pop(name, None)
    try:
        print(f"bench: building the environment in {work}", file=sys.stderr)
        venv = build_env(work, peers=not args.no_peers)
        forge = forge_projects(work, venv, env)
        runners = [forge, log_off(forge)]
        if not args.log_cost:
            runners += baselines(venv)
        if not args.no_peers:
            runners += lefthook_runners(work, venv) + pre_commit_runner(work, venv, env)
        measure(runners, args.rounds, env)
        rss = {} if args.log_cost else peak_rss([r for r in runners if "300 MB output" in r.commands], env)
        figures = report(runners, rss, args.rounds)
        figures["record_ms"] = record_cost(venv, work, env, args.rounds)
        print("\nOne record in a fresh process (import, build, redact, append), median ms:\n")
        for name, ms in figures["record_ms"].items():
            print(f"  {name:24}{ms:8.3f}")
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
