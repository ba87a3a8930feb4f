"""The run log shipped out as RFC 5424 syslog (issue 35 item 4), through the installed
executables: a run only appends its record to a bounded spool (no process is left
behind, the answer never waits), forge-hook export ships it; received here by a real
UDP or TCP listener and read by a strict RFC 5424 parser (ABNF of RFC 5424 section 6).
Turned on only by the global or managed file; FORGE_LOG=0 never stops a managed export."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from helpers import SUDO, ForgeRun, Project, run_installed

# -- a strict RFC 5424 parser ------------------------------------------------------------------
_PRINT = r"[\x21-\x7e]"
_HEADER = re.compile(
    rb"<(?P<pri>[0-9]{1,3})>(?P<version>[1-9][0-9]{0,2}) "
    rb"(?P<timestamp>-|[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:"
    rb"(?:[0-5][0-9]|60)(?:\.[0-9]{1,6})?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])) "
    rb"(?P<hostname>-|" + _PRINT.encode() + rb"{1,255}) (?P<app>-|" + _PRINT.encode() + rb"{1,48}) "
    rb"(?P<procid>-|" + _PRINT.encode() + rb"{1,128}) (?P<msgid>-|" + _PRINT.encode() + rb"{1,32}) ")
_SD_NAME = re.compile(rb'[\x21-\x7e]{1,32}')


def _sd_name(data: bytes, at: int) -> tuple[str, int]:
    match = _SD_NAME.match(data, at)
    assert match is not None, f"an SD-NAME at {at}: {data[at:at + 40]!r}"
    name = match.group().split(b"=")[0].split(b"]")[0].split(b'"')[0]
    assert name, f"an empty SD-NAME at {at}"
    return name.decode("ascii"), at + len(name)


def _param_value(data: bytes, at: int) -> tuple[str, int]:
    out = bytearray()
    while True:
        assert at < len(data), "a PARAM-VALUE without its closing quote"
        byte = data[at]
        if byte == 0x5C and at + 1 < len(data) and data[at + 1] in b'"\\]':
            out.append(data[at + 1])
            at += 2
        elif byte == 0x22:
            return out.decode("utf-8"), at + 1  # strict: a value must be UTF-8
        else:
            assert byte != 0x5D, "']' inside a PARAM-VALUE must be escaped"
            out.append(byte)
            at += 1


def parse_rfc5424(data: bytes) -> dict[str, Any]:
    """A syslog message per RFC 5424's ABNF, or AssertionError saying where it is not."""
    header = _HEADER.match(data)
    assert header is not None, f"not an RFC 5424 header: {data[:120]!r}"
    assert int(header["pri"]) <= 191 and header["version"] == b"1"
    at, elements = header.end(), {}
    if data[at:at + 1] == b"-":
        at += 1
    else:
        assert data[at:at + 1] == b"[", "STRUCTURED-DATA is '-' or SD-ELEMENTs"
        while data[at:at + 1] == b"[":
            sd_id, at = _sd_name(data, at + 1)
            params: dict[str, str] = {}
            while data[at:at + 1] == b" ":
                name, at = _sd_name(data, at + 1)
                assert data[at:at + 2] == b'="', f"SD-PARAM {name} needs =\""
                params[name], at = _param_value(data, at + 2)
            assert data[at:at + 1] == b"]", f"SD-ELEMENT {sd_id} not closed"
            elements[sd_id] = params
            at += 1
    msg = None
    if at < len(data):
        assert data[at:at + 1] == b" ", "MSG follows a space"
        msg = data[at + 1:]
        if msg.startswith(b"\xef\xbb\xbf"):
            msg = msg[3:].decode("utf-8").encode()  # MSG-UTF8 must be valid UTF-8
    return {"pri": int(header["pri"]), "timestamp": header["timestamp"].decode(),
            "hostname": header["hostname"].decode(), "app": header["app"].decode(),
            "procid": header["procid"].decode(), "msgid": header["msgid"].decode(), "sd": elements, "msg": msg}


def test_the_parser_is_strict() -> None:
    good = b'<108>1 2026-11-27T08:12:54.941Z host forge-hook-run 12 run [forge@32473 a="x\\"y\\]"] \xef\xbb\xbf{}'
    assert parse_rfc5424(good)["sd"] == {"forge@32473": {"a": 'x"y]'}}
    for bad in (b"<108> 2026-11-27T08:12:54Z h a 1 m -", b"<192>1 - h a 1 m -", b'<1>1 - h a 1 m [x a="]"]',
                b"<1>1 2026-13-01T00:00:00Z h a 1 m -", b"<1>1 - h a 1 m [x a=b]"):
        with pytest.raises(AssertionError):
            parse_rfc5424(bad)


# -- receivers ---------------------------------------------------------------------------
@pytest.fixture
def udp() -> Iterator[socket.socket]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(30)
    yield sock
    sock.close()


def received(sock: socket.socket, count: int) -> list[dict[str, Any]]:
    return [parse_rfc5424(sock.recv(65536)) for _ in range(count)]


