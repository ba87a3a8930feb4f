"""forge-hook-run --trace / FORGE_TRACE=1 through the installed executable: files read
or not and why, hooks matched or not and why, starts, ends, the decision; colour only
on a terminal."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from helpers import ForgeRun, Project, installed

BASH = {"type": "tool:pre_execute", "tool_name": "bash", "data": {"tool_args": {"command": "ls"}}}


def trace_lines(stderr: str) -> list[str]:
    return [line.removeprefix("forge-hook-run: trace: ") for line in stderr.splitlines()
            if line.startswith("forge-hook-run: trace: ")]


def test_trace_tells_files_matches_starts_ends_and_the_decision(project: Project, forge_run: ForgeRun,
                                                                tmp_path: Path) -> None:
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "echo checked"},
                         {"event": "session:*", "command": "true"},
                         {"event": "*", "command": "true", "enabled": False},
                         {"event": "tool:*", "command": "echo nope; exit 1"},
                         {"event": "*", "command": "echo never"}])
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps({"hooks": []}))
    run = forge_run(BASH, "--trace", "--config", str(extra))
    assert run.exit_status == 1
    assert trace_lines(run.stderr) == [
        f"not read global {project.global_file}: missing",
        f"read project {project.hooks_file}: 5 hook(s), trusted",
        f"read extra {extra}: 0 hook(s)",
        "match project[0] 'tool:pre_execute:bash': echo checked",
        "skip project[1] 'session:*': pattern does not match tool:pre_execute:bash",
        "skip project[2] '*': disabled",
        "match project[3] 'tool:*': echo nope; exit 1",
        "match project[4] '*': echo never",
        "start project[0] 'tool:pre_execute:bash': echo checked",
        *[line for line in trace_lines(run.stderr) if line.startswith("end project[0]")],
        "start project[3] 'tool:*': echo nope; exit 1",
        *[line for line in trace_lines(run.stderr) if line.startswith("end project[3]")],
        "project[4] did not run: an earlier hook stopped the chain",
        *[line for line in trace_lines(run.stderr) if line.startswith("decision")],
    ]
    ends = [line for line in trace_lines(run.stderr) if line.startswith("end ")]
    assert ends[0].startswith("end project[0]: exit 0, allow, ") and ends[0].endswith(" s")
    assert ends[1].startswith("end project[3]: exit 1, deny, ")
    [decision] = [line for line in trace_lines(run.stderr) if line.startswith("decision")]
    assert decision.startswith("decision deny by project[3]: nope; exit 1; ")
    # the verdict line names the hook as the trace does
    assert "forge-hook-run: blocked by project[3] 'tool:*': nope\n" in run.stderr
    assert "\033[" not in run.stderr  # stderr is a pipe: no colour
    assert run.json["blocked"] is True  # stdout is the document, as ever


def test_each_end_is_told_as_it_happens_before_the_next_start(project: Project, forge_run: ForgeRun,
                                                              tmp_path: Path) -> None:
    """Two hooks in a row read as two hooks in a row: the first's end comes before the
    second's start (the trace used to tell every end after the run, from the document,
    so sequential hooks read as parallel). The second hook waits for evidence that the
    first's end was told: stderr is a file the test reads while the run goes on."""
    told = tmp_path / "stderr.txt"
    wait_for_first_end = (f"while ! grep -q '^forge-hook-run: trace: end project\\[0\\] (first)' {told}; "
                          "do sleep 0.01; done")
    project.write_hooks([{"id": "first", "event": "*", "command": "echo one"},
                         {"id": "second", "event": "*", "command": wait_for_first_end}])
    with told.open("w") as err:
        proc = subprocess.run([installed("forge-hook-run"), "--trace", "--event", "session:start"], cwd=project.root,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err, timeout=60)
    assert proc.returncode == 0, told.read_text()
    lines = [line for line in trace_lines(told.read_text()) if line.startswith(("start", "end"))]
    assert [line.split(":")[0] for line in lines] == [
        "start project[0] (first) '*'", "end project[0] (first)",
        "start project[1] (second) '*'", "end project[1] (second)"]


def test_files_not_read_and_why(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "*", "command": "true"}], trusted=False)
    run = forge_run({"type": "session:start"}, "--no-global", env={"FORGE_TRACE": "1"})
    lines = trace_lines(run.stderr)
    assert lines[:2] == ["global hooks file not read: --no-global",
                         f"read project {project.hooks_file}: its hooks do not run: the file is "
                         "untrusted (forge-hook trust)"]
    project.trust()
    project.hooks_file.write_text(json.dumps({"hooks": []}))
    changed = trace_lines(forge_run({"type": "session:start"}, "--trace").stderr)
    assert f"read project {project.hooks_file}: its hooks do not run: the file is changed " \
           "(forge-hook trust)" in changed
    project.hooks_file.unlink()
    project.hooks_file.mkdir()
    odd = trace_lines(forge_run({"type": "session:start"}, "--trace").stderr)
    assert f"not read project {project.hooks_file}: not a regular file" in odd
    assert "event session:start: no hooks loaded" in odd


