from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from helpers import Project
from forge_hookd.config import (
    HookConfig,
    find_project_root,
    global_config_path,
    load_file,
    load_sources,
    update_file,
)
from forge_hookd.errors import ConfigError
from forge_hookd.readfile import MAX_CONFIG_BYTES
from forge_hookd.safefile import write_atomically
from forge_hookd.registry import Hook

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess


def test_global_path_honours_forge_config_dir_then_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert Path(global_config_path()) == tmp_path / "xdg" / "forge" / "hooks.json"
    monkeypatch.setenv("FORGE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert Path(global_config_path()) == tmp_path / "cfg" / "hooks.json"
    monkeypatch.delenv("FORGE_CONFIG_DIR")
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert Path(global_config_path()) == Path(os.environ["HOME"]) / ".config" / "forge" / "hooks.json"


def test_project_root_search_order(project: Project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    deep = project.root / "a" / "b"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert Path(find_project_root()) == deep  # no .forge/hooks.json anywhere: the current directory
    project.write_hooks([])
    assert Path(find_project_root()) == project.root  # nearest upwards
    monkeypatch.setenv("FORGE_PROJECT_DIR", str(tmp_path))
    assert Path(find_project_root()) == tmp_path
    assert Path(find_project_root(deep)) == deep  # explicit wins
    assert HookConfig.get_project_path(deep) == deep / ".forge" / "hooks.json"


def test_missing_file_is_empty(tmp_path: Path) -> None:
    loaded = load_file(tmp_path / "nope.json")
    assert loaded.hooks == [] and loaded.warnings == []


def test_invalid_json_warns_with_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text('{"hooks": [\n  {"event": "*",, }\n]}')
    loaded = load_file(path)
    assert loaded.hooks == []
    assert str(loaded.warnings[0]).startswith(f"{path}:2:")
    assert "invalid JSON" in str(loaded.warnings[0])


@pytest.mark.parametrize(("content", "message"), [("[]", "must hold a JSON object"),
                                                  ('{"hooks": {}}', "'hooks' must be a list")])
def test_wrong_top_level_shape_warns(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(content)
    assert message in str(load_file(path).warnings[0])


def test_unreadable_file_warns(tmp_path: Path) -> None:
    (tmp_path / "dir.json").mkdir()
    assert "it is a directory, not a regular file" in str(load_file(tmp_path / "dir.json").warnings[0])


def test_malformed_entry_is_skipped_and_the_rest_load(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"hooks": [{"event": "*", "command": "a"}, {"event": "*"},
                                          {"event": "*", "command": "c", "timout": 3}]}))
    loaded = load_file(path, source="project")
    assert [h.command for h in loaded.hooks] == ["a", "c"]
    assert [str(w) for w in loaded.warnings] == [
        f"{path}: hooks[1]: missing required key 'command' (or 'guard', a built-in guard); hook skipped",
        f"{path}: hooks[2]: unknown key 'timout' ignored (did you mean 'timeout'?)",
    ]
    assert loaded.hooks[0].source == "project"


def test_merge_order_is_global_project_extra(project: Project, tmp_path: Path) -> None:
    project.write_hooks([{"event": "*", "command": "g"}], where="global")
    project.write_hooks([{"event": "*", "command": "p1"}, {"event": "*", "command": "p2"}])
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps({"hooks": [{"event": "*", "command": "x"}]}))
    loaded = load_sources(project.root, extra=[extra])
    assert [(h.command, h.source) for h in loaded.hooks] == [
        ("g", "global"), ("p1", "project"), ("p2", "project"), ("x", str(extra))]
    assert [h.command for h in load_sources(project.root, include_global=False).hooks] == ["p1", "p2"]
    assert [h.command for h in load_sources(project.root, include_project=False).hooks] == ["g"]
    assert [h.command for h in HookConfig.load_all(project.root)] == ["g", "p1", "p2"]


def test_seed_api_loads_and_logs_warnings(project: Project, caplog: pytest.LogCaptureFixture) -> None:
    project.write_hooks([{"event": "*", "command": "g"}, {"bad": 1}], where="global")
    assert [h.command for h in HookConfig.load_global()] == ["g"]
    assert "missing required key 'event'" in caplog.text
    assert HookConfig.load_project(project.root) == []


def test_save_round_trips_and_keeps_unknown_top_level_keys(project: Project) -> None:
    project.hooks_file.parent.mkdir()
    project.hooks_file.write_text(json.dumps({"version": 7, "hooks": [], "note": "keep me"}))
    hooks = [Hook("tool:*", "a", timeout=3), Hook("*", "b", description="d")]
    HookConfig.save_project(hooks, project.root)
    doc = json.loads(project.hooks_file.read_text())
    assert doc["version"] == 7 and doc["note"] == "keep me"
    assert HookConfig.load_project(project.root, trust_project=True) == hooks
    HookConfig.save_global(hooks[:1])
    assert HookConfig.load_global() == hooks[:1]


