"""What in an agent's settings switches forge's guards off without taking forge out
(issue 30 item 5): what a cloned repository can ship.

- A forge-hook-run command whose arguments or variables turn hooks off:
  ``--no-global``, ``--no-project``, ``--trust-project``, ``--project-root`` somewhere
  else than the agent's project, or a ``FORGE_*`` variable that weakens a guard
  (run/envgate.py) set in front of it (``FORGE_SKIP=x forge-hook-run``, ``env
  FORGE_TRUST_PROJECT=1 forge-hook-run``, ``export ...;``). Such an entry does not count
  as forge running on its event: ``install`` puts its own entry beside it, ``doctor``
  names it.
- A project's own settings that reach every hook's environment or switch hooks off:
  Claude's settings ``env``, Gemini's project ``.env`` (``.gemini/.env``, else ``.env``;
  Gemini copies it into the environment its hooks get), Codex's ``[features] hooks =
  false`` in the project's ``.codex/config.toml``. (Claude's ``disableAllHooks`` and
  Gemini's ``hooksConfig.enabled`` are doctor's, in any file.) Besides the ``FORGE_*``
  variables, ``HOME`` and ``XDG_CONFIG_HOME``/``XDG_DATA_HOME``/``XDG_STATE_HOME`` set by
  a project move forge's own files (the global hooks, the trust records, the run log):
  forge cannot tell them from the person's own at run time, so doctor names them.
"""

from __future__ import annotations

import os
import shlex
import tomllib

from forge_hookd.agents.places import RUNNER_NAMES, runs_forge
from forge_hookd.readfile import read_regular
from forge_hookd.errors import ConfigError
from forge_hookd.run.envgate import WEAKENING, weakens

_FLAGS = {
    "--no-global": "runs none of your global hooks, your own guards",
    "--no-project": "runs none of the project's hooks",
    "--trust-project": "trusts the project's hooks without review",
    "--project-root": "moves the project root, so another directory's hooks run (or none)",
}
#: Where a simple command ends.
_ENDS = frozenset({";", "&&", "||", "|", "&", "(", ")", "\n"})
#: What a project setting may not move: forge's own files live under them.
_HOMES = {
    "HOME": "moves your home, and with it forge's global hooks, trust records and run log",
    "XDG_CONFIG_HOME": "moves forge's global hooks file (your own guards)",
    "XDG_DATA_HOME": "moves forge's trust records, so a project can bring its own",
    "XDG_STATE_HOME": "moves forge's run log and install records",
}


def guarding(text: str, name: str) -> bool:
    """Whether ``text`` is forge-hook-run speaking ``name``'s dialect with its guards on."""
    return runs_forge(text, name) and not command(text)


def command(text: str) -> list[str]:
    """What in a hook command that runs forge-hook-run turns its guards off, each as
    ``WHAT (what it does)``; empty for a command that does not."""
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        return []
    found: list[str] = []
    for i, word in enumerate(words):
        if os.path.basename(word) not in RUNNER_NAMES:
            continue
        found += [f"{w} ({WEAKENING[w.partition('=')[0]]})" for w in words[:i] if _weakening_assignment(w)]
        for j in range(i + 1, len(words)):
            if words[j] in _ENDS:
                break
            flag, _, value = words[j].partition("=")
            if flag not in _FLAGS:
                continue
            if flag == "--project-root":
                value = value or (words[j + 1] if j + 1 < len(words) else "")
                if _the_agents_project(value):
                    continue
            found.append(f"{words[j]} ({_FLAGS[flag]})")
    return list(dict.fromkeys(found))


def _weakening_assignment(word: str) -> bool:
    name, equals, value = word.partition("=")
    return bool(equals) and weakens(name, value)


def _the_agents_project(value: str) -> bool:
    """``$CLAUDE_PROJECT_DIR`` and the like: the agent's own project, as the dialect finds it."""
    name = value.strip("${}\"'")
    return value.startswith("$") and name.endswith("_PROJECT_DIR") and name.replace("_", "").isalnum()


def environment(values: object) -> list[str]:
    """What a project's variables (a settings ``env``, a ``.env``) would weaken."""
    if not isinstance(values, dict):
        return []
    said = []
    for name, value in values.items():
        if not isinstance(name, str):
            continue
        text = value if isinstance(value, str) else str(value)
        if name in WEAKENING and weakens(name, text):
            said.append(f"{name}={text!r} ({WEAKENING[name]}; forge ignores it under --dialect unless your global "
                        "hooks file allows it)")
        elif name in _HOMES:
            said.append(f"{name}={text!r} ({_HOMES[name]})")
    return said


def project_files(name: str, project_root: str) -> list[str]:
    """Findings for the project's own files besides its hook settings: Gemini's
    ``.env``, Codex's project config.toml."""
    if name == "gemini":
        findings = []
        for relative in (".gemini/.env", ".env"):
            path = os.path.join(project_root, relative)
            if said := environment(_dotenv(path)):
                findings.append(f"{path} sets, for every hook Gemini runs here: {'; '.join(said)}; a project must "
                                "not steer forge: take it out")
        return findings
    if name == "codex":
        path = os.path.join(project_root, ".codex", "config.toml")
        doc = _toml(path)
        features = doc.get("features") if isinstance(doc, dict) else None
        return [f"{path} says [features] {key} = false: Codex runs no hook in this project, forge's neither "
                "(a project must not switch guards off: take it out)"
                for key in ("hooks", "codex_hooks") if isinstance(features, dict) and features.get(key) is False]
    return []


def _dotenv(path: str) -> dict[str, str]:
    """``NAME=VALUE`` lines as dotenv reads them (``export``, quotes, ``#`` comments)."""
    try:
        raw = read_regular(path)
    except ConfigError:
        return {}
    values = {}
    for line in (raw or b"").decode("utf-8", "replace").splitlines():
        line = line.strip()
        if line.startswith("export "):
            line = line[len("export "):].lstrip()
        name, equals, value = line.partition("=")
        if not equals or line.startswith("#") or not name.strip():
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        values[name.strip()] = value
    return values


def _toml(path: str) -> dict[str, object]:
    try:
        raw = read_regular(path)
        return tomllib.loads(raw.decode("utf-8")) if raw is not None else {}
    except (ConfigError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return {}
