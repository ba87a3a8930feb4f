"""``forge-hook doctor``: how forge is wired into each agent found here, and what is wrong.

Per agent found (its CLI on PATH, its home directory present, or a settings file in the
project): which of its settings files run forge-hook-run, on which of its events (its
own names), and the findings, each a reason forge would not do its job or would do it
twice:

- an event forge handles that a wired file leaves out (an install from before the
  dialect learnt it);
- forge-hook-run running twice on one event (wired in the project and the user's file);
- a hook command naming another agent's dialect, or a Copilot camelCase event without
  its ``:EVENT`` (its payloads do not say which event they are);
- forge-hook-run not found where the settings name it, looked up as the agent's
  environment would (its PATH: a bare name it cannot find is exit 127, which Claude and
  Codex read as "proceed"; install's project form denies instead, said too);
- an entry whose timeout is not its command's ``--agent-limit``, and an event whose
  forge hooks (the sum of their timeouts, in order; the longest with ``--jobs``) can
  outlast the agent's limit (:func:`outlasting`, which ``forge-hook check`` says too);
- the agent's own switch that keeps every hook from running (Claude's
  ``disableAllHooks``, Gemini's ``hooksConfig.enabled: false``, Codex's features, hook
  trust and project trust);
- an agent an install was asked to wire (its install records) that has forge-hook-run in
  none of its settings now;
- a forge-hook-run command that turns guards off (``--no-global``, ``FORGE_SKIP=...`` in
  front of it ...), and a project's own settings that would steer forge (Claude's
  settings ``env``, Gemini's ``.env``, Codex's project config.toml): weakened.py;
- one of the agent's own hooks that would run twice: once directly from its settings
  and once imported into a forge hooks file (``"format": AGENT``, forge-hook import)
  on an event where forge-hook-run now runs;
- forge-hook-run running twice on one event of another program that reads two files it
  is wired in (places.READERS: Copilot CLI reads ``.claude/settings.json`` beside its own
  hooks, VS Code's agent ``.github/hooks`` beside Claude's files, cn Claude's beside its
  own). That such a program reads a file forge is wired in is said, not a finding:
  ``also_read_by`` per agent (:func:`readers`).
"""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from forge_hookd.policy import editing

from forge_hookd.agents import places as agentplaces

from forge_hookd.agents import cline_hooks, plugins
from forge_hookd.agents import codex_trust as codextrust
from forge_hookd.agents import limits as agentlimits

from forge_hookd.agents import jsonedit
from forge_hookd.agents import record as wirerecord
from forge_hookd.agents.places import PLACES, Handler, forge_dialect, forge_words, guarded, runs_forge
from forge_hookd.agents import weakened
from forge_hookd.agents.weakened import guarding
from forge_hookd.dialects import NAMES, get
from forge_hookd.errors import ConfigError
from forge_hookd.readfile import read_regular


@dataclass
class FileState:
    scope: str
    path: str
    exists: bool
    wired: list[str] = field(default_factory=list)  # native events forge-hook-run runs on here
    own_hooks: int = 0  # hook commands of the user's own
    problem: str | None = None  # why the file could not be read


@dataclass
class AgentReport:
    agent: str
    found: list[str]
    events: list[str]  # the native events forge handles for this agent
    files: list[FileState] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    #: the other programs that read this agent's files: ``program``, ``agent`` (forge's
    #: name for it, or None), ``files`` (those here), ``forge`` (those running forge-hook-run),
    #: ``note`` (how it reads them: "it ignores matchers")
    also_read_by: list[dict[str, Any]] = field(default_factory=list)

    @property
    def wired(self) -> list[str]:
        events = {e for f in self.files for e in f.wired}
        return [e for e in self.events if e in events] + sorted(events - set(self.events))

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "wired": self.wired}


@dataclass
class _Read:
    state: FileState
    doc: dict[str, Any]
    handlers: list[Handler]


