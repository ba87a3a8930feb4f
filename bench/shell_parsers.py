"""Shell parsers side by side: forge_hookd.shell.commands against bashlex and tree-sitter-bash.

Per command: parse time (median of the corpus, microseconds), how many commands each
parses without an error; per hostile input: what each does (seconds, or the exception),
each in a child process with a time bound; import cost: ``python -X importtime`` in fresh
processes, the median of the cumulative microseconds.

    python3 -m venv /tmp/parsers && /tmp/parsers/bin/pip install -q bashlex tree-sitter tree-sitter-bash
    /tmp/parsers/bin/pip install -q -e .
    /tmp/parsers/bin/python bench/shell_parsers.py [--rounds 5]

The corpus is every command of tests/guards/corpus/*.jsonl and tests/shell/test_shell.py's
cases (figures in bench/README.md, "Shell parsers").
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

HOSTILE = {
    "1 MB word": "'echo ' + 'a' * (1 << 20)",
    "1 MB of 'ls; '": "'ls; ' * (1 << 18)",
    "1,000 nested $(": "'$(' * 1000 + 'x' + ')' * 1000",
    "10,000 nested $(": "'$(' * 10000 + 'x' + ')' * 10000",
    "10,000 unbalanced $(": "'$(' * 10000",
    "unbalanced quote": "\"echo 'x\"",
    "1 MB of eval": "'eval ' * 200000",
}


def _parsers() -> dict[str, Callable[[str], Any]]:
    found: dict[str, Callable[[str], Any]] = {}
    from forge_hookd.shell import commands as shell

    def ours(text: str) -> Any:
        shell.parse.cache_clear()
        parsed = shell.parse(text)
        if parsed.error:
            raise SyntaxError(parsed.error)
        return parsed

    found["forge_hookd.shell.commands"] = ours
    try:
        import bashlex  # type: ignore[import-not-found]

        found["bashlex"] = bashlex.parse
    except ImportError:
        pass
    try:
        import tree_sitter  # type: ignore[import-not-found]
        import tree_sitter_bash  # type: ignore[import-not-found]

        parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))

        def ts(text: str) -> Any:
            tree = parser.parse(text.encode())
            if tree.root_node.has_error:
                raise SyntaxError("has_error")
            return tree

        found["tree-sitter-bash"] = ts
    except ImportError:
        pass
    return found


def corpus() -> list[str]:
    commands = []
    for path in sorted((ROOT / "tests" / "guards" / "corpus").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            case = json.loads(line) if line.strip() else {}
            command = case.get("tool_input", {}).get("command")
            if isinstance(command, str):
                commands.append(command)
    return commands or ["rm -rf /", "git push --force origin main", "curl x | sh", "echo 'a b' && ls | wc -l"]


def per_command(rounds: int) -> None:
    commands = corpus()
    print(f"corpus: {len(commands)} commands, {rounds} rounds")
    for name, parse in _parsers().items():
        errors = 0
        times = []
        for command in commands:
            best = float("inf")
            for _ in range(rounds):
                start = time.perf_counter()
                try:
                    parse(command)
                except Exception:
                    if _ == 0:
                        errors += 1
                best = min(best, time.perf_counter() - start)
            times.append(best)
        times.sort()
        print(f"  {name:18} median {statistics.median(times) * 1e6:7.1f} us  p90 "
              f"{times[int(len(times) * 0.9)] * 1e6:7.1f} us  max {times[-1] * 1e6:8.1f} us  "
              f"refused {errors}/{len(commands)}")


def hostile() -> None:
    for label, expression in HOSTILE.items():
        row = []
        for name in _parsers():
            code = (f"import sys, time; sys.path.insert(0, {str(ROOT / 'bench')!r}); import shell_parsers as b; "
                    f"p = b._parsers()[{name!r}]; t = eval({expression!r}); s = time.perf_counter()\n"
                    "try:\n    p(t); r = 'ok'\nexcept BaseException as e:\n    r = type(e).__name__\n"
                    "print(f'{r} {time.perf_counter() - s:.2f}s')")
            try:
                out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
                row.append(f"{name}: {out.stdout.strip() or out.stderr.strip().splitlines()[-1]}")
            except subprocess.TimeoutExpired:
                row.append(f"{name}: over 60 s")
        print(f"  {label:22} " + " | ".join(row))


def import_cost(rounds: int) -> None:
    for module in ("forge_hookd.shell.commands", "bashlex", "tree_sitter_bash", "shlex"):
        figures = []
        for _ in range(rounds):
            out = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                                 capture_output=True, text=True).stderr
            rows = [line for line in out.splitlines() if line.rstrip().endswith(f"| {module}")]
            if rows:
                figures.append(int(rows[-1].split("|")[1]))
        if figures:
            print(f"  import {module:20} {statistics.median(figures) / 1000:7.1f} ms (cumulative, median)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    per_command(args.rounds)
    hostile()
    import_cost(args.rounds)


if __name__ == "__main__":
    main()
