"""What ``forge-hook install`` writes must work where the agent runs it (issue 30, items
1 and 2): each entry's timeout at forge's ceiling with the same ``--agent-limit`` on its
command; global files name this install's forge-hook-run by its absolute path; project
files a command that fails closed in the agent's blocking form where forge-hook-run is
not on PATH. ``doctor`` and ``check`` name what would not hold. Through the installed
``forge-hook``, and the written commands run by a real ``sh`` as the agents run them.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

import pytest

from helpers import BIN_DIR, Project, Run, gone, run_installed
from forge_hookd.agents import jsonedit
from forge_hookd.agents.places import (CANNOT_START, FUNCTION, GONE, MISSING, PLACES, forge_agent_limit, forge_words,
                                       handlers, project_command, runs_forge)
from forge_hookd.dialects import get

#: forge-hook install finds each agent where it would without CLAUDE_CONFIG_DIR & co (conftest.py)
pytestmark = pytest.mark.usefixtures("agents_at_their_default_homes")
#: each agent's event that can block, and one that cannot
PRE = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool", "cursor": "beforeShellExecution",
       "copilot": "preToolUse"}
POST = {"claude": "PostToolUse", "codex": "PostToolUse", "gemini": "AfterTool", "cursor": "afterFileEdit",
        "copilot": "postToolUse"}
#: the timeout the entries say, in each agent's unit
WRITTEN = {"claude": ("timeout", 600), "codex": ("timeout", 600), "gemini": ("timeout", 600000),
           "cursor": ("timeout", 600), "copilot": ("timeoutSec", 600)}
#: The agents these tests wire: the newer dialects (Windsurf, Cline, the Claude family)
#: have their own install tests (test_dialect_windsurf.py, test_dialect_cline.py,
#: test_dialect_family.py).
AGENTS = tuple(WRITTEN)


def forge_hook(project: Project, *args: str, env: dict[str, str] | None = None) -> Run:
    return run_installed(list(args), cwd=project.root, prog="forge-hook", env=env)


def wired(project: Project, agent: str, scope: str) -> tuple[Path, list[Any]]:
    run = forge_hook(project, "install", "--agent", agent, f"--{scope}")
    assert run.exit_status == 0, run.stderr
    path = Path(run.stdout.rsplit(" in ", 1)[1].split(" (")[0])
    doc = jsonedit.parse(path.read_text(), comments=PLACES[agent].comments).value
    return path, [h for h in handlers(agent, doc) if runs_forge(h.command, agent)]


def stub_path(tmp_path: Path, *names: str) -> str:
    bin_dir = tmp_path / "stub-bin"
    bin_dir.mkdir(exist_ok=True)
    for name in names:
        (bin_dir / name).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / name).chmod(0o755)
    return f"{bin_dir}:/usr/bin:/bin"


def doctor(project: Project, path: str) -> tuple[int, list[str]]:
    run = forge_hook(project, "doctor", "--json", env={"PATH": path})
    assert run.exit_status in (0, 1), run.stderr
    return run.exit_status, [f for a in json.loads(run.stdout)["agents"] for f in a["findings"]]


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("scope", ["project", "global"])
def test_install_writes_the_agents_timeout_and_the_same_agent_limit(project: Project, agent: str,
                                                                    scope: str) -> None:
    _, forge = wired(project, agent, scope)
    key, value = WRITTEN[agent]
    assert forge
    for handler in forge:
        if agent == "claude" and handler.event == "SessionEnd":  # Claude waits 1.5 s unless told: 30 s
            assert handler.handler[key] == 30 and forge_agent_limit(handler.command) == 30
            continue
        assert handler.handler[key] == value, handler
        assert forge_agent_limit(handler.command) == 600, handler.command
        assert get(agent).settings.timeout(handler.handler, handler.event) == 600


@pytest.mark.parametrize("agent", AGENTS)
def test_a_global_file_names_this_installs_forge_hook_run_by_its_path(project: Project, agent: str) -> None:
    _, forge = wired(project, agent, "global")
    for handler in forge:
        program = (forge_words(handler.command) or [""])[0]
        assert os.path.isabs(program) and os.access(program, os.X_OK), handler.command
        assert os.path.dirname(program) == str(BIN_DIR)


def _sh(command: str, path: str, payload: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    """The command as the agent runs it: by a shell, with the agent's PATH."""
    env = {**os.environ, "PATH": path}
    return subprocess.run(["/bin/sh", "-c", command], input=json.dumps(payload), capture_output=True, text=True,
                          env=env, timeout=60)