def examine(project_root: str, *, path: str | None = None) -> list[AgentReport]:
    """A report per agent found (``path`` is the PATH searched for their CLIs)."""
    reports = []
    named = _named(project_root)
    for name in NAMES:
        if name == "cline":
            reports += _cline(project_root, path)
            continue
        read = [_read(name, scope, file) for scope, file in agentplaces.read_files(name, project_root)]
        found = agentplaces.found(name, path)
        if not found and not any(r.state.exists for r in read):
            continue
        report = AgentReport(name, found or ["a settings file here"], _events(name), [r.state for r in read])
        _check(report, [r for r in read if r.state.exists], project_root)
        if name in named and not report.wired:
            report.findings.append(
                f"forge-hook install was asked to wire {name} ({named[name]}), but forge-hook-run runs in none of "
                f"{name}'s settings now: {name} is not guarded (forge-hook install --agent {name} {named[name]})")
        reports.append(report)
    readers(reports, project_root)
    return reports + [r for name in plugins.NAMES if (r := _plugin(name, project_root, path)) is not None]


def _plugin(name: str, project_root: str, path: str | None) -> AgentReport | None:
    """OpenCode's and Kilo's hooks are forge's plugin (agents/plugins.py)."""
    files = []
    for scope in ("project", "global"):
        file = plugins.target_file(name, scope, project_root)
        ours = plugins.installed(name, scope, project_root)
        files.append(FileState(scope, file, os.path.lexists(file), plugins.HOOKS if ours else []))
    found = plugins.found(name, path)
    if not found and not any(f.exists for f in files):
        return None
    report = AgentReport(name, found or ["a plugin here"], plugins.HOOKS, files)
    wired = [f for f in files if f.wired]
    for f in files:
        if f.exists and not f.wired:
            report.findings.append(f"{f.path} is not forge's plugin (forge-hook install --agent {name} leaves it)")
    if len(wired) > 1:
        report.findings.append(f"forge-hook-run runs twice on {name}'s tool calls ({', '.join(f.path for f in wired)}): "
                               "keep one plugin")
    for f in wired:
        runner = plugins.runner_of(f.path)
        if runner is not None and (missing := _runner_missing(name, shlex.quote(runner), f.scope)) is not None:
            report.findings.append(f"{f.path} {missing} (the plugin fails closed: every tool call of {name} fails)")
    return report


def _cline(project_root: str, path: str | None) -> list[AgentReport]:
    """Cline's hooks are executables in four directories (agents/cline_hooks.py)."""
    found = agentplaces.found("cline", path)
    dirs = cline_hooks.states(project_root)
    if not found and not any(d.exists for d in dirs):
        return []
    files = [FileState(d.scope, d.path, d.exists, d.wired, d.own_hooks) for d in dirs]
    report = AgentReport("cline", found or ["a hooks directory here"], cline_hooks.events(), files)
    where: dict[str, list[str]] = {}
    for d in dirs:
        for event in d.wired:
            where.setdefault(event, []).append(d.path)
    report.findings += [f"forge-hook-run runs {len(paths)} times on cline's {event} ({', '.join(paths)}): "
                        "keep it in one directory" for event, paths in where.items() if len(paths) > 1]
    wired = [d for d in dirs if d.wired]
    for d in wired:
        if left := [e for e in report.events if e not in d.wired]:
            report.findings.append(f"{d.path} runs forge-hook-run on some of cline's events but not on "
                                   f"{', '.join(left)} (forge-hook install --agent cline --{d.scope} adds them)")
    return [report]


def _named(project_root: str) -> dict[str, str]:
    """The agents an install named that should guard this project, and that install's
    scope option; a store that cannot be read names none (install says why)."""
    try:
        listed = wirerecord.named()
    except ConfigError:
        return {}
    return {n.agent: f"--{n.scope}" for n in listed if n.applies_to(project_root)}


def _events(name: str) -> list[str]:
    return list(get(name).settings.snippet(agentplaces.RUNNER).get("hooks", {}))


