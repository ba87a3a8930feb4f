"""Codex's published hook schemas, as test data, and a validator for the subset they use.

The schemas under codex_schemas/ are the ones the released ``codex`` 0.169.0 binary
embeds (``codex-rs/hooks/schema/generated/*.schema.json`` at that release): extracted
from the binary the harness installs, so that they are exactly the release's, not
whatever the repository holds today. ``extract_from_binary`` does it again after a
version bump.

They are JSON Schema draft-07, validated with jsonschema (a test dependency: a
hand-written subset could pass an answer Codex refuses).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

SCHEMAS = Path(__file__).parent / "codex_schemas"


def schema(name: str) -> dict[str, Any]:
    """``schema("pre-tool-use.command.output")``."""
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    return loaded


def errors(instance: Any, root: dict[str, Any]) -> list[str]:
    """What makes ``instance`` invalid against ``root``, one ``$.path: message`` each."""
    import jsonschema

    return [f"{e.json_path}: {e.message}" for e in jsonschema.Draft7Validator(root).iter_errors(instance)]


def extract_from_binary(binary: Path) -> dict[str, dict[str, Any]]:
    """The hook schemas a codex binary embeds, by title (``pre-tool-use.command.output``)."""
    data = binary.read_bytes()
    found: dict[str, dict[str, Any]] = {}
    for match in re.finditer(rb'\{\s*"\$schema"', data):
        text = _balanced_object(data, match.start())
        try:
            document = json.loads(text)
        except ValueError:
            continue
        if isinstance(document, dict) and str(document.get("title", "")).endswith((".input", ".output")):
            found[document["title"]] = document
    return found


def _balanced_object(data: bytes, start: int) -> bytes:
    depth, in_string, escaped = 0, False, False
    for index in range(start, len(data)):
        char = data[index]
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == 0x5C, char != 0x22)
            continue
        if char == 0x22:
            in_string = True
        elif char == 0x7B:
            depth += 1
        elif char == 0x7D:
            depth -= 1
            if depth == 0:
                return data[start:index + 1]
    return b""


def write_schemas(schemas: dict[str, dict[str, Any]]) -> None:
    SCHEMAS.mkdir(exist_ok=True)
    for title, document in schemas.items():
        (SCHEMAS / f"{title}.schema.json").write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")
