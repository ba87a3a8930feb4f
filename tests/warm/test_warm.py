"""The resident runner (forge-hook warm, DESIGN.md "Warm runner"), through the installed
executables: each run served warm answers exactly as the cold run does, and whatever
keeps the runner from taking a run makes the run cold, never wrong."""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import psutil
import pytest

import helpers
from forge_hookd.warm import runner as warmd
from helpers import (
    RUNNER_ARGV,
    Project,
    WarmRunner,
    gone,
    idle_runner_status,
    installed,
    kill_and_reap,
    pid_alive,
    read_pids,
    reap_when_ours,
    build_native_client,
    console_script,
    reap_if_ours,
    run_installed,
    short_private_dir,
)

@pytest.fixture(autouse=True, params=["python", "native"])
def client(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here twice: through pip's script (the Python client) and through the
    native client in front of it (forge_hookd/warm/client.c), which must behave the same."""
    native = request.getfixturevalue("native_client") if request.param == "native" else None
    monkeypatch.setattr(helpers, "native_client", native)
    return cast(str, request.param)


EVENT = {"type": "tool:pre_execute", "tool_name": "bash", "timestamp": 1763700000.5,
         "session_id": "s1", "data": {"tool_args": {"command": "ls"}}}
COLD = {"FORGE_WARM": "0"}


@pytest.fixture
def warm_dir() -> Iterator[Path]:
    directory = short_private_dir("fw-")
    yield directory
    for leftover in directory.iterdir():
        leftover.unlink()
    directory.rmdir()


@pytest.fixture
def runner(warm_dir: Path, isolated_home: Path) -> Iterator[WarmRunner]:
    started = WarmRunner.start(warm_dir, {"XDG_STATE_HOME": str(isolated_home / ".local/state")})
    yield started
    started.stop()


def warm_env(directory: Path, **extra: str) -> dict[str, str]:
    """A client's environment pointing at ``directory``; it may run cold (not required)."""
    return {"FORGE_WARM_DIR": str(directory), "FORGE_WARM_REQUIRED": "0", **extra}


def without_durations(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_durations(v) for k, v in value.items() if k != "duration"}
    if isinstance(value, list):
        return [without_durations(v) for v in value]
    return value


def timeless(doc: Any) -> Any:
    """A document without what differs between two runs of one event: durations, and
    the timestamp given to an event that brought none."""
    doc = without_durations(doc)
    if isinstance(doc.get("event"), dict):
        doc["event"] = {k: v for k, v in doc["event"].items() if k != "timestamp"}
    return doc


def start_client(project: Project, env: dict[str, str], *args: str,
                 event: dict[str, Any] | None = None) -> subprocess.Popen[bytes]:
    """The installed client, its event on stdin from a file (all there at once)."""
    source = project.root.parent / f"event-{time.monotonic_ns()}.json"
    source.write_text(json.dumps(event or EVENT))
    with source.open("rb") as stdin:
        return subprocess.Popen([installed("forge-hook-run"), *args], cwd=project.root, env={**os.environ, **env},
                                stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for(path: Path, proc: subprocess.Popen[bytes] | None = None, within: float = 60) -> None:
    deadline = time.monotonic() + within
    while not (path.exists() and path.read_text().strip()):
        assert proc is None or proc.poll() is None, "the run ended before its hook started"
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


# -- on, off, status ------------------------------------------------------------------
def test_warm_on_status_off_through_forge_hook(project: Project, warm_dir: Path, isolated_home: Path) -> None:
    env = warm_env(warm_dir)
    down = run_installed(["warm", "status", "--json"], cwd=project.root, env=env, prog="forge-hook")
    assert down.exit_status == 1 and json.loads(down.stdout)["state"] == "down"
    on = run_installed(["warm", "on", "--json"], cwd=project.root, env=env, prog="forge-hook")
    assert on.exit_status == 0, on.stderr
    up = json.loads(on.stdout)
    try:
        assert up["state"] == "up" and up["enabled"] and not up["stale"] and pid_alive(up["pid"])
        assert up["socket"] == str(warm_dir / "runner.sock")
        assert run_installed([], cwd=project.root, stdin=json.dumps(EVENT), env=env).exit_status == 0
        assert idle_runner_status(warm_dir)["served"] == 1
        status = run_installed(["warm", "status"], cwd=project.root, env=env, prog="forge-hook")
        assert status.exit_status == 0
        assert "warm: up" in status.stdout and "served:   1 run " in status.stdout, status.stdout
        assert f"pid:      {up['pid']}" in status.stdout
    finally:
        off = run_installed(["warm", "off"], cwd=project.root, env=env, prog="forge-hook")
    assert off.exit_status == 0 and f"stopped the resident runner (pid {up['pid']}, served 1)" in off.stdout
    assert gone(up["pid"])
    reap_if_ours(up["pid"])
    after = json.loads(run_installed(["warm", "status", "--json"], cwd=project.root, env=env,
                                     prog="forge-hook").stdout)
    assert after["state"] == "down" and not after["enabled"]
    log = (isolated_home / ".local/state/forge/warm.log").read_text()
    assert f"[{up['pid']}] started: pid {up['pid']}" in log
    assert f"[{up['pid']}] stopped: asked to stop (forge-hook warm off); served 1 run" in log


def test_client_starts_the_runner_again_when_on(project: Project, warm_dir: Path) -> None:
    env = warm_env(warm_dir)
    first = json.loads(run_installed(["warm", "on", "--json"], cwd=project.root, env=env, prog="forge-hook").stdout)
    try:
        spares = [p.pid for p in psutil.Process(first["pid"]).children()]
        kill_and_reap(first["pid"])  # a crash
        assert gone(first["pid"], *spares)
        for pid in [first["pid"], *spares]:
            reap_if_ours(pid)
        cold = run_installed(["--trace"], cwd=project.root, stdin=json.dumps(EVENT), env=env)
        assert cold.exit_status == 0 and "warm: no resident runner" in cold.stderr
        deadline = time.monotonic() + 60  # started in the background by that client
        while (now := json.loads(run_installed(["warm", "status", "--json"], cwd=project.root, env=env,
                                               prog="forge-hook").stdout))["state"] != "up":
            assert time.monotonic() < deadline, "the client did not start the runner again"
            time.sleep(0.05)
        assert now["pid"] != first["pid"] and now["served"] == 0
    finally:
        last = json.loads(run_installed(["warm", "off", "--json"], cwd=project.root, env=env, prog="forge-hook").stdout)
        if "pid" in last:
            assert gone(last["pid"])
            reap_if_ours(last["pid"])


# -- exactly the cold run -------------------------------------------------------------------
def test_cwd_env_umask_and_stdin_are_the_clients(project: Project, runner: WarmRunner) -> None:
    sub = project.root / "sub dir"
    sub.mkdir()
    project.write_hooks([{"event": "*", "command":
                          'printf "%s|%s|%s|" "$(pwd)" "$PROBE" "$(umask)"; cat; '
                          'test -t 0 && echo tty || echo notty'}])
    served = runner.served
    docs = []
    for extra in ({}, COLD):
        proc = subprocess.run(["sh", "-c", f'umask 027; exec "{installed("forge-hook-run")}" --project-root "$1"',
                               "sh", str(project.root)], cwd=sub, input=json.dumps(EVENT).encode(),
                              capture_output=True, env={**os.environ, **warm_env(runner.directory, PROBE="p r\u00f6be"),
                                                        **extra})
        assert proc.returncode == 0, proc.stderr
        docs.append(json.loads(proc.stdout))
    warm, cold = docs
    out = warm["results"][0]["stdout"]
    assert out.startswith(f"{project.root}|p r\u00f6be|0027|{{") and out.endswith("}notty\n"), out
    assert without_durations(warm) == without_durations(cold)
    assert runner.served == served + 1


def test_a_blocking_hook_answers_as_cold(project: Project, runner: WarmRunner) -> None:
    project.write_hooks([{"event": "tool:pre_execute", "command": "echo nope >&2; exit 3"}])
    runs = [run_installed(["--trace"], cwd=project.root, stdin=json.dumps(EVENT), env={**warm_env(runner.directory), **e})
            for e in ({}, COLD)]
    assert [r.exit_status for r in runs] == [1, 1]
    assert without_durations(runs[0].json) == without_durations(runs[1].json)
    timeless = [re.sub(r"[0-9.]+ s\b", "N s", r.stderr) for r in runs]
    assert timeless[0] == timeless[1]
    assert "warm:" not in runs[0].stderr  # served warm: no note


def test_nested_run_is_a_circular_trigger_warm(project: Project, runner: WarmRunner, tmp_path: Path) -> None:
    exe = installed("forge-hook-run")
    project.write_hooks([{"event": "tool:pre_execute",
                          "command": f'"{exe}" --project-root "$FORGE_PROJECT_DIR" > "{tmp_path}/inner.json"'}])
    run = run_installed([], cwd=project.root, stdin=json.dumps(EVENT), env=warm_env(runner.directory))
    assert run.exit_status == 0, run.stderr
    inner = json.loads((tmp_path / "inner.json").read_text())
    assert "circular trigger" in inner["warnings"][0]
    assert runner.served == 2


# -- what makes a run cold ---------------------------------------------------------------------
def test_stale_runner_means_a_cold_run(project: Project, warm_dir: Path, tmp_path: Path, isolated_home: Path) -> None:

    import forge_hookd

    other = tmp_path / "other"  # another installation of forge: another key
    shutil.copytree(Path(forge_hookd.__file__).parent, other / "forge_hookd")
    stale = WarmRunner.start(warm_dir, {"PYTHONPATH": str(other), "XDG_STATE_HOME": str(isolated_home / "s")})
    try:
        run = run_installed(["--trace"], cwd=project.root, stdin=json.dumps(EVENT), env=warm_env(warm_dir))
        assert run.exit_status == 0 and run.json["decision"] == "allow"
        assert "warm: the resident runner refused: stale" in run.stderr
        assert stale.served == 0
        required = run_installed([], cwd=project.root, stdin=json.dumps(EVENT),
                                 env={**warm_env(warm_dir), "FORGE_WARM_REQUIRED": "1"})
        assert required.exit_status == 3 and "FORGE_WARM_REQUIRED=1" in required.json["error"]["message"]
    finally:
        stale.stop()


def test_socket_dir_open_to_others_is_refused(project: Project, warm_dir: Path) -> None:
    warm_dir.chmod(0o755)
    started = subprocess.run(RUNNER_ARGV, capture_output=True, text=True,
                             env={**os.environ, "FORGE_WARM_DIR": str(warm_dir)}, timeout=60)
    assert started.returncode == 2 and "is open to others (mode 755, not 700)" in started.stderr
    assert not (warm_dir / "runner.sock").exists()
    run = run_installed(["--trace"], cwd=project.root, stdin=json.dumps(EVENT), env=warm_env(warm_dir))
    assert run.exit_status == 0 and "is open to others" in run.stderr and "running cold" in run.stderr


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to give a directory to another user")
def test_socket_dir_of_another_owner_is_refused(project: Project, runner: WarmRunner) -> None:
    os.chown(runner.directory, 65534, 65534)
    try:
        run = run_installed(["--trace"], cwd=project.root, stdin=json.dumps(EVENT), env=warm_env(runner.directory))
        assert run.exit_status == 0 and "belongs to uid 65534" in run.stderr
        assert runner.served == 0
    finally:
        os.chown(runner.directory, 0, 0)


@pytest.mark.skipif(os.getuid() != 0 or not os.path.exists("/usr/bin/setpriv"),
                    reason="needs root and setpriv to connect as another user (nobody)")
def test_a_peer_of_another_uid_is_refused(runner: WarmRunner, isolated_home: Path) -> None:
    # Open the door for the test only: the directory and socket are the first line of
    # defence; the peer's uid (SO_PEERCRED) is the second, tested here.
    runner.directory.chmod(0o711)
    (runner.directory / "runner.sock").chmod(0o666)
    probe = ("import socket, sys\ns = socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\n"
             "try:\n    s.sendall(b'\\0\\0\\0\\x05hello')\n    print(repr(s.recv(100)))\n"
             "except (BrokenPipeError, ConnectionResetError):\n    print(repr(b''))")
    out = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-I", "-c",
                          probe, str(runner.directory / "runner.sock")], capture_output=True, text=True, timeout=60)
    runner.directory.chmod(0o700)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "b''"  # closed, unanswered
    assert runner.served == 0
    log = (isolated_home / ".local/state/forge/warm.log").read_text()
    assert "refused a connection from uid 65534" in log


