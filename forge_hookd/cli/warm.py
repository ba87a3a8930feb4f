"""``forge-hook warm on|off|status``: parse and print; the work is in :mod:`forge_hookd.warm.control`."""

from __future__ import annotations

import time
from typing import Any

import click

from forge_hookd.warm import control as warm
from forge_hookd.cli.boundary import MANAGER_PROG, print_json

PROG = MANAGER_PROG


@click.group("warm", short_help="The resident runner that keeps forge imported.")
def warm_command() -> None:
    """A per-user resident runner that holds forge imported, so that forge-hook-run
    answers an event as a small client (Python without site, no forge import) instead of
    paying for forge's imports (forge-hook-run(1), WARM RUNNER). Every run is still a cold run in all but its cost: config and trust read
    on every event, each hook tree ended on its own clock, signals answered the same.

    \b
    on      start it, and have forge-hook-run start it again when it is needed (after a
            reboot, an idle exit, a crash): the event that finds it down runs cold
    off     stop it (runs in progress finish first), and the restarts
    status  whether it is up, since when, what it served, its pid, version and socket
    """


@warm_command.command("on", short_help="Start the resident runner; keep it started.")
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
def on_command(as_json: bool) -> None:
    """Start the resident runner and make forge-hook-run start it again when needed."""
    _show(warm.turn_on(), as_json)


@warm_command.command("off", short_help="Stop the resident runner and its restarts.")
@click.option("--json", "as_json", is_flag=True, help="Print the status it had as JSON.")
def off_command(as_json: bool) -> None:
    """Stop the resident runner (runs in progress finish first); runs are cold again."""
    before = warm.turn_off()
    if as_json:
        print_json(before)
    elif before["state"] == "down":
        click.echo(f"{PROG}: warm: the resident runner was not running; restarts are off")
    else:
        click.echo(f"{PROG}: warm: stopped the resident runner (pid {before['pid']}, served "
                   f"{before['served']}); restarts are off")


@warm_command.command("status", short_help="Whether the resident runner is up, and what it served.")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
def status_command(as_json: bool) -> int:
    """Whether the resident runner is up; since when, runs served, pid, version, socket.
    Exit status 0 when it is up and serves this forge, 1 otherwise."""
    now = warm.status()
    _show(now, as_json)
    return 0 if now["state"] == "up" and not now.get("stale") else 1


def _show(status: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(status)
        return
    restarts = "on (forge-hook-run starts it when needed)" if status["enabled"] else "off"
    if status["state"] == "down":
        click.echo(f"warm: down ({status['why']})\nsocket:   {status['socket']}\nrestarts: {restarts}")
        return
    since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(status["since"])))
    stale = " (stale: another version of forge; its runs go cold)" if status.get("stale") else ""
    click.echo(f"warm: {status['state']}{stale}\npid:      {status['pid']}\nsince:    {since}\n"
               f"served:   {status['served']} run{'s' if status['served'] != 1 else ''} "
               f"({status['running']} running)\nrefused:  {status.get('refused', 0)} (run cold: --trace says why)\n"
               f"version:  {status['version']}\n"
               f"socket:   {status['socket']}\nidle exit after {float(status['idle_exit']):g} s\n"
               f"restarts: {restarts}")
