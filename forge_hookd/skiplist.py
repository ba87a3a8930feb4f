"""``FORGE_SKIP=id,id``: hooks a person asked not to run this once, as pre-commit's
``SKIP`` (``FORGE_SKIP=lint git commit``). Never silent: each hook skipped so is a
warning (stderr, the document's ``warnings``, the run log) and an entry of the
document's ``skipped_on_request``; a name that no loaded hook has is a warning too (a
typo must not read as "skipped").

A managed hook (the managed layer: forge_hookd.managed) is never skipped: an
organisation's guard is not the person's to switch off.

Only a hook with an ``id`` can be skipped: a hook you never named (a guard you want
always on) cannot be switched off by an environment variable. Event data never sets
``FORGE_SKIP`` for a nested run (it is one of events.RESERVED_ENV): an agent's payload
is not the person at the keyboard.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from forge_hookd.events import SKIP_VAR
from forge_hookd.registry import Hook, hook_name, is_managed
from forge_hookd.text import did_you_mean
from forge_hookd.tuples import NamedTuple


class Skipping(NamedTuple):
    """What FORGE_SKIP did to one event's matching hooks."""

    run: list[Hook]  # the hooks that run, in order
    skipped: list[Hook]  # matched, but named in FORGE_SKIP
    warnings: list[str]


def requested(environ: Mapping[str, str] | None = None) -> list[str]:
    """The ids ``FORGE_SKIP`` names, in order, blanks dropped."""
    value = (os.environ if environ is None else environ).get(SKIP_VAR, "")
    return list(dict.fromkeys(part.strip() for part in value.split(",") if part.strip()))


def apply(matched: Sequence[Hook], loaded: Sequence[Hook], ids: Sequence[str]) -> Skipping:
    """``matched`` without the hooks whose id is in ``ids``; a warning for each one
    left out and for each id that none of the ``loaded`` hooks has."""
    if not ids:
        return Skipping(list(matched), [], [])
    wanted = frozenset(ids)
    skipped = [h for h in matched if h.id in wanted and not is_managed(h.source)]
    warnings = [f"{hook_name(h.source, h.source_index, h.id)} '{h.event_pattern}' did not run: "
                f"{SKIP_VAR} names it" for h in skipped]
    warnings += [f"{hook_name(h.source, h.source_index, h.id)} '{h.event_pattern}' ran though {SKIP_VAR} names "
                 "it: a managed hook cannot be skipped" for h in matched if h.id in wanted and is_managed(h.source)]
    known = sorted({h.id for h in loaded if h.id})
    warnings += [f"{SKIP_VAR} names '{name}', which no hook has{did_you_mean(name, known)}: nothing skipped "
                 "for it" for name in ids if name not in known]
    gone = {id(h) for h in skipped}
    return Skipping([h for h in matched if id(h) not in gone], skipped, warnings)


def report(skipped: Sequence[Hook]) -> list[dict[str, Any]]:
    """The document's ``skipped_on_request``: each hook FORGE_SKIP kept from running."""
    return [{"id": h.id, "source": h.source, "source_index": h.source_index, "event": h.event_pattern}
            for h in skipped]