def copied_install(tmp_path: Path, client: str) -> tuple[Path, str]:
    """A second installation of forge (the package copied under ``tmp_path/copy``) and
    its forge-hook-run: a launcher as install.sh writes one, and, for the native client,
    the native client built by that installation in front of it."""

    import forge_hookd

    parent = tmp_path / "copy"
    shutil.copytree(Path(forge_hookd.__file__).parent, parent / "forge_hookd")
    # Compiled, as pip compiles an install: a cold run then writes nothing beside the modules.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(parent)], check=True, timeout=120)
    paths = [str(parent), *(p for p in sys.path if p and "forge_hookd" not in p)]
    (tmp_path / "copy-bin").mkdir()
    for name, entry in (("forge-hook-run", "forge_hookd.__main__"), ("forge-hook", "forge_hookd.cli.manage")):
        launcher = tmp_path / "copy-bin" / name
        launcher.write_text(f"#!{sys.executable} -IS\nimport sys\nsys.path[:0] = {paths!r}\n"
                            f"from {entry} import main\nsys.exit(main())\n")
        launcher.chmod(0o755)
    launcher = tmp_path / "copy-bin" / "forge-hook-run"
    if client == "python":
        return parent, str(launcher)
    native = tmp_path / "copy-bin" / "forge-hook-run-native"
    subprocess.run([sys.executable, "-I", "-S", "-c", f"import sys; sys.path[:0] = {paths!r}\n"
                    "from forge_hookd.warm.build import main; sys.exit(main())", str(native), "--cold", str(launcher)],
                   check=True, timeout=120)
    return parent, str(native)


