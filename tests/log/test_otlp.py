"""The run log shipped out as OpenTelemetry over OTLP/HTTP (issue 35 item 4), through
the installed executables: a run appends its record to the export spool, forge-hook
export sends a span per run with a child per hook to a real HTTP receiver on 127.0.0.1,
which decodes it as a collector does: http/protobuf with the official opentelemetry-proto
messages, http/json with the OTLP/JSON mapping (hex ids) into the same messages.
Turned on only by the global or managed file, never by OTEL_* alone."""

from __future__ import annotations

import base64
import json
import os
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from helpers import SUDO, ForgeRun, Project, run_installed

PARENT_TRACE, PARENT_SPAN = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
TRACEPARENT = f"00-{PARENT_TRACE}-{PARENT_SPAN}-01"
SECRET = "ghp_" + "a" * 36


class Receiver:
    """An OTLP/HTTP receiver: every request's path, headers and body."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, str], bytes]] = []
        received = self.requests

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                reply = b"{}" if self.headers["Content-Type"] == "application/json" else b""
                self.send_response(200)
                self.send_header("Content-Type", self.headers["Content-Type"])
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    yield server
    server.close()


@pytest.fixture(autouse=True)
def no_otel(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("OTEL_") or name == "TRACEPARENT":
            monkeypatch.delenv(name)


def global_export(project: Project, export: object) -> None:
    path = project.home / ".config/forge/hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": [{"event": "tool:pre_execute:bash", "id": "no-sudo",
                                           "command": "echo 'Blocked: no'; exit 1"}],
                                "export": {"otlp": export}}))


def spool(project: Project) -> Path:
    return project.home / ".local/state/forge/export.spool"


def export(project: Project, env: dict[str, str] | None = None) -> Any:
    return run_installed(["export"], cwd=project.root, prog="forge-hook", env=env)


def dead_url() -> str:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}"


def decode_json(body: bytes) -> ExportTraceServiceRequest:
    """OTLP/JSON as a collector reads it: ids are hex (not protobuf JSON's base64)."""
    doc = json.loads(body)
    for rs in doc["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            for span in ss["spans"]:
                _hex_ids(span)
    request = ExportTraceServiceRequest()
    json_format.ParseDict(doc, request)  # unknown fields or wrong types fail here
    return request


def decode_logs_json(body: bytes) -> ExportLogsServiceRequest:
    doc = json.loads(body)
    for rl in doc["resourceLogs"]:
        for sl in rl["scopeLogs"]:
            for log in sl["logRecords"]:
                _hex_ids(log)
    request = ExportLogsServiceRequest()
    json_format.ParseDict(doc, request)
    return request


def _hex_ids(item: dict[str, Any]) -> None:
    for key in ("traceId", "spanId", "parentSpanId"):
        if key in item:
            item[key] = base64.b64encode(bytes.fromhex(item[key])).decode()


def posted(receiver: Receiver, signal: str) -> list[tuple[dict[str, str], bytes]]:
    return [(headers, body) for path, headers, body in receiver.requests if path == f"/v1/{signal}"]


def check_log(request: ExportLogsServiceRequest, trace: ExportTraceServiceRequest, line: bytes) -> None:
    [log] = [r for rl in request.resource_logs for sl in rl.scope_logs for r in sl.log_records]
    run = spans(trace)[0]
    assert json.loads(log.body.string_value) == json.loads(line)  # the record, as the run log holds it
    assert log.severity_number == 13 and log.severity_text == "WARN"  # deny
    assert log.trace_id == run.trace_id and log.span_id == run.span_id
    assert log.time_unix_nano == run.start_time_unix_nano
    assert attributes(log)["forge.decision"] == "deny"


def spans(request: ExportTraceServiceRequest) -> list[Any]:
    return [s for rs in request.resource_spans for ss in rs.scope_spans for s in ss.spans]


def attributes(span: Any) -> dict[str, Any]:
    out = {}
    for kv in span.attributes:
        kind = kv.value.WhichOneof("value")
        out[kv.key] = getattr(kv.value, kind)
    return out


def check_run(request: ExportTraceServiceRequest, *, parented: bool) -> None:
    run, hook = spans(request)
    resource = {kv.key: kv.value.string_value for kv in request.resource_spans[0].resource.attributes}
    assert resource["service.name"] == "forge-hook-run"
    assert run.name == "forge-hook-run tool:pre_execute" and hook.name == "hook no-sudo"
    assert hook.parent_span_id == run.span_id and hook.trace_id == run.trace_id and len(run.span_id) == 8
    if parented:
        assert run.trace_id.hex() == PARENT_TRACE and run.parent_span_id.hex() == PARENT_SPAN
    else:
        assert len(run.trace_id) == 16 and run.parent_span_id == b""
    assert run.end_time_unix_nano >= run.start_time_unix_nano > 1_700_000_000 * 10**9
    run_attrs = attributes(run)
    assert {k: run_attrs[k] for k in ("forge.session_id", "forge.event", "forge.tool", "forge.decision",
                                      "forge.reason", "forge.decided_by", "forge.exit_status")} == {
        "forge.session_id": "sess_abc123", "forge.event": "tool:pre_execute", "forge.tool": "bash",
        "forge.decision": "deny", "forge.reason": "Blocked: no", "forge.decided_by": 0, "forge.exit_status": 1}
    assert isinstance(run_attrs["forge.version"], str) and isinstance(run_attrs["process.pid"], int)
    assert run.status.code == 2  # STATUS_CODE_ERROR: denied
    hook_attrs = attributes(hook)
    assert hook_attrs["forge.hook.id"] == "no-sudo" and hook_attrs["forge.hook.exit_code"] == 1
    assert hook_attrs["forge.decision"] == "deny"


def test_protobuf_to_the_environments_endpoint_parented_to_traceparent(
        project: Project, forge_run: ForgeRun, receiver: Receiver) -> None:
    global_export(project, True)
    event = {**SUDO, "data": {"tool_args": {"command": "sudo ls", "env": {"GITHUB_TOKEN": SECRET}}}}
    assert forge_run(event, env={"TRACEPARENT": TRACEPARENT}).exit_status == 1
    assert len(spool(project).read_bytes().splitlines()) == 1 and not receiver.requests  # only spooled
    assert json.loads(spool(project).read_bytes())["traceparent"] == TRACEPARENT
    line = spool(project).read_bytes()
    shipped = export(project, env={"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url,
                                   "OTEL_EXPORTER_OTLP_HEADERS": "x-team=sec%20ops,authorization=Bearer t"})
    assert shipped.exit_status == 0 and "sent 1 record" in shipped.stdout, shipped.stderr
    assert [path for path, _, _ in receiver.requests] == ["/v1/traces", "/v1/logs"]
    [(headers, body)] = posted(receiver, "traces")
    assert headers["content-type"] == "application/x-protobuf"
    assert headers["x-team"] == "sec ops" and headers["authorization"] == "Bearer t"
    assert SECRET.encode() not in body  # redacted before it was spooled
    request = ExportTraceServiceRequest()
    request.ParseFromString(body)
    check_run(request, parented=True)
    [(headers, logs_body)] = posted(receiver, "logs")
    assert headers["content-type"] == "application/x-protobuf" and SECRET.encode() not in logs_body
    logs = ExportLogsServiceRequest()
    logs.ParseFromString(logs_body)
    check_log(logs, request, line)
    assert not spool(project).exists()


def test_json_to_the_files_endpoint_which_wins_over_the_environment(
        project: Project, forge_run: ForgeRun, receiver: Receiver) -> None:
    global_export(project, {"endpoint": receiver.url + "/", "protocol": "http/json", "headers": {"x-a": "b"}})
    forge_run(SUDO, env={"TRACEPARENT": "00-" + "0" * 32 + "-00f067aa0ba902b7-01"})  # invalid: not recorded
    line = spool(project).read_bytes()
    assert "traceparent" not in json.loads(line)
    shipped = export(project, env={"OTEL_EXPORTER_OTLP_ENDPOINT": dead_url(), "OTEL_EXPORTER_OTLP_PROTOCOL":
                                   "http/protobuf", "OTEL_EXPORTER_OTLP_HEADERS": "authorization=agent-secret"})
    assert shipped.exit_status == 0, shipped.stderr
    [(headers, body)] = posted(receiver, "traces")
    assert headers["content-type"] == "application/json" and headers["x-a"] == "b"
    assert "authorization" not in headers  # the agent's own credentials never go to forge's endpoint
    doc = json.loads(body)
    run = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    assert len(run["traceId"]) == 32 and isinstance(run["startTimeUnixNano"], str)
    assert {"key": "forge.tool", "value": {"stringValue": "bash"}} in run["attributes"]
    check_run(decode_json(body), parented=False)
    [(headers, logs_body)] = posted(receiver, "logs")
    assert headers["content-type"] == "application/json" and "authorization" not in headers
    check_log(decode_logs_json(logs_body), decode_json(body), line)


def test_the_environment_alone_turns_nothing_on(
        project: Project, forge_run: ForgeRun, receiver: Receiver) -> None:
    env = {"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": receiver.url,
           "TRACEPARENT": TRACEPARENT}
    project.write_hooks([{"event": "tool:*", "command": "true"}])
    project.trust()
    forge_run(SUDO, env=env)
    assert not spool(project).exists()
    shipped = export(project, env=env)
    assert shipped.exit_status != 0 and "no export is set" in shipped.stderr
    assert not receiver.requests


def test_a_dead_collector_keeps_the_records(project: Project, forge_run: ForgeRun, receiver: Receiver) -> None:
    dead = dead_url()
    global_export(project, {"endpoint": dead})
    forge_run(SUDO)
    forge_run(SUDO)
    failed = export(project)
    assert failed.exit_status == 1 and "2 left in the spool" in failed.stdout, failed.stdout
    assert f"OTLP http/protobuf {dead}/v1/traces" in failed.stderr
    global_export(project, {"endpoint": receiver.url})
    shipped = export(project)
    assert shipped.exit_status == 0 and "sent 2 records" in shipped.stdout
    request = ExportTraceServiceRequest()
    request.ParseFromString(posted(receiver, "traces")[0][1])
    assert len(spans(request)) == 4
    # a full spool's drops are reported as a span of their own
    (project.home / ".local/state/forge/export.spool.dropped").write_text("3")
    shipped = export(project)
    assert shipped.exit_status == 0 and "reported 3 dropped" in shipped.stdout, shipped.stdout
    request.ParseFromString(posted(receiver, "traces")[-1][1])
    [dropped] = spans(request)
    assert dropped.name == "forge-hook-run dropped" and attributes(dropped) == {"forge.dropped": 3}


def test_a_managed_endpoint_wins_over_the_environment_and_forge_log(
        project: Project, forge_run: ForgeRun, receiver: Receiver, tmp_path: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("the managed layer is root-owned: this needs root")
    layer = tmp_path / "managed"
    layer.mkdir(mode=0o755)
    layer.chmod(0o755)
    (layer / "hooks.json").write_text(json.dumps({"hooks": [{"event": "tool:pre_execute:bash", "id": "no-sudo",
                                                             "command": "echo 'Blocked: no'; exit 1"}],
                                                  "export": {"otlp": {"endpoint": receiver.url,
                                                                      "protocol": "http/json"}}}))
    (layer / "hooks.json").chmod(0o644)
    env = {"FORGE_MANAGED_DIR": str(layer), "OTEL_EXPORTER_OTLP_ENDPOINT": dead_url()}
    forge_run(SUDO, env={**env, "FORGE_LOG": "0", "TRACEPARENT": TRACEPARENT})
    shipped = export(project, env=env)
    assert shipped.exit_status == 0 and "sent 1 record" in shipped.stdout, shipped.stderr
    check_run(decode_json(posted(receiver, "traces")[0][1]), parented=True)


# -- the setting and the encoders, in process ------------------------------------------------
def test_the_setting_and_what_the_environment_fills_in() -> None:
    from forge_hookd.exportconf import Otlp, otlp_target, parse_export

    setting, warnings = parse_export({"otlp": True}, origin="g", managed=False)
    assert setting is not None and setting.otlp is not None and setting.syslog is None and warnings == []
    assert otlp_target(setting.otlp, {}) == ("http://localhost:4318/v1/traces", "http/protobuf", {})
    env = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:1/base/", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
           "OTEL_EXPORTER_OTLP_HEADERS": "k=v%2Cw, bad ,x=1"}
    assert otlp_target(setting.otlp, env) == ("http://a:1/base/v1/traces", "http/json", {"k": "v,w", "x": "1"})
    env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = "http://t:2/exact"
    assert otlp_target(setting.otlp, env)[0] == "http://t:2/exact"
    assert otlp_target(setting.otlp, env, "logs")[0] == "http://a:1/base/v1/logs"
    named = Otlp("https://c.example:4318", None, {"h": "1"})
    assert otlp_target(named, env) == ("https://c.example:4318/v1/traces", "http/json", {"h": "1"})
    assert otlp_target(named, env, "logs")[0] == "https://c.example:4318/v1/logs"
    for bad, said in (({"otlp": "yes"}, "must be true or an object"), ({"otlp": {"endpoint": "ftp://x"}}, "not an http"),
                      ({"otlp": {"protocol": "grpc"}}, "not one of"), ({"otlp": {"port": 1}}, "unknown key 'port'")):
        got, warnings = parse_export(bad, origin="g", managed=True)
        assert any(said in w for w in warnings), (bad, warnings)
        assert "port" in str(bad) or got is None
    assert parse_export({"otlp": False}, origin="g", managed=False) == (None, [])


def test_a_record_cut_to_its_summary_keeps_its_traceparent(monkeypatch: pytest.MonkeyPatch) -> None:
    from forge_hookd.log import record, runlog

    monkeypatch.setenv("TRACEPARENT", TRACEPARENT)
    noisy = ("\x01" * 60 + " ") * 8  # six bytes each in JSON: too much even cut (as test_runrecord.py)
    results = [{"index": i, "hook": {"event": noisy, "command": noisy, "source": noisy}, "error": noisy,
                "stdout": noisy, "reason": noisy, "signal": noisy, "decision": noisy} for i in range(50)]
    doc = {"event": {**SUDO, "session_id": noisy}, "results": results, "decision": "deny", "reason": noisy,
           "warnings": [noisy] * 20}
    files = [{"scope": noisy, "path": noisy, "state": noisy, "trust": noisy}] * 10
    line = runlog.encode(record.build_record(doc, record.RunContext(project_root=noisy, files=files)))
    out = json.loads(line)
    assert out["omitted"] == "record too large" and out["traceparent"] == TRACEPARENT


def test_a_garbled_record_is_still_a_span() -> None:
    from forge_hookd.log import otlp

    [span] = otlp.record_spans(b"not json", {}, now=5)
    request = ExportTraceServiceRequest()
    request.ParseFromString(otlp.encode([span], "http/protobuf", hostname="h", version="1"))
    assert spans(request)[0].name == "forge-hook-run run" and spans(request)[0].start_time_unix_nano == 5
