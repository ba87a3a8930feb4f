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
  --uninstall       remove what an install with the same --prefix put there
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

if [ "$action" = uninstall ]; then
    for c in $commands; do rm -f "$bindir/$c"; done
    for m in $manpages; do rm -f "$mandir/$m"; done
    rm -rf "$venv"
    echo "forge-hook-run: removed $venv, the links in $bindir and the man pages in $mandir"
    echo "Your hooks and trust records are kept: ~/.config/forge, ~/.local/share/forge."
    exit 0
fi

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "install.sh: needs Python 3.11 or newer; '$python' is not (use --python)" >&2
    exit 1
fi

echo "forge-hook-run: installing into $venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade "$here"

mkdir -p "$bindir" "$mandir"
for c in $commands; do
    if [ -x "$venv/bin/$c" ]; then ln -sf "$venv/bin/$c" "$bindir/$c"; fi
done
for m in $manpages; do
    if [ -f "$here/man/$m" ]; then cp "$here/man/$m" "$mandir/$m"; fi
done

echo "forge-hook-run: $("$bindir/forge-hook-run" --version) installed"
echo "  executables: $(for c in $commands; do [ -e "$bindir/$c" ] && printf '%s ' "$bindir/$c"; done)"
echo "  man pages:   $mandir (man forge-hook-run)"
echo "  uninstall:   ./install.sh --uninstall$( [ "$prefix" = "$HOME/.local" ] || printf ' --prefix %s' "$prefix")"
case ":$PATH:" in
    *":$bindir:"*) ;;
    *) echo "  note: $bindir is not on your PATH; add it: export PATH=\"$bindir:\$PATH\"" ;;
esac
