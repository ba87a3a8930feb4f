"""Shipping the export spool (issue 35 item 4) to syslog, OTLP or both: for OTLP each
spooled run record becomes spans (forge_hookd.log.otlp), sent a batch per request; for
syslog each is one RFC 5424 message, over UDP (RFC 5426), TCP (RFC 6587 octet counting) or a Unix socket
(a datagram socket such as /dev/log, else a stream one, octet-counted).

A message: ``<PRI>1 TIMESTAMP HOSTNAME forge-hook-run PID run [forge@32473 ...] BOM{json}``.
PRI is facility 13 (log audit) with a severity from the decision (deny: warning, ask:
notice, allow: informational, error: error). The structured data holds the decision,
event, tool, session, dialect and exit status; the message is the record as the run
log holds it (redacted before it was spooled). A record over :data:`MAX_MESSAGE`
bytes is sent as its summary (``"cut": true``), so a datagram is never truncated.

Shipping takes the spool aside (a rename, so runs keep appending to a new one), sends
it in order, and keeps what was not sent for the next time; drops are reported in one
message of their own. Every wait has a bound (:data:`TIMEOUT`).
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from typing import Any

import orjson

from forge_hookd import managed
from forge_hookd.config import GLOBAL_KEYS, global_config_path, load_file
from forge_hookd.exportconf import Export, Otlp, otlp_target
from forge_hookd.log.record import forge_version
from forge_hookd.log.spool import count_dropped, reset_dropped, spool_path
from forge_hookd.safefile import locked

FACILITY = 13  # log audit (RFC 5424, table 1)
SEVERITY = {"deny": 4, "ask": 5, "allow": 6, "error": 3}
APP_NAME = "forge-hook-run"
SD_ID = "forge@32473"  # 32473: the enterprise number RFC 5612 reserves for documentation and examples
MAX_MESSAGE = 8192
TIMEOUT = 5.0
BOM = b"\xef\xbb\xbf"
BATCH = 100  # records per OTLP request, and between two checks that every target took them


class Shipped:
    """What a shipping did: records sent, records still spooled, records dropped
    (reported), and the error that stopped it, if one did."""

    __slots__ = ("sent", "left", "dropped", "error")

    def __init__(self, sent: int = 0, left: int = 0, dropped: int = 0, error: str | None = None) -> None:
        self.sent, self.left, self.dropped, self.error = sent, left, dropped, error


# -- formatting ----------------------------------------------------------------------------
def _sd_value(value: object) -> str:
    """A PARAM-VALUE: UTF-8 with '"', '\\' and ']' escaped (RFC 5424 6.3.3)."""
    text = str(value)
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("]", "\\]")


def _header_token(value: object, limit: int) -> str:
    """A header field: printable US-ASCII without space, at most ``limit``; else '-'."""
    text = "".join(c for c in str(value) if 33 <= ord(c) <= 126)[:limit]
    return text or "-"


def _timestamp(value: object) -> str:
    """The record's ``time`` (``2026-11-27T08:12:54.941Z``) when it is an RFC 3339 time."""
    text = str(value)
    if len(text) == 24 and text[4] == "-" and text[10] == "T" and text.endswith("Z") and text[19] == ".":
        return text
    return "-"


def syslog_message(rec: dict[str, Any], *, hostname: str) -> bytes:
    """One RFC 5424 message for a run record."""
    decision = rec.get("decision") if isinstance(rec.get("decision"), str) else None
    pri = FACILITY * 8 + SEVERITY.get(decision or "", 6)
    event = _mapping(rec.get("event"))
    params = {"decision": decision, "event": event.get("type"), "tool": event.get("tool"),
              "session": event.get("session"), "dialect": rec.get("dialect"), "exit": rec.get("exit_status")}
    sd = "[" + SD_ID + "".join(f' {k}="{_sd_value(v)}"' for k, v in params.items() if v is not None) + "]"
    head = (f"<{pri}>1 {_timestamp(rec.get('time'))} {_header_token(hostname, 255)} {APP_NAME} "
            f"{_header_token(rec.get('pid', '-'), 128)} run {sd} ").encode()
    body = orjson.dumps(rec)
    if len(head) + len(BOM) + len(body) > MAX_MESSAGE:
        body = orjson.dumps(_summary(rec))[: MAX_MESSAGE - len(head) - len(BOM)]
    return head + BOM + body


