"""``forge-hook install``: forge-hook-run as an agent's hook command, in the agent's own
settings file, beside the user's hooks; and ``--uninstall``, which takes out exactly
that (DESIGN.md, "Installing into agents").

What is added is the dialect's ``config_snippet`` (one owner of which native events
forge handles and how each agent spells a hook entry), merged key by key into what is
there: a missing key is added, an event's list gets forge's entry appended after the
user's (never reordered; Codex's trust of the user's hooks is by position, and stays
valid), an event where forge-hook-run already runs for this agent is left alone, a
value the user set (``hooksConfig.enabled: false``) is kept and reported. The file is
edited as text (jsonedit.py), so everything else in it stays byte for byte, comments
included, and written as hooks files are (safefile.py: locked, atomic, fsynced,
through symlinks). A file that does not parse is refused, unchanged.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

from forge_hookd.agents import places as agentplaces

from forge_hookd.agents import cline_hooks, plugins
from forge_hookd.agents import codex_requirements, codex_trust as codextrust

from forge_hookd.agents import jsonedit
from forge_hookd.agents import weakened
from forge_hookd.agents.weakened import guarding

from forge_hookd.agents import record as wirerecord
from forge_hookd.agents.places import PLACES
from forge_hookd.dialects import NAMES, get
from forge_hookd.dialects.base import Command
from forge_hookd.errors import ConfigError
from forge_hookd.readfile import read_regular
from forge_hookd.safefile import locked, write_atomically
from forge_hookd.agents.record import FileRecord, Named, Wiring, digest


def install(name: str, scope: str, project_root: str, *, system_root: str = "/") -> list[Wiring]:
    """Wire forge-hook-run into agent ``name``'s settings for ``scope`` (``system``: the
    agent's own managed file under ``system_root``, written 0644 whatever the umask). The
    agent is recorded as named first: should the wiring fail, ``doctor`` still knows it
    was meant to be guarded."""
    if scope == "system" and (name in plugins.NAMES or name == "cline"):
        raise ConfigError(f"{name} has no managed file forge can write")
    named = _named(name, scope, project_root)
    wirerecord.update_named(lambda listed: None if named in listed else listed.append(named))
    if scope == "project":  # committed, run from other homes (the plugin and Cline's scripts fail closed)
        runner, note = agentplaces.self_failing_command()
    else:  # the user's own machine, or the machine's managed file: this install's, by its path
        runner, note = agentplaces.global_command()
    if name in plugins.NAMES:  # an in-process plugin (OpenCode, Kilo)
        outcome = plugins.install(name, scope, project_root, runner)
        outcome.notes += [note] if note and outcome.events else []
        return [outcome]
    if name == "cline":  # executables, one per event
        outcome = cline_hooks.install(scope, project_root, runner)
        outcome.notes += [note] if note and outcome.events else []
        return [outcome]
    path = _target(name, scope, project_root, system_root)
    # forge-hook-run found on PATH (a project's file, committed) or by this install's path,
    # else the agent's blocking form, also where it is there but cannot start
    command: Command = agentplaces.project_command(name) if scope == "project" \
        else agentplaces.hook_command(name, runner)
    snippet = get(name).settings.snippet(command, agentplaces.agent_limit(name))
    old_umask = os.umask(0o022) if scope == "system" else None
    try:  # Codex's managed hooks are TOML tables, and run without the user's trust (codex_requirements.py)
        outcome = codex_requirements.install(path, snippet) if (name, scope) == ("codex", "system") \
            else _install_file(name, scope, path, snippet)
    finally:
        if old_umask is not None:
            os.umask(old_umask)
    if note and outcome.events:
        outcome.notes.append(note)
    outcomes = [outcome]
    if name == "codex" and scope != "system":
        outcomes += codextrust.trust(scope, path, _forge_handlers(name, path))
    return outcomes


def _target(name: str, scope: str, project_root: str, system_root: str) -> str:
    try:
        return agentplaces.target_file(name, scope, project_root, system_root=system_root)
    except ValueError as exc:
        raise ConfigError(f"{name} has no managed file forge can write: {exc}") from None


def uninstall(name: str, scope: str, project_root: str, *, system_root: str = "/") -> list[Wiring]:
    """Take out what install put into agent ``name``'s settings for ``scope``."""
    if name == "cline":
        return [cline_hooks.uninstall(scope, project_root)]
    if name in plugins.NAMES:
        return [plugins.uninstall(name, scope, project_root)]
    path = _target(name, scope, project_root, system_root)
    outcomes = []
    if (name, scope) == ("codex", "system"):
        outcomes = [codex_requirements.uninstall(path)]
    else:
        if name == "codex":  # the trust first: it names the positions in hooks.json
            outcomes += codextrust.untrust(scope, path)
        outcomes = [_uninstall_file(name, path), *outcomes]
    named = _named(name, scope, project_root)
    wirerecord.update_named(lambda listed: listed.remove(named) if named in listed else None)
    return outcomes