def test_two_installs_each_have_their_own_runner(project: Project, tmp_path: Path, client: str) -> None:
    """Issue 33, item 3: one socket per user made a second install (another prefix, a
    test run) find the first's runner stale, run cold, and stop it with its warm off.
    Now each install has its own directory and mark, in the default place."""
    parent, copy_run = copied_install(tmp_path, client)
    runtime = short_private_dir("fw-rt-")
    # The default place is the point: not the session runner's directory under --warm.
    env = {**{k: v for k, v in os.environ.items() if k not in ("FORGE_WARM_DIR", "FORGE_WARM_REQUIRED")},
           "XDG_RUNTIME_DIR": str(runtime)}
    ours_manage, copy_manage = [console_script("forge-hook")], [str(tmp_path / "copy-bin" / "forge-hook")]
    pids: list[int] = []

    def manage(command: list[str], *args: str) -> dict[str, Any]:
        done = subprocess.run([*command, "warm", *args, "--json"], cwd=project.root, capture_output=True,
                              timeout=120, env=env)
        return cast(dict[str, Any], json.loads(done.stdout))

    def event(exe: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([exe, "--trace", "--event", "session:start"], cwd=project.root, capture_output=True,
                              timeout=60, env={**env, "FORGE_WARM_REQUIRED": "1"})

    try:
        for command in (ours_manage, copy_manage):
            up = manage(command, "on")
            assert up["state"] == "up", up
            pids.append(up["pid"])
        assert pids[0] != pids[1] and pid_alive(pids[0]) and pid_alive(pids[1])
        for exe in (installed("forge-hook-run"), copy_run):
            done = event(exe)
            assert done.returncode == 0 and b"warm:" not in done.stderr, done.stderr  # served, by its own runner
        assert [manage(c, "status")["served"] for c in (ours_manage, copy_manage)] == [1, 1]
        off = manage(copy_manage, "off")
        assert off["pid"] == pids[1] and gone(pids[1])
        ours = manage(ours_manage, "status")
        assert ours["state"] == "up" and ours["pid"] == pids[0] and ours["enabled"]
        assert event(installed("forge-hook-run")).returncode == 0
    finally:
        manage(ours_manage, "off")
        manage(copy_manage, "off")
        assert gone(*pids)
        for pid in pids:
            reap_if_ours(pid)
        shutil.rmtree(runtime)


def test_a_module_replaced_on_disk_makes_the_runner_stale(
        project: Project, warm_dir: Path, tmp_path: Path, isolated_home: Path, client: str) -> None:
    """Issue 33, item 6: guards/rm.py replaced by write-then-rename (as git checkout, as
    an upgrade) leaves the package directory's inode and mtime alone; the runner served
    the old guard (warm allowed what cold denied). Now the next run is cold and denies."""
    parent, exe = copied_install(tmp_path, client)
    stale = WarmRunner.start(warm_dir, {"PYTHONPATH": str(parent), "XDG_STATE_HOME": str(isolated_home / "s")})
    try:
        project.write_hooks([{"event": "tool:pre_execute", "guard": "destructive_rm"}])
        event = {**EVENT, "data": {"tool_args": {"command": "rm -rf /tmp/forge-test-nothing"}}}

        def run() -> subprocess.CompletedProcess[bytes]:
            return subprocess.run([exe, "--trace"], cwd=project.root, input=json.dumps(event).encode(),
                                  capture_output=True, timeout=60, env={**os.environ, **warm_env(warm_dir)})

        before = run()
        assert before.returncode == 0 and b"warm:" not in before.stderr, before.stderr
        assert stale.served == 1
        # A directory made beside the modules (an interpreter run with -I makes its
        # __pycache__ where PYTHONDONTWRITEBYTECODE kept it out) changes no module.
        (parent / "forge_hookd/guards/__pycache__.new").mkdir()
        again = run()
        assert again.returncode == 0 and b"warm:" not in again.stderr, again.stderr
        assert stale.served == 2
        guard = parent / "forge_hookd/guards/rm.py"
        replacement = guard.with_name("rm.py.new")
        replacement.write_text(guard.read_text().replace('["/tmp", ', '['))  # /tmp no longer allowed
        os.replace(replacement, guard)
        after = run()
        assert after.returncode == 1 and json.loads(after.stdout)["decision"] == "deny", after.stderr
        assert b"warm: the resident runner refused: stale: a module the resident runner loaded changed" \
               in after.stderr or b"warm: no resident runner" in after.stderr, after.stderr
        assert stale.proc.wait(timeout=60) == 0  # it retired
        log = (isolated_home / "s/forge/warm.log").read_text()
        assert "stopped: stale: the installed forge changed; served 2 runs" in log
    finally:
        stale.stop()


def test_runner_crash_means_a_cold_run(project: Project, runner: WarmRunner) -> None:
    spares = [p.pid for p in psutil.Process(runner.proc.pid).children()]
    runner.kill()  # the socket file stays behind, nobody listening
    assert gone(*spares)  # a spare sees its line to the runner close, and exits
    for pid in spares:
        reap_if_ours(pid)
    assert (runner.directory / "runner.sock").exists()
    run = run_installed(["--trace"], cwd=project.root, stdin=json.dumps(EVENT), env=warm_env(runner.directory))
    assert run.exit_status == 0 and run.json["decision"] == "allow"
    assert "warm: no resident runner (Connection refused); running cold" in run.stderr


# -- the caller's confinement (issue 33, item 1) ----------------------------------------
def confining(*command: str) -> list[str]:
    """``command``, or a loud skip where this machine does not allow it."""
    if shutil.which(command[0]) is None:
        pytest.skip(f"CONFINEMENT TEST SKIPPED: {command[0]} is not installed")
    tried = subprocess.run([*command, "true"], capture_output=True, text=True, timeout=60)
    if tried.returncode != 0:
        pytest.skip(f"CONFINEMENT TEST SKIPPED: this machine refuses {' '.join(command)}: {tried.stderr.strip()}")
    return list(command)


def test_a_client_without_privileges_is_not_served_with_the_runners(project: Project, runner: WarmRunner) -> None:
    """Under setpriv --no-new-privs --bounding-set=-all a cold hook sees NoNewPrivs 1 and
    no capability; a warm one saw the runner's full set. Now the run is cold, in the
    client's confinement, and warm status counts it."""
    setpriv = confining("setpriv", "--no-new-privs", "--bounding-set=-all")
    project.write_hooks([{"event": "*", "command": "grep -E '^(NoNewPrivs|CapBnd|CapEff)' /proc/self/status"}])
    runs = [subprocess.run([*setpriv, installed("forge-hook-run"), "--trace", "--event", "session:start"],
                           cwd=project.root, capture_output=True, timeout=60,
                           env={**os.environ, **warm_env(runner.directory), **extra}) for extra in ({}, COLD)]
    seen = [json.loads(run.stdout)["results"][0]["stdout"] for run in runs]
    assert seen[0] == seen[1] and "NoNewPrivs:\t1" in seen[0] and "CapEff:\t0000000000000000" in seen[0], seen
    assert b"warm: the resident runner refused: the client's security context is not the resident runner's" \
        in runs[0].stderr, runs[0].stderr
    status = cast(dict[str, Any], runner.status())
    assert status["refused"] == 1 and status["served"] == 0


def test_a_client_in_its_own_namespaces_is_not_served_in_the_runners(project: Project, runner: WarmRunner,
                                                                      tmp_path: Path) -> None:
    """Under unshare -m with a tmpfs over a directory, a warm hook wrote to the host's
    directory. Now the run is cold, and writes where the client sees it."""
    unshare = confining("unshare", "-Urm")
    shadowed = tmp_path / "shadowed"
    shadowed.mkdir()
    project.write_hooks([{"event": "*", "command": f'echo hook > "{shadowed}/written"'}])
    script = f'mount -t tmpfs none "{shadowed}" && exec "{installed("forge-hook-run")}" --trace --event session:start'
    run = subprocess.run([*unshare, "sh", "-c", script], cwd=project.root, capture_output=True, timeout=60,
                         env={**os.environ, **warm_env(runner.directory)})
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["results"][0]["exit_code"] == 0
    assert list(shadowed.iterdir()) == []  # written under the client's tmpfs, gone with it
    assert b"warm: the resident runner refused: the client's security context is not the resident runner's" \
        in run.stderr, run.stderr
    assert runner.served == 0


# -- what a worker inherits (issue 33, item 2) ------------------------------------------
def test_a_killed_runner_is_started_again_while_its_worker_runs(
        project: Project, warm_dir: Path, tmp_path: Path, isolated_home: Path) -> None:
    """runner.lock lived on in every worker (a flock lives while any descriptor of it
    does): a killed runner could not be started again until the long run ended."""
    env = {"XDG_STATE_HOME": str(isolated_home / ".local/state")}
    first = WarmRunner.start(warm_dir, env)
    sleeper_hooks(project, tmp_path / "pids")
    proc = start_client(project, warm_env(warm_dir))
    try:
        wait_for(tmp_path / "pids/hook.pid", proc)
        pids = read_pids(tmp_path / "pids")
        worker = psutil.Process(pids["hook"]).ppid()
        # Stopped first, so that it forks no spare between the listing and the kill: one
        # that did was an orphan nobody listed, and pytest's zombie once it exited.
        os.kill(first.proc.pid, signal.SIGSTOP)
        spares = [p.pid for p in psutil.Process(first.proc.pid).children() if p.pid != worker]
        first.kill()
        second = WarmRunner.start(warm_dir, env)  # before: it found the lock held, and exited 0
        try:
            assert second.proc.pid != first.proc.pid and proc.poll() is None
            assert run_installed([], cwd=project.root, stdin=json.dumps({**EVENT, "type": "session:start"}),
                                 env=warm_env(warm_dir)).exit_status == 0
            assert second.served == 1
        finally:
            second.stop()
    finally:
        proc.send_signal(signal.SIGTERM)  # relayed to the orphaned worker, which answers
        proc.communicate(timeout=60)
    assert proc.returncode == 143
    assert gone(worker, *spares, *pids.values())
    # The first runner is gone, so the worker, its spares and the hook's processes (a
    # zombie still the exiting worker's, later) reparent to this process once an
    # in-process test made it a subreaper.
    reap_when_ours(worker, *spares, *pids.values())


def test_a_report_to_the_clients_own_descriptor_is_written_as_cold(project: Project, runner: WarmRunner,
                                                                    tmp_path: Path) -> None:
    """--report /dev/fd/3 named the worker's descriptor 3: the document was lost, exit 0.
    Such a run is the client's own (cold), and writes where the cold run writes."""
    payload = {"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash",
               "tool_input": {"command": "ls"}, "cwd": str(project.root)}
    reports: list[Any] = []
    for extra in ({}, COLD):
        report = tmp_path / f"report-{len(reports)}.json"
        proc = subprocess.run(["sh", "-c", f'exec 3> "{report}"; exec "{installed("forge-hook-run")}" --trace '
                               '--dialect claude --report /dev/fd/3'], cwd=project.root, capture_output=True,
                              input=json.dumps(payload).encode(), timeout=60,
                              env={**os.environ, **warm_env(runner.directory), **extra})
        assert proc.returncode == 0, proc.stderr
        reports.append(json.loads(report.read_text()))
        if not extra:
            assert b"warm: the resident runner refused: '/dev/fd/3' names the client's own" in proc.stderr
    assert timeless(reports[0]) == timeless(reports[1])
    assert reports[0]["decision"] == "allow"
    assert runner.status()["refused"] == 1 and runner.served == 0  # type: ignore[index]


def test_a_config_fifo_is_answered_as_cold(project: Project, runner: WarmRunner) -> None:
    os.mkfifo(project.root / "fifo.json")
    runs = [run_installed(["--config", "fifo.json", "--event", "session:start"], cwd=project.root,
                          env={**warm_env(runner.directory), **extra}, timeout=30) for extra in ({}, COLD)]
    assert [r.exit_status for r in runs] == [0, 0]
    assert timeless(runs[0].json) == timeless(runs[1].json)
    assert runs[0].json["warnings"] == ["fifo.json: not read: it is a FIFO, not a regular file"]
    assert runs[0].stderr == runs[1].stderr
    assert runner.served == 1


# -- bounded waits (issue 33, item 4) -----------------------------------------------------
def test_a_stopped_runner_costs_a_cold_run_not_a_hang(project: Project, runner: WarmRunner) -> None:
    """The runner and its spares stopped (SIGSTOP to its process group): nobody accepts.
    The client waited for ever (timeout 8 ran 647 s); now it runs cold."""
    served = runner.served
    os.killpg(runner.proc.pid, signal.SIGSTOP)
    try:
        run = run_installed(["--trace"], cwd=project.root, stdin=json.dumps(EVENT), env=warm_env(runner.directory),
                            timeout=30)
    finally:
        os.killpg(runner.proc.pid, signal.SIGCONT)
    assert run.exit_status == 0 and run.json["decision"] == "allow", run.stderr
    assert "warm: the resident runner did not answer within 50 ms; running cold" in run.stderr
    assert runner.served == served  # the spare that accepts the abandoned connection later serves nothing
    assert run_installed([], cwd=project.root, stdin=json.dumps(EVENT), env=warm_env(runner.directory)).exit_status == 0
    assert runner.served == served + 1


def test_a_socket_that_listens_and_never_answers_costs_a_cold_run(project: Project, warm_dir: Path) -> None:
    with stand_in_runner(warm_dir):  # never accepted, no control socket
        run = run_installed(["--trace"], cwd=project.root, stdin=json.dumps(EVENT), env=warm_env(warm_dir),
                            timeout=30)
    assert run.exit_status == 0 and run.json["decision"] == "allow", run.stderr
    assert "warm: the resident runner did not answer within 50 ms; running cold" in run.stderr


def test_a_run_queued_behind_others_waits_for_its_worker(project: Project, runner: WarmRunner) -> None:
    """No spare accepts (they are stopped: as busy as can be) but the runner answers: the
    client waits, asking the runner now and then, and is served warm when a spare is free."""
    served = runner.served
    spares = [p.pid for p in psutil.Process(runner.proc.pid).children()]
    for pid in spares:
        os.kill(pid, signal.SIGSTOP)
    try:
        proc = start_client(project, warm_env(runner.directory), "--trace")
        deadline = time.monotonic() + 60
        while cast(dict[str, Any], runner.status())["pinged"] < 3:  # evidence: it waited, and asked
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.02)
    finally:
        for pid in spares:
            os.kill(pid, signal.SIGCONT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and json.loads(out)["decision"] == "allow", err
    assert b"warm:" not in err
    assert runner.served == served + 1


# -- signals and clients that go away ---------------------------------------------------------
def sleeper_hooks(project: Project, pids: Path) -> None:
    pids.mkdir()
    project.write_hooks([{"event": "tool:pre_execute", "timeout": 120, "command":
                          f'sleep 300 & echo $! > "{pids}/child.pid"; echo $$ > "{pids}/hook.pid"; wait'}])


def test_sigterm_to_the_client_is_answered_as_cold(project: Project, runner: WarmRunner, tmp_path: Path) -> None:
    sleeper_hooks(project, tmp_path / "pids")
    proc = start_client(project, warm_env(runner.directory))
    wait_for(tmp_path / "pids/hook.pid", proc)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    doc = json.loads(out)
    assert doc["interrupted"] == "SIGTERM" and doc["results"][0]["error"].startswith("interrupted")
    assert b"interrupted by SIGTERM: running hooks were ended" in err
    assert gone(*read_pids(tmp_path / "pids").values())
    assert runner.served == 1


def test_a_sigkilled_client_ends_its_runs_trees(project: Project, runner: WarmRunner, tmp_path: Path) -> None:
    sleeper_hooks(project, tmp_path / "pids")
    proc = start_client(project, warm_env(runner.directory))
    wait_for(tmp_path / "pids/child.pid", proc)
    pids = read_pids(tmp_path / "pids")
    proc.kill()  # an agent's own hook timeout
    proc.communicate(timeout=60)
    assert gone(*pids.values())
    deadline = time.monotonic() + 60
    while runner.status()["running"]:  # type: ignore[index]
        assert time.monotonic() < deadline
        time.sleep(0.02)


@pytest.mark.parametrize("sig", [signal.SIGUSR1, signal.SIGRTMIN + 3], ids=["SIGUSR1", "SIGRTMIN+3"])
def test_every_ending_signal_is_relayed_and_answered_as_cold(
        project: Project, runner: WarmRunner, tmp_path: Path, sig: int) -> None:
    """A cold run answers every signal that would end it (signals.py) with its document
    and 128+n: so does the warm run, the signal relayed to its worker."""
    from forge_hookd.run.signals import name_of

    sleeper_hooks(project, tmp_path / "pids")
    proc = start_client(project, warm_env(runner.directory))
    wait_for(tmp_path / "pids/child.pid", proc)
    pids = read_pids(tmp_path / "pids")
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, err
    doc = json.loads(out)
    assert doc["interrupted"] == name_of(sig) and doc["results"][0]["error"].startswith("interrupted")
    assert f"interrupted by {name_of(sig)}: running hooks were ended".encode() in err
    assert gone(*pids.values())
    assert runner.served == 1


def test_a_worker_killed_mid_run_fails_closed(project: Project, runner: WarmRunner, tmp_path: Path) -> None:
    sleeper_hooks(project, tmp_path / "pids")
    proc = start_client(project, warm_env(runner.directory), "--dialect", "claude",
                        event={"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash",
                               "tool_input": {"command": "ls"}, "cwd": str(project.root)})
    wait_for(tmp_path / "pids/hook.pid", proc)
    pids = read_pids(tmp_path / "pids")
    worker = psutil.Process(pids["hook"]).ppid()
    os.kill(worker, signal.SIGKILL)
    out, err = proc.communicate(timeout=60)
    # Claude's deny of a call forge could not check: exit 2, the reason on stderr
    # (hooks are not run again: they may have had their effects; stdin is spent).
    assert proc.returncode == 2 and out == b""
    assert b"could not check this call: the resident runner's worker was killed by SIGKILL" in err
    assert gone(*pids.values())



def test_a_run_that_cannot_be_warm_fails_through_the_codec_its_command_line_chooses(
        project: Project, warm_dir: Path, tmp_path: Path) -> None:
    """FORGE_WARM_REQUIRED=1 and no runner: answered as a cold run answers an internal
    error, by the codec the command line chooses (forge's, quiet with -q; Claude's
    deny with forge's error in --report), and logged as a failed run."""
    env = {**warm_env(warm_dir), "FORGE_WARM_REQUIRED": "1"}
    quiet = run_installed(["-q"], cwd=project.root, stdin=json.dumps(EVENT), env=env)
    assert quiet.exit_status == 3 and quiet.stdout == ""
    assert "forge-hook-run: error: a resident runner is required (FORGE_WARM_REQUIRED=1) but: " in quiet.stderr
    report = tmp_path / "report.json"
    payload = {"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash",
               "tool_input": {"command": "ls"}, "cwd": str(project.root)}
    claude = run_installed(["--data", "--dialect", "--dialect=claude", "--report", str(report)],
                           cwd=project.root, stdin=json.dumps(payload), env=env)
    assert claude.exit_status == 2 and claude.stdout == ""  # Claude's deny of a call forge could not check
    assert "could not check this call: a resident runner is required (FORGE_WARM_REQUIRED=1)" in claude.stderr
    assert json.loads(report.read_text())["error"]["kind"] == "internal"
    logged = [json.loads(line) for line in (project.home / ".local/state/forge/runs.jsonl").read_text().splitlines()]
    assert [record["exit_status"] for record in logged] == [3, 3]  # as a cold run logs an internal error


def test_the_codec_of_a_broken_run_is_read_from_the_command_line() -> None:
    """What a cold run's option parsing would choose: an option's value is skipped with
    it, the last of a repeated option counts, nothing after ``--`` is an option."""
    from forge_hookd.cli.run import codec_for
    from forge_hookd.run.codec import ForgeCodec
    from forge_hookd.run.dialectcodec import DialectCodec

    codec = codec_for(["--dialect", "copilot:preToolUse", "--report=r.json", "--config", "--dialect"])
    assert isinstance(codec, DialectCodec) and (codec.name, codec.native_event, codec.report) == \
        ("copilot", "preToolUse", "r.json")
    for argv in (["--data", "--dialect", "claude"], ["--", "--dialect", "claude"], []):
        assert isinstance(codec_for(argv), ForgeCodec), argv
    quiet = codec_for(["--event", "-q", "--quiet", "--pretty"])
    assert isinstance(quiet, ForgeCodec) and quiet.quiet and quiet.pretty
    assert not cast(ForgeCodec, codec_for(["--event", "-q"])).quiet

# -- many at once, nothing leaked ----------------------------------------------------------------
def test_concurrent_clients_are_served_side_by_side(project: Project, runner: WarmRunner, tmp_path: Path) -> None:
    meet = tmp_path / "meet"
    meet.mkdir()
    n = 4
    # Each hook waits until all n hooks have started: only runs served at once can pass.
    project.write_hooks([{"event": "tool:pre_execute", "timeout": 60, "command":
                          f'touch "{meet}/$$"; while [ "$(ls "{meet}" | wc -l)" -lt {n} ]; do sleep 0.05; done'}])
    procs = [start_client(project, warm_env(runner.directory), "--trace") for _ in range(n)]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert json.loads(out)["decision"] == "allow"
        assert b"warm:" not in err, err
    assert runner.served == n


def test_the_runner_leaks_no_descriptor_over_100_runs(project: Project, runner: WarmRunner) -> None:
    project.write_hooks([{"event": "tool:pre_execute", "command": "echo hi; echo there >&2"}])

    def fds() -> int:
        assert runner.served >= 0  # waits until no run is going: its connection is closed then
        return len(os.listdir(f"/proc/{runner.proc.pid}/fd"))

    run_installed([], cwd=project.root, stdin=json.dumps(EVENT), env=warm_env(runner.directory))
    before = fds()
    for _ in range(100):
        assert run_installed([], cwd=project.root, stdin=json.dumps(EVENT),
                             env=warm_env(runner.directory)).exit_status == 0
    assert fds() == before
    assert runner.served == 101
    spares = psutil.Process(runner.proc.pid).children()  # forked ahead, waiting: nothing else
    assert len(spares) == warmd.SPARES and not any(p.children() for p in spares)


_SPARE_RACE = """
import os, socket, sys, time
from forge_hookd.warm import runner as warmd
r = warmd.Runner(sys.argv[1])
ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
client, conn = socket.socketpair()
spare = os.fork()
if spare == 0:  # a spare: takes the run (T and the connection), serves it, says X, exits
    theirs.sendmsg([b"T"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, conn.fileno().to_bytes(4, sys.byteorder))])
    conn.sendall(b"X 0\\n")
    os._exit(0)
theirs.close()
conn.close()
r.spares[spare] = ours
r.selector.register(ours, 1, lambda: r._from_spare(spare, ours))
while open(f"/proc/{spare}/stat").read().rsplit(")", 1)[1].split()[0] != "Z":  # dead, not reaped
    time.sleep(0.01)
r._reap()  # as after a select that returned before the spare's T came
client.settimeout(10)
print(r.served, spare in r.spares, r.next_spare <= time.monotonic(), client.recv(4))
"""


_PINGS_IN_ONE_TURN = """
import socket, sys
from forge_hookd.warm import runner as warmd
r = warmd.Runner(sys.argv[1])
r._listen()
clients = []
for _ in range(20):  # clients whose runs queue, each asking whether the runner lives
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.connect(r.control_path)
    c.sendall(b"ping\\n")
    clients.append(c)
r._accept_control()  # one turn of the loop
answers = []
for c in clients:
    try:
        answers.append(c.recv(16, socket.MSG_DONTWAIT))
    except BlockingIOError:
        answers.append(b"")
print(answers.count(b"pong\\n"), r.pinged)
"""


def test_every_waiting_ping_is_answered_in_one_turn(tmp_path: Path) -> None:
    """32 clients on 2 cores: their pings waited one a turn (a turn forks a spare) past
    ALIVE_WAIT_MS, and 74 of 512 events went cold (bench/concurrency.py; issue 33, item
    4: queueing is not a reason to go cold). Every ping waiting is answered in the turn."""
    done = subprocess.run([sys.executable, "-c", _PINGS_IN_ONE_TURN, str(tmp_path)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["20", "20"]


def test_a_spare_that_served_a_run_before_the_runner_read_its_word_is_counted(tmp_path: Path) -> None:
    """Issue 33, item 5: a spare that took a run, served it and exited between the
    runner's select and its reap was taken for a spare that died unused: the run was
    not counted and no spare was forked for 1 s (15 of 600 back-to-back events took
    1 s). The moments are put in that order here: the spare is dead before the reap."""
    done = subprocess.run([sys.executable, "-c", _SPARE_RACE, str(tmp_path)], capture_output=True, text=True,
                          timeout=60, cwd="/")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1 False True b'X 0\\n'", done.stdout  # counted, no pause, told


# -- races at the edges of a run ----------------------------------------------------------------
# A runner that takes the run while the request is still being sent, or a signal that
# comes while the client waits for the take, cannot be timed with the real runner: these
# tests stand in for it on the socket (the client is the installed one), and make each
# moment happen in the order under test.
@contextmanager
def stand_in_runner(directory: Path) -> Iterator[socket.socket]:
    """A listening socket where the runner's is: the test plays the runner."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(str(directory / "runner.sock"))
        listener.listen(1)
        listener.settimeout(60)
        yield listener


def say_hello(listener: socket.socket) -> socket.socket:
    """The next connection, greeted as a worker greets it (the client waits for that
    before it sends its request and descriptors)."""
    from forge_hookd.warm.client import HELLO

    conn, _ = listener.accept()
    conn.sendall(HELLO + b"\n")
    return conn


def whole_request(conn: socket.socket) -> bytes:
    """The request's payload, read to its end (the client sent it all)."""
    conn.settimeout(60)
    data = b""
    while len(data) < 4 or len(data) < 4 + int.from_bytes(data[:4], "big"):
        chunk = conn.recv(1 << 16)
        assert chunk, "the client closed before its request was whole"
        data += chunk
    return data[4:]


def test_a_run_taken_while_its_request_is_still_going_out_is_never_run_again_cold(
        project: Project, warm_dir: Path, tmp_path: Path) -> None:
    """The worker took the run (said "A", then "X") and closed before the client finished
    sending: the client read that as a refusal and ran the hooks a second time, cold
    (found by 36 clients at once). Here the request is 1 MB, more than the socket
    holds, and the runner answers after 4 bytes of it."""
    project.write_hooks([{"event": "*", "command": f"echo ran >> {tmp_path}/ran"}])
    padding = {f"FORGE_TEST_PAD{i}": "x" * 100_000 for i in range(10)}
    with stand_in_runner(warm_dir) as listener:
        proc = start_client(project, warm_env(warm_dir, **padding))
        conn = say_hello(listener)
        with conn:
            assert conn.recv(4)
            conn.sendall(b"A 1\nX 0\n")
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and out == b"", err
    assert not (tmp_path / "ran").exists()


def test_a_signal_while_the_client_waits_for_the_take_is_the_workers_to_answer(
        project: Project, warm_dir: Path) -> None:
    """Before, the client answered such a signal itself (its document, 143) while the
    worker, which had stdin by then, went on and answered too: two documents."""
    with stand_in_runner(warm_dir) as listener:
        proc = start_client(project, warm_env(warm_dir))
        conn = say_hello(listener)
        with conn:
            whole_request(conn)  # the client's signals are held from before its request
            proc.send_signal(signal.SIGTERM)
            conn.sendall(b"A 1\n")
            assert conn.makefile("rb").readline() == b"K %d\n" % signal.SIGTERM  # relayed to the worker
            conn.sendall(b"X 143\n")
            out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143 and out == b"" and err == b""  # the answer is the worker's alone


def test_a_signal_held_for_a_run_that_is_refused_is_answered_as_before_it(
        project: Project, warm_dir: Path, tmp_path: Path) -> None:
    project.write_hooks([{"event": "*", "command": f"touch {tmp_path}/ran"}])
    with stand_in_runner(warm_dir) as listener:
        proc = start_client(project, warm_env(warm_dir))
        conn = say_hello(listener)
        with conn:
            whole_request(conn)
            proc.send_signal(signal.SIGUSR1)
            conn.sendall(b"R testing\n")
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGUSR1, err
    assert json.loads(out) == {"version": 1, "error": {"kind": "interrupted", "message": "interrupted by SIGUSR1"}}
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize("client", ["python", "native"])
def test_a_signal_before_the_run_is_the_agents_deny_under_a_dialect(project: Project, warm_dir: Path,
                                                                    tmp_path: Path, client: str) -> None:
    """Issue 30, item 4: before, forge's error document and 128+n, which Claude reads as
    a non-blocking error; now exit 2 and the reason on stderr, a deny every agent reads."""
    program = console_script("forge-hook-run") if client == "python" else build_native_client(tmp_path)
    payload = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": str(project.root),
               "tool_name": "Bash", "tool_input": {"command": "ls"}}
    source = tmp_path / "payload.json"
    source.write_text(json.dumps(payload))
    with stand_in_runner(warm_dir) as listener, source.open("rb") as stdin:
        proc = subprocess.Popen([program, "--dialect", "claude"], cwd=project.root, stdin=stdin,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env={**os.environ, **warm_env(warm_dir)})
        conn = say_hello(listener)
        with conn:
            whole_request(conn)
            proc.send_signal(signal.SIGUSR1)
            conn.sendall(b"R testing\n")
        out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out) == (2, b""), err
    assert b"forge-hook-run could not check this call: interrupted by SIGUSR1" in err


def worker_reading_stdin(runner: WarmRunner, within: float = 60) -> int:
    """The pid of the runner's worker blocked in read(0): the event not whole yet."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        for child in psutil.Process(runner.proc.pid).children():
            try:
                if Path(f"/proc/{child.pid}/syscall").read_text().startswith("0 0x0 "):
                    return child.pid
            except OSError:
                continue
        time.sleep(0.01)
    raise AssertionError("no worker ever waited on stdin")


@pytest.mark.parametrize("sig", [pytest.param(sig, id=f"{sig.name}-{n}") for n in range(3)
                                 for sig in (signal.SIGTERM, signal.SIGUSR1, signal.SIGHUP)])
def test_a_signal_sent_before_stdin_ends_wins_over_the_end_of_stdin(
        project: Project, runner: WarmRunner, sig: int) -> None:
    """The signal reaches the worker through the client, the end of stdin directly: the
    worker asks the client for its signals (a barrier) before acting on the input, so
    the run answers interrupted, as cold, not "invalid event" (exit 2): found by the
    guarantees' suite run warm."""
    proc = subprocess.Popen([installed("forge-hook-run")], cwd=project.root, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, **warm_env(runner.directory)})
    assert proc.stdin is not None
    proc.stdin.write(b'{"type": "session:st')
    proc.stdin.flush()
    worker_reading_stdin(runner)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)  # closes stdin at once
    name = signal.Signals(sig).name
    assert proc.returncode == 128 + sig, err
    assert json.loads(out) == {"version": 1, "error": {"kind": "interrupted", "message": f"interrupted by {name}"}}
    assert runner.served == 1


