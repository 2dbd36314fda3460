"""`python -m tablepress` runs the command line."""

from .entry import main

main()