def uninstall_home() -> tuple[list[Wiring], list[tuple[str, str, str]]]:
    """Take forge out of every file in the user's home that install wired, by the install
    records (the paths as install wrote them, wherever the agent's home was then): each
    global settings file, and Codex's trust of forge's hooks in its config.toml (also
    for a project's hooks). For ``./install.sh --uninstall``, before forge's own files go.
    What could not be done: ``(agent, path, why)`` each; the others are done."""
    outcomes: list[Wiring] = []
    failed: list[tuple[str, str, str]] = []
    for record in list(wirerecord.load().values()):
        if record.kind != "json" or record.scope != "global":
            continue
        try:
            if record.agent == "codex":
                outcomes += codextrust.untrust("global", record.path)
            outcomes.append(_uninstall_file(record.agent, record.path))
        except ConfigError as exc:
            failed.append((record.agent, record.path, str(exc)))
    for key, record in list(wirerecord.load().items()):  # Codex's trust of a project's forge hooks
        if record.kind == "toml" and "#" in key:
            try:
                outcomes += codextrust.untrust(record.scope, key.partition("#")[2])
            except ConfigError as exc:
                failed.append((record.agent, record.path, str(exc)))
    wirerecord.update_named(lambda listed: listed.__setitem__(
        slice(None), [n for n in listed if n.scope != "global" or n.agent in {f[0] for f in failed}]))
    return outcomes, failed


def _named(name: str, scope: str, project_root: str) -> Named:
    return Named(name, scope, os.path.realpath(project_root) if scope == "project" else "")


def installed_agents(scope: str, project_root: str, *, system_root: str = "/") -> list[str]:
    """The agents whose ``scope`` file holds something install wrote."""
    records = wirerecord.load()
    if scope == "system":
        return [name for name in NAMES if name in agentplaces.SYSTEM_FILES and wirerecord.key_of(
            agentplaces.target_file(name, scope, project_root, system_root=system_root)) in records]
    cline = any(cline_hooks.runs_forge(os.path.join(cline_hooks.directory(scope, project_root), event))
                for event in cline_hooks.events())
    return [name for name in NAMES
            if (name == "cline" and cline)
            or wirerecord.key_of(agentplaces.target_file(name, scope, project_root)) in records] + \
        [name for name in plugins.NAMES if plugins.installed(name, scope, project_root)]


