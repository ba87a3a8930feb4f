"""The managed layer (issue 35 item 1) through the installed executables: root-owned
files that run first, that no option, skip list, variable or project file turns off,
and that are refused, loudly and failing closed, when their ownership cannot be trusted.

The layer is ``FORGE_MANAGED_DIR`` pointing at a root-owned directory under tmp_path;
the ``/etc/forge`` cases run in a private mount namespace with an overlay over ``/etc``
(the real ``/etc`` is never written), and skip, saying so, where that is not allowed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import SUDO, ForgeRun, Project, console_script, installed, run_installed
from forge_hookd import managed
from forge_hookd.guards import Context, make
from forge_hookd.guards.paths import MANAGED_SYSTEM_DIR

pytestmark = pytest.mark.skipif(os.getuid() != 0, reason="the managed layer is root-owned: these tests need root")

DENY_SUDO: dict[str, Any] = {"id": "org-sudo", "event": "tool:pre_execute:bash",
                             "command": "echo 'Blocked: the organisation forbids this'; exit 1"}
SAYS: dict[str, Any] = {"event": "tool:pre_execute:bash", "command": "echo managed-ran >&2"}
WRITE: dict[str, Any] = {"type": "tool:pre_execute", "tool_name": "write", "data": {"tool_args": {"path": "x"}}}
POST: dict[str, Any] = {**SUDO, "type": "tool:post_execute"}


def write_layer(directory: Path, hooks: list[dict[str, Any]], *, name: str = "hooks.json", **top: Any) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks, **top}))
    path.chmod(0o644)
    return path


@pytest.fixture
def layer(tmp_path: Path) -> Path:
    directory = tmp_path / "managed"
    directory.mkdir(mode=0o755)
    directory.chmod(0o755)
    return directory


def run_with(forge_run: ForgeRun, layer: Path, event: dict[str, Any], *args: str, **env: str) -> Any:
    return forge_run(event, *args, env={"FORGE_MANAGED_DIR": str(layer), **env})


def test_managed_hooks_run_first_and_nothing_the_user_sets_turns_them_off(
        project: Project, forge_run: ForgeRun, layer: Path) -> None:
    write_layer(layer, [DENY_SUDO])
    project.write_hooks([{"id": "mine", "event": "tool:pre_execute:bash", "command": "true"}])
    project.trust()
    run = run_with(forge_run, layer, SUDO, "--no-global", "--no-project", FORGE_SKIP="org-sudo",
                   FORGE_CONFIG_DIR=str(project.root / "elsewhere"), FORGE_TRUST_PROJECT="1")
    assert run.exit_status == 1, run.stderr
    doc = run.json
    assert doc["blocked_by"]["source"] == "managed" and doc["results"][0]["hook"]["source"] == "managed"
    assert "managed[0] (org-sudo) 'tool:pre_execute:bash' ran though FORGE_SKIP names it: a managed hook cannot " \
           "be skipped" in doc["warnings"]
    # run first, above the project's hooks
    write_layer(layer, [SAYS])
    doc = run_with(forge_run, layer, SUDO).json
    assert [r["hook"]["source"] for r in doc["results"]] == ["managed", "project"]


def test_drop_ins_run_after_hooks_json_in_name_order(project: Project, forge_run: ForgeRun, layer: Path) -> None:
    write_layer(layer, [SAYS])
    drop_in = layer / "managed.d"
    drop_in.mkdir(mode=0o755)
    write_layer(drop_in, [SAYS], name="20-b.json")
    write_layer(drop_in, [DENY_SUDO], name="10-a.json")
    doc = run_with(forge_run, layer, SUDO).json
    assert [r["hook"]["source"] for r in doc["results"]] == ["managed", "managed:10-a"]
    assert doc["blocked_by"]["source"] == "managed:10-a"


@pytest.mark.parametrize("spoil", ["file_group_writable", "file_not_root", "dir_others_writable", "file_symlink",
                                   "dir_symlink"])
def test_a_managed_file_that_fails_its_checks_is_refused_and_its_events_denied(
        project: Project, forge_run: ForgeRun, layer: Path, tmp_path: Path, spoil: str) -> None:
    path = write_layer(layer, [SAYS])
    where = layer
    if spoil == "file_group_writable":
        path.chmod(0o664)
    elif spoil == "file_not_root":
        os.chown(path, 65534, 65534)
    elif spoil == "dir_others_writable":
        layer.chmod(0o757)
    elif spoil == "file_symlink":
        real = write_layer(tmp_path / "real", [SAYS])
        path.unlink()
        path.symlink_to(real)
    else:
        where = tmp_path / "link"
        where.symlink_to(layer)
    run = run_with(forge_run, where, SUDO)
    assert run.exit_status == 1, run.stderr
    doc = run.json
    assert doc["results"] == [] and doc["blocked_by"]["source"] == "managed"
    assert "is refused" in doc["reason"]
    assert any("managed policy refused" in w for w in doc["warnings"])
    assert "warning:" in run.stderr and "managed policy refused" in run.stderr
    # an event its hooks would not judge passes, with the warning; so does one that cannot block.
    # A link is never followed, so what it holds is unknown: every event that can block is denied
    other = run_with(forge_run, where, WRITE)
    assert other.exit_status == (1 if spoil == "file_symlink" else 0), other.stderr
    other = run_with(forge_run, where, POST)
    assert other.exit_status == 0 and "managed policy refused" in other.stderr


def test_an_unparseable_managed_file_denies_every_blocking_event(
        project: Project, forge_run: ForgeRun, layer: Path) -> None:
    (layer / "hooks.json").write_text('{"hooks": [')
    (layer / "hooks.json").chmod(0o644)
    for event in (SUDO, WRITE):
        run = run_with(forge_run, layer, event)
        assert run.exit_status == 1 and run.json["blocked_by"]["source"] == "managed", run.stderr
    assert run_with(forge_run, layer, POST).exit_status == 0
    # through a dialect: the agent's own deny, never a traceback
    claude = {"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": "x"},
              "session_id": "s", "cwd": str(project.root)}
    run = run_with(forge_run, layer, claude, "--dialect", "claude")
    assert "Traceback" not in run.stderr
    assert json.loads(run.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_managed_only_leaves_user_and_project_hooks_unread_and_says_so(
        project: Project, forge_run: ForgeRun, layer: Path) -> None:
    write_layer(layer, [SAYS], managed_only=True)
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "exit 1"}])
    project.trust()
    run = run_with(forge_run, layer, SUDO, "--trace")
    assert run.exit_status == 0, run.stderr
    doc = run.json
    assert [r["hook"]["source"] for r in doc["results"]] == ["managed"]
    assert any("sets managed_only, so only managed hooks run" in w for w in doc["warnings"])
    assert "trace: read managed " in run.stderr


def test_the_trace_the_log_list_and_check_show_the_managed_source(
        project: Project, forge_run: ForgeRun, layer: Path) -> None:
    write_layer(layer, [SAYS])
    env = {"FORGE_MANAGED_DIR": str(layer)}
    run = forge_run(SUDO, "--trace", env=env)
    assert f"trace: read managed {layer}/hooks.json: 1 hook(s), root-owned" in run.stderr
    logged = json.loads((project.home / ".local/state/forge/runs.jsonl").read_text().splitlines()[-1])
    assert logged["files"][0]["scope"] == "managed" and logged["files"][0]["trust"] == "root-owned"
    listed = run_installed(["list", "--json"], cwd=project.root, env=env, prog="forge-hook")
    assert [h["name"] for h in json.loads(listed.stdout)] == ["managed[0]"]
    checked = run_installed(["check"], cwd=project.root, env=env, prog="forge-hook")
    assert checked.exit_status == 0 and f"managed  {layer}/hooks.json: 1 hook (root-owned)" in checked.stdout
    (layer / "hooks.json").chmod(0o666)
    checked = run_installed(["check"], cwd=project.root, env=env, prog="forge-hook")
    assert checked.exit_status == 1 and "managed policy refused" in checked.stdout
    run = forge_run(SUDO, "--trace", env=env)
    assert f"trace: refused managed {layer}/hooks.json" in run.stderr


def test_self_protection_covers_the_managed_layer() -> None:
    assert MANAGED_SYSTEM_DIR == managed.SYSTEM_DIR
    ctx = Context.from_env("/work/p", {"HOME": "/home/u", "FORGE_MANAGED_DIR": "/srv/forge-policy"})
    guard = make("self_protection")
    for tool, args in (("write", {"file_path": "/etc/forge/managed.d/x.json"}),
                       ("bash", {"command": "rm -rf /etc/forge"}),
                       ("bash", {"command": "echo '{}' > /srv/forge-policy/hooks.json"}),
                       ("bash", {"command": "forge-hook policy pull ./mine.json@sha256:" + "0" * 64})):
        assert guard.judge(tool, args, ctx).decision == "deny", args
    assert guard.judge("write", {"file_path": "/etc/hosts"}, ctx).decision == "allow"


# -- a non-root user, and /etc/forge itself ---------------------------------------------
@pytest.fixture
def open_tree() -> Iterator[Path]:
    """A root-owned 0755 tree under /tmp that the user nobody can read."""
    top = Path(tempfile.mkdtemp(prefix="forge-managed-"))
    top.chmod(0o755)
    yield top
    shutil.rmtree(top)


@pytest.mark.skipif(not shutil.which("setpriv"), reason="needs setpriv to run as nobody")
def test_a_non_root_user_runs_the_managed_hooks_and_cannot_plant_one(open_tree: Path) -> None:
    layer, project, home = open_tree / "layer", open_tree / "project", open_tree / "home"
    layer.mkdir(mode=0o755)
    project.mkdir(mode=0o755)
    home.mkdir()
    os.chown(home, 65534, 65534)
    write_layer(layer, [DENY_SUDO])
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "FORGE_MANAGED_DIR": str(layer), "FORGE_LOG": "0"}

    def as_nobody(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", console_script("forge-hook-run"),
                               "--event", "tool:pre_execute", "--tool", "bash", "--data", '{"tool_args": {}}', *args],
                              cwd=project, env=env, capture_output=True, text=True, timeout=60)

    run = as_nobody("--no-global", "--no-project")
    assert run.returncode == 1 and json.loads(run.stdout)["blocked_by"]["source"] == "managed", run.stderr
    mine = layer / "managed.d"
    mine.mkdir(mode=0o755)
    write_layer(mine, [SAYS], name="mine.json")
    os.chown(mine / "mine.json", 65534, 65534)  # nobody's own file is not the organisation's
    layer.joinpath("hooks.json").unlink()
    run = as_nobody()
    assert run.returncode == 1 and "is owned by uid 65534, not root" in json.loads(run.stdout)["reason"]


def _in_etc_namespace(script: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``script`` run by sh in a private mount namespace where /etc is an overlay (the
    real /etc is never written)."""
    upper, work = tmp_path / "upper", tmp_path / "work"
    upper.mkdir()
    work.mkdir()
    # Cold: a resident runner (pytest --warm) lives in the original mount namespace, where
    # /etc/forge does not exist; the warm client does not compare mount namespaces (yet).
    setup = (f"mount -t overlay overlay -o lowerdir=/etc,upperdir={upper},workdir={work} /etc || exit 97\n"
             "mkdir -m 755 /etc/forge || exit 97\nexport FORGE_WARM=0\n")
    return subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", setup + script],
                          capture_output=True, text=True, timeout=120)


