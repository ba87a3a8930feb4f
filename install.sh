#!/bin/sh
# Install forge-hook-run for the current user: its own virtualenv, the executables
# linked into PREFIX/bin, the man pages into PREFIX/share/man/man1. Idempotent: run it
# again to upgrade. ./install.sh --help for the options.
set -eu

prefix="${HOME}/.local"
python="${PYTHON:-python3}"
action=install

usage() {
    cat <<USAGE
usage: ./install.sh [--prefix DIR] [--python PYTHON] [--uninstall]

  --prefix DIR      install under DIR (default: ~/.local): DIR/bin, DIR/share/man/man1,
                    and the virtualenv in DIR/lib/forge-hook-run
  --python PYTHON   the Python 3.11+ to build the virtualenv with (default: python3)
  --uninstall       take forge out of the agent settings in your home that
                    forge-hook install wired, stop the warm runner, then remove what
                    an install with the same --prefix put there; your hooks, trust
                    records and logs are kept, and a project's settings are listed
USAGE
}

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || { usage >&2; exit 2; }; prefix="$2"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        --python) [ $# -ge 2 ] || { usage >&2; exit 2; }; python="$2"; shift 2 ;;
        --uninstall) action=uninstall; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option: $1" >&2; usage >&2; exit 2 ;;
    esac
done

case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac
here="$(cd "$(dirname "$0")" && pwd)"
venv="$prefix/lib/forge-hook-run"
bindir="$prefix/bin"
mandir="$prefix/share/man/man1"
commands="forge-hook-run forge-hook"
manpages="forge-hook-run.1 forge-hook.1"
# The directories this script may create, parents first; the ones it did create are
# recorded in the virtualenv, so that --uninstall removes those (when empty) and no other.
dirs="$prefix $prefix/bin $prefix/lib $prefix/share $prefix/share/man $mandir"
created_record="$venv/.created-dirs"

# What the user made with the tool, never removed: hooks, trust records, the log_all log.
user_data() {
    printf '%s\n' "${FORGE_CONFIG_DIR:-${XDG_CONFIG_HOME:-$HOME/.config}/forge}" \
        "${XDG_DATA_HOME:-$HOME/.local/share}/forge" "${XDG_STATE_HOME:-$HOME/.local/state}/forge"
}

uninstall() {
    # First, while forge's own Python is here: forge out of every agent file in your home
    # that forge-hook install wired, and its resident runner stopped (forge_hookd.agents.
    # removal). When a file will not come out, nothing is removed: the agent would call a
    # command that is gone on every event.
    if [ -x "$venv/bin/python" ]; then
        if "$venv/bin/python" -c 'import forge_hookd.agents.removal' 2>/dev/null; then
            "$venv/bin/python" -m forge_hookd.agents.removal || exit 1
        else
            echo "note: this forge-hook-run is too old to take itself out of agents' settings: the lines below name them"
        fi
    elif [ -d "$venv" ]; then
        echo "note: $venv/bin/python is gone, so forge cannot take itself out of agents' settings; its install records: ${XDG_STATE_HOME:-$HOME/.local/state}/forge/installs.json"
    fi
    # What still calls forge (shell start-up lines, git hooks, agent settings), found
    # while forge's own Python is still here to read its records; said at the end.
    leftovers=""
    if [ -x "$venv/bin/python" ]; then
        # (forge_hookd.leftovers before the package had wings: an older install's module.)
        leftovers="$("$venv/bin/python" -m forge_hookd.agents.leftovers 2>/dev/null ||
            "$venv/bin/python" -m forge_hookd.leftovers 2>/dev/null || true)"
    fi
    removed=""
    for c in $commands; do
        # Only our own links: a forge-hook from elsewhere in the same bin stays.
        link="$(readlink "$bindir/$c" 2>/dev/null || true)"
        if [ -L "$bindir/$c" ] && { [ "$link" = "$venv/bin/$c" ] || [ "$link" = "$venv/bin/$c-launcher" ] || [ "$link" = "$venv/bin/$c-native" ]; }; then
            rm -f "$bindir/$c"; removed="$removed $bindir/$c"
        fi
    done
    for m in $manpages; do
        if [ -f "$mandir/$m" ]; then rm -f "$mandir/$m"; removed="$removed $mandir/$m"; fi
    done
    created=""
    if [ -f "$created_record" ]; then created="$(cat "$created_record")"; fi
    if [ -d "$venv" ]; then rm -rf "$venv"; removed="$removed $venv"; fi
    # Deepest first; rmdir refuses a directory that holds anything else, which stays.
    for d in $(printf '%s\n' $created | sort -r); do
        if rmdir "$d" 2>/dev/null; then removed="$removed $d/"; fi
    done
    if [ -z "$removed" ]; then
        echo "forge-hook-run: nothing to remove: it is not installed in $prefix"
    else
        echo "forge-hook-run: removed:"
        for r in $removed; do echo "  $r"; done
    fi
    kept=""
    for d in $(user_data); do
        if [ -e "$d" ]; then kept="$kept $d"; fi
    done
    if [ -n "$kept" ]; then
        echo "kept (your hooks, trust records and logs; remove them yourself if you want):"
        for k in $kept; do echo "  $k"; done
    fi
    if [ -n "$leftovers" ]; then
        echo "these still call forge, which is gone now:"
        printf '%s\n' "$leftovers"
    fi
}

