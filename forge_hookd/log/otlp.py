"""The run log as OpenTelemetry over OTLP/HTTP (issue 35 item 4): each spooled run
record becomes a span per run with a child span per hook, and a log record (the
record's JSON as its body, linked to the run span), parented to the agent's
``TRACEPARENT`` when the record carries one (forge_hookd.log.record checks it), with the
session, tool, event, dialect and decision as attributes. Encoded here, with no
dependency: ``http/json`` is the OTLP/JSON mapping (hex ids, 64-bit integers as
strings), ``http/protobuf`` a small encoder for the few messages an
``ExportTraceServiceRequest`` and an ``ExportLogsServiceRequest`` need (field numbers of
opentelemetry-proto's trace.proto, logs.proto, common.proto and resource.proto).

The record is the run log's, redacted before it was spooled; ids are derived from its
line (a hash), so a batch sent again after a failure names the same spans.
"""

from __future__ import annotations

import calendar
import hashlib
import http.client
import struct
import urllib.parse
from typing import Any

import orjson

SCOPE = "forge_hookd"
SERVICE = "forge-hook-run"
KIND_INTERNAL = 1
STATUS_ERROR = 2
TIMEOUT = 5.0
Attr = tuple[str, "str | int | bool | float"]


class Span:
    """One span, before it is encoded either way."""

    __slots__ = ("trace_id", "span_id", "parent", "name", "start", "end", "attributes", "error")

    def __init__(self, trace_id: bytes, span_id: bytes, parent: bytes | None, name: str, start: int, end: int,
                 attributes: list[Attr], error: str | None = None) -> None:
        self.trace_id, self.span_id, self.parent, self.name = trace_id, span_id, parent, name
        self.start, self.end, self.attributes, self.error = start, end, attributes, error


# -- records to spans ---------------------------------------------------------------------
def _nanos(text: object) -> int | None:
    """``2026-11-27T08:12:54.941Z`` as nanoseconds since the epoch."""
    if not isinstance(text, str) or len(text) != 24 or not text.endswith("Z"):
        return None
    try:
        seconds = calendar.timegm((int(text[0:4]), int(text[5:7]), int(text[8:10]), int(text[11:13]),
                                   int(text[14:16]), int(text[17:19]), 0, 0, 0))
        return seconds * 1_000_000_000 + int(text[20:23]) * 1_000_000
    except ValueError:
        return None


def _duration(value: object) -> int:
    return int(value * 1e9) if isinstance(value, (int, float)) and value >= 0 else 0


def _attrs(pairs: list[tuple[str, object]]) -> list[Attr]:
    return [(k, v) for k, v in pairs if isinstance(v, (str, int, float, bool))]


def record_spans(line: bytes, rec: dict[str, Any], *, now: int) -> list[Span]:
    """The run's span and a child per hook it kept."""
    digest = hashlib.sha256(line).digest()
    parent_trace = rec.get("traceparent")
    parent: bytes | None = None
    if isinstance(parent_trace, str) and len(parent_trace) == 55:
        trace_id, parent = bytes.fromhex(parent_trace[3:35]), bytes.fromhex(parent_trace[36:52])
    else:
        trace_id = digest[:16]
    event = rec.get("event") if isinstance(rec.get("event"), dict) else {}
    assert isinstance(event, dict)
    start = _nanos(rec.get("time")) or now
    run_id = digest[16:24]
    decision = rec.get("decision")
    error = rec.get("error") if isinstance(rec.get("error"), dict) else None
    run = Span(trace_id, run_id, parent, f"{SERVICE} {event.get('type') or 'run'}", start,
               start + _duration(rec.get("duration")), _attrs([
                   ("forge.session_id", event.get("session")), ("forge.event", event.get("type")),
                   ("forge.tool", event.get("tool")), ("forge.dialect", rec.get("dialect")),
                   ("forge.decision", decision), ("forge.reason", rec.get("reason")),
                   ("forge.decided_by", rec.get("decided_by")), ("forge.exit_status", rec.get("exit_status")),
                   ("forge.project", rec.get("project")), ("forge.version", rec.get("forge")),
                   ("process.pid", rec.get("pid"))]),
               error=str(error.get("message")) if error else ("denied" if decision == "deny" else None))
    spans = [run]
    for i, hook in enumerate(h for h in rec.get("hooks") or [] if isinstance(h, dict)):
        label = hook.get("id") or hook.get("guard") or hook.get("command") or hook.get("index")
        spans.append(Span(trace_id, hashlib.sha256(digest + i.to_bytes(4, "big")).digest()[:8], run_id,
                          f"hook {label}", start, start + _duration(hook.get("duration")), _attrs([
                              ("forge.hook.index", hook.get("index")), ("forge.hook.id", hook.get("id")),
                              ("forge.hook.guard", hook.get("guard")), ("forge.hook.source", hook.get("source")),
                              ("forge.hook.command", hook.get("command")),
                              ("forge.hook.exit_code", hook.get("exit_code")),
                              ("forge.hook.timed_out", hook.get("timed_out")),
                              ("forge.decision", hook.get("decision")), ("forge.reason", hook.get("reason"))]),
                          error=str(hook["error"]) if hook.get("error") else None))
    return spans


