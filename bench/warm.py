#!/usr/bin/env python3
"""The resident runner (forge-hook warm) side by side with cold runs, lefthook and
plain Python starts.

    python3 bench/warm.py [--rounds 21] [--events 10000] [--load K] [--json FILE]

Installs this checkout with install.sh into a temporary prefix (a real install: the
native client, the Python launcher without ``site`` and pip's console script), lefthook into the same
virtualenv (its wheel carries the Go binary, timed directly), builds throwaway projects
(0, 1, 10 and 100 hooks of ``true``, 10 x ``sleep 0.1``, one PreToolUse hook for the
dialect, a pre-tool event with no hook and with the built-in guard pack), starts a resident runner (``forge-hook warm on``) and times every runner on
every scenario, alternating the order round by round. Wall time is from the bench; CPU
time is the run's own (user + system from ``wait4``) plus, for a warm run, what the
resident runner and its worker spent on it (the runner's own and its reaped children's
CPU, which ``forge-hook warm status --json`` reports, read before and after the run).

It prints medians (with the interquartile range), the median of the per-round ratios for
the goals of issues 24 and 33 (item 7), the marginal cost per hook against a bare spawn and
lefthook's, and the resident runner's memory idle and after ``--events`` runs. ``--load K``
keeps K busy loops running throughout ("a busy machine", issue 33 item 7). See
bench/README.md, "warm.py".
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from guard_run import PACK  # noqa: E402  (bench/guard_run.py: the built-in guard pack)
from run import iqr, median  # noqa: E402  (bench/run.py: the same statistics)

ROOT = Path(__file__).resolve().parent.parent
CLAUDE_PAYLOAD = ROOT / "tests/realagents/payloads/claude/PreToolUse.json"
COUNTS = {"0 hooks": 0, "1 hook": 1, "10 hooks": 10, "100 hooks": 100, "10 x sleep 0.1 --jobs 10": 10}
PRE_TOOL = ["claude, 1 hook", "pre-tool, 0 hooks", "guard pack"]  # fed one pre-tool event
SCENARIOS = [*COUNTS, *PRE_TOOL]


@dataclass
class Runner:
    name: str
    commands: dict[str, list[str]]
    cwd: dict[str, Path] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    stdin: dict[str, Path] = field(default_factory=dict)
    warm: bool = False
    wall: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)


def sh(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    return subprocess.run(args, cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


# -- the environment ------------------------------------------------------------------------
def environment(work: Path) -> dict[str, str]:
    """The bench's environment: no FORGE_ setting of the caller's, everything under work."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FORGE_")}
    env.update(HOME=str(work / "home"), XDG_CONFIG_HOME=str(work / "config"), XDG_DATA_HOME=str(work / "data"),
               XDG_STATE_HOME=str(work / "state"), FORGE_WARM_DIR=str(work / "w"))
    return env


@contextmanager
def busy(count: int) -> Iterator[None]:
    """``count`` busy loops (``sh -c 'while :; do :; done'``) while the block runs: "a busy
    machine" (issue 33, item 7); each killed and waited for at the end."""
    loops: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(count):
            loops.append(subprocess.Popen(["sh", "-c", "while :; do :; done"], stdin=subprocess.DEVNULL))
        yield
    finally:
        for loop in loops:
            loop.kill()
        for loop in loops:
            loop.wait()


