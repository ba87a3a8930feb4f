"""The agents whose hooks are in-process plugins, not shell commands: OpenCode
(``opencode-ai``) and Kilo (``@kilocode/cli``, on OpenCode's runtime). forge ships one
small plugin (opencode_plugin.js) that runs forge-hook-run with forge's own event JSON;
``forge-hook install --agent opencode|kilo`` writes it where the agent loads plugins
from (every ``{plugin,plugins}/*.{ts,js}`` of its config directories), ``--uninstall``
removes it, ``doctor`` sees it.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
from dataclasses import dataclass
from importlib import resources

from forge_hookd.agents.record import Wiring
from forge_hookd.safefile import write_atomically

FILE_NAME = "forge-hook-run.js"
MARK = "Written by `forge-hook install --agent"
#: the hooks the plugin handles, for doctor's report
HOOKS = ["tool.execute.before", "tool.execute.after", "event"]


@dataclass(frozen=True)
class PluginPlace:
    """Where the agent loads plugins: the project's directory, the user's (under
    ``$XDG_CONFIG_HOME``), the variable that moves the user's config directory."""

    clis: tuple[str, ...]
    project: str
    user: str  # under the config home
    config_var: str


PLUGIN_PLACES = {
    "opencode": PluginPlace(("opencode",), ".opencode/plugins", "opencode/plugins", "OPENCODE_CONFIG_DIR"),
    # Kilo 7.7.7 loads .kilo/ (not .opencode/) and ~/.config/kilo/
    "kilo": PluginPlace(("kilo",), ".kilo/plugin", "kilo/plugin", "KILO_CONFIG_DIR"),
}
NAMES = tuple(PLUGIN_PLACES)


def _config_home() -> str:
    return os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")


def directory(name: str, scope: str, project_root: str) -> str:
    place = PLUGIN_PLACES[name]
    if scope == "project":
        return os.path.join(project_root, place.project)
    moved = os.environ.get(place.config_var)
    return os.path.join(moved, os.path.basename(place.user)) if moved else os.path.join(_config_home(), place.user)


def target_file(name: str, scope: str, project_root: str) -> str:
    return os.path.join(directory(name, scope, project_root), FILE_NAME)


def found(name: str, path: str | None = None) -> list[str]:
    place = PLUGIN_PLACES[name]
    why = [f"{cli} on PATH" for cli in place.clis if shutil.which(cli, path=path)]
    home = os.path.join(_config_home(), place.user.split("/")[0])
    if os.path.isdir(home):
        why.append(f"{home} exists")
    return why


def render(name: str, command: str) -> str:
    """The plugin, naming forge-hook-run as the settings of other agents do."""
    template = resources.files("forge_hookd.agents").joinpath("opencode_plugin.js").read_text("utf-8")
    runner = json.dumps(shlex.split(command))
    return template.replace("__RUNNER__", runner).replace("__AGENT__", name)


def install(name: str, scope: str, project_root: str, command: str) -> Wiring:
    path = target_file(name, scope, project_root)
    content = render(name, command)
    existing = _text(path)
    if existing is not None and MARK not in existing:
        raise_note = f"{path} is not forge's plugin: left as it is"
        return Wiring(name, path, "unchanged", notes=[raise_note])
    if existing == content:
        return Wiring(name, path, "unchanged", kept=HOOKS)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    write_atomically(path, content.encode())
    return Wiring(name, path, "created" if existing is None else "updated", HOOKS)


def uninstall(name: str, scope: str, project_root: str) -> Wiring:
    path = target_file(name, scope, project_root)
    existing = _text(path)
    if existing is None or MARK not in existing:
        return Wiring(name, path, "nothing")
    os.unlink(path)
    where = os.path.dirname(path)
    for _ in range(2):  # the plugin directory, then .opencode / .kilo, when install left them empty
        if scope == "project" and os.path.isdir(where) and not os.listdir(where) and \
                os.path.realpath(where) != os.path.realpath(project_root):
            os.rmdir(where)
            where = os.path.dirname(where)
    return Wiring(name, path, "removed", HOOKS)


def installed(name: str, scope: str, project_root: str) -> bool:
    text = _text(target_file(name, scope, project_root))
    return text is not None and MARK in text


def runner_of(path: str) -> str | None:
    """The forge-hook-run the plugin at ``path`` runs (None when it names none)."""
    for line in (_text(path) or "").splitlines():
        if line.startswith("const RUNNER = "):
            try:
                argv = json.loads(line.removeprefix("const RUNNER = ").rstrip(";"))
            except json.JSONDecodeError:
                return None
            return str(argv[0]) if isinstance(argv, list) and argv else None
    return None


def _text(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None
