"""Where forge keeps what it learns as it runs (XDG's state directory): the run log, the
stop counts, who was told of trust, what install wrote, the resident runner's log and its
"warm on" mark. One owner of the rule (issue 29 item 4); the warm client, which may import
only built-in modules, spells the same rule over bytes (``forge_hookd.warm.client
.enabled_mark``) and tests/test_house.py ties the two."""

from __future__ import annotations

import os
from collections.abc import Mapping


def state_path(*names: str, env: Mapping[str, str] | None = None) -> str:
    """``${XDG_STATE_HOME:-~/.local/state}/forge/NAMES...``, in ``env`` (default: this
    process's environment; a guard judges in the caller's)."""
    if env is None:
        env, home = os.environ, os.path.expanduser("~")
    else:
        home = env.get("HOME") or os.path.expanduser("~")
    base = env.get("XDG_STATE_HOME") or os.path.join(home, ".local", "state")
    return os.path.join(base, "forge", *names)