def test_the_clients_resource_limits_are_the_runs(project: Project, runner: WarmRunner, tmp_path: Path) -> None:
    """RLIMIT_FSIZE 0 makes the run log's write fail (EFBIG), which a cold run answers
    with a warning: the worker, forked from a runner without that limit, takes it."""
    log = tmp_path / "runs.jsonl"
    log.write_text("")
    project.write_hooks([{"event": "*", "command": "echo no; exit 1"}])
    proc = subprocess.run([installed("forge-hook-run"), "--event", "session:start"], cwd=project.root,
                          capture_output=True, timeout=60,
                          env={**os.environ, **warm_env(runner.directory), "FORGE_LOG_FILE": str(log)},
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0)))
    assert proc.returncode == 1, proc.stderr
    assert f"the run log {log} cannot be written: File too large" in json.loads(proc.stdout)["warnings"]
    assert log.read_bytes() == b""
    assert runner.served == 1


def test_the_clients_nice_value_and_cpus_are_the_runs(project: Project, runner: WarmRunner) -> None:
    project.write_hooks([{"event": "*", "command": "nice; nproc"}])
    proc = subprocess.run(["nice", "-n", "7", "taskset", "-c", "0", installed("forge-hook-run"), "--event",
                           "session:start"], cwd=project.root, capture_output=True, timeout=60,
                          env={**os.environ, **warm_env(runner.directory)})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["results"][0]["stdout"] == "7\n1\n"
    assert runner.served == 1


