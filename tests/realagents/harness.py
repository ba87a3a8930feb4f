"""Run the real agent CLIs offline, with a hook of our choosing: Claude Code, Codex,
Gemini, Copilot, Qwen Code, OpenCode, Kilo and Cline.

Each agent is installed once, at a pinned version, with ``npm install --prefix`` into a
cache the tests own (``$FORGE_AGENT_CACHE``, else ``$XDG_CACHE_HOME`` or ``$HOME/.cache``, then
``forge-hook-run-agents``: about 2.3 GB, downloaded once),
then run headless against the scripted model server (model_server.py) on 127.0.0.1, in a
fresh home under the test's tmp_path, with the folder trusted, hooks enabled and the
shell tool allowed, so that nothing waits for a person. tests/realagents/README.md says
which flag or setting does what, and why.
"""

from __future__ import annotations

import fcntl
import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from tests.realagents.model_server import ModelServer, Recorded, Script

INSTALL_TIMEOUT = 900.0
RUN_TIMEOUT = 120.0
PROMPT = "Run the command the test asked for."


@dataclass(frozen=True)
class AgentPackage:
    name: str       # our short name, also the dialect name
    package: str    # the npm package
    version: str    # pinned: the payloads and answer rules recorded here are this version's
    binary: str     # the command the package installs

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"


PACKAGES = {
    "claude": AgentPackage("claude", "@anthropic-ai/claude-code", "2.1.328", "claude"),
    "codex": AgentPackage("codex", "@openai/codex", "0.169.0", "codex"),
    "gemini": AgentPackage("gemini", "@google/gemini-cli", "0.61.0", "gemini"),
    # BYOK mode (COPILOT_PROVIDER_BASE_URL): "GitHub authentication is not required when
    # using a custom provider" (copilot help providers), so no GitHub login, no token.
    "copilot": AgentPackage("copilot", "@github/copilot", "1.0.102", "copilot"),
    # Claude-compatible hooks (dialects/family.py); speaks Anthropic's Messages API with
    # --auth-type anthropic and ANTHROPIC_BASE_URL, so the same model server serves it.
    "qwen": AgentPackage("qwen", "@qwen-code/qwen-code", "0.24.4", "qwen"),
    # forge reaches OpenCode and Kilo through the JS plugin forge-hook install writes
    # (agents/opencode_plugin.js); both speak Anthropic's Messages API to the model server.
    "opencode": AgentPackage("opencode", "opencode-ai", "1.18.33", "opencode"),
    # 7.8.1's postinstall wants a platform package the registry lacks; 7.7.7 installs.
    "kilo": AgentPackage("kilo", "@kilocode/cli", "7.7.7", "kilo"),
    "cline": AgentPackage("cline", "cline", "3.0.65", "cline"),
}
#: The agents every shared real-agent test runs (the matrix's columns). Qwen Code has tests
#: of its own (tests/dialects/test_family_agents.py): it is Claude's protocol under other names.
#: OpenCode, Kilo and Cline too (tests/agents/test_plugin_agents.py): forge reaches them only
#: through what forge-hook install writes (a plugin, hook executables), not a hooks setting.
AGENTS = ("claude", "codex", "gemini", "copilot")
#: The agents the harness runs with no ``hooks=`` of its own: the test installs forge into
#: them (forge-hook install --agent NAME, in ``adjust``).
INSTALLED_ONLY = ("opencode", "kilo", "cline")

# The native event names of the hooks the harness can configure, per agent.
PRE_TOOL = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool", "copilot": "preToolUse",
            "qwen": "PreToolUse"}
POST_TOOL = {"claude": "PostToolUse", "codex": "PostToolUse", "gemini": "AfterTool", "copilot": "postToolUse",
             "qwen": "PostToolUse"}
PROMPT_EVENT = {"claude": "UserPromptSubmit", "codex": "UserPromptSubmit", "gemini": "BeforeAgent",
                "copilot": "userPromptSubmitted", "qwen": "UserPromptSubmit"}
TOOL_EVENTS = {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "BeforeTool", "AfterTool"}

# Variables that would point an agent at a real account or a real config: never inherited.
_SCRUBBED_PREFIXES = ("ANTHROPIC_", "CLAUDE", "OPENAI_", "CODEX_", "GEMINI_", "GOOGLE_", "VERTEX", "AWS_",
                      "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy",
                      "COPILOT_", "GH_", "GITHUB_", "QWEN_", "DASHSCOPE_")


