"""The built-in guards: one module per guard (or close family) behind one small
interface (:class:`base.Guard`), a registry by name, and the ``recommended`` set.

A hook entry ``{"event": "tool:pre_execute", "guard": "NAME", "with": {...}}`` names one;
:class:`run.guardhook.EventJudge` is what the executor calls for it (DESIGN.md, "Built-in
guards"), :mod:`explain` and :mod:`entries` what ``forge-hook guard`` and ``add --guard``
use."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from forge_hookd.text import did_you_mean
from forge_hookd.guards.base import ALLOW, ASK, DENY, Context, Guard, GuardError, Option, Ruling
from forge_hookd.guards.git import DestructiveGit, ForcePush, NoVerify
from forge_hookd.guards.infra import InfraDestructive
from forge_hookd.guards.machine import MachineWide
from forge_hookd.guards.packages import PackagePolicy
from forge_hookd.guards.paths import ProtectedPaths, SelfProtection
from forge_hookd.guards.privilege import PrivilegeEscalation
from forge_hookd.guards.remote import RemoteCode
from forge_hookd.guards.rm import DestructiveRm
from forge_hookd.guards.secrets import HardcodedSecrets, SecretFiles

__all__ = ["ALLOW", "ALIASES", "ASK", "DENY", "GUARDS", "RECOMMENDED", "Context", "Guard", "GuardError", "Option",
           "Ruling", "lookup", "make", "options_key", "problems", "validate", "worst"]

GUARDS: dict[str, type[Guard]] = {g.name: g for g in (
    DestructiveRm, ForcePush, DestructiveGit, SecretFiles, HardcodedSecrets, RemoteCode, InfraDestructive,
    PackagePolicy, ProtectedPaths, PrivilegeEscalation, NoVerify, SelfProtection, MachineWide)}
#: names kept working: the block_sudo template became privilege_escalation
ALIASES = {"block_sudo": "privilege_escalation"}

#: What `forge-hook add --guards recommended` writes, and why each: the guards whose
#: deny is almost never wrong (deleting /, force-pushing, reading .env, curl | sh,
#: editing forge's own config); the ones that ask (infra, packages) and the ones whose
#: right setting depends on the team (protected paths outside the project, --no-verify,
#: privilege escalation on a dev box where sudo apt is routine) are left to choose.
RECOMMENDED: tuple[tuple[str, dict[str, Any]], ...] = (
    ("destructive_rm", {}),
    ("force_push", {}),
    ("destructive_git", {}),
    ("secret_files", {}),
    ("hardcoded_secrets", {}),
    ("remote_code", {}),
    ("self_protection", {}),
)


def lookup(name: str) -> type[Guard] | None:
    """The guard class of ``name`` (or of an alias), None when there is none."""
    return GUARDS.get(ALIASES.get(name, name))


def unknown_guard_message(name: str) -> str:
    return f"unknown guard '{name}'{did_you_mean(name, [*GUARDS, *ALIASES])}; the guards: {', '.join(GUARDS)}"


def validate(name: str, options: object) -> list[str]:
    """Every problem of a guard entry's ``guard`` and ``with``, as config warnings."""
    guard = lookup(name)
    if guard is None:
        return [unknown_guard_message(name)]
    return guard.validate(options if options is not None else {})


def options_key(options: object) -> bytes:
    """An entry's ``with`` as the key :func:`problems` (and guardhook's instances) are
    cached by: its JSON, keys sorted."""
    return orjson.dumps(options, option=orjson.OPT_SORT_KEYS)


@functools.lru_cache(maxsize=64)  # one check an entry a run, for the config's warning and the judge's deny
def problems(name: str, options: bytes) -> tuple[str, ...]:
    """:func:`validate` of an entry whose ``with`` is ``options`` (:func:`options_key`).
    The resident runner fills it for entries without options, for every worker."""
    return tuple(validate(name, orjson.loads(options)))


def worst(rulings: Iterable[Ruling]) -> Ruling:
    """The verdict that decides: the first deny, else the first ask, else allow."""
    chosen = Ruling(ALLOW)
    for verdict in rulings:
        if verdict.decision == DENY:
            return verdict
        if verdict.decision == ASK and chosen.decision == ALLOW:
            chosen = verdict
    return chosen


def make(name: str, options: Mapping[str, Any] | None = None) -> Guard:
    """A guard ready to judge; GuardError when the name or the options are wrong."""
    guard = lookup(name)
    if guard is None:
        raise GuardError(unknown_guard_message(name))
    return guard(options)
