"""Tools the dialects' alias tables do not map (issue 31, item 4): an MCP tool call
(``mcp__server__tool``) and any other tool an agent adds, judged by what its name and
its input say, since forge cannot know what the tool does.

- :func:`views`: the tool call as the guards can read it: a ``command`` string is a
  shell command (``bash``), each argument that names a file a path, read or written as
  the tool's name says (``write_file``, ``move_file``: written; ``read_file``,
  ``list_directory``: read);
- :func:`destructive_verb`: the word of an MCP tool's name that deletes, drops or
  destroys (``delete_repository``, ``dropTable``), which ``infra_destructive`` asks about;
- :func:`sql_texts`: the arguments that hold SQL (a ``sql``/``query``/``statement`` key,
  or a string that starts as SQL does), which ``infra_destructive`` reads as it reads
  ``psql -c``.

Loaded only when a guard meets a tool that is not one of forge's canonical ones."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any

from forge_hookd.shell.lazyre import Lazy

#: The words of an MCP tool's name that delete, drop or destroy something.
DESTRUCTIVE = frozenset({"delete", "del", "drop", "destroy", "truncate", "purge", "wipe", "remove", "rm", "reset",
                         "erase", "terminate", "flush", "deregister", "uninstall", "prune", "obliterate", "nuke"})
#: The words of a tool's name that change the file it names (else the tool reads it).
_WRITES = frozenset({"write", "edit", "create", "update", "save", "put", "move", "mv", "rename", "append", "patch",
                     "insert", "replace", "set", "upload", "copy", "cp", "mkdir", "modify", "overwrite", "touch",
                     "apply", "change", "chmod", "chown", "link", "store", "unlink", *DESTRUCTIVE})
#: Keys whose string value is a file path, however a tool spells them.
_PATH_KEY = Lazy(r"(?i)^(?:.*[_-])?(?:path|file|filename|filepath|dir|dirpath|directory|folder|source|"
                 r"destination|dest|target|src|dst)$|[a-z](?:Path|File|Dir|Directory|Folder)$")
#: Keys whose value is SQL (or a query a database runs).
_SQL_KEY = Lazy(r"(?i)^(?:.*[_-])?(?:sql|query|queries|statement|statements|stmt|script)$|[a-z](?:Sql|Query)$")
#: A string that starts as an SQL statement does (after blanks and comments).
_LOOKS_SQL = Lazy(r"(?is)^\s*(?:(?:--[^\n]*\n|/\*.*?\*/)\s*)*(?:select|insert|update|delete|drop|truncate|alter|"
                  r"create|with|replace|merge|grant|revoke|begin|pragma|vacuum)\b")
#: Keys whose value is prose for people (an issue's title, a commit message): SQL there is
#: talk about SQL, never run
_PROSE = frozenset({"title", "body", "description", "message", "comment", "text", "content", "summary", "note",
                    "prompt", "name"})
_WORD = Lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


@functools.lru_cache(maxsize=256)  # the pack's thirteen guards ask of one name in turn
def is_mcp(tool: str) -> bool:
    """Whether ``tool`` is named as the agents name MCP tools: ``mcp__server__tool``
    (Claude, Codex, Windsurf), ``mcp_server_tool`` (Gemini), ``MCP:tool`` (Cursor),
    ``server__tool``, or Copilot's ``server-tool`` when the server says mcp
    (``github-mcp-server-delete_file``)."""
    lowered = tool.lower()
    return lowered.startswith(("mcp__", "mcp_", "mcp:")) or "__" in tool.strip("_") or \
        "-" in tool and "mcp" in lowered.split("-")


def own_name(tool: str) -> str:
    """The tool's own part of an MCP name, the server taken off (the whole name when
    its server part cannot be told: ``mcp_server_tool``)."""
    if tool.lower().startswith("mcp__") and "__" in tool[5:]:
        return tool[5:].split("__", 1)[1]
    if tool.lower().startswith("mcp:"):
        return tool[4:]
    if tool.lower().startswith("mcp_"):
        return tool[4:]
    if "__" in tool.strip("_"):
        return tool.strip("_").split("__", 1)[1]
    return tool


def name_words(name: str) -> list[str]:
    """The words of a tool name, lowercased: ``delete_repo``, ``deleteRepo``,
    ``delete-repo`` and ``DeleteRepo`` are all ``delete``, ``repo``."""
    return [m.group(0).lower() for m in _WORD.finditer(name)]


@functools.lru_cache(maxsize=256)
def destructive_verb(tool: str) -> str | None:
    """The word of an MCP tool's own name that deletes, drops or destroys, or None (and
    None for a tool not named as MCP tools are)."""
    if not is_mcp(tool):
        return None
    return next((w for w in name_words(own_name(tool)) if w in DESTRUCTIVE), None)


@functools.lru_cache(maxsize=256)
def writes(tool: str) -> bool:
    """Whether the tool's name says it changes the files it names."""
    return any(w in _WRITES for w in name_words(own_name(tool)))


