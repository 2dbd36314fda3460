"""Errors a user can cause. Each carries one clear line; the CLI and web show it without a traceback."""


class TablepressError(Exception):
    """Base of every error caused by user input (files, moves, options, data)."""


class IllegalAction(TablepressError):
    """An action that is not legal for that seat in that state. The state is left unchanged."""


class PositionError(TablepressError):
    """A position file (for `tablepress score`) that cannot be read; the message names file and line."""


class DataError(TablepressError):
    """A card data file or variant that is malformed or inconsistent; the message names the field."""


class OptionError(TablepressError):
    """An unknown game option or a value it cannot take."""


class RecordError(TablepressError):
    """A game record that is malformed or does not replay."""
