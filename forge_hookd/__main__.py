"""``python -m forge_hookd`` is ``forge-hook-run``."""

from forge_hookd.cli import main

if __name__ == "__main__":
    main()
