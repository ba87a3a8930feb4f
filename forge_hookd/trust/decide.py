"""What trust does to one run (DESIGN.md, "Trust"; issue 19): the one place where a run's
project trust becomes warnings, a deny of forge's own, a message for the person, or an
error. :mod:`forge_hookd.trust.store` says what the user trusted; this says what follows.

- **Never trusted**: project hooks do not run, the global ones do; a warning, and through
  a dialect a message the person sees on session start and on the first event that can
  block in each session (:mod:`forge_hookd.trust.notes` remembers which sessions were told).
- **Changed since trusted**: on an event that can block, when a project hook matches it
  (as the file now reads) or the file cannot be read, the run denies: the user's guards
  must not switch off because of a pull. Elsewhere a warning.
- ``--require-trust`` (``FORGE_REQUIRE_TRUST=1``): either state is an error where a
  project hook matches the event (exit 2; through a dialect, a deny where it can block).
- ``--strict``: every trust warning is an error.

:func:`policy` reads the overrides once (options and ``FORGE_TRUST_PROJECT``,
``FORGE_REQUIRE_TRUST``) and :func:`decide` applies override, require and strict: no
other module reads those variables or decides what they mean.
- **Only a person trusts**: through a dialect, a tool call that runs ``forge-hook trust``
  or writes the trust store is denied before any hook runs (:func:`agent_trusting`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from forge_hookd.trust import store as trust
from forge_hookd.registry import HookRegistry
from forge_hookd.results import Imposed
from forge_hookd.events import BLOCKING_TYPES

if TYPE_CHECKING:
    from typing import Protocol

    from forge_hookd.events import HookEvent
    from forge_hookd.registry import Hook

    # What trust reads of the loaded config and the located root (forge_hookd.config's
    # LoadedConfig and ProjectRoot, which import this module for its policy).
    class LoadedConfig(Protocol):
        untrusted_path: str | None
        untrusted_check: trust.TrustCheck | None
        untrusted_hooks: list[Hook] | None

    class ProjectRoot(Protocol):
        root: str
        passed: tuple[str, ...]

#: The ``source`` of forge's own deny in ``blocked_by``.
TRUST_SOURCE = "trust"
SELF_PROTECTION_SOURCE = "self_protection"
PERSON_TRUSTS = ("a person must review the project's hooks and trust them; an agent cannot "
                 "(forge denies a tool call that runs forge-hook trust)")


# Plain classes, not NamedTuples: each of those costs 0.9 M instructions to create at
# import, on every event (bench/README.md, "tricks.py").
class TrustOutcome:
    """Trust's word on a run: warnings (said, and in the document), forge's own deny or
    message (:class:`~forge_hookd.results.Imposed`), and an error that ends the run
    before any hook runs (``--require-trust``), or None."""

    __slots__ = ("warnings", "imposed", "error")

    def __init__(self, warnings: list[str], imposed: Imposed | None = None, error: str | None = None) -> None:
        self.warnings, self.imposed, self.error = warnings, imposed, error


#: The words that switch a variable on (envgate reads FORGE_TRUST_PROJECT as trust does).
YES = frozenset({"1", "true", "yes", "on"})
_NO = frozenset({"", "0", "false", "no", "off"})


class Policy:
    """What a run makes of trust, settled once: ``override`` trusts every project file
    (``--trust-project``, ``FORGE_TRUST_PROJECT``: CI and headless agents), ``require``
    makes project hooks that are not trusted an error (``--require-trust``,
    ``FORGE_REQUIRE_TRUST``: git hooks, CI), ``strict`` makes every trust warning an
    error, and ``unclear`` says a variable that is neither a yes nor a no word."""

    __slots__ = ("override", "require", "strict", "unclear")

    def __init__(self, override: bool, require: bool, strict: bool, unclear: str | None) -> None:
        self.override, self.require, self.strict, self.unclear = override, require, strict, unclear


def policy(*, trust_project: bool = False, require_trust: bool = False, strict: bool = False) -> Policy:
    """The run's trust policy from its options and the environment."""
    unclear = None
    for name, meaning in ((trust.OVERRIDE_VAR, "so it trusts nothing"), (trust.REQUIRE_VAR, "so trust is not required")):
        value = os.environ.get(name, "")
        if value.strip().lower() not in YES | _NO and not (trust_project and name == trust.OVERRIDE_VAR):
            unclear = f"{name}={value!r} is not understood, {meaning}: use 1, true, yes or on (or 0, false, no, off)"
            break
    return Policy(trust_project or _yes(trust.OVERRIDE_VAR), require_trust or _yes(trust.REQUIRE_VAR), strict, unclear)


