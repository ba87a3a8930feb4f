"""forge-hook install into the real agents (tests/realagents: pinned CLIs from npm, offline).

After ``forge-hook install --agent NAME --project`` in a project whose settings already
hold the user's own, unrelated hook, the real agent runs forge-hook-run on its pre-tool
event (a forge hook denies and the model is told why) and still runs the user's hook.
Codex runs without ``--dangerously-bypass-hook-trust``: forge's hooks run because
install recorded Codex's trust for them, and the user's because the test records it as
codex's /hooks would; Codex's own ``hooks/list`` confirms forge's hashes are its own.
"""

from __future__ import annotations

import json
import os
import select
import shlex
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from helpers import BIN_DIR, Project, installed, require_agent
from forge_hookd.agents import codex_trust as codextrust
from forge_hookd.agents.places import handlers, runs_forge
from tests.realagents import harness
from tests.realagents.harness import Workspace

pytestmark = [pytest.mark.agents, pytest.mark.slow]
REASON = "forge-wire-5e0c: installed forge says no"


def install(project: Project) -> Callable[[str], None]:
    def run(agent: str) -> None:
        done = subprocess.run([installed("forge-hook"), "install", "--agent", agent, "--project"],
                              cwd=project.root, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    return run


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


# The user's own settings, each with an unrelated hook of theirs on the pre-tool event.
def users_settings(agent: str, ws: Workspace, marker: Path) -> None:
    touch = f"touch {shlex.quote(str(marker))}"
    if agent == "claude":
        write(ws.project / ".claude" / "settings.json", json.dumps({
            "permissions": {"allow": ["Bash"]},
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": touch}]}]}},
            indent=4) + "\n")
    elif agent == "gemini":
        write(ws.project / ".gemini" / "settings.json",
              '// the user\'s own Gemini settings\n{\n  "hooks": {\n    "BeforeTool": [\n'
              f'      {{"matcher": "run_shell_command", "hooks": [{{"name": "mine", "type": "command", '
              f'"command": {json.dumps(touch)}}}]}} // mine\n    ]\n  }}\n}}\n')
    elif agent == "codex":
        hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": touch}]}]}}
        path = ws.project / ".codex" / "hooks.json"
        write(path, json.dumps(hooks, indent=2) + "\n")
        [theirs] = handlers("codex", hooks)  # trusted by the user in codex's /hooks
        with (ws.home / ".codex" / "config.toml").open("a") as config:
            config.write(f'[hooks.state.{json.dumps(codextrust.hook_key(str(path), theirs))}]\n'
                         f'trusted_hash = "{codextrust.hook_hash(theirs)}"\n')
    else:
        (ws.project / ".github" / "hooks" / "forge.json").unlink()  # the harness's; install makes its own
        write(ws.project / ".github" / "hooks" / "mine.json", json.dumps({"version": 1, "hooks": {
            "preToolUse": [{"type": "command", "bash": touch, "timeoutSec": 30}]}}))


@pytest.mark.parametrize("agent", ["claude", "gemini", "codex", "copilot"])
def test_after_install_the_agent_runs_forge_and_the_users_own_hook(
        agent: str, project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    require_agent(agent)
    target, marker = tmp_path / "created", tmp_path / "users-hook-ran"
    project.write_hooks([{"event": "tool:pre_execute:bash",
                          "command": f"grep -q created && {{ echo '{REASON}'; exit 1; }} || exit 0"}])
    if agent == "codex":  # trust as Codex keeps it, not waived
        argv = harness.agent_argv
        monkeypatch.setattr(harness, "agent_argv", lambda name, prompt=harness.PROMPT: [
            word for word in argv(name, prompt) if word != "--dangerously-bypass-hook-trust"])

    def adjust(ws: Workspace) -> None:
        users_settings(agent, ws, marker)
        install(project)(agent)

    # forge installed and on the agent's PATH, as install.sh leaves it: the project's
    # command finds it there (without it, the command denies: test_agent_limit_agents.py)
    ws = Workspace(project=project.root, home=project.home, extra_env={"PATH": f"{BIN_DIR}:{os.environ['PATH']}"})
    run = harness.run_agent(agent, ws, command=f"touch {target}", hooks={}, adjust=adjust)
    assert not run.timed_out, run.describe()
    assert not target.exists(), run.describe()
    assert REASON in run.model_requests()[-1].text(), run.describe()
    assert marker.exists(), "the user's own hook did not run\n" + run.describe()


def test_codex_reports_forges_hashes_as_its_own_and_trusted(project: Project, tmp_path: Path) -> None:
    """Codex's app-server lists every hook with the hash it computes and its trust."""
    require_agent("codex")
    ws = Workspace(project=project.root, home=project.home)
    env = harness.agent_env(ws, harness.configure("codex", ws, "http://127.0.0.1:9", {}))
    install(project)("codex")
    listed = hooks_list(ws, env)
    hooks_json = project.root / ".codex" / "hooks.json"
    forge = [h for h in handlers("codex", json.loads(hooks_json.read_text())) if runs_forge(h.command, "codex")]
    assert forge
    by_key = {entry["key"]: entry for entry in listed}
    for handler in forge:
        entry = by_key[codextrust.hook_key(str(hooks_json), handler)]
        assert entry["currentHash"] == codextrust.hook_hash(handler), entry
        assert entry["trustStatus"] == "trusted", entry


def hooks_list(ws: Workspace, env: dict[str, str]) -> list[dict[str, Any]]:
    """``hooks/list`` of ``codex app-server`` (JSON-RPC on stdio), in the project."""
    requests = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"clientInfo": {"name": "forge",
                                                                                             "version": "1"}}},
                {"jsonrpc": "2.0", "method": "initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(ws.project)]}}]
    proc = subprocess.Popen([str(harness.agent_binary("codex")), "app-server"], cwd=ws.project, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(b"".join(json.dumps(r).encode() + b"\n" for r in requests))
        proc.stdin.flush()  # the server answers while stdin is open, and ends at its EOF
        deadline = time.monotonic() + harness.RUN_TIMEOUT
        while time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], max(deadline - time.monotonic(), 0))
            line = proc.stdout.readline() if ready else b""
            if not line:
                break
            message = json.loads(line)
            if message.get("id") == 2:
                hooks: list[dict[str, Any]] = message["result"]["data"][0]["hooks"]
                return hooks
        pytest.fail("codex app-server did not answer hooks/list")
    finally:
        proc.stdin.close()
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        proc.stdout.close()


#: Codex reads its requirements from /etc/codex only (codex-rs/config/src/loader/mod.rs:
#: no flag or variable moves it), so the agent runs in a mount namespace of its own whose
#: /etc is the machine's with the image's etc/ laid over it (overlayfs): the machine's /etc
#: is never written. "$1" the image's etc, "$2" overlayfs's work directory, then the agent.
OVER_ETC = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
            'mount -t overlay overlay -o "lowerdir=/etc,upperdir=$1,workdir=$2" /etc && shift 2 && exec "$@"', "sh"]