def global_export(project: Project, target: str) -> None:
    path = project.home / ".config/forge/hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": [{"event": "tool:pre_execute:bash", "command": "echo 'Blocked: no'; exit 1"}],
                                "export": {"syslog": target}}))


def spool(project: Project) -> Path:
    return project.home / ".local/state/forge/export.spool"


def export(project: Project, env: dict[str, str] | None = None) -> Any:
    return run_installed(["export"], cwd=project.root, prog="forge-hook", env=env)


def test_runs_are_spooled_and_export_ships_them_as_rfc5424(
        project: Project, forge_run: ForgeRun, udp: socket.socket) -> None:
    global_export(project, f"udp://127.0.0.1:{udp.getsockname()[1]}")
    event = {**SUDO, "data": {"tool_args": {"command": "sudo ls", "env": {"GITHUB_TOKEN": "ghp_" + "a" * 36}}}}
    assert forge_run(event).exit_status == 1
    assert forge_run({**SUDO, "type": "tool:post_execute"}).exit_status == 0
    lines = spool(project).read_bytes().splitlines()
    assert len(lines) == 2  # the runs only appended: nothing was sent yet
    shipped = export(project)
    assert shipped.exit_status == 0 and "sent 2 records" in shipped.stdout, shipped.stderr
    deny, allow = received(udp, 2)
    assert deny["pri"] == 13 * 8 + 4 and allow["pri"] == 13 * 8 + 6
    assert deny["app"] == "forge-hook-run" and deny["msgid"] == "run"
    assert deny["sd"]["forge@32473"] == {"decision": "deny", "event": "tool:pre_execute", "tool": "bash",
                                         "session": "sess_abc123", "exit": "1"}
    record = json.loads(deny["msg"])
    assert record == json.loads(lines[0]) and record["decision"] == "deny"
    assert "ghp_" + "a" * 36 not in deny["msg"].decode()  # redacted before it was spooled
    assert not spool(project).exists()
    assert export(project).stdout.startswith("sent 0 records")


def test_export_is_turned_on_only_by_a_file_and_managed_export_ignores_forge_log(
        project: Project, forge_run: ForgeRun, udp: socket.socket, tmp_path: Path) -> None:
    target = f"udp://127.0.0.1:{udp.getsockname()[1]}"
    project.write_hooks([{"event": "tool:*", "command": "true"}])
    hooks = json.loads(project.hooks_file.read_text())
    project.hooks_file.write_text(json.dumps({**hooks, "export": {"syslog": target}}))
    project.trust()
    run = forge_run(SUDO)
    assert "unknown top-level key 'export'" in run.stderr and not spool(project).exists()
    global_export(project, target)
    forge_run(SUDO, env={"FORGE_LOG": "0"})  # the user's own export stops with the log
    assert not spool(project).exists()
    if os.getuid() != 0:
        pytest.skip("the managed layer is root-owned: the rest needs root")
    layer = tmp_path / "managed"
    layer.mkdir(mode=0o755)
    layer.chmod(0o755)
    (layer / "hooks.json").write_text(json.dumps({"hooks": [], "export": {"syslog": target}}))
    (layer / "hooks.json").chmod(0o644)
    logged = (project.home / ".local/state/forge/runs.jsonl").read_bytes()
    forge_run(SUDO, env={"FORGE_LOG": "0", "FORGE_MANAGED_DIR": str(layer)})
    assert len(spool(project).read_bytes().splitlines()) == 1
    assert (project.home / ".local/state/forge/runs.jsonl").read_bytes() == logged  # the log itself stayed off


def test_a_dead_collector_keeps_the_records_and_a_full_spool_drops_with_a_count(
        project: Project, forge_run: ForgeRun) -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()  # nothing listens there now
    global_export(project, f"tcp://127.0.0.1:{port}")
    forge_run(SUDO)
    dead = export(project)
    assert dead.exit_status == 1 and "1 left in the spool" in dead.stdout and "export stopped" in dead.stderr
    # the spool is bounded: a full one drops the record, counted, and the run is no slower to answer
    with spool(project).open("ab") as fh:
        fh.write(BIG * 64)  # 64 records of 64 KiB after the one kept: full
    assert forge_run(SUDO).exit_status == 1
    assert (project.home / ".local/state/forge/export.spool.dropped").read_text() == "1"
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", port))
    listener.listen(1)
    listener.settimeout(60)
    shipped = run_installed_async(project)
    conn, _ = listener.accept()
    conn.settimeout(60)
    data = b""
    while chunk := conn.recv(1 << 20):
        data += chunk
    conn.close()
    listener.close()
    assert shipped.wait(timeout=120) == 0
    frames = octet_counted(data)
    assert len(frames) == 1 + 64 + 1  # kept, spooled, the drop report
    messages = [parse_rfc5424(f) for f in frames]
    assert messages[0]["sd"]["forge@32473"]["decision"] == "deny"
    assert all(len(f) <= 8192 and json.loads(m["msg"])["cut"] is True for f, m in zip(frames[1:-1], messages[1:-1]))
    assert messages[-1]["msgid"] == "dropped" and messages[-1]["sd"]["forge@32473"] == {"dropped": "1"}