def test_a_limit_the_worker_may_not_raise_makes_the_run_cold() -> None:
    """Without privilege a worker cannot raise a hard limit to its client's: it refuses
    (the client runs cold, with its own limits) and says which limit."""
    probe = ("import os, resource, sys\n"
             "r, w = os.pipe()\n"
             "client = os.fork()\n"
             "if client == 0:\n    os.close(w); os.read(r, 1); os._exit(0)\n"
             "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
             "resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 64), min(hard, 64)))\n"
             "from forge_hookd.warm.worker import take_limits\n"
             "print(take_limits(client)); os.close(w); os.waitpid(client, 0)\n")
    out = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-I", "-c",
                          f"import sys; sys.path[:0] = {sys.path!r}\n" + probe],
                         capture_output=True, text=True, timeout=60, cwd="/")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("the client's RLIMIT_NOFILE (") and "beyond what the resident runner may set" in out.stdout


def test_the_runner_compiles_what_the_guards_compile_on_first_use() -> None:
    """warmd.warm_guards, in the runner: a worker's first judgement compiles no pattern
    (a fresh process compiles several: the count before is checked, so the test can fail)."""
    probe = ("import re, sys\n"
             "from forge_hookd.warm import runner as warmd\n"
             "from forge_hookd.guards import GUARDS, Context\n"
             "if sys.argv[1] == 'warm':\n    warmd.warm_guards()\n"
             "compiled = []\n"
             "real = re._compiler.compile\n"
             "re._compiler.compile = lambda pattern, flags=0: compiled.append(pattern) or real(pattern, flags)\n"
             "for guard in GUARDS.values():\n"
             "    for tool, args in warmd._GUARD_SAMPLES:\n"
             "        guard().judge(tool, args, Context('/tmp/project', '/home/someone'))\n"
             "print(len(compiled))\n")
    counts = {how: subprocess.run([sys.executable, "-c", probe, how], capture_output=True, text=True, check=True,
                                  timeout=60).stdout.strip() for how in ("cold", "warm")}
    assert int(counts["cold"]) > 0 and counts["warm"] == "0", counts

