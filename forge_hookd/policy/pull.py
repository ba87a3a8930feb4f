"""``forge-hook policy pull SOURCE@sha256:DIGEST`` (issue 35 item 3): one hooks file
installed into the managed layer only if its bytes hash to the digest.

SOURCE is a file path, a ``file://`` URL, an ``https://`` URL, or a git repository as
``git+URL#path/in/repo`` (the file at the repository's default branch head; the digest
pins the bytes, not the commit). The policy lands in the layer's ``managed.d`` as
``pulled-NAME.json``, root-owned and 0644, written atomically: a pull that fails for any
reason (unreachable, a digest that differs, not a hooks file) leaves the last good copy
in force. What happens then is the policy's own choice, its ``on_failure``:
``last-good`` (the default) keeps running the last good copy; ``refuse`` also leaves a
marker (``pulled-NAME.json.pull-failed``) that makes forge deny every event that can
block until a pull succeeds (forge_hookd.managed reads it).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from typing import Any
from urllib.parse import unquote, urlsplit

from forge_hookd import managed
from forge_hookd.config import parse_document
from forge_hookd.errors import ConfigError, UsageError
from forge_hookd.readfile import MAX_CONFIG_BYTES, read_regular
from forge_hookd.safefile import write_atomically
from forge_hookd.trust.store import digest

PULLED_PREFIX = "pulled-"
FAILED_SUFFIX = managed.PULL_FAILED_SUFFIX
GIT_TIMEOUT = 120.0
HTTPS_TIMEOUT = 30.0
_DIGEST = re.compile(r"^(?P<source>.+)@sha256:(?P<hex>[0-9a-fA-F]{64})$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class PullError(Exception):
    """A pull that did not install: why. The last good copy stays in force."""


class Pulled:
    """What a pull did: the file it wrote (or kept), and for a failed pull, why and
    whether the policy's ``on_failure: refuse`` now denies."""

    __slots__ = ("path", "digest", "error", "refusing")

    def __init__(self, path: str, digest_hex: str, error: str | None = None, refusing: bool = False) -> None:
        self.path, self.digest, self.error, self.refusing = path, digest_hex, error, refusing


def parse_reference(reference: str) -> tuple[str, str]:
    """``SOURCE@sha256:HEX`` as (source, hex in lower case); UsageError otherwise."""
    match = _DIGEST.match(reference)
    if match is None:
        raise UsageError(f"a policy is pulled by digest: SOURCE@sha256:<64 hex digits>, not '{reference}'")
    return match["source"], match["hex"].lower()


def target_dir() -> str:
    """The managed layer's ``managed.d`` where a pulled policy goes: /etc/forge's, else
    FORGE_MANAGED_DIR's; UsageError when there is neither."""
    dirs = [d for d, authoritative in managed.layer_dirs() if authoritative]
    if not dirs:
        return os.path.join(managed.SYSTEM_DIR, managed.DROP_IN_DIR)
    return os.path.join(dirs[0], managed.DROP_IN_DIR)


def default_name(source: str) -> str:
    """A name from the source's last path part, without ``.json``."""
    tail = source.split("#", 1)[1] if source.startswith("git+") and "#" in source else source
    base = os.path.basename(urlsplit(tail).path if "://" in tail else tail) or "policy"
    base = base[:-5] if base.endswith(".json") else base
    cleaned = re.sub(r"[^A-Za-z0-9._-]", "-", base).lstrip(".-") or "policy"
    return cleaned[:64]


def pull(reference: str, *, name: str | None = None, ca_file: str | None = None) -> Pulled:
    """Fetch, verify and install; a failed pull returns its error (last good kept)."""
    source, wanted = parse_reference(reference)
    name = name or default_name(source)
    if not _NAME.match(name):
        raise UsageError(f"--name takes letters, digits, '.', '_' and '-' (at most 64), not '{name}'")
    if os.geteuid() != 0:
        raise UsageError("policy pull must run as root: the managed layer is root-owned, and a file of "
                         "anyone else's is refused")
    directory = target_dir()
    path = os.path.join(directory, f"{PULLED_PREFIX}{name}.json")
    try:
        content = fetch(source, ca_file=ca_file)
        got = digest(content)
        if got != wanted:
            raise PullError(f"the bytes of {source} hash to sha256:{got}, not sha256:{wanted}")
        _check_policy(content, source)
    except PullError as exc:
        return _failed(path, wanted, str(exc))
    _install(directory, path, content)
    return Pulled(path, wanted)


