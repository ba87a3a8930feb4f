"""``forge-hook warm on|off|status``: the library behind them (the CLI only parses and
prints). The resident runner itself is :mod:`forge_hookd.warm.runner`; its client, which also
owns the wire format and the paths, is :mod:`forge_hookd.warm.client`.

``on`` starts the runner and leaves a mark (``warm.on`` in the state directory) that
makes the client start it again when it is needed: after a reboot, an idle exit, a
crash. The client never waits for that start: the event that finds no runner runs cold
and the runner is there for the next one. ``off`` removes the mark and stops the runner
(runs in progress finish first).
"""

from __future__ import annotations

import os
import socket
import sys
import time
from typing import Any

import orjson

from forge_hookd.warm import client as wire
from forge_hookd.errors import ForgeError
from forge_hookd.warm.runner import prepare_dir
from forge_hookd.warm.log import RunnerLog

#: How long ``on`` waits for a runner it started to answer, and ``off`` for one to go.
START_WAIT = 30.0
_POLL = 0.02


class WarmError(ForgeError):
    """The resident runner cannot be started or reached."""

    kind = "warm"


def directory() -> str:
    """Where the runner's sockets live (warmclient.runtime_dir)."""
    return os.fsdecode(wire.runtime_dir(os.environb))


def enabled_mark() -> str:
    return os.fsdecode(wire.enabled_mark(os.environb))


def status() -> dict[str, Any]:
    """What the runner says of itself (``state`` "up", pid, since, served, running,
    version, key, socket, idle_exit), else ``state`` "down" and why; plus ``enabled``
    (whether the client starts it again) and ``stale`` (whether it is another version
    than this forge, which it then does not serve)."""
    where = directory()
    found = _ask(where, b"status")
    if found is None:
        problem = wire.private_dir_problem(os.fsencode(where))
        found = {"state": "down", "why": problem or "no runner is listening",
                 "socket": os.path.join(where, os.fsdecode(wire.RUNNER_SOCKET))}
    else:
        found["stale"] = found.get("key") != wire.code_key().decode(errors="replace")
    found["enabled"] = os.path.exists(enabled_mark())
    return found


def turn_on() -> dict[str, Any]:
    """Leave the mark, start the runner unless one of this version is up (a stale one
    is stopped first), and wait until it answers; its status."""
    _write_mark()
    now = status()
    if now["state"] == "up" and not now["stale"]:
        return now
    if now["state"] != "down":
        _stop_and_wait(now)
    problem = prepare_dir(directory())
    if problem is not None:
        raise WarmError(f"cannot start the resident runner: {problem}")
    wire.spawn_runner(os.environb)
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        now = status()
        if now["state"] == "up":
            return now
        time.sleep(_POLL)
    raise WarmError(f"the resident runner did not answer within {START_WAIT:g} s; "
                    f"see {log_path()}")


def turn_off() -> dict[str, Any]:
    """Remove the mark and stop the runner, waiting until it is gone (runs in progress
    finish first); the status it had (``state`` "down" if none was up)."""
    try:
        os.unlink(enabled_mark())
    except FileNotFoundError:
        pass
    before = status()
    if before["state"] != "down":
        _stop_and_wait(before)
    return before


def log_path() -> str:
    return RunnerLog().path


def _stop_and_wait(now: dict[str, Any]) -> None:
    _ask(directory(), b"stop")
    pid = int(now["pid"])
    deadline = time.monotonic() + START_WAIT
    while _alive(pid):
        if time.monotonic() > deadline:
            raise WarmError(f"the resident runner (pid {pid}) did not stop within {START_WAIT:g} s")
        time.sleep(_POLL)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False


def _ask(where: str, verb: bytes) -> dict[str, Any] | None:
    """The runner's JSON answer to ``verb`` on its control socket; None when none answers."""
    if wire.private_dir_problem(os.fsencode(where)) is not None:
        return None
    path = os.path.join(where, os.fsdecode(wire.CONTROL_SOCKET))
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(5.0)
            sock.connect(path)
            sock.sendall(verb + b"\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        answer = orjson.loads(data)
    except (OSError, ValueError, orjson.JSONDecodeError):
        return None
    return answer if isinstance(answer, dict) else None


def _write_mark() -> None:
    mark = enabled_mark()
    os.makedirs(os.path.dirname(mark), mode=0o700, exist_ok=True)
    with open(mark, "w") as fh:
        fh.write(f"forge-hook warm on, {time.strftime('%Y-%m-%dT%H:%M:%S%z')}, {sys.executable}\n")
