"""install.sh, the README's first command, for real: into a prefix under tmp_path."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from forge_hookd.agents.places import forge_words, hook_command, project_command

ROOT = Path(__file__).resolve().parent.parent
#: What a checkout holds that install.sh reads.
CHECKOUT = ("install.sh", "pyproject.toml", "README.md", "forge_hookd", "man")
#: Every test here builds a virtualenv and installs into it: 14 to 34 s each, about a
#: fifth of the quick part's time (`-m 'not slow'` leaves them out).
pytestmark = pytest.mark.slow


def install(*args: str, home: Path, script: Path = ROOT / "install.sh",
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    caller = {k: v for k, v in os.environ.items() if k != "MANPATH"}  # the caller's would change the notes
    full_env = {**caller, "HOME": str(home), "PIP_DISABLE_PIP_VERSION_CHECK": "1", **(env or {})}
    return subprocess.run([str(script), "--python", sys.executable, *args], cwd=script.parent,
                          capture_output=True, text=True, timeout=600, env=full_env)


@pytest.fixture(autouse=True)
def not_the_sessions_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    """An installation made here is not the one the warm session's runner serves (--warm)."""
    for name in ("FORGE_WARM_DIR", "FORGE_WARM_REQUIRED"):
        monkeypatch.delenv(name, raising=False)


#: What an event that matches no hook never loads (bench/README.md, "tricks.py"). Only a
#: real install shows it: an editable one's finder loads pathlib for every interpreter.
LEAN_EVENT_PATH = {"pathlib", "urllib.parse", "subprocess", "psutil", "asyncio", "logging", "tempfile",
                   "forge_hookd.log.trace", "forge_hookd.dialects.base", "forge_hookd.guards"}


def modules_of_a_run(python: Path, cwd: Path) -> set[str]:
    """The modules one ``forge-hook-run --event session:start`` loads, under ``python``."""
    probe = ("import atexit, sys\n"
             "atexit.register(lambda: sys.__stderr__.write('MODULES ' + ' '.join(sorted(sys.modules))))\n"
             "sys.argv = ['forge-hook-run', '--event', 'session:start']\n"
             "from forge_hookd.__main__ import main\nmain()\n")
    proc = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, cwd=cwd, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return set(proc.stderr.rpartition("MODULES ")[2].split())


def copy_of_the_checkout(checkout: Path) -> Path:
    """What install.sh reads, copied to ``checkout`` (so that what it leaves there shows)."""
    checkout.mkdir()
    for name in CHECKOUT:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, checkout / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, checkout / name)
    return checkout


def tree(directory: Path) -> set[str]:
    return {str(p.relative_to(directory)) for p in directory.rglob("*")}


def test_install_is_idempotent_and_uninstalls(tmp_path: Path, isolated_home: Path) -> None:
    prefix = tmp_path / "prefix"
    first = install("--prefix", str(prefix), home=isolated_home)
    assert first.returncode == 0, first.stderr
    assert f"uninstall:   ./install.sh --uninstall --prefix {prefix}" in first.stdout
    assert f"note: {prefix}/bin is not on your PATH" in first.stdout
    assert f"library:     {prefix}/lib/forge-hook-run/bin/python" in first.stdout
    for name in ("forge-hook-run", "forge-hook"):
        assert (prefix / "bin" / name).is_symlink()
        assert (prefix / "share/man/man1" / f"{name}.1").read_text() == (ROOT / "man" / f"{name}.1").read_text()
    run = subprocess.run([str(prefix / "bin/forge-hook-run"), "--event", "session:start"], capture_output=True,
                         text=True, cwd=tmp_path)
    assert run.returncode == 0 and json.loads(run.stdout)["version"] == 1
    assert not LEAN_EVENT_PATH & modules_of_a_run(prefix / "lib/forge-hook-run/bin/python", tmp_path)
    assert install("--prefix", str(prefix), home=isolated_home).returncode == 0  # again: an upgrade
    gone = install("--prefix", str(prefix), "--uninstall", home=isolated_home)
    assert gone.returncode == 0
    assert not (prefix / "bin/forge-hook-run").exists() and not (prefix / "lib/forge-hook-run").exists()
    assert not (prefix / "share/man/man1/forge-hook.1").exists()


