"""Build the native warm client (``client.c``): forge-hook-run's first step without
an interpreter to start, when the resident runner is up (DESIGN.md, "Warm runner").

``python -m forge_hookd.warm.build OUT --cold LAUNCHER`` compiles it with the system's
C compiler (``$CC``, else ``cc``), for this package and this interpreter: the request's
key is made of the package directory and ``sys.hexversion`` (:func:`warmclient.code_key`),
so the client is built by the interpreter that will run the cold runs. install.sh calls
it; without a compiler it says so and exits 1, and the Python launcher stays in place.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from forge_hookd.warm import client as warmclient

SOURCE = Path(__file__).with_name("client.c")


class BuildError(Exception):
    """The client could not be built; the message says why, in one line."""


def c_string(text: str) -> str:
    """``text`` as a C string literal: every byte that is not a plain letter, digit or
    ``/._-`` as an octal escape, so no path can end the literal or start a trigraph."""
    raw = text.encode(sys.getfilesystemencoding(), "surrogateescape")
    safe = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-"
    return '"' + "".join(chr(b) if b in safe else f"\\{b:03o}" for b in raw) + '"'


def compiler() -> list[str] | None:
    """The C compiler's command (``$CC`` may carry flags), None when there is none."""
    command = shlex.split(os.environ.get("CC") or "cc")
    if not command or shutil.which(command[0]) is None:
        return None
    return command


#: The usual hardening (Debian's and Fedora's defaults for packaged C): a checked
#: stack, checked string and memory calls, a position-independent executable, and
#: relocations read-only before main.
HARDENING = ("-D_FORTIFY_SOURCE=2", "-fstack-protector-strong", "-Wformat", "-Werror=format-security",
             "-fPIE", "-pie", "-Wl,-z,relro", "-Wl,-z,now")
#: The address and undefined-behaviour sanitizers, for the tests (FORGE_TEST_NATIVE_SANITIZE=1):
#: any memory error or undefined behaviour ends the client with a report.
SANITIZERS = ("-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-g")


def build(out: Path, cold: Path, *, sanitize: bool = False) -> None:
    """Compile the client to ``out`` (replaced whole, never half-written), which execs
    ``cold`` for every run it does not hand to the resident runner; hardened, or with
    the sanitizers (``sanitize``: for the tests, not for users: twice the start-up)."""
    import tempfile  # here: the resident runner imports every module, and no run needs it

    command = compiler()
    if command is None:
        raise BuildError(f"no C compiler ({os.environ.get('CC') or 'cc'} not found)")
    if not cold.is_absolute():
        raise BuildError(f"the cold launcher must be an absolute path, not {cold}")
    key_dir = warmclient.__file__.rsplit("/", 2)[0]  # the package, as code_key names it
    defines = [f"-DFORGE_COLD={c_string(str(cold))}", f"-DFORGE_KEY_DIR={c_string(key_dir)}",
               f"-DFORGE_HEXVERSION={sys.hexversion}"]
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, partial = tempfile.mkstemp(prefix=f".{out.name}.", dir=out.parent)
    os.close(fd)
    try:
        flags = ["-O1", *SANITIZERS] if sanitize else ["-O2", *HARDENING]
        done = subprocess.run([*command, *flags, "-Wall", "-Werror", "-o", partial, *defines, str(SOURCE)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            detail = (done.stderr.strip().splitlines() or ["no message"])[0]
            raise BuildError(f"{command[0]} failed (exit {done.returncode}): {detail}")
        os.chmod(partial, 0o755)
        os.replace(partial, out)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)


def main(argv: list[str] | None = None) -> int:
    import argparse  # as tempfile in build()

    parser = argparse.ArgumentParser(prog="python -m forge_hookd.warm.build",
                                     description="Build forge-hook-run's native warm client.")
    parser.add_argument("out", type=Path, help="the executable to write")
    parser.add_argument("--cold", type=Path, required=True,
                        help="the Python launcher it execs for every run it does not hand to the resident runner")
    parser.add_argument("--sanitize", action="store_true",
                        help="build with the address and undefined-behaviour sanitizers (for tests)")
    args = parser.parse_args(argv)
    try:
        build(args.out, args.cold, sanitize=args.sanitize)
    except (BuildError, OSError) as exc:
        print(f"forge-hook-run: the native warm client was not built: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