def _read(name: str, scope: str, path: str) -> _Read:
    state = FileState(scope, path, exists=os.path.lexists(path))
    if not state.exists:
        return _Read(state, {}, [])
    try:
        raw = read_regular(path)
        doc = jsonedit.parse((raw or b"").decode("utf-8") or "{}", comments=PLACES[name].comments).value
    except (ConfigError, UnicodeDecodeError, jsonedit.JsonTextError) as exc:
        state.problem = str(exc)
        return _Read(state, {}, [])
    handlers = list(agentplaces.handlers(name, doc))
    state.wired = _ordered(name, {h.event for h in handlers if guarding(h.command, name)})
    state.own_hooks = sum(1 for h in handlers if forge_dialect(h.command) is None)
    return _Read(state, doc if isinstance(doc, dict) else {}, handlers)


def _ordered(name: str, events: set[str]) -> list[str]:
    order = _events(name)
    return [e for e in order if e in events] + sorted(events - set(order))


def _check(report: AgentReport, read: list[_Read], project_root: str) -> None:
    name, findings = report.agent, report.findings
    findings += [f"{r.state.path} cannot be read: {r.state.problem}" for r in read if r.state.problem]
    for r in read:
        _check_file(name, r, report.events, findings)
    findings += agentlimits.mismatched(name, _files(read)) + agentlimits.outlasting(name, _files(read), project_root)
    _check_twice_wired(name, read, findings)
    _check_switches(name, read, findings)
    _check_imported(name, read, project_root, findings)
    findings += weakened.project_files(name, project_root)


def _check_file(name: str, read: _Read, events: list[str], findings: list[str]) -> None:
    state, expected = read.state, _expected_dialects(name)
    unfound: dict[str, list[str]] = {}  # what is wrong with finding forge-hook-run: the events it is wrong on
    if state.wired and (left := [e for e in events if e not in state.wired]):
        findings.append(f"{state.path} runs forge-hook-run on some of {name}'s events but not on "
                        f"{', '.join(left)} (forge-hook install --agent {name} --{state.scope} adds them)")
    for handler in read.handlers:
        if said := weakened.command(handler.command):  # also with FORGE_...= or env in front of it
            findings.append(f"{state.path}: {handler.event}'s forge-hook-run command {handler.command!r} turns "
                            f"guards off: {'; '.join(said)}; forge does not count it as running there (a cloned repository "
                            f"may have shipped it): take it out, and forge-hook install --agent {name} "
                            f"--{state.scope} puts a working entry beside it")
        value = forge_dialect(handler.command)
        if value is None:
            continue
        if value.partition(":")[0] != name:
            findings.append(f"{state.path}: {handler.event} runs forge-hook-run --dialect {value}, but the "
                            f"payloads there are {name}'s (--dialect {name})")
        elif ":" in expected.get(handler.event, "") and value != expected[handler.event]:
            findings.append(f"{state.path}: {handler.event} needs forge-hook-run --dialect "
                            f"{expected[handler.event]} ({name}'s {handler.event} payloads do not say which "
                            f"event they are), not --dialect {value}")
        if (missing := _runner_missing(name, handler.command, state.scope)) is not None:
            unfound.setdefault(missing, []).append(handler.event)
    for missing, on in unfound.items():
        findings.append(f"{state.path}: the hook command of {', '.join(dict.fromkeys(on))} {missing}")


def _expected_dialects(name: str) -> dict[str, str]:
    """The --dialect value install writes per event (Copilot's name the event)."""
    snippet = get(name).settings.snippet(f"{agentplaces.RUNNER} --dialect {name}")
    return {h.event: forge_dialect(h.command) or name for h in agentplaces.handlers(name, snippet)}


