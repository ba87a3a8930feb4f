"""The guard pack against the corpus of dangerous commands and their benign look-alikes
(tests/guards/corpus/, sources in its README): every expected decision holds, a case
marked unmet still fails (so that the mark goes when it is met), and the share caught
and refused per category is reported (`pytest -s tests/guards/test_guards_corpus.py`)."""

from __future__ import annotations

import json
import posixpath
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from forge_hookd.guards import GUARDS, Context, make, wired, worst
from helpers import TESTS

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

CORPUS = TESTS / "guards" / "corpus"
CTX = Context.from_env("/home/user/project", {"HOME": "/home/user"})
PACK = [make(name) for name in GUARDS]


@pytest.fixture(autouse=True)
def forge_installed_in_the_corpus_home(monkeypatch: pytest.MonkeyPatch) -> None:
    """forge installed as install.sh puts it in the corpus's home, not where this checkout
    happens to be: a clone under /tmp made `rm -rf /tmp` a delete of forge itself, which
    self-protection rightly denies, and four cases failed on the place of the clone."""
    monkeypatch.setattr(wired, "installation",
                        lambda project_root, home: (posixpath.join(home, ".local/lib/forge-hook-run"),))


def load() -> list[dict[str, Any]]:
    cases = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            case = json.loads(line)
            case["id"] = f"{path.stem}:{number}"
            cases.append(case)
    return cases


CASES = load()


def decide(case: dict[str, Any]) -> str:
    return worst(g.judge(case["tool"], case["tool_input"], CTX) for g in PACK).decision


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_each_case(case: dict[str, Any]) -> None:
    decision = decide(case)
    if "unmet" in case:
        assert decision != case["expected"], f"{case['id']} is met now: drop its 'unmet' mark"
    elif case.get("danger"):  # issue 31's corpus: dangerous, and deny or ask both catch it
        assert decision != "allow", f"{case['id']}: {case['tool_input']} -> {decision}"
    else:
        assert decision == case["expected"], f"{case['id']}: {case['tool_input']} -> {decision}"


def test_every_case_says_where_it_comes_from() -> None:
    for case in CASES:
        assert case["source"] and case["category"] and case["expected"] in ("allow", "ask", "deny"), case["id"]


def report() -> list[str]:
    """Per category: dangerous cases caught (ask or deny), benign ones refused."""
    total: Counter[str] = Counter()
    hit: Counter[str] = Counter()
    unmet: Counter[str] = Counter()
    for case in CASES:
        kind = "danger" if case["expected"] != "allow" else "benign"
        key = f"{case['category']}/{kind}"
        total[key] += 1
        hit[key] += decide(case) != "allow"
        unmet[key] += "unmet" in case
    def share(key: str) -> str:
        return f"{100 * hit[key] / total[key]:.0f}%" if total[key] else "-"

    lines = [f"{'category':22} {'dangerous':>9} {'caught':>7} {'benign':>7} {'refused':>8} {'unmet':>6}"]
    for category in sorted({k.split('/')[0] for k in total}):
        d, b = f"{category}/danger", f"{category}/benign"
        lines.append(f"{category:22} {total[d]:>9} {share(d):>7} {total[b]:>7} {share(b):>8} {unmet[d] + unmet[b]:>6}")
    return lines


def report_against_the_peers() -> list[str]:
    """The peers' cases judged by the peers' own labels (``peer_expected``), not ours:
    where ``expected`` was set by reviewing our own output, this is the table that can
    go against us. Dangerous by the peer: caught (ask or deny); benign by the peer:
    refused."""
    total: Counter[str] = Counter()
    hit: Counter[str] = Counter()
    for case in CASES:
        if "peer_expected" not in case:
            continue
        kind = "danger" if case["peer_expected"] != "allow" else "benign"
        for key in (f"{case['category']}/{kind}", f"all/{kind}"):
            total[key] += 1
            hit[key] += decide(case) != "allow"

    def share(key: str) -> str:
        return f"{100 * hit[key] / total[key]:.1f}%" if total[key] else "-"

    lines = [f"{'category (peer labels)':22} {'dangerous':>9} {'caught':>7} {'benign':>7} {'refused':>8}"]
    for category in [*sorted({k.split('/')[0] for k in total} - {"all"}), "all"]:
        d, b = f"{category}/danger", f"{category}/benign"
        lines.append(f"{category:22} {total[d]:>9} {share(d):>7} {total[b]:>7} {share(b):>8}")
    return lines


def test_the_corpus_is_large_enough_and_reported() -> None:
    dangerous = sum(c["expected"] != "allow" for c in CASES)
    benign = len(CASES) - dangerous
    assert dangerous >= 200 and benign >= 200
    print("\n" + "\n".join(report()) + "\n\n" + "\n".join(report_against_the_peers()))
