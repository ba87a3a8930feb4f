"""Plain helpers shared by the tests: the installed executables, pid checks, projects.

Fixtures live in conftest.py; everything here is an ordinary name to import.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import psutil
import pytest

LEAK_VAR = "FORGE_TEST_LEAK_MARK"
#: What the warm session (conftest.py, --warm) puts in every run's environment: the
#: caller's, so a hook sees them too.
WARM_VARS = ("FORGE_WARM_DIR", "FORGE_WARM_REQUIRED")
BIN_DIR = Path(sys.executable).parent
#: The tests' folder (data beside the tests: tests/dialects/, tests/guards/ ...) and the checkout.
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

# The event most end-to-end tests send: block_sudo's target.
SUDO: dict[str, Any] = {"type": "tool:pre_execute", "tool_name": "bash", "session_id": "sess_abc123",
                        "data": {"tool_args": {"command": "sudo ls"}}}


#: The native warm client (forge_hookd/warm/client.c) when the session (--native) or a
#: test puts it in front: installed("forge-hook-run") is then that client, which execs
#: pip's script for every run the resident runner does not serve.
native_client: str | None = None
#: True while a test marked ``inprocess`` runs (conftest.py): such a test is left out of
#: the warm pass, so it must not start forge-hook-run, or the warm pass would miss it.
in_process_test = False


def installed(name: str) -> str:
    """The executable installed beside this interpreter (the real one): pip's console
    script, or for forge-hook-run the native client when one is in front."""
    if name == "forge-hook-run" and in_process_test:
        pytest.fail("a test marked inprocess starts forge-hook-run: take the marker off its module, "
                    "or the warm pass (--warm) leaves it out")
    if name == "forge-hook-run" and native_client is not None:
        return native_client
    return console_script(name)


def warm_prefix() -> str:
    """What a hook command that an agent runs starts with to reach the warm session's
    resident runner (conftest.py, --warm): its variables, set by ``env`` in the command,
    so that an agent that does not pass its environment on to hooks cannot make the run
    cold without failing it (FORGE_WARM_REQUIRED). Empty outside a warm session."""
    found = [f"{name}={shlex.quote(os.environ[name])}" for name in WARM_VARS if name in os.environ]
    return f"env {' '.join(found)} " if found else ""


def console_script(name: str) -> str:
    """pip's console script ``name`` beside this interpreter."""
    path = shutil.which(name, path=str(BIN_DIR))
    if path is None:
        pytest.fail(f"{name} is not installed in {BIN_DIR}: run pip install -e '.[test]'")
    return path


#: Set to 1 to build the native client with the address and undefined-behaviour
#: sanitizers (CI's warm pass does, over the warm tests: issue 29 item 3).
SANITIZE_VAR = "FORGE_TEST_NATIVE_SANITIZE"


def build_native_client(directory: Path, cold: str | None = None) -> str:
    """The native warm client built into ``directory``, execing ``cold`` (pip's script
    by default) for cold runs; the test fails when it cannot be built."""
    from forge_hookd.warm.build import BuildError, build

    out = directory / "forge-hook-run"
    try:
        build(out, Path(cold or console_script("forge-hook-run")), sanitize=os.environ.get(SANITIZE_VAR) == "1")
    except BuildError as exc:
        pytest.fail(f"the native warm client cannot be built here: {exc}")
    return str(out)


def marked_processes(mark: str) -> list[psutil.Process]:
    """Every process on the machine whose environment carries ``mark``."""
    found = []
    for proc in psutil.process_iter():
        if proc.pid == os.getpid():
            continue
        try:
            if proc.environ().get(LEAK_VAR) == mark:
                found.append(proc)
        except psutil.Error:
            continue
    return found


def is_alive(proc: psutil.Process) -> bool:
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def is_zombie(proc: psutil.Process) -> bool:
    try:
        return proc.status() == psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def cmdline(proc: psutil.Process) -> str:
    try:
        return " ".join(proc.cmdline())
    except psutil.Error:
        return "?"