class AgentUnavailable(Exception):
    """The agent cannot be installed here (no npm, or the install failed): says why."""


class NpmMissing(AgentUnavailable):
    """No npm on PATH: the one reason the real-agent tests skip instead of failing."""


#: The environment as the user gave it, read when this module is first imported: the
#: tests' isolated_home fixture later points HOME and the XDG directories into tmp_path
#: and clears FORGE_*, and conftest.py imports this module before any fixture runs.
USER_ENVIRONMENT: dict[str, str] = dict(os.environ)


def user_home() -> Path:
    """The user's home as their environment says it ($HOME), not the passwd entry's: a
    user (or CI) with HOME elsewhere keeps the cache there."""
    home = USER_ENVIRONMENT.get("HOME")
    return Path(home) if home else Path(pwd.getpwuid(os.getuid()).pw_dir)


def cache_root() -> Path:
    """Where the agents are installed: ``$FORGE_AGENT_CACHE``, else
    ``$XDG_CACHE_HOME/forge-hook-run-agents``, else ``$HOME/.cache/forge-hook-run-agents``,
    as the user's environment says (about 2.3 GB for the eight agents)."""
    if configured := USER_ENVIRONMENT.get("FORGE_AGENT_CACHE"):
        return Path(configured).expanduser()
    xdg = USER_ENVIRONMENT.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else user_home() / ".cache"  # the XDG spec ignores a relative one
    return base / "forge-hook-run-agents"


def package_dir(agent: str) -> Path:
    pkg = PACKAGES[agent]
    return cache_root() / f"{pkg.name}-{pkg.version}"


def agent_binary(agent: str) -> Path:
    return package_dir(agent) / "node_modules" / ".bin" / PACKAGES[agent].binary


def ensure_installed(agent: str) -> Path:
    """The agent's executable, installed on first use; later runs reuse the cache.

    The install goes to a scratch directory renamed into place when npm succeeded, under
    a lock, so that a broken or concurrent install never leaves a half-filled cache.
    """
    binary = agent_binary(agent)
    if binary.exists():
        return binary
    npm = shutil.which("npm")
    if npm is None:
        raise NpmMissing("npm is not on PATH: the real-agent tests need Node.js and npm")
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if binary.exists():
            return binary
        scratch = root / f".{package_dir(agent).name}.{os.getpid()}"
        shutil.rmtree(scratch, ignore_errors=True)
        scratch.mkdir()
        env = {**os.environ, "HOME": str(user_home())}  # the user's npm config and cache
        argv = [npm, "install", "--prefix", str(scratch), *_machine_npm_config(npm, env), "--no-audit", "--no-fund",
                "--no-update-notifier", "--loglevel=error", PACKAGES[agent].spec]
        try:
            done = _run_bounded(argv, cwd=root, env=env, timeout=INSTALL_TIMEOUT)
        finally:
            if not (scratch / "node_modules" / ".bin" / PACKAGES[agent].binary).exists():
                shutil.rmtree(scratch, ignore_errors=True)
        if done.exit_status != 0 or done.timed_out:
            hint = (" npm could not reach its registry or trust its certificate: check `npm config get registry`,"
                    " `cafile` and `proxy` (the machine's npmrc is used)"
                    if re.search(r"CERT|ENOTFOUND|ECONNREFUSED|EAI_AGAIN|ETIMEDOUT", done.stderr) else "")
            raise AgentUnavailable(f"npm install {PACKAGES[agent].spec} failed (exit {done.exit_status},"
                                   f" timed out: {done.timed_out}).{hint} npm said: {done.stderr[-2000:]}")
        shutil.rmtree(package_dir(agent), ignore_errors=True)
        scratch.rename(package_dir(agent))
    return binary


def _machine_npm_config(npm: str, env: Mapping[str, str]) -> list[str]:
    """``--globalconfig`` naming the machine's own npmrc: ``--prefix`` moves npm's default
    for it to PREFIX/etc/npmrc, which would drop a company's proxy CA or registry
    (SELF_SIGNED_CERT_IN_CHAIN on every install; issue 29 item 9). The user's ~/.npmrc
    is read anyway (HOME is the user's)."""
    done = subprocess.run([npm, "config", "get", "globalconfig"], capture_output=True, text=True, env=dict(env),
                          stdin=subprocess.DEVNULL, timeout=60, check=False)
    path = done.stdout.strip()
    return [f"--globalconfig={path}"] if done.returncode == 0 and path and os.path.isfile(path) else []


