"""Versioned schema migrations, the same numbered list for SQLite and PostgreSQL.

The `schema_version` table holds one row per migration applied (version, name, time). Opening a store
applies the missing ones in order, all in one transaction: a failure leaves the database as it was. A
database made before versions were kept (tablepress 0.1's SQLite file) has no `schema_version`; the
first migrations create what it lacks with `IF NOT EXISTS` and add the columns older files miss, so it
upgrades in place. A database newer than this code is refused. A new migration is appended to
MIGRATIONS with the next number; a released one never changes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ...core.errors import DataError
from .tx import Tx


@dataclass(frozen=True)
class Dialect:
    """What differs between the backends' schemas: column types, and how to list tables and columns."""

    name: str
    real: str  # a double-precision float
    bigint: str  # a 64-bit whole number
    tables: str  # SELECT the names of the tables
    columns: str  # SELECT the names of the columns of table `?`
    lock: str | None = None  # run first in the migrations' transaction, so that two starting servers take turns
    now: str = "((julianday('now') - 2440587.5) * 86400.0)"  # the database's clock, in seconds since 1970
    skip_locked: str = ""  # ends a SELECT that picks a row to claim: skip rows another transaction holds
    for_update: str = ""  # ends a SELECT of a row the transaction will change: others wait (SQLite's writers take turns)


@dataclass(frozen=True)
class Migration:
    """One step of the schema: statements (`{real}`, `{bigint}` stand for the dialect's types) and columns
    added where a table made by older code lacks them."""

    version: int
    name: str
    statements: tuple[str, ...]
    columns: tuple[tuple[str, str, str], ...] = field(default=())  # (table, column, type)


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "games and their actions", (
        """CREATE TABLE IF NOT EXISTS games (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            players INTEGER NOT NULL,
            options TEXT NOT NULL,
            seats TEXT NOT NULL,
            names TEXT NOT NULL,
            seed {bigint} NOT NULL,
            variant TEXT,
            token_hashes TEXT NOT NULL,
            created {real} NOT NULL,
            status TEXT NOT NULL DEFAULT 'playing',
            scores TEXT,
            winners TEXT,
            client TEXT,
            variant_id TEXT
        )""",
        """CREATE TABLE IF NOT EXISTS actions (
            game_id TEXT NOT NULL REFERENCES games(id),
            idx INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            public TEXT NOT NULL,
            at {real} NOT NULL,
            PRIMARY KEY (game_id, idx)
        )""",
    ), columns=(("games", "winners", "TEXT"), ("games", "client", "TEXT"), ("games", "variant_id", "TEXT"))),
    Migration(2, "saved variants and simulation jobs", (
        """CREATE TABLE IF NOT EXISTS variants (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            name TEXT NOT NULL,
            toml TEXT NOT NULL,
            overrides TEXT NOT NULL,
            client TEXT,
            created {real} NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS sim_jobs (
            id TEXT PRIMARY KEY,
            request TEXT NOT NULL,
            status TEXT NOT NULL,
            done INTEGER NOT NULL DEFAULT 0,
            games INTEGER NOT NULL,
            attempt INTEGER NOT NULL DEFAULT 0,
            summary TEXT,
            report TEXT,
            error TEXT,
            client TEXT,
            created {real} NOT NULL,
            started {real},
            finished {real}
        )""",
    )),
    Migration(3, "a revision per game, bumped by every write to it", (
        "ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0",
        "UPDATE games SET revision = (SELECT COUNT(*) FROM actions WHERE actions.game_id = games.id)",
    )),
    Migration(4, "a lease per game on moving its AI seats, so that one process moves them", (
        """CREATE TABLE IF NOT EXISTS ai_leases (
            game_id TEXT PRIMARY KEY,
            holder TEXT NOT NULL,
            expires {real} NOT NULL
        )""",
    )),
    Migration(5, "a heartbeat per running simulation job, so that only a job whose process stopped runs again", (
        "ALTER TABLE sim_jobs ADD COLUMN heartbeat {real}",
        "UPDATE sim_jobs SET heartbeat = started WHERE status = 'running'",
    )),
    Migration(6, "players, their one-time links and games, lobby tables and their seats, chat per game", (
        "CREATE TABLE IF NOT EXISTS players (id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE,"
        " created {real} NOT NULL)",
        "CREATE TABLE IF NOT EXISTS player_links (code_hash TEXT PRIMARY KEY, player_id TEXT NOT NULL,"
        " sealed TEXT NOT NULL, expires {real} NOT NULL)",
        """CREATE TABLE IF NOT EXISTS lobby_tables (
            id TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL,
            ai TEXT NOT NULL, private INTEGER NOT NULL, rated INTEGER NOT NULL, clock INTEGER,
            creator TEXT NOT NULL, created {real} NOT NULL, touched {real} NOT NULL, game_id TEXT
        )""",
        "CREATE TABLE IF NOT EXISTS lobby_seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, player_id TEXT NOT NULL,"
        " PRIMARY KEY (table_id, seat), UNIQUE (table_id, player_id))",
        "CREATE TABLE IF NOT EXISTS player_games (player_id TEXT NOT NULL, game_id TEXT NOT NULL, seat INTEGER NOT NULL,"
        " joined {real} NOT NULL, PRIMARY KEY (player_id, game_id))",
        "CREATE INDEX IF NOT EXISTS player_games_by_game ON player_games (game_id)",
        "CREATE TABLE IF NOT EXISTS chat (game_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,"
        " name TEXT NOT NULL, text TEXT NOT NULL, emote TEXT, at {real} NOT NULL, PRIMARY KEY (game_id, n))",
    )),
    Migration(7, "the name of the variant a game plays, kept with the game", (),
              columns=(("games", "variant_name", "TEXT"),)),
    Migration(8, "players' ratings per game, the rated games, and the change each finished one made", (
        "CREATE TABLE IF NOT EXISTS ratings (game TEXT NOT NULL, player_id TEXT NOT NULL, rating {real} NOT NULL,"
        " games INTEGER NOT NULL, updated {real} NOT NULL, PRIMARY KEY (game, player_id))",
        "CREATE INDEX IF NOT EXISTS ratings_by_rating ON ratings (game, rating)",
        "CREATE TABLE IF NOT EXISTS rated_games (game_id TEXT PRIMARY KEY, game TEXT NOT NULL, created {real} NOT NULL,"
        " settled {real})",
        "CREATE TABLE IF NOT EXISTS rating_changes (game_id TEXT NOT NULL, seat INTEGER NOT NULL, player_id TEXT NOT NULL,"
        " old_rating {real} NOT NULL, new_rating {real} NOT NULL, PRIMARY KEY (game_id, seat))",
    )),
    Migration(9, "turn clocks: a clocked game's seconds a turn, the seats it waits on and their deadlines, the moves"
                 " the AI made at time-out", (
        "CREATE TABLE IF NOT EXISTS game_clocks (game_id TEXT PRIMARY KEY, seconds INTEGER NOT NULL, level TEXT NOT NULL,"
        " revision INTEGER NOT NULL DEFAULT -1)",
        "CREATE TABLE IF NOT EXISTS clock_waits (game_id TEXT NOT NULL, seat INTEGER NOT NULL, since INTEGER NOT NULL,"
        " deadline {real} NOT NULL, PRIMARY KEY (game_id, seat))",
        "CREATE INDEX IF NOT EXISTS clock_waits_by_deadline ON clock_waits (deadline)",
        "CREATE TABLE IF NOT EXISTS clock_timeouts (game_id TEXT NOT NULL, idx INTEGER NOT NULL, attempt TEXT NOT NULL,"
        " seat INTEGER NOT NULL, action TEXT NOT NULL, at {real} NOT NULL, PRIMARY KEY (game_id, idx, attempt))",
    )),
    Migration(10, "a finished game's rematch, kept with the game so that every process gives the same one", (),
              columns=(("games", "rematch_id", "TEXT"),)),
    Migration(11, "a saved variant's maker (who may delete it) and whether it is listed; older ones: listed, no maker",
              (), columns=(("variants", "owner", "TEXT"), ("variants", "public", "INTEGER NOT NULL DEFAULT 1"))),
)

