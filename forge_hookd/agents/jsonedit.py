"""Editing an agent's JSON settings file as text, so that nothing but the edit changes.

``forge-hook install`` adds its entries to files the user wrote by hand (and Gemini's
may hold comments): loading the JSON and dumping it again would reformat the whole file,
lose the comments and reorder nothing but still rewrite every byte. Here the text is
parsed into nodes that know where they start and end, and an edit is a list of
insertions (offset, text) planned against the text: appended after the last member or
element of an object or array, indented as its siblings are. Applying the insertions
and later cutting exactly them out gives the original bytes back (``unapply``); after a
user's own edits, :func:`remove_child` takes one member or element out with its comma.

JSON as the agents read it: RFC 8259, plus ``//`` and ``/* */`` comments where the
agent strips them (``comments=True``: Gemini CLI). A key given twice is kept as the
agent keeps it (the last wins) but refused where an edit would have to choose.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: insert ``text`` at ``offset`` of the text the edit was planned on
Insertion = tuple[int, str]

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_LITERALS = {"true": True, "false": False, "null": None}
_MAX_DEPTH = 256  # deeper than any settings file; a bound on the recursion
# The json module's own string scanner (C), which typeshed does not declare: every
# escape and every control-character rule exactly as json.loads reads them.
_scanstring: Any = getattr(json.decoder, "scanstring")


class JsonTextError(ValueError):
    """The text is not the JSON the agent reads, or not the shape an edit needs."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message if line is None else f"{message} (line {line}, column {column})")
        self.message, self.line, self.column = message, line, column


class Node:
    """A value in the text: ``text[start:end]``. Objects have ``members`` (key, key
    start, node), arrays ``items``; ``value`` is the parsed Python value."""

    __slots__ = ("start", "end", "value", "members", "items")

    def __init__(self, start: int, end: int, value: Any, members: list[tuple[str, int, Node]] | None = None,
                 items: list[Node] | None = None) -> None:
        self.start, self.end, self.value = start, end, value
        self.members, self.items = members, items

    @property
    def children(self) -> list[tuple[int, int]]:
        """Each member's or element's (start, end): a member starts at its key."""
        if self.members is not None:
            return [(key_start, node.end) for _, key_start, node in self.members]
        return [(node.start, node.end) for node in self.items or []]

    def get(self, key: str) -> Node | None:
        """The member ``key`` of an object; JsonTextError when it is given twice."""
        found = [node for name, _, node in self.members or [] if name == key]
        if len(found) > 1:
            raise JsonTextError(f'the key "{key}" is given {len(found)} times; say which one you mean')
        return found[0] if found else None

    def index(self, key: str) -> int:
        return next(i for i, (name, _, _) in enumerate(self.members or []) if name == key)


def parse(text: str, *, comments: bool = False) -> Node:
    """The document's root value; JsonTextError with line and column when it is not JSON."""
    parser = _Parser(text, comments)
    node = parser.value(parser.skip(0), 0)
    end = parser.skip(node.end)
    if end != len(text):
        raise parser.error("more than one JSON value", end)
    return node


