"""The `tablepress` command's entry point: the command line, with a Ctrl-C while it starts up ending quietly too."""

from __future__ import annotations

import sys


def main() -> None:
    """Load the command line (which loads every game) and run it; Ctrl-C while loading exits with 130."""
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        sys.exit(130)
    run()
