"""The run log end to end through the installed forge-hook-run: what a run records,
secrets never reaching the file, appending under concurrency, rotation, a log that
cannot be written, a lean event path. The record's bounds are in test_runrecord.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import ForgeRun, Project, installed
from forge_hookd.log import runlog
from forge_hookd.log.redact import MASK
from test_redact import IN_CLEAR, INNOCENT, PEM, SECRET_PARTS, SHAPES, WORST, worst

EVENT = {"type": "tool:pre_execute", "tool_name": "bash", "session_id": "sess_1",
         "data": {"tool_args": {"command": "git push origin main"}}}


def log_file(project: Project) -> Path:
    return project.home / ".local/state/forge/runs.jsonl"


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# -- what a run records ------------------------------------------------------------------
def test_a_blocked_run_records_what_happened_and_why(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "*", "command": "echo fine"}], where="global")
    project.write_hooks([{"event": "tool:pre_execute", "command": "echo no pushing; echo oops >&2; exit 1",
                          "description": "guard"}])
    run = forge_run(EVENT)
    assert run.exit_status == 1
    [rec] = records(log_file(project))
    assert rec["event"] == {"type": "tool:pre_execute", "tool": "bash", "session": "sess_1",
                            "data": {"tool_args": {"command": "git push origin main"}}}
    assert rec["project"] == str(project.root) and rec["dialect"] is None
    assert rec["forge"] == "0.1.0" and rec["time"].endswith("Z") and rec["duration"] > 0
    assert [(f["scope"], f["state"], f["trust"], f["hooks"]) for f in rec["files"]] == [
        ("global", "loaded", "own", 1), ("project", "loaded", "trusted", 1)]
    assert [(h["source"], h["pattern"], h["exit_code"], h["decision"]) for h in rec["hooks"]] == [
        ("global", "*", 0, "allow"), ("project", "tool:pre_execute", 1, "deny")]
    assert rec["hooks"][1]["reason"] == "no pushing" and rec["hooks"][1]["stderr"] == "oops\n"
    assert (rec["decision"], rec["decided_by"], rec["reason"]) == ("deny", 1, "no pushing")
    assert rec["exit_status"] == 1 and rec["warnings"] == []


def test_the_log_and_the_document_agree_on_every_reason(project: Project, forge_run: ForgeRun) -> None:
    """Issue 18: the log took each hook's reason from its output again; a hook killed by
    SIGTERM after printing was logged with what it printed, an empty-reason JSON deny
    with the raw JSON."""
    project.write_hooks([{"event": "*", "command": "echo starting; kill -TERM $$", "blocking": False},
                         {"event": "*", "command": """echo '{"decision": "deny"}'"""}])
    run = forge_run(EVENT)
    assert run.exit_status == 1
    [rec] = records(log_file(project))
    assert [h["reason"] for h in rec["hooks"]] == ["killed by SIGTERM", None]
    assert [r["reason"] or None for r in run.json["results"]] == ["killed by SIGTERM", None]
    assert [h["decision"] for h in rec["hooks"]] == [r["decision"] for r in run.json["results"]] == ["deny", "deny"]
    assert (rec["decision"], rec["reason"]) == (run.json["decision"], run.json["reason"] or None) == ("deny", None)


def test_untrusted_project_and_error_runs_are_recorded(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "*", "command": "true"}], trusted=False)
    assert forge_run({"type": "session:start"}).exit_status == 0
    assert forge_run("{not json").exit_status == 2
    untrusted, error = records(log_file(project))
    assert untrusted["files"][1] == {"scope": "project", "path": str(project.hooks_file), "state": "not run",
                                     "trust": "untrusted", "hooks": 0, "warnings": 0}
    assert "did not run" in untrusted["warnings"][0]
    assert error["decision"] == "error" and error["exit_status"] == 2
    assert error["error"]["kind"] == "invalid_event"


def test_forge_log_0_turns_it_off_and_forge_log_file_moves_it(project: Project, forge_run: ForgeRun,
                                                              tmp_path: Path) -> None:
    assert forge_run({"type": "session:start"}, env={"FORGE_LOG": "0"}).exit_status == 0
    assert not log_file(project).exists()
    moved = tmp_path / "elsewhere" / "deep" / "log.jsonl"
    assert forge_run({"type": "session:start"}, env={"FORGE_LOG_FILE": str(moved)}).exit_status == 0
    assert len(records(moved)) == 1 and not log_file(project).exists()
    assert oct(moved.stat().st_mode & 0o777) == "0o600"  # runs may hold private commands


# -- secrets never reach the file ---------------------------------------------------------
def test_no_secret_reaches_the_file_from_data_output_or_env(project: Project, forge_run: ForgeRun) -> None:
    secret_env = {f"MY_{m}": f"hunter2-{m.lower()}" for m in
                  ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "CREDENTIAL", "AUTH", "COOKIE")}
    text = " ".join(SHAPES.values())
    project.write_hooks([{"event": "*", "env": secret_env, "command": (
        f"echo '{text}'; printf '%s\\n' \"$MY_TOKEN\"; env | grep ^MY_; cat <<'EOF' >&2\n{PEM}\nEOF\nexit 1")}])
    data = {"tool_args": {"command": f"deploy --token hunter2-flag {text}", "password": "hunter2-data"},
            **{name.lower(): value for name, value in secret_env.items()}, "key_file": PEM}
    run = forge_run({**EVENT, "data": data})
    assert run.exit_status == 1
    assert SHAPES["aws"] in run.stdout  # the document itself is not redacted: it is the agent's
    logged = log_file(project).read_text()
    for secret in [*SECRET_PARTS, *secret_env.values(), "hunter2"]:
        assert secret not in logged, secret
    rec = records(log_file(project))[0]
    assert rec["hooks"][0]["env"] == {name: MASK for name in secret_env}
    assert rec["event"]["data"]["tool_args"]["password"] == MASK
    assert "deploy --token" in rec["event"]["data"]["tool_args"]["command"]  # the rest stays readable


@pytest.mark.parametrize("name", sorted(IN_CLEAR))
def test_what_the_log_kept_in_clear_never_reaches_the_file(project: Project, forge_run: ForgeRun,
                                                          tmp_path: Path, name: str) -> None:
    """Issue 20: a hook printing it and the event's data holding it, in clear before."""
    text, secrets = IN_CLEAR[name]
    (tmp_path / "printed").write_text(text)
    project.write_hooks([{"event": "*", "command": f"cat {tmp_path}/printed; exit 1"}])
    run = forge_run({**EVENT, "data": {"tool_args": {"command": text}}})
    assert run.exit_status == 1 and run.json["results"][0]["stdout"] == text  # the agent's document keeps it
    logged = log_file(project).read_text()
    rec = records(log_file(project))[0]
    assert MASK in rec["hooks"][0]["stdout"] and MASK in rec["event"]["data"]["tool_args"]["command"]
    for secret in secrets:
        assert secret not in logged and json.dumps(secret)[1:-1] not in logged, secret