def install(work: Path, env: dict[str, str]) -> Path:
    """install.sh into work/prefix, lefthook beside it; the prefix."""
    prefix = work / "prefix"
    sh(str(ROOT / "install.sh"), "--prefix", str(prefix), "--python", sys.executable, cwd=ROOT, env=env)
    venv = prefix / "lib/forge-hook-run"
    try:
        sh(str(venv / "bin/python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", "lefthook", env=env)
    except subprocess.CalledProcessError:
        print("bench: could not install lefthook; timing without it", file=sys.stderr)
    return prefix


def forge_projects(work: Path, prefix: Path, env: dict[str, str]) -> dict[str, Path]:
    roots = {}
    for scenario, count in COUNTS.items():
        command = "sleep 0.1" if "sleep" in scenario else "true"
        roots[scenario] = project(work / "forge" / scenario.split()[0] / scenario.split()[-1],
                                  [{"event": "session:start", "command": command}] * count, prefix, env)
    roots["claude, 1 hook"] = project(work / "forge/claude", [{"event": "tool:pre_execute:bash", "command": "true"}],
                                      prefix, env)
    roots["pre-tool, 0 hooks"] = project(work / "forge/pre-tool", [], prefix, env)
    roots["guard pack"] = project(work / "forge/pack", [{"event": "tool:pre_execute", "guard": name} for name in PACK],
                                  prefix, env)
    return roots


def project(root: Path, hooks: list[dict[str, str]], prefix: Path, env: dict[str, str]) -> Path:
    (root / ".forge").mkdir(parents=True)
    (root / ".forge/hooks.json").write_text(json.dumps({"hooks": hooks}))
    sh(str(prefix / "bin/forge-hook"), "trust", cwd=root, env=env)  # trust checked on every run, as for real
    return root


def forge_runners(prefix: Path, roots: dict[str, Path], work: Path) -> list[Runner]:
    # install.sh's forge-hook-run: the native client when it could build one, in front of
    # the Python launcher without site; pip's console script beside them.
    installed = str(prefix / "bin/forge-hook-run")
    launcher = str(prefix / "lib/forge-hook-run/bin/forge-hook-run-launcher")
    pip_script = str(prefix / "lib/forge-hook-run/bin/forge-hook-run")
    claude_event = work / "claude.json"
    payload = json.loads(CLAUDE_PAYLOAD.read_text())
    payload.update(cwd=str(roots["claude, 1 hook"]), tool_input={"command": "ls"})
    claude_event.write_text(json.dumps(payload))
    native_event = work / "native.json"
    native_event.write_text(json.dumps({"type": "tool:pre_execute", "tool_name": "bash", "session_id": "s",
                                        "data": {"tool_args": {"command": "ls"}}}))
    runners = []
    for name, exe, warm in (("warm", installed, True), ("cold", installed, False),
                            ("warm, Python launcher", launcher, True),
                            ("warm, pip script", pip_script, True), ("cold, pip script", pip_script, False)):
        runner = Runner(name, {}, warm=warm, env={} if warm else {"FORGE_WARM": "0"})
        for scenario, root in roots.items():
            if scenario in PRE_TOOL:
                runner.commands[scenario] = [exe]
                runner.stdin[scenario] = native_event
            else:
                runner.commands[scenario] = [exe, "--event", "session:start"]
                runner.commands[scenario] += ["--jobs", "10"] if "jobs" in scenario else []
            runner.cwd[scenario] = root
        runners.append(runner)
    claude = Runner("warm, --dialect claude", {"claude, 1 hook": [installed, "--dialect", "claude"]},
                    cwd={"claude, 1 hook": roots["claude, 1 hook"]}, stdin={"claude, 1 hook": claude_event}, warm=True)
    return [*runners, claude]


def lefthook_runner(work: Path, prefix: Path) -> list[Runner]:
    found = sorted((prefix / "lib/forge-hook-run/lib").glob("python*/site-packages/lefthook/bin/*/lefthook"))
    if not found:
        return []
    runner = Runner("lefthook", {}, env={"LEFTHOOK_QUIET": "meta,summary,success,execution"})
    for scenario, count in COUNTS.items():
        root = work / "lefthook" / scenario.split()[0] / scenario.split()[-1]
        root.mkdir(parents=True)
        sh("git", "init", "-q", cwd=root)
        parallel = "jobs" in scenario
        command = "sleep 0.1" if "sleep" in scenario else "true"
        lines = ["bench:", f"  parallel: {str(parallel).lower()}", "  commands:"]
        # Quoted: YAML reads a bare true as a boolean, and lefthook then runs "sh -c 1".
        lines += [f"    c{i}:\n      run: {json.dumps(command)}" for i in range(count)] if count else ["    {}"]
        (root / "lefthook.yml").write_text("\n".join(lines) + "\n")
        runner.commands[scenario] = [str(found[0]), "run", "bench", "--no-auto-install"]
        runner.cwd[scenario] = root
    return [runner]


def baselines(prefix: Path) -> list[Runner]:
    py = str(prefix / "lib/forge-hook-run/bin/python")
    # The spawn floor: one Python starting N hooks as forge does (sh -c, pipes, reaped),
    # one after another; at once for the --jobs scenario.
    spawn = ("import subprocess, sys\nfor _ in range(int(sys.argv[1])):\n"
             "    subprocess.run(['/bin/sh', '-c', sys.argv[2]], stdin=subprocess.DEVNULL, capture_output=True)")
    at_once = ("import subprocess, sys\nps = [subprocess.Popen(['/bin/sh', '-c', sys.argv[2]]) "
               "for _ in range(int(sys.argv[1]))]\n[p.wait() for p in ps]")
    floor = Runner("spawn floor", {})
    for scenario, count in COUNTS.items():
        code, command = (at_once, "sleep 0.1") if "sleep" in scenario else (spawn, "true")
        floor.commands[scenario] = [py, "-S", "-c", code, str(count), command]
    # issue 33 item 7: the cold run's goal is 1.3 x a Python that imports its two dependencies
    imports = Runner("python, click + orjson", {s: [py, "-c", "import click, orjson"] for s in ("0 hooks", "1 hook")})
    return [Runner("python -S -c pass", {s: [py, "-S", "-c", "pass"] for s in SCENARIOS[:6]}),
            Runner("python -I -S, _socket", {s: [py, "-I", "-S", "-c", "import _socket"] for s in SCENARIOS[:6]}),
            floor, imports]


# -- measuring ---------------------------------------------------------------------------------
class Resident:
    """The resident runner of the bench: its CPU so far (own and reaped workers'), its RSS."""

    def __init__(self, prefix: Path, env: dict[str, str]) -> None:
        self.forge_hook, self.env = str(prefix / "bin/forge-hook"), env
        self.pid = int(self.status()["pid"])

    def status(self) -> dict[str, object]:
        return dict(json.loads(sh(self.forge_hook, "warm", "status", "--json", env=self.env)))

    def cpu_ms(self) -> float:
        """The runner's and its reaped workers' CPU, once the last worker is reaped (a
        worker answers its client before it exits)."""
        while (status := self.status())["running"]:
            time.sleep(0.001)
        cpu = status["cpu"]
        assert isinstance(cpu, dict)
        return float(sum(cpu.values())) * 1000

    def rss_mib(self) -> float:
        """The summed RSS of the runner and its spares (issue 33, item 8: the spares are
        the runner's memory too; the runner's own RSS alone left them out)."""
        return self._summed("Rss:")

    def pss_mib(self) -> float:
        """The summed PSS of the runner and its spares: what they cost the machine, the
        pages they share (gc.freeze, fork) counted once."""
        return self._summed("Pss:")

    def pids(self) -> list[int]:
        """The runner's and its children's (the spares, and workers still running)."""
        with open(f"/proc/{self.pid}/task/{self.pid}/children") as fh:
            return [self.pid, *(int(pid) for pid in fh.read().split())]

    def settle(self, spares: int = 2) -> int:
        """Wait (at most 2 s) until no run is in flight and the runner has its spares again
        (forge_hookd/warm/runner.py's SPARES), so that a memory mark is not taken while a
        worker or a half-made spare is counted; the number of processes then."""
        self.cpu_ms()
        deadline = time.monotonic() + 2
        while len(self.pids()) != 1 + spares and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)  # a spare forked is warmed up by one run of nothing (about 3 ms)
        return len(self.pids())

    def _summed(self, field: str) -> float:
        kib = 0
        for pid in self.pids():
            try:
                with open(f"/proc/{pid}/smaps_rollup") as fh:
                    kib += next(int(line.split()[1]) for line in fh if line.startswith(field))
            except (OSError, StopIteration):
                continue  # a spare that became a worker and ended meanwhile
        return kib / 1024


