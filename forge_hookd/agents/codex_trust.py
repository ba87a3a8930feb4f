"""Codex's hook trust: what makes a hook in hooks.json actually run (codex 0.169.0).

Codex runs a hook that is not managed only when the user's config.toml records its
trusted hash under ``[hooks.state."<file>:<event>:<group>:<index>"]`` (codex-rs/hooks:
engine/discovery.rs; what the TUI's ``/hooks`` writes). An untrusted hook is listed and
never run. ``forge-hook install --agent codex`` is the user saying "run forge's hook",
so it records that trust for the entries it wrote, and only for those: as Codex itself
does for the hooks of a plugin the user installs. The hash is Codex's: SHA-256 of the
canonical JSON of the normalized entry, checked against what ``codex app-server``'s
``hooks/list`` reports (tests/agents/test_agentwire_agents.py).

config.toml is the one TOML file forge touches, and Python has no TOML writer. Nothing
in it is rewritten: trust is a block of whole tables appended at the end, and the result
is parsed again (tomllib) and must be the old document plus those keys, else nothing is
written and the user is told to trust the hooks in ``/hooks`` instead. Uninstall cuts
the same block out again (byte for byte when nothing else changed) or, after an edit,
each of its tables, verified the same way.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import tomllib
from typing import Any

from forge_hookd.agents import places as agentplaces

from forge_hookd.agents import record as wirerecord
from forge_hookd.agents.places import Handler
from forge_hookd.errors import ConfigError
from forge_hookd.readfile import read_regular
from forge_hookd.safefile import locked, write_atomically
from forge_hookd.agents.record import FileRecord, Wiring

#: Codex ignores a matcher on these events (hooks: events/common.rs)
_NO_MATCHER = frozenset({"user_prompt_submit", "stop", "interrupt"})
#: events whose handlers Codex gives a 1 s timeout by default, at most 3 s
_SHORT = frozenset({"session_end", "interrupt"})
_DEFAULT_TIMEOUT = 600


def config_path() -> str:
    return os.path.join(agentplaces.home("codex"), "config.toml")


def label(event: str) -> str:
    """Codex's key for an event: ``PreToolUse`` -> ``pre_tool_use``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def hook_key(hooks_json: str, handler: Handler) -> str:
    return f"{os.path.abspath(hooks_json)}:{label(handler.event)}:{handler.group}:{handler.index}"


def hook_hash(handler: Handler) -> str:
    """The hash Codex computes for ``handler`` (discovery.rs: ``command_hook_hash``)."""
    event = label(handler.event)
    given = handler.handler.get("timeout")
    timeout = given if isinstance(given, int) and not isinstance(given, bool) else None
    if event in _SHORT:
        timeout = min(max(timeout if timeout is not None else 1, 1), 3)
    else:
        timeout = max(timeout if timeout is not None else _DEFAULT_TIMEOUT, 1)
    entry: dict[str, Any] = {"type": "command", "command": handler.command, "timeout": timeout,
                             "async": handler.handler.get("async") is True}
    if isinstance(handler.handler.get("statusMessage"), str):
        entry["statusMessage"] = handler.handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": event, "hooks": [entry]}
    matcher = handler.matcher.strip() if isinstance(handler.matcher, str) else ""
    if matcher and event not in _NO_MATCHER:
        identity["matcher"] = matcher
    canonical = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def trusted(doc: dict[str, Any], key: str) -> str | None:
    """The trusted hash config.toml ``doc`` records for ``key``."""
    state = _state(doc).get(key)
    value = state.get("trusted_hash") if isinstance(state, dict) else None
    return value if isinstance(value, str) else None


def _state(doc: dict[str, Any]) -> dict[str, Any]:
    hooks = doc.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    return state if isinstance(state, dict) else {}


