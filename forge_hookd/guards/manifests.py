"""What a project already depends on, read from its own manifests, for package_policy
(issue 31 item 5): the dependencies a manifest's text declares (``package.json``,
``requirements*.txt``, ``pyproject.toml``, ``Cargo.toml``, ``go.mod``), the text a file
tool's call leaves in one, and whether a node binary is the project's.

A cloned project decides what these files are, so a read is bounded (1 MiB), of a
regular file only, and only when its real path lies inside the project (a symlink out
of it is not followed); nothing here raises: a manifest that cannot be read or parsed
declares nothing. Only package_policy imports this module, and only for a command that
runs a package (``npx``) or a call that writes a manifest."""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from forge_hookd.errors import ConfigError
from forge_hookd.readfile import read_regular

MAX_MANIFEST_BYTES = 1024 * 1024
_REQUIREMENTS = re.compile(r"requirements[\w.-]*\.txt$")
_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_GO_REQUIRE = re.compile(r"^\s*(?:require\s+)?([^\s()]+)\s+v[0-9]\S*", re.M)
_NPM_KEYS = ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies")
_CARGO_KEYS = ("dependencies", "dev-dependencies", "build-dependencies")

def kind_of(path: str) -> str | None:
    """Which manifest ``path`` is (``npm``, ``pip``, ``pyproject``, ``cargo``, ``go``), by its name."""
    name = path.rpartition("/")[2]
    if name == "package.json":
        return "npm"
    if name == "pyproject.toml":
        return "pyproject"
    if name == "Cargo.toml":
        return "cargo"
    if name == "go.mod":
        return "go"
    return "pip" if _REQUIREMENTS.match(name) else None


def declared(kind: str, text: str) -> set[str]:
    """The dependencies ``text`` declares as a manifest of ``kind``; none when it does
    not parse. Python names are normalised (PEP 503), so ``Foo_Bar`` is ``foo-bar``."""
    try:
        return set(_DECLARED[kind](text))
    except (ValueError, TypeError, AttributeError, RecursionError):  # bad JSON or TOML, or a shape not known
        return set()


def _npm(text: str) -> Iterator[str]:
    data = json.loads(text)
    for key in _NPM_KEYS:
        table = data.get(key)
        if isinstance(table, dict):
            yield from table


def _requirements(text: str) -> Iterator[str]:
    for line in text.replace("\\\n", " ").splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("-"):  # -r other.txt, -e git+..., --index-url X: where packages come from
            yield " ".join(line.split())
        elif found := _NAME.match(line):
            yield _python(found.group(1))


def _pyproject(text: str) -> Iterator[str]:
    data = _toml(text)
    project = data.get("project", {})
    yield from _pep508(project.get("dependencies", []))
    for group in (*project.get("optional-dependencies", {}).values(), *data.get("dependency-groups", {}).values()):
        yield from _pep508(group)
    yield from _pep508(data.get("build-system", {}).get("requires", []))
    tool = data.get("tool", {})
    yield from _pep508(tool.get("uv", {}).get("dev-dependencies", []))
    poetry = tool.get("poetry", {})
    tables = [poetry.get("dependencies", {}), poetry.get("dev-dependencies", {}),
              *(g.get("dependencies", {}) for g in poetry.get("group", {}).values())]
    yield from (_python(name) for table in tables for name in table if name != "python")


def _cargo(text: str) -> Iterator[str]:
    data = _toml(text)
    tables = [data, data.get("workspace", {}), *data.get("target", {}).values()]
    for table in tables:
        for key in _CARGO_KEYS:
            yield from table.get(key, {})


def _go(text: str) -> Iterator[str]:
    text = re.sub(r"//[^\n]*", "", text)
    for block in re.finditer(r"^\s*require\s*\((.*?)\)|^\s*require\s+[^\n]*", text, re.M | re.S):
        yield from (m.group(1) for m in _GO_REQUIRE.finditer(block.group(1) or block.group(0)))


def _toml(text: str) -> dict[str, Any]:
    import tomllib  # 7 ms CPU at load 10, paid only when a TOML manifest is judged

    return tomllib.loads(text)


def _pep508(requirements: object) -> Iterator[str]:
    for requirement in requirements if isinstance(requirements, list) else ():
        if isinstance(requirement, str) and (found := _NAME.match(requirement)):
            yield _python(found.group(1))