if [ "$action" = uninstall ]; then
    uninstall
    exit 0
fi

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "install.sh: needs Python 3.11 or newer; '$python' is not (use --python)" >&2
    exit 1
fi

missing=""
for d in $dirs; do [ -d "$d" ] || missing="$missing $d"; done

echo "forge-hook-run: installing into $venv"
"$python" -m venv "$venv"
# Build from a copy in a temporary directory: setuptools writes build/ and
# forge_hookd.egg-info/ beside the pyproject.toml it builds (pip builds in place), and
# an install must leave the checkout as it found it. These are all the build reads.
src="$(mktemp -d "${TMPDIR:-/tmp}/forge-hook-run-build.XXXXXX")"
trap 'rm -rf "$src"' EXIT
cp -R "$here/pyproject.toml" "$here/README.md" "$here/forge_hookd" "$src/"
rm -rf "$src/forge_hookd/__pycache__"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade "$src"

mkdir -p "$bindir" "$mandir"
for d in $missing; do echo "$d"; done >> "$created_record"
# forge-hook-run's launcher: Python without site (-S) and without the caller's PYTHON*
# variables (-I), the virtualenv's packages put on sys.path by hand. site and the
# re module that pip's script imports cost more than a resident runner's whole answer
# (bench/README.md, "warm.py"); pip's script stays beside it and works the same, slower.
launcher="$venv/bin/forge-hook-run-launcher"
python_bin="$venv/bin/python"
packages="$("$python_bin" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
if [ ${#python_bin} -lt 200 ]; then  # a shebang line is cut at 255 bytes
    cat > "$launcher.tmp" <<LAUNCHER
#!$python_bin -IS
# forge-hook-run, written by install.sh: see bench/README.md, "warm.py".
import sys
sys.path.append($("$python_bin" -c 'import sys; print(repr(sys.argv[1]))' "$packages"))
from forge_hookd.__main__ import main
sys.exit(main())
LAUNCHER
    chmod 755 "$launcher.tmp" && mv "$launcher.tmp" "$launcher"
fi
# And before the launcher, when there is a C compiler: the native warm client, which hands
# the run to the resident runner without starting Python at all (10 ms against the
# launcher's 20, bench/README.md, "warm.py") and execs the launcher for every other run.
native="$venv/bin/forge-hook-run-native"
rm -f "$native"
if [ -x "$launcher" ]; then
    if ! "$python_bin" -I -S -c "import sys; sys.path.append(sys.argv.pop(1)); sys.argv[0] = 'install.sh'; \
from forge_hookd.warm.build import main; sys.exit(main())" "$packages" "$native" --cold "$launcher"; then
        echo "  note: forge-hook-run is the Python launcher: a warm run costs about 10 ms more (install a C compiler and run ./install.sh again)"
    fi
fi
for c in $commands; do
    target="$venv/bin/$c"
    if [ "$c" = forge-hook-run ] && [ -x "$native" ]; then target="$native"
    elif [ "$c" = forge-hook-run ] && [ -x "$launcher" ]; then target="$launcher"; fi
    if [ -x "$target" ]; then ln -sf "$target" "$bindir/$c"; fi
done
for m in $manpages; do
    if [ -f "$here/man/$m" ]; then cp "$here/man/$m" "$mandir/$m"; fi
done

echo "forge-hook-run: $("$bindir/forge-hook-run" --version) installed"
echo "  executables: $(for c in $commands; do [ -e "$bindir/$c" ] && printf '%s ' "$bindir/$c"; done)"
echo "  man pages:   $mandir (man forge-hook-run)"
echo "  library:     $venv/bin/python (import forge_hookd); in your own virtualenv: pip install $here"
echo "  uninstall:   ./install.sh --uninstall$( [ "$prefix" = "$HOME/.local" ] || printf ' --prefix %s' "$prefix")"
on_path=yes
case ":$PATH:" in
    *":$bindir:"*) ;;
    *) on_path=no; echo "  note: $bindir is not on your PATH; add it: export PATH=\"$bindir:\$PATH\"" ;;
esac
# man-db finds pages beside the directories on PATH (DIR/bin -> DIR/share/man) only
# while MANPATH is unset or has an empty entry (which stands for that search).
mandirs="$prefix/share/man"
if [ -n "${MANPATH:-}" ]; then
    case ":$MANPATH:" in
        *":$mandirs:"*|*":$mandirs/:"*) ;;
        *"::"*) [ "$on_path" = yes ] || echo "  note: man forge-hook-run needs $bindir on PATH, or: export MANPATH=\"$mandirs:\$MANPATH\"" ;;
        *) echo "  note: MANPATH is set without $mandirs, so man forge-hook-run will not find the pages; add it: export MANPATH=\"$mandirs:\$MANPATH\"" ;;
    esac
elif [ "$on_path" = no ]; then
    echo "  note: man forge-hook-run finds the pages once $bindir is on PATH (or: man -l $mandir/forge-hook-run.1)"
fi
