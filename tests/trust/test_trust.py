from __future__ import annotations

import json
import os
from pathlib import Path
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pytest

from forge_hookd.trust import decide
from forge_hookd.trust import store as trust
from forge_hookd.errors import ConfigError

if TYPE_CHECKING:
    from helpers import Project


def hooks_file(root: Path, hooks: Sequence[Mapping[str, object]] | None = None) -> Path:
    path = root / ".forge" / "hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks or []}))
    return path


def test_store_lives_under_xdg_data_home(isolated_home: Path) -> None:
    assert Path(trust.trust_store_path()) == isolated_home / ".local/share/forge/trust.json"


def test_trust_cycle(tmp_path: Path) -> None:
    path = hooks_file(tmp_path)
    assert trust.state(path, b"a") is trust.TrustState.UNTRUSTED
    trust.trust(path, b"a")
    assert trust.is_trusted(path, b"a")
    assert trust.state(path, b"b") is trust.TrustState.CHANGED
    assert trust.untrust(path) is True
    assert trust.untrust(path) is False
    assert trust.state(path, b"a") is trust.TrustState.UNTRUSTED


def test_records_are_keyed_by_the_real_project_root(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    path = hooks_file(tmp_path / "real")
    trust.trust(tmp_path / "link" / ".forge" / "hooks.json", b"x")
    assert trust.is_trusted(path, b"x")
    doc = json.loads(Path(trust.trust_store_path()).read_text())
    assert doc == {"version": 2, "projects": {str(tmp_path / "real"): {"files": {
        ".forge/hooks.json": trust.digest(b"x")}, "named": [], "reader": trust.READER}}}


def test_coverage_holds_the_forge_directory_and_the_scripts_commands_name(tmp_path: Path) -> None:
    for name in ("scripts/guard.sh", "tools/check.py", "ci/x.json", "sub/local.sh", ".forge/lib/helper.sh"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name)
    hooks = [{"event": "*", "command": "./scripts/guard.sh && python3 tools/check.py --config=ci/x.json"},
             {"event": "*", "command": "sh ./local.sh; echo $HOME /etc/passwd", "working_dir": "sub"},
             {"event": "*", "command": "sh 'unbalanced"}]
    path = hooks_file(tmp_path, hooks)
    covered = trust.coverage(path, path.read_bytes())
    assert list(covered) == [".forge/hooks.json", ".forge/lib/helper.sh", "scripts/guard.sh",
                             "tools/check.py", "ci/x.json", "sub/local.sh"]
    assert covered["tools/check.py"] == trust.digest(b"tools/check.py")


def test_a_changed_script_makes_the_project_changed_and_says_which(tmp_path: Path) -> None:
    (tmp_path / "guard.sh").write_text("exit 1")
    path = hooks_file(tmp_path, [{"event": "*", "command": "./guard.sh"}])
    trust.trust(path, path.read_bytes())
    assert trust.is_trusted(path, path.read_bytes())
    (tmp_path / "guard.sh").write_text("exit 0")
    check = trust.check(path, path.read_bytes())
    assert (check.state, check.detail) == (trust.TrustState.CHANGED, "guard.sh changed since the project was trusted")
    (tmp_path / ".forge" / "extra").write_text("new")
    (tmp_path / "guard.sh").write_text("exit 1")
    assert trust.check(path, path.read_bytes()).detail == ".forge/extra is new since the project was trusted"


def test_a_forge_directory_linked_out_of_the_project_is_not_trusted(tmp_path: Path) -> None:
    trusted = hooks_file(tmp_path / "trusted")
    trust.trust(trusted, trusted.read_bytes())
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / ".forge").symlink_to(tmp_path / "trusted" / ".forge")
    other = tmp_path / "other" / ".forge" / "hooks.json"
    check = trust.check(other, other.read_bytes())
    assert check.state is trust.TrustState.UNTRUSTED and not check.trustable
    assert "outside the project root" in str(check.detail)
    with pytest.raises(ConfigError, match="outside the project root"):
        trust.trust(other, other.read_bytes())


def test_a_version_1_record_reads_as_changed(tmp_path: Path) -> None:
    path = hooks_file(tmp_path)
    store = Path(trust.trust_store_path())
    store.parent.mkdir(parents=True)
    store.write_text(json.dumps({"version": 1, "trusted": {str(path): trust.digest(path.read_bytes())}}))
    check = trust.check(path, path.read_bytes())
    assert check.state is trust.TrustState.CHANGED and "older forge-hook" in str(check.detail)
    trust.trust(path, path.read_bytes())
    assert trust.is_trusted(path, path.read_bytes())
    assert json.loads(store.read_text())["trusted"] == {}


@pytest.mark.parametrize("content", ["", "{broken", '{"projects": []}'])
def test_a_store_that_cannot_be_read_is_untrusted_not_a_crash(tmp_path: Path, content: str) -> None:
    path = hooks_file(tmp_path)
    store = Path(trust.trust_store_path())
    store.parent.mkdir(parents=True)
    store.write_text(content)
    check = trust.check(path, path.read_bytes())
    assert check.state is trust.TrustState.UNTRUSTED
    if content:  # an empty store is merely empty
        assert "trust records" in str(check.detail)
        with pytest.raises(ConfigError, match="trust records"):
            trust.trust(path, path.read_bytes())
        assert store.read_text() == content  # never overwritten


def test_a_store_that_is_a_fifo_does_not_hang(tmp_path: Path) -> None:
    path = hooks_file(tmp_path)
    store = Path(trust.trust_store_path())
    store.parent.mkdir(parents=True)
    os.mkfifo(store)
    check = trust.check(path, path.read_bytes())
    assert check.state is trust.TrustState.UNTRUSTED and "FIFO" in str(check.detail)


