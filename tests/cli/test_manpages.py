"""The committed man pages are what man/generate.py makes, and name every option."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import click
import pytest

from helpers import LEAK_VAR, WARM_VARS, Project, run_installed
from man import generate, sections

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
    from forge_hookd.cli.run import forge_hook_run

    commands: dict[str, click.Command] = {"forge-hook-run.1": forge_hook_run}
    try:
        from forge_hookd.cli.manage import forge_hook
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
    assert macros <= {".TH", ".SH", ".SS", ".PP", ".TP", ".IP", ".B", ".nf", ".fi", ".RS", ".RE"}


# -- rendered: what a reader of man sees -------------------------------------------------
def render(filename: str) -> str:
    """The page as man shows it, in plain text: groff when it is installed (as man uses
    it, every warning on), else :func:`render_in_python`, which knows our macros only."""
    if shutil.which("groff") is None:
        return render_in_python((MAN / filename).read_text())
    proc = subprocess.run(["groff", "-man", "-Tutf8", "-P-cbou", "-rHY=0", "-rLL=100n", "-ww",
                           str(MAN / filename)], capture_output=True, text=True, check=True)
    assert proc.stderr == "", f"groff warns about man/{filename}: {proc.stderr}"
    return proc.stdout


def render_in_python(source: str) -> str:
    """A renderer of the macros generate.py writes, without filling: a paragraph is one
    line, a literal block keeps its lines, a definition is its term on a line of its own."""
    def text(line: str) -> str:
        for escape, char in (("\\-", "-"), ("\\(bu", "\u2022"), ("\\fB", ""), ("\\fR", ""),
                             ("\\&", ""), ("\\e", "\\")):
            line = line.replace(escape, char)
        return line

    out: list[str] = []
    footer = ""
    literal = False
    fresh = 0  # how many coming text lines start a line of their own (a .TP term: 2)
    for line in source.splitlines():
        macro, _, rest = line.partition(" ") if line.startswith(".") else ("", "", line)
        if macro in (".SH", ".SS"):
            out += ["", rest if macro == ".SH" else "   " + text(rest)]
            fresh = 1
        elif macro in (".PP", ".TP", ".IP"):
            out += ["", "       \u2022"] if macro == ".IP" else [""]
            fresh = 2 if macro == ".TP" else (0 if macro == ".IP" else 1)
        elif macro in (".nf", ".fi"):
            literal = macro == ".nf"
        elif macro == ".B":
            out.append("       " + text(rest))
            fresh = 1
        elif macro == ".TH":  # groff puts source, date and title in the footer
            title, section, date, source = shlex.split(rest)[:4]
            footer = f"{text(source)}  {date}  {text(title)}({section})"
        elif macro not in (".RS", ".RE"):
            if literal or fresh:
                out.append("       " + text(rest))
                fresh = max(fresh - 1, 0)
            else:
                out[-1] += " " + text(rest)
    return "\n".join([*out, "", footer]) + "\n"


def sections_of(rendered: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    lines: list[str] = []
    for line in rendered.splitlines():
        if line.split()[-1:] and line.split()[-1].isupper() and line.endswith("(1)"):
            continue  # the header or the footer: FORGE-HOOK-RUN(1)
        if line[:1].isalpha() and line.isupper():  # a section heading, flush left
            lines = found.setdefault(line.strip(), [])
        else:
            lines.append(line.rstrip())
    return found


def flat(text: str) -> str:
    return " ".join(text.replace("\u2022", " ").split())


PROSE = [(filename, title, text) for filename, page in
         (("forge-hook-run.1", sections.FORGE_HOOK_RUN), ("forge-hook.1", sections.FORGE_HOOK))
         for title, text in page.items()]


@pytest.mark.parametrize(("filename", "title", "text"), PROSE, ids=[f"{f}:{t}" for f, t, _ in PROSE])
def test_rendered_section_keeps_its_structure(filename: str, title: str, text: str) -> None:
    """Examples line by line, bullets as bullets, terms as terms, paragraphs whole."""
    lines = sections_of(render(filename))[title]
    body = flat("\n".join(lines))
    stripped = [line.strip() for line in lines]
    for block in text.strip("\n").split("\n\n"):
        if block.startswith("  "):  # each example line is a line of its own
            for line in block.splitlines():
                assert line.strip() in stripped, f"{title}: {line.strip()!r} is not a line of its own"
        elif block.startswith("- "):
            for item in block.removeprefix("- ").split("\n- "):
                start = " ".join(item.split()[:4])
                assert any(s.startswith("\u2022") and flat(s).startswith(start) for s in stripped), \
                    f"{title}: no bullet starts {start!r}"
                assert flat(item) in body
        elif block.startswith("* "):
            for item in block.removeprefix("* ").split("\n* "):
                term, _, definition = item.partition(": ")
                assert any(s == term or s.startswith(term + " ") for s in stripped), \
                    f"{title}: {term!r} is not a term"
                assert flat(f"{term} {definition}") in body
        else:
            assert flat(block) in body, f"{title}: a paragraph did not come out whole: {block[:60]!r}"


def test_python_renderer_agrees_with_groff_on_the_shape() -> None:
    """The fallback renderer must see what groff sees, or a pass without groff means nothing."""
    if shutil.which("groff") is None:
        pytest.skip("groff is not installed (.ci/run installs it): nothing to compare the fallback with")
    for filename in generate.pages():
        by_groff = sections_of(render(filename))
        by_python = sections_of(render_in_python((MAN / filename).read_text()))
        assert sorted(by_groff) == sorted(by_python)
        for title in by_groff:
            assert flat("\n".join(by_groff[title])) == flat("\n".join(by_python[title])), title


@pytest.mark.parametrize("filename", sorted(generate.pages()))
def test_footer_names_the_page_and_see_also_names_what_exists(filename: str) -> None:
    command = filename.removesuffix(".1")
    rendered = render(filename).rstrip().splitlines()
    assert rendered[-1].split()[0] == command  # the footer's source: this page's command
    see_also = " ".join(sections_of(render(filename))["SEE ALSO"])
    assert "DESIGN.md" not in see_also


def test_every_variable_a_hook_gets_is_documented_everywhere(project: Project, forge_run: Any) -> None:
    """The variables a real hook sees, against forge-hook events, --help, both man pages'
    sources and docs/reference.md (the README's protocol reference): none may be missing
    from any of them."""
    project.write_hooks([{"event": "*", "command": "env"}])
    run = forge_run({"type": "session:start", "session_id": "s"})
    seen = {line.split("=", 1)[0] for line in run.json["results"][0]["stdout"].splitlines()}
    variables = {name for name in seen if name.startswith("FORGE_") and name not in (LEAK_VAR, *WARM_VARS)}
    assert {"FORGE_HOOK_CHAIN", "FORGE_HOOK_TOKEN", "FORGE_EVENT"} <= variables
    places = {
        "forge-hook events": run_installed(["events"], cwd=project.root, prog="forge-hook").stdout,
        "forge-hook-run --help": run_installed(["--help"], cwd=project.root).stdout,
        "man forge-hook-run": (MAN / "forge-hook-run.1").read_text().replace("\\-", "-"),
        "docs/reference.md": (MAN.parent / "docs" / "reference.md").read_text(),
    }
    for place, text in places.items():
        missing = sorted(v for v in variables if v not in text)
        assert not missing, f"{place} does not mention {missing}"