def paths(tool_args: Mapping[str, Any]) -> list[str]:
    """The file paths among a tool's arguments (``path``, ``file_path``, ``source``,
    ``destination``, ``paths: [...]``, a ``file://`` URI), one level deep."""
    found = []
    for key, value in tool_args.items():
        if not isinstance(key, str) or not _path_key(key):
            continue
        for item in (value if isinstance(value, list) else [value]):
            if not isinstance(item, str) or not item.strip() or "\n" in item or len(item) > 4096:
                continue
            if item.startswith("file://"):
                found.append(item[7:])
            elif "://" not in item:  # a URL is no file here
                found.append(item)
    return found


@functools.lru_cache(maxsize=512)
def _path_key(key: str) -> bool:
    return _PATH_KEY.search(key.rstrip("s")) is not None


@functools.lru_cache(maxsize=512)
def _sql_key(key: str) -> bool:
    return _SQL_KEY.search(key) is not None


def command(tool_args: Mapping[str, Any]) -> str | None:
    """The tool's ``command`` (or ``cmd``), when it is a string or an argv list."""
    from forge_hookd.shell.commands import command_of  # loaded already wherever a guard judges

    return command_of(tool_args)


def views(tool: str, tool_args: Mapping[str, Any], wanted: frozenset[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The call as those of forge's canonical tools in ``wanted`` (what the guard
    judges): ``("bash", {"command": ...})`` for a command, ``("write"|"read",
    {"file_path": p, ...})`` for each path (with what the call would write, for the
    guards that read content)."""
    line = command(tool_args) if "bash" in wanted else None
    if line is not None:
        yield "bash", {"command": line}
    verb = "write" if writes(tool) else "read"
    found = paths(tool_args) if verb in wanted else []
    if not found:
        return
    content = {k: v for k, v in tool_args.items() if k in ("content", "text", "new_string", "new_str", "contents",
                                                          "edits") and verb == "write"}
    for path in found:
        yield verb, {**content, "file_path": path}


def judged_as(tool: str, tool_args: Mapping[str, Any]) -> str | None:
    """What a tool forge does not map is judged as, for the run's warning: ``a shell
    command``, ``a path``, both, or None (nothing forge can read)."""
    kinds = [k for k, found in (("a shell command", command(tool_args) is not None), ("a path", bool(paths(tool_args))))
             if found]
    return " and as ".join(kinds) or None


def sql_texts(tool_args: Mapping[str, Any]) -> list[str]:
    """The SQL among a tool's arguments: the value of a ``sql``/``query``/``statement``
    key, and any string that starts as an SQL statement does (one level of nesting)."""
    found = []
    for key, value in _items(tool_args):
        keyed = isinstance(key, str) and _sql_key(key)
        prose = isinstance(key, str) and key.lower() in _PROSE
        for item in (value if isinstance(value, list) else [value]):
            if isinstance(item, str) and (keyed or not prose and _LOOKS_SQL.match(item[:4096])):
                found.append(item)
    return found


def _items(tool_args: Mapping[str, Any]) -> Iterator[tuple[object, object]]:
    for key, value in tool_args.items():
        yield key, value
        if isinstance(value, Mapping):
            yield from value.items()