def test_install_leaves_the_checkout_as_it_found_it(tmp_path: Path, isolated_home: Path) -> None:
    # A checkout of our own: setuptools' build/ and *.egg-info would land here.
    checkout = copy_of_the_checkout(tmp_path / "checkout")
    before = tree(checkout)
    done = install("--prefix", str(tmp_path / "prefix"), home=isolated_home, script=checkout / "install.sh")
    assert done.returncode == 0, done.stderr
    assert tree(checkout) == before


def test_uninstall_says_what_it_removed_and_kept(tmp_path: Path, isolated_home: Path) -> None:
    prefix = tmp_path / "prefix"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "bin" / "other-tool").write_text("#!/bin/sh\n")  # not ours: stays, and so does bin/
    assert install("--prefix", str(prefix), home=isolated_home).returncode == 0
    state = isolated_home / ".local/state/forge"  # the log_all template's log
    state.mkdir(parents=True)
    gone = install("--prefix", str(prefix), "--uninstall", home=isolated_home)
    assert gone.returncode == 0, gone.stderr
    removed, _, kept = gone.stdout.partition("kept")
    for path in ("bin/forge-hook-run", "bin/forge-hook", "share/man/man1/forge-hook.1", "lib/forge-hook-run",
                 "share/man/man1/", "share/man/", "share/", "lib/"):
        assert f"  {prefix}/{path}\n" in removed
    assert f"{prefix}/bin/\n" not in removed and f"{prefix}/\n" not in removed
    assert sorted(tree(prefix)) == ["bin", "bin/other-tool"]
    assert f"  {state}\n" in kept and ".config/forge" not in kept  # only what exists
    again = install("--prefix", str(prefix), "--uninstall", home=isolated_home)
    assert again.returncode == 0
    assert again.stdout.startswith(f"forge-hook-run: nothing to remove: it is not installed in {prefix}\n")
    assert "removed" not in again.stdout


def test_install_says_when_man_will_not_find_the_pages(tmp_path: Path, isolated_home: Path) -> None:
    prefix = tmp_path / "prefix"
    bindir = f"{prefix}/bin"
    on_path = {"PATH": f"{bindir}:{os.environ['PATH']}"}
    quiet = install("--prefix", str(prefix), home=isolated_home, env=on_path)
    assert quiet.returncode == 0, quiet.stderr
    assert "note:" not in quiet.stdout
    loud = install("--prefix", str(prefix), home=isolated_home, env={**on_path, "MANPATH": "/usr/share/man"})
    assert (f"note: MANPATH is set without {prefix}/share/man, so man forge-hook-run will not find the pages"
            in loud.stdout)
    if shutil.which("man") is None:
        pytest.skip("man is not installed: the notes above are checked, not what man finds")
    # The notes say what man does: it finds the pages from PATH, unless MANPATH hides them.
    env = {k: v for k, v in os.environ.items() if k != "MANPATH"}
    found = subprocess.run(["man", "-w", "forge-hook-run"], capture_output=True, text=True,
                           env={**env, **on_path})
    assert found.stdout.strip() == f"{prefix}/share/man/man1/forge-hook-run.1"
    hidden = subprocess.run(["man", "-w", "forge-hook-run"], capture_output=True, text=True,
                            env={**env, **on_path, "MANPATH": "/usr/share/man"})
    assert hidden.returncode != 0


