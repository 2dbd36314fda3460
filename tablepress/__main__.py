"""`python -m tablepress` runs the command line."""

from .cli import main

main()