def dropped_span(count: int, *, now: int) -> Span:
    digest = hashlib.sha256(b"dropped %d %d" % (count, now)).digest()
    return Span(digest[:16], digest[16:24], None, f"{SERVICE} dropped", now, now, [("forge.dropped", count)],
                error=f"{count} run records dropped: the spool was full")


SEVERITY = {"allow": (9, "INFO"), "ask": (10, "INFO2"), "deny": (13, "WARN"), "error": (17, "ERROR")}


class LogRecord:
    """The run as one log record: the record's JSON as its body, the run span's
    attributes, and its trace and span ids (so a backend links the two)."""

    __slots__ = ("time", "severity", "severity_text", "body", "attributes", "trace_id", "span_id")

    def __init__(self, run: Span, body: str, decision: object) -> None:
        self.time, self.body, self.attributes = run.start, body, run.attributes
        self.severity, self.severity_text = SEVERITY.get(decision if isinstance(decision, str) else "", (9, "INFO"))
        self.trace_id, self.span_id = run.trace_id, run.span_id


def record_log(line: bytes, rec: dict[str, Any], run: Span) -> LogRecord:
    return LogRecord(run, line.decode("utf-8", "replace"), rec.get("decision"))


# -- OTLP/JSON ---------------------------------------------------------------------------
def _json_value(value: str | int | bool | float) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    return {"stringValue": value}


def _json_attrs(attrs: list[Attr]) -> list[dict[str, Any]]:
    return [{"key": k, "value": _json_value(v)} for k, v in attrs]


def encode_json(spans: list[Span], resource: list[Attr], version: str) -> bytes:
    out = []
    for s in spans:
        span: dict[str, Any] = {"traceId": s.trace_id.hex(), "spanId": s.span_id.hex(), "name": s.name,
                                "kind": KIND_INTERNAL, "startTimeUnixNano": str(s.start),
                                "endTimeUnixNano": str(s.end), "attributes": _json_attrs(s.attributes)}
        if s.parent is not None:
            span["parentSpanId"] = s.parent.hex()
        if s.error is not None:
            span["status"] = {"code": STATUS_ERROR, "message": s.error}
        out.append(span)
    return orjson.dumps({"resourceSpans": [{"resource": {"attributes": _json_attrs(resource)},
                                            "scopeSpans": [{"scope": {"name": SCOPE, "version": version},
                                                            "spans": out}]}]})


def encode_logs_json(logs: list[LogRecord], resource: list[Attr], version: str) -> bytes:
    out = [{"timeUnixNano": str(r.time), "observedTimeUnixNano": str(r.time), "severityNumber": r.severity,
            "severityText": r.severity_text, "body": {"stringValue": r.body}, "attributes": _json_attrs(r.attributes),
            "traceId": r.trace_id.hex(), "spanId": r.span_id.hex()} for r in logs]
    return orjson.dumps({"resourceLogs": [{"resource": {"attributes": _json_attrs(resource)},
                                           "scopeLogs": [{"scope": {"name": SCOPE, "version": version},
                                                          "logRecords": out}]}]})