def test_a_fifo_under_forge_is_covered_by_its_kind_never_opened(tmp_path: Path) -> None:
    path = hooks_file(tmp_path)
    os.mkfifo(tmp_path / ".forge" / "pipe")
    assert trust.coverage(path, path.read_bytes())[".forge/pipe"].startswith("special:")


def test_override_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    # trust's policy is the one reader of the override variables (issue 29 item 2)
    settled = decide.policy()
    assert not settled.override and settled.unclear is None
    for yes in ("1", "true", "TRUE", "Yes", "on", " on "):
        monkeypatch.setenv("FORGE_TRUST_PROJECT", yes)
        settled = decide.policy()
        assert settled.override and settled.unclear is None, yes
    for no in ("", "0", "false", "No", "OFF"):
        monkeypatch.setenv("FORGE_TRUST_PROJECT", no)
        settled = decide.policy()
        assert not settled.override and settled.unclear is None, no
    for unclear in ("2", "y", "enable", "truee"):
        monkeypatch.setenv("FORGE_TRUST_PROJECT", unclear)
        settled = decide.policy()
        assert not settled.override
        assert f"FORGE_TRUST_PROJECT='{unclear}' is not understood" in (settled.unclear or "")
        assert decide.policy(trust_project=True).unclear is None  # --trust-project settles it
    monkeypatch.setenv("FORGE_TRUST_PROJECT", "0")
    monkeypatch.setenv("FORGE_REQUIRE_TRUST", "yes")
    assert decide.policy().require and decide.policy(strict=True).strict


def test_only_trust_reads_the_trust_variables() -> None:
    # one owner (issue 29 item 2): no other module names FORGE_TRUST_PROJECT's reader
    package = Path(decide.__file__).resolve().parent.parent
    readers = sorted(str(p.relative_to(package)) for p in package.rglob("*.py")
                     if "OVERRIDE_VAR)" in p.read_text() or "REQUIRE_VAR)" in p.read_text()
                     or 'environ.get("FORGE_TRUST_PROJECT"' in p.read_text())
    assert readers == ["trust/decide.py"]


def test_an_unclear_override_is_a_warning_in_the_run(project: Project, forge_run: Any) -> None:
    project.write_hooks([{"event": "session:start", "command": "echo project"}], trusted=False)
    yes = forge_run({"type": "session:start"}, env={"FORGE_TRUST_PROJECT": "Yes"})
    assert [r["stdout"] for r in yes.json["results"]] == ["project\n"]
    assert yes.json["warnings"] == []
    unclear = forge_run({"type": "session:start"}, env={"FORGE_TRUST_PROJECT": "yup"})
    assert unclear.json["results"] == []
    assert "FORGE_TRUST_PROJECT='yup' is not understood, so it trusts nothing" in unclear.json["warnings"][0]
    assert "forge-hook-run: warning: FORGE_TRUST_PROJECT='yup' is not understood" in unclear.stderr


def test_digest_is_sha256() -> None:
    import hashlib

    assert trust.digest(b"hooks") == hashlib.sha256(b"hooks").hexdigest()


def test_a_run_reads_the_recorded_words_and_an_older_record_reads_the_commands(tmp_path: Path) -> None:
    (tmp_path / "s.sh").write_text("exit 1")
    path = hooks_file(tmp_path, [{"event": "*", "command": 'out="$(./s.sh)"'}])
    trust.trust(path, path.read_bytes())
    store = Path(trust.trust_store_path())
    doc = json.loads(store.read_text())
    assert doc["projects"][str(tmp_path)]["named"] == [["", "./s.sh"]]
    (tmp_path / "s.sh").write_text("exit 0")
    assert trust.check(path, path.read_bytes()).changed == "s.sh"
    for key in ("named", "reader"):  # a record of another reading: the commands are read again
        del doc["projects"][str(tmp_path)][key]
    store.write_text(json.dumps(doc))
    assert trust.check(path, path.read_bytes()).changed == "s.sh"


def test_a_non_utf8_root_is_keyed_by_its_bytes(tmp_path: Path) -> None:
    root = os.fsencode(tmp_path) + b"/caf\xe9"
    path = hooks_file(Path(os.fsdecode(root)))
    trust.trust(path, path.read_bytes())
    keys = list(json.loads(Path(trust.trust_store_path()).read_text())["projects"])
    assert keys == ["\0" + root.hex()]
    assert trust.is_trusted(path, path.read_bytes())
    twin = os.fsencode(tmp_path) + "/caf\ufffd".encode()  # what a lossy key would have confused it with
    assert not trust.is_trusted(hooks_file(Path(os.fsdecode(twin))), path.read_bytes())


def test_a_run_reads_the_store_once_and_again_only_when_it_changed(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The search for the project root and the check each read and parsed trust.json."""
    path = hooks_file(tmp_path)
    trust.trust(path, b"a")
    store = Path(trust.trust_store_path())
    reads: list[str] = []
    from forge_hookd.readfile import read_regular as real_read

    def read_regular(name: str, **options: Any) -> bytes | None:
        if name == str(store):
            reads.append(name)
        return real_read(name, **options)

    monkeypatch.setattr(trust, "read_regular", read_regular)
    assert trust.has_record(tmp_path) and trust.is_trusted(path, b"a")
    assert len(reads) == 1
    doc = json.loads(store.read_text())
    doc["projects"] = {}
    store.write_text(json.dumps(doc))  # changed by another process, in place
    assert not trust.has_record(tmp_path) and trust.state(path, b"a") is trust.TrustState.UNTRUSTED
    assert len(reads) == 2
