"""Where the store is: `--database URL` (or `TABLEPRESS_DATABASE_URL`), `--db FILE`, read into a backend.

`postgresql://USER@HOST:PORT/DB` (or `postgres://`) is PostgreSQL; `sqlite:///PATH` or a plain path is
the embedded SQLite file (`sqlite:////abs/path` for an absolute path, as SQLAlchemy writes it).
"""

from __future__ import annotations

import re
from pathlib import Path

from ...core.errors import DataError
from .interface import Store

#: The environment variable naming the store when `--database` is not given.
ENV = "TABLEPRESS_DATABASE_URL"
SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]+)://")


def backend_of(where: str | Path) -> tuple[str, str]:
    """("sqlite", PATH) or ("postgresql", URL) for a store's location; DataError for any other URL scheme."""
    text = str(where)
    found = SCHEME.match(text) if isinstance(where, str) else None
    if found is None:
        if not text.strip():
            raise DataError("the database is not named: give a file or a postgresql:// URL")
        return "sqlite", text
    scheme = found.group(1).lower()
    if scheme in ("postgresql", "postgres"):
        return "postgresql", text
    if scheme == "sqlite":
        path = text[found.end():]
        if not path.startswith("/") or len(path) == 1:
            raise DataError(f"{text}: a SQLite URL is sqlite:///PATH (sqlite:////PATH for an absolute path)")
        return "sqlite", path[1:]
    raise DataError(f"{text}: unknown kind of database {scheme!r}; give a file, sqlite:///PATH or postgresql://...")


def open_store(where: str | Path, verify: bool = True) -> Store:
    """The store at `where` (see `backend_of`), opened and migrated to the current schema; `verify`: check a
    SQLite file's pages first (a job's worker skips it: the server did it at start). DataError in one line
    if it cannot be used."""
    backend, target = backend_of(where)
    if backend == "postgresql":
        from .postgres import PostgresStore

        return PostgresStore(target)
    from .sqlite import SqliteStore

    return SqliteStore(target, verify=verify)