def kill_and_reap(pid: int) -> None:
    """SIGKILL ``pid`` and, when it is our child (we may be a subreaper), reap it."""
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def reap_if_ours(pid: int) -> None:
    """Reap ``pid`` if it became our child: a daemon whose starter exited reparents to
    the test process once an in-process test made it a subreaper."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def pid_alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def gone(*pids: int, within: float = 30.0) -> bool:
    """Whether every one of ``pids`` is dead (or a zombie), waiting up to ``within`` s.

    A SIGKILLed process dies when the kernel next schedules it, which under load can be
    after the runner stopped waiting ("in the kernel's hands", tree.TreeEnd.step). So a
    test waits for the evidence, the pid gone; the bound only lets a real survivor fail.
    """
    deadline = time.monotonic() + within
    while any(pid_alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def reap_when_ours(*pids: int, within: float = 30.0) -> None:
    """Wait until each of ``pids`` is gone for good, reaping each that dies as our child:
    an orphan reparents to this process once an in-process test made it a subreaper, and
    a zombie whose parent is still exiting becomes ours only when that parent is gone."""
    deadline = time.monotonic() + within
    left = set(pids)
    while left and time.monotonic() < deadline:
        for pid in list(left):
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    left.discard(pid)  # ours, and reaped
                    continue
            except ChildProcessError:  # not ours: gone for good, or still another's
                if not psutil.pid_exists(pid):
                    left.discard(pid)
                    continue
            # alive, or a zombie another process has yet to reap (or pass on to us)
        if left:
            time.sleep(0.02)


def read_pids(directory: Path) -> dict[str, int]:
    """The pid files hooks wrote (``NAME.pid``): those with content, by name."""
    return {p.stem: int(p.read_text().split()[0]) for p in sorted(directory.glob("*.pid"))
            if p.read_text().strip()}


@dataclass
class Project:
    """A throwaway project with a .forge/hooks.json of our choosing."""

    root: Path
    home: Path

    @property
    def hooks_file(self) -> Path:
        return self.root / ".forge" / "hooks.json"

    @property
    def global_file(self) -> Path:
        return self.home / ".config" / "forge" / "hooks.json"

    def trust(self) -> None:
        from forge_hookd.trust import store as trust

        trust.trust(self.hooks_file, self.hooks_file.read_bytes())

    def write_hooks(self, hooks: list[dict[str, Any]], *, where: str = "project", trusted: bool = True) -> Path:
        """Write a hooks file; a project file is also trusted unless ``trusted=False``."""
        from forge_hookd.trust import store as trust

        path = self.hooks_file if where == "project" else self.global_file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"hooks": hooks}))
        if where == "project" and trusted:
            trust.trust(path, path.read_bytes())
        return path


@dataclass
class Run:
    exit_status: int
    stdout: str
    stderr: str

    @property
    def json(self) -> Any:
        assert self.stdout.count("\n") == 1, f"expected one JSON line, got {self.stdout!r}"
        return json.loads(self.stdout)


#: A fresh small process that runs argv[3:] and writes its peak RSS (KiB) to argv[1], under
#: an address-space limit of argv[2] bytes (0: none). Measured from the test process
#: itself, a child's peak counts the image it was forked from: Linux keeps a process's
#: RSS from before exec in its maxrss, so a child of a 500 MiB pytest worker (xdist's)
#: "peaks" at 500 MiB whatever it does after exec.
_PEAK_WRAPPER = """import resource, subprocess, sys
limit = int(sys.argv[2])
def cap():
    if limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
proc = subprocess.run(sys.argv[3:], stdin=sys.stdin, stdout=sys.stdout, stderr=sys.stderr, preexec_fn=cap, timeout=60)
with open(sys.argv[1], "w") as out:
    out.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(proc.returncode)
