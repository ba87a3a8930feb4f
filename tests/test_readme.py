"""The README's recipes, run as written (its first command is tests/test_install.py's)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import BIN_DIR

ROOT = Path(__file__).resolve().parent.parent


def sh_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S)


def the_block_that(says: str) -> str:
    found = [block for block in sh_blocks() if says in block]
    assert len(found) == 1, f"README.md has {len(found)} sh blocks with {says!r}"
    return found[0]


def git(repo: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=repo,
                          capture_output=True, text=True, timeout=120, env=env)


def with_the_installed_tools() -> dict[str, str]:
    return {**os.environ, "PATH": f"{BIN_DIR}:{os.environ['PATH']}"}


def repository_with_the_recipe(repo: Path, env: dict[str, str]) -> Path:
    """A git repository where the README's pre-commit recipe was run as written."""
    if shutil.which("jq") is None or shutil.which("git") is None:
        pytest.fail("the README's pre-commit recipe needs git and jq (apt-get install git jq); .ci/run installs them")
    repo.mkdir()
    assert git(repo, "init", "-q", env=env).returncode == 0
    made = subprocess.run(["sh", "-e", "-c", the_block_that(".git/hooks/pre-commit")], cwd=repo,
                          capture_output=True, text=True, timeout=120, env=env)
    assert made.returncode == 0, made.stderr
    return repo


def test_the_pre_commit_recipe_stops_a_commit_of_a_key_and_lets_others_pass(tmp_path: Path,
                                                                           isolated_home: Path) -> None:
    env = with_the_installed_tools()
    repo = repository_with_the_recipe(tmp_path / "repo", env)
    (repo / "ok.py").write_text("x = 1\n")
    assert git(repo, "add", "ok.py", env=env).returncode == 0
    clean = git(repo, "commit", "-qm", "clean", env=env)
    assert clean.returncode == 0 and clean.stdout == "", clean.stderr  # -q: nothing said on success
    (repo / "conf.py").write_text('aws_key = "AKIA4QWERTZUIOPASDFG"\n')
    assert git(repo, "add", "conf.py", env=env).returncode == 0
    stopped = git(repo, "commit", "-qm", "a key", env=env)
    assert stopped.returncode == 1
    assert "forge-hook-run: blocked by project[0]" in stopped.stderr and "hardcoded_secrets" in stopped.stderr
    assert "AKIA4QWERTZUIOPASDFG" not in stopped.stderr  # the reason never repeats the secret
    assert git(repo, "rev-list", "--count", "HEAD", env=env).stdout.strip() == "1"
    # A key that got in past the hook (--no-verify) can be taken out: only added lines count.
    assert git(repo, "commit", "-qm", "a key", "--no-verify", env=env).returncode == 0
    (repo / "conf.py").write_text("import os\naws_key = os.environ['AWS_KEY']\n")
    assert git(repo, "add", "conf.py", env=env).returncode == 0
    fixed = git(repo, "commit", "-qm", "the key out", env=env)
    assert fixed.returncode == 0, fixed.stderr


def test_the_agent_authors_recipe_refuses_on_anything_but_proceed_and_ask(tmp_path: Path,
                                                                          isolated_home: Path) -> None:
    """The README's example for someone who writes an agent, pasted as it is where a user
    stands (here: a checkout, which has no block_sudo): it makes its own scratch project,
    and a deny and an event forge cannot read are both refusals (issue 29 item 8)."""
    env = {**with_the_installed_tools(), "TMPDIR": str(tmp_path)}  # its mktemp -d, under tmp_path
    recipe = the_block_that("> answer.json")
    denied = subprocess.run(["sh", "-c", recipe], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    said = denied.stdout.splitlines()[-1]  # after what forge-hook add and trust say
    assert said.startswith("refuse: Blocked: sudo not allowed"), denied.stdout + denied.stderr
    broken = subprocess.run(["sh", "-c", recipe.replace('"tool_name"', '"tool"', 1)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120, env=env)
    said = broken.stdout.splitlines()[-1]
    assert said.startswith("refuse: ") and "tool" in said, broken.stdout + broken.stderr


def test_the_recipe_fails_the_commit_when_the_hooks_changed_since_trusted(tmp_path: Path,
                                                                          isolated_home: Path) -> None:
    env = with_the_installed_tools()
    repo = repository_with_the_recipe(tmp_path / "repo", env)
    hooks = repo / ".forge" / "hooks.json"
    hooks.write_text(hooks.read_text().replace("hardcoded_secrets", "no_verify"))  # a pull switched the guard
    (repo / "conf.py").write_text('aws_key = "AKIA4QWERTZUIOPASDFG"\n')
    assert git(repo, "add", "conf.py", env=env).returncode == 0
    stopped = git(repo, "commit", "-qm", "a key", env=env)
    assert stopped.returncode != 0 and "forge-hook trust" in stopped.stderr, stopped.stderr


@pytest.mark.parametrize("guards", [False, True], ids=["no guards", "recommended guards"])
def test_the_hook_answers_example_prints_what_it_says(tmp_path: Path, isolated_home: Path, guards: bool) -> None:
    """The worked example of "Hook answers", as written, prints the answer its comment
    shows, also for a user with the recommended guards (issue 29 item 8)."""
    if shutil.which("jq") is None:
        pytest.fail("the example needs jq (apt-get install jq); .ci/run installs it")
    env = with_the_installed_tools()
    readme = (ROOT / "README.md").read_text()
    script = re.search(r"```python\n(#!/usr/bin/env python3\n# Adds --dry-run.*?)```", readme, re.S)
    assert script is not None
    (tmp_path / ".forge").mkdir()
    hook = tmp_path / ".forge" / "push-dry-run"
    hook.write_text(script.group(1))
    hook.chmod(0o755)
    if guards:
        added = subprocess.run(["forge-hook", "add", "--global", "--guards", "recommended"], cwd=tmp_path,
                               capture_output=True, text=True, timeout=120, env=env)
        assert added.returncode == 0, added.stderr
    block = the_block_that("--command .forge/push-dry-run")
    expected = "".join(line[2:].strip() for line in block.splitlines() if line.startswith("# "))
    ran = subprocess.run(["sh", "-e", "-c", block], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    printed = ran.stdout.strip().splitlines()[-1]
    assert printed == expected, ran.stdout + ran.stderr
