"""Shell completion for both executables: values for options, and a bash script that
survives the colons in event types.

Click generates the scripts (``_FORGE_HOOK_RUN_COMPLETE=bash_source forge-hook-run``,
also ``zsh_source`` and ``fish_source``). Two things it does not do for us:

- complete an option whose type is a plain ``str`` (``forge-hook-run --event``: a
  ``click.Choice`` would cost start-up on every run): :func:`values` makes the
  ``shell_complete`` callback of any such option, from a function listing its values;
- bash splits words at ``:`` (``COMP_WORDBREAKS``), so click's bash script sends
  ``session : st`` and offers ``session:`` and then nothing. Our bash class reads the
  line itself and answers with the text after the last word break, as
  bash-completion's ``__ltrim_colon_completions`` does;
- click's fish script splits each answer at every ``,``, so ``tool:error,user:interrupt``
  (a list of patterns) came back as ``tool:error``: ours splits at the first only.

Nothing here is imported by click's completion machinery until a shell asks
(:func:`install_if_asked`): ``click.shell_completion`` would cost 0.4 ms of every start-up
(bench/README.md, "tricks.py").
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from forge_hookd.dialects import NAMES as DIALECTS
from forge_hookd.events import EVENT_TYPES

if TYPE_CHECKING:  # at run time the alias would import click.shell_completion
    from collections.abc import Callable, Iterable

    import click
    from click.shell_completion import CompletionItem

    Completer = Callable[[click.Context, click.Parameter, str], list[CompletionItem]]


def values(listed: Callable[[], Iterable[str]], *, separator: str | None = None) -> Completer:
    """A ``shell_complete`` callback offering ``listed()`` that start with what is typed.

    With ``separator`` (``","`` for a list of patterns) only the last item is completed
    and the ones before it are kept.
    """

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        done, _, current = incomplete.rpartition(separator) if separator else ("", "", incomplete)
        head = done + separator if separator and done else ""
        return [CompletionItem(head + value) for value in listed() if value.startswith(current)]

    return complete


def event_types() -> list[str]:
    return sorted(EVENT_TYPES)


def native_events() -> list[str]:
    """Every native event of every agent that forge has no type of its own for: a hook's
    ``event`` names them ``agent:native:NAME``."""
    from forge_hookd.dialects import NAMES, get

    return sorted({event for name in NAMES for event in get(name).words.native_events})


def dialect_names() -> list[str]:
    return list(DIALECTS)


def template_names() -> list[str]:
    # Only a shell asking pays for building the templates (bench/README.md, "tricks.py").
    from forge_hookd.templates import HOOK_TEMPLATES

    return sorted(HOOK_TEMPLATES)


def guard_names() -> list[str]:
    from forge_hookd.guards import ALIASES, GUARDS

    return sorted([*GUARDS, *ALIASES])


def guard_sets() -> list[str]:
    from forge_hookd.guards.entries import SETS

    return [*SETS, *guard_names()]


def guard_tools() -> list[str]:
    from forge_hookd.guards.explain import TEST_TOOLS

    return list(TEST_TOOLS)


def tool_names() -> list[str]:
    """Every tool name a pattern or ``--tool`` may take that forge knows: the canonical
    ones (``bash``) and each agent's own (``Bash``, ``run_shell_command``)."""
    from forge_hookd.dialects import NAMES, get

    names: set[str] = set()
    for name in NAMES:
        tools = get(name).words.tools
        names.update(tools)
        names.update(tools.values())
    return sorted(names)