def _yes(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in YES


class Where:
    """What about the call trust needs: the event, whether it can block, and for a run
    that came in through an agent's dialect, its name (None: the forge protocol)."""

    __slots__ = ("event", "can_block", "dialect")

    def __init__(self, event: HookEvent, can_block: bool, dialect: str | None = None) -> None:
        self.event, self.can_block, self.dialect = event, can_block, dialect


def decide(loaded: LoadedConfig, located: ProjectRoot, where: Where, settled: Policy) -> TrustOutcome:
    """Trust's word on a run whose config is ``loaded`` (with ``settled.override``) from
    the project ``located``: the warnings, forge's own deny or message, and the error
    that ``require`` or ``strict`` makes of them."""
    outcome = _outcome(loaded, located, where, require=settled.require)
    if settled.unclear is not None:
        outcome.warnings.insert(0, settled.unclear)
    if settled.strict and outcome.warnings and outcome.error is None:
        outcome.error = outcome.warnings[0]  # --strict: every trust warning is an error
    return outcome


def _outcome(loaded: LoadedConfig, located: ProjectRoot, where: Where, *, require: bool) -> TrustOutcome:
    warnings = [_passed_warning(path, located.root) for path in located.passed]
    check, path = loaded.untrusted_check, loaded.untrusted_path
    if check is None or path is None:  # trusted, overridden, no project file, --no-project
        return TrustOutcome(warnings)
    warnings.append(trust.not_run_warning(path, located.root, check))
    matters = loaded.untrusted_hooks is None or bool(HookRegistry(loaded.untrusted_hooks).get_hooks(where.event))
    if require and matters:
        return TrustOutcome(warnings, error=f"{warnings[-1]} (--require-trust: project hooks that are not "
                                            "trusted are an error, not skipped)")
    reason = None
    if check.state is trust.TrustState.CHANGED and where.can_block and matters:
        reason = changed_reason(located.root, check)
    message = None
    if where.dialect is not None and _tell(where, located.root, check):
        message = f"forge: {reason or warnings[-1]}"
    return TrustOutcome(warnings, Imposed(TRUST_SOURCE, reason, message) if reason or message else None)


def changed_reason(root: str, check: trust.TrustCheck) -> str:
    """The reason of a changed project's deny: the changed file, and who re-trusts how."""
    what = check.detail or "its hooks changed since they were trusted"
    return (f"the project's hooks changed since you trusted them ({what}), so forge does not run them and "
            f"does not let this through unchecked: {PERSON_TRUSTS}: forge-hook trust {root}")


def _passed_warning(path: str, root: str) -> str:
    return (f"{path}/.forge/hooks.json is not trusted, so it is not the project (a dependency or a vendored "
            f"library cannot switch the project's guards off): the project is {root}; to make {path} a "
            f"project of its own, review it, then run: forge-hook trust {path}")


def _tell(where: Where, root: str, check: trust.TrustCheck) -> bool:
    """Whether this run tells the person: on every session start, and on the first event
    that can block in each session (remembered in the state directory)."""
    if where.event.type.value == "session:start":
        return True
    if not where.can_block:
        return False
    from forge_hookd.trust.notes import first_time

    return first_time(where.dialect or "", where.event.session_id, root, check.state.value)


def can_block(event: HookEvent, dialect: str | None, native_event: str | None) -> bool:
    """Whether the call waits on this run: the agent's own blocking events for a dialect
    run, forge's for the forge protocol."""
    if dialect is not None:
        from forge_hookd import dialects

        return native_event in dialects.get(dialect).words.blocking_events
    return event.type.value in BLOCKING_TYPES


# -- only a person trusts --------------------------------------------------------------
def agent_trusting(event: HookEvent, root: str) -> Imposed | None:
    """forge's deny of an agent's tool call that runs ``forge-hook trust`` or writes the
    trust store, judged by the built-in self-protection guard limited to trust (it needs
    no config). A call that names neither forge nor trust cannot reach either by name,
    so it is let by without loading the guard (bench/README.md, "trust.py")."""
    args = event.data.get("tool_args")
    if event.tool_name is None or not isinstance(args, dict):
        return None
    from forge_hookd.events import dumps

    cwd = _payload_cwd(event)
    text = dumps(args).decode("utf-8", "replace").lower()
    data_dir = os.path.dirname(trust.trust_store_path())
    if "forge" not in text and "trust" not in text and not (cwd or "").startswith(data_dir):
        return None
    from forge_hookd import guards

    context = guards.Context.from_env(root, os.environ, cwd=cwd)
    ruling = guards.make("self_protection", {"only": "trust"}).judge(event.tool_name, args, context)
    if ruling.decision != guards.DENY:
        return None
    return Imposed(SELF_PROTECTION_SOURCE, ruling.reason)  # it says that only a person trusts


def _payload_cwd(event: HookEvent) -> str | None:
    """Where the agent's shell command starts: its payload's ``cwd``."""
    agent = event.data.get("agent")
    payload = agent.get("payload") if isinstance(agent, dict) else None
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    return cwd if isinstance(cwd, str) and cwd else None