# -- running ----------------------------------------------------------------------------


@dataclass
class Finished:
    exit_status: int
    stdout: str
    stderr: str
    timed_out: bool


def _run_bounded(argv: list[str], *, cwd: Path, env: Mapping[str, str], timeout: float) -> Finished:
    """Run ``argv`` in its own process group; on timeout kill the group; always reap.

    Whatever the agent leaves in its group (Gemini CLI relaunches itself in a child node
    process, agents start shells) is killed too once the leader is done, and reaped
    where it became our child, so that no test leaves a process or a zombie behind.
    """
    proc = subprocess.Popen(argv, cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc.pid)
        try:
            out, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:  # something outside the group holds the pipes
            proc.kill()
            out, err = b"", b"(output lost: a process outside the agent's group kept its pipes open)"
    finally:
        _kill_group(proc.pid)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        _end_daemons(env)
    return Finished(proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), timed_out)


def _kill_group(pgid: int) -> None:
    """SIGKILL every process of the group and wait until each is gone.

    When pytest is a child subreaper (forge-hook-run, run in-process by other tests,
    makes its process one), the group's orphans are reparented to pytest and die as its
    zombies: those are reaped here. Others are waited for until their parent reaps them.
    """
    members = [p for p in psutil.process_iter() if _pgid(p.pid) == pgid]
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        return
    deadline = time.monotonic() + 10
    pending = {p.pid for p in members if p.pid != pgid}  # the leader is Popen's to reap
    while pending and time.monotonic() < deadline:
        for pid in list(pending):
            if _reaped_or_gone(pid):
                pending.discard(pid)
        if pending:
            time.sleep(0.01)


#: Agents' own daemons that leave the agent's process group and outlive the agent: Cline
#: 3.0's hub (``--cline-hub-daemon``, one per machine on a fixed port, reused by the next
#: run while it lives: a test that found one left by anybody measured nothing of its own).
_DAEMON_FLAGS = ("--cline-hub-daemon",)
_MARK = "FORGE_TEST_LEAK_MARK"  # helpers.LEAK_VAR: what this test started carries it


def _end_daemons(env: Mapping[str, str]) -> None:
    """End the daemons the agent started (they carry this test's mark), and wait until
    each is gone."""
    mark = env.get(_MARK) or os.environ.get(_MARK)
    if not mark:
        return
    daemons = []
    for proc in psutil.process_iter():
        try:
            if any(flag in proc.cmdline() for flag in _DAEMON_FLAGS) and proc.environ().get(_MARK) == mark:
                proc.kill()
                daemons.append(proc.pid)
        except psutil.Error:
            continue
    deadline = time.monotonic() + 10
    while daemons and time.monotonic() < deadline:
        daemons = [pid for pid in daemons if not _reaped_or_gone(pid)]
        if daemons:
            time.sleep(0.01)


def _pgid(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except (ProcessLookupError, PermissionError):
        return None


def _reaped_or_gone(pid: int) -> bool:
    try:
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        return reaped == pid
    except ChildProcessError:  # not our child: gone once its own parent reaped it
        return not psutil.pid_exists(pid)


@dataclass
class AgentRun:
    agent: str
    exit_status: int
    stdout: str
    stderr: str
    timed_out: bool
    requests: list[Recorded]
    env: dict[str, str]  # what the agent was started with (to tell what it adds for hooks)

    def model_requests(self) -> list[Recorded]:
        """The requests that are turns of the conversation (not token counts, not side calls)."""
        return [r for r in self.requests if _is_turn(self.agent, r)]

    def describe(self) -> str:
        """Everything a failing assertion should show."""
        paths = [f"{r.method} {r.path}" for r in self.requests]
        return (f"{self.agent}: exit {self.exit_status}, timed out {self.timed_out}\nrequests: {paths}\n"
                f"--- stdout\n{self.stdout[-3000:]}\n--- stderr\n{self.stderr[-3000:]}")


def _is_turn(agent: str, request: Recorded) -> bool:
    if not isinstance(request.body, dict):
        return False
    if agent == "claude":
        return request.path.split("?")[0].endswith("/messages") and bool(request.body.get("tools"))
    if agent == "codex":
        return request.path.split("?")[0].endswith("/responses") and bool(request.body.get("tools"))
    if agent in ("copilot", "qwen", *INSTALLED_ONLY):
        return request.path.split("?")[0].endswith("/messages") and bool(request.body.get("tools"))
    return "GenerateContent" in request.path and bool(request.body.get("tools"))


@dataclass
class Workspace:
    """Where one agent run lives: a project folder and a home, both fresh."""

    project: Path
    home: Path
    extra_env: dict[str, str] = field(default_factory=dict)


def hook_config(hooks: Mapping[str, str | list[str]]) -> dict[str, Any]:
    """The ``hooks`` object the three agents share: event -> [{matcher, hooks: [command]}].

    Tool events get the matcher ``*`` (every tool); the others take no matcher. Several
    commands for one event run as separate entries of one group.
    """
    config: dict[str, Any] = {}
    for event, commands in hooks.items():
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": c}
                                           for c in ([commands] if isinstance(commands, str) else commands)]}
        if event in TOOL_EVENTS:
            group = {"matcher": "*", **group}
        config[event] = [group]
    return config