def test_save_never_overwrites_an_unparsable_file(project: Project) -> None:
    project.hooks_file.parent.mkdir()
    project.hooks_file.write_bytes(b'{"hooks": [ broken')
    with pytest.raises(ConfigError, match="invalid JSON"):
        HookConfig.save_project([Hook("*", "x")], project.root)
    assert project.hooks_file.read_bytes() == b'{"hooks": [ broken'


def test_atomic_write_keeps_mode_and_leaves_no_temp_files(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "f.json"
    path.parent.mkdir()
    path.write_text("old")
    path.chmod(0o640)
    write_atomically(path, b"new")
    assert path.read_text() == "new"
    assert (path.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in path.parent.iterdir()) == ["f.json"]


def test_failed_change_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "hooks.json"
    path.parent.mkdir()
    path.write_text('{"hooks": []}')

    def explode(doc: dict[str, object]) -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        update_file(path, explode)
    assert path.read_text() == '{"hooks": []}'
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize(("content", "warning"), [
    ('{"hook": [{"event": "*", "command": "x"}]}', "unknown top-level key 'hook' ignored (did you mean 'hooks'?)"),
    ("{}", "no 'hooks' list: this file defines no hook"),
])
def test_a_misspelt_file_is_a_warning(tmp_path: Path, content: str, warning: str) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(content)
    assert f"{path}: {warning}" in [str(w) for w in load_file(path).warnings]


def test_an_entry_with_a_duplicate_key_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text('{"hooks": [{"event": "*", "command": "echo SAFE", "command": "echo EVIL"},'
                    ' {"event": "*", "command": "b", "env": {"A": "1", "A": "2"}}, {"event": "*", "command": "ok"}]}')
    loaded = load_file(path)
    assert [h.command for h in loaded.hooks] == ["ok"]
    assert [str(w) for w in loaded.warnings] == [
        f"{path}: hooks[0]: duplicate key 'command' (a reader sees the first value, the runner would take "
        "the last); hook skipped",
        f"{path}: hooks[1]: duplicate key 'env.A' (a reader sees the first value, the runner would take "
        "the last); hook skipped"]


def test_strings_that_look_like_keys_do_not_count_as_duplicates(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"hooks": [{"event": "*", "command": 'echo "a": ": b"', "env": {"K": '":'}}]}))
    assert load_file(path).warnings == [] and len(load_file(path).hooks) == 1


def test_a_pattern_that_matches_nothing_and_a_missing_working_dir_are_warnings(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"hooks": [{"event": "tool:pre_exec:bash", "command": "x"},
                                          {"event": "*", "command": "x", "working_dir": "gone"},
                                          {"event": "*", "command": "x", "env": {"FORGE_TOOL_NAME": "fake"}}]}))
    warnings = [str(w) for w in load_file(path, project_root=tmp_path).warnings]
    assert warnings == [
        f"{path}: hooks[0]: pattern 'tool:pre_exec:bash' can match no event type",
        f"{path}: hooks[1]: working_dir 'gone' does not exist ({tmp_path}/gone); the hook cannot start",
        f"{path}: hooks[2]: env.FORGE_TOOL_NAME is an event variable; a hook cannot set it (ignored)"]


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom", "fifo", "big"])
def test_hostile_files_are_refused_in_bounded_time(tmp_path: Path, target: str) -> None:
    path = tmp_path / "hooks.json"
    if target == "fifo":
        os.mkfifo(path)
    elif target == "big":
        with open(path, "wb") as fh:
            fh.truncate(MAX_CONFIG_BYTES + 1)
    else:
        path.symlink_to(target)
    [warning] = load_file(path).warnings
    assert "not read: " in str(warning)


def test_the_largest_accepted_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    entry = json.dumps({"event": "*", "command": "x"})
    count = (MAX_CONFIG_BYTES - 20) // (len(entry) + 1)
    path.write_text('{"hooks": [' + ",".join([entry] * count) + "]}")
    assert path.stat().st_size <= MAX_CONFIG_BYTES
    assert len(load_file(path).hooks) == count


def test_a_config_file_linked_to_a_regular_file_is_read(tmp_path: Path) -> None:
    (tmp_path / "dotfiles.json").write_text(json.dumps({"hooks": [{"event": "*", "command": "x"}]}))
    (tmp_path / "hooks.json").symlink_to(tmp_path / "dotfiles.json")
    assert [h.command for h in load_file(tmp_path / "hooks.json").hooks] == ["x"]
