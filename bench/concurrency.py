#!/usr/bin/env python3
"""Concurrent clients: the resident runner (forge-hook warm) against lefthook, side by side.

    python3 bench/concurrency.py [--clients 8,32] [--events 8] [--rounds 2] [--load K] [--json FILE]

Sets up as bench/warm.py does (install.sh into a temporary prefix, lefthook into the same
virtualenv, throwaway projects, ``forge-hook warm on``) and times one scenario: one
matching hook ``true``, through the native client (``forge-hook-run --event
session:start``) and through lefthook (``lefthook run bench``). For each number of
clients N, N threads start together and each runs ``--events`` events one after another,
every one a whole process spawned and reaped; forge and lefthook take turns, the order
reversed every other round. Throughput is the events of a phase over its wall time;
latency is each event's, spawn to reap. ``--load K`` keeps K busy loops running
throughout (issue 33, item 7: "on a busy machine too").

It prints, per N, events/s (median of the rounds) and p50/p99 latency (over all rounds'
events) for each, forge's ratios to lefthook's (throughput: median of the per-round
ratios), how many of forge's events the runner served (the others ran cold), and the
1-minute load average at the start and end of each phase (the clients themselves count in
it: 32 of them are up to 32 runnable processes).
See bench/README.md, "concurrency.py".
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import warm as wb  # noqa: E402  (bench/warm.py: the same install, projects and resident runner)
from run import median  # noqa: E402

SCENARIO = "1 hook"


@dataclass
class Target:
    name: str
    argv: list[str]
    cwd: Path
    env: dict[str, str]
    rates: dict[int, list[float]] = field(default_factory=dict)  # clients -> events/s, a round each
    latencies: dict[int, list[float]] = field(default_factory=dict)  # clients -> ms, every event
    loads: dict[int, list[tuple[float, float]]] = field(default_factory=dict)  # load average at start, end
    served: dict[int, int] = field(default_factory=dict)  # clients -> events the runner served
    failures: list[int] = field(default_factory=list)  # exit codes other than 0


def percentile(xs: list[float], q: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(xs)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def client(target: Target, count: int, start: threading.Barrier, out: list[float]) -> None:
    """``count`` events one after another, each spawned and reaped; their latencies in ms."""
    start.wait()
    for _ in range(count):
        began = time.perf_counter()
        proc = subprocess.Popen(target.argv, cwd=target.cwd, env=target.env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        code = proc.wait()
        out.append((time.perf_counter() - began) * 1000)
        if code != 0:
            target.failures.append(code)  # list.append: one bytecode, safe across threads


def phase(target: Target, clients: int, count: int) -> tuple[float, list[float]]:
    """N clients at once: events/s over the phase's wall time, and every event's latency."""
    outs: list[list[float]] = [[] for _ in range(clients)]
    start = threading.Barrier(clients + 1)
    threads = [threading.Thread(target=client, args=(target, count, start, out)) for out in outs]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    latencies = [x for out in outs for x in out]
    return len(latencies) / wall, latencies


def measure(targets: list[Target], resident: wb.Resident, clients: list[int], count: int, rounds: int) -> None:
    for r in range(rounds):
        for n in clients:
            for target in targets if r % 2 == 0 else list(reversed(targets)):
                served = int(str(resident.status()["served"]))
                load = os.getloadavg()[0]
                rate, latencies = phase(target, n, count)
                target.rates.setdefault(n, []).append(rate)
                target.latencies.setdefault(n, []).extend(latencies)
                target.loads.setdefault(n, []).append((load, os.getloadavg()[0]))
                target.served[n] = target.served.get(n, 0) + int(str(resident.status()["served"])) - served
        print(f"\rbench: round {r + 1}/{rounds}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def report(forge: Target, lefthook: Target, clients: list[int], count: int, rounds: int,
           load: int) -> dict[str, object]:
    print(f"\nconcurrency benchmark, {time.strftime('%Y-%m-%d %H:%M')}: {os.cpu_count()} cores, {rounds} alternating "
          f"rounds, {count} events per client, one hook `true`, {load} busy loops\n")
    print(f"{'clients':>8} {'runner':10}{'events/s':>10}{'p50 ms':>9}{'p99 ms':>9}   load average, start-end by round")
    figures: dict[str, object] = {"date": time.strftime("%Y-%m-%d %H:%M"), "rounds": rounds, "events": count,
                                  "busy_loops": load}
    for n in clients:
        for target in (forge, lefthook):
            loads = ", ".join(f"{a:.1f}-{b:.1f}" for a, b in target.loads[n])
            print(f"{n:>8} {target.name:10}{median(target.rates[n]):10.1f}{percentile(target.latencies[n], 0.5):9.1f}"
                  f"{percentile(target.latencies[n], 0.99):9.1f}   {loads}")
        throughput = median([f / le for f, le in zip(forge.rates[n], lefthook.rates[n], strict=True)])
        p50 = percentile(forge.latencies[n], 0.5) / percentile(lefthook.latencies[n], 0.5)
        p99 = percentile(forge.latencies[n], 0.99) / percentile(lefthook.latencies[n], 0.99)
        total = len(forge.latencies[n])
        print(f"{'':>8} forge/lefthook: throughput {throughput:.3f} (goal >= 1), p50 {p50:.3f}, p99 {p99:.3f} "
              f"(goal <= 1); served warm {forge.served[n]} of {total}")
        figures[str(n)] = {"throughput_ratio": throughput, "p50_ratio": p50, "p99_ratio": p99,
                           "served": forge.served[n], "events": total, **{
                               t.name: {"events_per_s": median(t.rates[n]), "p50_ms": percentile(t.latencies[n], 0.5),
                                        "p99_ms": percentile(t.latencies[n], 0.99), "load_average": t.loads[n]}
                               for t in (forge, lefthook)}}
    if forge.failures or lefthook.failures:
        print(f"\nevents that exited non-zero: forge {len(forge.failures)}, lefthook {len(lefthook.failures)}")
    return figures


def targets(work: Path, prefix: Path, env: dict[str, str]) -> tuple[Target, Target]:
    """forge warm through the native client and lefthook, each with one hook ``true``."""
    runners = {r.name: r for r in wb.forge_runners(prefix, wb.forge_projects(work, prefix, env), work)
               + wb.lefthook_runner(work, prefix)}
    if "lefthook" not in runners:
        raise SystemExit("bench: lefthook could not be installed; nothing to compare with")
    made = [Target(name, runners[runner].commands[SCENARIO], runners[runner].cwd[SCENARIO],
                   {**env, **runners[runner].env}) for name, runner in (("forge warm", "warm"), ("lefthook", "lefthook"))]
    return made[0], made[1]


def clients_list(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("each number of clients must be at least 1")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=clients_list, default=[8, 32], help="numbers of clients, comma-separated")
    parser.add_argument("--events", type=int, default=8, help="events each client runs in a phase")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--load", type=int, default=0, metavar="K", help="run K busy loops throughout")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if args.events < 1 or args.rounds < 1 or args.load < 0:
        parser.error("--events and --rounds must be at least 1, --load at least 0")
    work = Path(tempfile.mkdtemp(prefix="fcb-", dir="/tmp"))  # short: the socket path is bounded
    env = wb.environment(work)
    prefix = work / "prefix"
    try:
        print(f"bench: installing into {work}", file=sys.stderr)
        prefix = wb.install(work, env)
        forge, lefthook = targets(work, prefix, env)
        wb.sh(str(prefix / "bin/forge-hook"), "warm", "on", env=env)
        resident = wb.Resident(prefix, env)
        with wb.busy(args.load):
            measure([forge, lefthook], resident, args.clients, args.events, args.rounds)
        figures = report(forge, lefthook, args.clients, args.events, args.rounds, args.load)
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2))
    finally:
        subprocess.run([str(prefix / "bin/forge-hook"), "warm", "off"], env=env, capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