class _Parser:
    def __init__(self, text: str, comments: bool) -> None:
        self.text, self.comments = text, comments

    def error(self, message: str, at: int) -> JsonTextError:
        line = self.text.count("\n", 0, at) + 1
        return JsonTextError(message, line, at - (self.text.rfind("\n", 0, at) + 1) + 1)

    def skip(self, at: int) -> int:
        """The first offset from ``at`` that is not whitespace (or a comment)."""
        text = self.text
        while at < len(text):
            char = text[at]
            if char in " \t\r\n":
                at += 1
            elif char == "/" and self.comments and text.startswith("//", at):
                newline = text.find("\n", at)
                at = len(text) if newline < 0 else newline
            elif char == "/" and self.comments and text.startswith("/*", at):
                close = text.find("*/", at + 2)
                if close < 0:
                    raise self.error("a comment that never ends", at)
                at = close + 2
            else:
                break
        return at

    def value(self, at: int, depth: int) -> Node:
        if depth > _MAX_DEPTH:
            raise self.error("nested too deep", at)
        char = self.text[at:at + 1]
        if char == "{":
            return self.object(at, depth)
        if char == "[":
            return self.array(at, depth)
        if char == '"':
            value, end = self.string(at)
            return Node(at, end, value)
        match = _NUMBER.match(self.text, at)
        if match and match.end() > at:
            number = match.group()
            return Node(at, match.end(), float(number) if any(c in number for c in ".eE") else int(number))
        for word, literal in _LITERALS.items():
            if self.text.startswith(word, at):
                return Node(at, at + len(word), literal)
        raise self.error("expected a value" if char else "unexpected end of the file", at)

    def string(self, at: int) -> tuple[str, int]:
        try:
            value, end = _scanstring(self.text, at + 1, True)
            return str(value), int(end)
        except json.JSONDecodeError as exc:
            raise self.error(exc.msg, exc.pos) from None

    def object(self, at: int, depth: int) -> Node:
        start, members = at, list[tuple[str, int, Node]]()
        at = self.skip(at + 1)
        while self.text[at:at + 1] != "}":
            if members:
                at = self.skip(self.expect(",", at) + 1)
            if self.text[at:at + 1] != '"':
                raise self.error("expected a key in double quotes" if members or self.text[at:at + 1] else
                                 "unexpected end of the file", at)
            key, end = self.string(at)
            colon = self.expect(":", self.skip(end))
            node = self.value(self.skip(colon + 1), depth + 1)
            members.append((key, at, node))
            at = self.skip(node.end)
        return Node(start, at + 1, {key: node.value for key, _, node in members}, members=members)

    def array(self, at: int, depth: int) -> Node:
        start, items = at, list[Node]()
        at = self.skip(at + 1)
        while self.text[at:at + 1] != "]":
            if items:
                at = self.skip(self.expect(",", at) + 1)
            node = self.value(at, depth + 1)
            items.append(node)
            at = self.skip(node.end)
        return Node(start, at + 1, [node.value for node in items], items=items)

    def expect(self, char: str, at: int) -> int:
        if self.text[at:at + 1] != char:
            found = self.text[at:at + 1]
            raise self.error(f"expected '{char}'" + (f", found '{found}'" if found else " before the end"), at)
        return at


# -- insertions ------------------------------------------------------------------------------
def indent_unit(text: str, root: Node) -> str:
    """The file's indentation step, as its first indented member shows it ("  " by default)."""
    children = root.children
    if children:
        indent = _line_indent(text, children[0][0])
        if indent is not None and indent:
            return indent
    return "  "


def append_children(text: str, node: Node, children: list[Any], *, unit: str,
                    comments: bool = False) -> list[Insertion]:
    """Insertions that append ``children`` to the object or array ``node``: for an object
    each child is a ``(key, value)`` pair, for an array a value. Laid out as the
    container's present children are: one per line at their indentation, or inline."""
    existing = node.children
    multiline = ("\n" in text[node.start:existing[0][0]]) if existing else "\n" in text
    newline = "\r\n" if "\r\n" in text else "\n"
    indent = _line_indent(text, existing[-1][0]) if existing else None
    if indent is None:
        indent = _line_indent_of_line(text, node.start) + unit
    # A child is laid out as its last sibling is: on one line when that one is an object
    # or array on one line (a scalar sibling says nothing about how objects are laid out)
    last = node.members[-1][2] if node.members else (node.items[-1] if node.items else None)
    compact = not multiline or (last is not None and (last.members is not None or last.items is not None)
                                and "\n" not in text[last.start:last.end])
    rendered = [_render(child, node.members is not None, None if compact else indent, unit, newline)
                for child in children]
    if not existing:
        lines = "".join(f"{newline}{indent}{r}" + ("," if i < len(rendered) - 1 else "")
                        for i, r in enumerate(rendered))
        if not multiline:
            return [(node.start + 1, ", ".join(rendered))]
        if "\n" in text[node.start:node.end]:  # "{\n}": the closing line is there already
            return [(node.start + 1, lines)]
        return [(node.start + 1, lines + newline + _line_indent_of_line(text, node.start))]
    last_end = existing[-1][1]
    if not multiline:
        return [(last_end, "".join(f", {r}" for r in rendered))]
    body = "".join(f"{newline}{indent}{r}" + ("," if i < len(rendered) - 1 else "") for i, r in enumerate(rendered))
    line_end = _end_of_line(text, last_end, comments)
    if line_end == last_end:
        return [(last_end, "," + body)]
    return [(last_end, ","), (line_end, body)]


