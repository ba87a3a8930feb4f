"""What judging costs: guards.hook.judge_hook for each built-in guard and for the whole
pack, on typical tool calls, in-process (what the executor will call per guard entry).

Per event the command is parsed once (shell.parse is cached, and every guard of the
pack shares it), so each round clears that cache first: the figures include one parse.
Also the import of forge_hookd.guards in a fresh process (paid once per run, only by a
run whose config holds a guard entry).

    python3 bench/guard_judge.py [--rounds 2000]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from forge_hookd.shell import commands as shell  # noqa: E402
from forge_hookd.events import HookEvent  # noqa: E402
from forge_hookd.guards import GUARDS  # noqa: E402
from forge_hookd.run.guardhook import judge_hook  # noqa: E402
from forge_hookd.registry import Hook  # noqa: E402

ENV = {"HOME": "/home/user"}
ROOT = "/home/user/project"
CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "bash: git commit && npm test": ("bash", {"command": 'git add -A && git commit -m "fix: parse" && npm test'}),
    "bash: rm -rf ./build": ("bash", {"command": "rm -rf ./build"}),
    "bash: 600-char pipeline": ("bash", {"command": " | ".join(["grep -v '^#' src/app.py", "sed 's/a/b/g'",
                                                                  "awk '{print $1}'", "sort -u", "head -50"] * 6)}),
    "write: 2 KB file": ("write", {"file_path": "src/app.py", "content": "def f(x):\n    return x + 1\n" * 70}),
}


def median_us(hooks: list[Hook], event: HookEvent, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        shell.parse.cache_clear()
        start = time.perf_counter()
        for hook in hooks:
            judge_hook(hook, event, project_root=ROOT, env=ENV)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def import_ms(rounds: int) -> float:
    figures = []
    for _ in range(rounds):
        err = subprocess.run([sys.executable, "-X", "importtime", "-c",
                              "import forge_hookd.config, forge_hookd.run.executor; import forge_hookd.run.guardhook"],
                             capture_output=True, text=True).stderr
        rows = [line for line in err.splitlines() if line.rstrip().endswith("| forge_hookd.run.guardhook")]
        figures.append(int(rows[-1].split("|")[1]) / 1000)
    return statistics.median(figures)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    hooks = {name: Hook.from_dict({"event": "tool:pre_execute", "guard": name}) for name in GUARDS}
    for label, (tool, tool_args) in CALLS.items():
        event = HookEvent.tool_pre_execute(tool, tool_args)
        pack = median_us(list(hooks.values()), event, args.rounds)
        one = {name: median_us([hook], event, args.rounds // 4) for name, hook in hooks.items()}
        worst_name = max(one, key=lambda n: one[n])
        print(f"{label:30} whole pack {pack:7.1f} us; one guard median {statistics.median(one.values()):6.1f} us, "
              f"slowest {worst_name} {one[worst_name]:.1f} us")
    print(f"import forge_hookd.guards (after config and executor): {import_ms(9):.1f} ms, median of 9")


if __name__ == "__main__":
    main()