def _check_policy(content: bytes, source: str) -> None:
    try:
        doc = parse_document(content, source)
    except ConfigError as exc:
        raise PullError(f"not a hooks file: {exc}") from None
    if "hooks" not in doc:
        raise PullError("not a hooks file: it has no 'hooks' list")
    on_failure = doc.get("on_failure", "last-good")
    if on_failure not in managed.ON_FAILURE:
        raise PullError(f"'on_failure' must be one of {', '.join(managed.ON_FAILURE)}, not {on_failure!r}")


def _install(directory: str, path: str, content: bytes) -> None:
    os.makedirs(directory, mode=0o755, exist_ok=True)
    old = os.umask(0o022)  # a new file is 0644: group or others' write would have it refused
    try:
        write_atomically(path, content, shared=True)
        os.chmod(path, 0o644)
    finally:
        os.umask(old)
    try:
        os.unlink(path + FAILED_SUFFIX)
    except FileNotFoundError:
        pass


def _failed(path: str, wanted: str, error: str) -> Pulled:
    """The last good copy stays; with its ``on_failure: refuse``, the marker that denies."""
    refusing = _on_failure(path) == "refuse"
    if refusing:
        old = os.umask(0o022)
        try:
            write_atomically(path + FAILED_SUFFIX, f"{error}\n".encode("utf-8", "replace")[:4096], shared=True)
            os.chmod(path + FAILED_SUFFIX, 0o644)
        finally:
            os.umask(old)
    return Pulled(path, wanted, error, refusing)


def _on_failure(path: str) -> str | None:
    """The last good copy's ``on_failure``; None when there is none."""
    try:
        raw = read_regular(path)
        doc: dict[str, Any] = parse_document(raw, path) if raw else {}
    except ConfigError:
        return None
    value = doc.get("on_failure", "last-good") if raw else None
    return value if isinstance(value, str) else None


# -- fetching ------------------------------------------------------------------------
def fetch(source: str, *, ca_file: str | None = None) -> bytes:
    """The bytes of ``source`` (at most the config limit); PullError on any failure."""
    if source.startswith("git+"):
        return _fetch_git(source[4:])
    if source.startswith("https://"):
        return _fetch_https(source, ca_file)
    if source.startswith("file://"):
        return _fetch_file(unquote(urlsplit(source).path))
    if "://" in source:
        raise PullError(f"cannot pull from {source}: a path, file://, https:// or git+URL#path")
    return _fetch_file(source)


def _fetch_file(path: str) -> bytes:
    try:
        content = read_regular(path)
    except ConfigError as exc:
        raise PullError(str(exc)) from None
    if content is None:
        raise PullError(f"{path}: no such file")
    return content


def _fetch_https(url: str, ca_file: str | None) -> bytes:
    import ssl
    import urllib.request

    context = ssl.create_default_context(cafile=ca_file)
    try:
        with urllib.request.urlopen(url, timeout=HTTPS_TIMEOUT, context=context) as response:  # noqa: S310
            content: bytes = response.read(MAX_CONFIG_BYTES + 1)
    except (OSError, ValueError) as exc:
        raise PullError(f"cannot fetch {url}: {exc}") from None
    if len(content) > MAX_CONFIG_BYTES:
        raise PullError(f"{url}: over the limit of {MAX_CONFIG_BYTES} bytes")
    return content


def _fetch_git(spec: str) -> bytes:
    """``URL#path``: a shallow clone of the default branch, the file at its head."""
    url, _, inner = spec.partition("#")
    if not url or not inner or inner.startswith("/") or ".." in inner.split("/"):
        raise PullError(f"a git source is git+URL#path/in/repo, not git+{spec}")
    if shutil.which("git") is None:
        raise PullError("git is not installed")
    work = tempfile.mkdtemp(prefix="forge-pull-")
    try:
        env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1"}
        clone = _git(["clone", "--quiet", "--depth", "1", "--no-checkout", "--", url, work], env)
        if clone.returncode != 0:
            raise PullError(f"git clone {url} failed: {_said(clone.stderr)}")
        shown = _git(["-C", work, "cat-file", "blob", f"HEAD:{inner}"], env)
        if shown.returncode != 0:
            raise PullError(f"{inner} is not in {url}: {_said(shown.stderr)}")
        if len(shown.stdout) > MAX_CONFIG_BYTES:
            raise PullError(f"{inner}: over the limit of {MAX_CONFIG_BYTES} bytes")
        return shown.stdout
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _git(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], capture_output=True, timeout=GIT_TIMEOUT, env=env,
                              stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired:
        raise PullError(f"git {args[0]} took longer than {GIT_TIMEOUT:g} s") from None
    except OSError as exc:
        raise PullError(f"git cannot run: {exc.strerror}") from None


def _said(stderr: bytes) -> str:
    return stderr.decode("utf-8", "replace").strip()[-500:]
