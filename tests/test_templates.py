"""Each template works when used: run for real through the library executor."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from forge_hookd.events import HookEvent
from forge_hookd.executor import HookExecutor
from forge_hookd.registry import HookRegistry
from forge_hookd.templates import HOOK_TEMPLATES


def run_template(name: str, event: HookEvent, cwd: Path) -> tuple[bool, str]:
    executor = HookExecutor(HookRegistry([HOOK_TEMPLATES[name]]), working_dir=cwd)
    result = executor.run(event).results[0]
    return result.success, result.stdout


@pytest.mark.parametrize(
    ("command", "blocked"),
    [("sudo ls", True), ("ls && sudo rm -rf /", True), ("echo x | sudo tee f", True),
     ("ls\nsudo reboot", True), ("$(sudo id)", True), ("pseudosudo ls", False),
     ("sudoku", False), ("ls -la", False), ("echo sudo-rs", False)],
)
def test_block_sudo_blocks_only_the_real_word(tmp_path: Path, command: str, blocked: bool) -> None:
    ok, out = run_template("block_sudo", HookEvent.tool_pre_execute("bash", {"command": command}), tmp_path)
    assert ok is not blocked
    assert (out.strip() == "Blocked: sudo not allowed") is blocked


def test_block_sudo_sees_a_command_longer_than_the_variable(tmp_path: Path) -> None:
    command = "echo " + "x" * 20_000 + "; sudo ls"
    ok, _ = run_template("block_sudo", HookEvent.tool_pre_execute("bash", {"command": command}), tmp_path)
    assert not ok


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
