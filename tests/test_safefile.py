"""Safe writes through the installed forge-hook (issue 9, "Files and the machine"): a full
disk and a read-only directory are one line and exit 5 with the file untouched, symlinks
are written through, nothing is left beside the file (no lock, no temporary, also after
a SIGKILL mid-write), and a held lock is waited for a bounded time, with a message."""

from __future__ import annotations

import errno
import json
import os
import select
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import Project, installed, run_installed
from forge_hookd.trust import store as trust
from forge_hookd.safefile import locked, write_atomically

SYSTEM_ERROR = 5


def forge_hook(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([installed("forge-hook"), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60, env={**os.environ, **env})


def one_error_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("forge-hook: error: "), stderr
    assert "Traceback" not in stderr
    return lines[0]


def mount(*args: str) -> None:
    """``mount ARGS``, or skip the test saying why it cannot be done here."""
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small tmpfs or a read-only bind mount")
    done = subprocess.run(["mount", *args], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"mount {' '.join(args)} is not permitted here: {done.stderr.strip()}")


@pytest.fixture
def mounts() -> Iterator[list[Path]]:
    """Mount points to unmount (last first) when the test ends."""
    points: list[Path] = []
    yield points
    for point in reversed(points):
        subprocess.run(["umount", str(point)], check=True)


def small_tmpfs(path: Path, mounts: list[Path]) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    mount("-t", "tmpfs", "-o", "size=64k", "tmpfs", str(path))
    mounts.append(path)
    return path


def read_only(path: Path, mounts: list[Path]) -> Path:
    """``path`` (with what it holds) made read-only by a read-only bind mount on itself."""
    mount("--bind", str(path), str(path))
    mounts.append(path)
    mount("-o", "remount,ro,bind", str(path))
    return path


def fill(directory: Path) -> None:
    """Fill the file system of ``directory`` to the last page."""
    fd = os.open(directory / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)


def global_hooks(directory: Path) -> bytes:
    path = directory / "hooks.json"
    path.write_text(json.dumps({"hooks": [{"event": "*", "command": "keep me"}], "mine": 1}, indent=1))
    return path.read_bytes()


ADD = ["add", "--global", "--event", "session:start", "--command", "echo " + "x" * 6000]


# -- 9: the machine refuses ---------------------------------------------------------------
def test_full_disk_add_is_one_line_exit_5_and_the_file_untouched(tmp_path: Path, mounts: list[Path]) -> None:
    config = small_tmpfs(tmp_path / "config", mounts)
    before = global_hooks(config)
    fill(config)
    done = forge_hook(ADD, tmp_path, FORGE_CONFIG_DIR=str(config))
    assert done.returncode == SYSTEM_ERROR and done.stdout == ""
    assert one_error_line(done.stderr) == (f"forge-hook: error: {config / 'hooks.json'}: cannot write: "
                                           "No space left on device (the file is unchanged)")
    assert (config / "hooks.json").read_bytes() == before
    assert sorted(p.name for p in config.iterdir()) == ["filler", "hooks.json"]


def test_full_disk_trust_keeps_the_trust_records(project: Project, tmp_path: Path, mounts: list[Path]) -> None:
    store = Path(trust.trust_store_path())
    small_tmpfs(store.parent, mounts)
    project.write_hooks([{"event": "*", "command": "x"}])  # trusted: the store holds one record
    before = store.read_bytes()
    project.hooks_file.write_text('{"hooks": []}')
    fill(store.parent)
    done = forge_hook(["trust"], project.root)
    assert done.returncode == SYSTEM_ERROR
    assert f"forge-hook: error: {store}: cannot write: No space left on device" in one_error_line(done.stderr)
    assert store.read_bytes() == before
    assert sorted(p.name for p in store.parent.iterdir()) == ["filler", "trust.json"]


def test_read_only_config_dir_is_one_line_exit_5(tmp_path: Path, mounts: list[Path]) -> None:
    config = tmp_path / "config"
    config.mkdir()
    before = global_hooks(config)
    read_only(config, mounts)
    for args in (ADD, ["remove", "--global", "*"], ["disable", "--global", "0"]):
        done = forge_hook(args, tmp_path, FORGE_CONFIG_DIR=str(config))
        assert done.returncode == SYSTEM_ERROR, done.stderr
        assert one_error_line(done.stderr) == (f"forge-hook: error: {config / 'hooks.json'}: cannot write: "
                                               "Read-only file system (the file is unchanged)")
    assert (config / "hooks.json").read_bytes() == before
    assert [p.name for p in config.iterdir()] == ["hooks.json"]


def test_read_only_trust_store_is_one_line_exit_5(project: Project, mounts: list[Path]) -> None:
    project.write_hooks([{"event": "*", "command": "x"}], trusted=False)
    store_dir = Path(trust.trust_store_path()).parent
    store_dir.mkdir(parents=True)
    read_only(store_dir, mounts)
    done = forge_hook(["trust"], project.root)
    assert done.returncode == SYSTEM_ERROR and "Read-only file system" in one_error_line(done.stderr)
    assert list(store_dir.iterdir()) == []


# -- 10: symlinks are written through -------------------------------------------------------
def test_a_symlinked_hooks_file_is_written_through_its_link(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    config = tmp_path / "config"
    dotfiles.mkdir()
    config.mkdir()
    global_hooks(dotfiles)
    (config / "hooks.json").symlink_to("../dotfiles/hooks.json")
    (dotfiles / "hooks.json").chmod(0o640)
    done = forge_hook(["add", "--global", "--event", "session:start", "--command", "echo hi"], tmp_path,
                      FORGE_CONFIG_DIR=str(config))
    assert done.returncode == 0, done.stderr
    assert os.readlink(config / "hooks.json") == "../dotfiles/hooks.json"
    doc = json.loads((dotfiles / "hooks.json").read_bytes())
    assert [h["command"] for h in doc["hooks"]] == ["keep me", "echo hi"] and doc["mine"] == 1
    assert (dotfiles / "hooks.json").stat().st_mode & 0o777 == 0o640
    assert [p.name for p in config.iterdir()] == ["hooks.json"]
    assert [p.name for p in dotfiles.iterdir()] == ["hooks.json"]


def test_a_dangling_link_creates_its_target(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "hooks.json").symlink_to(tmp_path / "dotfiles" / "forge" / "hooks.json")
    done = forge_hook(["add", "--global", "--template", "log_all"], tmp_path, FORGE_CONFIG_DIR=str(config))
    assert done.returncode == 0, done.stderr
    assert (config / "hooks.json").is_symlink()
    assert len(json.loads((tmp_path / "dotfiles" / "forge" / "hooks.json").read_bytes())["hooks"]) == 1


# -- 11: nothing left behind ----------------------------------------------------------------
def test_no_lock_or_temporary_is_left_beside_the_files(project: Project) -> None:
    for args in (["add", "--project", "--template", "block_sudo"], ["trust"],
                 ["disable", "--project", "0"], ["remove", "--project", "tool:pre_execute:bash"]):
        assert forge_hook(args, project.root).returncode == 0
    assert [p.name for p in project.hooks_file.parent.iterdir()] == ["hooks.json"]
    assert [p.name for p in Path(trust.trust_store_path()).parent.iterdir()] == ["trust.json"]


def _open_temporary(pid: int) -> str | None:
    """The ``.hooks.json.*.tmp`` file ``pid`` has open, if any."""
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if os.path.basename(target).startswith(".hooks.json.") and target.endswith(".tmp"):
                return target
    except OSError:
        pass
    return None


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as fh:
        return fh.read().rpartition(")")[2].split()[0]


def _kill_mid_write(project: Project) -> tuple[subprocess.Popen[bytes], str] | None:
    """Start ``forge-hook add`` and SIGKILL it while it has its temporary file open; None
    when it got past the write before we caught it."""
    proc = subprocess.Popen([installed("forge-hook"), "add", "--project", "--template", "log_all"],
                            cwd=project.root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while proc.poll() is None and _open_temporary(proc.pid) is None:
        pass  # evidence, not time: the writer's open temporary
    if proc.poll() is not None:
        return None
    os.kill(proc.pid, signal.SIGSTOP)
    while _state(proc.pid) != "T":
        pass
    tmp = _open_temporary(proc.pid)  # stopped: still mid-write?
    os.kill(proc.pid, signal.SIGKILL if tmp else signal.SIGCONT)
    proc.wait()
    return (proc, tmp) if tmp else None


PADDING = 4_000_000  # under the 4 MiB a hooks file may be, long enough a write to catch


def test_sigkill_mid_write_leaves_nothing_after_the_next_write(project: Project) -> None:
    project.hooks_file.parent.mkdir()
    project.hooks_file.write_text(json.dumps({"hooks": [], "padding": "p" * PADDING}))
    before = project.hooks_file.read_bytes()
    for _ in range(40):
        killed = _kill_mid_write(project)
        if killed is not None:
            break
        project.hooks_file.write_bytes(before)  # it got through: put the file back, again
    assert killed is not None, "forty writers got past their write before SIGSTOP reached them"
    proc, tmp = killed
    assert proc.returncode == -signal.SIGKILL
    assert os.path.basename(tmp).startswith(f".hooks.json.{proc.pid}.")
    assert sorted(p.name for p in project.hooks_file.parent.iterdir()) == sorted(["hooks.json", os.path.basename(tmp)])
    assert project.hooks_file.read_bytes() == before
    again = run_installed(["add", "--project", "--template", "log_all"], cwd=project.root, prog="forge-hook")
    assert again.exit_status == 0, again.stderr
    assert [p.name for p in project.hooks_file.parent.iterdir()] == ["hooks.json"]
    doc = json.loads(project.hooks_file.read_bytes())
    assert len(doc["hooks"]) == 1 and len(doc["padding"]) == PADDING


def test_stale_temporaries_of_ours_go_and_others_stay(tmp_path: Path) -> None:
    gone = subprocess.Popen(["true"])
    gone.wait()  # a writer that is gone: its pid is free
    alive = subprocess.Popen(["sleep", "60"])
    try:
        (tmp_path / "store").mkdir()
        tmp_path = tmp_path / "store"
        path = tmp_path / "trust.json"
        names = {f".trust.json.{gone.pid}.abcd_123.tmp": False, f".trust.json.{alive.pid}.abcd_123.tmp": True,
                 ".trust.json.legacy12.tmp": False, ".trust.json.fresh123.tmp": True,
                 ".trust.json.mine.tmp": True, ".other.json.legacy12.tmp": True, "notes.tmp": True}
        for name in names:
            (tmp_path / name).write_text("x")
        old = os.stat(tmp_path / ".trust.json.legacy12.tmp").st_mtime - 120
        os.utime(tmp_path / ".trust.json.legacy12.tmp", (old, old))  # an old version's, 2 minutes old
        write_atomically(path, b"new")
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["trust.json", *[n for n, kept in names.items() if kept]])
    finally:
        alive.kill()
        alive.wait()


# -- 12: a held lock is waited for a bounded time ------------------------------------------------
def test_a_held_lock_is_waited_for_then_fails_with_the_file_untouched(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    before = global_hooks(config)
    with locked(config / "hooks.json"):
        done = forge_hook(ADD, tmp_path, FORGE_CONFIG_DIR=str(config), FORGE_LOCK_TIMEOUT="0.3")
    assert done.returncode == SYSTEM_ERROR and done.stdout == ""
    waiting, error = done.stderr.splitlines()
    path = config / "hooks.json"
    assert waiting == (f"forge-hook: waiting for the lock on {path}, held by another process "
                       f"(pid {os.getpid()}) (giving up in 0.3 s)")
    assert error == (f"forge-hook: error: {path}: gave up after 0.3 s waiting for the lock, held by "
                     f"another process (pid {os.getpid()}) (the file is unchanged)")
    assert path.read_bytes() == before and [p.name for p in config.iterdir()] == ["hooks.json"]


def test_a_lock_released_while_waiting_lets_the_write_through(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    global_hooks(config)
    with locked(config / "hooks.json"):
        proc = subprocess.Popen([installed("forge-hook"), *ADD], cwd=tmp_path, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env={**os.environ, "FORGE_CONFIG_DIR": str(config)})
        assert proc.stderr is not None
        # A bound for a broken build (one that waits in silence), not a pause: the line
        # comes as soon as the writer meets the lock.
        if not select.select([proc.stderr], [], [], 30)[0]:
            proc.kill()
            proc.wait()
            pytest.fail("forge-hook waited for the lock without a word")
        first = proc.stderr.readline().decode()  # evidence that it waits
        assert first.startswith(f"forge-hook: waiting for the lock on {config / 'hooks.json'}, held by")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and err == b"", err
    assert b"added global[1] " in out
    assert len(json.loads((config / "hooks.json").read_bytes())["hooks"]) == 2


def test_where_a_directory_cannot_be_flocked_the_lock_is_a_file_of_ours(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """NFS cannot flock a directory (EBADF: its emulation needs a file open for writing);
    that cannot be real here, so flock is made to refuse directories as NFS does."""
    import fcntl
    import stat

    real_flock = fcntl.flock

    def nfs_flock(fd: int, operation: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(errno.EBADF, "Bad file descriptor")
        real_flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", nfs_flock)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    (tmp_path / "run").mkdir(mode=0o700)
    config = tmp_path / "config"
    with locked(config / "hooks.json"):
        lock_dir = tmp_path / "run" / f"forge-hook-{os.getuid()}"
        (lock_file,) = lock_dir.iterdir()
        fd = os.open(lock_file, os.O_RDWR)
        try:
            with pytest.raises(BlockingIOError):
                real_flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held, as a second writer finds it
        finally:
            os.close(fd)
        write_atomically(config / "hooks.json", b"{}")  # reentrant: no waiting for ourselves
    assert [p.name for p in config.iterdir()] == ["hooks.json"]
    assert stat.S_IMODE(lock_dir.stat().st_mode) == 0o700


def test_the_library_raises_lock_timeout_and_notes_the_wait(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import sys

    from forge_hookd.safefile import LockTimeout

    path = tmp_path / "config" / "hooks.json"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from forge_hookd.safefile import locked\n"
         f"with locked({str(path)!r}):\n    print('held', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline() == "held\n"  # evidence: the other process has it
        monkeypatch.setenv("FORGE_LOCK_TIMEOUT", "0.2")
        with pytest.raises(LockTimeout) as raised:
            write_atomically(path, b"new")
    finally:
        holder.stdin.close()
        holder.wait()
    assert raised.value.errno == errno.ETIMEDOUT and raised.value.filename == str(path)
    assert f"held by another process (pid {holder.pid})" in str(raised.value.strerror)
    assert caplog.messages == [f"waiting for the lock on {path}, held by another process "
                               f"(pid {holder.pid}) (giving up in 0.2 s)"]
    assert not path.exists()
    write_atomically(path, b"new")  # the holder is gone, and so is its lock
    assert path.read_bytes() == b"new"


@pytest.mark.parametrize(("value", "seconds"), [("0.5", 0.5), ("0", 0.0), ("-3", 0.0), ("soon", 10.0), ("", 10.0)])
def test_lock_timeout_from_the_environment(monkeypatch: pytest.MonkeyPatch, value: str, seconds: float) -> None:
    from forge_hookd.safefile import lock_timeout

    monkeypatch.setenv("FORGE_LOCK_TIMEOUT", value)
    assert lock_timeout() == seconds