def test_a_user_program_type_checks_against_the_installed_package(tmp_path: Path, isolated_home: Path) -> None:
    prefix = tmp_path / "prefix"
    assert install("--prefix", str(prefix), home=isolated_home).returncode == 0
    program = tmp_path / "user.py"
    program.write_text(
        "from forge_hookd import EventType, Hook, HookEvent, HookExecutor, HookRegistry, __version__\n"
        "\n"
        "registry = HookRegistry()\n"
        "registry.register(Hook('session:start', 'true'))\n"
        "run = HookExecutor(registry).run(HookEvent(EventType.SESSION_START))\n"
        "ok: bool = not run.blocked\n"
        "version: str = __version__\n")
    # mypy run from elsewhere, against the installer's virtualenv (a real, non-editable
    # install): what a user's own mypy sees through py.typed.
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         "--python-executable", str(prefix / "lib/forge-hook-run/bin/python"), str(program)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_install_refuses_bad_options_and_old_python(tmp_path: Path, isolated_home: Path) -> None:
    bad = install("--frobnicate", home=isolated_home)
    assert bad.returncode == 2 and "unknown option: --frobnicate" in bad.stderr
    fake = tmp_path / "python3.9"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    old = subprocess.run([str(ROOT / "install.sh"), "--python", str(fake), "--prefix", str(tmp_path / "p")],
                         capture_output=True, text=True)
    assert old.returncode == 1 and "needs Python 3.11 or newer" in old.stderr
    assert "usage: ./install.sh" in install("--help", home=isolated_home).stdout


def test_install_writes_a_native_client_and_a_launcher_without_site_that_run_cold_and_warm(
        tmp_path: Path, isolated_home: Path) -> None:
    from helpers import gone, idle_runner_status, reap_if_ours, short_private_dir

    prefix = tmp_path / "prefix"
    assert install("--prefix", str(prefix), home=isolated_home).returncode == 0
    venv = prefix / "lib/forge-hook-run"
    launcher = venv / "bin/forge-hook-run-launcher"
    assert os.readlink(prefix / "bin/forge-hook-run") == str(venv / "bin/forge-hook-run-native")
    assert launcher.read_text().splitlines()[0] == f"#!{venv}/bin/python -IS"
    directory = short_private_dir("fw-install-")
    env = {**os.environ, "HOME": str(isolated_home), "FORGE_WARM_DIR": str(directory), "FORGE_WARM_REQUIRED": "0"}
    event = '{"type": "session:start"}'
    try:
        cold = subprocess.run([str(prefix / "bin/forge-hook-run"), "--trace"], input=event, capture_output=True,
                              text=True, cwd=tmp_path, env=env)
        assert cold.returncode == 0 and json.loads(cold.stdout)["decision"] == "allow"
        assert "warm: no resident runner" in cold.stderr and "running cold" in cold.stderr
        on = subprocess.run([str(prefix / "bin/forge-hook"), "warm", "on", "--json"], capture_output=True, text=True,
                            env=env)
        assert on.returncode == 0, on.stderr
        runner = json.loads(on.stdout)["pid"]
        for exe in (prefix / "bin/forge-hook-run", launcher, venv / "bin/forge-hook-run"):  # native, launcher, pip's
            warm = subprocess.run([str(exe), "--trace"], input=event, capture_output=True, text=True, cwd=tmp_path,
                                  env={**env, "FORGE_WARM_REQUIRED": "1"})
            assert warm.returncode == 0 and json.loads(warm.stdout)["decision"] == "allow", warm.stderr
            assert "warm:" not in warm.stderr
        assert idle_runner_status(directory)["served"] == 3
        # An agent wired by this installation runs the native client: a user's file by its
        # absolute path, whatever PATH finds; a project's (committed, run from other homes)
        # by the name PATH finds (here: install.sh's native client), failing closed without.
        wired: dict[str, str] = {}
        for path in (f"{prefix}/bin:{os.environ['PATH']}", os.environ["PATH"]):
            for scope in ("project", "global"):
                place = tmp_path / f"{scope}{len(wired)}"
                (place / "repo").mkdir(parents=True)
                done = subprocess.run([str(prefix / "bin/forge-hook"), "install", "--agent", "claude", f"--{scope}"],
                                      cwd=place / "repo", capture_output=True, text=True, timeout=120,
                                      env={**{k: v for k, v in env.items() if k != "CLAUDE_CONFIG_DIR"},
                                           "PATH": path, "HOME": str(place / "home"),
                                           "XDG_STATE_HOME": str(place / "state")})
                assert done.returncode == 0, done.stderr
                written = place / ("repo/.claude/settings.json" if scope == "project" else "home/.claude/settings.json")
                assert written.exists(), (done.stdout, done.stderr)
                settings = json.loads(written.read_text())
                wired[f"{scope} {path}"] = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        commands = list(wired.values())
        native = f"{venv}/bin/forge-hook-run-native"
        assert commands[1] == commands[3] == hook_command("claude", native)("PreToolUse") + " --agent-limit 600"
        assert commands[0] == commands[2] == project_command("claude")("PreToolUse") + " --agent-limit 600"
        assert forge_words(commands[1]) == [native, "--dialect", "claude", "--agent-limit", "600"]
    finally:
        subprocess.run([str(prefix / "bin/forge-hook"), "warm", "off"], capture_output=True, env=env)
        shutil.rmtree(directory)
    assert gone(runner)
    reap_if_ours(runner)  # once an in-process test made this process a subreaper, it is ours


