"""Where each coding agent lives on this machine, and how to read its hook settings.

The dialects own the protocol facts (their vocabulary's ``events`` and their ``settings``: ``snippet``,
``files``/``paths``, ``groups``, ``command``); this module
adds what only installing needs: the agent's CLI names, its home directory and the
variable that moves it, and whether its settings may hold comments. As each agent's
current CLI reads them (tests/realagents/README.md, "Where each agent reads its hooks"):

- Claude Code: ``$CLAUDE_CONFIG_DIR`` (else ``~/.claude``)/settings.json; the project's
  .claude/settings.json and .claude/settings.local.json. Strict JSON.
- Codex 0.169: ``$CODEX_HOME`` (else ``~/.codex``)/hooks.json and the project's
  .codex/hooks.json (beside ``[hooks]`` in config.toml, which forge only reads).
- Gemini CLI 0.61: ``$GEMINI_CLI_HOME`` (else ``~``)/.gemini/settings.json and the
  project's .gemini/settings.json, read through strip-json-comments: comments allowed.
- Cursor: ~/.cursor/hooks.json and the project's .cursor/hooks.json.
- Copilot CLI 1.0.102: every ``*.json`` in ``$COPILOT_HOME`` (else ``~/.copilot``)/hooks
  and in the repository's .github/hooks.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shlex
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forge_hookd.dialects import NAMES, get
from forge_hookd.dialects.windsurf import CANNOT_START as WINDSURF_FALLBACK
from forge_hookd.registry import MAX_TIMEOUT

#: The executable forge puts into an agent's settings.
RUNNER = "forge-hook-run"
#: The names it goes by there: install.sh's native client and launcher stand in for it
#: (global_command writes the fastest of them by its path).
RUNNER_NAMES = frozenset({RUNNER, f"{RUNNER}-native", f"{RUNNER}-launcher"})


@dataclass(frozen=True)
class Place:
    """One agent's footprint: CLI names, home (``home_var`` replaces ``home``), and
    whether its settings parser strips comments."""

    clis: tuple[str, ...]
    home: str
    home_var: str | None = None
    comments: bool = False
    #: the directory under ``$home_var`` that is the agent's home (Gemini's ``.gemini``)
    under_var: str = ""


PLACES: dict[str, Place] = {
    "claude": Place(("claude",), "~/.claude", "CLAUDE_CONFIG_DIR"),
    "codex": Place(("codex",), "~/.codex", "CODEX_HOME"),
    # GEMINI_CLI_HOME stands for the home directory itself: $GEMINI_CLI_HOME/.gemini
    "gemini": Place(("gemini",), "~/.gemini", "GEMINI_CLI_HOME", comments=True, under_var=".gemini"),
    "cursor": Place(("cursor-agent", "cursor"), "~/.cursor"),
    "copilot": Place(("copilot",), "~/.copilot", "COPILOT_HOME"),
    "windsurf": Place(("windsurf",), "~/.codeium/windsurf"),
    "cline": Place(("cline",), "~/.cline", "CLINE_DIR"),  # executables, not a file (agents/cline_hooks.py)
    # the Claude-compatible family (dialects/family.py)
    "qwen": Place(("qwen",), "~/.qwen", comments=True),  # a Gemini CLI fork: strip-json-comments
    "droid": Place(("droid",), "~/.factory"),
    "auggie": Place(("auggie",), "~/.augment"),
    "crush": Place(("crush",), "~/.config/crush", "XDG_CONFIG_HOME", comments=True, under_var="crush"),
    "continue": Place(("cn",), "~/.continue", "CONTINUE_GLOBAL_DIR"),
}
assert tuple(PLACES) == NAMES, "every dialect needs a place (and no place without a dialect)"


def home(name: str) -> str:
    """The agent's own directory under the user's home, as the agent finds it now."""
    place = PLACES[name]
    moved = os.environ.get(place.home_var) if place.home_var else None
    if moved and place.under_var:
        return os.path.join(moved, place.under_var)
    return moved or os.path.expanduser(place.home)


def _homed(name: str, path: str) -> str:
    """A user-level path of the dialect with the agent's home as the agent finds it."""
    default = PLACES[name].home
    return home(name) + path[len(default):] if path.startswith(default + "/") else os.path.expanduser(path)