def read_config() -> tuple[dict[str, Any] | None, str | None]:
    """config.toml parsed, or why it could not be: ``(doc, problem)``; {} when missing."""
    path = config_path()
    try:
        raw = read_regular(path)
        return (tomllib.loads(raw.decode("utf-8")) if raw is not None else {}), None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return None, f"{path} does not parse: {exc}"
    except ConfigError as exc:
        return None, str(exc)


# -- install -------------------------------------------------------------------------------------
def trust(scope: str, hooks_json: str, handlers: list[Handler]) -> list[Wiring]:
    """Record Codex's trust for forge's ``handlers`` in ``hooks_json``."""
    if not handlers:
        return []
    path = config_path()
    new_dirs = wirerecord.missing_directories(os.path.dirname(os.path.abspath(path)))
    with locked(path):
        raw = read_regular(path)
        text = raw.decode("utf-8", "replace") if raw is not None else ""
        doc, problem = read_config()
        if doc is None:
            return [Wiring("codex", path, "unchanged", notes=[f"{problem}: not touched. Codex runs a hook only "
                                                               "once you trust it: trust forge-hook-run in codex's /hooks"])]
        wanted = {hook_key(hooks_json, h): hook_hash(h) for h in handlers}
        notes = [f"Codex already holds a state of its own for {key} (another trust, or enabled = false): "
                 "left as it is" for key, value in wanted.items()
                 if key in _state(doc) and trusted(doc, key) != value]
        to_add = {key: value for key, value in wanted.items() if key not in _state(doc)}
        notes += switches(doc, scope, hooks_json)
        if not to_add:
            return [Wiring("codex", path, "unchanged", notes=notes)] if notes else []
        block = _block(text, hooks_json, to_add)
        expected = copy.deepcopy(doc)
        expected.setdefault("hooks", {}).setdefault("state", {}).update(
            {key: {"trusted_hash": value} for key, value in to_add.items()})
        if _parse(text + block) != expected:
            return [Wiring("codex", path, "unchanged", notes=notes + [
                f"could not add Codex's trust for forge's hooks to {path} without changing what else it says: "
                "not touched; trust forge-hook-run in codex's /hooks"])]
        write_atomically(path, (text + block).encode())
        wirerecord.update(lambda records: _record(records, scope, path, hooks_json, raw is None, new_dirs, block))
    events = [h.event for h in handlers if hook_key(hooks_json, h) in to_add]
    return [Wiring("codex", path, "created" if raw is None else "updated", notes=[
        f"recorded Codex's trust for forge-hook-run's {len(to_add)} hook{'s' if len(to_add) != 1 else ''} "
        f"({', '.join(events)}), as codex's /hooks would"] + notes)]


def switches(doc: dict[str, Any], scope: str, hooks_json: str) -> list[str]:
    """What else in config.toml keeps forge's hooks from running."""
    notes = []
    features = doc.get("features") if isinstance(doc.get("features"), dict) else {}
    for name in ("hooks", "codex_hooks"):
        if isinstance(features, dict) and features.get(name) is False:
            notes.append(f"Codex's hooks are switched off ([features] {name} = false in {config_path()}): "
                         "no hook runs until you switch them on")
    if scope == "project" and not project_trusted(doc, os.path.dirname(os.path.dirname(hooks_json))):
        notes.append(f"Codex reads {hooks_json} only in a project it trusts: trust "
                     f"{os.path.dirname(os.path.dirname(hooks_json))} when codex asks (or set its "
                     "trust_level = \"trusted\" under [projects])")
    return notes


def project_trusted(doc: dict[str, Any], root: str) -> bool:
    """Whether config.toml trusts ``root`` or a directory above it (its repository)."""
    projects = doc.get("projects") if isinstance(doc.get("projects"), dict) else {}
    path = os.path.abspath(root)
    while True:
        entry = projects.get(path) if isinstance(projects, dict) else None
        if isinstance(entry, dict) and entry.get("trust_level") is not None:
            return entry.get("trust_level") == "trusted"
        parent = os.path.dirname(path)
        if parent == path:
            return False
        path = parent