def test_the_runner_leaves_a_worker_no_guard_to_build_or_check() -> None:
    """warmd.warm_guards judges through the run's own caches: a worker's entries without
    options find their guard built and checked (a fresh process builds thirteen; the
    count before is checked, so the test can fail)."""
    probe = ("import sys\n"
             "from forge_hookd.warm import runner as warmd\n"
             "from forge_hookd import guards\n"
             "from forge_hookd.run import guardhook\n"
             "if sys.argv[1] == 'warm':\n    warmd.warm_guards()\n"
             "built, checked = guardhook._guard.cache_info().misses, guards.problems.cache_info().misses\n"
             "for name in guards.GUARDS:\n"
             "    guardhook._guard(name, guards.options_key({})); guards.problems(name, guards.options_key({}))\n"
             "print(guardhook._guard.cache_info().misses - built, guards.problems.cache_info().misses - checked)\n")
    counts = {how: subprocess.run([sys.executable, "-c", probe, how], capture_output=True, text=True, check=True,
                                  timeout=60).stdout.split() for how in ("cold", "warm")}
    assert counts == {"cold": ["13", "13"], "warm": ["0", "0"]}, counts



# -- the client's budget ---------------------------------------------------------------------------
def test_the_warm_client_imports_next_to_nothing(project: Project, runner: WarmRunner) -> None:
    script = console_script("forge-hook-run")
    proc = subprocess.run([sys.executable, "-X", "importtime", script], cwd=project.root, input=json.dumps(EVENT).encode(),
                          capture_output=True, env={**os.environ, **warm_env(runner.directory)})
    assert proc.returncode == 0
    imported = {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines() if "|" in line}
    # What the interpreter and pip's script load before our code runs (site, an editable
    # install's finder, re) is theirs: ours is the rest.
    floor = subprocess.run([sys.executable, "-X", "importtime", "-c", "import re, sys"], capture_output=True,
                           text=True).stderr
    ours = imported - {line.split("|")[-1].strip() for line in floor.splitlines() if "|" in line}
    # _socket is the client's own, unless the floor loaded it already (coverage's start-up
    # hook does, under pytest --cov): either way nothing else may be ours.
    assert ours | {"_socket"} == {"forge_hookd", "forge_hookd.__main__", "forge_hookd.signalnames",
                                  "forge_hookd.warm", "forge_hookd.warm.client", "_socket"}, ours
    assert runner.served == 1