#: Each agent's own managed (system) file that forge writes with ``install --system``: the
#: agent reads it above the user's and project settings, and the user cannot drop it.
#: Claude Code: /etc/claude-code/managed-settings.json (its binary's Linux default);
#: Gemini CLI: its system settings file; Qwen Code (a fork of it): its own, which its
#: bundle names beside QWEN_CODE_SYSTEM_SETTINGS_PATH; Cursor: its enterprise hooks file
#: (from a third party's research, not Cursor's own docs); Windsurf: /etc/windsurf/hooks.json
#: (its docs' "System-level" hooks); Codex: requirements.toml, whose [[hooks.EVENT]] tables
#: codex_requirements.py writes; Copilot CLI: a file of forge's own in its policy
#: directory (its hooks reference, "Policy hooks": loaded before all others, not disabled
#: by disableAllHooks, whatever the folder's trust; root's, and writable by root alone).
SYSTEM_FILES = {"claude": "/etc/claude-code/managed-settings.json", "gemini": "/etc/gemini-cli/settings.json",
                "qwen": "/etc/qwen-code/settings.json", "cursor": "/etc/cursor/hooks.json",
                "windsurf": "/etc/windsurf/hooks.json", "codex": "/etc/codex/requirements.toml",
                "copilot": "/etc/github-copilot/policy.d/forge.json"}


def no_system_file(name: str) -> str | None:
    """Why ``install --system`` cannot wire ``name``, None where it can."""
    if name in SYSTEM_FILES:
        return None
    return f"{name} documents no managed settings file (one an administrator writes and the user cannot drop)"


def system_file(name: str, system_root: str = "/") -> str | None:
    """The agent's managed file under ``system_root`` (as DESTDIR), None when it has none."""
    path = SYSTEM_FILES.get(name)
    return None if path is None else os.path.join(system_root, path.lstrip("/"))


def target_file(name: str, scope: str, project_root: str, *, system_root: str = "/") -> str:
    """The file ``forge-hook install`` writes: the project's own settings file, the
    user's (for Copilot, forge's own file in the hooks directory), or with scope
    ``system`` the agent's managed file under ``system_root`` (ValueError when it has none)."""
    if scope == "system":
        path = system_file(name, system_root)
        if path is None:
            raise ValueError(no_system_file(name))
        return path
    project_file, user_file = get(name).settings.files
    return os.path.join(project_root, project_file) if scope == "project" else _homed(name, user_file)


def read_files(name: str, project_root: str) -> list[tuple[str, str]]:
    """Every ``(scope, path)`` the agent reads hooks from for this project."""
    dialect = get(name)
    found = [("project", p) for p in dialect.settings.paths("project", project_root)]
    user_file = _homed(name, dialect.settings.files[1])
    if name == "copilot":  # every *.json of the directory
        directory = os.path.dirname(user_file)
        names = sorted(n for n in _listdir(directory) if n.endswith(".json")) or [os.path.basename(user_file)]
        return found + [("global", os.path.join(directory, n)) for n in names]
    return found + [("global", user_file)]


def _listdir(directory: str) -> list[str]:
    try:
        return os.listdir(directory)
    except OSError:
        return []


def found(name: str, path: str | None = None) -> list[str]:
    """Why the agent counts as found on this machine (its CLI on ``path``, default
    $PATH; its home directory present); empty when it is not."""
    why = [f"{cli} on PATH" for cli in PLACES[name].clis if shutil.which(cli, path=path)]
    if os.path.isdir(home(name)):
        why.append(f"{home(name)} exists")
    return why


# -- reading an agent's hook entries ---------------------------------------------------------
@dataclass(frozen=True)
class Handler:
    """One hook command in an agent's settings: under ``event``, in group ``group`` of
    that event's list, at ``index`` in the group."""

    event: str
    group: int
    index: int
    matcher: object
    command: str
    handler: dict[str, Any]


def handlers(name: str, doc: object) -> Iterator[Handler]:
    """Every command handler under ``doc["hooks"]``, in file order (the dialect says how
    its entries group)."""
    dialect = get(name)
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    if not isinstance(hooks, dict):
        return
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            continue
        for group, (matcher, listed) in enumerate(dialect.settings.groups(entries)):
            for index, handler in enumerate(listed if isinstance(listed, list) else []):
                command = dialect.settings.command(handler) if isinstance(handler, dict) else None
                if isinstance(command, str) and isinstance(handler, dict):
                    yield Handler(event, group, index, matcher, command, handler)