def _runner_missing(name: str, command: str, scope: str) -> str | None:
    """What is wrong with how ``command`` finds forge-hook-run, where the agent runs it
    (this environment's PATH: an agent started here inherits it), or None."""
    words = forge_words(command) or shlex.split(command)
    program = words[0]
    found = program if "/" in program else shutil.which(program)
    if found is not None and os.access(found, os.X_OK):
        why = _cannot_start(found)
        if why is None:
            return None
        if guarded(command):
            return (f"runs {found}, which cannot start ({why}): it denies every {name} call that can block "
                    "until forge is reinstalled (install.sh)")
        return (f"runs {found}, which cannot start ({why}): an exit 127 lets the call proceed (reinstall forge, "
                f"then forge-hook install --agent {name} --{scope} writes a command that fails closed)")
    if guarded(command):
        if "/" in program:
            return (f"names {program}, which is not there: it denies every {name} call that can block until "
                    f"forge is reinstalled (install.sh, then forge-hook install --agent {name} --{scope})")
        return (f"finds no {program} on PATH: it denies every {name} call that can block until forge is "
                "installed here and on PATH")
    if "/" in program:
        return f"names {program}, which is not there: {name} cannot run it"
    return (f"names {program} (not on PATH), which is not there: {name} cannot run it, and an exit 127 lets "
            f"the call proceed (forge-hook install --agent {name} --{scope} writes a command that cannot be lost)")


def _cannot_start(program: str) -> str | None:
    """Why the kernel would refuse to start ``program`` (a script whose ``#!``
    interpreter is gone: the virtualenv's Python upgraded away), or None."""
    try:
        with open(program, "rb") as file:
            first = file.readline(256)
    except OSError:  # an executable one may not read (a binary, mode 0111) still starts
        return None
    interpreter = first[2:].split(maxsplit=1)[0].decode(errors="replace") if first.startswith(b"#!") and \
        first[2:].split() else None
    if interpreter is not None and not os.access(interpreter, os.X_OK):
        return f"its interpreter {interpreter} is not there"
    return None


def _files(read: list[_Read]) -> list[tuple[str, list[Handler]]]:
    return [(r.state.path, r.handlers) for r in read]


def outlasting(project_root: str) -> list[str]:
    """For every agent whose settings here run forge (``forge-hook check``): each entry
    whose timeout is not its ``--agent-limit``, each event whose hooks can outlast it."""
    found = []
    for name in NAMES:
        read = [_read(name, scope, file) for scope, file in agentplaces.read_files(name, project_root)]
        read = [r for r in read if r.state.exists and not r.state.problem]
        found += agentlimits.mismatched(name, _files(read)) + agentlimits.outlasting(name, _files(read), project_root)
    return found


def _check_twice_wired(name: str, read: list[_Read], findings: list[str]) -> None:
    where: dict[str, list[str]] = {}
    for r in read:
        for handler in r.handlers:
            if guarding(handler.command, name):
                where.setdefault(handler.event, []).append(r.state.path)
    for event, paths in where.items():
        if len(paths) > 1:
            findings.append(f"forge-hook-run runs {len(paths)} times on {name}'s {event} "
                            f"({', '.join(dict.fromkeys(paths))}): keep it in one file")


