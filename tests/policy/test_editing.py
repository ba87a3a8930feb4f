from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import Project
from forge_hookd.policy import editing
from forge_hookd.trust import store as trust
from forge_hookd.errors import ConfigError
from forge_hookd.events import HookEvent
from forge_hookd.registry import Hook, pattern_can_match

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess


@pytest.mark.parametrize(("pattern", "can"), [
    ("*", True), ("tool:*", True), ("*:bash", True), ("tool:*:write", True), ("tool:pre_execute:bash", True),
    ("tool:pre_execute:mcp:github", True), ("tool*bash", True), ("session:start", True),
    ("tool:pre_exec", False), ("foo:*", False), ("sesion:start", False), ("Tool:*", False)])
def test_pattern_can_match(pattern: str, can: bool) -> None:
    assert pattern_can_match(pattern) is can


def test_list_hooks_in_run_order_with_file_indexes_and_trust(project: Project) -> None:
    project.write_hooks([{"event": "*", "command": "g"}], where="global")
    project.write_hooks([{"event": "x"}, {"event": "tool:*", "command": "p", "enabled": False},
                         {"event": "session:*", "command": "q"}], trusted=False)
    listed = editing.list_hooks(project.root)
    assert [(h.scope, h.index, h.hook.command, h.trust.value) for h in listed] == [
        ("global", 0, "g", "trusted"), ("project", 1, "p", "untrusted"), ("project", 2, "q", "untrusted")]
    event = HookEvent.session_start("s")
    assert [h.hook.command for h in editing.would_run(listed, event, trust_project=False)] == ["g"]
    assert [h.hook.command for h in editing.would_run(listed, event, trust_project=True)] == ["g", "q"]
    assert listed[1].to_dict() == {"event": "tool:*", "command": "p", "timeout": 10.0, "enabled": False,
                                   "blocking": True, "name": "project[1]", "source": "project", "file": str(project.hooks_file), "index": 1,
                                   "trusted": False, "trust": "untrusted", "trust_detail": None}


def test_check_finds_every_kind_of_problem(project: Project) -> None:
    project.write_hooks([
        {"event": "*", "command": "ok"},
        {"event": "*"},
        {"event": "*", "command": "x", "colour": "red"},
        {"event": "*", "command": "x", "timeout": 900},
        {"event": "tool:pre_exec, session:*", "command": "x"},
        {"event": "*", "command": "x", "working_dir": "missing"},
    ])
    problems = [str(p) for p in editing.check_file(project.hooks_file, project.root)]
    f = project.hooks_file
    assert problems == [
        f"{f}: hooks[1]: missing required key 'command' (or 'guard', a built-in guard); hook skipped",
        f"{f}: hooks[2]: unknown key 'colour' ignored",
        f"{f}: hooks[3]: timeout 900 is outside [0.1, 600]; it is clamped to 600",
        f"{f}: hooks[4]: pattern 'tool:pre_exec' can match no event type",
        f"{f}: hooks[5]: working_dir 'missing' does not exist ({project.root}/missing); the hook cannot start",
    ]


def test_check_reports_json_syntax_with_line_and_column(project: Project) -> None:
    project.hooks_file.parent.mkdir()
    project.hooks_file.write_text('{"hooks": [\n  {"event": "*",}\n]}')
    [problem] = editing.check_file(project.hooks_file, project.root)
    assert str(problem).startswith(f"{project.hooks_file}:2:")
    assert editing.check_file(project.root / "missing.json", project.root) == []


def test_add_remove_toggle_keep_unknown_keys_and_order(project: Project) -> None:
    project.hooks_file.parent.mkdir()
    project.hooks_file.write_text(json.dumps({"comment": "mine", "hooks": [
        {"event": "a", "command": "1", "x-note": "keep"}, "not an object"]}))
    assert editing.add_hook(project.hooks_file, Hook("b", "2"), retrust=True) == 2
    assert editing.set_enabled(project.hooks_file, "0", False, retrust=True) == 0
    assert editing.remove_hooks(project.hooks_file, "zzz", retrust=True) == []
    doc = json.loads(project.hooks_file.read_text())
    assert doc == {"comment": "mine", "hooks": [{"event": "a", "command": "1", "x-note": "keep", "enabled": False},
                                                "not an object", {"event": "b", "command": "2"}]}
    editing.set_enabled(project.hooks_file, "0", True, retrust=True)
    assert "enabled" not in json.loads(project.hooks_file.read_text())["hooks"][0]
    assert editing.remove_hooks(project.hooks_file, "a", retrust=True) == [0]
    with pytest.raises(ConfigError, match="there is no hook 5 \\(the file has 2;"):
        editing.set_enabled(project.hooks_file, "5", True, retrust=True)
    with pytest.raises(ConfigError, match="hook 0 is not an object"):
        editing.set_enabled(project.hooks_file, "0", True, retrust=True)
    with pytest.raises(ConfigError, match="no such file"):
        editing.set_enabled(project.root / "none.json", "0", True, retrust=True)
    assert editing.remove_hooks(project.root / "none.json", "a", retrust=True) == []


def test_edits_keep_a_trusted_file_trusted_and_an_untrusted_one_untrusted(project: Project) -> None:
    project.write_hooks([{"event": "a", "command": "1"}])
    editing.add_hook(project.hooks_file, Hook("b", "2"), retrust=True)
    assert trust.is_trusted(project.hooks_file, project.hooks_file.read_bytes())
    trust.untrust(project.hooks_file)
    editing.add_hook(project.hooks_file, Hook("c", "3"), retrust=True)
    assert not trust.is_trusted(project.hooks_file, project.hooks_file.read_bytes())


def test_an_unparsable_file_is_never_overwritten(project: Project) -> None:
    project.hooks_file.parent.mkdir()
    project.hooks_file.write_bytes(b'{"hooks": [oops')
    for edit in (lambda: editing.add_hook(project.hooks_file, Hook("a", "b"), retrust=True),
                 lambda: editing.remove_hooks(project.hooks_file, "a", retrust=True),
                 lambda: editing.set_enabled(project.hooks_file, "0", False, retrust=True)):
        with pytest.raises(ConfigError, match="invalid JSON"):
            edit()
    assert project.hooks_file.read_bytes() == b'{"hooks": [oops'


def test_a_new_project_file_goes_to_the_nearest_forge_dir_else_the_repository_root(tmp_path: Path) -> None:
    start = tmp_path / "repo/a/b"
    start.mkdir(parents=True)
    assert editing.root_for_new_project_file(start) == start
    (tmp_path / "repo/.git").mkdir()
    assert editing.root_for_new_project_file(start) == tmp_path / "repo"
    (tmp_path / "repo/a/.git").write_text("gitdir: elsewhere\n")  # a worktree or submodule
    assert editing.root_for_new_project_file(start) == tmp_path / "repo/a"
    (tmp_path / "repo/.forge").mkdir()  # made by the user: the project is there
    assert editing.root_for_new_project_file(start) == tmp_path / "repo"