def forge_words(command: str) -> list[str] | None:
    """The words of the forge-hook-run invocation in a hook command: the command itself
    when it starts with forge-hook-run (a bare name or a path: what install wrote into
    global files, and before issue 30 everywhere), or the ``exec`` at the end of the
    guard install wrote into project files before, or the call of the function install
    writes now (:func:`hook_command`); None for any other command."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if words and os.path.basename(words[0]) in RUNNER_NAMES:
        return words
    for first, call in (([f"{FUNCTION}()"], FUNCTION), (["command", "-v", RUNNER], "exec")):
        if words[:len(first)] == first and call in words:
            rest = words[len(words) - words[::-1].index(call):]
            if rest and os.path.basename(rest[0]) in RUNNER_NAMES:
                return rest
    return None


def option(words: list[str], name: str) -> str | None:
    """The value of option ``name`` in a command's words (``--x V`` or ``--x=V``)."""
    for i, word in enumerate(words):
        if word == name and i + 1 < len(words):
            return words[i + 1]
        if word.startswith(name + "="):
            return word.partition("=")[2]
    return None


def forge_dialect(command: str) -> str | None:
    """The ``--dialect`` value of a forge-hook-run command (``claude``,
    ``copilot:preToolUse``), or None when the command is not forge-hook-run's."""
    words = forge_words(command)
    return None if words is None else option(words, "--dialect")


def forge_agent_limit(command: str) -> float | None:
    """The ``--agent-limit`` of a forge-hook-run command, None when it has none (or an
    unreadable one)."""
    words = forge_words(command)
    value = None if words is None else option(words, "--agent-limit")
    try:
        return None if value is None else float(value)
    except ValueError:
        return None


def guarded(command: str) -> bool:
    """Whether ``command`` fails closed by itself where forge-hook-run is missing: the
    function install writes, or the project form before it (looked up on PATH first)."""
    words = forge_words(command)
    return words is not None and shlex.split(command)[0] in ("command", f"{FUNCTION}()")


def runs_forge(command: str, name: str) -> bool:
    """Whether ``command`` is forge-hook-run speaking ``name``'s dialect."""
    value = forge_dialect(command)
    return value is not None and value.partition(":")[0] == name


#: What stands beside this Python as forge-hook-run, the fastest first: install.sh's
#: native client and Python launcher in front of pip's script (docs/warm.md); an agent
#: wired to pip's script would pay 2 x the native client's warm run on every event.
_RUNNER_FRONTS = (f"{RUNNER}-native", f"{RUNNER}-launcher", RUNNER)


# -- what install writes -----------------------------------------------------------------
@dataclass(frozen=True)
class Reader:
    """Another program that reads forge's agents' settings files and runs their hook
    commands on its own events: forge-hook-run wired there runs on them too.

    ``reads`` names each file as the agent's dialect does (``(agent, path)``: a project
    path, ``~/`` a user's under the agent's home, ``*`` any name); ``agent`` is forge's
    own name for the program when it is one of forge's agents (whose own files it reads
    as well); ``most`` the longest hook timeout it accepts (None: it documents none)."""

    program: str
    reads: tuple[tuple[str, str], ...]
    agent: str | None = None
    most: float | None = None
    note: str = ""


_CLAUDE_FILES = (("claude", ".claude/settings.json"), ("claude", ".claude/settings.local.json"),
                 ("claude", "~/.claude/settings.json"))

#: Every other program known to read a file forge writes for one of its agents (issue 30,
#: item 9). VS Code's agent (GitHub Copilot Chat's agent hooks, its default
#: ``chat.hookFilesLocations``) and the Copilot app (github/app#1717) read Claude Code's
#: files, VS Code's agent the repository's ``.github/hooks/*.json`` too, and both ignore
#: matchers; Copilot CLI 1.0.102 reads ``.claude/settings.json`` beside its own hooks;
#: Continue's cn reads Claude Code's project and user settings beside its own. None
#: documents a maximum hook timeout (VS Code's agent: ``timeout`` in seconds, default 30;
#: Copilot CLI: ``timeout`` beside ``timeoutSec``; cn: 600 s): the smallest is what install
#: writes. ``forge-hook doctor`` names them, and where forge would then run twice.
READERS: tuple[Reader, ...] = (
    Reader("VS Code's agent", (*_CLAUDE_FILES, ("copilot", ".github/hooks/*.json")),
           note="it ignores matchers"),
    Reader("the Copilot app", _CLAUDE_FILES, note="it ignores matchers"),
    Reader("Copilot CLI", (("claude", ".claude/settings.json"),), agent="copilot",
           most=get("copilot").settings.max_timeout),
    Reader("Continue's cn", (("claude", ".claude/settings.json"), ("claude", "~/.claude/settings.json")),
           agent="continue"),
)


