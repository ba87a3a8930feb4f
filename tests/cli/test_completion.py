"""Shell completion through the scripts click generates, in the real shells.

bash and zsh run interactively on a pseudo-terminal: the test types a line and Tab,
then turns the completed line into ``echo RESULT:...`` and reads what the shell
printed; fish answers ``complete -C LINE`` with its own engine. A shell that is not
installed is skipped, loudly, naming the package, except in CI, where it fails (.ci/run
installs zsh and fish).
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import BIN_DIR
from forge_hookd.cli import completion
from helpers import ROOT

# Generous: the deadline only ends a test that has already failed (a shell that never
# prints what is expected); each step returns as soon as the shell has printed it.
DEADLINE = 60.0
RESULT = re.compile(r"^RESULT:(.*?)\r?$", re.MULTILINE)


def need(shell: str) -> str:
    """The shell, installed. Where it is not: in CI (``CI`` set, as .ci/run runs) a
    failure, since CI installs every shell; elsewhere a skip that says what is not
    tested and how to install it, listed at the end of the run (pytest -ra)."""
    path = shutil.which(shell)
    if path is None:
        message = (f"NOT TESTED: {shell} completion, because {shell} is not installed (apt-get install {shell}, "
                   f"brew install {shell} or dnf install {shell}, then run the tests again)")
        if os.environ.get("CI"):
            pytest.fail(f"{message}; CI must test it: .ci/run installs {shell} where it can")
        pytest.skip(message)
    return path


def shell_env(home: Path) -> dict[str, str]:
    return {**os.environ, "PATH": f"{BIN_DIR}:{os.environ['PATH']}", "HOME": str(home), "TERM": "xterm",
            "COLUMNS": "200", "LINES": "50"}


class Terminal:
    """An interactive shell on a pseudo-terminal."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        os.set_blocking(self.master, False)
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
                                     start_new_session=True)
        os.close(slave)
        self.output = ""

    def send(self, text: str) -> None:
        os.write(self.master, text.encode())

    def expect(self, pattern: re.Pattern[str], start: int = 0) -> re.Match[str]:
        """Read until ``pattern`` matches the output after ``start``."""
        deadline = time.monotonic() + DEADLINE
        while (match := pattern.search(self.output, start)) is None:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"the shell never printed {pattern.pattern!r}; it printed {self.output!r}"
            if select.select([self.master], [], [], remaining)[0]:
                try:
                    self.output += os.read(self.master, 65536).decode(errors="replace")
                except OSError:  # the shell exited
                    raise AssertionError(f"the shell exited; it printed {self.output!r}") from None
        return match

    def ready(self, marker: str) -> None:
        """Run ``echo`` of a marker and wait for it: the shell reads input from here on."""
        start = len(self.output)
        self.send(f"echo {marker[:3]}''{marker[3:]}\r")  # the echo of the typing cannot match
        self.expect(re.compile(re.escape(marker)), start)

    def complete(self, line: str) -> str:
        """Type ``line`` and Tab, then return the line as the shell completed it."""
        start = len(self.output)
        # Ctrl-A goes to the start of the completed line; the shell then prints it.
        self.send(f"{line}\t")
        self.send("\x01echo RESULT:\r")
        return self.expect(RESULT, start).group(1).rstrip()

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()
        os.close(self.master)


CASES = [
    # What bash splits at ':' (COMP_WORDBREAKS) and what has no choice before it.
    ("forge-hook list --event session:st", "forge-hook list --event session:start"),
    ("forge-hook list --event permission:gr", "forge-hook list --event permission:granted"),
    ("forge-hook list --event user:prompt", "forge-hook list --event user:prompt_submit"),
    ("forge-hook-run --event tool:pre", "forge-hook-run --event tool:pre_execute"),
    ("forge-hook-run --event llm:stream_e", "forge-hook-run --event llm:stream_end"),
    ("forge-hook add --template block", "forge-hook add --template block_sudo"),
    ("forge-hook add --event tool:error,user:int", "forge-hook add --event tool:error,user:interrupt"),
    # issue 21: the lifecycle types, and agent:native:NAME for the agents' other events
    ("forge-hook-run --event agent:subagent_sta", "forge-hook-run --event agent:subagent_start"),
    ("forge-hook add --event agent:native:Setu", "forge-hook add --event agent:native:Setup"),
    ("forge-hook add --event agent:native:PreModelR", "forge-hook add --event agent:native:PreModelRequest"),
    ("forge-hook-run --dialect cop", "forge-hook-run --dialect copilot"),
    ("forge-hook import --from gem", "forge-hook import --from gemini"),
    # click's own: subcommands and option names.
    ("forge-hook tr", "forge-hook trust"),
    ("forge-hook-run --no-g", "forge-hook-run --no-global"),
    # Paths (the shell's own completion, in the work directory), tool names (canonical and
    # each agent's own), and the hooks of the file a command edits, by id (issue 23, item 12).
    ("forge-hook-run --config extra-h", "forge-hook-run --config extra-hooks.json"),
    ("forge-hook-run --project-root proj", "forge-hook-run --project-root projdir/"),
    ("forge-hook import --from claude claude-se", "forge-hook import --from claude claude-settings.json"),
    ("forge-hook-run --event tool:error --tool run_sh", "forge-hook-run --event tool:error --tool run_shell_command"),
    ("forge-hook list --event tool:error --tool MultiE", "forge-hook list --event tool:error --tool MultiEdit"),
    ("forge-hook add --event tool:pre_execute:run_sh", "forge-hook add --event tool:pre_execute:run_shell_command"),
    ("forge-hook add --event session:start,tool:error:apply_p",
     "forge-hook add --event session:start,tool:error:apply_patch"),
    ("forge-hook disable --project li", "forge-hook disable --project lint"),
    ("forge-hook remove --project fm", "forge-hook remove --project fmt"),
    ("forge-hook enable --global glo", "forge-hook enable --global global-one"),
]