def test_without_a_c_compiler_forge_hook_run_is_the_launcher(tmp_path: Path, isolated_home: Path) -> None:
    prefix = tmp_path / "prefix"
    done = install("--prefix", str(prefix), home=isolated_home, env={"CC": str(tmp_path / "no-cc")})
    assert done.returncode == 0, done.stderr
    venv = prefix / "lib/forge-hook-run"
    assert os.readlink(prefix / "bin/forge-hook-run") == str(venv / "bin/forge-hook-run-launcher")
    assert not (venv / "bin/forge-hook-run-native").exists()
    assert f"the native warm client was not built: no C compiler ({tmp_path}/no-cc not found)" in done.stderr
    assert "forge-hook-run is the Python launcher: a warm run costs about 10 ms more" in done.stdout
    gone = install("--prefix", str(prefix), "--uninstall", home=isolated_home)
    assert f"{prefix}/bin/forge-hook-run" in gone.stdout and not (prefix / "bin/forge-hook-run").exists()


@pytest.mark.slow
def test_uninstall_takes_forge_out_of_the_agents_and_says_what_still_calls_it(tmp_path: Path,
                                                                           isolated_home: Path) -> None:
    """Issue 30 item 12: uninstall told you to run forge-hook install --uninstall after it
    had deleted forge-hook, and a warm runner went on from the deleted virtualenv. Now it
    takes forge out of the agent files in your home first, stops the runner, lists the
    project files it did not edit; and, after --uninstall, a completion line in ~/.bashrc
    (every new shell would say 'command not found') and a forge git hook (every commit
    would fail) are named, as before."""
    from helpers import gone as pids_gone, reap_if_ours, short_private_dir

    prefix = tmp_path / "prefix"
    assert install("--prefix", str(prefix), home=isolated_home).returncode == 0
    directory = short_private_dir("fw-uninstall-")
    warm = {"FORGE_WARM_DIR": str(directory)}
    env = {**os.environ, **warm, "HOME": str(isolated_home), "PATH": f"{prefix}/bin:{os.environ['PATH']}"}
    (isolated_home / ".bashrc").write_text('# mine\neval "$(_FORGE_HOOK_RUN_COMPLETE=bash_source forge-hook-run)"\n')
    claude = isolated_home / ".claude/settings.json"
    claude.parent.mkdir()
    claude.write_text('{"model": "opus"}\n')  # the user's own, from before
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    pre_commit = repo / ".git/hooks/pre-commit"
    pre_commit.write_text("#!/bin/sh\nexec forge-hook-run -q --event tool:pre_execute --tool git\n")
    try:
        for args in (["add", "--project", "--template", "block_sudo"], ["trust"],
                     ["install", "--agent", "claude", "--agent", "codex", "--global"],
                     ["install", "--agent", "gemini", "--project"], ["warm", "on", "--json"]):
            done = subprocess.run([str(prefix / "bin/forge-hook"), *args], cwd=repo, env=env, capture_output=True,
                                  text=True, timeout=120)
            assert done.returncode == 0, done.stderr
        runner = json.loads(done.stdout)["pid"]
        gone = install("--prefix", str(prefix), "--uninstall", home=isolated_home, env=warm)
    finally:
        if (prefix / "bin/forge-hook").exists():  # the uninstall failed: the runner is ours to stop
            subprocess.run([str(prefix / "bin/forge-hook"), "warm", "off"], capture_output=True, env=env)
        shutil.rmtree(directory)
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert pids_gone(runner), "the resident runner goes on from a deleted virtualenv"
    reap_if_ours(runner)
    assert claude.read_text() == '{"model": "opus"}\n'  # back byte for byte
    assert not (isolated_home / ".codex/hooks.json").exists()  # install created it: gone
    took, _, rest = gone.stdout.partition("forge-hook-run: removed:")
    assert f"  {claude} (claude): back as it was before forge-hook install" in took
    assert f"  {isolated_home}/.codex/hooks.json (codex): removed (forge-hook install created it)" in took
    assert f"stopped the resident runner (pid {runner}" in took
    project_file = repo / ".gemini/settings.json"
    assert f"not edited (they may be another repository's):\n  {project_file} (gemini)" in took
    assert "forge-hook-run" in project_file.read_text()  # not edited
    said = rest.split("these still call forge, which is gone now:\n")[1].splitlines()
    assert f"  {isolated_home}/.bashrc:2: eval \"$(_FORGE_HOOK_RUN_COMPLETE=bash_source forge-hook-run)\"" in said
    assert f"  {pre_commit}" in said
    assert any(line.startswith(f"  {project_file} (gemini): a project's settings; take its forge-hook-run "
                               "entries out there") for line in said)
    assert not any(str(claude) in line for line in said)