@pytest.mark.parametrize("agent", AGENTS)
def test_a_project_file_fails_closed_where_forge_is_not_installed(project: Project, tmp_path: Path,
                                                                  agent: str) -> None:
    _, forge = wired(project, agent, "project")
    commands = {h.event: h.command for h in forge}
    bare = "/usr/bin:/bin"  # a teammate's agent, forge not installed
    blocked = _sh(commands[PRE[agent]], bare, {})
    assert (blocked.returncode, blocked.stderr.strip()) == (2, MISSING)
    said = _sh(commands[POST[agent]], bare, {})
    assert (said.returncode, said.stderr.strip()) == (1, MISSING)  # a failure the agent shows, not a block
    # where forge is installed, the same command is forge's: an event without hooks proceeds
    payload = {"session_id": "s1", "hook_event_name": PRE[agent], "cwd": str(project.root),
               "tool_name": "Bash", "tool_input": {"command": "ls"}, "command": "ls", "toolName": "bash",
               "toolArgs": json.dumps({"command": "ls"}), "hookEventName": PRE[agent]}
    served = _sh(commands[PRE[agent]], f"{BIN_DIR}:/usr/bin:/bin", payload)
    assert served.returncode == 0, served.stderr
    assert MISSING not in served.stderr


@pytest.mark.parametrize("agent", AGENTS)
def test_uninstall_takes_out_the_new_forms_exactly(project: Project, agent: str) -> None:
    for scope in ("project", "global"):
        path, _ = wired(project, agent, scope)
        run = forge_hook(project, "install", "--agent", agent, f"--{scope}", "--uninstall")
        assert run.exit_status == 0, run.stderr
        assert not path.exists(), path.read_text()


def test_doctor_reads_every_form_as_forge(project: Project, tmp_path: Path) -> None:
    wired(project, "claude", "project")
    wired(project, "gemini", "global")
    settings = project.root / ".cursor" / "hooks.json"  # written before issue 30: the bare name
    settings.parent.mkdir()
    snippet = get("cursor").settings.snippet("forge-hook-run --dialect cursor")
    settings.write_text(json.dumps(snippet))
    run = forge_hook(project, "doctor", "--json", env={"PATH": stub_path(tmp_path, "forge-hook-run")})
    report = {a["agent"]: a for a in json.loads(run.stdout)["agents"]}
    for agent in ("claude", "gemini", "cursor"):
        assert report[agent]["wired"] == list(get(agent).settings.snippet("x")["hooks"]), report[agent]
    assert run.exit_status == 0, report


def test_doctor_finds_forge_not_on_the_agents_path(project: Project, tmp_path: Path) -> None:
    wired(project, "claude", "project")
    status, findings = doctor(project, stub_path(tmp_path, "claude"))
    [finding] = findings  # one for the file, not one per event
    assert status == 1 and "PreToolUse" in finding
    assert "finds no forge-hook-run on PATH: it denies every claude call that can block" in finding
    old = project.root / ".codex" / "hooks.json"  # the bare name, before issue 30
    old.parent.mkdir()
    old.write_text(json.dumps(get("codex").settings.snippet("forge-hook-run --dialect codex")))
    status, findings = doctor(project, stub_path(tmp_path, "codex"))
    assert any("names forge-hook-run (not on PATH)" in f and "exit 127 lets the call proceed" in f
               for f in findings), findings