def read_by(reader: Reader, project_root: str) -> list[tuple[str, str, str]]:
    """Every ``(agent, scope, path)`` ``reader`` reads hooks from for this project: the
    files of the table, and its own agent's where it is one of forge's."""
    files = []
    for name in dict.fromkeys([a for a, _ in reader.reads] + ([reader.agent] if reader.agent else [])):
        wanted = [_where(name, p, project_root) for a, p in reader.reads if a == name]
        files += [(name, scope, path) for scope, path in read_files(name, project_root)
                  if name == reader.agent or any(fnmatch.fnmatchcase(path, w) for w in wanted)]
    return files


def _where(name: str, path: str, project_root: str) -> str:
    return _homed(name, path) if path.startswith("~/") else os.path.join(project_root, path)


def readers_of(name: str) -> tuple[Reader, ...]:
    """The other programs that read agent ``name``'s files."""
    return tuple(r for r in READERS if r.agent != name and any(a == name for a, _ in r.reads))


def agent_limit(name: str) -> int:
    """The hook timeout install writes into agent ``name``'s files, seconds: forge's own
    ceiling for a hook (600 s), or less where the agent (or another program reading its
    file) accepts less."""
    ceilings = [get(name).settings.max_timeout, *(r.most for r in readers_of(name))]
    return int(min([MAX_TIMEOUT, *(c for c in ceilings if c is not None)]))


#: What a project's hook command says on stderr where forge-hook-run is not installed.
MISSING = f"{RUNNER} is not on PATH: the agent hooks of this project need forge (install.sh, then ~/.local/bin on PATH)"
#: What a global file's hook command says where the forge-hook-run it names by its path is gone.
GONE = f"the {RUNNER} this hook names is not there: reinstall forge (install.sh), then forge-hook install --global"
#: What every such command says where forge-hook-run is there but cannot start (exit ``$s``,
#: 126 or 127: its interpreter is gone, say the virtualenv's Python upgraded away, or it is
#: not executable).
CANNOT_START = (f"{RUNNER} cannot start (exit $forge_status: its interpreter is gone or it is not executable): "
                "reinstall forge")
#: The shell function the hook command defines and calls with forge-hook-run's words.
FUNCTION = "forge_run"


assert not any(c in text for text in (MISSING, GONE) for c in "'"), "they go between single quotes"
assert not any(c in CANNOT_START for c in '"`\\'), "it goes between double quotes"


def _wrapper(runner: str, status: int) -> str:
    """The function that runs ``runner`` (its first argument) with the rest of its
    arguments and fails closed with ``status`` where it is missing or cannot start; forge's
    own status and output otherwise. Not ``exec``: a shell whose exec fails exits 126 or
    127 before any fallback. So forge is a child, stdin handed on (an asynchronous
    command's is /dev/null), or left closed where the agent closed it (duplicating a
    closed descriptor failed: "cannot start"), and the agent's SIGTERM, SIGINT or SIGHUP
    to the shell is relayed to it as SIGTERM (an asynchronous command ignores SIGINT) and
    waited for."""
    missing = MISSING if runner == RUNNER else GONE
    return (f"{FUNCTION}() {{ command -v \"$1\" >/dev/null 2>&1 || {{ echo '{missing}' >&2; return {status}; }}; "
            'if { true 3<&0; } 2>/dev/null; then { "$@" <&3 3<&- & } 3<&0; else "$@" <&- & fi; '
            # no ${...} (Gemini CLI expands it in its settings: ${p:-0} became 0) and no short
            # names (it puts a variable of its environment in for $NAME where one is set)
            'forge_pid=$!; [ -n "$forge_pid" ] || forge_pid=0; '
            'trap \'kill $forge_pid 2>/dev/null; wait $forge_pid; exit\' TERM INT HUP; '
            "wait $forge_pid; forge_status=$?; [ $forge_status -eq 126 ] || [ $forge_status -eq 127 ] || "
            "return $forge_status; "
            f'echo "{CANNOT_START}" >&2; return {status}; }}')


