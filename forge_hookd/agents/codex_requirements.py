"""Codex's managed hooks: forge-hook-run in ``/etc/codex/requirements.toml`` (issue 35, item 2).

What Codex reads there (openai/codex, PR #18893; codex-rs/config/src/hook_config.rs,
``ManagedHooksRequirementsToml``): a ``[hooks]`` table holding ``managed_dir`` and
``windows_managed_dir`` beside the events of hooks.json, each an array of matcher groups
(``[[hooks.PreToolUse]]`` with an optional ``matcher``), each group an array of handlers
(``[[hooks.PreToolUse.hooks]]`` with ``type = "command"``, ``command``, ``timeout`` in
seconds, ``async``, ``statusMessage``): the very schema of hooks.json, spelt as TOML
tables. The file's place is fixed on Linux (codex-rs/config/src/loader/mod.rs,
``system_requirements_toml_file``: ``/etc/codex/requirements.toml``; the one override,
``LoaderOverrides.system_requirements_path``, is set by Codex's own tests only: no flag
and no variable of the CLI moves it). Codex composes it with the user's and project's
hooks (codex-rs/hooks/src/engine/discovery.rs, ``discover_handlers``): the managed
handlers come first, run without the user's trust (``HookTrustStatus::Managed``), and a
user cannot switch them off (``hook_enabled``: a managed hook is enabled whatever
``[hooks.state]`` says); ``allow_managed_hooks_only = true`` in the same file drops
every other hook.

Python has no TOML writer, and forge writes only this: whole tables appended after the
file's own bytes, every string a TOML basic string (:func:`toml_string`). The result is
parsed again (tomllib) and must be the old document with forge's groups appended to
their events, else nothing is written: a file whose ``hooks`` is an inline table
(``hooks = {...}``) or an inline array cannot take ``[[hooks.EVENT]]`` tables. Uninstall
cuts the same block out again: byte for byte when nobody changed the file since, else
the block, verified the same way.
"""

from __future__ import annotations

import copy
import os
import re
import tomllib
from typing import Any

from forge_hookd.agents import places as agentplaces
from forge_hookd.agents import record as wirerecord
from forge_hookd.agents.record import FileRecord, Wiring, digest
from forge_hookd.agents.weakened import guarding
from forge_hookd.errors import ConfigError
from forge_hookd.readfile import read_regular
from forge_hookd.safefile import locked, write_atomically

#: The record's kind (record.FileRecord): the text install appended, per block.
KIND = "requirements"
_UNCHANGED = "forge-hook changed nothing"


# -- the TOML forge writes ----------------------------------------------------------------
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_string(value: str) -> str:
    """``value`` as a TOML basic string: the quote and backslash escaped, and every
    control character (U+0000 to U+001F, U+007F), which a basic string may not hold raw
    (TOML 1.0, "String")."""
    return '"' + "".join(_ESCAPES.get(c) or (f"\\u{ord(c):04X}" if ord(c) < 0x20 or ord(c) == 0x7F else c)
                         for c in value) + '"'


def toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else toml_string(key)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    raise ValueError(f"forge writes no TOML for {value!r}")  # the snippet holds none: a bug


def tables(groups: dict[str, list[dict[str, Any]]]) -> str:
    """Each event's matcher groups as arrays of tables: ``[[hooks.EVENT]]`` with the
    group's own keys, then ``[[hooks.EVENT.hooks]]`` per handler."""
    out = []
    for event, listed in groups.items():
        head = f"hooks.{toml_key(event)}"
        for group in listed:
            out.append(f"[[{head}]]\n" + _pairs(group, skip="hooks"))
            out += [f"[[{head}.hooks]]\n" + _pairs(handler) for handler in group.get("hooks", [])]
    return "\n".join(out)


def _pairs(table: dict[str, Any], skip: str = "") -> str:
    return "".join(f"{toml_key(k)} = {_toml_value(v)}\n" for k, v in table.items() if k != skip)


# -- install ------------------------------------------------------------------------------------
def install(path: str, snippet: dict[str, Any]) -> Wiring:
    """Append forge's groups of ``snippet`` to the requirements file at ``path``, for
    each event where forge-hook-run does not run yet; ConfigError (nothing written) when
    the file cannot be read or extended."""
    new_dirs = wirerecord.missing_directories(os.path.dirname(os.path.abspath(path)))
    with locked(path):
        raw = read_regular(path)
        text = _text(raw, path)
        doc = _parse(text, path)
        hooks = doc.get("hooks", {})
        if not isinstance(hooks, dict):
            raise ConfigError(f"hooks is not a table, as Codex expects; {_UNCHANGED}", path=path)
        present = forge_events(doc)
        wanted = {e: groups for e, groups in snippet["hooks"].items() if e not in present}
        kept = [e for e in snippet["hooks"] if e in present]
        if not wanted:
            return Wiring("codex", path, "unchanged", [], kept)
        block = _block(text, wanted)
        expected = copy.deepcopy(doc)
        for event, groups in wanted.items():
            expected.setdefault("hooks", {}).setdefault(event, []).extend(copy.deepcopy(groups))
        if _parsed_or_none(text + block) != expected:
            raise ConfigError(f"{_why_not(text, block)}; {_UNCHANGED}", path=path)
        write_atomically(path, (text + block).encode(), shared=True)
        wirerecord.update(lambda records: _record(records, path, raw, text + block, block, wanted, new_dirs))
    return Wiring("codex", path, "created" if raw is None else "updated", list(wanted), kept)