def test_forge_managed_dir_adds_to_etc_forge_but_turns_nothing_off(
        project: Project, layer: Path, tmp_path: Path) -> None:
    system = write_layer(tmp_path / "system", [DENY_SUDO])
    write_layer(layer, [SAYS], managed_only=True)  # beside /etc/forge: managed_only does not count
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "echo project-ran >&2"}])
    project.trust()
    runner = installed("forge-hook-run")
    script = (f"cp {system} /etc/forge/hooks.json && chmod 644 /etc/forge/hooks.json || exit 97\n"
              f"cd {project.root} && FORGE_MANAGED_DIR={layer} {runner} --keep-going --event tool:pre_execute "
              "--tool bash --data '{\"tool_args\": {}}'")
    run = _in_etc_namespace(script, tmp_path)
    if run.returncode == 97 or "unshare" in run.stderr and run.returncode != 1:
        pytest.skip(f"SKIPPED LOUDLY: cannot overlay /etc in a private mount namespace here: {run.stderr.strip()}")
    assert not os.path.exists("/etc/forge")  # the real /etc never saw it
    doc = json.loads(run.stdout)
    assert [r["hook"]["source"] for r in doc["results"]] == ["managed", "managed:hooks", "project"]
    assert doc["blocked_by"]["source"] == "managed"
    assert any("'managed_only' ignored: it counts only in /etc/forge" in w for w in doc["warnings"])


def test_etc_forge_sets_managed_only(project: Project, tmp_path: Path) -> None:
    system = write_layer(tmp_path / "system", [SAYS], managed_only=True)
    project.write_hooks([{"event": "tool:pre_execute:bash", "command": "exit 1"}])
    project.trust()
    runner = installed("forge-hook-run")
    script = (f"mkdir -m 755 /etc/forge/managed.d && cp {system} /etc/forge/managed.d/10-org.json && "
              "chmod 644 /etc/forge/managed.d/10-org.json || exit 97\n"
              f"cd {project.root} && FORGE_MANAGED_DIR=/nonexistent {runner} --event tool:pre_execute "
              "--tool bash --data '{\"tool_args\": {}}'")
    run = _in_etc_namespace(script, tmp_path)
    if run.returncode == 97:
        pytest.skip(f"SKIPPED LOUDLY: cannot overlay /etc in a private mount namespace here: {run.stderr.strip()}")
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert [r["hook"]["source"] for r in doc["results"]] == ["managed:10-org"]
    assert not os.path.exists("/etc/forge")  # the real /etc never saw it