BIG = b'{"decision": "allow", "pad": "' + b"x" * (64 * 1024 - 34) + b'"}\n'


def run_installed_async(project: Project) -> Any:
    import subprocess

    from helpers import installed

    return subprocess.Popen([installed("forge-hook"), "export"], cwd=project.root, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def octet_counted(data: bytes) -> list[bytes]:
    """RFC 6587 octet-counted frames: MSG-LEN SP SYSLOG-MSG."""
    frames, at = [], 0
    while at < len(data):
        space = data.index(b" ", at)
        length = int(data[at:space])
        frames.append(data[space + 1:space + 1 + length])
        at = space + 1 + length
    return frames


# -- a real syslog daemon -----------------------------------------------------------------------
RSYSLOGD = shutil.which("rsyslogd") or next(
    (p for p in ("/usr/sbin/rsyslogd", "/sbin/rsyslogd") if os.access(p, os.X_OK)), None)
# What rsyslog itself parsed out of each message, one line each: a message it did not read
# as RFC 5424 has no app-name, msgid or structured data here. imtcp says the port it chose
# in a file; imudp cannot, so it gets one that was free a moment ago.
RSYSLOG_CONF = """global(workDirectory="{dir}")
module(load="imudp")
module(load="imtcp")
input(type="imudp" address="127.0.0.1" port="{udp}")
input(type="imtcp" address="127.0.0.1" port="0" listenPortFileName="{dir}/tcp.port")
template(name="parsed" type="string" string="%protocol-version%|%app-name%|%msgid%|%structured-data%|%msg%\\n")
*.* action(type="omfile" file="{dir}/received.log" template="parsed")
"""


@pytest.fixture
def rsyslogd(tmp_path: Path) -> Iterator[tuple[Path, dict[str, int]]]:
    """rsyslogd in the foreground, listening on 127.0.0.1; .ci/run installs it (apt-get)."""
    if RSYSLOGD is None:
        pytest.skip("NOT TESTED: a real syslog daemon receiving the export: apt-get install rsyslog")
    work = tmp_path / "rsyslog"
    work.mkdir()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        udp = probe.getsockname()[1]
    (work / "rsyslog.conf").write_text(RSYSLOG_CONF.format(dir=work, udp=udp))
    daemon = subprocess.Popen([RSYSLOGD, "-n", "-f", str(work / "rsyslog.conf"), "-i", str(work / "pid")],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        tcp = int(wait_until(lambda: (work / "tcp.port").exists() and (work / "tcp.port").read_text().strip(),
                             daemon, "tcp.port written"))
        wait_until(lambda: any(c.laddr and c.laddr.port == udp
                               for c in psutil.Process(daemon.pid).net_connections(kind="udp4")),
                   daemon, f"udp port {udp} bound")
        yield work / "received.log", {"udp": udp, "tcp": tcp}
    finally:
        daemon.terminate()
        daemon.communicate(timeout=60)


def wait_until(ready: Callable[[], Any], daemon: subprocess.Popen[bytes], what: str) -> Any:
    """What ``ready`` returns once it is true; fails when rsyslogd exits first, or after 60 s."""
    deadline = time.monotonic() + 60
    while not (value := ready()):
        assert daemon.poll() is None, f"rsyslogd exited {daemon.returncode}: {daemon.stderr.read()!r}"  # type: ignore[union-attr]
        assert time.monotonic() < deadline, f"rsyslogd: not {what} within 60 s"
        time.sleep(0.02)
    return value


@pytest.mark.parametrize("transport", ["udp", "tcp"])
def test_rsyslog_receives_each_run_as_rfc5424(project: Project, forge_run: ForgeRun, transport: str,
                                             rsyslogd: tuple[Path, dict[str, int]]) -> None:
    received, ports = rsyslogd
    global_export(project, f"{transport}://127.0.0.1:{ports[transport]}")
    assert forge_run(SUDO).exit_status == 1
    assert forge_run({**SUDO, "type": "tool:post_execute"}).exit_status == 0
    shipped = export(project)
    assert shipped.exit_status == 0 and "sent 2 records" in shipped.stdout, shipped.stderr
    deadline = time.monotonic() + 60
    while len(lines := received.read_text().splitlines() if received.exists() else []) < 2:
        assert time.monotonic() < deadline, f"rsyslogd logged {lines} within 60 s"
        time.sleep(0.02)
    parsed = [line.split("|", 4) for line in lines]
    assert [p[:3] for p in parsed] == [["1", "forge-hook-run", "run"]] * 2, lines
    assert parsed[0][3].startswith('[forge@32473 decision="deny" event="tool:pre_execute"'), lines
    assert parsed[1][3].startswith('[forge@32473 decision="allow" event="tool:post_execute"'), lines
    assert json.loads(parsed[0][4].lstrip("\ufeff"))["decision"] == "deny"
