from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from forge_hookd import trust
from forge_hookd.errors import ConfigError

if TYPE_CHECKING:
    from conftest import Project


def test_store_lives_under_xdg_data_home(isolated_home: Path) -> None:
    assert Path(trust.trust_store_path()) == isolated_home / ".local/share/forge/trust.json"


def test_trust_cycle(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    assert trust.state(path, b"a") is trust.TrustState.UNTRUSTED
    trust.trust(path, b"a")
    assert trust.is_trusted(path, b"a")
    assert trust.state(path, b"b") is trust.TrustState.CHANGED
    assert trust.untrust(path) is True
    assert trust.untrust(path) is False
    assert trust.state(path, b"a") is trust.TrustState.UNTRUSTED


def test_records_are_keyed_by_resolved_path(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    trust.trust(tmp_path / "link" / "hooks.json", b"x")
    assert trust.is_trusted(tmp_path / "real" / "hooks.json", b"x")
    doc = json.loads(Path(trust.trust_store_path()).read_text())
    assert doc == {"version": 1, "trusted": {str(tmp_path / "real" / "hooks.json"): trust.digest(b"x")}}


def test_unreadable_store_is_never_overwritten(tmp_path: Path) -> None:
    store = Path(trust.trust_store_path())
    store.parent.mkdir(parents=True)
    store.write_text("{broken")
    with pytest.raises(ConfigError, match="cannot read the trust records"):
        trust.trust(tmp_path / "h.json", b"x")
    with pytest.raises(ConfigError):
        trust.state(tmp_path / "h.json", b"x")
    assert store.read_text() == "{broken"
    store.write_text('{"trusted": []}')
    with pytest.raises(ConfigError, match="expected shape"):
        trust.untrust(tmp_path / "h.json")


def test_override_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not trust.override_from_env() and trust.override_warning() is None
    for yes in ("1", "true", "TRUE", "Yes", "on", " on "):
        monkeypatch.setenv("FORGE_TRUST_PROJECT", yes)
        assert trust.override_from_env() and trust.override_warning() is None, yes
    for no in ("", "0", "false", "No", "OFF"):
        monkeypatch.setenv("FORGE_TRUST_PROJECT", no)
        assert not trust.override_from_env() and trust.override_warning() is None, no
    for unclear in ("2", "y", "enable", "truee"):
        monkeypatch.setenv("FORGE_TRUST_PROJECT", unclear)
        assert not trust.override_from_env()
        assert f"FORGE_TRUST_PROJECT='{unclear}' is not understood" in (trust.override_warning() or "")


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