def test_a_closed_stdin_and_stdout_are_carried(project: Project, runner: WarmRunner) -> None:
    exe = installed("forge-hook-run")
    proc = subprocess.run(["sh", "-c", f'"{exe}" --event session:start <&- >&-; echo "status $?" >&2'],
                          cwd=project.root, capture_output=True, env={**os.environ, **warm_env(runner.directory)})
    assert proc.stderr.decode().strip().endswith("status 0")
    assert runner.served == 1


def test_modes_do_not_matter_to_the_runner_directory_files(runner: WarmRunner) -> None:
    for name in ("runner.sock", "control.sock"):
        assert stat.S_IMODE((runner.directory / name).stat().st_mode) == 0o600


# -- the native client -----------------------------------------------------------------------------
def recording_launcher(tmp_path: Path) -> Path:
    """A stand-in for the Python launcher: records its argv and the native client's notes."""
    launcher = tmp_path / "launcher"
    launcher.write_text("#!/bin/sh\n"
                        f'printf "%s\\n" "$*" "cold=${{_FORGE_WARM_COLD-}}" "broken=${{_FORGE_WARM_BROKEN-}}" > {tmp_path}/exec\n'
                        "exit 99\n")
    launcher.chmod(0o755)
    return launcher


def test_the_native_client_starts_no_python_when_served(project: Project, runner: WarmRunner, tmp_path: Path) -> None:
    """Served warm, it never execs its launcher; not served, it execs it with its
    arguments and why (which the launcher says under --trace: see the tests above)."""
    native = build_native_client(tmp_path, str(recording_launcher(tmp_path)))
    served = subprocess.run([native, "--event", "session:start", "a b"], cwd=project.root, capture_output=True,
                            timeout=60, env={**os.environ, **warm_env(runner.directory)})
    assert served.returncode == 2 and b"a b" in served.stderr  # answered by the worker: an unexpected argument
    assert not (tmp_path / "exec").exists() and runner.served == 1
    cold = subprocess.run([native, "--event", "session:start"], cwd=project.root, capture_output=True, timeout=60,
                          env={**os.environ, **warm_env(tmp_path / "nowhere")})
    assert cold.returncode == 99
    assert (tmp_path / "exec").read_text().splitlines() == [
        "--event session:start", f"cold=no resident runner ({tmp_path}/nowhere: No such file or directory)",
        "broken="]


def test_the_native_client_hands_a_broken_run_to_its_launcher(project: Project, warm_dir: Path,
                                                              tmp_path: Path) -> None:
    native = build_native_client(tmp_path, str(recording_launcher(tmp_path)))
    with stand_in_runner(warm_dir) as listener:
        proc = subprocess.Popen([native], cwd=project.root, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env={**os.environ, **warm_env(warm_dir)})
        conn = say_hello(listener)
        with conn:
            whole_request(conn)
            conn.sendall(b"A 1\n")
        proc.communicate(timeout=60)
    assert proc.returncode == 99
    assert (tmp_path / "exec").read_text().splitlines()[1:] == [
        "cold=", "broken=the resident runner ended in the middle of the run"]


def test_the_native_clients_request_is_the_python_clients(project: Project, warm_dir: Path, tmp_path: Path) -> None:
    """Byte for byte, but the key's path: argv, umask, environment (in order), the four
    descriptors."""
    requests = []
    for exe in (console_script("forge-hook-run"), build_native_client(tmp_path)):
        with stand_in_runner(warm_dir) as listener:
            proc = subprocess.Popen(["sh", "-c", f'umask 037; exec env -i A=1 B="x y" FORGE_WARM_DIR="{warm_dir}" "{exe}" --trace "$@"',
                                     "sh", "é", ""], cwd=project.root, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            conn = say_hello(listener)
            with conn:
                requests.append(whole_request(conn).split(b"\0"))
                conn.sendall(b"A 1\nX 0\n")
            proc.communicate(timeout=60)
        (warm_dir / "runner.sock").unlink()
    python, native = requests
    assert python[0] == native[0] == b"forge-warm/2" and python[1] == native[1]  # the same key
    assert python[2:5] == native[2:5] == [b"run", b"%d" % 0o037, b"4"]
    assert python[6:9] == native[6:9] == [b"--trace", "é".encode(), b""]
    # The interpreter coerces the C locale (LC_CTYPE=C.UTF-8): the native client does too.
    assert set(python[9:]) == set(native[9:]) and {b"B=x y", b"LC_CTYPE=C.UTF-8"} <= set(native[9:])


def test_the_native_client_execs_a_launcher_whose_path_needs_escaping(project: Project, tmp_path: Path) -> None:
    odd = tmp_path / 'a "b" \\ c\n??='
    odd.mkdir()
    launcher = odd / "launcher"
    launcher.write_text('#!/bin/sh\necho "launched $*"\n')
    launcher.chmod(0o755)
    native = build_native_client(tmp_path, str(launcher))
    done = subprocess.run([native, "x"], cwd=project.root, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "FORGE_WARM": "0"})
    assert done.returncode == 0 and done.stdout == "launched x\n", done.stderr


def test_a_native_client_that_cannot_be_built_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from forge_hookd.warm import build as nativeclient

    out = tmp_path / "bin/forge-hook-run"
    monkeypatch.setenv("CC", "false")
    assert nativeclient.main([str(out), "--cold", "/bin/true"]) == 1
    assert capsys.readouterr().err == ("forge-hook-run: the native warm client was not built: "
                                       "false failed (exit 1): no message\n")
    assert nativeclient.main([str(out), "--cold", "relative"]) == 1
    assert "the cold launcher must be an absolute path, not relative" in capsys.readouterr().err
    assert list(out.parent.iterdir()) == []  # nothing half-written


def test_the_native_clients_notes_never_reach_a_hook(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "*", "command": "env"}])
    for env in ({"FORGE_WARM": "0"}, warm_env(tmp_path / "nowhere")):
        run = run_installed(["--event", "session:start"], cwd=project.root, env=env)
        seen = json.loads(run.stdout)["results"][0]["stdout"]
        assert run.exit_status == 0 and "PATH=" in seen and "_FORGE_WARM" not in seen, seen


def test_a_status_line_that_is_not_a_runners_fails_closed(project: Project, warm_dir: Path) -> None:
    with stand_in_runner(warm_dir) as listener:
        proc = start_client(project, warm_env(warm_dir))
        conn = say_hello(listener)
        with conn:
            whole_request(conn)
            conn.sendall(b"A 1\nX oops\n")
            out, err = proc.communicate(timeout=60)
    assert proc.returncode == 3 and b"Traceback" not in err, err
    assert json.loads(out)["error"] == {"kind": "internal",
                                        "message": "the resident runner ended in the middle of the run"}