def test_codex_runs_forge_from_its_managed_requirements_and_the_user_cannot_switch_it_off(
        project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``install --agent codex --system``: the real Codex runs forge-hook-run from
    /etc/codex/requirements.toml without the user's trust, and the deny holds though the
    user's config.toml says ``enabled = false`` for it."""
    require_agent("codex")
    image, work, target = tmp_path / "image", tmp_path / "overlay-work", tmp_path / "created"
    (image / "etc").mkdir(parents=True)
    work.mkdir()
    wrapper = [*OVER_ETC, str(image / "etc"), str(work)]
    if subprocess.run([*wrapper, "true"], capture_output=True, timeout=60).returncode != 0:
        pytest.skip("REAL-AGENT TEST SKIPPED: no mount namespace with overlayfs here (it needs root or "
                    "unprivileged user namespaces): the managed file cannot be put where Codex reads it")
    project.write_hooks([{"event": "tool:pre_execute:bash",
                          "command": f"grep -q created && {{ echo '{REASON}'; exit 1; }} || exit 0"}])
    done = subprocess.run([installed("forge-hook"), "install", "--agent", "codex", "--system", "--root", str(image)],
                          cwd=project.root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    argv = harness.agent_argv  # trust not waived: a managed hook needs none
    monkeypatch.setattr(harness, "agent_argv", lambda name, prompt=harness.PROMPT: [
        word for word in argv(name, prompt) if word != "--dangerously-bypass-hook-trust"])

    def switch_off(ws: Workspace) -> None:  # what /hooks writes to turn a hook off: ignored for a managed one
        with (ws.home / ".codex" / "config.toml").open("a") as config:
            for event in ("pre_tool_use", "permission_request"):
                config.write(f'[hooks.state."/etc/codex/requirements.toml:{event}:0:0"]\nenabled = false\n')

    run = harness.run_agent("codex", Workspace(project=project.root, home=project.home), command=f"touch {target}",
                            hooks={}, wrapper=wrapper, adjust=switch_off)
    assert not run.timed_out, run.describe()
    assert not target.exists(), run.describe()
    assert REASON in run.model_requests()[-1].text(), run.describe()
    assert not Path("/etc/codex/requirements.toml").exists()  # the machine's /etc untouched


@pytest.mark.parametrize("agent", ["copilot", "qwen"])
def test_the_agent_runs_forge_from_its_managed_file(
        agent: str, project: Project, tmp_path: Path) -> None:
    """``install --agent copilot|qwen --system``: the real agent runs forge-hook-run from
    its managed file and the deny holds. Copilot's policy directory is fixed
    (/etc/github-copilot/policy.d), so it runs with the image's etc/ laid over /etc, and
    the user's disableAllHooks does not turn a policy hook off; Qwen Code takes its
    system settings' path from QWEN_CODE_SYSTEM_SETTINGS_PATH."""
    require_agent(agent)
    image, work, target = tmp_path / "image", tmp_path / "overlay-work", tmp_path / "created"
    (image / "etc").mkdir(parents=True)
    work.mkdir()
    project.write_hooks([{"event": "tool:pre_execute:bash",
                          "command": f"grep -q created && {{ echo '{REASON}'; exit 1; }} || exit 0"}])
    done = subprocess.run([installed("forge-hook"), "install", "--agent", agent, "--system", "--root", str(image)],
                          cwd=project.root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    wrapper: list[str] = []
    extra: dict[str, str] = {}
    if agent == "copilot":
        wrapper = [*OVER_ETC, str(image / "etc"), str(work)]
        if subprocess.run([*wrapper, "true"], capture_output=True, timeout=60).returncode != 0:
            pytest.skip("REAL-AGENT TEST SKIPPED: no mount namespace with overlayfs here (it needs root or "
                        "unprivileged user namespaces): the policy file cannot be put where Copilot reads it")
    else:
        extra = {"QWEN_CODE_SYSTEM_SETTINGS_PATH": str(image / "etc/qwen-code/settings.json")}

    def switch_off(ws: Workspace) -> None:  # the user's switch for every hook: not a policy hook's
        if agent == "copilot":
            for settings in (ws.project / ".github/copilot/settings.json", ws.home / ".copilot/settings.json"):
                settings.parent.mkdir(parents=True, exist_ok=True)
                settings.write_text('{"disableAllHooks": true}\n')

    run = harness.run_agent(agent, Workspace(project=project.root, home=project.home, extra_env=extra),
                            command=f"touch {target}", hooks={}, wrapper=wrapper, adjust=switch_off)
    assert not run.timed_out, run.describe()
    assert not target.exists(), run.describe()
    assert REASON in run.model_requests()[-1].text(), run.describe()
    assert not Path("/etc/github-copilot/policy.d/forge.json").exists()  # the machine's /etc untouched
