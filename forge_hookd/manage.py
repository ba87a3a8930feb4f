"""``forge-hook``'s entry point by the module path it had before the package had wings:
pip's scripts of an editable install name ``forge_hookd.manage:main``, and ``python -m
forge_hookd.manage`` runs the command. The command lives in :mod:`forge_hookd.cli.manage`."""

import sys

from forge_hookd.cli.manage import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
