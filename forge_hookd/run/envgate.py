"""Under ``--dialect``, the agent's environment is not forge's switchboard (DESIGN.md,
"Dialects"; issue 30 item 5).

Agents pass variables from project files to their hooks (Claude's project settings
``env``, Gemini's project ``.env``), and a cloned repository ships those files. So under
a dialect, before anything reads them, each ``FORGE_*`` variable that would weaken a
guard is taken out of the run's environment (its hooks' too), and said: on stderr, in
the document's ``warnings`` and in the agent's user-visible field, on every event while
it is set. Unless the user's global hooks file allows it::

    {"allow_env": ["FORGE_TRUST_PROJECT"], "hooks": [...]}

Which variables, and why (:data:`WEAKENING`):

- ``FORGE_TRUST_PROJECT`` (a yes word): trusts every project's hooks without review.
- ``FORGE_SKIP``: keeps the hooks it names from running.
- ``FORGE_CONFIG_DIR``: replaces the global hooks file, the user's own guards.
- ``FORGE_PROJECT_DIR``: moves the project root, so another directory's hooks run, or
  none. Not when a forge-hook-run up the process tree set it for its own hook (a nested
  run: run/nesting.py), which is forge's own doing.
- ``FORGE_LOG=0`` and ``FORGE_LOG_FILE``: the run log is what ``forge-hook log``,
  ``replay`` and the audit export read; a clone must not hide its runs from it, nor make
  forge append to a file of its choosing.

Not: ``FORGE_REQUIRE_TRUST`` (stricter), ``FORGE_TRACE`` and ``FORGE_DEBUG`` (say more),
``FORGE_MAX_CONTINUES`` (bounds a keep-working loop; no tool runs because of it),
``FORGE_LOCK_TIMEOUT`` and ``FORGE_WARM*`` (a run decides the same either way).

``allow_env`` is read from the global hooks file at its own place,
``${XDG_CONFIG_HOME:-~/.config}/forge/hooks.json``, never from the file
``FORGE_CONFIG_DIR`` names: a file cannot allow the variable that chose it. So a user
whose global hooks live elsewhere allows ``FORGE_CONFIG_DIR`` (and whatever else) in a
file at the usual place. Nothing is read unless one of these variables is set: an
ordinary run pays nothing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from forge_hookd.trust.decide import YES

#: Each variable that weakens a guard, and what it does, for the warning.
WEAKENING: dict[str, str] = {
    "FORGE_TRUST_PROJECT": "trusts every project's hooks without review",
    "FORGE_SKIP": "keeps the hooks it names from running",
    "FORGE_CONFIG_DIR": "replaces your global hooks file, your own guards",
    "FORGE_PROJECT_DIR": "moves the project root, so another directory's hooks run (or none)",
    "FORGE_LOG": "turns the run log off",
    "FORGE_LOG_FILE": "sends the run log to another file",
}
#: The source named for the message (no deny: the run goes on without the variables).
SOURCE = "environment"
#: The global hooks file's key that lets such a variable through under a dialect.
ALLOW_KEY = "allow_env"


def weakens(name: str, value: str) -> bool:
    """Whether ``name=value`` weakens a guard (a ``FORGE_TRUST_PROJECT=0`` does not)."""
    if name not in WEAKENING:
        return False
    if name == "FORGE_TRUST_PROJECT":
        return value.strip().lower() in YES  # as trust reads it
    if name == "FORGE_LOG":
        return value == "0"
    if name == "FORGE_SKIP":
        return any(part.strip() for part in value.split(","))
    return value != ""


def default_global_file(environ: Mapping[str, str] | None = None) -> str:
    """The global hooks file where it is without ``FORGE_CONFIG_DIR``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "forge", "hooks.json")


def allowed(path: str) -> tuple[frozenset[str], str | None]:
    """The names ``allow_env`` lists in ``path``, and a problem to say when it cannot
    be read as a list of names (then nothing is allowed)."""
    from forge_hookd.config import parse_document, read_raw  # only when a variable is set
    from forge_hookd.errors import ConfigError

    try:
        raw = read_raw(path)
        doc = parse_document(raw, path) if raw is not None else {}
    except ConfigError as exc:
        return frozenset(), f"{ALLOW_KEY} cannot be read, so it allows nothing: {exc}"
    value = doc.get(ALLOW_KEY, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return frozenset(), f"{ALLOW_KEY} in {path} must be a list of variable names, so it allows nothing"
    return frozenset(value), None


def gate() -> list[str]:
    """Take every weakening variable that the global hooks file does not allow out of
    ``os.environ``; the warnings that say so (empty when none was set)."""
    present = [name for name in WEAKENING if weakens(name, os.environ.get(name, ""))]
    if "FORGE_PROJECT_DIR" in present and _set_by_forge():
        present.remove("FORGE_PROJECT_DIR")
    if not present:
        return []
    path = default_global_file()
    allowing, problem = allowed(path)
    warnings = [problem] if problem else []
    for name in present:
        if name in allowing:
            continue
        value = os.environ.pop(name)
        warnings.append(f"{name}={value!r} is ignored under --dialect: it {WEAKENING[name]}, and agents pass "
                        "variables from a project's own files (Claude's settings env, Gemini's .env) to their "
                        f"hooks; if you set it, allow it in {path}: \"{ALLOW_KEY}\": [\"{name}\"]")
    return warnings


def _set_by_forge() -> bool:
    """Whether a forge-hook-run up the process tree is running the hook this run is in
    (it sets FORGE_PROJECT_DIR for its hooks)."""
    from forge_hookd.events import CHAIN_VAR

    if not os.environ.get(CHAIN_VAR):
        return False
    from forge_hookd.run import nesting

    return bool(nesting.active_chain())
