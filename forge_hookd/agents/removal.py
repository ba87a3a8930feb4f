"""What ``./install.sh --uninstall`` does while forge's own Python is still there
(``python -m forge_hookd.agents.removal``; issue 30 item 12): once the virtualenv is
gone, an agent wired to forge-hook-run calls a missing command on every event (Claude
and Codex read exit 127 as "proceed"), and ``forge-hook install --uninstall`` is gone
too.

- Every file in the user's home that ``forge-hook install`` wired (its install records)
  is taken out, as ``forge-hook install --agent AGENT --global --uninstall`` would.
  Should one not come out (it does not parse now, say), the answer is exit 1 and the
  command to run: install.sh then removes nothing.
- A project's settings are listed, never edited: they may be another repository's, and
  committed (leftovers.py names each that still runs forge-hook-run).
- The resident runner is stopped with its restarts (``forge-hook warm off``): a runner
  left going would serve from a deleted virtualenv.
"""

from __future__ import annotations

import sys

from forge_hookd.agents import install as agentwire
from forge_hookd.agents import record as wirerecord
from forge_hookd.errors import ConfigError, ForgeError
from forge_hookd.text import visible

_DONE = {"restored": "back as it was before forge-hook install", "removed": "removed (forge-hook install created it)",
         "cleaned": "took forge-hook-run out, kept everything else", "nothing": "nothing of forge's there any more"}


def take_out() -> tuple[list[str], list[str]]:
    """Lines saying what came out of the user's home, and the problems that keep forge
    from going (empty when it may go)."""
    try:
        outcomes, failed = agentwire.uninstall_home()
    except ConfigError as exc:  # the install records themselves cannot be read
        return [], [f"{exc}: fix or remove it, then run ./install.sh --uninstall again"]
    lines = [f"  {o.path} ({o.agent}): {_DONE.get(o.action, o.action)}" for o in outcomes]
    problems = [f"{path} ({agent}): {why}; fix it and run ./install.sh --uninstall again, or take forge-hook-run "
                f"out of it yourself and run first: forge-hook install --agent {agent} --global --uninstall"
                for agent, path, why in failed]
    return lines, problems


def stop_runner() -> list[str]:
    """``forge-hook warm off``: the lines that say what became of the runner."""
    from forge_hookd.warm import control as warm

    try:
        before = warm.turn_off()
    except (ForgeError, OSError) as exc:  # said; the uninstall goes on
        return [f"  the resident runner could not be stopped ({exc}): it serves from the virtualenv removed now; "
                "end it yourself (forge-hook warm status named its pid)"]
    if before.get("state") == "down":
        return []
    return [f"  stopped the resident runner (pid {before.get('pid')}, served {before.get('served')})"]


def main() -> int:
    lines, problems = take_out()
    if problems:
        print("forge-hook-run: not uninstalled: forge cannot take itself out of these agent settings, and an agent "
              "would then call a command that is gone:", file=sys.stderr)
        for problem in problems:
            print(f"  {visible(problem)}", file=sys.stderr)
        return 1
    lines += stop_runner()
    try:
        projects = [r for r in wirerecord.load().values() if r.scope == "project" and r.kind == "json"]
    except ConfigError:
        projects = []
    if lines:
        print("forge-hook-run: took forge out of:")
        print("\n".join(visible(line) for line in lines))
    if projects:
        print("project settings forge-hook install wired, not edited (they may be another repository's):")
        for record in projects:
            print(visible(f"  {record.path} ({record.agent})"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
