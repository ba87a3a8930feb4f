"""Codex's published hook schemas, as test data, and a validator for the subset they use.

The schemas under codex_schemas/ are the ones the released ``codex`` 0.169.0 binary
embeds (``codex-rs/hooks/schema/generated/*.schema.json`` at that release): extracted
from the binary the harness installs, so that they are exactly the release's, not
whatever the repository holds today. ``extract_from_binary`` does it again after a
version bump.

They use a small part of JSON Schema draft-07 (type, properties, required,
additionalProperties, enum, const, $ref to #/definitions, allOf, boolean schemas), so a validator of
forty lines does instead of a new dependency. Anything else in a schema is an error
here, never silently accepted.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

SCHEMAS = Path(__file__).parent / "codex_schemas"
_IGNORED = {"$schema", "default", "description", "title", "definitions"}
_TYPES: dict[str, Any] = {"object": dict, "string": str, "boolean": bool, "array": list, "null": type(None)}


def schema(name: str) -> dict[str, Any]:
    """``schema("pre-tool-use.command.output")``."""
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    return loaded


def errors(instance: Any, root: dict[str, Any]) -> list[str]:
    """Every way ``instance`` breaks ``root``; empty when it is valid."""
    found: list[str] = []
    _check(instance, root, root, "$", found)
    return found


def _check(value: Any, node: dict[str, Any] | bool, root: dict[str, Any], where: str, found: list[str]) -> None:
    if isinstance(node, bool):  # draft-07 boolean schemas: true accepts anything, false nothing
        if not node:
            found.append(f"{where}: no value is allowed here")
        return
    for key, rule in node.items():
        if key in _IGNORED:
            continue
        if key == "$ref":
            _check(value, _resolve(rule, root), root, where, found)
        elif key == "allOf":
            for sub in rule:
                _check(value, sub, root, where, found)
        elif key == "type":
            kinds = rule if isinstance(rule, list) else [rule]
            if not any(_is(value, kind) for kind in kinds):
                found.append(f"{where}: {value!r} is not of type {rule}")
        elif key == "enum":
            if value not in rule:
                found.append(f"{where}: {value!r} is not one of {rule}")
        elif key == "const":
            if value != rule:
                found.append(f"{where}: {value!r} is not {rule!r}")
        elif key == "required":
            if isinstance(value, dict):
                found.extend(f"{where}: {name!r} is required" for name in rule if name not in value)
        elif key == "properties":
            if isinstance(value, dict):
                for name, sub in rule.items():
                    if name in value:
                        _check(value[name], sub, root, f"{where}.{name}", found)
        elif key == "additionalProperties":
            if isinstance(value, dict):
                extra = [name for name in value if name not in node.get("properties", {})]
                if rule is False:
                    found.extend(f"{where}: {name!r} is not allowed" for name in extra)
                elif isinstance(rule, dict):
                    for name in extra:
                        _check(value[name], rule, root, f"{where}.{name}", found)
        else:
            raise ValueError(f"{where}: schema keyword {key!r} is not supported by this validator")


def _is(value: Any, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    expected = _TYPES[kind]
    return isinstance(value, expected) and (kind == "boolean" or not isinstance(value, bool))


def _resolve(ref: str, root: dict[str, Any]) -> dict[str, Any]:
    prefix = "#/definitions/"
    if not ref.startswith(prefix):
        raise ValueError(f"$ref {ref!r} is not supported by this validator")
    resolved: dict[str, Any] = root["definitions"][ref[len(prefix):]]
    return resolved


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
