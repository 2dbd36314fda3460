"""The store in PostgreSQL, through psycopg 3: one connection behind a lock, in autocommit mode, each
method one explicit transaction.

The connection is made again before a method when the last one broke (a restarted database, a dropped
network); the method that met the break fails, as any database error does, and changes nothing.
Migrations take an advisory lock, so servers starting together over one database migrate one at a time.
Every write to a game sends `NOTIFY tablepress_games, 'GAME_ID REVISION'` (`GAME_ID gone` when it is
deleted), delivered to every listening process when the write commits (web/listener.py listens).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

from ...core.errors import DataError
from .migrations import Dialect
from .interface import Stale
from .rows import GameRow, dumps
from .sql import GAME_COLUMNS, SqlStore, one_line
from .tx import Cursor, Tx

#: An arbitrary key of the advisory lock the migrations take (the same in every tablepress).
MIGRATION_LOCK = 7_024_117_301
DIALECT = Dialect(
    name="postgresql", real="DOUBLE PRECISION", bigint="BIGINT",
    tables="SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()",
    columns="SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name = ?",
    lock=f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})",
    now="CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)", skip_locked=" FOR UPDATE SKIP LOCKED",
    for_update=" FOR UPDATE",
)
#: Seconds to wait for the database to accept a connection.
CONNECT_SECONDS = 10
#: The channel on which every write to a game is announced (see `change_note` and `read_change`).
CHANNEL = "tablepress_games"
GONE = "gone"


def change_note(game_id: str, revision: int | None) -> str:
    """The payload announcing that a game is now at `revision` (None: deleted)."""
    return f"{game_id} {GONE if revision is None else revision}"


def read_change(payload: str) -> tuple[str, int | None] | None:
    """(game id, revision or None when deleted) of a payload `change_note` wrote; None for anything else."""
    game_id, _, revision = payload.partition(" ")
    if not game_id or not (revision == GONE or revision.isdecimal()):
        return None
    return game_id, None if revision == GONE else int(revision)


class PostgresTx:
    """A transaction's cursor taking the store's `?` placeholders."""

    def __init__(self, cursor: psycopg.Cursor[Any]):
        self.cursor = cursor

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Cursor:
        """Run one statement (`?` becomes psycopg's `%s`)."""
        return self.cursor.execute(sql.replace("%", "%%").replace("?", "%s"), tuple(args))


class PostgresStore(SqlStore):
    """The store in a PostgreSQL database, named by a `postgresql://USER@HOST:PORT/DB` URL."""

    dialect = DIALECT

    def __init__(self, url: str):
        """Connect to the database at `url` and migrate it; DataError, in one line, if it cannot be used."""
        super().__init__(url, hide_password(url))
        self._lock = threading.Lock()
        self._closed = False
        self._conn = self._connect()
        try:
            self._migrate()
        except psycopg.Error as exc:
            self._conn.close()
            raise DataError(f"{self.shown}: cannot use it as the games database ({one_line(exc)})") from None
        except BaseException:
            self._conn.close()
            raise

    def _connect(self) -> psycopg.Connection[Any]:
        """A new connection; DataError in one line if the database does not answer."""
        try:
            return psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_SECONDS,
                                   application_name="tablepress")
        except psycopg.Error as exc:
            raise DataError(f"{self.shown}: cannot connect to PostgreSQL ({one_line(exc)})") from None

    @contextlib.contextmanager
    def _transaction(self, write: bool = False) -> Iterator[Tx]:
        """One transaction on the connection, under the lock; the connection is made again if it broke."""
        with self._lock:
            if self._closed:
                raise psycopg.OperationalError("the store is closed")
            if self._conn.broken or self._conn.closed:
                self._conn = self._connect()
            with self._conn.transaction(), self._conn.cursor() as cursor:
                yield PostgresTx(cursor)

    @contextlib.contextmanager
    def _statement(self) -> Iterator[Tx]:
        """One statement on its own (autocommit: atomic, and one round trip instead of BEGIN … COMMIT), under
        the lock; the connection is made again if it broke."""
        with self._lock:
            if self._closed:
                raise psycopg.OperationalError("the store is closed")
            if self._conn.broken or self._conn.closed:
                self._conn = self._connect()
            with self._conn.cursor() as cursor:
                yield PostgresTx(cursor)

    def append_action(self, game_id: str, index: int, seat: int, action: str, public: str, at: float,
                      status: str | None = None, scores: list[int] | None = None,
                      winners: list[int] | None = None, expect: int | None = None) -> int:
        """As SqlStore.append_action, in one statement: raise the revision if it is `expect`, add the action and
        announce the change, or do nothing (PostgreSQL runs a data-modifying WITH whether or not it is read)."""
        sets, args = ("", ()) if status is None else (
            ", status = ?, scores = ?, winners = ?",
            (status, None if scores is None else dumps(scores), None if winners is None else dumps(winners)))
        fence, more = ("", ()) if expect is None else (" AND revision = ?", (expect,))
        with self._statement() as tx:
            done = tx.execute(
                f"WITH bumped AS (UPDATE games SET revision = revision + 1{sets} WHERE id = ?{fence}"
                " RETURNING id, revision),"
                " added AS (INSERT INTO actions (game_id, idx, seat, action, public, at)"
                " SELECT id, ?, ?, ?, ?, ? FROM bumped RETURNING idx)"
                " SELECT revision, pg_notify(?, id || ' ' || revision) FROM bumped",
                (*args, game_id, *more, index, seat, action, public, at, CHANNEL)).fetchone()
        if done is None:
            self._stale(game_id, expect)
        return int(done[0])

    def _stale(self, game_id: str, expect: int | None) -> None:
        """Raise Stale for a write refused at revision `expect`, saying what the game's revision is now."""
        with self._statement() as tx:
            found = tx.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()
        if found is None:
            raise Stale(f"game {game_id!r} is no longer stored", game_id, None)
        raise Stale(f"game {game_id!r} changed meanwhile (revision {found[0]}, not {expect})", game_id, int(found[0]))

    def load_since(self, game_id: str, count: int) -> GameRow | None:
        """As SqlStore.load_since, in one statement (the game's row repeated beside each action it gives)."""
        with self._statement() as tx:
            rows = tx.execute(
                f"SELECT one.*, a.seat, a.action, a.public, a.at FROM (SELECT {GAME_COLUMNS} FROM games g WHERE"
                " g.id = ?) one LEFT JOIN actions a ON a.game_id = one.id AND a.idx >= ? ORDER BY a.idx",
                (game_id, count)).fetchall()
        if not rows:
            return None
        width = len(rows[0]) - 4
        actions = [tuple(r[width:]) for r in rows if r[width] is not None]
        return self._row_with(game_id, rows[0][:width], actions)

    def _changed(self, tx: Tx, game_id: str, revision: int | None) -> None:
        """Announce on CHANNEL, when `tx` commits, that a game is now at `revision` (None: deleted)."""
        tx.execute("SELECT pg_notify(?, ?)", (CHANNEL, change_note(game_id, revision)))

    def close(self) -> None:
        """Close the connection (a second close does nothing)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._conn.close()


def hide_password(url: str) -> str:
    """`url` with its password, if any, shown as `***`."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))