@pytest.mark.slow
def test_uninstall_refuses_while_an_agent_file_it_wired_will_not_come_out(tmp_path: Path,
                                                                         isolated_home: Path) -> None:
    prefix = tmp_path / "prefix"
    assert install("--prefix", str(prefix), home=isolated_home).returncode == 0
    env = {**os.environ, "HOME": str(isolated_home)}
    done = subprocess.run([str(prefix / "bin/forge-hook"), "install", "--agent", "claude", "--global"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    claude = isolated_home / ".claude/settings.json"
    claude.write_text(claude.read_text() + ",")  # an edit that broke it: forge cannot take itself out
    refused = install("--prefix", str(prefix), "--uninstall", home=isolated_home)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "forge-hook-run: not uninstalled: forge cannot take itself out of these agent settings" in refused.stderr
    assert (f"  {claude} (claude): " in refused.stderr
            and "run first: forge-hook install --agent claude --global --uninstall" in refused.stderr)
    assert (prefix / "bin/forge-hook").exists() and (prefix / "lib/forge-hook-run/bin/python").exists()
    claude.write_text(claude.read_text()[:-1])  # mended: now it goes
    gone = install("--prefix", str(prefix), "--uninstall", home=isolated_home)
    assert gone.returncode == 0, gone.stderr
    assert not claude.exists() and not (prefix / "bin/forge-hook").exists()


def readme_first_command() -> str:
    """The README's first ``sh`` block: the command a new user runs first."""
    text = (ROOT / "README.md").read_text()
    return text.split("```sh\n", 1)[1].split("```", 1)[0].strip()


def test_the_readmes_first_command_works_as_written_on_a_fresh_machine(tmp_path: Path) -> None:
    """Verbatim, in a fresh HOME (so the default prefix ~/.local is a temporary one, and
    ~/.local/bin is not on PATH), from a copy of the checkout: it ends blocked, exit
    status 1, and leaves nothing in the checkout (no demo/)."""
    command = readme_first_command()
    assert command.startswith("./install.sh")
    checkout = copy_of_the_checkout(tmp_path / "checkout")
    home = tmp_path / "fresh-home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("FORGE_", "XDG_")) and k not in ("MANPATH", "VIRTUAL_ENV")}
    env.update(HOME=str(home), PIP_DISABLE_PIP_VERSION_CHECK="1",
               PATH=":".join(p for p in os.environ["PATH"].split(":") if not p.endswith("/.local/bin")
                             and p != str(Path(sys.executable).parent)))
    before = tree(checkout)
    done = subprocess.run(["sh", "-c", command], cwd=checkout, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "exit status: 1", done.stdout + done.stderr
    assert done.stderr.splitlines()[-1].startswith("forge-hook-run: blocked by project[0] 'tool:pre_execute:bash': "
                                                   "Blocked: sudo not allowed"), done.stderr
    assert "command not found" not in done.stderr and '"version"' not in done.stdout  # -q: no document
    assert tree(checkout) == before
    assert (home / ".local/bin/forge-hook-run").exists()
