"""The skeleton the corpus builders share (build_fresh.py, build_fresh2.py, build_issue31.py):
cases collected as rows, each turned into a corpus line, split by a hash into a tuning part
(tests/guards/corpus/, run by the tests) and a held-out part (tests/guards/heldout/,
measured once, at the end), and the measurement: per category, dangerous cases caught
(deny or ask) and benign ones refused, with each miss and refusal named.

    python tests/guards/build_X.py                        # writes both files
    python tests/guards/build_X.py --measure              # the tuning part
    python tests/guards/build_X.py --measure --held-out   # and the held-out part (once, at the end)
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

# (category, tool, tool_input, expected, source, note)
Row = tuple[str, str, dict[str, Any], str, dict[str, str], str | None]


class Cases(list[Row]):
    """The rows a builder collects, with the two ways of writing them down."""

    def sh(self, category: str, expected: str, source: dict[str, str], *commands: str,
           note: str | None = None) -> None:
        self.extend((category, "bash", {"command": c}, expected, source, note) for c in commands)

    def tool(self, category: str, expected: str, source: dict[str, str], name: str, *inputs: dict[str, Any],
             note: str | None = None) -> None:
        self.extend((category, name, i, expected, source, note) for i in inputs)


def held_out_by_case(case: dict[str, Any]) -> bool:
    """30% of the cases, by a hash of the tool and its input (so a label change keeps the split)."""
    key = json.dumps([case["tool"], case["tool_input"]], sort_keys=True)
    return int(hashlib.sha256(key.encode()).hexdigest(), 16) % 10 < 3


def case(row: Row, unmet: dict[str, str]) -> dict[str, Any]:
    """One corpus line: ``danger`` on a dangerous case (deny or ask both catch it)."""
    category, name, tool_input, expected, source, note = row
    out: dict[str, Any] = {"category": category, "tool": name, "tool_input": tool_input, "expected": expected}
    if expected != "allow":
        out["danger"] = True  # deny or ask both catch it: expected is checked as "not allow"
    out["source"] = source
    if tool_input.get("command") in unmet:
        out["unmet"] = unmet[tool_input["command"]]
    if note:
        out["note"] = note
    return out


def write(cases: Iterable[dict[str, Any]], tune_path: Path, held_path: Path,
          held_out: Callable[[dict[str, Any]], bool] = held_out_by_case) -> None:
    """The first case of each tool and input, into the tuning or the held-out file."""
    seen: set[str] = set()
    tune: list[dict[str, Any]] = []
    held: list[dict[str, Any]] = []
    for c in cases:
        key = json.dumps([c["tool"], c["tool_input"]], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        (held if held_out(c) else tune).append(c)
    tune_path.write_text("".join(json.dumps(c) + "\n" for c in tune))
    held_path.parent.mkdir(exist_ok=True)
    held_path.write_text("".join(json.dumps(c) + "\n" for c in held))
    print(f"tuning part {len(tune)}, held-out part {len(held)}")


def measure(parts: tuple[Path, ...]) -> None:
    """Per category and in all: dangerous cases caught (ask or deny), benign ones refused."""
    from forge_hookd.guards import GUARDS, Context, make, worst

    ctx = Context.from_env("/home/user/project", {"HOME": "/home/user"})
    pack = [make(name) for name in GUARDS]
    for path in parts:
        total: Counter[str] = Counter()
        hit: Counter[str] = Counter()
        wrong: list[str] = []
        for line in path.read_text().splitlines():
            c = json.loads(line)
            decision = worst(g.judge(c["tool"], c["tool_input"], ctx) for g in pack).decision
            kind = "danger" if c["expected"] != "allow" else "benign"
            caught = decision != "allow"
            for key in (f"{c['category']}/{kind}", f"all/{kind}"):
                total[key] += 1
                hit[key] += caught
            if caught != (kind == "danger"):
                what = "missed" if kind == "danger" else f"refused ({decision})"
                mark = " [unmet]" if "unmet" in c else ""
                wrong.append(f"   {what}{mark}: {c['category']}: {json.dumps(c['tool_input'])[:160]}")
        print(f"{path.relative_to(HERE)}")
        print(f"   {'category':22} {'dangerous':>9} {'caught':>7} {'benign':>7} {'refused':>8}")
        for category in [*sorted({k.split('/')[0] for k in total} - {"all"}), "all"]:
            d, b = f"{category}/danger", f"{category}/benign"
            share = {k: f"{100 * hit[k] / total[k]:.1f}%" if total[k] else "-" for k in (d, b)}
            print(f"   {category:22} {total[d]:>9} {share[d]:>7} {total[b]:>7} {share[b]:>8}")
        print("\n".join(wrong))


def main(build: Callable[[], Iterable[dict[str, Any]]], tune_path: Path, held_path: Path,
         held_out: Callable[[dict[str, Any]], bool] = held_out_by_case) -> None:
    """The command line every builder has: write both files, or ``--measure [--held-out]``."""
    if "--measure" in sys.argv:
        measure((tune_path, held_path) if "--held-out" in sys.argv else (tune_path,))
    else:
        write(build(), tune_path, held_path, held_out)