def _block(text: str, hooks_json: str, hashes: dict[str, str]) -> str:
    lead = "" if not text else ("\n" if text.endswith("\n") else "\n\n")
    tables = "\n".join(f"[hooks.state.{_quoted(key)}]\ntrusted_hash = {_quoted(value)}\n" for key, value in hashes.items())
    return (f"{lead}# Added by forge-hook install: Codex's trust for forge-hook-run in {_one_line(hooks_json)}\n"
            "# (what codex's /hooks records; forge-hook install --agent codex --uninstall takes it out)\n"
            + tables)


def _quoted(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's, for the characters a path holds)."""
    return json.dumps(value, ensure_ascii=False)


def _one_line(text: str) -> str:
    return text.replace("\n", "\\n").replace("\r", "\\r")


def _parse(text: str) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def _record(records: dict[str, FileRecord], scope: str, path: str, hooks_json: str, created: bool,
            new_dirs: list[str], block: str) -> None:
    key = f"{wirerecord.key_of(path)}#{os.path.abspath(hooks_json)}"
    record = records.get(key) or FileRecord("codex", scope, path, kind="toml", created=created, dirs=new_dirs,
                                            rounds=None)
    record.blocks.append(block)
    records[key] = record


# -- uninstall -----------------------------------------------------------------------------------
def untrust(scope: str, hooks_json: str) -> list[Wiring]:
    """Take out the trust install recorded for forge's hooks in ``hooks_json``."""
    path = config_path()
    key = f"{wirerecord.key_of(path)}#{os.path.abspath(hooks_json)}"
    record = wirerecord.load().get(key)
    if record is None:
        return []
    with locked(path):
        raw = read_regular(path)
        outcome = _cut(path, raw, record) if raw is not None else Wiring("codex", path, "nothing")
        wirerecord.update(lambda records: records.pop(key, None))
    return [outcome]


def _cut(path: str, raw: bytes, record: FileRecord) -> Wiring:
    text = raw.decode("utf-8", "replace")
    before = _parse(text)
    keys = [k for block in record.blocks for k in re.findall(r'^\[hooks\.state\.(".*")\]$', block, re.M)]
    keys = [json.loads(k) for k in keys]
    for block in reversed(record.blocks):
        at = text.rfind(block)
        if at >= 0:
            text = text[:at] + text[at + len(block):]
            continue
        for table in re.findall(r'^\[hooks\.state\..*\]\ntrusted_hash = .*\n', block, re.M):
            text = text.replace(table, "", 1)
    if before is None or _pruned(_parse(text)) != _pruned(_without(before, keys)):
        return Wiring("codex", path, "nothing", notes=[
            f"{path} changed in a way forge-hook cannot take its trust out of safely: remove "
            + ", ".join(f"[hooks.state.{_quoted(k)}]" for k in keys) + " by hand"])
    if record.created and text.strip() == "":
        os.unlink(os.path.realpath(path))
        wirerecord.remove_directories(record.dirs)
        return Wiring("codex", path, "removed", notes=[f"took out Codex's trust for forge's {len(keys)} hooks"])
    write_atomically(path, text.encode())
    return Wiring("codex", path, "restored", notes=[f"took out Codex's trust for forge's {len(keys)} hooks"])


def _without(doc: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    for key in keys:
        _state(doc).pop(key, None)
    return doc


def _pruned(doc: dict[str, Any] | None) -> dict[str, Any] | None:
    """``doc`` without an empty ``hooks.state`` or ``hooks`` table (whether a table that
    held only forge's keys was spelt out is not a difference)."""
    if doc is None:
        return None
    doc = copy.deepcopy(doc)
    hooks = doc.get("hooks")
    if isinstance(hooks, dict):
        if hooks.get("state") == {}:
            del hooks["state"]
        if hooks == {}:
            del doc["hooks"]
    return doc
