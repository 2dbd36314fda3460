"""A transaction as the store's SQL sees it, whichever database runs it: statements with `?` placeholders, and
the cursor each gives back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class Cursor(Protocol):
    """What a statement gives back (sqlite3's and psycopg's cursors both are one)."""

    rowcount: int

    def fetchone(self) -> Any:
        """The next row, or None."""
        ...

    def fetchall(self) -> list[Any]:
        """Every remaining row."""
        ...


class Tx(Protocol):
    """One open transaction: run statements with `?` placeholders."""

    def execute(self, sql: str, args: Sequence[Any] = ...) -> Cursor:
        """Run one statement."""
        ...