def test_shas_uuids_and_paths_reach_the_file_as_they_are(project: Project, forge_run: ForgeRun,
                                                         tmp_path: Path) -> None:
    text = "\n".join(INNOCENT)
    (tmp_path / "printed").write_text(text)
    project.write_hooks([{"event": "*", "command": f"cat {tmp_path}/printed"}])
    assert forge_run({**EVENT, "data": {"tool_args": {"command": text}}}).exit_status == 0
    rec = records(log_file(project))[0]
    assert rec["hooks"][0]["stdout"] == text and rec["event"]["data"]["tool_args"]["command"] == text


# -- hostile sizes: the run ends, and the record stays bounded ------------------------------------
@pytest.mark.parametrize("size", [1000, 1_000_000])  # 1x and 1000x
def test_huge_fields_of_a_rules_worst_shape_are_logged_in_linear_time(project: Project, forge_run: ForgeRun,
                                                                      tmp_path: Path, size: int) -> None:
    """A session id and a malformed answer whose value the hook's error quotes, in the
    log and under --trace (which redacts the whole reason before it cuts it), each the
    worst input of the URL rule of old: about an hour at 1 MB. The cap (120 s) is orders
    of magnitude above a linear run (about a second) and below a quadratic one: no clock
    is read, and load cannot make it fail (test_redact.py has every rule)."""
    huge = worst("url: a scheme run", size)
    (tmp_path / "malformed").write_text(json.dumps({"decision": huge}))
    project.write_hooks([{"event": "*", "command": f"cat {tmp_path}/malformed"}])
    run = forge_run({**EVENT, "session_id": huge}, "--trace", timeout=120)
    assert run.exit_status == 1, run.stderr[-2000:]
    assert run.json["results"][0]["error"].startswith("malformed answer: 'decision' must be")
    assert "decision deny by project[0]: malformed answer: " in run.stderr  # the trace's last line
    [line] = log_file(project).read_bytes().splitlines()
    assert len(line) < runlog.RECORD_LIMIT


