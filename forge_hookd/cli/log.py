"""``forge-hook log``: the run log (:mod:`forge_hookd.log.runlog`) read back and shown
(:mod:`forge_hookd.log.view` filters and formats); the command only parses and prints."""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

import click
import orjson

from forge_hookd.log import view as logview

from forge_hookd.log import runlog
from forge_hookd.cli.boundary import MANAGER_PROG, print_json, say
from forge_hookd.log.view import row, table
from forge_hookd.config import find_project_root
from forge_hookd.errors import ManagerStatus, UsageError
from forge_hookd.log import export
from forge_hookd.text import visible

PROG = MANAGER_PROG


@click.command("log", short_help="What forge-hook-run did: the last runs, and why.")
@click.option("--json", "as_json", is_flag=True, help="JSON lines, one record per run, as logged.")
@click.option("--event", "event_type", metavar="TYPE", help="Only this event type (a glob: 'tool:*').")
@click.option("--tool", metavar="NAME", help="Only runs for this tool.")
@click.option("--session", metavar="ID", help="Only runs of this session.")
@click.option("--decision", type=click.Choice(["allow", "deny", "ask", "error"]),
              help="Only runs that ended so.")
@click.option("--since", metavar="WHEN", help="Only runs since 10m, 2h, 1d ago or an ISO date/time.")
@click.option("--project", "project_dir", metavar="DIR", help="Only runs in this project (or below it).")
@click.option("-n", "count", type=click.IntRange(min=0), default=20, show_default=True, metavar="N",
              help="The last N runs (0: all).")
@click.option("--show", type=click.IntRange(min=1), metavar="N",
              help="Print run N of the table (1 = the latest) whole, as indented JSON.")
@click.option("--follow", "-f", is_flag=True, help="Then wait for new runs and print them as they come.")
def log_command(as_json: bool, event_type: str | None, tool: str | None, session: str | None,
                decision: str | None, since: str | None, project_dir: str | None, count: int,
                show: int | None, follow: bool) -> None:
    """What forge-hook-run did: the last runs, newest last, from the run log
    ($FORGE_LOG_FILE, else ${XDG_STATE_HOME:-~/.local/state}/forge/runs.jsonl, and its
    rotated files). Each run: time, event, tool, decision, the deciding hook and its
    reason, duration. Secrets were redacted before anything was written."""
    path = runlog.log_path()
    if path is None:
        raise UsageError("the run log is off (FORGE_LOG=0)")
    keep = logview.Filter(event=event_type, tool=tool, session=session, decision=decision,
                          since=logview.parse_since(since) if since else None,
                          project=os.path.realpath(project_dir) if project_dir else None)
    if show is not None:
        found = logview.last(path, keep, show)
        if len(found) < show:
            raise UsageError(f"no run {show}: the log holds {len(found)} such run(s)")
        print_json(found[0])
        return
    if follow:
        try:
            for rec in logview.follow(path, keep, history=count or None):
                _print_records([rec], as_json=as_json, number="+")
        except KeyboardInterrupt:  # Ctrl-C is how one stops following
            return
    records = logview.last(path, keep, count or None)
    if not records:
        say(PROG, f"no runs logged in {path}" + (" match" if keep != logview.Filter() else ""))
    _print_records(records, as_json=as_json)


def _print_records(records: list[dict[str, Any]], *, as_json: bool, number: str | None = None) -> None:
    """Records as JSON lines or as a table; numbered from the latest (1) unless
    ``number`` is given (``+``: a run seen while following, printed without the header)."""
    if as_json:
        for rec in records:
            click.echo(orjson.dumps(rec).decode())
    elif records:
        numbers = [number or str(len(records) - i) for i in range(len(records))]
        rows = [row(n, rec) for n, rec in zip(numbers, records, strict=True)]
        lines = table(rows, shutil.get_terminal_size((120, 24)).columns)
        for line in lines[1:] if number else lines:
            click.echo(visible(line))  # a logged command or reason must not drive the terminal
        for n, rec in zip(numbers, records, strict=True):
            _say_odd(n, rec)
    sys.stdout.flush()


@click.command("export", short_help="Ship the spooled run records to syslog or OTLP.")
@click.pass_context
def export_command(ctx: click.Context) -> int:
    """Send the records spooled for export to the targets that the managed layer or the
    global hooks file names: "export": {"syslog": "udp://HOST:PORT" | "tcp://HOST:PORT" |
    "unix:/PATH"} sends RFC 5424 messages, in order; "export": {"otlp": true} sends
    OpenTelemetry spans (one per run, a child per hook, parented to the agent's
    TRACEPARENT) and log records over OTLP/HTTP to the endpoint that
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (and _LOGS_ENDPOINT) or OTEL_EXPORTER_OTLP_ENDPOINT
    names (OTEL_EXPORTER_OTLP_PROTOCOL: http/protobuf, the
    default, or http/json; OTEL_EXPORTER_OTLP_HEADERS), unless the file names its own
    ("otlp": {"endpoint": URL, "protocol": P, "headers": {...}}). A run only appends its record to the
    spool (${XDG_STATE_HOME:-~/.local/state}/forge/export.spool, bounded: past 4 MiB
    records are dropped and counted, and the count is sent as a message of its own), so
    the answer never waits for a collector. What cannot be sent stays for the next time:
    exit 1. The warm runner (forge-hook warm on) ships the spool itself after each run it
    serves; without it, run this from cron or a systemd timer.
    """
    root = find_project_root(ctx.find_root().params.get("project_root"))
    setting, warnings = export.configured(root)
    for warning in warnings:
        say(PROG, f"warning: {warning}")
    if setting is None:
        raise UsageError('no export is set: "export": {"syslog": "udp://HOST:PORT"} or {"otlp": true} in the global '
                         "or managed hooks file turns it on")
    shipped = export.ship(setting)
    click.echo(f"sent {shipped.sent} record{'s' if shipped.sent != 1 else ''}"
               + (f", reported {shipped.dropped} dropped" if shipped.dropped else "")
               + (f"; {shipped.left} left in the spool" if shipped.left else ""))
    if shipped.error is not None:
        say(PROG, f"error: export stopped: {shipped.error}")
        return ManagerStatus.PROBLEMS
    return ManagerStatus.OK


def _say_odd(number: str, rec: dict[str, Any]) -> None:
    """A warning naming a shown record that is not as forge-hook-run writes it (one
    written by hand or by another program): what was left out of its row (issue 31)."""
    odd = logview.readable(rec)[1]
    if odd:
        which = f"run {number}" if number != "+" else f"the run at {rec.get('time')}"
        again = f"; --show {number} prints it as logged" if number != "+" else ""
        say(PROG, visible(f"warning: {which} is not as forge-hook-run writes it ({'; '.join(odd)}): "
                          f"shown as far as it can be{again}"))