def configure(agent: str, ws: Workspace, base_url: str, hooks: Mapping[str, str | list[str]]) -> dict[str, str]:
    """Write the agent's settings for ``hooks`` and return the environment to run it with."""
    ws.project.mkdir(parents=True, exist_ok=True)
    ws.home.mkdir(parents=True, exist_ok=True)
    if agent == "copilot":
        return _configure_copilot(ws, base_url, hooks)
    if agent in INSTALLED_ONLY:
        if hooks:
            raise ValueError(f"{agent} takes no hooks= here: install forge into it (forge-hook install --agent {agent})"
                             " in the run's adjust")
        return {"opencode": _configure_opencode, "kilo": _configure_kilo, "cline": _configure_cline}[agent](
            ws, base_url)
    return {"claude": _configure_claude, "codex": _configure_codex, "gemini": _configure_gemini,
            "qwen": _configure_qwen}[agent](
        ws, base_url, hook_config(hooks))


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


def _configure_claude(ws: Workspace, base_url: str, hooks: dict[str, Any]) -> dict[str, str]:
    # Trust: without hasTrustDialogAccepted, -p mode still runs hooks but ignores the
    # project's permissions.allow, and Bash is then denied for want of a person to ask.
    _write_json(ws.home / ".claude.json", {
        "hasCompletedOnboarding": True,
        "projects": {str(ws.project): {"hasTrustDialogAccepted": True}},
    })
    _write_json(ws.project / ".claude" / "settings.json", {
        "permissions": {"allow": ["Bash"]},
        "hooks": hooks,
    })
    return {
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": "sk-ant-forge-dummy",
        # No telemetry, no auto-update, no error reports: nothing but the model server.
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
    }


def _configure_codex(ws: Workspace, base_url: str, hooks: dict[str, Any]) -> dict[str, str]:
    codex_home = ws.home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    (codex_home / "config.toml").write_text(
        'model = "gpt-forge"\n'
        'model_provider = "forge"\n'
        "check_for_update_on_startup = false\n"
        "[analytics]\nenabled = false\n"
        # hooks: on by default in 0.169.0 (stable), said here so that it is not a guess.
        # The plugin and app features sync a curated catalog from github.com and
        # chatgpt.com at start-up: off, so that nothing but the model server is contacted.
        "[features]\nhooks = true\nplugins = false\nremote_plugin = false\nplugin_sharing = false\napps = false\n"
        "[model_providers.forge]\n"
        'name = "forge scripted model"\n'
        f'base_url = "{base_url}/v1"\n'
        'wire_api = "responses"\n'
        'env_key = "FORGE_CODEX_DUMMY_KEY"\n'
        f'[projects."{ws.project}"]\n'
        'trust_level = "trusted"\n'
    )
    # A project's .codex/hooks.json is read once the project is trusted (above); each hook
    # must then also be trusted by its hash, which --dangerously-bypass-hook-trust waives.
    _write_json(ws.project / ".codex" / "hooks.json", {"hooks": hooks})
    return {"CODEX_HOME": str(codex_home), "FORGE_CODEX_DUMMY_KEY": "forge-dummy"}