def test_doctor_finds_a_timeout_that_is_not_the_agent_limit(project: Project, tmp_path: Path) -> None:
    path, _ = wired(project, "copilot", "project")
    doc = json.loads(path.read_text())
    doc["hooks"]["preToolUse"][0]["timeoutSec"] = 30  # edited by hand: Copilot stops at 30 s
    path.write_text(json.dumps(doc))
    status, findings = doctor(project, stub_path(tmp_path, "copilot", "forge-hook-run"))
    assert status == 1
    assert findings == [f"{path}: preToolUse's entry gives the hook 30s but its command says --agent-limit 600: "
                        "forge must answer before copilot stops waiting, and knows when only if the two are "
                        "equal (forge-hook install writes both)"]
    check = forge_hook(project, "check", env={"PATH": stub_path(tmp_path, "forge-hook-run")})
    assert check.exit_status == 1 and findings[0] in check.stdout


def test_doctor_and_check_name_events_whose_hooks_can_outlast_the_limit(project: Project, tmp_path: Path) -> None:
    path, _ = wired(project, "claude", "project")
    project.write_hooks([{"event": "tool:pre_execute", "command": "true", "timeout": 300},
                         {"event": "tool:*", "command": "true", "timeout": 300},
                         {"event": "session:start", "command": "true"}], where="global")
    stubs = stub_path(tmp_path, "claude", "forge-hook-run")
    status, findings = doctor(project, stubs)
    assert status == 1
    assert findings == [f"{path}: on PreToolUse (tool:pre_execute) forge's hooks can take 600s (2 hooks, timeouts "
                        "summed), but claude waits 600s and forge answers by 540s: past that it denies where the "
                        "event can block; give those hooks shorter timeouts"]
    check = forge_hook(project, "check", env={"PATH": stubs})
    assert check.exit_status == 1 and findings[0] in check.stdout
    checked = forge_hook(project, "check", "--json", env={"PATH": stubs})
    assert [p["file"] for p in json.loads(checked.stdout)] == [str(path)]
    # with --jobs the longest counts: 300 s is within the limit
    doc = json.loads(path.read_text())
    for group in doc["hooks"]["PreToolUse"]:
        for hook in group["hooks"]:
            hook["command"] += " --jobs 4"
    path.write_text(json.dumps(doc))
    assert doctor(project, stubs) == (0, [])
    assert forge_hook(project, "check", env={"PATH": stubs}).exit_status == 0


# -- a forge-hook-run that is there but cannot start (issue 30, items 2 and 4) -------------------
#: forge-hook-run as a machine may hold it where it cannot start, or none at all
BROKEN = {"a gone interpreter": ("#!/gone/python\nprint('never')\n", 0o755),  # the venv's Python upgraded away
          "not executable": ("#!/bin/sh\nexit 0\n", 0o644), "missing": None}
#: each agent's event that can block and one that cannot, with Windsurf (its own fallback after the command)
CAN_BLOCK = {**{a: (PRE[a], POST[a]) for a in AGENTS}, "windsurf": ("pre_run_command", "post_run_command")}
SHELLS = [shell for shell in ("/bin/sh", shutil.which("bash")) if shell]
#: the last line on stderr where forge-hook-run is there but cannot start, by the shell's status
CANNOT = {status: CANNOT_START.replace("$forge_status", str(status)) for status in (126, 127)}


def commands_of(project: Project, agent: str, scope: str) -> dict[str, str]:
    _, forge = wired(project, agent, scope)
    return {h.event: h.command for h in forge}


def broken_forge(tmp_path: Path, kind: str) -> Path:
    """A directory holding forge-hook-run the ``kind`` way (nothing where it is missing)."""
    directory = tmp_path / kind.replace(" ", "-")
    directory.mkdir()
    if (made := BROKEN[kind]) is not None:
        (directory / "forge-hook-run").write_text(made[0])
        (directory / "forge-hook-run").chmod(made[1])
    return directory