def _render(child: Any, is_member: bool, indent: str | None, unit: str, newline: str) -> str:
    key, value = child if is_member else (None, child)
    if indent is None:
        rendered = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    else:
        rendered = json.dumps(value, ensure_ascii=False, indent=unit).replace("\n", newline + indent)
    return rendered if key is None else f"{json.dumps(key, ensure_ascii=False)}: {rendered}"


def _line_indent(text: str, at: int) -> str | None:
    """The whitespace before ``at`` on its line, when only whitespace precedes it."""
    line_start = text.rfind("\n", 0, at) + 1
    before = text[line_start:at]
    return before if before.strip(" \t") == "" else None


def _line_indent_of_line(text: str, at: int) -> str:
    line_start = text.rfind("\n", 0, at) + 1
    line = text[line_start:at]
    return line[:len(line) - len(line.lstrip(" \t"))]


def _end_of_line(text: str, at: int, comments: bool) -> int:
    """Where the line of ``at`` ends, past spaces and comments on it; ``at`` itself when
    something else follows on the same line (a closing bracket)."""
    pos = at
    while pos < len(text):
        if text[pos] in " \t\r":
            pos += 1
        elif comments and text.startswith("//", pos):
            newline = text.find("\n", pos)
            return len(text) if newline < 0 else newline
        elif comments and text.startswith("/*", pos) and "\n" not in text[pos:text.find("*/", pos) + 2]:
            pos = text.find("*/", pos) + 2
        elif text[pos] == "\n":
            return pos if text[pos - 1:pos] != "\r" else pos - 1
        else:
            return at
    return at


def apply(text: str, insertions: list[Insertion]) -> str:
    """``text`` with the insertions made (offsets are into ``text``)."""
    for offset, inserted in sorted(insertions, key=lambda i: i[0], reverse=True):
        text = text[:offset] + inserted + text[offset:]
    return text


def unapply(text: str, insertions: list[Insertion]) -> str | None:
    """The text before ``insertions`` were applied to it, or None when some inserted
    text is not where it was put (the file changed since)."""
    pieces, cursor, shift = [], 0, 0
    for offset, inserted in sorted(insertions, key=lambda i: i[0]):
        at = offset + shift
        if at < cursor or text[at:at + len(inserted)] != inserted:
            return None
        pieces.append(text[cursor:at])
        cursor, shift = at + len(inserted), shift + len(inserted)
    return "".join(pieces) + text[cursor:]


# -- removal -------------------------------------------------------------------------------
def remove_child(text: str, node: Node, index: int, *, comments: bool = False) -> str:
    """``text`` without member or element ``index`` of ``node`` and the comma that
    separated it; the lines of the others stay as they are."""
    children = node.children
    start, end = children[index]
    if len(children) == 1:
        inner_start, inner_end = node.start + 1, node.end - 1
        if text[inner_start:start].strip() == "" and text[end:inner_end].strip() == "":
            return text[:inner_start] + text[inner_end:]
        return text[:start] + text[end:]
    if index > 0:
        previous_end = children[index - 1][1]
        between = text[previous_end:start]
        if between.replace(",", "", 1).strip() == "" and between.count(",") == 1:
            return text[:previous_end] + text[end:]
        # A comment stands between: take the comma and the child's own line, never the
        # newline that ends a line comment
        comma = _next_comma(text, previous_end, comments)
        lead = _line_indent(text, start)
        cut_from, cut_to = start, end
        if lead is not None:
            cut_from = start - len(lead)
            cut_to = end + 1 if text[end:end + 1] == "\n" else end
        return text[:comma] + text[comma + 1:cut_from] + text[cut_to:]
    following = children[1][0]
    between = text[end:following]
    if between.replace(",", "", 1).strip() == "" and between.count(",") == 1:
        return text[:start] + text[following:]
    comma = _next_comma(text, end, comments)
    return text[:start] + text[end:comma] + text[comma + 1:]


def _next_comma(text: str, at: int, comments: bool) -> int:
    """The separating comma after ``at``, past whitespace and comments."""
    return _Parser(text, comments).skip(at)