#: The schema version this code writes.
LATEST = MIGRATIONS[-1].version

VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL," \
                " applied {real} NOT NULL)"


def current_version(tx: Tx, dialect: Dialect) -> int:
    """The schema version of the database (0: made before versions were kept, or empty)."""
    if "schema_version" not in tables(tx, dialect):
        return 0
    (version,) = tx.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(version or 0)


def migrate(tx: Tx, dialect: Dialect, where: str, upto: int = LATEST) -> int:
    """Bring the database to schema version `upto` inside transaction `tx`; the version it was at.

    DataError (one line, naming `where`) for a database newer than this code, or one that has lost one of
    its game tables while the other still holds rows (creating it anew would reset every stored game).
    """
    if dialect.lock:
        tx.execute(dialect.lock)
    check_tables(tx, dialect, where)
    found = current_version(tx, dialect)
    if found > LATEST:
        raise DataError(f"{where}: the database's schema is version {found}, newer than this tablepress"
                        f" knows (version {LATEST}); upgrade tablepress to serve it")
    tx.execute(VERSION_TABLE.format(real=dialect.real))
    for migration in MIGRATIONS:
        if found < migration.version <= upto:
            apply(tx, dialect, migration)
            tx.execute("INSERT INTO schema_version (version, name, applied) VALUES (?, ?, ?)",
                       (migration.version, migration.name, time.time()))
    return found


def apply(tx: Tx, dialect: Dialect, migration: Migration) -> None:
    """Run one migration's statements and add the columns it names that are missing."""
    for statement in migration.statements:
        tx.execute(statement.format(real=dialect.real, bigint=dialect.bigint))
    for table, column, kind in migration.columns:
        if column not in columns(tx, dialect, table):
            tx.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


def check_tables(tx: Tx, dialect: Dialect, where: str) -> None:
    """DataError if one of `games` and `actions` is gone while the other holds rows."""
    present = tables(tx, dialect)
    for kept, missing in (("games", "actions"), ("actions", "games")):
        if kept in present and missing not in present:
            (count,) = tx.execute(f"SELECT COUNT(*) FROM {kept}").fetchone()
            if count:
                raise DataError(f"{where}: the {missing} table is missing while {count} {kept} are stored;"
                                f" restore it from a backup (starting anyway would reset the games)")


def tables(tx: Tx, dialect: Dialect) -> set[str]:
    """The names of the database's tables."""
    return {name for (name,) in tx.execute(dialect.tables).fetchall()}


def columns(tx: Tx, dialect: Dialect, table: str) -> set[str]:
    """The names of one table's columns."""
    return {name for (name,) in tx.execute(dialect.columns, (table,)).fetchall()}

