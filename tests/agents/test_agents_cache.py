"""Where the real-agent tests cache the agent CLIs (~1.1 GB): where the user's
environment says, not the passwd entry's home, and not the tests' own tmp_path home."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.realagents import harness
from helpers import ROOT



def cache_root_in(env: dict[str, str]) -> str:
    """harness.cache_root() in a fresh interpreter with ``env``; HOME is moved after the
    import, as the tests' isolated_home fixture moves it."""
    program = ("import os; from tests.realagents import harness; os.environ['HOME'] = '/moved-by-a-fixture'; "
               "print(harness.cache_root())")
    base = {k: v for k, v in os.environ.items() if k not in ("HOME", "XDG_CACHE_HOME", "FORGE_AGENT_CACHE")}
    proc = subprocess.run([sys.executable, "-c", program], cwd=ROOT, env={**base, **env}, capture_output=True,
                          text=True, timeout=60, check=True)
    return proc.stdout.strip()


def test_the_cache_is_where_the_users_environment_says(tmp_path: Path) -> None:
    home = tmp_path / "me"
    assert cache_root_in({"HOME": str(home)}) == f"{home}/.cache/forge-hook-run-agents"
    assert cache_root_in({"HOME": str(home), "XDG_CACHE_HOME": str(tmp_path / "xdg")}) == \
        f"{tmp_path}/xdg/forge-hook-run-agents"
    assert cache_root_in({"HOME": str(home), "XDG_CACHE_HOME": "relative"}) == f"{home}/.cache/forge-hook-run-agents"
    assert cache_root_in({"HOME": str(home), "XDG_CACHE_HOME": str(tmp_path / "xdg"),
                          "FORGE_AGENT_CACHE": str(tmp_path / "mine")}) == f"{tmp_path}/mine"


def test_the_harness_read_the_environment_before_the_fixtures_moved_home(isolated_home: Path) -> None:
    assert os.environ["HOME"] == str(isolated_home)
    assert harness.USER_ENVIRONMENT.get("HOME") != str(isolated_home)
    assert not str(harness.cache_root()).startswith(str(isolated_home))