# -- install ----------------------------------------------------------------------------------
@dataclass
class _Plan:
    insertions: list[jsonedit.Insertion] = field(default_factory=list)
    elements: list[list[Any]] = field(default_factory=list)
    keys: list[list[Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: (event, old command, new command): forge's own entries an older install wrote, replaced
    upgraded: list[tuple[str, str, str]] = field(default_factory=list)


def _upgrade(name: str, path: str, text: str, snippet: dict[str, Any]) -> tuple[str, list[tuple[str, str, str]]]:
    """``text`` with each command an older install wrote on an event of the snippet
    (places.installed_form) replaced in place by the snippet's, byte for byte around it
    (Codex's trust of the hooks is by position); what was replaced."""
    try:
        return _upgraded(name, _parsed(name, path, text).get("hooks"), text, snippet)
    except jsonedit.JsonTextError as exc:  # a key given twice
        raise ConfigError(f"{exc.message}; forge-hook changed nothing", path=path) from None


def _upgraded(name: str, hooks: jsonedit.Node | None, text: str, snippet: dict[str, Any]
              ) -> tuple[str, list[tuple[str, str, str]]]:
    spans: list[tuple[int, int, str]] = []
    upgraded: list[tuple[str, str, str]] = []
    for event, values in snippet.get("hooks", {}).items():
        node = hooks.get(event) if hooks is not None and hooks.members is not None else None
        new = [h.command for h in agentplaces.handlers(name, {"hooks": {event: values}})]
        if node is None or len(new) != 1:
            continue
        for handler in agentplaces.handlers(name, {"hooks": {event: node.value}}):
            old = handler.command
            if not (agentplaces.runs_forge(old, name) and agentplaces.installed_form(old)):
                continue
            # the entry's timeout stays as it is, and so the --agent-limit that matches it
            limit = agentplaces.forge_agent_limit(old)
            renewed = _AGENT_LIMIT.sub(f" --agent-limit {limit:g}" if limit is not None else "", new[0], count=1)
            if renewed != old:
                spans += [(n.start, n.end, json.dumps(renewed, ensure_ascii=False)) for n in _strings(node, old)]
                upgraded.append((event, old, renewed))
    for start, end, literal in sorted(set(spans), reverse=True):
        text = text[:start] + literal + text[end:]
    return text, upgraded


_AGENT_LIMIT = re.compile(r" --agent-limit [0-9.]+")


def _upgraded_entries(name: str, path: str, text: str, snippet: dict[str, Any],
                      upgraded: list[tuple[str, str, str]]) -> list[list[Any]]:
    """The entries of the upgraded events that are now exactly what install writes (not a
    group the user shares with forge): forge's, for uninstall to take out by value."""
    hooks = _parsed(name, path, text).value.get("hooks")
    events = dict.fromkeys(event for event, _, _ in upgraded)
    return [[["hooks", event], item] for event in events
            for item in (hooks.get(event) if isinstance(hooks, dict) else None) or []
            if item in snippet["hooks"][event]]


def _strings(node: jsonedit.Node, value: str) -> list[jsonedit.Node]:
    """Every string in ``node`` that is ``value``."""
    if node.members is not None:
        return [s for _, _, child in node.members for s in _strings(child, value)]
    if node.items is not None:
        return [s for child in node.items for s in _strings(child, value)]
    return [node] if node.value == value else []


def _install_file(name: str, scope: str, path: str, snippet: dict[str, Any]) -> Wiring:
    new_dirs = wirerecord.missing_directories(os.path.dirname(os.path.abspath(path)))
    with locked(path):
        raw = read_regular(path)
        old_text = _text(raw, path)
        text, upgraded = (old_text, []) if old_text.strip() == "" else _upgrade(name, path, old_text, snippet)
        plan = _plan_new(snippet, text) if text.strip() == "" else _plan(name, path, text, snippet)
        plan.upgraded = upgraded
        plan.elements += _upgraded_entries(name, path, text, snippet, upgraded) if upgraded else []
        if upgraded:
            plan.notes.append(f"replaced forge-hook-run's command as an older install wrote it on "
                              f"{', '.join(dict.fromkeys(e for e, _, _ in upgraded))}: it now fails closed "
                              "where forge-hook-run is there but cannot start")
        new_text = jsonedit.apply(text, plan.insertions)
        before, after = _forge_events(name, path, old_text), _forge_events(name, path, new_text)
        renewed = {e for e, _, _ in upgraded}  # forge's older command replaced: wired anew
        events = [e for e in snippet.get("hooks", {}) if e in after and (e not in before or e in renewed)]
        kept = [e for e in snippet.get("hooks", {}) if e in before and e not in renewed]
        if new_text == old_text:
            return Wiring(name, path, "unchanged", [], kept, plan.notes)
        write_atomically(path, new_text.encode(), shared=True)
        wirerecord.update(lambda records: _record(records, name, scope, path, raw, new_text, plan, new_dirs))
    return Wiring(name, path, "created" if raw is None else "updated", events, kept, plan.notes)


def _text(raw: bytes | None, path: str) -> str:
    try:
        return "" if raw is None else raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError("not UTF-8 text, so not a settings file forge-hook can edit; it is unchanged",
                          path=path) from None


_UNCHANGED = "forge-hook changed nothing (fix the file, then run the command again)"
_STILL_IN = "forge's entries are still in it (fix the file, then run the command again)"


def _parsed(name: str, path: str, text: str, consequence: str = _UNCHANGED) -> jsonedit.Node:
    try:
        root = jsonedit.parse(text, comments=PLACES[name].comments)
    except jsonedit.JsonTextError as exc:
        raise ConfigError(f"not valid JSON as {name} reads it: {exc.message}; {consequence}", path=path,
                          line=exc.line, column=exc.column) from None
    if root.members is None:
        raise ConfigError(f"the file must hold a JSON object; {consequence}", path=path)
    return root


def _plan_new(snippet: dict[str, Any], text: str) -> _Plan:
    """A file that is missing (or holds only white space): the snippet is the file."""
    plan = _Plan(insertions=[(0, json.dumps(snippet, indent=2, ensure_ascii=False) + ("\n" if not text else ""))])
    for key, value in snippet.items():
        _added(plan, [key], value)
    return plan


def _plan(name: str, path: str, text: str, snippet: dict[str, Any]) -> _Plan:
    root = _parsed(name, path, text)
    plan = _Plan()
    try:
        _merge(name, text, root, snippet, [], plan, jsonedit.indent_unit(text, root))
    except jsonedit.JsonTextError as exc:
        raise ConfigError(f"{exc.message}; forge-hook changed nothing", path=path) from None
    return plan


def _merge(name: str, text: str, node: jsonedit.Node, snippet: dict[str, Any], where: list[str],
           plan: _Plan, unit: str) -> None:
    missing: list[tuple[str, Any]] = []
    for key, value in snippet.items():
        child, at = node.get(key), [*where, key]
        if child is None:
            missing.append((key, value))
            _added(plan, at, value)
        elif isinstance(value, dict):
            if child.members is None:
                raise jsonedit.JsonTextError(f"{'.'.join(at)} is not an object, as {name} expects")
            _merge(name, text, child, value, at, plan, unit)
        elif isinstance(value, list):
            if child.items is None:
                raise jsonedit.JsonTextError(f"{'.'.join(at)} is not a list, as {name} expects")
            _append(name, text, child, value, at, plan, unit)
        elif child.value != value:
            plan.notes.append(f"kept your {'.'.join(at)} = {json.dumps(child.value)} "
                              f"(forge's hooks need {json.dumps(value)})")
    if missing:
        plan.insertions += jsonedit.append_children(text, node, missing, unit=unit, comments=PLACES[name].comments)


def _append(name: str, text: str, node: jsonedit.Node, values: list[Any], where: list[str], plan: _Plan,
            unit: str) -> None:
    listed = {"hooks": {where[-1]: node.value}}
    present = list(agentplaces.handlers(name, listed))
    if any(guarding(h.command, name) for h in present):
        return  # forge-hook-run already runs on this event: the user's own entry stays as it is
    for handler in present:  # a cloned repository's, say: it stays, and forge's own goes beside it
        if said := weakened.command(handler.command):
            plan.notes.append(f"{where[-1]}: the forge-hook-run entry there turns guards off ({'; '.join(said)}): "
                              "forge's own entry is beside it now; take that one out")
    new = [value for value in values if value not in node.value]
    if new:
        plan.insertions += jsonedit.append_children(text, node, new, unit=unit, comments=PLACES[name].comments)
        plan.elements += [[where, value] for value in new]


def _added(plan: _Plan, where: list[str], value: Any) -> None:
    """Note a member install adds, and every list entry inside it, so that uninstall can
    find them by value in a file edited since."""
    if isinstance(value, dict):
        plan.keys.append([where, {}])
        for key, inner in value.items():
            _added(plan, [*where, key], inner)
    elif isinstance(value, list):
        plan.keys.append([where, []])
        plan.elements += [[where, item] for item in value]
    else:
        plan.keys.append([where, value])


def _forge_events(name: str, path: str, text: str) -> set[str]:
    if text.strip() == "":
        return set()
    doc = _parsed(name, path, text).value
    return {h.event for h in agentplaces.handlers(name, doc) if guarding(h.command, name)}


def _forge_handlers(name: str, path: str) -> list[agentplaces.Handler]:
    raw = read_regular(path)
    if raw is None:
        return []
    doc = _parsed(name, path, _text(raw, path)).value
    return [h for h in agentplaces.handlers(name, doc) if guarding(h.command, name)]


def _record(records: dict[str, FileRecord], name: str, scope: str, path: str, raw: bytes | None,
            new_text: str, plan: _Plan, new_dirs: list[str]) -> None:
    key = wirerecord.key_of(path)
    record = records.get(key)
    if record is None or raw is None:
        record = FileRecord(name, scope, path, created=raw is None, dirs=new_dirs,
                            before=None if raw is None else digest(raw))
    elif record.after != digest(raw):
        record.rounds = None  # changed since the last install: its insertions say nothing now
    if plan.upgraded:  # not insertions: uninstall takes forge's entries out by value
        record.rounds = None
        for _, old, new in plan.upgraded:
            record.elements = [[where, _replaced(value, old, new)] for where, value in record.elements]
    if record.rounds is not None:
        record.rounds.append([[offset, text] for offset, text in plan.insertions])
    record.after = digest(new_text.encode())
    record.elements += [e for e in plan.elements if e not in record.elements]
    record.keys += [k for k in plan.keys if k not in record.keys]
    records[key] = record


def _replaced(value: Any, old: str, new: str) -> Any:
    """``value`` with every string ``old`` in it ``new``."""
    if isinstance(value, dict):
        return {k: _replaced(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_replaced(v, old, new) for v in value]
    return new if value == old else value


# -- uninstall --------------------------------------------------------------------------------
def _uninstall_file(name: str, path: str) -> Wiring:
    key = wirerecord.key_of(path)
    record = wirerecord.load().get(key)
    if record is None or record.agent != name:
        return _nothing_recorded(name, path)
    with locked(path):
        raw = read_regular(path)
        if raw is None:
            wirerecord.update(lambda records: records.pop(key, None))
            return Wiring(name, path, "nothing", notes=[f"{path} is gone already"])
        outcome = _restore(name, path, raw, record) or _take_out(name, path, _text(raw, path), record)
        if outcome.action == "removed":
            wirerecord.remove_directories(record.dirs)
        wirerecord.update(lambda records: records.pop(key, None))
    return outcome


def _nothing_recorded(name: str, path: str) -> Wiring:
    outcome = Wiring(name, path, "nothing")
    raw = read_regular(path)
    if raw is not None and (events := _forge_events(name, path, _text(raw, path))):
        outcome.notes.append(f"forge-hook-run runs on {', '.join(sorted(events))} in {path} through entries "
                             "forge-hook install did not write: left as they are (remove them by hand)")
    return outcome


def _restore(name: str, path: str, raw: bytes, record: FileRecord) -> Wiring | None:
    """The bytes before the first install, when nobody touched the file since the last."""
    if record.rounds is None or digest(raw) != record.after:
        return None
    text: str | None = raw.decode("utf-8")
    for round_ in reversed(record.rounds):
        text = jsonedit.unapply(text, [(int(offset), str(inserted)) for offset, inserted in round_]) \
            if text is not None else None
    if text is None or (not record.created and digest(text.encode()) != record.before):
        return None
    events = sorted({str(where[-1]) for where, _ in record.elements if where[:1] == ["hooks"]})
    if record.created and text.strip() == "":
        os.unlink(os.path.realpath(path))
        return Wiring(name, path, "removed", events)
    write_atomically(path, text.encode())
    return Wiring(name, path, "restored", events)


def _take_out(name: str, path: str, text: str, record: FileRecord) -> Wiring:
    """The file changed since install wrote it: take out forge's entries and keys by
    value, keep everything else as the user left it."""
    try:
        text, removed, gone = _without_elements(name, path, text, record.elements)
        text, keys = _without_keys(name, path, text, record.keys)
    except jsonedit.JsonTextError as exc:
        raise ConfigError(f"{exc.message}; {_STILL_IN}", path=path) from None
    events = sorted({str(where[-1]) for where, _ in removed if where[:1] == ["hooks"]})
    said = (f"{path} changed since forge-hook install wrote it: took out forge's {len(removed)} "
            f"entr{'y' if len(removed) == 1 else 'ies'}" + (f" and {keys} key{'s' if keys != 1 else ''}" if keys
                                                            else "") + ", kept everything else")
    notes = [said] + ([f"{gone} of forge's entries were not there as install wrote them (changed or taken out): "
                       "whatever is there now is left as it is"] if gone else [])
    if record.created and _parsed(name, path, text).value == {}:
        os.unlink(os.path.realpath(path))
        return Wiring(name, path, "removed", events, notes=notes)
    write_atomically(path, text.encode())
    return Wiring(name, path, "cleaned", events, notes=notes)


def _without_elements(name: str, path: str, text: str, elements: list[list[Any]]
                      ) -> tuple[str, list[list[Any]], int]:
    removed, gone = [], 0
    for where, value in elements:
        node = _at(_parsed(name, path, text, _STILL_IN), where)
        index = next((i for i, item in enumerate(node.items or []) if item.value == value), None) if node else None
        if node is None or index is None:
            gone += 1
            continue
        text = jsonedit.remove_child(text, node, index, comments=PLACES[name].comments)
        removed.append([where, value])
    return text, removed, gone


def _without_keys(name: str, path: str, text: str, keys: list[list[Any]]) -> tuple[str, int]:
    """Members install added that hold nothing but what it put there (an emptied list,
    its own ``hooksConfig.enabled: true``), deepest first."""
    count = 0
    for where, value in sorted(keys, key=lambda k: len(k[0]), reverse=True):
        parent = _at(_parsed(name, path, text, _STILL_IN), where[:-1])
        child = parent.get(where[-1]) if parent is not None and parent.members is not None else None
        if parent is not None and child is not None and child.value == value:
            text = jsonedit.remove_child(text, parent, parent.index(where[-1]), comments=PLACES[name].comments)
            count += 1
    return text, count


def _at(root: jsonedit.Node, where: list[str]) -> jsonedit.Node | None:
    node: jsonedit.Node | None = root
    for key in where:
        node = node.get(key) if node is not None and node.members is not None else None
    return node