def naming(command: str, runner: Path) -> str:
    """A global file's command as an install at ``runner`` writes it."""
    ours = (forge_words(command) or [""])[0]
    assert os.path.isabs(ours) and f"{FUNCTION} {shlex.quote(ours)} --dialect" in command, command
    return command.replace(f"{FUNCTION} {shlex.quote(ours)} ", f"{FUNCTION} {shlex.quote(str(runner))} ")


def sh(shell: str, command: str, path: str, payload: str = "{}", cwd: Path | None = None
       ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([shell, "-c", command], input=payload, capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "PATH": path}, timeout=60)


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("scope", ["project", "global"])
@pytest.mark.parametrize("agent", CAN_BLOCK)
def test_a_written_command_fails_closed_where_forge_hook_run_cannot_start(project: Project, tmp_path: Path,
                                                                          agent: str, scope: str, shell: str) -> None:
    commands = commands_of(project, agent, scope)
    for kind in BROKEN:
        directory = broken_forge(tmp_path, kind)
        runner = directory / "forge-hook-run"
        missing = MISSING if scope == "project" else GONE
        expected = {"a gone interpreter": [CANNOT[127]], "missing": [missing],
                    "not executable": [missing, CANNOT[126]]}[kind]  # bash's command -v skips it, dash's not
        for event, status in zip(CAN_BLOCK[agent], (2, 1)):
            command = commands[event] if scope == "project" else naming(commands[event], runner)
            done = sh(shell, command, f"{directory}:/usr/bin:/bin")
            said = done.stderr.strip().splitlines()
            assert (done.returncode, done.stdout) == (status, ""), (kind, event, done.stderr)
            assert said and said[-1] in expected, (kind, event, done.stderr)


@pytest.mark.parametrize("agent", AGENTS)
def test_a_written_command_passes_forge_hook_runs_answer_through(project: Project, agent: str) -> None:
    commands = commands_of(project, agent, "project")
    project.write_hooks([{"event": "tool:pre_execute", "guard": "destructive_rm"}])
    line = commands[PRE[agent]]
    words = forge_words(line) or []
    assert words[0] == "forge-hook-run"
    tool = "run_shell_command" if agent == "gemini" else "Bash"
    answers = []
    for shell_line in ("rm -rf ~", "ls"):
        payload = json.dumps({"session_id": "s1", "hook_event_name": PRE[agent], "cwd": str(project.root),
                              "tool_name": tool, "tool_input": {"command": shell_line}, "command": shell_line,
                              "toolName": "bash", "toolArgs": json.dumps({"command": shell_line}),
                              "hookEventName": PRE[agent]})
        through = sh("/bin/sh", line, f"{BIN_DIR}:/usr/bin:/bin", payload, cwd=project.root)
        direct = subprocess.run([str(BIN_DIR / "forge-hook-run"), *words[1:]], input=payload, capture_output=True,
                                text=True, cwd=project.root, timeout=60)
        assert (through.returncode, through.stdout, through.stderr) == \
            (direct.returncode, direct.stdout, direct.stderr)
        answers.append(through)
    denied, allowed = answers
    assert "rm -rf" in denied.stdout + denied.stderr and (denied.returncode, denied.stdout) != \
        (allowed.returncode, allowed.stdout)
    assert "rm -rf" not in allowed.stdout + allowed.stderr


def stand_in(tmp_path: Path, script: str) -> Path:
    directory = tmp_path / "stand-in"
    directory.mkdir()
    (directory / "forge-hook-run").write_text("#!/bin/sh\n" + script)
    (directory / "forge-hook-run").chmod(0o755)
    return directory


