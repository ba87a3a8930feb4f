#!/usr/bin/env python3
"""Redaction in linear time: every rule on its worst input (tests/log/test_redact.py's
WORST) at 1 KiB, 32 KiB and 1 MiB, in one process, medians of a few rounds. Linear
work makes each step a ratio of about 32; quadratic, about 1000. ``--rev REV`` times
that revision's redact.py instead (at smaller sizes: the old URL rule takes about an
hour at 1 MiB). See bench/README.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_redact import WORST, worst  # noqa: E402


def redactor(rev: str | None) -> Callable[[str], str]:
    """``redact_text`` of this checkout, or of revision ``rev`` (read with git show)."""
    if rev is None:
        from forge_hookd.log.redact import redact_text

        return redact_text
    source = subprocess.run(["git", "show", f"{rev}:forge_hookd/log/redact.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "redact_at_rev.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("redact_at_rev", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    redact_text: Callable[[str], str] = module.redact_text
    return redact_text


def seconds(redact_text: Callable[[str], str], text: str, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        redact_text(text)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rev", help="time this revision's redact.py (git show REV:forge_hookd/log/redact.py)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1024, 32 * 1024, 1024 * 1024])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=[], help="the rules whose name holds one of these words")
    args = parser.parse_args()
    redact_text = redactor(args.rev)
    redact_text("warm up: TOKEN=x https://a:b@c curl -u a:b PRIVATE KEY AKIA bearer sk-" + "a" * 30)
    names = [n for n in WORST if not args.only or any(word in n for word in args.only)]
    sizes = args.sizes
    print(f"redact_text of {args.rev or 'this checkout'}, median ms of {args.rounds} rounds; "
          "x: ratio to the size before")
    print(f"{'worst input of':32}" + "".join(f"{size // 1024:>10} KiB" for size in sizes) + "   ratios")
    total = [0.0] * len(sizes)
    for name in names:
        figures = [seconds(redact_text, worst(name, size), args.rounds) for size in sizes]
        total = [t + f for t, f in zip(total, figures)]
        ratios = " ".join(f"x{b / a:.0f}" for a, b in zip(figures, figures[1:]))
        print(f"{name:32}" + "".join(f"{f * 1000:14.2f}" for f in figures) + f"   {ratios}", flush=True)
    print(f"{'all of them':32}" + "".join(f"{t * 1000:14.2f}" for t in total))


if __name__ == "__main__":
    main()
