"""Windows' own commands read as the POSIX command with the same effect, so that every
guard judges them by what they do: PowerShell's cmdlets and their aliases
(``Remove-Item -Recurse -Force C:\\``, ``iex (iwr URL)``, ``Stop-Computer``, ``Get-ChildItem Env:``) and cmd's
built-ins (``rd /s /q C:\\``, ``del /f /s /q``, ``type .env``, ``format C:``), with
Windows paths put as the guards know them: a drive's root as ``/``, a user's profile as
``~``, the system's folders as ``/usr``, any other folder of a drive as ``/FOLDER``. An agent on Windows (Codex and Copilot run
PowerShell there, Claude Code Git Bash) writes them; the guards read POSIX lines.

Loaded only for a command whose name is one of :data:`HEADS` (shell/commands.py asks).
Pure: words in, a shell line out, or None when the command is none of these.
"""

from __future__ import annotations

from forge_hookd.shell.lazyre import Lazy

#: the names this module reads, lower case (PowerShell's and cmd's names are case-blind)
HEADS = frozenset({
    "remove-item", "ri", "del", "erase", "rd", "rmdir", "rm", "format", "type", "get-content", "gc", "cat",
    "powershell", "powershell.exe", "pwsh", "pwsh.exe", "cmd", "cmd.exe", "iex", "invoke-expression",
    "invoke-webrequest", "iwr", "invoke-restmethod", "irm", "stop-computer", "restart-computer", "shutdown",
    "shutdown.exe", "copy-item", "cpi", "move-item", "mi", "get-childitem", "gci", "get-item", "gi"})
#: PowerShell's listing cmdlets and their aliases: on the drive ``Env:`` they list the environment
#: (``ls`` and ``dir``, POSIX names too, come here only with an ``env:`` operand: shell/commands.py)
_LISTERS = frozenset({"get-childitem", "gci", "dir", "ls", "get-item", "gi"})
_URL = Lazy(r"https?://[^\s'\")]+", needs=("://",))
_DOWNLOADS = ("downloadstring", "downloadfile", "invoke-webrequest", "iwr ", "iwr(", "invoke-restmethod", "irm ",
              "irm(", "net.webclient", "start-bitstransfer")


def equivalent(argv: tuple[str, ...]) -> str | None:
    """The POSIX line that does what ``argv`` does on Windows, or None."""
    name = argv[0].lower()
    args = list(argv[1:])
    lowered = [a.lower() for a in args]
    if name in ("remove-item", "ri", "del", "erase", "rd", "rmdir", "rm") and _windows_style(args):
        recursive = any(a == "/s" or a.startswith("-r") for a in lowered)
        targets = [posix_path(a) for a in _operands(args)]
        return " ".join(["rm", "-rf" if recursive else "-f", *targets]) if targets else None
    if name in _LISTERS or name in ("get-content", "gc") and _environment_listed(_operands(args)) is not None:
        return _environment_listed(_operands(args))  # `gc env:GITHUB_TOKEN` reads the variable, no file
    if name == "format" and args and len(args[0]) == 2 and args[0][1] == ":":
        return f"mkfs {args[0]}"  # a whole drive formatted
    if name in ("get-content", "gc") or name in ("type", "cat") and _windows_style(args) or \
            name == "type" and any("." in a or "\\" in a for a in _operands(args)):  # cmd's type FILE, not bash's
        return " ".join(["cat", *(posix_path(a) for a in _operands(args))])
    if name in ("stop-computer", "restart-computer") or name in ("shutdown", "shutdown.exe") and \
            any(a in ("/s", "/r", "/p", "/h") for a in lowered):
        return "shutdown -h now"
    if name in ("iex", "invoke-expression") and any(d in " ".join(lowered) for d in _DOWNLOADS):
        url = next((m.group() for a in args if (m := _URL.search(a)) is not None), "https://downloaded.invalid")
        return f"curl -s {url} | sh"  # code fetched and run, unread
    if name in ("invoke-webrequest", "iwr", "invoke-restmethod", "irm"):
        return _download(args, lowered)
    if name in ("copy-item", "cpi", "move-item", "mi") and _windows_style(args):
        ops = [posix_path(a) for a in _operands(args)]
        return " ".join(["cp -r" if name in ("copy-item", "cpi") else "mv", *ops]) if len(ops) >= 2 else None
    return None


def _environment_listed(ops: list[str]) -> str | None:
    """``Get-ChildItem Env:`` (``gci env:``, ``dir Env:\\``, ``Get-Item Env:*``) as ``env``: every
    variable printed; ``Get-ChildItem Env:PATH`` and ``Get-Content env:PATH`` as ``printenv PATH``;
    None for any other listing or file."""
    if len(ops) != 1 or ops[0][:4].lower() != "env:":
        return None
    variable = ops[0][4:].lstrip("\\/")
    return "env" if variable in ("", "*") else f"printenv {variable}"


