"""tablepress: play, simulate, print and change tabletop card games."""

__version__ = "0.1.0"