def _configure_gemini(ws: Workspace, base_url: str, hooks: dict[str, Any]) -> dict[str, str]:
    _write_json(ws.home / ".gemini" / "settings.json", {
        # GOOGLE_GEMINI_BASE_URL alone selects the "gateway" auth type, which headless
        # mode refuses ("Invalid auth method selected"); the API-key type honours the URL.
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    })
    _write_json(ws.project / ".gemini" / "settings.json", {
        "hooksConfig": {"enabled": True},
        "hooks": hooks,
    })
    return {
        "GEMINI_API_KEY": "forge-dummy",
        "GOOGLE_GEMINI_BASE_URL": base_url,
        # Project hooks load only in a trusted folder, and --skip-trust comes too late
        # for the workspace settings (they are read before the flag is applied).
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
    }


def _configure_qwen(ws: Workspace, base_url: str, hooks: dict[str, Any]) -> dict[str, str]:
    _write_json(ws.home / ".qwen" / "settings.json", {
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
    })
    # Project hooks load in a trusted folder: every folder, while folder trust is off (its default).
    _write_json(ws.project / ".qwen" / "settings.json", {"hooks": hooks})
    return {"ANTHROPIC_BASE_URL": base_url, "ANTHROPIC_API_KEY": "sk-ant-forge-dummy"}


# OpenCode and Kilo (Kilo is OpenCode's runtime under its own names).
_OPENCODE_LIKE = {
    # agent: (config file, config directory name, plugin SDK package, environment prefix)
    "opencode": ("opencode.json", "opencode", "@opencode-ai/plugin", "OPENCODE"),
    "kilo": ("kilo.json", "kilo", "@kilocode/plugin", "KILO"),
}


def _configure_opencode_like(agent: str, ws: Workspace, base_url: str) -> dict[str, str]:
    config_file, name, sdk, prefix = _OPENCODE_LIKE[agent]
    _write_json(ws.project / config_file, {
        # The Anthropic provider (the AI SDK's) at the model server; a dummy key.
        "provider": {"anthropic": {"options": {"baseURL": f"{base_url}/v1", "apiKey": "sk-ant-forge-dummy"}}},
        # Headless `run` rejects whatever would ask a person: the tests' files live in
        # tmp_path, outside the project (external_directory).
        "permission": {"bash": "allow", "external_directory": "allow"},
        "autoupdate": False, "share": "disabled",
    })
    # At start-up the agent npm-installs its plugin SDK into every config directory it reads
    # (the project's .opencode/ or .kilo/, the user's ~/.config/NAME/): Npm.install skips a
    # directory whose node_modules exists and whose package-lock.json root lists every
    # dependency of its package.json. forge's plugin imports nothing from the SDK, so the
    # harness writes those three and no registry is contacted (the install took 100 s here).
    for where in (ws.project / f".{name}", ws.home / ".config" / name):
        (where / "node_modules").mkdir(parents=True, exist_ok=True)
        dependency = {sdk: PACKAGES[agent].version}
        _write_json(where / "package.json", {"dependencies": dependency})
        _write_json(where / "package-lock.json", {"lockfileVersion": 3, "packages": {"": {"dependencies": dependency}}})
    return {
        # `run` takes its directory from $PWD, not from the process's working directory.
        "PWD": str(ws.project),
        f"{prefix}_DISABLE_MODELS_FETCH": "1",  # models.dev: the bundled snapshot serves
        f"{prefix}_DISABLE_AUTOUPDATE": "1",
        f"{prefix}_DISABLE_SHARE": "1",
    }


def _configure_opencode(ws: Workspace, base_url: str) -> dict[str, str]:
    return _configure_opencode_like("opencode", ws, base_url)


def _configure_kilo(ws: Workspace, base_url: str) -> dict[str, str]:
    # Kilo's own switches, as its binary names them (not checked one by one: Kilo still
    # logs "initializing project indexing" and tries its provider's model list, and goes on).
    return {**_configure_opencode_like("kilo", ws, base_url),
            "KILO_TELEMETRY_LEVEL": "off", "KILO_DISABLE_SESSION_INGEST": "1", "KILO_DISABLE_PRESENCE": "1",
            "KILO_DISABLE_CODEBASE_INDEXING": "1"}


def _configure_cline(ws: Workspace, base_url: str) -> dict[str, str]:
    # What `cline auth -p anthropic -k KEY -m MODEL` writes, plus the base URL, which
    # `cline auth` takes for OpenAI-compatible providers only ("base URL is only supported
    # for OpenAI and OpenAI-compatible providers") but the anthropic provider's settings honour.
    _write_json(ws.home / ".cline" / "data" / "settings" / "providers.json", {
        "version": 1, "lastUsedProvider": "anthropic", "modes": {},
        "providers": {"anthropic": {"settings": {"provider": "anthropic", "apiKey": "sk-ant-forge-dummy",
                                                 "model": "claude-sonnet-4-5", "baseUrl": f"{base_url}/v1"},
                                    "updatedAt": "2026-01-01T00:00:00.000Z", "tokenSource": "manual"}}})
    return {}