def shell_code(argv: tuple[str, ...]) -> tuple[str, str] | None:
    """``(how, code)`` that ``powershell -Command CODE`` or ``cmd /c CODE`` runs; how is
    ``encoded`` for ``-EncodedCommand`` (code nobody can read in the line: decoded here, and
    still asked about, as code spelt in escapes is)."""
    name = argv[0].lower()
    args = list(argv[1:])
    for k, arg in enumerate(args):
        option = arg.lower()
        if name.startswith(("powershell", "pwsh")) and option in ("-c", "-command", "/c", "/command"):
            return name, " ".join(args[k + 1:])
        if name.startswith(("powershell", "pwsh")) and option in ("-e", "-ec", "-enc", "-encodedcommand"):
            return "encoded", _decoded(args[k + 1] if k + 1 < len(args) else "")
        if name.startswith("cmd") and option in ("/c", "/k", "/r"):
            return name, " ".join(args[k + 1:])
    return None


def _decoded(text: str) -> str:
    """An ``-EncodedCommand``'s code: base64 of UTF-16LE, as PowerShell reads it; "" when it
    is not that (then nothing is read, and the command stays unseen)."""
    import base64
    import binascii

    try:
        return base64.b64decode(text[: 1 << 20], validate=True).decode("utf-16-le")
    except (binascii.Error, ValueError):
        return ""


def posix_path(path: str) -> str:
    """A Windows path as the guards know its place: ``C:\\`` -> ``/``, ``C:\\Users\\me\\x``
    -> ``~/x``, ``C:\\Windows\\x`` -> ``/usr/x``, ``$env:USERPROFILE`` -> ``~``,
    ``$env:TEMP\\x`` -> ``/tmp/x`` (cmd's ``%USERPROFILE%``, ``%TEMP%`` alike), ``a\\b`` -> ``a/b``; a POSIX
    path as it is."""
    lowered = path.lower()
    for variable, place in (("$env:userprofile", "~"), ("$home", "~"), ("$env:homepath", "~"), ("$env:temp", "/tmp"),
                            ("$env:tmp", "/tmp"), ("$env:windir", "/usr"), ("$env:systemroot", "/usr"),
                            # cmd's spelling of the same variables
                            ("%userprofile%", "~"), ("%homepath%", "~"), ("%temp%", "/tmp"), ("%tmp%", "/tmp"),
                            ("%windir%", "/usr"), ("%systemroot%", "/usr"), ("%programfiles%", "/usr"),
                            ("%appdata%", "~/AppData/Roaming"), ("%localappdata%", "~/AppData/Local"),
                            ("%systemdrive%", "")):
        if lowered.startswith(variable):
            return (place + path[len(variable):].replace("\\", "/")) or "/"
    if len(path) >= 2 and path[1] == ":" and path[0].isalpha():
        parts = [p for p in path[2:].replace("\\", "/").split("/") if p]
        if not parts:
            return "/"
        head = parts[0].lower()
        if head == "users" and len(parts) >= 2:
            return "/".join(["~", *parts[2:]])
        if head == "users":
            return "/home"
        if head in ("windows", "program files", "program files (x86)", "programdata"):
            return "/".join(["/usr", *parts[1:]])
        return "/" + "/".join(parts)  # another drive's folder: outside the project, as /x is
    return path.replace("\\", "/")


def _windows_style(args: list[str]) -> bool:
    """Whether a command that has a POSIX namesake (rm, cat, rmdir) is written the Windows
    way here: a cmd switch (``/s``), a PowerShell parameter (``-Recurse``, ``-Force``,
    ``-Path``) or a Windows path."""
    return any(a.lower() in ("/s", "/q", "/f") or a[:2] == "-R" and len(a) > 2 and a[2:3].islower()
               or a.lower() in ("-force", "-fo", "-path", "-literalpath", "-recurse") or "\\" in a
               or len(a) >= 2 and a[1] == ":" and a[0].isalpha() or a.lower().startswith("$env:") for a in args)


def _operands(args: list[str]) -> list[str]:
    """The paths of a cmdlet or cmd command: neither switches nor parameters."""
    out: list[str] = []
    skip = False
    for arg in args:
        lowered = arg.lower()
        if skip:
            skip = False
            continue
        if lowered in ("-path", "-literalpath", "-destination"):
            continue
        if lowered in ("-include", "-exclude", "-filter", "-erroraction", "-ea"):
            skip = True
            continue
        if arg.startswith("-") or len(arg) == 2 and arg[0] == "/" and arg[1].isalpha():
            continue
        out.append(arg)
    return out


def _download(args: list[str], lowered: list[str]) -> str | None:
    """``Invoke-WebRequest URL -OutFile F`` as ``curl -o F URL``."""
    url = next((a for a in args if a.lower().startswith(("http://", "https://"))), None)
    if url is None:
        return None
    out = next((args[k + 1] for k, a in enumerate(lowered[:-1]) if a in ("-outfile", "-o", "-out")), None)
    return f"curl -o {posix_path(out)} {url}" if out is not None else f"curl {url}"


__all__ = ["HEADS", "equivalent", "posix_path", "shell_code"]