# -- concurrency and rotation ----------------------------------------------------------------
def _start_runs(project: Project, count: int, env: dict[str, str] | None = None) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([installed("forge-hook-run"), "--event", "session:start", "--session-id", f"s{i}"],
                             cwd=project.root, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, env={**os.environ, **(env or {})})
            for i in range(count)]


def _wait_all(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert b"run log" not in err


def test_36_concurrent_runs_write_36_whole_lines(project: Project) -> None:
    # Half the records are small (one plain append), half exceed 4 KiB (append under the lock).
    project.write_hooks([{"event": "*", "command": 'if [ "${FORGE_SESSION_ID#s}" -ge 18 ]; then '
                                                   "seq 1 3000; seq 1 3000 >&2; fi"}] * 3)
    _wait_all(_start_runs(project, 36))
    lines = log_file(project).read_bytes().split(b"\n")
    assert lines[-1] == b""
    recs = [json.loads(line) for line in lines[:-1]]
    assert len(recs) == 36
    assert sorted(r["event"]["session"] for r in recs) == sorted(f"s{i}" for i in range(36))
    assert len({r["pid"] for r in recs}) == 36
    assert sum(len(line) > runlog.ATOMIC_APPEND for line in lines) == 18


def test_rotation_under_a_burst_keeps_three_bounded_files_and_rotates_once(project: Project) -> None:
    path = log_file(project)
    path.parent.mkdir(parents=True)
    filler = json.dumps({"v": 1, "filler": "x" * 1000}) + "\n"
    per_file = runlog.ROTATE_BYTES // len(filler)
    for name, tag in ((f"{path}.2", "oldest"), (f"{path}.1", "older"), (str(path), "current")):
        Path(name).write_text(filler.replace("filler", tag) * (per_file - (tag == "current")))
    project.write_hooks([{"event": "*", "command": "head -c 1000000 /dev/urandom | base64"}])
    _wait_all(_start_runs(project, 12))
    files = sorted(path.parent.glob("runs.jsonl*"))
    assert [f.name for f in files if f.suffix != ".lock"] == ["runs.jsonl", "runs.jsonl.1", "runs.jsonl.2"]
    bound = runlog.ROTATE_BYTES + 12 * runlog.RECORD_LIMIT
    new = 0
    tags = []
    for name in (f"{path}.2", f"{path}.1", str(path)):
        assert os.path.getsize(name) <= bound
        recs = records(Path(name))  # every line parses
        new += sum("hooks" in r for r in recs)
        tags.append({k for r in recs for k in ("oldest", "older", "current") if k in r})
    assert new == 12
    assert tags[0] == {"older"} and tags[1] == {"current"} and tags[2] == set()  # rotated exactly once


def test_append_rotates_at_the_size_given(tmp_path: Path) -> None:
    path = str(tmp_path / "log" / "runs.jsonl")
    for i in range(20):
        runlog.append(path, json.dumps({"n": i}).encode() + b"\n", rotate_bytes=40)
    assert runlog.log_files(path) == [f"{path}.2", f"{path}.1", path]
    kept = [json.loads(line)["n"] for name in runlog.log_files(path) for line in Path(name).read_text().splitlines()]
    assert kept == sorted(kept) and kept[-1] == 19 and len(kept) < 20


# -- a log that cannot be written ----------------------------------------------------------------
@pytest.mark.parametrize("where", ["file where the directory should be", "a device", "read-only directory"])
def test_a_log_that_cannot_be_written_costs_a_warning_never_the_run(project: Project, forge_run: ForgeRun,
                                                                  tmp_path: Path, where: str) -> None:
    (tmp_path / "a-file").write_text("")
    target = {"file where the directory should be": tmp_path / "a-file" / "runs.jsonl",
              "a device": Path("/dev/full"),  # not a regular file: refused before any write
              "read-only directory": Path("/sys/forge-test/runs.jsonl")}[where]  # sysfs: even root may not
    project.write_hooks([{"event": "*", "command": "echo no; exit 1"}])
    run = forge_run(EVENT, env={"FORGE_LOG_FILE": str(target)})
    assert run.exit_status == 1  # the hook's verdict, untouched
    warning = f"the run log {target} cannot be written"
    assert [w for w in run.json["warnings"] if w.startswith(warning)], run.json["warnings"]
    assert run.stderr.count("warning: the run log") == 1
    assert run.json["blocked_by"]["reason"] == "no"


def test_a_write_the_machine_refuses_costs_a_warning_and_no_half_line(project: Project, tmp_path: Path) -> None:
    # RLIMIT_FSIZE 0: the record's write fails with EFBIG as on a full disk (ENOSPC);
    # Python ignores SIGXFSZ, which would otherwise end the runner.
    import resource

    log = tmp_path / "runs.jsonl"
    log.write_text("")
    project.write_hooks([{"event": "*", "command": "echo no; exit 1"}])
    proc = subprocess.run([installed("forge-hook-run"), "--event", "session:start"], cwd=project.root,
                          capture_output=True, timeout=60, env={**os.environ, "FORGE_LOG_FILE": str(log)},
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0)))
    assert proc.returncode == 1
    assert f"the run log {log} cannot be written: File too large" in json.loads(proc.stdout)["warnings"]
    assert log.read_bytes() == b""