def hook_command(name: str, runner: str = RUNNER) -> Callable[[str], str]:
    """The hook command of each of agent ``name``'s events: ``runner`` (a bare name: a
    project file's, which a team commits and teammates run from other homes, finds it on
    PATH; a global file's names this install's by its path, :func:`global_command`) run
    with ``--dialect name``, its status and output passed through; where it is missing or
    cannot start (the shell's 127 or 126, which Claude and Codex read as "proceed"), the
    agent's own blocking form (exit 2, the reason on stderr) on the events that can block,
    a non-blocking failure (exit 1, said) on the others (an exit 2 on Claude's Stop would
    keep the agent working forever). forge-hook-run itself never exits 126 or 127."""
    blocking = get(name).words.blocking_events

    def command(event: str) -> str:
        return f"{_wrapper(runner, 2 if event in blocking else 1)}; {FUNCTION} {runner} --dialect {name}"

    return command


def project_command(name: str) -> Callable[[str], str]:
    """The hook command of a project file: forge-hook-run found on PATH (:func:`hook_command`)."""
    return hook_command(name)


#: How install wrote a project's command before the wrapper: exec, whose failure to start
#: forge-hook-run (a broken interpreter) the agent read as "proceed".
_EXEC_FORM = re.compile(r"command -v forge-hook-run >/dev/null 2>&1 \|\| \{ echo '[^']*' >&2; exit [12]; \}; "
                        r"exec (?P<tail>.+)", re.DOTALL)
_TAIL = re.compile(r"(?P<runner>'[^']*'|[^\s'\"\\$`;&|]+) --dialect [A-Za-z0-9_.:-]+(?: --agent-limit [0-9.]+)?"
                   r"(?P<rest> .*)?", re.DOTALL)


def installed_form(command: str) -> bool:
    """Whether ``command`` is forge-hook-run as some ``forge-hook install`` wrote it: the
    plain ``forge-hook-run --dialect X [--agent-limit N]`` (a bare name or a path: global
    files, and before issue 30 every file), the exec form of a project file, or today's
    :func:`hook_command`, each with nothing of the user's (no other option, no variable),
    and Windsurf's own fallback after it. Such an entry a new install replaces in place."""
    tail = command
    if (match := _EXEC_FORM.fullmatch(command)) is not None:
        tail = match["tail"]
    elif command.startswith(f"{FUNCTION}() {{"):
        bodies = [_wrapper(r, s) + f"; {FUNCTION} " for r in (RUNNER, "/") for s in (1, 2)]
        tail = next((command[len(b):] for b in bodies if command.startswith(b)), "")
    match = _TAIL.fullmatch(tail)
    if match is None or match["rest"] not in (None, f" {WINDSURF_FALLBACK}"):
        return False
    words = shlex.split(match["runner"])
    return len(words) == 1 and os.path.basename(words[0]) in RUNNER_NAMES


def global_command() -> tuple[str, str | None]:
    """How a global file names forge-hook-run: by the absolute path of this install's
    (the fastest one beside this Python), never by a bare name the agent's PATH may lack
    (a fresh home, an agent started from a desktop launcher); a note when there is none
    beside this Python (a bare name is all there is)."""
    here = os.path.dirname(sys.executable)
    ours = next(filter(None, (shutil.which(name, path=here) for name in _RUNNER_FRONTS)), None) \
        or shutil.which(RUNNER)
    if ours is None:
        return RUNNER, (f"no {RUNNER} beside {sys.executable} nor on PATH: the settings name it by its bare "
                        "name, which the agent may not find")
    return shlex.quote(os.path.abspath(ours)), None


def self_failing_command() -> tuple[str, str | None]:
    """How a file that fails closed by itself where forge-hook-run cannot start (Cline's
    scripts, the OpenCode and Kilo plugin) names it in a project: by its bare name when
    PATH finds this install's, so that teammates' own installs are found, else by this
    install's path."""
    ours, note = global_command()
    on_path = shutil.which(RUNNER)
    if note is None and on_path and os.path.realpath(on_path) == os.path.realpath(shlex.split(ours)[0]):
        return RUNNER, None
    return ours, note
