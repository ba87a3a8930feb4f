"""The machine's own package managers, read for what they install (package_policy): a
program installed into the machine is a new dependency of every later command, as
``brew install`` and ``winget install`` are. Three shapes: an install verb word
(``zypper install``, ``opkg install``, ``port install``), an install verb spelt as an
option, alone or in a bundle (``rpm -ivh x.rpm``, ``dpkg -i x.deb``, ``makepkg -si``,
``yay -S x``), and no verb at all, every operand being a package (``pkg_add wget``,
``xbps-install -S x``, ``emerge x``). Queries of the same programs (``rpm -qa``,
``pacman -Ss``, ``emerge --search``, ``yay -Qua``) install nothing and pass."""

from __future__ import annotations

#: manager -> (its install verbs, its options that take a value)
VERBS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "opkg": (frozenset({"install"}), frozenset({"-d", "--dest", "-f", "--conf"})),
    "zypper": (frozenset({"install", "in"}), frozenset({"-r", "--repo", "--from", "-t", "--type"})),
    "pkg": (frozenset({"install", "add"}), frozenset({"-r", "--repository", "-j", "--jail", "-c", "--chroot"})),
    "port": (frozenset({"install"}), frozenset()),
    "snap": (frozenset({"install"}), frozenset({"--channel"})),
    "flatpak": (frozenset({"install"}), frozenset({"--arch", "--branch"})),
    "pkgin": (frozenset({"install", "in"}), frozenset()),
    "guix": (frozenset({"install"}), frozenset()),
    "aptitude": (frozenset({"install"}), frozenset({"-t", "-o"})),
    "eopkg": (frozenset({"install", "it"}), frozenset()),
}
#: managers whose install verb is an option: manager -> (the short letters that install,
#: the letters that turn the bundle into a query, the long spellings of the verb)
_OPTION_VERBS: dict[str, tuple[str, str, frozenset[str]]] = {
    "rpm": ("iUF", "qVe", frozenset({"--install", "--upgrade", "--freshen"})),
    "dpkg": ("i", "lLsSpc", frozenset({"--install"})),
    "makepkg": ("i", "", frozenset({"--install"})),
    "nix-env": ("i", "qe", frozenset({"--install"})),
}
#: pacman and its helpers: ``-S`` with only refresh and upgrade letters installs (``-Syu``);
#: ``-Ss`` searches, ``-Si`` shows, ``-Sc`` cleans
_SYNC = frozenset({"pacman", "paru", "yay", "pikaur", "trizen"})
_SYNC_LETTERS = frozenset("yu")
#: managers with no verb: every operand is a package, unless an option makes it a query
_NO_VERB: dict[str, frozenset[str]] = {
    "pkg_add": frozenset({"-Q", "-n"}),
    "xbps-install": frozenset({"-n", "--dry-run"}),
    "emerge": frozenset({"-s", "--search", "-S", "--searchdesc", "-p", "--pretend", "--info", "--sync", "-c",
                         "--depclean", "-C", "--unmerge", "-P", "--prune", "--list-sets", "-h", "--help", "-V",
                         "--version", "--check-news", "--regen", "--metadata"}),
}

NAMES = frozenset(VERBS) | frozenset(_OPTION_VERBS) | _SYNC | frozenset(_NO_VERB)


def installed(manager: str, args: list[str]) -> list[str]:
    """The packages the line installs into the machine; empty when it installs none."""
    if manager in _SYNC:  # -S from a repository, -U from a package file (pacman -U x.pkg.tar.zst)
        return _operands(args) if any(_syncs(a) or a in ("-U", "--upgrade") for a in args) else []
    if manager in _OPTION_VERBS:
        letters, query, long = _OPTION_VERBS[manager]
        if not any(a in long or _bundle_has(a, letters, query) for a in args):
            return []
        found = _operands(args)
        return found or [f"the package {manager} builds here (./PKGBUILD)" if manager == "makepkg" else manager]
    if manager in _NO_VERB:
        return [] if any(a in _NO_VERB[manager] for a in args) else _operands(args)
    verbs, with_value = VERBS[manager]
    for k, arg in enumerate(args):
        if arg in verbs:
            return _operands(args[k + 1:], with_value)
        if not arg.startswith("-"):
            return []  # another verb: a search, a list, an update of the index
    return []


def _syncs(arg: str) -> bool:
    """``-S``, ``-Sy``, ``-Syu``, ``--sync``: pacman's install; ``-Ss``, ``-Si`` query."""
    if arg == "--sync":
        return True
    return arg.startswith("-S") and not arg.startswith("--") and set(arg[2:]) <= _SYNC_LETTERS


def _bundle_has(arg: str, letters: str, query: str) -> bool:
    """A bundle of short options (``-ivh``) with an install letter and no query letter."""
    if not arg.startswith("-") or arg.startswith("--") or len(arg) < 2:
        return False
    bundle = arg[1:]
    return any(c in bundle for c in letters) and not any(c in bundle for c in query)


def _operands(args: list[str], with_value: frozenset[str] = frozenset()) -> list[str]:
    found, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-"):
            skip = arg in with_value
        else:
            found.append(arg)
    return found
