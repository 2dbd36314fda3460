"""The embedded store: one SQLite file, one connection behind a lock, safe to share between threads.

The file runs in WAL mode with `synchronous=NORMAL`: a commit is in the operating system's hands when it
returns, which survives the process being killed at any moment (only a power cut could lose the last
commits). Another process (a simulation job's worker) may open the same file; a writer waits up to 30 s
for another's lock. At open the file is checked (`PRAGMA quick_check`) before anything is written to it:
an empty, foreign or damaged file is refused in one line and left as it was.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

from ...core.errors import DataError
from .migrations import Dialect
from .sql import SqlStore, one_line
from .tx import Tx

DIALECT = Dialect(
    name="sqlite", real="REAL", bigint="INTEGER",
    tables="SELECT name FROM sqlite_master WHERE type = 'table'",
    columns="SELECT name FROM pragma_table_info(?)",
)
#: Seconds a writer waits for another connection's lock before giving up.
BUSY_SECONDS = 30


class SqliteStore(SqlStore):
    """The store in one SQLite file (`:memory:` for one that lives as long as the object)."""

    dialect = DIALECT

    def __init__(self, path: str | Path, verify: bool = True):
        """Open (creating it if missing) and migrate the file at `path`; `verify`: check its pages first.
        DataError, in one line naming the file, if it cannot be used."""
        super().__init__(str(path), str(path))
        self._lock = threading.Lock()
        self._closed = False
        if self.path != ":memory:":
            refuse_empty(Path(self.path))
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                       timeout=BUSY_SECONDS)
        except (OSError, sqlite3.Error) as exc:
            raise DataError(f"{self.path}: cannot open the games database ({one_line(exc)})") from None
        try:
            if verify:
                self._verify()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute(f"PRAGMA busy_timeout={BUSY_SECONDS * 1000}")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise DataError(f"{self.path}: cannot use it as the games database ({one_line(exc)})") from None
        except BaseException:
            self._db.close()
            raise

    def _verify(self) -> None:
        """DataError unless every page of the file reads (`PRAGMA quick_check`; nothing is written)."""
        try:
            found = [str(row[0]) for row in self._db.execute("PRAGMA quick_check").fetchall()]
        except sqlite3.DatabaseError as exc:
            if "not a database" in str(exc):
                raise DataError(f"{self.path}: not a SQLite database ({one_line(exc)}); give a tablepress store"
                                f" or a new file") from None
            found = [str(exc)]
        if found != ["ok"]:
            more = f" and {len(found) - 1} more faults" if len(found) > 1 else ""
            raise DataError(f"{self.path}: the database is damaged ({' '.join(found[0].split())}{more});"
                            f" restore it from a backup")

    @contextlib.contextmanager
    def _transaction(self, write: bool = False) -> Iterator[Tx]:
        """A transaction on the one connection, under the lock (BEGIN IMMEDIATE when it will write)."""
        with self._lock:
            if self._closed:
                raise sqlite3.ProgrammingError("the store is closed")
            self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield self._db
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def close(self) -> None:
        """Close the database (a second close does nothing)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()


def refuse_empty(path: Path) -> None:
    """DataError if `path` is an empty file: SQLite would take it for a new database and lose nothing, but an
    empty file where a store should be means the store was lost (a failed copy, a truncation)."""
    try:
        empty = path.is_file() and path.stat().st_size == 0
    except OSError:
        return
    if empty:
        raise DataError(f"{path}: the file is empty, not a tablepress database; restore it from a backup, or"
                        f" remove it to start a new store")
