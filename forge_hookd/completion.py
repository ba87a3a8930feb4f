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
    from .events import EVENT_TYPES

    return sorted(EVENT_TYPES)


def event_patterns() -> list[str]:
    """The event types, and ``agent:native:NAME`` for every native event of every agent
    that forge has no type of its own for (a hook's ``event`` names them so)."""
    from .dialects import NAMES, get

    native = {f"agent:native:{event}" for name in NAMES for event in get(name).words.native_events}
    return event_types() + sorted(native)


def dialect_names() -> list[str]:
    from .dialects import NAMES

    return list(NAMES)


def template_names() -> list[str]:
    from .templates import HOOK_TEMPLATES

    return sorted(HOOK_TEMPLATES)


def install_if_asked(prog: str) -> None:
    """Put our bash script in place when a shell is asking ``prog`` for completions."""
    if f"_{prog.replace('-', '_').upper()}_COMPLETE" in os.environ:
        from click.shell_completion import add_completion_class

        add_completion_class(_bash_class())
        add_completion_class(_fish_class())


# Click's bash script, except for the two lines marked: the line up to the cursor and
# the word-break characters go to the command, instead of COMP_WORDS split at colons.
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
            compopt -o dirnames
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
