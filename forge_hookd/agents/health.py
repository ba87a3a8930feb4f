"""``forge-hook doctor --json``: one machine's heartbeat for the team that rolls forge out
(issue 35 item 5). The schema is documented in docs/managed.md ("Fleet health") and
pinned by tests/agents/test_health.py; a key is added, never renamed or removed, and
``schema`` changes when a meaning does.

- ``forge``: its version, the Python it runs on, where ``forge-hook-run`` is on PATH;
- ``agents``: per agent found, the wiring doctor reads (which events reach forge), the
  agent CLI's own version (``--version``, bounded) and when it last called forge (the
  run log's newest record of its dialect: a wiring that silently stopped firing shows);
- ``project``: the project root, its hooks file and its trust state;
- ``managed``: the managed layer's directories, files, refusals and digest;
- ``findings``: how many things are wrong (doctor's exit status is 1 when any is);
- ``unmapped_tools``: the tools the run log has seen that no dialect's alias table maps
  (MCP tools, tools an agent added): the guards judge them by their shape only (issue
  31, item 4), so a tool named here may deserve a mapping.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from typing import Any

from forge_hookd import managed
from forge_hookd.agents.doctor import AgentReport
from forge_hookd.agents.places import PLACES, no_system_file, system_file
from forge_hookd.agents.plugins import PLUGIN_PLACES  # OpenCode and Kilo: a plugin, no settings file
from forge_hookd.config import parse_document, project_file, read_raw
from forge_hookd.errors import ConfigError
from forge_hookd.log.record import forge_version
from forge_hookd.log.runlog import log_path
from forge_hookd.log.view import read as read_log
from forge_hookd.trust import store as trust

#: Bumped when a key's meaning changes; a key added keeps it.
SCHEMA = 1
#: How long an agent CLI's ``--version`` may take.
VERSION_TIMEOUT = 5.0


def report(project_root: str, agents: list[AgentReport], *, probe: bool = True) -> dict[str, Any]:
    """The heartbeat document for ``project_root`` with doctor's ``agents`` reports;
    without ``probe`` (doctor's lines) no agent CLI is run and the run log is not read:
    ``version`` and ``last_call`` are null."""
    layer = managed.load_layer(project_root=project_root)
    calls, unmapped = seen_in_log(calls=probe)
    return {
        "schema": SCHEMA,
        "forge": {"version": forge_version(), "python": platform.python_version(),
                  "runner": shutil.which("forge-hook-run")},
        "agents": [{**r.to_json(), "version": agent_version(r.agent) if probe else None,
                    "system_file": system_file(r.agent), "no_system_file": no_system_file(r.agent), "last_call": calls.get(r.agent)}
                   for r in agents],
        "project": project_state(project_root),
        "managed": layer_state(layer),
        "findings": sum(len(r.findings) for r in agents) + len(layer.refused),
        "unmapped_tools": unmapped,
    }


def layer_state(layer: managed.ManagedLayer) -> dict[str, Any]:
    """The managed layer as the heartbeat shows it."""
    return {"dirs": [{"path": path, "authoritative": authoritative} for path, authoritative in layer.dirs],
            "files": [{"source": f.source, "path": f.path, "hooks": len(f.loaded.hooks), "refused": f.refused}
                      for f in layer.files],
            "refused": [{"path": r.path, "why": r.why} for r in layer.refused],
            "managed_only": layer.managed_only is not None, "digest": layer.digest()}


def project_state(project_root: str) -> dict[str, Any]:
    """The project's hooks file and its trust: ``none`` (no file), ``trusted``,
    ``untrusted``, ``changed``, or ``unreadable``."""
    path = project_file(project_root)
    try:
        raw = read_raw(path)
        state = "none" if raw is None else trust.check(path, raw, parse_document(raw, path)).state.value
    except ConfigError:
        state = "unreadable"
    return {"root": project_root, "hooks_file": path, "trust": state}


def last_calls() -> dict[str, dict[str, Any]]:
    """Per dialect, the newest run log record's time, event (the agent's own name) and
    decision; empty when the log is off or missing."""
    return seen_in_log()[0]


def seen_in_log(*, calls: bool = True) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """One pass over the run log: :func:`last_calls` (when ``calls``), and the tool
    events whose tool no alias table maps: per dialect and tool, how many runs, the
    newest time, and whether it is named as MCP tools are; both empty when the log is
    off or missing."""
    from forge_hookd.guards import base, shape  # doctor only

    path = log_path()
    newest: dict[str, dict[str, Any]] = {}
    unmapped: dict[tuple[str, str], dict[str, Any]] = {}
    if path is None:
        return newest, []
    for rec in read_log(path):
        dialect, when = rec.get("dialect"), rec.get("time")
        if not isinstance(when, str):
            continue
        event = _mapping(rec.get("event"))
        agent = _mapping(event.get("agent"))
        tool, kind = event.get("tool"), event.get("type")
        if isinstance(tool, str) and tool and isinstance(kind, str) and kind.startswith("tool:") and \
                tool not in base.CANONICAL_TOOLS:
            native = str(agent["tool"]) if isinstance(agent.get("tool"), str) else tool
            seen = unmapped.setdefault((dialect if isinstance(dialect, str) else "", native), {
                "dialect": dialect if isinstance(dialect, str) else None, "tool": native, "runs": 0,
                "last_seen": when, "mcp": shape.is_mcp(native)})
            seen["runs"] += 1
            seen["last_seen"] = max(seen["last_seen"], when)
        if not calls or not isinstance(dialect, str):
            continue
        if dialect not in newest or when >= newest[dialect]["time"]:
            newest[dialect] = {"time": when, "event": agent.get("event") or event.get("type"),
                               "decision": rec.get("decision")}
    return newest, sorted(unmapped.values(), key=lambda t: (t["dialect"] or "", t["tool"]))


def _mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def agent_version(name: str) -> str | None:
    """The first line the agent's CLI prints for ``--version``, None when it is not on
    PATH, fails, or takes longer than :data:`VERSION_TIMEOUT`."""
    clis = PLACES[name].clis if name in PLACES else PLUGIN_PLACES[name].clis if name in PLUGIN_PLACES else ()
    for cli in clis:
        program = shutil.which(cli)
        if program is None:
            continue
        try:
            done = subprocess.run([program, "--version"], capture_output=True, text=True, errors="replace",
                                  timeout=VERSION_TIMEOUT, stdin=subprocess.DEVNULL,
                                  env={**os.environ, "NO_COLOR": "1"})
        except (OSError, subprocess.TimeoutExpired):
            return None
        lines = done.stdout.strip().splitlines()
        return lines[0][:200] if done.returncode == 0 and lines else None
    return None