@pytest.mark.parametrize("status", [0, 1, 2, 3, 4, 5, 141])
def test_forge_hook_runs_own_status_and_output_pass_through(project: Project, tmp_path: Path, status: int) -> None:
    command = commands_of(project, "claude", "project")["Stop"]  # an event that cannot block
    directory = stand_in(tmp_path, f"cat >/dev/null; echo answer; echo said >&2; exit {status}\n")
    done = sh("/bin/sh", command, f"{directory}:/usr/bin:/bin")
    assert (done.returncode, done.stdout, done.stderr) == (status, "answer\n", "said\n")


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_the_agent_ending_the_shell_ends_forge_hook_run(project: Project, tmp_path: Path, signal_name: str) -> None:
    command = commands_of(project, "claude", "project")["PreToolUse"]
    pid_file, ended = tmp_path / "forge.pid", tmp_path / "ended"
    # it reaps its sleep before it exits: else the sleep, orphaned, died as pytest's zombie
    # once an in-process test had made pytest a subreaper
    directory = stand_in(tmp_path, f"trap 'echo TERM > {ended}; kill $!; wait $!; exit 143' TERM\n"
                                   f"read -r payload; echo \"$payload\" > {ended}.stdin\n"
                                   f"sleep 60 & echo $$ > {pid_file}.new && mv {pid_file}.new {pid_file}; wait\n")
    shell = subprocess.Popen(["/bin/sh", "-c", command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env={**os.environ, "PATH": f"{directory}:/usr/bin:/bin"})
    try:
        assert shell.stdin is not None
        shell.stdin.write(b'{"payload": 1}\n')
        shell.stdin.close()
        deadline = time.monotonic() + 30
        while not pid_file.exists() and shell.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        forge = int(pid_file.read_text())
        assert (tmp_path / "ended.stdin").read_text() == '{"payload": 1}\n'  # the agent's stdin reached forge
        shell.send_signal(getattr(signal, signal_name))
        shell.wait(timeout=30)
        assert ended.read_text() == "TERM\n"
        assert gone(forge)
    finally:
        if shell.poll() is None:
            shell.kill()
        shell.wait()
        for stream in (shell.stdout, shell.stderr):
            if stream is not None:
                stream.close()


def old_project_command(agent: str) -> Callable[[str], str]:
    """The project command an install wrote before this one: exec, after the PATH check."""
    def command(event: str) -> str:
        status = 2 if event in get(agent).words.blocking_events else 1
        return (f"command -v forge-hook-run >/dev/null 2>&1 || {{ echo '{MISSING}' >&2; exit {status}; }}; "
                f"exec forge-hook-run --dialect {agent}")
    return command


@pytest.mark.parametrize("agent", AGENTS)
def test_a_new_install_replaces_an_older_installs_command_in_place(project: Project, agent: str) -> None:
    settings = get(agent).settings
    path = project.root / settings.files[0]
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = settings.snippet(old_project_command(agent), 600)  # a teammate's older install, committed
    mine = settings.snippet("echo mine")["hooks"][PRE[agent]]
    doc["hooks"][PRE[agent]] = mine + doc["hooks"][PRE[agent]]
    doc["hooks"][POST[agent]] = settings.snippet(f"forge-hook-run --dialect {agent} -j 4")["hooks"][POST[agent]]
    path.write_text(json.dumps(doc, indent=2))
    sizes = {event: len(entries) for event, entries in doc["hooks"].items()}
    run = forge_hook(project, "install", "--agent", agent, "--project")
    assert run.exit_status == 0 and "replaced forge-hook-run's command as an older install wrote it" in run.stderr, \
        run.stdout + run.stderr
    now = json.loads(path.read_text())
    assert {event: len(entries) for event, entries in now["hooks"].items()} == sizes  # in place, not beside
    assert now["hooks"][PRE[agent]][:len(mine)] == mine
    assert now["hooks"][POST[agent]] == doc["hooks"][POST[agent]]  # the user's own forge entry (-j 4) stays
    new = {h.event: h.command for h in handlers(agent, settings.snippet(project_command(agent), 600))}
    for handler in handlers(agent, now):
        if not handler.command.startswith("echo mine") and handler.event != POST[agent]:
            assert handler.command == new[handler.event], handler
    text = path.read_text()
    again = forge_hook(project, "install", "--agent", agent, "--project")
    assert again.exit_status == 0 and path.read_text() == text and "replaced" not in again.stderr, again.stderr
    assert forge_hook(project, "install", "--agent", agent, "--project", "--uninstall").exit_status == 0
    left = json.loads(path.read_text())
    assert [h.command.partition(":")[0] for h in handlers(agent, left) if h.event != POST[agent]] == ["echo mine"]


def test_a_new_global_install_replaces_a_plain_command_by_its_wrapper(project: Project) -> None:
    settings = get("codex").settings
    path = project.home / ".codex" / "hooks.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(settings.snippet("'/old place/forge-hook-run' --dialect codex", 600)))
    run = forge_hook(project, "install", "--agent", "codex", "--global")
    assert run.exit_status == 0 and "replaced forge-hook-run's command" in run.stderr, run.stderr
    forge = [h for h in handlers("codex", json.loads(path.read_text())) if runs_forge(h.command, "codex")]
    assert forge and all((forge_words(h.command) or [""])[0] == str(BIN_DIR / "forge-hook-run") and
                         h.command.startswith(f"{FUNCTION}() {{") for h in forge), forge
    assert len(json.loads(path.read_text())["hooks"]["PreToolUse"]) == 1


def test_doctor_finds_a_forge_hook_run_that_cannot_start(project: Project, tmp_path: Path) -> None:
    wired(project, "claude", "project")
    directory = broken_forge(tmp_path, "a gone interpreter")
    status, findings = doctor(project, f"{directory}:{stub_path(tmp_path, 'claude')}")
    [finding] = findings
    assert status == 1 and (f"runs {directory}/forge-hook-run, which cannot start (its interpreter /gone/python "
                            "is not there): it denies every claude call that can block") in finding, finding


def test_an_upgraded_entry_keeps_the_agent_limit_that_matches_its_timeout(project: Project) -> None:
    settings = get("gemini").settings
    path = project.root / settings.files[0]
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(settings.snippet("forge-hook-run --dialect gemini")))  # no timeout: Gemini's 60 s
    run = forge_hook(project, "install", "--agent", "gemini", "--project")
    assert run.exit_status == 0 and "replaced" in run.stderr, run.stderr
    forge = [h for h in handlers("gemini", json.loads(path.read_text())) if runs_forge(h.command, "gemini")]
    assert forge and all(h.command.startswith(f"{FUNCTION}() {{") and forge_agent_limit(h.command) is None
                         and "timeout" not in h.handler for h in forge), forge


