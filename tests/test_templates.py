"""Each template works when used: run for real through the library executor."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from forge_hookd.events import HookEvent
from forge_hookd.run.executor import HookExecutor
from forge_hookd.registry import HookRegistry
from forge_hookd.templates import HOOK_TEMPLATES


def run_template(name: str, event: HookEvent, cwd: Path) -> tuple[bool, str]:
    executor = HookExecutor(HookRegistry([HOOK_TEMPLATES[name]]), working_dir=cwd)
    result = executor.run(event).results[0]
    return result.success, result.stdout


def judge_sudo(command: str, cwd: Path, **event: Any) -> tuple[bool, str]:
    """block_sudo (a built-in guard now) on a bash call: whether the run allows it, and
    the reason it gives."""
    executor = HookExecutor(HookRegistry([HOOK_TEMPLATES["block_sudo"]]), working_dir=cwd)
    run = executor.run(HookEvent.tool_pre_execute("bash", {"command": command}, **event))
    return run.decision == "allow", run.reason or ""


BLOCKED = ["sudo ls", "ls && sudo rm -rf /", "a || sudo x", "a; sudo x", "echo x | sudo tee f", "(sudo x)",
           "ls\nsudo reboot", "echo $(sudo id)", "`sudo id`", "FOO=1 sudo x", "A=1 B=2 /usr/bin/sudo x",
           "env sudo x", "doas ls", "sudoedit /etc/hosts", "pkexec x", "su -", "su", "x & su root",
           "sh -c 'sudo ls'", "\\sudo ls"]
PASSED = ["echo sudo", "grep sudo auth.log", 'git commit -m "drop sudo"', "pseudosudo ls", "sudoku", "ls -la",
          "echo sudo-rs", "cat /etc/sudoers", "summary", "ls ./su.txt", "man doas"]


@pytest.mark.parametrize(("command", "blocked"), [(c, True) for c in BLOCKED] + [(c, False) for c in PASSED])
def test_block_sudo_judges_the_command_word(tmp_path: Path, command: str, blocked: bool) -> None:
    allowed, reason = judge_sudo(command, tmp_path)
    assert allowed is not blocked
    assert reason.startswith("Blocked: ") is blocked and (" not allowed. " in reason) is blocked


def test_block_sudo_names_the_word_it_found(tmp_path: Path) -> None:
    for command, word in [("sudo ls", "sudo"), ("doas ls", "doas"), ("x; pkexec y", "pkexec")]:
        assert judge_sudo(command, tmp_path)[1].startswith(f"Blocked: {word} not allowed. ")


def test_block_sudo_judges_only_the_command(tmp_path: Path) -> None:
    """Not the session id, not another key, not a nested "command" elsewhere."""
    executor = HookExecutor(HookRegistry([HOOK_TEMPLATES["block_sudo"]]), working_dir=tmp_path)
    event = HookEvent.tool_pre_execute("bash", {"command": "ls", "description": "sudo", "x": {"command": "sudo"}},
                                       session_id="sudo")
    assert executor.run(event).decision == "allow"


def test_block_sudo_sees_a_command_longer_than_the_variable(tmp_path: Path) -> None:
    assert judge_sudo("echo " + "x" * 20_000 + "; sudo ls", tmp_path) == (False, judge_sudo("sudo ls", tmp_path)[1])


def test_block_sudo_is_the_privilege_guard_judged_without_a_process(tmp_path: Path) -> None:
    """The template is the built-in guard now: its result has no process behind it (no
    stdout, exit 0 because it judged), and the library's fire_event obeys it."""
    import asyncio

    from forge_hookd.run.executor import fire_event

    hook = HOOK_TEMPLATES["block_sudo"]
    assert (hook.guard, hook.command, hook.to_dict().get("command")) == ("privilege_escalation", "", None)
    executor = HookExecutor(HookRegistry([hook]), working_dir=tmp_path)
    results = asyncio.run(fire_event(HookEvent.tool_pre_execute("bash", {"command": "sudo ls"}), executor=executor))
    assert [(r.exit_code, r.stdout, r.decision, r.should_continue) for r in results] == [(0, "", "deny", False)]
    assert results[0].reason.startswith("Blocked: sudo not allowed. ")


def test_log_all_appends_to_the_state_log(tmp_path: Path, isolated_home: Path) -> None:
    for event in (HookEvent.session_start("s1"), HookEvent.tool_pre_execute("bash", {})):
        assert run_template("log_all", event, tmp_path)[0]
    lines = (isolated_home / ".local/state/forge/events.log").read_text().splitlines()
    assert [line.split("\t")[1:] for line in lines] == [["session:start", "-", "s1"],
                                                        ["tool:pre_execute", "bash", "-"]]


def test_only_block_sudo_blocks_the_others_observe() -> None:
    """A machine without notify-send, or a directory that is no git work tree, must not
    block a session: the templates that only observe are observers."""
    assert {name: hook.blocking for name, hook in HOOK_TEMPLATES.items()} == {
        "log_all": False, "notify_session_start": False, "git_auto_commit": False, "block_sudo": True}
    assert HOOK_TEMPLATES["log_all"].to_dict()["blocking"] is False


def test_an_observer_template_that_fails_does_not_block(tmp_path: Path, isolated_home: Path) -> None:
    (isolated_home / ".local").write_text("not a directory")  # log_all's mkdir -p fails
    run = HookExecutor(HookRegistry([HOOK_TEMPLATES["log_all"]]), working_dir=tmp_path).run(
        HookEvent.session_start("s1"))
    assert run.results[0].exit_code != 0 and run.decision == "allow" and not run.blocked
    assert run.warnings[0].startswith("observer hook 0 (*) failed")


def test_notify_session_start_says_the_session(tmp_path: Path) -> None:
    ok, out = run_template("notify_session_start", HookEvent.session_start("sess_9"), tmp_path)
    assert ok and "sess_9" in out


def test_git_auto_commit_commits_after_a_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var, value in {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
                       "GIT_COMMITTER_EMAIL": "t@e"}.items():
        monkeypatch.setenv(var, value)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "f.txt").write_text("hello")
    event = HookEvent.tool_post_execute("write", {"path": "f.txt"}, "ok")
    assert HOOK_TEMPLATES["git_auto_commit"].matches(event)
    assert run_template("git_auto_commit", event, tmp_path)[0]
    log = subprocess.run(["git", "log", "--format=%s"], cwd=tmp_path, capture_output=True, text=True)
    assert log.stdout.strip() == "forge: auto-commit after write"
    assert run_template("git_auto_commit", event, tmp_path)[0]  # nothing to commit is fine


def test_git_auto_commit_outside_a_repository_is_a_no_op(tmp_path: Path) -> None:
    assert run_template("git_auto_commit", HookEvent.tool_post_execute("edit", {}, "ok"), tmp_path)[0]


def test_block_sudo_judges_a_long_heredoc_and_refuses_what_it_cannot_read_whole(tmp_path: Path) -> None:
    """875 KB of heredoc is read and allowed; 3.7 MB is past the parser's 1 MiB bound, so
    it is refused with a reason that says what to do (the awk template let it pass)."""
    line = 'a line with "quotes" and \\ escapes\n'
    allowed, reason = judge_sudo("cat > f <<'EOF'\n" + line * 25_000 + "EOF", tmp_path)
    assert allowed, reason
    allowed, reason = judge_sudo("cat > f <<'EOF'\n" + line * 100_000 + "EOF", tmp_path)
    assert not allowed and "too long to read whole" in reason and "split it" in reason
