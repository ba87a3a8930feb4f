"""jsonedit: an agent's settings file edited as text, so that nothing but the edit changes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forge_hookd.agents import jsonedit
from forge_hookd.agents.jsonedit import JsonTextError

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

FORGE = {"matcher": "*", "hooks": [{"type": "command", "command": "forge-hook-run --dialect claude"}]}


def appended(text: str, path: list[str], children: list[Any], *, comments: bool = False) -> str:
    root = jsonedit.parse(text, comments=comments)
    node = root
    for key in path:
        found = node.get(key)
        assert found is not None
        node = found
    insertions = jsonedit.append_children(text, node, children, unit=jsonedit.indent_unit(text, root),
                                          comments=comments)
    new = jsonedit.apply(text, insertions)
    assert jsonedit.unapply(new, insertions) == text
    return new


@pytest.mark.parametrize("text", [
    '{"a": 1,}',            # a trailing comma: JSON.parse and serde refuse it
    '{"a": 1} {"b": 2}',
    "{'a': 1}",
    '{"a": 1 // no comments here\n}',
    '{"a": [1, 2}',
    '',
])
def test_what_the_agents_refuse_is_refused(text: str) -> None:
    with pytest.raises(JsonTextError) as caught:
        jsonedit.parse(text)
    assert caught.value.line is not None and caught.value.column is not None


def test_an_error_says_line_and_column() -> None:
    with pytest.raises(JsonTextError) as caught:
        jsonedit.parse('{\n  "a": 1,\n  "b": oops\n}')
    assert (caught.value.line, caught.value.column) == (3, 8)


def test_comments_are_read_where_the_agent_strips_them() -> None:
    text = '// top\n{\n  "a": "http://x/*y*/", /* inline */\n  "b": [1 // one\n  ]\n}\n'
    assert jsonedit.parse(text, comments=True).value == {"a": "http://x/*y*/", "b": [1]}


def test_an_entry_is_appended_after_the_users_laid_out_as_its_siblings() -> None:
    text = ('{\n\t"hooks": {\n\t\t"PreToolUse": [\n\t\t\t{"matcher": "Bash", "hooks": '
            '[{"type": "command", "command": "./g.sh"}]}\n\t\t]\n\t},\n\t"model": "opus"\n}\n')
    new = appended(text, ["hooks", "PreToolUse"], [FORGE])
    assert new == text.replace('"./g.sh"}]}\n', '"./g.sh"}]},\n\t\t\t' + json.dumps(FORGE, separators=(", ", ": "))
                               + "\n")


def test_a_new_member_takes_the_files_indentation() -> None:
    text = '{\n    "a": {\n        "b": 1\n    }\n}\n'
    new = appended(text, [], [("hooks", {"Stop": [1]})])
    assert new == '{\n    "a": {\n        "b": 1\n    },\n    "hooks": {\n        "Stop": [\n            1\n        ]\n    }\n}\n'


@pytest.mark.parametrize("text,expected", [
    ('{"a":1}', '{"a":1, "hooks": [1]}'),  # a one-line file stays one line
    ("{}", '{"hooks": [1]}'),
    ("{\n}\n", '{\n  "hooks": [\n    1\n  ]\n}\n'),
    ('{\r\n  "a": 1\r\n}\r\n', '{\r\n  "a": 1,\r\n  "hooks": [\r\n    1\r\n  ]\r\n}\r\n'),  # CRLF stays CRLF
])
def test_layouts(text: str, expected: str) -> None:
    assert appended(text, [], [("hooks", [1])]) == expected


def test_a_trailing_comment_stays_on_its_line() -> None:
    text = '{\n  "a": 1 // mine\n}\n'
    assert appended(text, [], [("b", 2)], comments=True) == '{\n  "a": 1, // mine\n  "b": 2\n}\n'


def test_unapply_refuses_text_that_moved() -> None:
    text = '{"a": [1]}'
    insertions = jsonedit.append_children(text, jsonedit.parse(text).get("a") or pytest.fail(), [2], unit="  ")
    new = jsonedit.apply(text, insertions)
    assert jsonedit.unapply(new.replace("[1, 2]", "[1,  2]"), insertions) is None


def test_a_key_given_twice_is_refused_where_an_edit_must_choose() -> None:
    root = jsonedit.parse('{"hooks": {}, "hooks": {"x": []}}')
    assert root.value == {"hooks": {"x": []}}  # the last wins, as JSON.parse says
    with pytest.raises(JsonTextError, match="given 2 times"):
        root.get("hooks")


@pytest.mark.parametrize("text,index,expected", [
    ('[\n  1,\n  2,\n  3\n]', 1, '[\n  1,\n  3\n]'),
    ('[\n  1,\n  2\n]', 1, '[\n  1\n]'),
    ('[\n  1,\n  2\n]', 0, '[\n  2\n]'),
    ('[\n  1\n]', 0, '[]'),
    ('[1, // one\n 2]', 1, '[1 // one\n]'),
])
def test_removing_one_child_keeps_the_others_lines(text: str, index: int, expected: str) -> None:
    assert jsonedit.remove_child(text, jsonedit.parse(text, comments=True), index, comments=True) == expected


# -- properties: any document, any layout -------------------------------------------------
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=8))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)), max_leaves=20)
documents = st.dictionaries(st.text(max_size=6), values, max_size=5)


def containers(value: Any, path: list[str]) -> list[list[str]]:
    """Paths (through object keys) of every object and array in ``value``."""
    found = [path] if isinstance(value, (dict, list)) else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += containers(inner, [*path, key])
    return found


@settings(max_examples=150, deadline=None)
@given(documents, st.sampled_from([None, 0, 2, 4, "\t"]), st.data())
def test_append_then_unapply_or_remove_gives_the_document_back(doc: dict[str, Any], indent: int | str | None,
                                                              data: st.DataObject) -> None:
    text = json.dumps(doc, indent=indent, ensure_ascii=data.draw(st.booleans()))
    path = data.draw(st.sampled_from(containers(doc, [])))
    target: Any = doc
    for key in path:
        target = target[key]
    child = data.draw(values)
    is_object = isinstance(target, dict)
    if is_object:
        key = data.draw(st.text(max_size=6).filter(lambda k: k not in target))
    new = appended(text, path, [(key, child) if is_object else child])
    expected = json.loads(json.dumps(doc))
    spot = expected
    for step in path:
        spot = spot[step]
    if is_object:
        spot[key] = child
    else:
        spot.append(child)
    assert json.loads(new) == expected
    node = jsonedit.parse(new)
    for step in path:
        node = node.get(step) or pytest.fail()
    assert json.loads(jsonedit.remove_child(new, node, len(node.children) - 1)) == json.loads(text)


@settings(max_examples=100, deadline=None)
@given(documents, st.data())
def test_comments_at_line_ends_survive_an_append_and_a_removal(doc: dict[str, Any], data: st.DataObject) -> None:
    """Gemini's settings may hold comments: neither edit may swallow one or let a line
    comment swallow a bracket."""
    lines = json.dumps(doc, indent=2).split("\n")
    marked = [line + (" // c" if data.draw(st.booleans()) else "") for line in lines]
    text = "\n".join(marked) + "\n"
    path = data.draw(st.sampled_from(containers(doc, [])))
    target: Any = doc
    for key in path:
        target = target[key]
    is_object = isinstance(target, dict)
    child: Any = ("forge-x", [1]) if is_object else {"forge": 1}  # keys drawn are at most 6 long
    new = appended(text, path, [child], comments=True)
    assert new.count("// c") == text.count("// c")
    node = jsonedit.parse(new, comments=True)
    for step in path:
        node = node.get(step) or pytest.fail()
    removed = jsonedit.remove_child(new, node, len(node.children) - 1, comments=True)
    assert jsonedit.parse(removed, comments=True).value == doc
    assert removed.count("// c") == text.count("// c")