def event_patterns(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``add --event``: event types, and after a type that carries a tool and its colon
    (``tool:pre_execute:``) the tool names (after ``agent:native:`` the agents' native
    events); a list of patterns is completed at its last."""
    from click.shell_completion import CompletionItem

    from forge_hookd.events import EVENT_INFO

    done, comma, current = incomplete.rpartition(",")
    head = done + comma
    with_tool = [t.value for t, info in EVENT_INFO.items() if info.has_tool]
    typed = next((t for t in with_tool if current.startswith(t + ":")), None)
    if typed == "agent:native":  # its "tool" is the agent's own name of the event
        listed = [f"{typed}:{event}" for event in native_events()]
    elif typed is not None:
        listed = [f"{typed}:{tool}" for tool in tool_names()]
    else:
        listed = event_types()
    return [CompletionItem(head + value) for value in listed if value.startswith(current)]


def paths(kind: str) -> Completer:
    """A ``shell_complete`` callback that lets the shell complete a path: ``file`` or
    ``dir`` (a plain ``str`` option: click.Path would cost start-up, see cli.py)."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(incomplete, type=kind)]

    return complete


def hook_selectors(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``enable/disable/remove``: the indexes and ids of the hooks in the file the
    command edits (``--global``, else the project's), each with its pattern and command
    as help; ``remove`` also takes a pattern."""
    from click.shell_completion import CompletionItem

    items: dict[str, CompletionItem] = {}
    for index, entry in _entries(ctx):
        about = f"{entry.get('event', '?')}: {' '.join(str(entry.get('command', entry.get('guard', ''))).split())}"
        hook_id = entry.get("id")
        for name in (str(index), *([hook_id] if isinstance(hook_id, str) else [])):
            items.setdefault(name, CompletionItem(name, help=about[:80]))
        pattern = entry.get("event")
        if ctx.command.name == "remove" and isinstance(pattern, str):
            items.setdefault(pattern, CompletionItem(pattern, help="every hook with exactly this pattern"))
    return [item for value, item in items.items() if value.startswith(incomplete)]


def _entries(ctx: click.Context) -> list[tuple[int, dict[str, Any]]]:
    """The entries of the hooks file the command names; none when it cannot be read."""
    from forge_hookd.config import find_project_root, global_config_path, parse_document, project_file, read_raw
    from forge_hookd.errors import ConfigError

    if ctx.params.get("global_"):
        path = global_config_path()
    else:
        path = project_file(find_project_root(ctx.find_root().params.get("project_root")))
    try:
        raw = read_raw(path)
        hooks = parse_document(raw, path).get("hooks", []) if raw is not None else []
    except (ConfigError, OSError):
        return []
    return [(i, e) for i, e in enumerate(hooks) if isinstance(e, dict)]


def install_if_asked(prog: str) -> None:
    """Put our bash script in place when a shell is asking ``prog`` for completions."""
    if f"_{prog.replace('-', '_').upper()}_COMPLETE" in os.environ:
        from click.shell_completion import add_completion_class

        add_completion_class(_bash_class())
        add_completion_class(_fish_class())


# Click's bash script, except for the lines marked: the line up to the cursor and the
# word-break characters go to the command, instead of COMP_WORDS split at colons; and a
# directory is completed as a file name (with its '/').
_SOURCE_BASH = """\
%(complete_func)s() {
    local IFS=$'\\n'
    local response

    # forge-hook-run: the line itself, not COMP_WORDS (split at ':' and '=').
    response=$(env COMP_LINE="${COMP_LINE:0:COMP_POINT}" COMP_WORDBREAKS="$COMP_WORDBREAKS" \\
%(complete_var)s=bash_complete $1)

    for completion in $response; do
        IFS=',' read type value <<< "$completion"

        if [[ $type == 'dir' ]]; then
            COMPREPLY=()
            # forge-hook-run: filenames too, so that a directory gets its '/' and a
            # name with spaces its quoting, as cd's own completion does.
            compopt -o dirnames -o filenames
        elif [[ $type == 'file' ]]; then
            COMPREPLY=()
            compopt -o default
        elif [[ $type == 'plain' ]]; then
            COMPREPLY+=($value)
        fi
    done

    return 0
}

%(complete_func)s_setup() {
    complete -o nosort -F %(complete_func)s %(prog_name)s
}

%(complete_func)s_setup;
"""


def _bash_class() -> Any:
    from click.shell_completion import BashComplete as ClickBashComplete
    from click.shell_completion import CompletionItem, split_arg_string

    class BashComplete(ClickBashComplete):
        """Click's bash completion, with the line read whole and answers trimmed to
        what bash replaces: the text after the last word-break character."""

        source_template = _SOURCE_BASH

        def get_completion_args(self) -> tuple[list[str], str]:
            line = os.environ["COMP_LINE"]
            words = split_arg_string(line)
            if words and not line[-1:].isspace():
                return words[1:-1], words[-1]
            return words[1:], ""

        def get_completions(self, args: list[str], incomplete: str) -> list[CompletionItem]:
            items = super().get_completions(args, incomplete)
            return [trimmed for item in items
                    if (trimmed := _after_word_break(item, incomplete, os.environ.get("COMP_WORDBREAKS", "")))]

    return BashComplete


def _fish_class() -> Any:
    from click.shell_completion import FishComplete as ClickFishComplete

    click_line = 'set -l metadata (string split "," $completion);'
    if click_line not in ClickFishComplete.source_template:  # a click that fixed it, or changed
        return ClickFishComplete

    class FishComplete(ClickFishComplete):
        """Click's fish completion, with each answer split at its first comma only."""

        source_template = ClickFishComplete.source_template.replace(
            click_line, 'set -l metadata (string split -m 1 "," $completion);')

    return FishComplete


def _after_word_break(item: CompletionItem, incomplete: str, breaks: str) -> CompletionItem | None:
    """``item`` as bash must insert it: bash replaces only what follows the last of
    ``breaks`` in the word being completed (``st`` of ``session:st``)."""
    if item.type != "plain":
        return item
    cut = max((incomplete.rfind(char) for char in breaks), default=-1)
    if cut < 0:
        return item
    # click completes the value of --opt=value without its "--opt=": put it back.
    option = incomplete.partition("=")[0] + "=" if incomplete.startswith("-") and "=" in incomplete else ""
    full = option + str(item.value)
    if not full.startswith(incomplete[: cut + 1]):
        return None
    item.value = full[cut + 1:]
    return item
