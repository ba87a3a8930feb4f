"""What issue 8's guards cost: the duplicate-key check and the trust check on the event
path, hostile config files (time and peak RSS), and the block_sudo template.

    python3 bench/guards.py            # run from a checkout with forge-hookd installed

Each figure is the median of many in-process calls (config and trust) or of 21 runs of a
real process (hostile files, block_sudo), measured on this machine at the time of the
run; compare figures of one run with each other, not across machines.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from forge_hookd import config

from forge_hookd.trust import store as trust
from forge_hookd.readfile import MAX_CONFIG_BYTES
from forge_hookd.templates import HOOK_TEMPLATES

HOOK = {"event": "tool:pre_execute:bash", "command": "./scripts/guard.sh", "timeout": 5,
        "description": "Block dangerous shell commands"}


def median_us(func: Callable[[], object], rounds: int = 300) -> float:
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        func()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1e6


def project(root: Path, hooks: int) -> Path:
    (root / "scripts").mkdir(parents=True)
    (root / "scripts" / "guard.sh").write_text("#!/bin/sh\nexit 0\n")
    path = root / ".forge" / "hooks.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": [HOOK] * hooks}, indent=2))
    return path


def event_path(work: Path) -> None:
    print("== the event path, in-process (median of 300 calls)")
    for hooks in (1, 10, 100):
        path = project(work / f"p{hooks}", hooks)
        raw = path.read_bytes()
        doc = config.parse_document(raw, path)
        trust.trust(path, raw, doc)
        parse = median_us(lambda: config.parse_document(raw, path))
        dups = median_us(lambda: config.duplicate_keys(raw, doc))
        verdict = median_us(lambda: trust.verdict(path, raw, doc))
        load = median_us(lambda: config.load_project_file(path))
        print(f"{hooks:4} hooks ({len(raw):6} B): parse {parse:7.1f} us, duplicate check {dups:6.1f} us, "
              f"trust verdict {verdict:7.1f} us, whole project load {load:7.1f} us")
    raw = b'{"hooks": [{"event": "*", "command": "a", "command": "b"}]}'
    exact = median_us(lambda: config.duplicate_keys(raw, config.parse_document(raw, "x")))
    print(f"a file that has a duplicate (the json module's exact pass): {exact:.1f} us")


def measured_run(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, int, str]:
    """Wall seconds, peak RSS in KiB and stderr of one run. The RSS comes from
    /usr/bin/time (GNU time -f %M), which forks the runner from a small process: a
    figure taken by wait4 here would include this process's pages copied at fork."""
    proc = subprocess.run(["/usr/bin/time", "-f", "%e %M", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    *said, figures = proc.stderr.decode().strip().splitlines()
    wall, rss = figures.split()
    return float(wall), int(rss), "\n".join(said)


def hostile(work: Path) -> None:
    print("== hostile project files (forge-hook-run --event session:start; median of 5 runs)")
    runner = shutil.which("forge-hook-run", path=str(Path(sys.executable).parent)) or "forge-hook-run"
    entry = json.dumps({"event": "user:interrupt", "command": "true"})  # loaded, not run
    cases: dict[str, Callable[[Path], None]] = {
        "no project file": lambda p: None,
        "1,000,000 hooks (47 MB)": lambda p: p.write_text('{"hooks": [' + ",".join([entry] * 1_000_000) + "]}"),
        "largest accepted (4 MiB)": lambda p: p.write_text(
            '{"hooks": [' + ",".join([entry] * ((MAX_CONFIG_BYTES - 20) // (len(entry) + 1))) + "]}"),
        "1 GB (sparse)": lambda p: os.truncate(p, 1 << 30) if p.touch() is None else None,
        "symlink to /dev/zero": lambda p: p.symlink_to("/dev/zero"),
        "FIFO": lambda p: os.mkfifo(p),
    }
    for name, make in cases.items():
        root = work / name.replace(" ", "_").replace("/", "_")
        path = root / ".forge" / "hooks.json"
        path.parent.mkdir(parents=True)
        make(path)
        env = {**os.environ, "FORGE_TRUST_PROJECT": "1", "XDG_CONFIG_HOME": str(work / "none")}
        runs = [measured_run([runner, "--event", "session:start"], env, root) for _ in range(5)]
        wall = statistics.median(r[0] for r in runs) * 1000
        rss = statistics.median(r[1] for r in runs) / 1024
        said = runs[0][2].strip().split(".json: ", 1)[-1][:60] if runs[0][2] else "-"
        print(f"{name:26} {wall:7.1f} ms  peak RSS {rss:6.1f} MiB  {said}")


def block_sudo(work: Path) -> None:
    print("== block_sudo, one run of its command on a tool:pre_execute event (median of 21)")
    from forge_hookd.events import HookEvent

    old = ("if grep -Eq '(^|[^A-Za-z0-9_-]|\\\\[nrt])sudo([^A-Za-z0-9_-]|$)'; then "
           'echo "Blocked: sudo not allowed"; exit 1; fi')
    for label, size in (("a short command", 10), ("a 100 KB command", 100_000)):
        stdin = HookEvent.tool_pre_execute("bash", {"command": "ls " + "x" * size}).to_json_bytes()
        for name, command in (("grep (before)", old), ("awk (now)", HOOK_TEMPLATES["block_sudo"].command),
                              ("sh -c true (floor)", "true")):
            samples = []
            for _ in range(21):
                started = time.perf_counter()
                subprocess.run(["/bin/sh", "-c", command], input=stdin, capture_output=True, check=False)
                samples.append(time.perf_counter() - started)
            print(f"{label:18} {name:20} {statistics.median(samples) * 1000:6.2f} ms")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["XDG_DATA_HOME"] = str(work / "data")
        event_path(work)
        hostile(work)
        block_sudo(work)
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}, "
          f"maxrss of this process {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB)")


if __name__ == "__main__":
    main()