def test_a_signal_the_caller_blocked_is_left_to_the_caller(project: Project, warm_dir: Path) -> None:
    """Pending and blocked when the client starts: neither client takes it (the native
    one did: it relayed it and the run was interrupted)."""
    with stand_in_runner(warm_dir) as listener:
        def blocked() -> None:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
            os.kill(os.getpid(), signal.SIGUSR1)
        proc = subprocess.Popen([installed("forge-hook-run")], cwd=project.root, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=blocked,
                                env={**os.environ, **warm_env(warm_dir)})
        conn = say_hello(listener)
        with conn:
            whole_request(conn)
            conn.sendall(b"A 1\nQ\n")  # the barrier: the client's signals so far, then G
            assert conn.makefile("rb").readline() == b"G\n"
            conn.sendall(b"X 0\n")
            out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and out == b"", err


def test_the_native_client_leaves_an_ignored_signal_ignored_for_its_launcher(project: Project,
                                                                            tmp_path: Path) -> None:
    """Under nohup SIGHUP is ignored: so it stays through the interpreter's start."""
    launcher = tmp_path / "launcher"
    launcher.write_text(f"#!/bin/sh\ngrep SigIgn /proc/$$/status > {tmp_path}/ignored\n")
    launcher.chmod(0o755)
    native = build_native_client(tmp_path, str(launcher))
    done = subprocess.run(["nohup", native], cwd=project.root, capture_output=True, timeout=60,
                          env={**os.environ, **warm_env(tmp_path / "nowhere")})
    assert done.returncode == 0, done.stderr
    ignored = int((tmp_path / "ignored").read_text().split()[1], 16)
    assert ignored & (1 << (signal.SIGHUP - 1))


def test_a_native_client_whose_launcher_is_gone_fails_closed(project: Project, tmp_path: Path) -> None:
    native = build_native_client(tmp_path, str(tmp_path / "gone"))
    done = subprocess.run([native], cwd=project.root, input=json.dumps(EVENT), capture_output=True, text=True,
                          timeout=60, env={**os.environ, "FORGE_WARM": "0"})
    assert done.returncode == 3
    assert done.stderr == f"forge-hook-run: error: cannot start {tmp_path}/gone (No such file or directory): " \
                          "reinstall forge-hook-run\n"
    assert json.loads(done.stdout)["error"]["kind"] == "internal"


# -- issue 30, item 4: a launcher that cannot start, answered in the agent's dialect --------
def _launcher_gone(tmp_path: Path) -> str:
    """The native client of a venv whose Python was upgraded away: its launcher is there,
    the interpreter its first line names is not."""
    launcher = tmp_path / "bin" / "forge-hook-run"
    launcher.parent.mkdir()
    launcher.write_text(f"#!{tmp_path}/python3.11-gone\nimport sys\n")
    launcher.chmod(0o755)
    return build_native_client(tmp_path, str(launcher))


def _dialect_keys() -> list[tuple[str, str | None]]:
    from forge_hookd import dialects

    return [(name, event) for name in dialects.NAMES
            for event in [None, *sorted(dialects.get(name).words.blocking_events)]]


def test_every_dialect_gets_its_own_deny_when_the_launcher_cannot_start(project: Project, tmp_path: Path) -> None:
    """Before: forge's error document and exit 3, which Claude reads as "proceed"."""
    from forge_hookd import dialects
    from forge_hookd.warm.build import LAUNCHER_GONE

    native = _launcher_gone(tmp_path)
    for name, event in _dialect_keys():
        value = name if event is None else f"{name}:{event}"
        done = subprocess.run([native, "--dialect", value], cwd=project.root, input="{}", capture_output=True,
                              text=True, timeout=60, env={**os.environ, "FORGE_WARM": "0"})
        expected = dialects.get(name).writer.failure(event, LAUNCHER_GONE)  # the cold path's own answer
        assert (done.returncode, done.stdout) == (expected.exit_code, expected.stdout.decode()), value
        assert "cannot start" in done.stderr and expected.stderr in done.stderr, value
        if event is None:  # no event known: the dialect's deny (exit 2, or Cline's cancel JSON, its only block)
            assert "could not check this call" in done.stderr, value
            assert done.returncode == 2 or json.loads(done.stdout.split("\t")[-1])["cancel"] is True, value


@pytest.mark.parametrize("payload, status, denied", [
    ({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}}, 0, True),
    ({"hookEventName": "PreToolUse", "sessionId": "s"}, 0, True),  # VS Code's agent
    ({"session_id": "s", "hook_event_name": "Stop"}, 0, False),  # a stop proceeds: no loop
    ({"session_id": "s"}, 2, False),  # no event named: deny as every event reads it
])
def test_the_native_client_reads_the_event_from_the_payload(project: Project, tmp_path: Path,
                                                            payload: dict[str, Any], status: int,
                                                            denied: bool) -> None:
    native = _launcher_gone(tmp_path)
    done = subprocess.run([native, "--report", str(tmp_path / "r.json"), "--dialect=claude"], cwd=project.root,
                          input=json.dumps(payload), capture_output=True, text=True, timeout=60,
                          env={**os.environ, "FORGE_WARM": "0"})
    assert done.returncode == status, done.stderr
    assert ('"permissionDecision":"deny"' in done.stdout) is denied
    if not denied and status == 0:
        assert "the agent proceeds: Stop cannot be blocked" in done.stderr


def test_an_event_that_cannot_block_proceeds_and_an_unknown_dialect_denies(project: Project, tmp_path: Path) -> None:
    native = _launcher_gone(tmp_path)
    env = {**os.environ, "FORGE_WARM": "0"}
    done = subprocess.run([native, "--dialect", "copilot:sessionStart"], cwd=project.root, input="{}",
                          capture_output=True, text=True, timeout=60, env=env)
    assert (done.returncode, done.stdout) == (0, "")
    done = subprocess.run([native, "--dialect", "nosuchagent"], cwd=project.root, input="{}",
                          capture_output=True, text=True, timeout=60, env=env)
    assert (done.returncode, done.stdout) == (2, "")


def test_the_runner_ships_the_export_spool_after_a_run(project: Project, runner: WarmRunner,
                                                       isolated_home: Path) -> None:
    """The answer goes first; then the runner ships what the run spooled (issue 35, item
    4), where a cold run leaves it for forge-hook export."""
    collector = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    collector.bind(("127.0.0.1", 0))
    collector.settimeout(60)
    with collector:
        config = isolated_home / ".config/forge/hooks.json"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(json.dumps({"hooks": [{"event": "session:start", "command": "true"}],
                                      "export": {"syslog": f"udp://127.0.0.1:{collector.getsockname()[1]}"}}))
        run = run_installed(["--event", "session:start"], cwd=project.root, env=warm_env(runner.directory))
        assert run.exit_status == 0, run.stderr
        message = collector.recv(65536)
    assert runner.served == 1
    assert b' forge-hook-run ' in message and b' run [forge@' in message and b'event="session:start"' in message
    spool = isolated_home / ".local/state/forge/export.spool"
    assert not spool.exists() or spool.read_bytes() == b""


def test_a_stopping_runner_ends_its_shipper_and_the_records_stay_spooled(
        project: Project, runner: WarmRunner, isolated_home: Path) -> None:
    """A collector that takes the connection and never answers holds only the shipping
    child; the runner told to stop ends it rather than wait out its request, and
    what it did not send stays spooled for the next run or forge-hook export."""
    collector = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    collector.bind(("127.0.0.1", 0))
    collector.listen(1)
    collector.settimeout(60)
    with collector:
        config = isolated_home / ".config/forge/hooks.json"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(json.dumps({"hooks": [{"event": "session:start", "command": "true"}],
                                      "export": {"otlp": {"endpoint": f"http://127.0.0.1:{collector.getsockname()[1]}"}}}))
        run = run_installed(["--event", "session:start"], cwd=project.root, env=warm_env(runner.directory))
        assert run.exit_status == 0, run.stderr
        held, _ = collector.accept()  # the shipper is connected and waits for an answer
        with held:
            runner.stop()
            assert runner.proc.returncode == 0
            held.settimeout(60)
            while held.recv(65536):  # its request, then the end of a shipper that is gone
                pass
    log = (isolated_home / ".local/state/forge/warm.log").read_text()
    assert "stopped: received SIGTERM" in log and "export:" not in log, log  # ended, not timed out
    state = isolated_home / ".local/state/forge"  # set aside while sending: shipped first next time
    assert sum(path.read_bytes().count(b"\n") for path in state.glob("export.spool*")) >= 1
