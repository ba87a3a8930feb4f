"""What self-protection guards besides forge's own directories: the files through which
forge runs at all, derived from what forge wired (issue 31, item 6).

- Every file ``forge-hook install`` recorded that it wrote or edited (its install records,
  ``${XDG_STATE_HOME:-~/.local/state}/forge/installs.json``, agents/record.py): an agent's
  settings or hooks file, global or of any project, and Codex's trust entries in
  ``config.toml``. Read only when a write target must be checked, once per change of the
  file (its size, time and inode), never written here.
- An agent's known settings file (:data:`AGENT_FILES`, tied to the dialects by a test)
  when forge is wired into that agent here: a record of that agent, global or inside this
  project, or one of its known files that names forge-hook-run (a teammate's install,
  committed). Every one of the agent's files then counts: ``.claude/settings.local.json``
  can switch off the hooks ``.claude/settings.json`` runs.
- forge's own installation: this forge's package and virtual environment, install.sh's
  ``~/.local/lib/forge-hook-run`` and the ``forge-hook*`` executables beside this Python
  and in ``~/.local/bin`` (except what lies inside the project: a checkout of forge
  itself, installed editable, is the agent's work).

Records that exist but cannot be read protect every known file of every agent: never
less protection than the records would give. No records at all (install never ran) leave
an agent's files the agent's own, unless they name forge-hook-run.
"""

from __future__ import annotations

import functools
import os
import posixpath
import sys

import orjson

from forge_hookd.errors import ConfigError
from forge_hookd.readfile import read_regular
from forge_hookd.guards.base import Context, inside
from forge_hookd.tuples import NamedTuple

#: Each agent's files forge-hook install may wire, as the dialects name them (their
#: ``settings.files`` and ``local_files``; tests/guards/test_wired.py ties the two), plus
#: the directories of Cline's hook scripts and of the OpenCode and Kilo plugins (``/*``:
#: any file in it). ``~/`` is the user's home; anything else is from the project root.
AGENT_FILES: dict[str, tuple[str, ...]] = {
    "claude": (".claude/settings.json", ".claude/settings.local.json", "~/.claude/settings.json",
               "/etc/claude-code/managed-settings.json"),
    "codex": (".codex/hooks.json", "~/.codex/hooks.json", "~/.codex/config.toml", "/etc/codex/requirements.toml"),
    "gemini": (".gemini/settings.json", "~/.gemini/settings.json", "/etc/gemini-cli/settings.json"),
    "cursor": (".cursor/hooks.json", "~/.cursor/hooks.json", "/etc/cursor/hooks.json"),
    "copilot": (".github/hooks/forge.json", "~/.copilot/hooks/forge.json", "/etc/github-copilot/policy.d/forge.json"),
    "windsurf": (".windsurf/hooks.json", "~/.codeium/windsurf/hooks.json", "/etc/windsurf/hooks.json"),
    "cline": (".cline/hooks/*", "~/.cline/hooks/*", ".clinerules/hooks/*", "~/Documents/Cline/Hooks/*"),
    "qwen": (".qwen/settings.json", "~/.qwen/settings.json", "/etc/qwen-code/settings.json"),
    "droid": (".factory/hooks.json", "~/.factory/hooks.json"),
    "auggie": (".augment/settings.json", "~/.augment/settings.json"),
    "crush": ("crush.json", ".crush.json", "~/.config/crush/crush.json"),
    "continue": (".continue/settings.json", ".continue/settings.local.json", "~/.continue/settings.json"),
    "opencode": (".opencode/plugins/*", "~/.config/opencode/plugins/*"),
    "kilo": (".kilo/plugin/*", "~/.config/kilo/plugin/*"),
}
RUNNER = b"forge-hook-run"
_READ_LIMIT = 1 << 20


class Record(NamedTuple):
    agent: str
    scope: str
    path: str


class Records(NamedTuple):
    """The install records: ``readable`` False when they exist but cannot be read;
    ``paths`` each file's agent, by path; ``above`` the directories that hold one."""

    readable: bool
    files: tuple[Record, ...] = ()
    paths: dict[str, str] = {}
    above: dict[str, str] = {}


#: How far above a protected file a directory counts as holding it (``rm -rf .claude``,
#: ``rm -rf ~/.codeium/windsurf``): its own directory and the one above; never ``/``, the
#: home directory or the project (those are other guards' to judge).
_LEVELS = 2


def _above(path: str) -> list[str]:
    found = []
    for _ in range(_LEVELS):
        path = posixpath.dirname(path)
        if path == "/":
            break
        found.append(path)
    return found


_NONE = Records(True)
_cache: dict[str, tuple[tuple[int, int, int], Records]] = {}
def records(state_dir: str | None) -> Records:
    """forge's install records under ``state_dir``, read again only when the file changed."""
    if state_dir is None:
        return _NONE
    path = posixpath.join(state_dir, "installs.json")
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return _NONE
    except OSError:
        return Records(False)
    key = (info.st_mtime_ns, info.st_size, info.st_ino)
    cached = _cache.get(path)
    if cached is not None and cached[0] == key:
        return cached[1]
    found = _read(path)
    _cache[path] = (key, found)
    return found