def timed(runner: Runner, scenario: str, env: dict[str, str], resident: Resident | None) -> tuple[float, float]:
    """Wall and CPU ms of one run (CPU: its own, plus the resident runner's for a warm run)."""
    before = resident.cpu_ms() if resident is not None and runner.warm else 0.0
    source = runner.stdin.get(scenario)
    with open(source or os.devnull, "rb") as stdin:
        started = time.perf_counter()
        proc = subprocess.Popen(runner.commands[scenario], cwd=runner.cwd.get(scenario), env={**env, **runner.env},
                                stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = (time.perf_counter() - started) * 1000
    if os.waitstatus_to_exitcode(status) not in (0,):
        raise SystemExit(f"bench: {runner.name} on {scenario} exited {os.waitstatus_to_exitcode(status)}")
    cpu = (usage.ru_utime + usage.ru_stime) * 1000
    if resident is not None and runner.warm:
        cpu += resident.cpu_ms() - before
    return wall, cpu


def measure(runners: list[Runner], rounds: int, env: dict[str, str], resident: Resident) -> None:
    for r in range(rounds):
        order = runners if r % 2 == 0 else list(reversed(runners))
        for scenario in SCENARIOS:
            for runner in order:
                if scenario in runner.commands:
                    wall, cpu = timed(runner, scenario, env, resident)
                    runner.wall.setdefault(scenario, []).append(wall)
                    runner.cpu.setdefault(scenario, []).append(cpu)
        print(f"\rbench: round {r + 1}/{rounds}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def memory(resident: Resident, runner: Runner, events: int, env: dict[str, str]) -> dict[str, float]:
    """The resident runner's RSS and PSS (with its spares) idle, then after ``events``
    one-hook runs (in four steps)."""
    marks = {"idle, processes": float(resident.settle()), "idle": resident.rss_mib(), "idle, PSS": resident.pss_mib()}
    done = 0
    for step in range(1, 5):
        while done < events * step // 4:
            timed(runner, "1 hook", env, None)
            done += 1
        marks[f"after {done} runs, processes"] = float(resident.settle())
        marks[f"after {done} runs"] = resident.rss_mib()
        marks[f"after {done} runs, PSS"] = resident.pss_mib()
        print(f"\rbench: {done}/{events} runs for the memory figure", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return marks


# -- reporting ---------------------------------------------------------------------------------


def paired(a: Runner, sa: str, b: Runner, sb: str, kind: str = "wall") -> float:
    xs, ys = (a.wall, b.wall) if kind == "wall" else (a.cpu, b.cpu)
    return median([x / y for x, y in zip(xs[sa], ys[sb], strict=True)])


def report(runners: list[Runner], rounds: int, started: float) -> dict[str, object]:
    by = {r.name: r for r in runners}
    print(f"\nforge-hook warm benchmark, {time.strftime('%Y-%m-%d')}: {os.cpu_count()} cores, "
          f"Python {sys.version.split()[0]}, {rounds} alternating rounds, load average "
          f"{started:.1f} at the start and {os.getloadavg()[0]:.1f} at the end\n")
    print("Median wall ms (interquartile range) / median CPU ms:\n")
    print(f"{'runner':26}" + "".join(f"{s:>27}" for s in SCENARIOS))
    for runner in runners:
        cells = [f"{median(runner.wall[s]):7.1f} ({iqr(runner.wall[s]):5.1f}) /{median(runner.cpu[s]):6.1f}"
                 if s in runner.wall else "" for s in SCENARIOS]
        print(f"{runner.name:26}" + "".join(f"{c:>27}" for c in cells))
    goals: dict[str, float] = {}
    warm, lefthook = by["warm"], by.get("lefthook")
    if lefthook is not None:
        for scenario in ("0 hooks", "1 hook"):
            goals[f"warm {scenario} / lefthook 1 hook, wall"] = paired(warm, scenario, lefthook, "1 hook")
            goals[f"warm {scenario} / lefthook 1 hook, CPU"] = paired(warm, scenario, lefthook, "1 hook", "cpu")
        for name in ("warm, Python launcher", "warm, pip script"):
            goals[f"{name}, 1 hook / lefthook 1 hook, wall"] = paired(by[name], "1 hook", lefthook, "1 hook")
    for name in ("cold", "warm, Python launcher", "warm, pip script", "python -S -c pass"):
        goals[f"warm 1 hook / {name} 1 hook, wall"] = paired(warm, "1 hook", by[name], "1 hook")
    goals["warm --dialect claude / warm native, wall"] = paired(by["warm, --dialect claude"], "claude, 1 hook",
                                                               warm, "claude, 1 hook")
    goals["warm --dialect claude / warm native, CPU"] = paired(by["warm, --dialect claude"], "claude, 1 hook",
                                                              warm, "claude, 1 hook", "cpu")
    marginal = {r.name: (median(r.wall["100 hooks"]) - median(r.wall["0 hooks"])) / 100
                for r in runners if "100 hooks" in r.wall and "0 hooks" in r.wall}
    goals["warm marginal per hook / spawn floor's"] = marginal["warm"] / marginal["spawn floor"]
    goals["warm guard pack / warm pre-tool 0 hooks, wall"] = paired(warm, "guard pack", warm, "pre-tool, 0 hooks")
    goals["warm guard pack / warm pre-tool 0 hooks, CPU"] = paired(warm, "guard pack", warm, "pre-tool, 0 hooks",
                                                                   "cpu")
    if lefthook is not None:  # issue 33 item 7
        goals["warm 100 hooks / lefthook 100 hooks, wall"] = paired(warm, "100 hooks", lefthook, "100 hooks")
        goals["warm marginal per hook / lefthook's"] = marginal["warm"] / marginal["lefthook"]
    for scenario in ("0 hooks", "1 hook"):
        goals[f"cold {scenario} / python, click + orjson, wall"] = paired(by["cold"], scenario,
                                                                         by["python, click + orjson"], scenario)
    print("\nPaired ratios (median of per-round ratios):\n")
    for name, value in goals.items():
        print(f"  {name:58}{value:7.3f}")
    print("\nMarginal cost per hook, (100 hooks - 0 hooks) / 100, wall ms:\n")
    for name, value in marginal.items():
        print(f"  {name:26}{value:7.3f}")
    return {"date": time.strftime("%Y-%m-%d"), "rounds": rounds, "goals": goals, "marginal_ms": marginal,
            "load_average": [started, os.getloadavg()[0]],
            "median_wall_ms": {r.name: {s: median(x) for s, x in r.wall.items()} for r in runners},
            "median_cpu_ms": {r.name: {s: median(x) for s, x in r.cpu.items()} for r in runners}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--events", type=int, default=10000, help="runs before the second memory figure")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--load", type=int, default=0, metavar="K", help="run K busy loops throughout")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="fwb-", dir="/tmp"))  # short: the socket path is bounded
    env = environment(work)
    prefix = work / "prefix"
    try:
        print(f"bench: installing into {work}", file=sys.stderr)
        prefix = install(work, env)
        roots = forge_projects(work, prefix, env)
        runners = forge_runners(prefix, roots, work) + lefthook_runner(work, prefix) + baselines(prefix)
        sh(str(prefix / "bin/forge-hook"), "warm", "on", env=env)
        resident = Resident(prefix, env)
        mem_idle = resident.rss_mib()
        with busy(args.load):
            started = os.getloadavg()[0]
            measure(runners, args.rounds, env, resident)
            figures = report(runners, args.rounds, started)  # before the memory runs, which take minutes
            sys.stdout.flush()
            mem = {"idle, just started": mem_idle, **memory(resident, runners[0], args.events, env)}
        print("\nThe resident runner's memory with its spares, summed RSS and PSS (MiB):\n")
        for name, value in mem.items():
            print(f"  {name:26}{value:7.1f}")
        figures["rss_mib"] = mem
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2))
        sys.stdout.flush()
    finally:
        subprocess.run([str(prefix / "bin/forge-hook"), "warm", "off"], env=env, capture_output=True)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