def readers(reports: list[AgentReport], project_root: str) -> None:
    """Per other program that reads agents' files (places.READERS): on each agent's
    report, which of its files here the program reads and where forge-hook-run runs in
    them; a finding where the program reads forge-hook-run in two files of different
    agents on one of its events (two files of one agent are that agent's own finding)."""
    by_name = {r.agent: r for r in reports}
    for reader in agentplaces.READERS:
        files = [(name, _read(name, scope, path)) for name, scope, path in agentplaces.read_by(reader, project_root)]
        files = [(name, r) for name, r in files if r.state.exists]
        for name in dict.fromkeys(n for n, _ in files if n != reader.agent):
            if (report := by_name.get(name)) is not None:
                report.also_read_by.append({
                    "program": reader.program, "agent": reader.agent,
                    "files": [r.state.path for n, r in files if n == name],
                    "forge": [r.state.path for n, r in files if n == name and r.state.wired],
                    "note": reader.note})
        where: dict[str, dict[str, str]] = {}  # forge's event type: the files running forge there, their agent's
        for name, r in files:
            events = get(name).words.events
            for h in r.handlers:
                if guarding(h.command, name) and h.event in events:
                    where.setdefault(events[h.event], {})[r.state.path] = name
        home = (by_name.get(reader.agent) if reader.agent else None) or next((by_name[n] for n, _ in files if n in by_name), None)
        for event, paths in where.items():
            if len(paths) > 1 and len(set(paths.values())) > 1 and home is not None:
                native = _native(reader.agent or next(iter(paths.values())), event)
                home.findings.append(
                    f"forge-hook-run runs {len(paths)} times on {reader.program}'s {native} "
                    f"({', '.join(paths)}): {reader.program} reads each of them; keep forge-hook-run in one")


def _native(name: str, forge_type: str) -> str:
    """Agent ``name``'s own name for forge's event type (the type when it has none)."""
    return next((e for e, t in get(name).words.events.items() if t == forge_type), forge_type)


def _check_switches(name: str, read: list[_Read], findings: list[str]) -> None:
    for r in read:
        if name == "claude" and r.state.scope == "project" and (said := weakened.environment(r.doc.get("env"))):
            findings.append(f"{r.state.path} sets, in env, for every hook Claude Code runs here: {'; '.join(said)}; "
                            "a project must not steer forge: take it out")
        if name == "claude" and r.doc.get("disableAllHooks") is True:
            findings.append(f"{r.state.path} says disableAllHooks: true: Claude Code runs no hook, forge's neither")
        hooks_config = r.doc.get("hooksConfig")
        if name == "gemini" and isinstance(hooks_config, dict) and hooks_config.get("enabled") is False:
            findings.append(f"{r.state.path} says hooksConfig.enabled: false: Gemini CLI runs no hook, "
                            "forge's neither")
    if name == "codex":
        _check_codex(read, findings)


def _check_codex(read: list[_Read], findings: list[str]) -> None:
    forge = [(r, h) for r in read for h in r.handlers if guarding(h.command, "codex")]
    if not forge:
        return
    doc, problem = codextrust.read_config()
    if doc is None:
        findings.append(f"Codex cannot tell which hooks you trust: {problem}")
        return
    findings += codextrust.switches(doc, forge[0][0].state.scope, forge[0][0].state.path)
    for r, handler in forge:
        recorded = codextrust.trusted(doc, codextrust.hook_key(r.state.path, handler))
        if recorded != codextrust.hook_hash(handler):
            why = "is not trusted in Codex yet" if recorded is None else "changed since Codex trusted it"
            findings.append(f"{r.state.path}: forge's {handler.event} hook {why}, so Codex does not run it "
                            f"(forge-hook install --agent codex --{r.state.scope} records the trust; "
                            "or trust it in codex's /hooks)")


def _check_imported(name: str, read: list[_Read], project_root: str, findings: list[str]) -> None:
    wired = {h.event for r in read for h in r.handlers if guarding(h.command, name)}
    if not wired:
        return
    listed = [h for h in editing.list_hooks(Path(project_root), problems=[]) if h.hook.format == name]
    events = get(name).words.events
    for r in read:
        for handler in r.handlers:
            forge_type = events.get(handler.event)
            if handler.event not in wired or forge_type is None or forge_dialect(handler.command) is not None:
                continue
            for imported in listed:
                if imported.hook.command == handler.command and agentlimits.covers(imported.hook.event_pattern, forge_type):
                    findings.append(
                        f"runs twice on {handler.event}: {handler.command!r} is in {r.state.path} and, imported "
                        f"(format {name}), in {imported.file} as {imported.scope}[{imported.index}], which "
                        f"forge-hook-run runs too: remove it from {r.state.path}")