"""


def peak_rss_run(args: list[str], *, cwd: Path, stdin: Path | None, stdout: Path, stderr: Path,
                 env: dict[str, str] | None = None, address_space: int = 0) -> tuple[int, int]:
    """Run ``args`` through :data:`_PEAK_WRAPPER`: its exit status and its peak RSS in KiB.
    A hang is killed after 60 s, and the wrapper's traceback fails the test."""
    figure = stdout.with_name(stdout.name + ".rss")
    with open(stdin or os.devnull, "rb") as given, open(stdout, "wb") as out, open(stderr, "wb") as err:
        proc = subprocess.run([sys.executable, "-c", _PEAK_WRAPPER, str(figure), str(address_space), *args],
                              cwd=cwd, stdin=given, stdout=out, stderr=err, env=env, timeout=120)
    return proc.returncode, int(figure.read_text())


def run_installed(args: list[str], *, cwd: Path, stdin: bytes | str | None = None,
                  env: dict[str, str] | None = None, timeout: float = 60,
                  prog: str = "forge-hook-run") -> Run:
    """Run the installed executable for real and capture its streams."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    proc = subprocess.run([installed(prog), *args], cwd=cwd, input=data if data is not None else b"",
                          capture_output=True, timeout=timeout, env={**os.environ, **(env or {})})
    return Run(proc.returncode, proc.stdout.decode("utf-8", "replace"),
               proc.stderr.decode("utf-8", "replace"))


class ForgeRun(Protocol):
    """The type of the ``forge_run`` fixture: the installed forge-hook-run in the project."""

    def __call__(self, event: dict[str, Any] | str | bytes | None, *args: str, cwd: Path | None = None,
                 env: dict[str, str] | None = None, timeout: float = 60) -> Run: ...


# -- the resident runner (forge-hook warm) -----------------------------------------------
def short_private_dir(prefix: str) -> Path:
    """A 0700 directory with a path short enough for a Unix socket (tmp_path may not be)."""
    import tempfile

    return Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))


#: The resident runner in the foreground, as the client starts it (forge_hookd/warm/client.py,
#: _BOOT): the entry point hands it the cold run.
RUNNER_ARGV = [sys.executable, "-c", "import sys, forge_hookd.__main__ as m; sys.exit(m.serve_resident())"]


@dataclass
class WarmRunner:
    """A resident runner started for a test (or the session) in its own directory."""

    directory: Path
    proc: subprocess.Popen[bytes]

    @classmethod
    def start(cls, directory: Path, env: dict[str, str] | None = None) -> WarmRunner:
        """The resident runner (:data:`RUNNER_ARGV`) serving ``directory``; returns once it answers."""
        full = {**os.environ, **(env or {}), "FORGE_WARM_DIR": str(directory)}
        full.pop(LEAK_VAR, None)  # it outlives the test that starts it only when the session owns it
        proc = subprocess.Popen(RUNNER_ARGV, env=full, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                                cwd="/")
        runner = cls(directory, proc)
        deadline = time.monotonic() + 60
        while runner.status() is None:
            if proc.poll() is not None:
                raise AssertionError(f"the runner exited {proc.returncode}: {proc.stderr.read()!r}")  # type: ignore[union-attr]
            if time.monotonic() > deadline:
                runner.kill()
                raise AssertionError("the runner did not answer within 60 s")
            time.sleep(0.02)
        return runner

    def status(self) -> dict[str, Any] | None:
        return runner_status(self.directory)

    @property
    def served(self) -> int:
        return int(idle_runner_status(self.directory)["served"])


    def stop(self) -> None:
        """Ask it to stop (it lets its runs finish) and reap it."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc.stderr is not None:
            self.proc.stderr.close()

    def kill(self) -> None:
        kill_and_reap(self.proc.pid)
        self.proc.wait()
        if self.proc.stderr is not None:
            self.proc.stderr.close()


def runner_status(directory: Path) -> dict[str, Any] | None:
    """The answer of the runner in ``directory`` on its control socket, None when none answers."""
    import socket

    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(10)
            sock.connect(str(directory / "control.sock"))
            sock.sendall(b"status\n")
            data = b""
            while chunk := sock.recv(65536):  # to its end: the runner has closed its side then
                data += chunk
        answer: dict[str, Any] = json.loads(data)
    except (OSError, ValueError):
        return None
    return answer


