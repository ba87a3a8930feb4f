"""The committed man pages are what man/generate.py makes, and name every option."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from man import generate

MAN = Path(generate.__file__).parent


def all_options(command: click.Command) -> set[str]:
    names = {opt for p in command.params if isinstance(p, click.Option) for opt in p.opts}
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            names |= all_options(sub)
    return names


@pytest.mark.parametrize("filename", sorted(generate.pages()))
def test_committed_page_is_up_to_date(filename: str) -> None:
    assert (MAN / filename).read_text() == generate.pages()[filename], \
        f"man/{filename} is stale: run python man/generate.py"


def test_every_option_is_in_its_page() -> None:
    from forge_hookd.cli import forge_hook_run

    commands: dict[str, click.Command] = {"forge-hook-run.1": forge_hook_run}
    try:
        from forge_hookd.manage import forge_hook
        commands["forge-hook.1"] = forge_hook
    except ImportError:
        pass
    for filename, command in commands.items():
        text = (MAN / filename).read_text().replace("\\-", "-")
        missing = [o for o in sorted(all_options(command)) if o not in text]
        assert not missing, f"{filename} lacks {missing}"


@pytest.mark.parametrize("filename", sorted(generate.pages()))
def test_page_uses_only_known_macros(filename: str) -> None:
    macros = {line.split()[0] for line in (MAN / filename).read_text().splitlines() if line.startswith(".")}
    assert macros <= {".TH", ".SH", ".SS", ".PP", ".TP", ".B", ".nf", ".fi", ".RS", ".RE"}
