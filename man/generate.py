#!/usr/bin/env python3
"""Generate the man pages from the click commands: ``python man/generate.py``.

The OPTIONS sections come from the commands themselves, so a new option cannot be
forgotten; tests/cli/test_manpages.py fails when a committed page differs from this output.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

HERE = Path(__file__).resolve().parent
DATE = "2026-11-21"


def roff(text: str) -> str:
    """Escape text for roff: backslashes, leading dots and quotes, hyphens."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.splitlines():
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def section(title: str, body: str) -> str:
    return f".SH {title}\n{body.strip()}\n"


def paragraphs(text: str) -> str:
    """Blank-line separated blocks, each one of:

    - lines starting with two spaces: literal, each line kept as it is (examples);
    - a block that click's help marks with a ``\\b`` line: its lines kept as they are;
    - items starting with ``* TERM: ``: a definition list (TERM in bold, the rest below);
    - items starting with ``- ``: a bulleted list of paragraphs;
    - anything else: one filled paragraph.
    """
    out = []
    for block in text.strip("\n").split("\n\n"):
        if block.startswith("\b\n"):  # click's "keep these lines as they are"
            out.append(".PP\n.nf\n" + roff(block.removeprefix("\b\n")) + "\n.fi")
        elif block.startswith("  "):
            out.append(".PP\n.nf\n.RS 4\n" + roff("\n".join(l[2:] for l in block.splitlines())) + "\n.RE\n.fi")
        elif block.startswith("* "):
            for item in block.removeprefix("* ").split("\n* "):
                term, _, definition = item.partition(": ")
                out.append(f".TP\n\\fB{roff(term)}\\fR\n{roff(' '.join(definition.split()))}")
        elif block.startswith("- "):
            for item in block.removeprefix("- ").split("\n- "):
                out.append(".IP \\(bu 2\n" + roff(" ".join(item.split())))
        else:
            out.append(".PP\n" + roff(" ".join(block.split())))
    return "\n".join(out)


def option_entries(command: click.Command, ctx: click.Context) -> str:
    out = []
    for param in command.get_params(ctx):
        if not isinstance(param, click.Option) or param.hidden:
            continue
        record = param.get_help_record(ctx)
        if record is None:
            continue
        names, help_text = record
        out.append(f".TP\n.B {roff(names)}\n{roff(' '.join(help_text.split()))}")
    return "\n".join(out)


def arguments(command: click.Command, ctx: click.Context) -> list[str]:
    return [p.human_readable_name for p in command.get_params(ctx) if isinstance(p, click.Argument)]


def command_page(name: str, command: click.Command, sections: dict[str, str],
                 subcommands: bool = False) -> str:
    import inspect

    ctx = click.Context(command, info_name=name, **command.context_settings)
    summary = (command.short_help or (command.help or "").strip().splitlines()[0]).rstrip(".")
    title = roff(name.upper())
    # The footer names the page's own command (forge-hook.1 said forge-hook-run).
    parts = [f'.TH {title} 1 "{DATE}" "{name}" "User Commands"',
             section("NAME", f"{roff(name)} \\- {roff(summary)}"),
             section("SYNOPSIS", f".B {roff(name)}\n{roff(' '.join(command.collect_usage_pieces(ctx)))}"),
             section("DESCRIPTION", paragraphs(inspect.cleandoc(command.help or "")))]
    parts.append(section("OPTIONS", option_entries(command, ctx)))
    if subcommands and isinstance(command, click.Group):
        parts.append(section("COMMANDS", "\n".join(_commands(name, command, ctx))))
    for title, text in sections.items():
        parts.append(section(title, paragraphs(text)))
    return "\n".join(parts)


def _commands(prefix: str, group: click.Group, ctx: click.Context) -> list[str]:
    """One subsection per subcommand, and one per subcommand of a subgroup
    (forge-hook guard list, forge-hook guard test), so that every option is named."""
    import inspect

    body = []
    for sub_name in group.list_commands(ctx):
        sub = group.commands[sub_name]
        sub_ctx = click.Context(sub, info_name=sub_name, parent=ctx, **sub.context_settings)
        usage = " ".join(sub.collect_usage_pieces(sub_ctx))
        body.append(f".SS {roff(prefix + ' ' + sub_name + ' ' + usage)}\n"
                    f"{paragraphs(inspect.cleandoc(sub.help or ''))}\n{option_entries(sub, sub_ctx)}")
        if isinstance(sub, click.Group):
            body += _commands(f"{prefix} {sub_name}", sub, sub_ctx)
    return body


def pages() -> dict[str, str]:
    sys.path.insert(0, str(HERE.parent))
    from man import sections
    from forge_hookd.cli.run import forge_hook_run

    out = {"forge-hook-run.1": command_page("forge-hook-run", forge_hook_run, sections.FORGE_HOOK_RUN)}
    try:
        from forge_hookd.cli.manage import forge_hook
    except ImportError:
        return out
    out["forge-hook.1"] = command_page("forge-hook", forge_hook, sections.FORGE_HOOK, subcommands=True)
    return out


def main() -> None:
    for filename, text in pages().items():
        (HERE / filename).write_text(text)
        print(f"wrote man/{filename}")


if __name__ == "__main__":
    main()
