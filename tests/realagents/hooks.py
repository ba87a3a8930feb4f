"""Hook commands for the real agents: record what the agent sent, answer what a test says.

``scripted_hook`` writes a small Python script (the test's own interpreter, so no PATH
guess) that saves the payload on stdin, the environment, argv and cwd as one JSON file
per call, then prints the given stdout and stderr and exits with the given status. The
recorded calls are how a test knows the hook fired and what the agent gave it.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

_SCRIPT = '''\
import json, os, sys, time
raw = sys.stdin.read()
try:
    payload = json.loads(raw)
except ValueError:
    payload = None
record = {{"label": {label!r}, "argv": sys.argv, "cwd": os.getcwd(), "env": dict(os.environ),
          "stdin": raw, "payload": payload}}
path = os.path.join({directory!r}, "%s-%d-%d.json" % ({label!r}, time.time_ns(), os.getpid()))
with open(path + ".tmp", "w") as f:
    json.dump(record, f, indent=2)
os.rename(path + ".tmp", path)
sys.stdout.write({stdout!r})
sys.stderr.write({stderr!r})
sys.exit({exit_status!r})
'''


def scripted_hook(directory: Path, label: str, *, stdout: str = "", stderr: str = "", exit_status: int = 0) -> str:
    """The command line of a hook that records its call in ``directory`` and answers as told."""
    directory.mkdir(parents=True, exist_ok=True)
    script = directory / f"{label}-hook.py"
    script.write_text(_SCRIPT.format(label=label, directory=str(directory), stdout=stdout, stderr=stderr,
                                     exit_status=exit_status))
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


def json_answer(answer: dict[str, Any], *, exit_status: int = 0, stderr: str = "") -> dict[str, Any]:
    """Keyword arguments of ``scripted_hook`` for a hook that prints ``answer`` as JSON."""
    return {"stdout": json.dumps(answer), "stderr": stderr, "exit_status": exit_status}


def recorded_calls(directory: Path, label: str = "*") -> list[dict[str, Any]]:
    """Every call the scripted hooks in ``directory`` recorded (of ``label``), oldest first."""
    def stamp(path: Path) -> int:
        return int(path.stem.split("-")[-2])  # NAME-TIME_NS-PID

    return [json.loads(p.read_text()) for p in sorted(directory.glob(f"{label}-*-*.json"), key=stamp)]
