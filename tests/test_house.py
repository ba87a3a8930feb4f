"""The house's rules, checked on the code (issue 29; STYLE 35-37): the wings import one
another in one direction only (no circle between two rooms, the package's top-level
modules and its wing folders), every wing says what it is, and no module writes
another module's private names."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

PACKAGE = Path(__file__).resolve().parent.parent / "forge_hookd"


def _room(module: str) -> str | None:
    """The room of a module of the package: its wing folder, or the top-level module."""
    parts = module.split(".")
    if parts[0] != "forge_hookd" or len(parts) == 1:
        return None
    if (PACKAGE / parts[1]).is_dir():
        return parts[1] + "/"
    return parts[1] if (PACKAGE / f"{parts[1]}.py").exists() else None


def _imports() -> dict[str, set[tuple[str, str]]]:
    """room -> {(imported room, importing file)}, TYPE_CHECKING imports included."""
    edges: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE)
        room = relative.parts[0] + "/" if len(relative.parts) > 1 else relative.stem
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = ([f"{node.module}.{a.name}" for a in node.names] if node.module == "forge_hookd"
                           else [node.module])
            elif isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            else:
                continue
            for module in modules:
                target = _room(module)
                if target is not None and target != room:
                    edges[room].add((target, str(relative)))
    return edges


def test_no_two_rooms_import_each_other_even_through_others() -> None:
    edges = _imports()
    graph = {room: {target for target, _ in found} for room, found in edges.items()}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            room = todo.pop()
            if room == goal:
                return True
            if room not in seen:
                seen.add(room)
                todo.extend(graph.get(room, ()))
        return False

    circles = sorted(f"{room} -> {target} (in {where}) and back" for room, found in edges.items()
                     for target, where in found if reaches(target, room))
    assert circles == []


def test_every_wing_says_what_it_is_and_hands_nothing_on() -> None:
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        tree = ast.parse(init.read_text())
        assert ast.get_docstring(tree), f"{init.parent.name}/ has no docstring saying what the wing is"
    for wing in ("run", "trust", "shell", "log", "warm", "policy", "cli", "agents"):
        body = ast.parse((PACKAGE / wing / "__init__.py").read_text()).body
        assert len(body) == 1, f"{wing}/__init__.py does more than say what the wing is (start-up cost)"


def test_no_module_writes_another_modules_private_names() -> None:
    # STYLE 37: a cache that must be reset between runs gets a reset function in the
    # module that owns it (the warm worker once wrote tree._subreaper itself)
    found = []
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        modules = {alias.asname or alias.name.split(".")[0] for node in ast.walk(tree)
                   if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                if (isinstance(target, ast.Attribute) and target.attr.startswith("_")
                        and not target.attr.startswith("__") and isinstance(target.value, ast.Name)
                        and target.value.id in modules):
                    found.append(f"{path.relative_to(PACKAGE)}:{getattr(node, 'lineno', 0)}: {target.value.id}.{target.attr}")
    assert found == []


def test_the_state_directory_has_one_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 29 item 4: computed in six places once; now statedir.state_path, and the warm
    # client's spelling over bytes (built-in modules only) is tied to it here
    import os

    from forge_hookd.statedir import state_path
    from forge_hookd.warm.client import enabled_mark, install_tag

    for state in (str(tmp_path / "xdg"), None):
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
        if state is None:
            monkeypatch.delenv("XDG_STATE_HOME", raising=False)
        else:
            monkeypatch.setenv("XDG_STATE_HOME", state)
        assert os.fsdecode(enabled_mark(os.environb)) == state_path(f"warm-{install_tag().decode()}.on")
    sources = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if 'get("XDG_STATE_HOME")' in p.read_text() or 'get(b"XDG_STATE_HOME")' in p.read_text())
    assert sources == ["statedir.py", "warm/client.py"]


def test_every_cited_benchmark_section_exists() -> None:
    # issue 29 item 4: comments cited sections of bench/README.md that did not exist
    import re

    root = PACKAGE.parent
    headings = [line for line in (root / "bench" / "README.md").read_text().splitlines() if line.startswith("#")]
    cited = {(str(path.relative_to(root)), name) for path in [*root.glob("forge_hookd/**/*.py"), *root.glob("tests/**/*.py"),
                                                             *root.glob("bench/*.py"), *root.glob("docs/*.md")]
             for name in re.findall(r'bench/README\.md, "([^"]+)"', path.read_text())}
    missing = sorted(f"{where}: {name}" for where, name in cited if not any(name in h for h in headings))
    assert cited and missing == []


def test_the_readme_map_names_every_module() -> None:
    # issue 29 item 7: "How it is built" is the map of the wings, every module in it
    readme = (PACKAGE.parent / "README.md").read_text()
    section = readme[readme.index("## How it is built"):]
    section = section[:section.index("\n## ", 1)] if "\n## " in section[1:] else section
    missing = []
    for path in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.c")]):
        relative = path.relative_to(PACKAGE)
        if path.name == "__init__.py":
            if len(relative.parts) > 1 and f"`{relative.parts[0]}/`" not in section:
                missing.append(str(relative.parent) + "/")
            continue
        wing = relative.parts[0] if len(relative.parts) > 1 else None
        if f"`{path.name}`" not in section or (wing and f"`{wing}/`" not in section):
            missing.append(str(relative))
    assert missing == []