def test_no_trace_without_the_flag_and_secrets_masked_with_it(project: Project, forge_run: ForgeRun) -> None:
    project.write_hooks([{"event": "*", "command": "curl -H 'Authorization: Bearer abcdef0123456789abcdef' x"}])
    assert trace_lines(forge_run({"type": "session:start"}).stderr) == []
    traced = forge_run({"type": "session:start"}, "--trace")
    assert "abcdef0123456789abcdef" not in traced.stderr and "[REDACTED]" in traced.stderr


def test_colour_only_on_a_terminal(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": "true"}])
    controller, terminal = os.openpty()
    try:
        proc = subprocess.Popen([installed("forge-hook-run"), "--trace", "--event", "session:start"],
                                cwd=project.root, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=terminal, env={k: v for k, v in os.environ.items() if k != "NO_COLOR"})
        os.close(terminal)
        out, _ = proc.communicate(timeout=60)
        said = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # EIO: the terminal's last writer is gone
                break
            if not chunk:
                break
            said += chunk
    finally:
        os.close(controller)
    assert proc.returncode == 0 and json.loads(out)["blocked"] is False
    assert b"\033[32mmatch project[0] '*': true\033[0m" in said


# -- in process (click's CliRunner and the Tracer itself) ----------------------------------
def test_trace_in_process_through_click(project: Project, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from forge_hookd.cli.run import forge_hook_run

    project.write_hooks([{"event": "tool:*", "command": "echo no; exit 1"}, {"event": "*", "command": "true"},
                         {"event": "session:*", "command": "true"}, {"event": "*", "command": "x", "enabled": False}])
    result = CliRunner().invoke(forge_hook_run, ["--project-root", str(project.root), "--trace", "--no-global",
                                                 "--keep-going", "--event", "tool:pre_execute", "--tool", "bash"])
    assert result.exit_code == 1
    lines = trace_lines(result.stderr)
    assert lines[0] == "global hooks file not read: --no-global"
    assert "skip project[2] 'session:*': pattern does not match tool:pre_execute:bash" in lines
    assert "skip project[3] '*': disabled" in lines
    assert any(line.startswith("end project[0]: exit 1, deny") for line in lines)
    assert lines[-1].startswith("decision deny by project[0]: no; exit 1; ")


def test_tracer_words_each_ending_and_paints_only_when_asked() -> None:
    from forge_hookd.registry import Hook
    from forge_hookd.results import HookResult
    from forge_hookd.log.trace import Tracer

    said: list[str] = []
    tracer = Tracer(said.append, colour=True)
    hooks = [Hook("*", "x", source="global", source_index=i) for i in range(3)] + [Hook("*", "x")]
    tracer.running(hooks)
    for result in (HookResult(hooks[0], None, timed_out=True, error="timed out after 1s", duration=1.0, index=0),
                   HookResult(hooks[1], -9, duration=0.1, index=1),
                   HookResult(hooks[2], None, error="cannot start", index=2),
                   HookResult(hooks[3], 0, decision="ask", index=3)):
        tracer.ended(result)
    tracer.finished({"results": [{"index": 3, "decision": "ask"}], "decision": "ask", "duration": 1.2}, 4)
    assert said == [
        "trace: \033[31mend global[0]: timed out (timed out after 1s), deny, 1.000 s\033[0m",
        "trace: \033[31mend global[1]: killed by SIGKILL, deny, 0.100 s\033[0m",
        "trace: \033[31mend global[2]: could not start: cannot start, deny, 0.000 s\033[0m",
        "trace: \033[33mend hook 3: exit 0, ask, 0.000 s\033[0m",  # a library caller's hook: its place in the run
        "trace: \033[33mdecision ask by hook 3; exit 4; 1.200 s\033[0m",
    ]
    plain: list[str] = []
    Tracer(plain.append, colour=False).file({"scope": "extra", "path": "/x", "state": "unreadable",
                                             "trust": None, "hooks": 0, "warnings": 1})
    assert plain == ["trace: not read extra /x: unreadable"]


def test_a_long_command_is_shortened_in_the_trace_saying_how_long(project: Project, forge_run: ForgeRun) -> None:
    command = "true " + " ".join(f"arg{i}" for i in range(400))
    project.write_hooks([{"event": "*", "command": command}])
    run = forge_run({"type": "session:start"}, "--trace")
    [match] = [line for line in trace_lines(run.stderr) if line.startswith("match")]
    assert len(match) < 120 and match.endswith(f"... ({len(command)} characters)")
    assert run.json["results"][0]["hook"]["command"] == command  # the document has it whole