def _read(path: str) -> Records:
    try:
        raw = read_regular(path, limit=16 * _READ_LIMIT)
        doc = orjson.loads(raw) if raw and raw.strip() else {}
    except (ConfigError, orjson.JSONDecodeError):
        return Records(False)
    files = doc.get("files", {}) if isinstance(doc, dict) else None
    if not isinstance(files, dict):
        return Records(False)
    found = []
    for key, record in files.items():
        if not isinstance(record, dict) or not isinstance(key, str):
            return Records(False)
        agent, scope = str(record.get("agent", "")), str(record.get("scope", ""))
        found.append(Record(agent, scope, posixpath.normpath(key.partition("#")[0])))
        user_path = record.get("path")
        if isinstance(user_path, str) and user_path.startswith("/"):
            found.append(Record(agent, scope, posixpath.normpath(user_path)))
    return Records(True, tuple(found), {r.path: r.agent for r in found},
                   {d: r.agent for r in found for d in _above(r.path)})


class Known(NamedTuple):
    """The known agent files for one project and home: ``files`` each agent's by path,
    ``dirs`` the agents whose every file in a directory counts, ``above`` the directories
    that hold one, ``spots`` each agent's (``dir/*`` for a directory's files)."""

    files: dict[str, str]
    dirs: dict[str, str]
    above: dict[str, list[str]]
    spots: dict[str, list[str]]


@functools.lru_cache(maxsize=8)
def known(project_root: str, home: str) -> Known:
    files: dict[str, str] = {}
    dirs: dict[str, str] = {}
    above: dict[str, list[str]] = {}
    spots: dict[str, list[str]] = {}
    for agent, places in AGENT_FILES.items():
        for place in places:
            where = posixpath.join(home, place[2:]) if place.startswith("~/") else posixpath.join(project_root, place)
            spots.setdefault(agent, []).append(where)
            if where.endswith("/*"):
                dirs[where[:-2]] = agent
                holders = [where[:-2], *_above(where[:-2])[:_LEVELS - 1]]
            else:
                files[where] = agent
                holders = _above(where)
            for holder in holders:
                above.setdefault(holder, []).append(agent)
    return Known(files, dirs, above, spots)


def _names_forge(path: str) -> bool:
    """Whether the file at ``path`` runs forge-hook-run; one that cannot be read does
    (fail closed), one that is not there does not."""
    try:
        raw = read_regular(path, limit=_READ_LIMIT)
    except ConfigError:
        return True
    return raw is not None and RUNNER in raw


def _dir_names_forge(directory: str) -> bool:
    try:
        names = sorted(os.listdir(directory))[:64]
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return any(_names_forge(posixpath.join(directory, n)) for n in names)


def agent_file(path: str, context: Context) -> str | None:
    """Which agent's wiring of forge writing ``path`` would change, or None."""
    real = os.path.realpath(path) if os.path.islink(path) else path
    holder = path not in ("/", context.home, context.project_root)
    found = records(context.state_dir)
    agent = found.paths.get(path) or found.paths.get(real) or (found.above.get(path) if holder else None)
    if agent is not None:
        return agent
    index = known(context.project_root, context.home)
    direct = [a for p in dict.fromkeys((path, real)) for a in (index.files.get(p), index.dirs.get(posixpath.dirname(p)))
              if a is not None]
    for agent in dict.fromkeys([*direct, *(index.above.get(path, []) if holder else [])]):
        spots = index.spots[agent]
        if not found.readable or _wired(agent, spots, found, context):
            return agent
        if agent in direct and index.dirs.get(posixpath.dirname(real)) == agent and _names_forge(real):
            return agent
        if holder and any(s.endswith("/*") and inside(s[:-2], path) and _dir_names_forge(s[:-2]) for s in spots):
            return agent
    return None


def _wired(agent: str, spots: list[str], found: Records, context: Context) -> bool:
    """Whether forge is wired into ``agent`` here: a record of it (global, or inside this
    project), or one of its known files naming forge-hook-run."""
    root = os.path.realpath(context.project_root)
    if any(r.agent == agent and (r.scope != "project" or inside(r.path, context.project_root) or inside(r.path, root))
           for r in found.files):
        return True
    return any(_names_forge(s) for s in spots if not s.endswith("/*"))


@functools.lru_cache(maxsize=8)
def installation(project_root: str, home: str) -> tuple[str, ...]:
    """The places of forge's own installation that lie outside the project."""
    package = posixpath.dirname(posixpath.dirname(posixpath.abspath(__file__)))
    places = [package, posixpath.join(home, ".local/lib/forge-hook-run")]
    if sys.prefix != sys.base_prefix:
        places.append(sys.prefix)
    return tuple(p for p in places if not inside(p, project_root))


def forge_executable(path: str, context: Context) -> bool:
    """Whether ``path`` is a forge-hook* executable beside this Python, in ~/.local/bin or in
    any other ``bin`` directory outside the project (``rm $(which forge-hook-run)``: where PATH finds it)."""
    if not posixpath.basename(path).startswith("forge-hook"):
        return False
    where = posixpath.dirname(path)
    return (where in (posixpath.dirname(sys.executable), posixpath.join(context.home, ".local/bin"))
            or posixpath.basename(where) == "bin") and not inside(path, context.project_root)