@pytest.fixture
def workdir(tmp_path: Path, isolated_home: Path) -> Path:
    """Where the shells run: files and a directory to complete, and hooks with ids."""
    work = tmp_path / "work"
    (work / "projdir").mkdir(parents=True)
    (work / "extra-hooks.json").write_text('{"hooks": []}')
    (work / "claude-settings.json").write_text("{}")
    (work / ".forge").mkdir()
    (work / ".forge/hooks.json").write_text(json.dumps({"hooks": [
        {"id": "lint", "event": "tool:*", "command": "ruff check ."},
        {"id": "fmt", "event": "tool:*", "command": "ruff format ."}]}))
    (isolated_home / ".config/forge").mkdir(parents=True)
    (isolated_home / ".config/forge/hooks.json").write_text(json.dumps({"hooks": [
        {"id": "global-one", "event": "*", "command": "true"}]}))
    return work


def same(line: str, completed: str) -> bool:
    """The completed line is the one expected; a directory's '/' may be gone (zsh removes
    its auto-removable suffix when the next key is not one that keeps it)."""
    return line == completed or (completed.endswith("/") and line == completed[:-1])


def source_line(shell: str) -> str:
    return "; ".join(f'eval "$(_{prog.upper().replace("-", "_")}_COMPLETE={shell}_source {prog})"'
                     for prog in ("forge-hook", "forge-hook-run"))


def test_bash_completes_event_types_colons_included(isolated_home: Path, workdir: Path) -> None:
    bash = need("bash")
    term = Terminal([bash, "--norc", "--noprofile", "-i"], shell_env(isolated_home), workdir)
    try:
        term.send("bind 'set enable-bracketed-paste off'; PS1='$ '; " + source_line("bash") + "\r")
        term.ready("BASH-READY")
        for line, completed in CASES:
            assert same(term.complete(line), completed), line
    finally:
        term.close()


def test_zsh_completes_event_types_colons_included(isolated_home: Path, workdir: Path) -> None:
    zsh = need("zsh")
    term = Terminal([zsh, "-f", "-i"], shell_env(isolated_home), workdir)
    try:
        term.send("bindkey -e; unsetopt beep; PROMPT='$ '; autoload -Uz compinit && compinit -u; "
                  + source_line("zsh") + "\r")
        term.ready("ZSH-READY")
        for line, completed in CASES:
            assert same(term.complete(line), completed), line
    finally:
        term.close()


def test_fish_completes_event_types_colons_included(isolated_home: Path, workdir: Path) -> None:
    fish = need("fish")
    script = "; ".join(f"eval (env _{prog.upper().replace('-', '_')}_COMPLETE=fish_source {prog} | string collect)"
                       for prog in ("forge-hook", "forge-hook-run"))
    for line, completed in CASES:
        proc = subprocess.run([fish, "--no-config", "-c", f"{script}; complete -C '{line}'"],
                              capture_output=True, text=True, env=shell_env(isolated_home), timeout=DEADLINE,
                              cwd=workdir)
        assert proc.returncode == 0, proc.stderr
        answers = [answer.split("\t")[0] for answer in proc.stdout.splitlines()]
        assert answers == [completed.split()[-1]], line


def test_a_missing_shell_is_a_loud_skip_and_a_failure_in_ci(tmp_path: Path) -> None:
    """Where zsh is not installed the README's test command says so, naming the package
    to install; CI, which installs it, fails instead of skipping."""
    empty = tmp_path / "bin"
    empty.mkdir()  # a PATH on which no shell is found
    for ci, outcome in (("", "1 skipped"), ("true", "1 failed")):
        env = {**{k: v for k, v in os.environ.items() if k != "CI"}, "PATH": str(empty), **({"CI": ci} if ci else {})}
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rsf", "-p", "no:cacheprovider",
                               "--basetemp", str(tmp_path / f"inner{bool(ci)}"),
                               f"{__file__}::test_zsh_completes_event_types_colons_included"],
                              capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
        assert outcome in proc.stdout, proc.stdout
        assert "NOT TESTED: zsh completion, because zsh is not installed (apt-get install zsh" in proc.stdout


def test_the_value_completer_filters_and_keeps_what_comes_before_the_separator() -> None:
    import click

    ctx = click.Context(click.Command("x"))
    param = click.Option(["--x"])
    listed = completion.values(lambda: ["a:b", "a:c", "b:a"])
    assert [i.value for i in listed(ctx, param, "a:")] == ["a:b", "a:c"]
    patterns = completion.values(lambda: ["a:b", "b:a"], separator=",")
    assert [i.value for i in patterns(ctx, param, "a:b,b")] == ["a:b,b:a"]
    assert [i.value for i in patterns(ctx, param, "")] == ["a:b", "b:a"]


def test_start_up_does_not_load_click_completion() -> None:
    # click.shell_completion costs ~1 ms of every run: loaded only when a shell asks.
    code = ("import sys, forge_hookd.cli.run, forge_hookd.cli.manage; "
            "print('click.shell_completion' in sys.modules)")
    proc = subprocess.run([str(BIN_DIR / "python"), "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "False"