@pytest.mark.parametrize("reader", [False, True])
def test_a_fifo_as_the_log_is_refused_with_a_warning_never_a_hang(project: Project, forge_run: ForgeRun,
                                                                  tmp_path: Path, reader: bool) -> None:
    """Issue 20: with no reader the open blocked for ever; with one, the record went
    into the pipe. Now neither: a warning, and the run's own verdict."""
    fifo = tmp_path / "runs.jsonl"
    os.mkfifo(fifo)
    project.write_hooks([{"event": "*", "command": "echo no; exit 1"}])
    read_end = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK) if reader else -1
    try:
        run = forge_run(EVENT, env={"FORGE_LOG_FILE": str(fifo)}, timeout=60)
        if reader:
            try:
                assert os.read(read_end, 1 << 20) == b""  # nothing came through the pipe
            except BlockingIOError:
                pass
    finally:
        if reader:
            os.close(read_end)
    assert run.exit_status == 1 and run.json["blocked_by"]["reason"] == "no"
    warning = f"the run log {fifo} cannot be written: it is a FIFO, not a regular file"
    assert warning in run.json["warnings"] and f"warning: {warning}" in run.stderr


def test_logging_a_run_keeps_the_event_path_lean(project: Project, tmp_path: Path) -> None:
    """A run that matches no hook, logged, loads no process machinery, no tracer, and
    no redaction rule its record does not need."""
    out = tmp_path / "modules.json"
    probe = ("import atexit, json, sys\n"
             "def dump():\n"
             "    rules = [r.compiled is not None for r in sys.modules['forge_hookd.log.redact']._RULES]\n"
             f"    open({str(out)!r}, 'w').write(json.dumps([sorted(sys.modules), rules]))\n"
             "atexit.register(dump)\n"
             "sys.argv = ['forge-hook-run', '--event', 'session:start']\n"
             "from forge_hookd.__main__ import main\nmain()\n")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=project.root, capture_output=True,
                          env={**os.environ, "FORGE_WARM": "0"}, timeout=60)  # in this process, also under --warm
    assert proc.returncode == 0, proc.stderr
    assert len(records(log_file(project))) == 1
    modules, compiled = json.loads(out.read_text())
    loaded = set(modules)
    assert "forge_hookd.log.runlog" in loaded and "forge_hookd.log.redact" in loaded
    assert not loaded & {"psutil", "subprocess", "asyncio", "forge_hookd.log.trace", "fcntl"}
    assert not any(compiled)  # "session:start", a path, a version: no rule was needed


# -- in process ----------------------------------------------------------------------------
def test_log_path_defaults_and_switches(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert runlog.log_path() == f"{tmp_path}/.local/state/forge/runs.jsonl"
    monkeypatch.setenv("FORGE_LOG_FILE", "/x/y.jsonl")
    assert runlog.log_path() == "/x/y.jsonl"
    monkeypatch.setenv("FORGE_LOG", "0")
    assert runlog.log_path() is None and runlog.record({}, runlog.RunContext()) is None


def test_a_big_record_waits_for_the_lock_a_bounded_time(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import fcntl

    path = str(tmp_path / "runs.jsonl")
    monkeypatch.setattr(runlog, "_LOCK_WAIT", 0.05)
    holder = os.open(path + ".lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)  # another process holding it, stopped, say
        with pytest.raises(OSError, match="held by another process"):
            runlog.append(path, b"x" * 5000 + b"\n")
        runlog.append(path, b"small\n")  # one plain append needs no lock
    finally:
        os.close(holder)
    runlog.append(path, b"y" * 5000 + b"\n")
    assert Path(path).read_bytes() == b"small\n" + b"y" * 5000 + b"\n"


def test_record_in_process_turns_refusals_into_a_warning(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("FORGE_LOG_FILE", str(tmp_path / "file" / "runs.jsonl"))
    warning = runlog.record({"event": EVENT, "results": []}, runlog.RunContext())
    assert warning == f"the run log {tmp_path}/file/runs.jsonl cannot be written: Not a directory"