@pytest.mark.parametrize("shell", SHELLS)
def test_a_closed_stdin_stays_closed_and_forge_still_runs(project: Project, tmp_path: Path, shell: str) -> None:
    """An agent that runs its hook with stdin closed: the command's copy of it failed
    ("0: Bad file descriptor"), forge never ran, and "cannot start" blocked the event."""
    command = commands_of(project, "gemini", "project")["SessionStart"]
    directory = stand_in(tmp_path, "if read -r line; then echo read; else echo closed; fi; exit 0\n")
    done = subprocess.run([shell, "-c", command + " <&-"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PATH": f"{directory}:/usr/bin:/bin"})
    assert (done.returncode, done.stdout) == (0, "closed\n"), done.stderr
    assert "cannot start" not in done.stderr


@pytest.mark.parametrize("agent", CAN_BLOCK)
def test_the_written_command_holds_nothing_an_agent_expands(project: Project, agent: str) -> None:
    """Gemini CLI 0.61 expands ${NAME:-default} in its settings, and $NAME for a variable
    of its environment: the command's ${p:-0} became 0, and every Gemini event was
    "cannot start" (the real Gemini: test_agentwire_agents.py)."""
    for command in commands_of(project, agent, "project").values():
        assert "${" not in command
        if agent == "gemini":  # Windsurf's own fallback after forge's function keeps its $s
            assert not set(re.findall(r"\$([A-Za-z_]\w*)", command)) - {"forge_pid", "forge_status"}, command