# -- protobuf ----------------------------------------------------------------------------
def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # a negative int64 is ten bytes, two's complement
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _field(number: int, data: bytes) -> bytes:
    """A length-delimited field (wire type 2): bytes, string, an embedded message."""
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def _str(number: int, text: str) -> bytes:
    return _field(number, text.encode("utf-8", "replace"))


def _int(number: int, value: int) -> bytes:
    return _varint(number << 3) + _varint(value)


def _fixed64(number: int, value: int) -> bytes:
    return _varint(number << 3 | 1) + struct.pack("<Q", value)


def _pb_value(value: str | int | bool | float) -> bytes:  # AnyValue
    if isinstance(value, bool):
        return _int(2, int(value))
    if isinstance(value, int):
        return _int(3, value)
    if isinstance(value, float):
        return _varint(4 << 3 | 1) + struct.pack("<d", value)
    return _str(1, value)


def _pb_attrs(number: int, attrs: list[Attr]) -> bytes:  # repeated KeyValue
    return b"".join(_field(number, _str(1, k) + _field(2, _pb_value(v))) for k, v in attrs)


def _pb_span(s: Span) -> bytes:
    out = _field(1, s.trace_id) + _field(2, s.span_id)
    if s.parent is not None:
        out += _field(4, s.parent)
    out += _str(5, s.name) + _int(6, KIND_INTERNAL) + _fixed64(7, s.start) + _fixed64(8, s.end)
    out += _pb_attrs(9, s.attributes)
    if s.error is not None:
        out += _field(15, _str(2, s.error) + _int(3, STATUS_ERROR))
    return out


def encode_protobuf(spans: list[Span], resource: list[Attr], version: str) -> bytes:
    """An ``ExportTraceServiceRequest`` > ResourceSpans > ScopeSpans > Span."""
    scope_spans = _field(1, _str(1, SCOPE) + _str(2, version)) + b"".join(_field(2, _pb_span(s)) for s in spans)
    resource_spans = _field(1, _pb_attrs(1, resource)) + _field(2, scope_spans)
    return _field(1, resource_spans)


def _pb_log(r: LogRecord) -> bytes:
    return (_fixed64(1, r.time) + _int(2, r.severity) + _str(3, r.severity_text) + _field(5, _str(1, r.body))
            + _pb_attrs(6, r.attributes) + _field(9, r.trace_id) + _field(10, r.span_id) + _fixed64(11, r.time))


def encode_logs_protobuf(logs: list[LogRecord], resource: list[Attr], version: str) -> bytes:
    """An ``ExportLogsServiceRequest`` > ResourceLogs > ScopeLogs > LogRecord."""
    scope_logs = _field(1, _str(1, SCOPE) + _str(2, version)) + b"".join(_field(2, _pb_log(r)) for r in logs)
    return _field(1, _field(1, _pb_attrs(1, resource)) + _field(2, scope_logs))


# -- sending -----------------------------------------------------------------------------
def post(url: str, protocol: str, headers: dict[str, str], body: bytes) -> None:
    """One request; OSError when it fails or the collector refuses it (not 2xx)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise OSError(f"{url!r} is not an http:// or https:// URL")
    cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = cls(parts.hostname, parts.port, timeout=TIMEOUT)
    content_type = "application/json" if protocol == "http/json" else "application/x-protobuf"
    try:
        conn.request("POST", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""), body=body,
                     headers={**headers, "Content-Type": content_type, "User-Agent": SERVICE})
        response = conn.getresponse()
        response.read(65536)
        if not 200 <= response.status < 300:
            raise OSError(f"{url} answered {response.status} {response.reason}")
    except http.client.HTTPException as exc:
        raise OSError(f"{url}: {exc}") from exc
    finally:
        conn.close()


def _resource(hostname: str, version: str) -> list[Attr]:
    return [("service.name", SERVICE), ("service.version", version), ("host.name", hostname)]


def encode(spans: list[Span], protocol: str, *, hostname: str, version: str) -> bytes:
    return (encode_json if protocol == "http/json" else encode_protobuf)(spans, _resource(hostname, version), version)


def encode_logs(logs: list[LogRecord], protocol: str, *, hostname: str, version: str) -> bytes:
    encoder = encode_logs_json if protocol == "http/json" else encode_logs_protobuf
    return encoder(logs, _resource(hostname, version), version)