def idle_runner_status(directory: Path) -> dict[str, Any]:
    """The runner's status once no run is going: a worker tells its client how the run
    ended before it exits, and the runner counts the run when it has reaped it."""
    deadline = time.monotonic() + 60
    while True:
        status = runner_status(directory)
        assert status is not None, "the runner does not answer"
        if not status["running"] or time.monotonic() > deadline:
            return status
        time.sleep(0.02)


def hook_answer(dialect: Any, event: Any, exit_code: int, stdout: str, stderr: str) -> dict[str, Any]:
    """What a ``"format": NAME`` hook that exited by itself answers, read by the agent's
    rules as the executor reads it (the dialect's result reader): the answer's keys, and the
    decision the agent's rules give."""
    from forge_hookd.registry import Hook
    from forge_hookd.results import HookResult

    result = HookResult(Hook("*", "x", format=dialect.name), exit_code, stdout=stdout, stderr=stderr)
    judgement = dialect.hooks.result_reader(event)(result)
    answer: dict[str, Any] = {} if judgement.answer is None else judgement.answer.to_dict()
    return answer


def reap_agent_leftovers() -> None:
    """After a real agent ran: wait until no process carries this test's mark, then reap
    those that died as our zombies. By now pytest may be a child subreaper (test_cli runs
    forge-hook-run in-process, and the runner makes its process one), so what the
    harness kills in the agent's process group is reparented to pytest."""
    mark = os.environ[LEAK_VAR]
    deadline = time.monotonic() + 10
    while marked_processes(mark) and time.monotonic() < deadline:
        time.sleep(0.02)
    for child in psutil.Process().children():
        try:
            if child.status() == psutil.STATUS_ZOMBIE:
                os.waitpid(child.pid, 0)
        except (psutil.Error, ChildProcessError):
            pass


def require_agent(name: str) -> str:
    """The real agent ``name``, installed; a skip, said loudly, only where npm is missing."""
    from tests.realagents import harness

    try:
        harness.ensure_installed(name)
    except harness.AgentUnavailable as exc:
        if "npm is not on PATH" in str(exc):
            pytest.skip(f"REAL-AGENT TESTS SKIPPED: {exc}")
        raise
    return name


def guard_context() -> Any:
    """Where the in-process guard tests judge: a project under a home, as
    tests/guards/corpus/README.md says (a ``forge_hookd.guards.Context``)."""
    from forge_hookd.guards import Context

    return Context.from_env("/home/user/project", {"HOME": "/home/user"})


def decide(guard: str, command: str, context: Any = None) -> str:
    """The decision of one built-in guard on a shell command, in-process (nothing runs)."""
    from forge_hookd.guards import make

    return str(make(guard).judge("bash", {"command": command}, context or guard_context()).decision)


def guard_test(project: Project, guard: str, command: str) -> Run:
    """``forge-hook guard test GUARD -- COMMAND`` through the installed executable, in the
    project (nothing is run): the way a user checks what a guard says of a command."""
    return run_installed(["guard", "test", guard, "--", command], cwd=project.root, prog="forge-hook")


def loaded_after_judging(module: str, lines: list[str]) -> list[bool]:
    """Whether ``module`` is loaded after the whole pack judged each of ``lines`` in turn, in a
    fresh process: the rules a module holds load only for the commands they read."""
    code = ("import sys\n"
            "from forge_hookd.guards import GUARDS, Context, make\n"
            "ctx = Context.from_env('/home/u/p', {'HOME': '/home/u'})\n"
            "for line in sys.argv[2:]:\n"
            "    [make(n).judge('bash', {'command': line}, ctx) for n in GUARDS]\n"
            "    print(sys.argv[1] in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code, module, *lines], capture_output=True, text=True, check=True)
    return [word == "True" for word in out.stdout.split()]


def pack(command: str, context: Any = None) -> str:
    """The decision of the whole pack (all thirteen guards) on a shell command, in-process."""
    from forge_hookd.guards import GUARDS, make, worst

    judged = context or guard_context()
    return str(worst(make(name).judge("bash", {"command": command}, judged) for name in GUARDS).decision)