def _python(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


_DECLARED = {"npm": _npm, "pip": _requirements, "pyproject": _pyproject, "cargo": _cargo, "go": _go}


# -- reading the project ------------------------------------------------------------------------------
def read_inside(path: str, root: str) -> tuple[str | None, str | None]:
    """``(text, None)`` of the manifest at ``path``; ``(None, None)`` when nothing is
    there; ``(None, why)`` when it cannot be read: not a regular file, over the bound,
    or a symlink whose target lies outside the project ``root``."""
    if not os.path.lexists(path):
        return None, None
    real = os.path.realpath(path)
    if not _inside(real, os.path.realpath(root)):
        return None, f"{path} leads outside the project"
    try:
        data = read_regular(real, limit=MAX_MANIFEST_BYTES)
    except ConfigError as exc:
        return None, f"{path}: {exc.message}"
    return (None, None) if data is None else (data.decode("utf-8", "replace"), None)


def node_packages(start: str, root: str, binary: str) -> tuple[bool, set[str]]:
    """Whether ``node_modules/.bin/BINARY`` is installed (inside the project) in
    ``start`` or a directory above it up to ``root``, and the packages their
    ``package.json`` files declare (npx looks up the same directories)."""
    real_root = os.path.realpath(root)
    installed, packages = False, set()
    for directory in _up(start, root):
        bin_path = posixpath.join(directory, "node_modules", ".bin", binary)
        if not installed and os.path.exists(bin_path) and _inside(os.path.realpath(bin_path), real_root):
            installed = True
        text, _ = read_inside(posixpath.join(directory, "package.json"), root)
        if text is not None:
            packages |= declared("npm", text)
    return installed, packages


def python_packages(start: str, root: str) -> set[str]:
    """The packages the ``pyproject.toml`` and ``requirements*.txt`` files of ``start``
    and the directories above it up to ``root`` declare (for ``uvx ruff``)."""
    packages: set[str] = set()
    for directory in _up(start, root):
        try:
            names = [n for n in os.listdir(directory) if n == "pyproject.toml" or _REQUIREMENTS.match(n)]
        except OSError:
            continue
        for name in names:
            text, _ = read_inside(posixpath.join(directory, name), root)
            if text is not None:
                packages |= declared("pyproject" if name == "pyproject.toml" else "pip", text)
    return packages


def python_name(name: str) -> str:
    """A Python package's name as PEP 503 compares it (``Foo_Bar`` -> ``foo-bar``)."""
    return _python(name)


def _up(start: str, root: str) -> Iterator[str]:
    root = root.rstrip("/") or "/"
    directory = start
    while _inside(directory, root):
        yield directory
        if directory == root:
            return
        directory = posixpath.dirname(directory)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


# -- what a file tool leaves in a manifest ------------------------------------------------------------
_OLD_KEYS = ("old_string", "old_str", "oldString")
_TEXT_KEYS = ("new_string", "new_str", "newString")
_WHOLE_KEYS = ("content", "file_text", "contents", "text")


def after_write(tool_args: Mapping[str, Any], current: str | None) -> str | None:
    """The text a write or edit call leaves in the file that now reads ``current``
    (None: missing); None when the call leaves nothing we can see (an edit of a
    missing file fails, as does an edit whose old text is not there)."""
    if not any(k in tool_args for k in _OLD_KEYS) and not isinstance(tool_args.get("edits"), list):
        whole = next((v for k in _WHOLE_KEYS if isinstance(v := tool_args.get(k), str)), None)
        if whole is not None:
            return whole
        insert = tool_args.get("insert_text")
        if isinstance(insert, str) and current is not None:
            return _insert(current, insert, tool_args.get("insert_line"))
        return None
    if current is None:
        return None
    edits = tool_args.get("edits")
    for edit in edits if isinstance(edits, list) else [tool_args]:
        if not isinstance(edit, Mapping):
            continue
        old = next((v for k in _OLD_KEYS if isinstance(v := edit.get(k), str)), None)
        new = next((v for k in _TEXT_KEYS if isinstance(v := edit.get(k), str)), "")
        if old is None or old not in current:
            return None
        current = current.replace(old, new) if edit.get("replace_all") else current.replace(old, new, 1)
    return current


def _insert(current: str, text: str, line: object) -> str:
    lines = current.splitlines(keepends=True)
    at = line if isinstance(line, int) and 0 <= line <= len(lines) else len(lines)
    return "".join(lines[:at]) + text + ("" if text.endswith("\n") else "\n") + "".join(lines[at:])


def patched(patch: str, target: str, resolve_path: Any, current: str | None) -> str | None:
    """The text a Codex ``apply_patch`` envelope leaves in ``target`` (its hunks applied
    to ``current``), None when it leaves nothing we can see; ``resolve_path`` turns a
    path the patch names into the absolute one."""
    section: list[str] | None = None
    kind = ""
    for line in [*patch.splitlines(), "*** End"]:
        if line.startswith("*** "):
            if section is not None:
                return _apply(kind, section, current)
            header, _, name = line[4:].partition(": ")
            if header in ("Add File", "Update File") and resolve_path(name.strip()) == target:
                section, kind = [], header
        elif section is not None:
            section.append(line)
    return None


def _apply(kind: str, lines: list[str], current: str | None) -> str | None:
    if kind == "Add File":
        return "".join(line[1:] + "\n" for line in lines if line.startswith("+"))
    if current is None:
        return None
    for hunk in _hunks(lines):
        old = "".join(line[1:] + "\n" for line in hunk if line[:1] in (" ", "-"))
        new = "".join(line[1:] + "\n" for line in hunk if line[:1] in (" ", "+"))
        if old and old not in current and old.rstrip("\n") in current:
            old, new = old.rstrip("\n"), new.rstrip("\n")
        if old not in current:
            return None
        current = current.replace(old, new, 1) if old else current + new
    return current


def _hunks(lines: Iterable[str]) -> Iterator[list[str]]:
    hunk: list[str] = []
    for line in lines:
        if line.startswith("@@"):
            if hunk:
                yield hunk
            hunk = []
        elif line[:1] in (" ", "-", "+"):
            hunk.append(line)
    if hunk:
        yield hunk