def _mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _summary(rec: dict[str, Any]) -> dict[str, Any]:
    reason = rec.get("reason")
    event = _mapping(rec.get("event"))
    return {"v": rec.get("v"), "time": rec.get("time"), "event": {k: event.get(k) for k in ("type", "tool", "session")},
            "project": str(rec.get("project"))[:512], "dialect": rec.get("dialect"), "decision": rec.get("decision"),
            "reason": str(reason)[:1024] if reason is not None else None, "exit_status": rec.get("exit_status"),
            "cut": True}


def dropped_message(count: int, *, hostname: str, now: str) -> bytes:
    """The message that reports records the full spool dropped."""
    return (f"<{FACILITY * 8 + 4}>1 {now} {_header_token(hostname, 255)} {APP_NAME} - dropped "
            f'[{SD_ID} dropped="{count}"] ').encode() + BOM + f"{count} run records dropped: the spool was full".encode()


def configured(project_root: str) -> tuple[Export | None, list[str]]:
    """The export in force, as a run would find it (the managed layer's wins over the
    global file's), and the warnings its settings earn."""
    layer = managed.load_layer(project_root=project_root)
    warnings = [str(w) for f in layer.files for w in f.loaded.warnings if "export" in w.message]
    if layer.export is not None or layer.managed_only is not None:
        return layer.export, warnings
    loaded = load_file(global_config_path(), source="global", top_level_keys=GLOBAL_KEYS)
    return loaded.export, warnings + [str(w) for w in loaded.warnings if "export" in w.message]


# -- sending -------------------------------------------------------------------------------
class _Sender:
    """One connection to the target for the whole shipping."""

    def __init__(self, target: tuple[str, str, int]) -> None:
        kind, address, port = target
        self.framed = kind != "udp"
        if kind == "unix":
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                self.sock.settimeout(TIMEOUT)
                self.sock.connect(address)
                self.framed = False
            except OSError:
                self.sock.close()
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.settimeout(TIMEOUT)
                self.sock.connect(address)
        else:
            info = socket.getaddrinfo(address, port, type=socket.SOCK_DGRAM if kind == "udp" else socket.SOCK_STREAM)
            family, type_, proto, _, sockaddr = info[0]
            self.sock = socket.socket(family, type_, proto)
            self.sock.settimeout(TIMEOUT)
            self.sock.connect(sockaddr)

    def send(self, message: bytes) -> None:
        if self.framed:
            self.sock.sendall(f"{len(message)} ".encode() + message)
        else:
            self.sock.send(message)

    def close(self) -> None:
        self.sock.close()


class _Otlp:
    """OTLP/HTTP: per batch of records a request of traces and one of logs
    (forge_hookd.log.otlp)."""

    def __init__(self, otlp: Otlp) -> None:
        self.url, self.protocol, self.headers = otlp_target(otlp, os.environ)
        self.logs = otlp_target(otlp, os.environ, "logs")

    def send(self, batch: list[tuple[bytes, dict[str, Any]]], *, hostname: str) -> None:
        """The batch's spans to ``/v1/traces``, then its log records to ``/v1/logs``."""
        from forge_hookd.log import otlp

        now, version = time.time_ns(), forge_version()
        spans, logs = [], []
        for line, rec in batch:
            made = otlp.record_spans(line, rec, now=now)
            spans += made
            logs.append(otlp.record_log(line, rec, made[0]))
        otlp.post(self.url, self.protocol, self.headers,
                  otlp.encode(spans, self.protocol, hostname=hostname, version=version))
        url, protocol, headers = self.logs
        otlp.post(url, protocol, headers, otlp.encode_logs(logs, protocol, hostname=hostname, version=version))

    def dropped(self, count: int, *, hostname: str) -> None:
        from forge_hookd.log import otlp

        span = otlp.dropped_span(count, now=time.time_ns())
        otlp.post(self.url, self.protocol, self.headers,
                  otlp.encode([span], self.protocol, hostname=hostname, version=forge_version()))


