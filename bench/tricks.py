#!/usr/bin/env python3
"""What each start-up trick of forge_hookd saves, measured inside fresh interpreters:
the time of the statement with the trick and of the one it replaces, after what the
event path has loaded anyway, alternating; the median difference in ms.
See bench/README.md, "tricks.py"."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

PRCTL_DIRECT = ("import _ctypes, os; f = _ctypes.dlsym(_ctypes.dlopen(None, os.RTLD_NOW), 'prctl'); "
                "_ctypes.call_function(f, (36, 1, 0, 0, 0))")
PRCTL_CTYPES = "import ctypes; ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)"
PLAIN = ("class Spec:\n __slots__ = ('a', 'b', 'c', 'd', 'e', 'f')\n"
         " def __init__(self, a, b, c, d, e, f): self.a, self.b, self.c, self.d, self.e, self.f = a, b, c, d, e, f\n"
         "class Outcome:\n __slots__ = ('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h')\n"
         " def __init__(self, *, a=None, b=b'', c=b'', d=False, e=False, f=False, g=None, h=0.0): pass\n")
DATACLASS = ("@dataclasses.dataclass\nclass Spec:\n a: str\n b: str\n c: dict\n d: bytes\n e: float\n f: bool = False\n"
             "@dataclasses.dataclass\nclass Outcome:\n a: int = 0\n b: bytes = b''\n c: bytes = b''\n d: bool = False\n"
             " e: bool = False\n f: bool = False\n g: str = ''\n h: float = 0.0\n")
EVENT_PATH = "import click, orjson, dataclasses, enum"

#: name -> (loaded anyway, with the trick, without it)
TRICKS = {
    "lazy psutil (tree.py, process.py)": (EVENT_PATH, "pass", "import psutil"),
    "prctl through _ctypes (tree.py)": (EVENT_PATH + ", subprocess", PRCTL_DIRECT, PRCTL_CTYPES),
    "plain classes for Spec and Outcome (process.py; Outcome is now HookResult)": (EVENT_PATH + ", subprocess", PLAIN, DATACLASS),
    "select.poll instead of selectors (dropped)": (EVENT_PATH + ", subprocess", "import select", "import selectors"),
    "own --help/--version, str not click.Path (cli.py)": (EVENT_PATH, "pass", "import gettext; gettext.gettext('x')"),
    "paths as str, not pathlib (config.py)": (EVENT_PATH, "pass", "import pathlib"),
    "built-in SHA-256, not hashlib (trust.py)": (EVENT_PATH, "import _sha256", "import hashlib; hashlib.sha256"),
    "click.shell_completion only when a shell asks (completion.py)": (EVENT_PATH, "pass", "import click.shell_completion"),
    "process machinery only when a hook runs (executor.py: process.py's subprocess and selectors)": (
        EVENT_PATH, "pass", "import subprocess, selectors"),
    "redaction rules only when a record is written (runrecord.py, trace.py)": (
        EVENT_PATH, "pass", "import forge_hookd.log.redact"),
    "the guard pack only when a config names a guard (config.py)": (
        EVENT_PATH, "pass", "import forge_hookd.guards"),
    "difflib only on the way to a did-you-mean (text.py)": (EVENT_PATH, "pass", "import difflib"),
    "logging only when the library has a warning to log (config.py, manage.py, safefile.py)": (
        EVENT_PATH, "pass", "import logging"),
    "tempfile only when a file is written (safefile.py)": (EVENT_PATH, "pass", "import tempfile"),
    "traceback only with FORGE_DEBUG=1 (boundary.py)": (EVENT_PATH, "pass", "import traceback"),
    "asyncio only for the async API (executor.py)": (EVENT_PATH, "pass", "import asyncio"),
    "importlib.metadata only for --version and a build without dist-info (cli.py, runrecord.py, __init__.py)": (
        EVENT_PATH, "pass", "from importlib.metadata import version; version('forge-hookd')"),
    "shlex only for a command with quotes (trust.py)": (EVENT_PATH, "pass", "import shlex"),
    "the dialect modules only for --dialect (cli.py)": (
        EVENT_PATH + "; import forge_hookd.run.pipeline, forge_hookd.run.codec", "pass", "import forge_hookd.run.dialectcodec"),
    "the tracer only when tracing (witness.py)": (EVENT_PATH, "pass", "import forge_hookd.log.trace"),
    "fcntl only when a file is locked (safefile.py, runlog.py)": (EVENT_PATH, "pass", "import fcntl"),
    "glob only for forge-hook import --from copilot (dialects/copilot.py)": (EVENT_PATH, "pass", "import glob"),
    "plain class, not a dataclass, of four fields (config.py, runrecord.py, dialects/base.py)": (
        EVENT_PATH, "class A:\n def __init__(self, a=None, b=None, c=None, d=None): self.a, self.b, self.c, self.d = a, b, c, d",
        "@dataclasses.dataclass\nclass A:\n a: list = None\n b: list = None\n c: str = None\n d: str = None"),
}
TIMER = "import time\n{setup}\n_t = time.perf_counter()\n{stmt}\nprint(time.perf_counter() - _t)\n"


def once(setup: str, stmt: str) -> float:
    out = subprocess.run([sys.executable, "-c", TIMER.format(setup=setup, stmt=stmt)],
                         check=True, capture_output=True, text=True).stdout
    return float(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--only", help="the tricks whose name holds this text")
    args = parser.parse_args()
    rounds = args.rounds
    for name, (setup, fast, slow) in TRICKS.items():
        if args.only and args.only not in name:
            continue
        saved = []
        for i in range(rounds):  # alternate which goes first, so noise falls on both
            if i % 2:
                with_trick, without = once(setup, fast), once(setup, slow)
            else:
                without, with_trick = once(setup, slow), once(setup, fast)
            saved.append((without - with_trick) * 1000)
        low, _, high = statistics.quantiles(saved, n=4)
        print(f"{name}: {statistics.median(saved):.2f} ms saved (IQR {low:.2f} .. {high:.2f})")


if __name__ == "__main__":
    main()