def _configure_copilot(ws: Workspace, base_url: str, hooks: Mapping[str, str | list[str]]) -> dict[str, str]:
    # Copilot lists handlers directly under each event; "bash" is the Unix command.
    _write_json(ws.project / ".github" / "hooks" / "forge.json", {"version": 1, "hooks": {
        event: [{"type": "command", "bash": c, "timeoutSec": 60}
                for c in ([commands] if isinstance(commands, str) else commands)]
        for event, commands in hooks.items()}})
    return {
        # BYOK: our model server, Anthropic's Messages API (the one Claude Code uses too).
        "COPILOT_PROVIDER_BASE_URL": base_url,
        "COPILOT_PROVIDER_TYPE": "anthropic",
        "COPILOT_PROVIDER_API_KEY": "sk-ant-forge-dummy",
        "COPILOT_MODEL": "claude-sonnet-4",
    }


def agent_argv(agent: str, prompt: str = PROMPT, *, stream: bool = False) -> list[str]:
    """The agent's headless command line. ``stream``: Claude's stream-json, which holds
    what the person is shown (a hook's systemMessage as a ``system`` notice)."""
    binary = str(agent_binary(agent))
    if agent == "claude":
        return [binary, "-p", prompt, "--output-format", *(["stream-json", "--verbose"] if stream else ["json"])]
    if agent == "codex":
        return [binary, "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust",
                "--dangerously-bypass-approvals-and-sandbox", prompt]
    if agent == "copilot":
        # --trust-folder: the project's .github/hooks for this one session, nothing saved.
        # --allow-all-paths: the tests' files live in tmp_path, outside the project, and
        # headless Copilot denies a path it cannot ask about ("no one to approve").
        return [binary, "-p", prompt, "--allow-all-tools", "--allow-all-paths", "--trust-folder",
                "--disable-client-telemetry"]
    if agent in ("opencode", "kilo"):
        return [binary, "run", "--format", "json", "-m", "anthropic/claude-sonnet-4-5", prompt]
    if agent == "cline":
        # act mode, tools auto-approved (the default for a prompt on the command line)
        return [binary, "--json", "-P", "anthropic", "-m", "claude-sonnet-4-5", prompt]
    if agent == "qwen":
        return [binary, "-p", prompt, "--yolo", "--auth-type", "anthropic", "-m", "claude-sonnet-4",
                "--output-format", "json"]
    return [binary, "-p", prompt, "--yolo", "--output-format", "json"]


def agent_env(ws: Workspace, specific: Mapping[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_SCRUBBED_PREFIXES)}
    tmp = ws.home / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    env.update({"HOME": str(ws.home), "TMPDIR": str(tmp), "NO_COLOR": "1", "CI": "1"})
    env.update(specific)
    env.update(ws.extra_env)
    return env


def run_agent(agent: str, ws: Workspace, *, command: str, hooks: Mapping[str, str | list[str]],
              timeout: float = RUN_TIMEOUT, prompt: str = PROMPT, wrapper: Sequence[str] = (),
              adjust: Callable[[Workspace], None] | None = None, stream: bool = False) -> AgentRun:
    """Run ``agent`` once: the model asks its shell tool to run ``command``, then ends.

    ``hooks`` maps the agent's native event names to hook commands; ``wrapper`` is put
    before the agent's command line (``strace -f -o LOG``, say); ``adjust`` may change
    the settings files after they are written (to take a permission away, say).
    """
    ensure_installed(agent)
    with serving(command) as server:
        env = agent_env(ws, configure(agent, ws, server.base_url, hooks))
        if adjust is not None:
            adjust(ws)
        argv = agent_argv(agent, prompt, stream=True) if stream else agent_argv(agent, prompt)  # a test may stand in
        done = _run_bounded([*wrapper, *argv], cwd=ws.project, env=env, timeout=timeout)
        return AgentRun(agent, done.exit_status, done.stdout, done.stderr, done.timed_out, server.requests, env)


@contextmanager
def serving(command: str) -> Iterator[ModelServer]:
    with ModelServer(Script(command)) as server:
        yield server