def forge_events(doc: dict[str, Any]) -> set[str]:
    """The events of a parsed requirements file where forge-hook-run runs for Codex."""
    return {h.event for h in agentplaces.handlers("codex", doc) if guarding(h.command, "codex")}


def _block(text: str, wanted: dict[str, list[dict[str, Any]]]) -> str:
    lead = "" if not text else ("\n" if text.endswith("\n") else "\n\n")
    return (f"{lead}# Added by forge-hook install --agent codex --system: forge-hook-run on Codex's events\n"
            "# (forge-hook install --agent codex --system --uninstall takes it out)\n" + tables(wanted))


def _why_not(text: str, block: str) -> str:
    """Why forge's tables do not extend the file as written (the parse decides; this says it)."""
    try:
        tomllib.loads(text + block)
    except tomllib.TOMLDecodeError as exc:
        return (f"its hooks cannot take [[hooks.EVENT]] tables ({exc}): an inline table or array, such as "
                "hooks = {...}, hooks.EVENT = [...] or EVENT = [...] under [hooks]; write them as [[hooks.EVENT]] "
                "tables")
    return "forge's [[hooks.EVENT]] tables would not read back as Codex's hooks plus forge's"


def _text(raw: bytes | None, path: str) -> str:
    try:
        return "" if raw is None else raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"not UTF-8 text, so not a TOML file; {_UNCHANGED}", path=path) from None


def _parse(text: str, path: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}; {_UNCHANGED}", path=path) from None


def _parsed_or_none(text: str) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def _record(records: dict[str, FileRecord], path: str, raw: bytes | None, new_text: str, block: str,
            wanted: dict[str, list[dict[str, Any]]], new_dirs: list[str]) -> None:
    key = wirerecord.key_of(path)
    record = records.get(key)
    if record is None or record.kind != KIND:
        record = FileRecord("codex", "system", path, kind=KIND, created=raw is None, dirs=new_dirs,
                            before=None if raw is None else digest(raw), rounds=None)
    record.blocks.append(block)
    record.elements += [[["hooks", event], group] for event, groups in wanted.items() for group in groups]
    record.after = digest(new_text.encode())
    records[key] = record


# -- uninstall ----------------------------------------------------------------------------------
def uninstall(path: str) -> Wiring:
    """Take out what install appended to the requirements file at ``path``."""
    key = wirerecord.key_of(path)
    record = wirerecord.load().get(key)
    if record is None or record.agent != "codex" or record.kind != KIND:
        return _nothing_recorded(path)
    with locked(path):
        raw = read_regular(path)
        if raw is None:
            wirerecord.update(lambda records: records.pop(key, None))
            return Wiring("codex", path, "nothing", notes=[f"{path} is gone already"])
        outcome = _cut(path, raw, record)
        if outcome.action == "removed":
            wirerecord.remove_directories(record.dirs)
        wirerecord.update(lambda records: records.pop(key, None))
    return outcome


def _nothing_recorded(path: str) -> Wiring:
    outcome = Wiring("codex", path, "nothing")
    raw = read_regular(path)
    doc = _parsed_or_none(raw.decode("utf-8", "replace")) if raw is not None else None
    if doc is not None and (events := forge_events(doc)):
        outcome.notes.append(f"forge-hook-run runs on {', '.join(sorted(events))} in {path} through tables "
                             "forge-hook install did not write: left as they are (remove them by hand)")
    return outcome


def _cut(path: str, raw: bytes, record: FileRecord) -> Wiring:
    text = _text(raw, path)
    events = sorted({str(where[-1]) for where, _ in record.elements})
    untouched = digest(raw) == record.after
    before = _parse(text, path) if not untouched else None
    for block in reversed(record.blocks):
        at = text.rfind(block)
        if at < 0:
            raise ConfigError("forge's [[hooks.EVENT]] tables are not there as install wrote them (edited since): "
                              "forge's entries are still in it; take them out by hand", path=path)
        text = text[:at] + text[at + len(block):]
    if before is not None and _pruned(_parsed_or_none(text)) != _pruned(_without(before, record.elements)):
        raise ConfigError("taking forge's tables out would change what else the file says: forge's entries are "
                          "still in it; take them out by hand", path=path)
    if record.created and text.strip() == "":
        os.unlink(os.path.realpath(path))
        return Wiring("codex", path, "removed", events)
    write_atomically(path, text.encode())
    restored = untouched and (record.before is None or digest(text.encode()) == record.before)
    return Wiring("codex", path, "restored" if restored else "cleaned", events)


def _without(doc: dict[str, Any], elements: list[list[Any]]) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    for (_, event), group in elements:
        listed = doc.get("hooks", {}).get(event)
        if isinstance(listed, list) and group in listed:
            listed.remove(group)
    return doc


def _pruned(doc: dict[str, Any] | None) -> dict[str, Any] | None:
    """``doc`` without an empty event list or ``hooks`` table (install may have made them)."""
    if doc is None:
        return None
    doc = copy.deepcopy(doc)
    hooks = doc.get("hooks")
    if isinstance(hooks, dict):
        for event in [e for e, v in hooks.items() if v == []]:
            del hooks[event]
        if hooks == {}:
            del doc["hooks"]
    return doc
