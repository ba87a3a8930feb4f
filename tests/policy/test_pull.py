"""forge-hook policy pull SOURCE@sha256:DIGEST (issue 35 item 3) through the installed
executables, offline: a file, a file:// URL, a local git repository, and an https
server on 127.0.0.1 with a certificate made here by openssl (trusted with --ca-file).
Installed only when the bytes hash to the digest; a failed pull keeps the last good
copy, and a policy's on_failure: refuse denies until a good pull."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import os
import shutil
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import SUDO, ForgeRun, Project, run_installed

pytestmark = pytest.mark.skipif(os.getuid() != 0, reason="the managed layer is root-owned: these tests need root")

POLICY: dict[str, Any] = {"hooks": [{"id": "org", "event": "tool:pre_execute:bash",
                                     "command": "echo 'Blocked: by the organisation'; exit 1"}]}
WRITE: dict[str, Any] = {"type": "tool:pre_execute", "tool_name": "write", "data": {"tool_args": {"path": "x"}}}


def sha(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


@pytest.fixture
def layer(tmp_path: Path) -> Path:
    directory = tmp_path / "managed"
    directory.mkdir(mode=0o755)
    directory.chmod(0o755)
    return directory


def pull(project: Project, layer: Path, *args: str) -> Any:
    return run_installed(["policy", "pull", *args], cwd=project.root, prog="forge-hook",
                         env={"FORGE_MANAGED_DIR": str(layer)})


def written(tmp_path: Path, doc: dict[str, Any], name: str = "org.json") -> tuple[Path, bytes]:
    path = tmp_path / "src" / name
    path.parent.mkdir(exist_ok=True)
    content = json.dumps(doc).encode()
    path.write_bytes(content)
    return path, content


def test_a_policy_is_installed_only_when_its_bytes_hash_to_the_digest(
        project: Project, forge_run: ForgeRun, layer: Path, tmp_path: Path) -> None:
    source, content = written(tmp_path, POLICY)
    target = layer / "managed.d" / "pulled-org.json"
    bad = pull(project, layer, f"{source}@sha256:{'0' * 64}")
    assert bad.exit_status == 1 and "hash to sha256:" in bad.stderr and "no policy was installed" in bad.stderr
    assert not target.exists()
    good = pull(project, layer, f"{source}@sha256:{sha(content).upper()}")
    assert good.exit_status == 0, good.stderr
    assert target.read_bytes() == content and target.stat().st_mode & 0o777 == 0o644
    run = forge_run(SUDO, env={"FORGE_MANAGED_DIR": str(layer)})
    assert run.exit_status == 1 and run.json["blocked_by"]["source"] == "managed:pulled-org"
    # a later pull that fails leaves the last good copy in force
    source.write_text(json.dumps({"hooks": []}))
    again = pull(project, layer, f"file://{source}@sha256:{sha(content)}")
    assert again.exit_status == 1 and "the last good copy stays in force" in again.stderr
    assert target.read_bytes() == content
    assert pull(project, layer, "no-digest-here").exit_status == 2


def test_a_pull_from_a_local_git_repository(project: Project, layer: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "policies").mkdir(parents=True)
    content = json.dumps(POLICY).encode()
    (repo / "policies" / "org.json").write_bytes(content)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "policy"]):
        subprocess.run([*git, *args], check=True, capture_output=True)
    good = pull(project, layer, f"git+file://{repo}#policies/org.json@sha256:{sha(content)}", "--name", "team")
    assert good.exit_status == 0, good.stderr
    assert (layer / "managed.d" / "pulled-team.json").read_bytes() == content
    missing = pull(project, layer, f"git+file://{repo}#policies/none.json@sha256:{sha(content)}", "--name", "x")
    assert missing.exit_status == 1 and "is not in" in missing.stderr


@pytest.fixture
def https_server(tmp_path: Path) -> Iterator[tuple[str, Path, Path]]:
    """An https server on 127.0.0.1 serving tmp_path/site; its URL, the site and the CA."""
    if shutil.which("openssl") is None:
        pytest.skip("SKIPPED LOUDLY: openssl is not installed, so no certificate can be made")
    site, key, cert = tmp_path / "site", tmp_path / "key.pem", tmp_path / "cert.pem"
    site.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(cert), str(key))
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{server.server_address[1]}", site, cert
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_a_pull_over_https_with_its_ca_and_on_failure_refuse(
        project: Project, forge_run: ForgeRun, layer: Path, https_server: tuple[str, Path, Path]) -> None:
    url, site, cert = https_server
    content = json.dumps({**POLICY, "on_failure": "refuse"}).encode()
    (site / "org.json").write_bytes(content)
    reference = f"{url}/org.json@sha256:{sha(content)}"
    untrusted = pull(project, layer, reference)  # the self-signed certificate is not the system's
    assert untrusted.exit_status == 1 and "CERTIFICATE_VERIFY_FAILED" in untrusted.stderr
    good = pull(project, layer, reference, "--ca-file", str(cert))
    assert good.exit_status == 0, good.stderr
    env = {"FORGE_MANAGED_DIR": str(layer)}
    assert forge_run(WRITE, env=env).exit_status == 0  # its hooks do not judge a write
    # the policy says refuse: a failed pull denies every event that can block until a good one
    (site / "org.json").write_bytes(b'{"hooks": []}')
    failed = pull(project, layer, reference, "--ca-file", str(cert))
    assert failed.exit_status == 1 and "on_failure: refuse" in failed.stderr
    run = forge_run(WRITE, env=env)
    assert run.exit_status == 1 and "on_failure: refuse" in run.json["reason"], run.stderr
    (site / "org.json").write_bytes(content)
    assert pull(project, layer, reference, "--ca-file", str(cert)).exit_status == 0
    assert forge_run(WRITE, env=env).exit_status == 0


def test_pull_refuses_to_run_as_anyone_but_root(project: Project, layer: Path, tmp_path: Path) -> None:
    if shutil.which("setpriv") is None:
        pytest.skip("SKIPPED LOUDLY: needs setpriv to run as nobody")
    source, content = written(tmp_path, POLICY)
    from helpers import installed

    run = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", installed("forge-hook"),
                          "policy", "pull", f"{source}@sha256:{sha(content)}"], cwd="/",
                         env={**os.environ, "FORGE_MANAGED_DIR": str(layer), "HOME": "/nonexistent"},
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "must run as root" in run.stderr