def ship(export: Export, *, path: str | None = None) -> Shipped:
    """Send what the spool holds to the export's targets (syslog over one connection,
    OTLP a request per batch): what an earlier shipping left first, then the spool as it
    is now (runs append to a new one), then the count of records a full spool dropped.
    A record counts as sent when every target took it; one that a target refused stays
    for the next time (and another target may receive it again: at least once)."""
    path = path or spool_path()
    if export.syslog is None and export.otlp is None:
        return Shipped(error="no export target is set")
    aside = path + ".sending"
    done = Shipped()
    with locked(aside):
        sender = None
        collector = _Otlp(export.otlp) if export.otlp is not None else None
        where = _where(export, collector)
        try:
            sender = _Sender(export.syslog) if export.syslog is not None else None
        except OSError as exc:
            done.left = sum(1 for name in (aside, path) for _ in _lines(name))
            done.error = f"{where}: {exc.strerror or exc}"
            return done
        try:
            _ship_all(sender, collector, path, aside, done)
        except OSError as exc:
            done.error = f"{where}: {exc.strerror or exc}"
        finally:
            if sender is not None:
                sender.close()
    return done


def _ship_all(sender: _Sender | None, collector: _Otlp | None, path: str, aside: str, done: Shipped) -> None:
    hostname = socket.gethostname()
    for _ in range(2):  # what was left aside, then the spool: never chasing appends for ever
        if not os.path.exists(aside):
            if not os.path.exists(path):
                break
            os.replace(path, aside)
        lines = list(_lines(aside))
        sent = 0
        try:
            while sent < len(lines):
                batch = [(line, _record(line)) for line in lines[sent:sent + BATCH]]
                if sender is not None:
                    for _line, rec in batch:
                        sender.send(syslog_message(rec, hostname=hostname))
                if collector is not None:
                    collector.send(batch, hostname=hostname)
                sent += len(batch)
        finally:
            _keep(aside, lines[sent:])
            done.sent += sent
            done.left += len(lines) - sent
    dropped = count_dropped(path, 0)
    if dropped:
        if sender is not None:
            sender.send(dropped_message(dropped, hostname=hostname, now=_now()))
        if collector is not None:
            collector.dropped(dropped, hostname=hostname)
        reset_dropped(path)
        done.dropped = dropped


def _record(line: bytes) -> dict[str, Any]:
    try:
        rec = orjson.loads(line)
    except orjson.JSONDecodeError:
        return {}  # a line torn by a full disk: still a message, with what it can say
    return rec if isinstance(rec, dict) else {}


def _lines(path: str) -> Iterator[bytes]:
    try:
        with open(path, "rb") as fh:
            yield from (line.rstrip(b"\n") for line in fh if line.strip())
    except FileNotFoundError:
        return


def _keep(aside: str, lines: list[bytes]) -> None:
    """What was not sent stays aside for the next shipping; nothing left: no file."""
    if not lines:
        try:
            os.unlink(aside)
        except FileNotFoundError:
            pass
        return
    tmp = aside + ".tmp"
    with open(tmp, "wb") as fh:
        fh.write(b"".join(line + b"\n" for line in lines))
    os.replace(tmp, aside)


def _where(export: Export, collector: _Otlp | None) -> str:
    kind, address, port = export.syslog or ("", "", 0)
    where = [f"unix:{address}" if kind == "unix" else f"{kind}://{address}:{port}"] if export.syslog else []
    if collector is not None:
        where.append(f"OTLP {collector.protocol} {collector.url}")
    return " and ".join(where)


def _now() -> str:
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now * 1000) % 1000:03d}Z"
