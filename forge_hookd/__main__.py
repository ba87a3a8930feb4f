"""``python -m forge_hookd`` is ``forge-hook-run``; ``main`` is also its entry point."""

from __future__ import annotations


def main() -> None:
    """Answer signals from the first moment, then load and run the command."""
    from forge_hookd.signals import answer_signals_during_startup

    answer_signals_during_startup()
    from forge_hookd.cli import main as run

    run()


if __name__ == "__main__":
    main()
